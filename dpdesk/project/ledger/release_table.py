"""A released (noisy) table as rows, and written to CSV or xlsx by the shared safe writer.

The Tabulate view and the command line show a release from the ledger; this module turns
one :class:`~dpdesk.project.ledger.releases.LedgerEntry` into a plain table -- one row per
released cell, a column per key axis (named after the request's columns, then its ``by``
column), the released value as recorded, the value after free post-processing, its
interval (:mod:`dpdesk.project.ledger.release_cells`), and the words every copy carries:
the noise, the privacy cost and what the intervals cover after post-processing -- and
writes it with :func:`dpdesk.project.export.tables.write_table`, so keys taken from the
data (``=cmd|...`` as a region name) reach a spreadsheet as inert text and released
numbers stay numbers. An xlsx also gets an "About" sheet with the same words. Reading the
ledger again costs no budget.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from dpdesk.project.export.tables import write_table, write_xlsx
from dpdesk.project.ledger.release_cells import release_cells

__all__ = ["release_table", "export_release", "release_about"]


def release_table(entry, labels=None) -> list[dict[str, Any]]:
    """One dict per released cell: the keys, ``released value`` (as recorded: the raw noisy
    value, or the mean), ``post-processed value``, ``interval low``/``interval high``,
    ``± (all cells at once)``, ``confidence``, ``statistic``, ``noise``, ``privacy cost``,
    ``intervals cover`` and ``ledger seq``; numbers stay numbers. With ``labels``
    (``release_cells.entry_labels``) the key columns are named by the columns' labels and
    hold the value labels."""
    from dpdesk.project.ledger.release_cells import described

    rc = release_cells(entry, labels)
    hw = (entry.result or {}).get("half_width") or {}
    half = hw.get("simultaneous")
    rows = []
    for cell in rc.cells:
        row: dict[str, Any] = {name: key for name, key in zip(rc.axes, cell.keys)}
        if not cell.keys:
            row["cell"] = "all respondents"
        row["released value"] = cell.shown if rc.statistic == "mean" else cell.raw  # what the ledger recorded
        row["post-processed value"] = cell.shown
        row["changed by post-processing"] = "yes" if cell.adjusted else "no"
        row["interval low"] = cell.low
        row["interval high"] = cell.high
        row["± (all cells at once)"] = None if half is None else float(half)
        row["confidence"] = rc.confidence
        row["statistic"] = described(entry, labels)
        row["noise"] = rc.noise
        row["privacy cost"] = rc.cost
        row["intervals cover"] = rc.coverage
        row["ledger seq"] = entry.seq
        rows.append(row)
    return rows


def release_about(entry, labels=None) -> list[dict[str, Any]]:
    """The words of one release as (what, value) rows: statistic, time, noise, cost, coverage."""
    from dpdesk.project.ledger.release_cells import described

    rc = release_cells(entry, labels)
    about = [("release", f"#{entry.seq}"), ("statistic", described(entry, labels)),
             ("released (UTC)", entry.time.replace("T", " ")[:19]), ("dataset", entry.dataset or ""),
             ("data fingerprint (SHA-256)", entry.dataset_sha256), ("noise", rc.noise),
             ("privacy cost", rc.cost), ("post-processing", rc.postprocessing),
             ("intervals cover", rc.coverage), ("dpdesk version", entry.app_version)]
    about += [("note", n) for n in rc.notes]
    return [{"what": k, "value": v} for k, v in about]


def export_release(entry, path: str | os.PathLike, labels=None) -> Path:
    """Write :func:`release_table` of ``entry`` to ``path`` (.csv, or .xlsx with an About sheet)."""
    path = Path(path)
    if path.suffix.lower() == ".xlsx":
        return write_xlsx(path, [(f"Release {entry.seq}", release_table(entry, labels)),
                                 ("About", release_about(entry, labels))])
    return write_table(path, release_table(entry, labels), sheet=f"Release {entry.seq}")
