"""A released (noisy) table as rows, and written to CSV or xlsx by the shared safe writer.

The Tabulate view and the command line show a release from the ledger; this module turns
one :class:`~dpdesk.project.ledger.releases.LedgerEntry` into a plain table -- one row per
released cell, a column per key axis (named after the request's columns, then its ``by``
column), the released value, and the simultaneous half-width with its confidence -- and
writes it with :func:`dpdesk.project.export.tables.write_table`, so keys taken from the
data (``=cmd|...`` as a region name) reach a spreadsheet as inert text and released
numbers stay numbers. Reading the ledger again costs no budget.
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path
from typing import Any

from dpdesk.project.export.tables import write_table

__all__ = ["release_table", "export_release"]


def _axis_names(entry, n_axes: int) -> list[str]:
    request = entry.request or {}
    names = [str(c) for c in request.get("columns") or []]
    if request.get("by"):
        names.append(str(request["by"]))
    if len(names) != n_axes:
        names = [f"key {i + 1}" for i in range(n_axes)]
    return names


def _cells(keys: list, values: Any, prefix: tuple = ()) -> list[tuple[tuple, Any]]:
    """(key path, value) of every cell of a nested value list shaped like ``keys``."""
    if not keys:
        return [(prefix, values)]
    if not isinstance(values, (list, tuple)) or len(values) != len(keys[0]):
        return [(prefix, values)]  # an unexpected shape: keep the value as it is
    out = []
    for key, value in zip(keys[0], values):
        out.extend(_cells(keys[1:], value, prefix + (key,)))
    return out


def release_table(entry) -> list[dict[str, Any]]:
    """One dict per released cell: the keys, ``released value``, ``± (all cells at once)``,
    ``confidence``, ``statistic`` and ``ledger seq``; numbers stay numbers."""
    result = entry.result or {}
    keys = list(result.get("keys") or [])
    names = _axis_names(entry, len(keys))
    hw = result.get("half_width") or {}
    half = hw.get("simultaneous")
    confidence = hw.get("confidence")
    rows = []
    for path, value in _cells(keys, result.get("values")):
        row: dict[str, Any] = {name: key for name, key in zip(names, path)}
        if not path:
            row["cell"] = "all respondents"
        row["released value"] = value
        row["± (all cells at once)"] = None if half is None else float(half)
        row["confidence"] = None if confidence is None else float(Fraction(str(confidence)))
        row["statistic"] = entry.description
        row["ledger seq"] = entry.seq
        rows.append(row)
    return rows


def export_release(entry, path: str | os.PathLike) -> Path:
    """Write :func:`release_table` of ``entry`` to ``path`` (.csv or .xlsx)."""
    return write_table(path, release_table(entry), sheet=f"Release {entry.seq}")
