"""Is an opened file's schema the one dpdesk makes? Checked on every open, before user tables are read.

A ``.dpdesk`` file is an SQLite database, and SQLite runs the views and triggers stored in
a file inside whoever opens it: a file from someone else could hide releases from the
privacy budget, copy them elsewhere, or hang the program. So :func:`check` compares every
entry of ``sqlite_master`` (each table, index, view and trigger, with its SQL) with the
schema dpdesk's own DDL creates for the file's format version, and the dataset tables with
the naming rule of :mod:`dpdesk.project.file.datasets`. Anything else is refused with a
:class:`ProjectError`.

The expected schemas are built, once per process, by creating each known version in an
in-memory database from :data:`schema.V1_DDL` and :data:`schema.MIGRATIONS`, so a new
schema version is covered as soon as its migration exists. SQL is compared as stored;
only an entry that differs is compared again after :func:`normalise` (comments and runs
of white space between tokens), so a genuine file costs one read of ``sqlite_master`` and
of the two small dataset catalogue tables.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from pathlib import Path

from dpdesk.errors import ProjectError
from dpdesk.project.file import datasets, schema

__all__ = ["check", "check_master", "check_dataset_tables", "known_schema", "normalise", "refused"]

# (type, name) -> (tbl_name, sql as stored, normalised sql)
Schema = dict[tuple[str, str], tuple[str, "str | None", "str | None"]]

_TOKENS = re.compile(
    r"""(?P<space>[ \t\n\f\r]+|--[^\n]*(?:\n|\Z)|/\*.*?(?:\*/|\Z))"""
    r"""|'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`(?:[^`]|``)*`?|\[[^\]]*\]?"""
    r"""|[^ \t\n\f\r'"`\[/-]+|.""",
    re.S,
)


def normalise(sql: str | None) -> str | None:
    """``sql`` with each comment and run of white space between tokens made one space.

    Quoted strings and names are kept as they are (SQLite's own quoting rules), so two
    texts with the same normal form are the same statement.
    """
    if sql is None:
        return None
    out: list[str] = []
    space = False
    for m in _TOKENS.finditer(sql):
        if m.group("space") is not None:
            space = True
            continue
        if space and out:
            out.append(" ")
        space = False
        out.append(m.group(0))
    return "".join(out)


@functools.lru_cache(maxsize=16)
def _build(ddl: str, migrations: tuple) -> Schema:
    conn = sqlite3.connect(":memory:")
    try:
        schema.build_version(conn, len(migrations) + 1, ddl, migrations)
        return {
            (type_, name): (tbl, sql, normalise(sql))
            for type_, name, tbl, sql in conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")
        }
    except sqlite3.Error as exc:  # dpdesk's own DDL: a bug, never the file's fault
        raise RuntimeError(f"dpdesk's schema of file format {len(migrations) + 1} cannot be built: {exc}") from exc
    finally:
        conn.close()


def known_schema(version: int) -> Schema | None:
    """The schema dpdesk makes for file format ``version`` (None if it makes no such version).

    Built once per process in an in-memory database: the v1 DDL and the first
    ``version - 1`` migrations, the same path :func:`schema.create_schema` takes.
    """
    if not 1 <= version <= len(schema.MIGRATIONS) + 1:
        return None
    return _build(schema.V1_DDL, tuple(schema.MIGRATIONS[: version - 1]))


def refused(path: Path, problems: list[str]) -> ProjectError:
    shown = "; ".join(problems[:4]) + (f"; and {len(problems) - 4} more" if len(problems) > 4 else "")
    return ProjectError(
        f"The file {path} was changed outside dpdesk, or was not made by it ({shown}). dpdesk does "
        f"not open it: SQL stored in a project file (views, triggers) would run inside dpdesk, for "
        f"example to hide releases from the privacy budget. The file was left unchanged. Ask its "
        f"sender for the original, or restore it from a backup."
    )


def _name(text: object) -> str:
    shown = repr(text)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _a(kind: str) -> str:
    return f"an {kind}" if kind[:1] in "aeiou" else f"a {kind}"


