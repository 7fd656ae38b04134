"""Randomized-response items on a linked dataset: their counts computed in the engine.

The estimators take counts, never rows (DESIGN, idea 2). For a linked dataset the engine
groups the rows by the columns the items are mapped to (their answer and group columns, and
a subgroup column when one is asked for) and returns one row per combination of values with
its number of rows: a counts table, which the mapping and the estimators read as they read an
imported counts table (:mod:`dpdesk.project.mapping.counting`). Memory is bounded by the
number of distinct combinations (at most :data:`MAX_GROUPS`), whatever the number of rows.
"""

from __future__ import annotations

from dpdesk.errors import DataError

__all__ = ["counts_frame", "mapped_columns", "COUNT_COLUMN", "MAX_GROUPS"]

#: the counts table's column of row numbers (a name no source column takes: it is dropped if one does)
COUNT_COLUMN = "__dpdesk_rows__"
MAX_GROUPS = 100_000


def mapped_columns(project, dataset) -> list[str]:
    """The answer and group columns of every item mapped in ``dataset`` (in the items' order)."""
    out: list[str] = []
    for item in project.items():
        m = item.mappings.get(dataset.name) if isinstance(item.mappings, dict) else None
        for key in ("column", "group_column"):
            col = (m or {}).get(key)
            if col and col not in out:
                out.append(str(col))
    return out


def counts_frame(project, dataset, columns, cancel=None):
    """A pandas frame: one row per combination of ``columns``' values in the linked source, and its count."""
    import pandas as pd

    from dpdesk.project.linked.store import check_unchanged, link_of, schema_of
    from dpdesk.project.linked.engines import open_engine

    schema = schema_of(dataset)
    columns = [c for c in dict.fromkeys(columns) if c != COUNT_COLUMN]
    for c in columns:
        schema.column(c, dataset=dataset.name, fix="Map the item to a column the source has.")
    if not columns:
        return pd.DataFrame({COUNT_COLUMN: pd.Series([], dtype="int64")})
    check_unchanged(project, dataset)
    source = open_engine(link_of(dataset))
    try:
        d = source.dialect
        names = ", ".join(d.quote(c) for c in columns)
        rows = source.run_sql(f"SELECT {names}, count(*) FROM {{source}} GROUP BY {names} LIMIT {MAX_GROUPS + 1}",
                              {}, cancel)
    finally:
        source.close()
    if len(rows) > MAX_GROUPS:
        raise DataError(f"The columns {', '.join(map(repr, columns))} of the linked dataset {dataset.name!r} take more "
                        f"than {MAX_GROUPS:,} combinations of values, so they are not the answers of an item. Map the "
                        "items to their answer columns (codes such as 1, 2).")
    frame = pd.DataFrame([r[:-1] for r in rows], columns=columns)
    for c in columns:
        kind = schema.column(c).kind
        if kind == "number":
            frame[c] = pd.to_numeric(frame[c], errors="coerce")
    frame[COUNT_COLUMN] = pd.Series([int(r[-1]) for r in rows], dtype="int64")
    frame.attrs["dpdesk_kind"] = "counts"
    return frame
