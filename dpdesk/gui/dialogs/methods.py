"""The methods paragraph: generated from the project, editable, with a Copy button."""

from __future__ import annotations
