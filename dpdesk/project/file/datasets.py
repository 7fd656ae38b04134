"""Imported data frames stored as real SQLite tables inside the project file.

Each dataset gets its own table ``data_<id>`` with columns ``c0, c1, ...``; the user's
column names, pandas dtypes and how each column's values are stored (:mod:`.columns`) are
rows of ``dataset_columns``. Table and column names are made from the dataset's id and the
column's position by :func:`table_name` and :func:`column_sql_name`, never read from the
file and pasted into SQL; :func:`table_sql_matches` is the rule an opened file's tables are
checked against, and every statement quotes them (:func:`quote`). Rows keep their order
(``rowid``); a non-default row index is stored as column ``idx``. Missing values are SQL
NULL. pandas is imported only when a dataset is written or read.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from dpdesk.errors import ProjectError
from dpdesk.project.file import columns as columns_codec

#: ``dataset_columns.position`` of a stored row index (a frame's non-default index).
INDEX_POSITION = -1

# ----------------------------------------------------------------------------- the naming rule

#: Declared types a dataset column may have ("" = none: values keep their own type).
SQL_TYPES = ("INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC", "")
#: The one column of a table made from a frame without columns.
PLACEHOLDER = "placeholder"


def table_name(dataset_id: int) -> str:
    """The table holding dataset ``dataset_id``'s rows: ``data_<id>``."""
    return f"data_{int(dataset_id)}"


def dataset_id_of(table: str) -> int | None:
    """The dataset id whose :func:`table_name` is ``table``, or None if ``table`` breaks the rule."""
    digits = table[5:] if isinstance(table, str) and table.startswith("data_") else ""
    if not (digits.isascii() and digits.isdigit()) or str(int(digits)) != digits:
        return None
    return int(digits)


def column_sql_name(position: int) -> str:
    """The column holding ``dataset_columns.position``: ``c<position>``, or ``idx`` for the row index."""
    return "idx" if position == INDEX_POSITION else f"c{int(position)}"


def quote(identifier: str) -> str:
    """``identifier`` as a quoted SQL name (so no name is ever read as SQL)."""
    return '"' + identifier.replace('"', '""') + '"'


def create_table_sql(table: str, columns: list[tuple[str, str]]) -> str:
    """``CREATE TABLE`` of a dataset table with ``(sql_name, sql_type)`` columns, as stored in the file."""
    parts = [f"{name} {sql_type}".strip() for name, sql_type in columns]
    return f"CREATE TABLE {table} ({', '.join(parts) or PLACEHOLDER})"


def table_sql_matches(dataset_id: int, positions: list[int], sql: str) -> bool:
    """Whether ``sql`` is the ``CREATE TABLE`` :func:`write_frame` makes for these column positions.

    ``positions`` are the dataset's ``dataset_columns.position`` values; the table must have
    exactly their columns, in order (the row index first), each with a type of :data:`SQL_TYPES`.
    """
    names = [column_sql_name(p) for p in sorted(positions)]
    typed = "(?: (?:" + "|".join(t for t in SQL_TYPES if t) + "))?"
    columns = ", ".join(re.escape(n) + typed for n in names) if names else PLACEHOLDER
    return re.fullmatch(f"CREATE TABLE {re.escape(table_name(dataset_id))} \\({columns}\\)", sql or "") is not None


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
    table = table_name(dataset_id)
    parts = [(position, name, series) for position, (name, (_, series)) in enumerate(zip(names, frame.items()))]
    index = frame.index
    if not (isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1):
        if isinstance(index, pd.MultiIndex):
            raise ProjectError("A dataset with a multi-level row index cannot be stored; call reset_index() first.")
        # e.g. the importer's row labels after dropping rows: kept so row numbers stay right
        parts.insert(0, (INDEX_POSITION, "" if index.name is None else str(index.name), index.to_series()))
    columns, meta, data = [], [], []
    for position, name, series in parts:
        sql_name = column_sql_name(position)
        stored = _column(series, name or "row index", frame)
        columns.append((sql_name, stored.sql_type))
        meta.append((dataset_id, position, name, sql_name, stored.dtype, stored.meta, stored.ordered))
        data.append(stored.values)
    conn.execute(create_table_sql(table, columns))
    conn.executemany(
        "INSERT INTO dataset_columns(dataset_id, position, name, sql_name, dtype, categories, ordered)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        meta,
    )
    try:
        if columns:
            marks = ", ".join("?" * len(columns))
            conn.executemany(f"INSERT INTO {quote(table)} VALUES ({marks})", zip(*data))
        else:
            conn.executemany(f"INSERT INTO {quote(table)} VALUES (NULL)", ([] for _ in range(len(frame))))
    except (sqlite3.InterfaceError, sqlite3.ProgrammingError, OverflowError, UnicodeEncodeError):
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


def read_frame(conn: sqlite3.Connection, dataset_id: int, table: str | None = None) -> Any:
    """The stored frame, with its column names, dtypes and categories restored.

    The table and column names come from the id and positions (the naming rule), never from
    the file; ``table`` is accepted for callers that pass the stored name, and ignored.
    """
    import pandas as pd

    table = quote(table_name(dataset_id))
    meta = conn.execute(
        "SELECT position, name, sql_name, dtype, categories, ordered FROM dataset_columns"
        " WHERE dataset_id = ? ORDER BY position",
        (dataset_id,),
    ).fetchall()
    n = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    if not meta:
        return pd.DataFrame(index=pd.RangeIndex(n))
    select = ", ".join(quote(column_sql_name(m[0])) for m in meta)
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
    dataset_id = dataset_id_of(table)
    if dataset_id is None:
        raise ProjectError(f"Refusing to drop table {table!r}: not a dataset table.")
    conn.execute(f"DROP TABLE IF EXISTS {quote(table_name(dataset_id))}")
