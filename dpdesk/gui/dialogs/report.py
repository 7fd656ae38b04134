"""File > Export report: the output document with a cover, as HTML or PDF."""

from __future__ import annotations
