"""Imported data frames stored as real SQLite tables inside the project file.

Each dataset gets its own table ``data_<id>`` with columns ``c0, c1, ...``; the user's
column names, pandas dtypes and how each column's values are stored (:mod:`.columns`) are
rows of ``dataset_columns``. Table and column names never come from user text, so no name
needs quoting rules. Rows keep their order (``rowid``); a non-default row index is stored
as column ``idx``. Missing values are SQL NULL. pandas is imported only when a dataset is
written or read.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from dpdesk.errors import ProjectError
from dpdesk.project.file import columns as columns_codec

#: ``dataset_columns.position`` of a stored row index (a frame's non-default index).
INDEX_POSITION = -1


def write_frame(conn: sqlite3.Connection, dataset_id: int, frame: Any) -> tuple[str, int]:
    """Create ``data_<id>`` holding ``frame`` and its ``dataset_columns`` rows; returns (table, rows)."""
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise ProjectError(f"A dataset must be a pandas DataFrame, not a {type(frame).__name__}.")
    names = [str(c) for c in frame.columns]
    duplicated = sorted({n for n in names if names.count(n) > 1})
    if duplicated:
        raise ProjectError(
            f"The data has more than one column named {', '.join(map(repr, duplicated))}. "
            f"Rename the columns so that each name is used once, then import again."
        )
    table = f"data_{int(dataset_id)}"
    parts = [(position, name, series) for position, (name, (_, series)) in enumerate(zip(names, frame.items()))]
    index = frame.index
    if not (isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1):
        if isinstance(index, pd.MultiIndex):
            raise ProjectError("A dataset with a multi-level row index cannot be stored; call reset_index() first.")
        # e.g. the importer's row labels after dropping rows: kept so row numbers stay right
        parts.insert(0, (INDEX_POSITION, "" if index.name is None else str(index.name), index.to_series()))
    columns, meta, data = [], [], []
    for position, name, series in parts:
        sql_name = "idx" if position == INDEX_POSITION else f"c{position}"
        stored = _column(series, name or "row index", frame)
        columns.append(f"{sql_name} {stored.sql_type}".strip())
        meta.append((dataset_id, position, name, sql_name, stored.dtype, stored.meta, stored.ordered))
        data.append(stored.values)
    conn.execute(f"CREATE TABLE {table} ({', '.join(columns) or 'placeholder'})")
    conn.executemany(
        "INSERT INTO dataset_columns(dataset_id, position, name, sql_name, dtype, categories, ordered)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        meta,
    )
    try:
        if columns:
            marks = ", ".join("?" * len(columns))
            conn.executemany(f"INSERT INTO {table} VALUES ({marks})", zip(*data))
        else:
            conn.executemany(f"INSERT INTO {table} VALUES (NULL)", ([] for _ in range(len(frame))))
    except (sqlite3.InterfaceError, sqlite3.ProgrammingError, OverflowError, UnicodeEncodeError) as exc:
        for (position, name, _), values in zip(parts, data):
            where = columns_codec.locate(values)
            if where is not None:
                raise columns_codec.unstorable_error(name or "row index", _row(frame, where), values[where]) from None
        raise
    return table, len(frame)


def _column(series: Any, name: str, frame: Any) -> columns_codec.Stored:
    """The stored form of one column; a value without an exact stored form is a DataError."""
    try:
        return columns_codec.encode(series)
    except columns_codec.Unstorable as exc:
        raise columns_codec.unstorable_error(name, _row(frame, exc.position), exc.value) from None


def _row(frame: Any, position: int) -> str:
    """The row as the researcher sees it in the file (the importer's row labels), else its number."""
    import numbers

    first = frame.attrs.get("dpdesk_first_row")
    label = frame.index[position] if 0 <= position < len(frame.index) else None
    if isinstance(first, numbers.Integral) and isinstance(label, numbers.Integral) and not isinstance(label, bool):
        return f"row {int(label) + int(first)} of the file"
    return f"row {position + 1} of the data"


def read_frame(conn: sqlite3.Connection, dataset_id: int, table: str) -> Any:
    """The stored frame, with its column names, dtypes and categories restored."""
    import pandas as pd

    meta = conn.execute(
        "SELECT position, name, sql_name, dtype, categories, ordered FROM dataset_columns"
        " WHERE dataset_id = ? ORDER BY position",
        (dataset_id,),
    ).fetchall()
    n = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    if not meta:
        return pd.DataFrame(index=pd.RangeIndex(n))
    select = ", ".join(m[2] for m in meta)
    cursor = conn.cursor()
    cursor.row_factory = None  # plain tuples: much faster than sqlite3.Row for many rows
    rows = cursor.execute(f"SELECT {select} FROM {table} ORDER BY rowid").fetchall()
    # one column at a time in Python bytecode: zip(*rows) would hold the GIL for seconds on a
    # million rows, freezing the window while a worker reads (the interpreter switches threads
    # between bytecodes, never inside one C call)
    columns = [[row[j] for row in rows] for j in range(len(meta))] if rows else [() for _ in meta]
    data, index = {}, None
    for (position, name, _, dtype, categories, ordered), values in zip(meta, columns):
        series = columns_codec.decode(list(values), dtype, categories, bool(ordered), name)
        if position == INDEX_POSITION:
            index = pd.Index(series).rename(name or None)
        else:
            data[name] = series.reset_index(drop=True) if isinstance(series, pd.Series) else series
    out = pd.DataFrame(data, columns=[m[1] for m in meta if m[0] != INDEX_POSITION])
    if index is not None:
        out.index = index
    elif not data:
        out = pd.DataFrame(index=pd.RangeIndex(n))
    return out


def drop_frame(conn: sqlite3.Connection, table: str) -> None:
    if not table.startswith("data_") or not table[5:].isdigit():
        raise ProjectError(f"Refusing to drop table {table!r}: not a dataset table.")
    conn.execute(f"DROP TABLE IF EXISTS {table}")