def check_master(conn: sqlite3.Connection, path: Path, version: int) -> dict[str, str]:
    """Compare ``sqlite_master`` with dpdesk's schema of ``version``; the dataset tables' SQL by name.

    Reads nothing but ``sqlite_master``. Raises :func:`refused` on any difference.
    """
    expected = known_schema(version)
    if expected is None:
        raise refused(path, [f"its file format {version} is not one this dpdesk made"])
    cursor = conn.cursor()
    cursor.row_factory = None
    rows = cursor.execute("SELECT type, name, tbl_name, sql FROM main.sqlite_master").fetchall()
    replaced: list[str] = []  # the most telling problems first: a view where a table belongs
    problems: list[str] = []
    seen: set[tuple[str, str]] = set()
    tables: dict[str, str] = {}
    kinds = {name: type_ for type_, name in expected}
    for type_, name, tbl, sql in rows:
        key = (type_, name)
        if key in seen:
            problems.append(f"the {type_} {_name(name)} appears twice")
            continue
        seen.add(key)
        want = expected.get(key)
        if want is not None:
            if tbl != want[0] or (sql != want[1] and normalise(sql) != want[2]):
                replaced.append(f"the {type_} {_name(name)} differs from dpdesk's")
        elif type_ == "table" and tbl == name and datasets.dataset_id_of(name) is not None:
            tables[name] = sql
        elif isinstance(name, str) and name in kinds and kinds[name] != type_:
            replaced.append(f"{_name(name)} is {_a(type_)} where dpdesk keeps {_a(kinds[name])}")
        else:
            on = f" on {_name(tbl)}" if type_ in ("trigger", "index") else ""
            problems.append(f"it has {_a(type_)} {_name(name)}{on} that dpdesk does not make")
    names = {name for _, name in seen}
    for type_, name in expected:
        if name not in names:  # (a name taken by another kind of object was reported above)
            problems.append(f"the {type_} {_name(name)} is missing")
    problems = replaced + problems
    if problems:
        raise refused(path, problems)
    return tables


def check_dataset_tables(conn: sqlite3.Connection, path: Path, tables: dict[str, str]) -> None:
    """Each dataset's table and columns are named by the app's rule and shaped as it makes them.

    Reads the ``datasets`` and ``dataset_columns`` tables (already checked to be dpdesk's own).
    """
    cursor = conn.cursor()
    cursor.row_factory = None
    problems: list[str] = []
    ids: dict[int, str] = {}
    for dataset_id, table in cursor.execute("SELECT id, table_name FROM datasets").fetchall():
        if type(dataset_id) is not int:
            problems.append(f"a dataset has the id {_name(dataset_id)}")
            continue
        ids[dataset_id] = table
        if table != datasets.table_name(dataset_id):
            problems.append(f"dataset {dataset_id} names its table {_name(table)}, "
                            f"not {datasets.table_name(dataset_id)!r}")
    positions: dict[int, list[int]] = {i: [] for i in ids}
    for dataset_id, position, sql_name in cursor.execute(
            "SELECT dataset_id, position, sql_name FROM dataset_columns").fetchall():
        if dataset_id not in positions or type(position) is not int:
            problems.append(f"a column description {_name(sql_name)} belongs to no dataset")
            continue
        if position < datasets.INDEX_POSITION or sql_name != datasets.column_sql_name(position):
            problems.append(f"dataset {dataset_id} names a column {_name(sql_name)}, not by dpdesk's rule")
            continue
        positions[dataset_id].append(position)
    for dataset_id, found in positions.items():
        table = datasets.table_name(dataset_id)
        columns = sorted(p for p in found if p != datasets.INDEX_POSITION)
        if columns != list(range(len(columns))):
            problems.append(f"dataset {dataset_id}'s columns are not numbered 0, 1, 2, ...")
        elif table not in tables:
            problems.append(f"the table of dataset {dataset_id} is missing")
        elif not datasets.table_sql_matches(dataset_id, found, tables[table]):
            problems.append(f"the table {table!r} is not shaped as dpdesk makes it")
    for table in sorted(set(tables) - {datasets.table_name(i) for i in ids}):
        problems.append(f"the table {_name(table)} belongs to no dataset")
    if problems:
        raise refused(path, problems)


def check(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """The whole schema check: :func:`check_master`, then :func:`check_dataset_tables`."""
    check_dataset_tables(conn, path, check_master(conn, path, version))
