"""Store an imported table in a project, with its items' mappings, in one step.

Shared by the command line (``dpdesk import``) and the app's import dialog. The app reads
the file first (``read_table``), lets the researcher check the preview and each item's
mapping, then calls :func:`store_import`: the dataset and every mapping are committed in
one transaction, so a failed or cancelled import leaves the project as it was.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Callable, Iterator

__all__ = ["distinct_values", "free_dataset_name", "import_file", "own_connection", "store_import"]


@contextlib.contextmanager
def own_connection(project) -> Iterator[Any]:
    """The same project file through a second connection, for a worker's long reads and writes.

    The project is in WAL mode, so reading a million rows here (or writing them in one
    transaction) never waits for, nor holds up, the program's own connection: the window
    can still read the project meanwhile.
    """
    from dpdesk.project.file import database
    from dpdesk.project.file.store import Project

    # the file was checked when the program opened it: no second integrity check (seconds on a
    # large file), just another connection with the project's pragmas
    other = Project(project.path, database.connect(project.path), None)
    try:
        yield other
    finally:
        other.close()


def import_file(project, path, *, name=None, replace: bool = False, use: bool = False, **overrides):
    """Read ``path`` and store it in ``project`` (see :func:`store_import`); return the Table."""
    from dpdesk.project import read_table

    table = read_table(path, **overrides)
    store_import(project, table, name=name or Path(path).name, options=overrides, replace=replace, use=use)
    return table


def free_dataset_name(taken, wanted: str) -> str:
    """``wanted``, or ``wanted (2)``, ``wanted (3)``, ... if ``taken`` (a project or names) has it."""
    taken = {d.name for d in taken.datasets()} if hasattr(taken, "datasets") else set(taken)
    if wanted not in taken:
        return wanted
    i = 2
    while f"{wanted} ({i})" in taken:
        i += 1
    return f"{wanted} ({i})"


def store_import(project, table, *, name: str, options: dict | None = None,
                 mappings: dict[str, dict] | None = None, check: Callable[[], Any] | None = None,
                 replace: bool = False, use: bool = False) -> str:
    """Add ``table`` as dataset ``name`` and set each item's mapping, all in one transaction.

    ``replace=True``: the table replaces the active dataset (a corrected export of the same
    respondents); it takes that dataset's name and stays active. Otherwise it is kept beside
    the project's other data, and the active dataset (:mod:`dpdesk.project.study.active`) changes
    only with ``use=True``; a project's first import is always active. Either way the
    project's one privacy budget is untouched. ``mappings`` maps an item name to its
    mapping in the new dataset (``column``, ``codes``, ``group_column``, ``group_codes``);
    without it, every item whose known mapping fits the table maps itself
    (:func:`dpdesk.project.mapping.matching.auto_mappings`), and ``table.auto_mapped`` says
    which and how. A replacement keeps the mappings of the data it replaces wherever the new
    table has their columns (said in ``table.auto_mapped`` too). ``check()`` is called before
    the commit; if it raises (for example because the import was cancelled) nothing is
    stored. Returns the name the dataset was stored under.
    """
    import json

    from dpdesk.project.people import respondents
    from dpdesk.project.study.active import active_dataset, set_active_dataset
    from dpdesk.errors import DpdeskError
    from dpdesk.project.study.survey_design import set_survey_design, survey_design

    options = {k: v for k, v in (options or {}).items() if k != "progress"}
    signature, seen = respondents.import_warnings(project, table.frame)
    table.report.warnings.extend(w for w in seen if w not in table.report.warnings)
    table.seen_before = list(seen)
    if mappings is None:
        from dpdesk.project.mapping.matching import auto_mappings

        found = auto_mappings(project, table)
        mappings = {name: a.mapping for name, a in found.items()}
        table.auto_mapped = [a.sentence() for a in found.values()]
    mappings = dict(mappings)
    with project.transaction() as conn:
        before = active_dataset(project)
        design = None
        if replace and before is not None:
            name = before.name
            design = survey_design(project, name)
            for item, kept in _kept_mappings(project, name, table, mappings).items():
                mappings[item] = kept
                table.auto_mapped.append(f"{item} → {kept['column']} (kept from the data it replaces)")
            project.remove_dataset(name)
        dataset_id = project.add_dataset(name, table.frame, source=table.source.to_dict(), options=options,
                                         report=table.report.to_dict())
        if design is not None:  # the corrected export keeps the survey design, if its columns still fit
            try:
                set_survey_design(project, design, name, frame=table.frame)
            except DpdeskError as exc:
                table.report.warnings.append(f"The survey design of the replaced data ({design.describe()}) was "
                                             f"not kept: {exc}")
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)",
                     (respondents.CACHE_KEY.format(dataset_id), json.dumps(signature)))
        set_active_dataset(project, name if (before is None or replace or use) else before.name)
        for item, changes in mappings.items():
            project.update_item(item, dataset=name, **changes)
        if check is not None:
            check()
    return name


def _kept_mappings(project, replaced: str, table, mappings: dict) -> dict[str, dict]:
    """The mappings in the dataset being replaced of items not mapped otherwise, whose columns the table has."""
    columns = {str(c) for c in table.frame.columns}
    kept = {}
    for item in project.items(replaced):
        m = item.mappings.get(replaced)
        if m is None or item.name in mappings:
            continue
        unary = m["codes"].get("columns", {}).values() if isinstance(m["codes"], dict) else ()
        if {m["column"], *([m["group_column"]] if m["group_column"] else []), *unary} <= columns:
            kept[item.name] = m
    return kept


def distinct_values(table, column: str, limit: int = 60) -> list[tuple[Any, str, int]]:
    """The most frequent values of ``column``: ``(value, value label or "", count)``.

    For a counts table the count is the number of respondents (the sum of its count column).
    Blanks come as ``(None, "blank", count)``; user-missing codes get their label with
    "(missing code)". At most ``limit`` values, most frequent first.
    """
    import pandas as pd

    from dpdesk.project.mapping.code_matching import _plain
    from dpdesk.project.mapping import value_labels_for

    frame = table.frame
    report = getattr(table, "report", None)
    weight = getattr(report, "count_column", None) if getattr(report, "kind", "") == "counts" else None
    if weight and weight in frame.columns and weight != column:  # a counts table: respondents, not rows
        counts = frame.groupby(column, dropna=False, observed=True, sort=False)[weight].sum()
        counts = counts.sort_values(ascending=False, kind="stable").head(limit)
    else:
        counts = frame[column].value_counts(dropna=False, sort=True).head(limit)
    labels = {_same(k): v for k, v in value_labels_for(report, column).items()} if report is not None else {}
    missing = {_same(m) for m in (report.missing_values or {}).get(column, [])} if report is not None else set()
    out = []
    for value, count in counts.items():
        blank = value is pd.NA or value is pd.NaT
        value = _plain(value)
        if blank or value is None or (isinstance(value, float) and value != value):
            out.append((None, "blank", int(count)))
            continue
        label = str(labels.get(_same(value), ""))
        if _same(value) in missing:
            label = f"{label} (missing code)".strip()
        whole = isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53  # not Stata's .a-.z
        out.append((int(value) if whole else value, label, int(count)))
    return out


def _same(value) -> Any:
    """A key under which 1, 1.0 and "1" are the same code (as in the mapping)."""
    if isinstance(value, bool):
        return value
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value).strip().casefold()
