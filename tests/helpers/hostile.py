"""A corpus of hostile and odd ``.dpdesk`` files, made from a genuine project (issue 14).

Each case edits a copy of a genuine project with plain ``sqlite3``, as someone who mails a
planted file would: views in place of tables, triggers that run planted SQL, crafted
dataset names, missing tables and columns, identifiers carrying quotes and SQL, huge
blobs, and files that are not files at all (a FIFO, a symbolic link loop, a folder, a
device). :data:`REFUSED` maps a case name to its builder; every one of them must be
refused on open. :data:`OPENS` are odd but genuine files that must open and read safely.

``edit_outside(path, *sql)`` is the edit of the ledger tests: SQL run with ``sqlite3``
whose dropped or replaced triggers are put back exactly as dpdesk made them, so the file
passes the schema check and only the ledger's own checks can find the edit.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
from pathlib import Path
from typing import Callable

#: An endless recursive query (no LIMIT): it never ends unless something stops it.
ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
#: The columns of ``releases`` in order (for INSTEAD OF triggers that store rows elsewhere).
RELEASE_COLUMNS = ("seq", "time", "app_version", "dataset_sha256", "request", "mechanism", "noise_params",
                   "cost", "result", "prev_hash", "hash")
TABLES = ("app", "items", "datasets", "dataset_columns", "analyses", "budget", "releases", "data_1")


def edit_outside(path: Path, *sql: str) -> None:
    """Run ``sql`` on ``path`` with sqlite3, then restore dpdesk's triggers as they were."""
    conn = sqlite3.connect(path)
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for s in sql:
        conn.execute(s)
    for name, ddl in triggers:
        conn.execute(f'DROP TRIGGER IF EXISTS "{name}"')
        conn.execute(ddl)
    conn.commit()
    conn.close()


def digest(path: Path) -> str:
    """SHA-256 of the file and its SQLite side files (what "byte for byte unchanged" means)."""
    h = hashlib.sha256()
    for suffix in ("", "-wal", "-journal"):
        p = Path(f"{path}{suffix}")
        if os.path.lexists(p):
            h.update(suffix.encode() + b"\0")
            if stat.S_ISREG(os.stat(p).st_mode) if os.path.exists(p) else False:
                h.update(p.read_bytes())
    return h.hexdigest()


def make_base(path: Path) -> Path:
    """A genuine project: three items, a dataset (columns c0-c4: id, region, q7, note, x),
    a budget of epsilon 1 and two releases."""
    import pandas as pd

    from dpdesk.mechanisms import rr
    from dpdesk.project import Project, ledger

    frame = pd.DataFrame({
        "id": range(1, 41),
        "region": pd.Categorical(["north", "south", "east", "west"] * 10),
        "q7": [1, 2] * 20,
        "note": ["", "refused"] * 20,
        "x": [float(i) / 4 for i in range(40)],
    })
    with Project.create(path) as p:
        p.add_item("cannabis", rr.design("warner", p=0.7), column="q7", codes={"yes": [1], "no": [2]})
        p.add_dataset("wave 1", frame, source={"name": "w1.csv", "sha256": "ab" * 32, "size": 1})
        ledger.set_budget(p, 1)
        ledger.release(p, {"statistic": "count", "epsilon": "0.1"})
        ledger.release(p, {"statistic": "histogram", "columns": ["region"],
                           "keys": ["north", "south", "east", "west"], "epsilon": "0.1"})
    return path


def _run(path: Path, *sql: str, journal: str | None = None) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    if journal is not None:
        conn.execute(f"PRAGMA journal_mode = {journal}")
    conn.execute("BEGIN")
    for s in sql:
        conn.execute(s)
    conn.execute("COMMIT")
    conn.close()


def _hide(table: str, view_sql: str) -> tuple[str, ...]:
    """Rename ``table`` away and put a view ``view_sql`` (over ``hidden_<table>``) in its place."""
    drops = ()
    if table in ("releases", "budget"):
        drops = tuple(f"DROP TRIGGER {table}_{t}" for t in ("no_update", "no_delete"))
        if table == "budget":
            drops += ("DROP TRIGGER budget_never_raised",)
    return drops + (f'ALTER TABLE "{table}" RENAME TO "hidden_{table}"', f'CREATE VIEW "{table}" AS {view_sql}')


def budget_switched_off(path: Path) -> None:
    """The issue's worst case: views hide every release while total_changes() = 0 (as when the
    budget is checked); INSTEAD OF triggers keep the rows in a hidden table; same-named triggers."""
    cols = ", ".join(RELEASE_COLUMNS)
    new = ", ".join(f"NEW.{c}" for c in RELEASE_COLUMNS)
    _run(path, *_hide("releases", "SELECT * FROM hidden_releases WHERE total_changes() > 0"),
         f"CREATE TRIGGER releases_insert INSTEAD OF INSERT ON releases BEGIN "
         f"INSERT INTO hidden_releases({cols}) VALUES ({new}); END",
         "CREATE TRIGGER releases_no_update INSTEAD OF UPDATE ON releases BEGIN SELECT 1; END",
         "CREATE TRIGGER releases_no_delete INSTEAD OF DELETE ON releases BEGIN SELECT 1; END",
         *_hide("app", "SELECT * FROM hidden_app WHERE key = 'magic' OR total_changes() > 0"),
         "CREATE TRIGGER app_insert INSTEAD OF INSERT ON app BEGIN "
         "INSERT OR REPLACE INTO hidden_app(key, value) VALUES (NEW.key, NEW.value); END")


def same_named_noop_triggers(path: Path) -> None:
    _run(path, "DROP TRIGGER releases_no_delete",
         "CREATE TRIGGER releases_no_delete BEFORE DELETE ON releases BEGIN SELECT 1; END")


def trigger_copies_releases(path: Path) -> None:
    _run(path, "CREATE TABLE stolen (x)",
         "CREATE TRIGGER releases_copy AFTER INSERT ON releases BEGIN INSERT INTO stolen VALUES (NEW.result); END")


def zeroblob_trigger(path: Path) -> None:
    _run(path, "CREATE TRIGGER grow AFTER INSERT ON releases BEGIN "
               "INSERT INTO app VALUES ('pad' || NEW.seq, zeroblob(200000000)); END")


def recursive_cte_trigger(path: Path) -> None:
    _run(path, f"CREATE TRIGGER hang BEFORE INSERT ON releases BEGIN SELECT ({ENDLESS}); END")


def endless_view_app(path: Path) -> None:
    _run(path, *_hide("app", f"SELECT * FROM hidden_app WHERE ({ENDLESS}) > 0"))


def endless_view_releases(path: Path) -> None:
    _run(path, *_hide("releases", f"SELECT * FROM hidden_releases WHERE ({ENDLESS}) > 0"))


def load_extension_trigger(path: Path) -> None:
    _run(path, "CREATE TRIGGER ext AFTER INSERT ON releases BEGIN SELECT load_extension('/tmp/evil.so'); END")


def load_extension_view(path: Path) -> None:
    _run(path, *_hide("budget", "SELECT * FROM hidden_budget WHERE load_extension('/tmp/evil.so') IS NULL"))


def crafted_sql_name(path: Path) -> None:
    """A dataset column that reads the app table (the issue's case 3)."""
    _run(path, "UPDATE dataset_columns SET sql_name = '(SELECT group_concat(value) FROM app)' WHERE position = 0")


def crafted_table_name(path: Path) -> None:
    """An endless subquery in place of a dataset's table name."""
    _run(path, f"UPDATE datasets SET table_name = '({ENDLESS})'")


def quoted_sql_name(path: Path) -> None:
    _run(path, """UPDATE dataset_columns SET sql_name = 'c0" FROM app; --' WHERE position = 0""")


def quoted_table_name(path: Path) -> None:
    _run(path, """UPDATE datasets SET table_name = 'data_1" WHERE 0 UNION SELECT value FROM app --'""")


def quoted_object_name(path: Path) -> None:
    _run(path, '''CREATE TABLE "data_1""; DROP TABLE releases; --" (x)''')


def table_named_like_sql(path: Path) -> None:
    _run(path, """CREATE TABLE "data_2 (x); SELECT load_extension('e')" (c0)""")


def items_lacking_columns(path: Path) -> None:
    _run(path, "ALTER TABLE items DROP COLUMN codes", "ALTER TABLE items DROP COLUMN design")


def relabelled_version(path: Path) -> None:
    """The current schema claiming to be version 1 (which has no ``instructions`` column)."""
    _run(path, "PRAGMA user_version = 1")


def orphan_dataset_table(path: Path) -> None:
    _run(path, "CREATE TABLE data_99 (c0 INTEGER)")


def dataset_table_generated_column(path: Path) -> None:
    """A dataset table with a column computed on every read (100 MB of zeros per row)."""
    _run(path, "ALTER TABLE data_1 ADD COLUMN c5 AS (zeroblob(100000000))")


def dataset_table_retyped(path: Path) -> None:
    """The dataset's table made again with a CHECK dpdesk never writes."""
    _run(path, "CREATE TABLE data_new (c0 INTEGER CHECK (length(zeroblob(100000000)) > 0), c1, c2 INTEGER, c3, c4 REAL)",
         "INSERT INTO data_new SELECT * FROM data_1", "DROP TABLE data_1", "ALTER TABLE data_new RENAME TO data_1")


def dataset_column_renumbered(path: Path) -> None:
    _run(path, "UPDATE dataset_columns SET position = position + 10, sql_name = 'c' || (position + 10)")


def expression_index(path: Path) -> None:
    _run(path, "CREATE INDEX sneaky ON data_1(c0, abs(c1))")


def huge_name(path: Path) -> None:
    _run(path, f'CREATE TABLE "{"x" * 1_000_000}" (a)')


def _missing(table: str) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        _run(path, f'DROP TABLE "{table}"')
    build.__name__ = f"missing_{table}"
    return build


def _view_for(table: str) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        _run(path, *_hide(table, f'SELECT * FROM "hidden_{table}"'))
    build.__name__ = f"view_for_{table}"
    return build


def _trigger_on(table: str) -> Callable[[Path], None]:
    def build(path: Path) -> None:
        _run(path, f'CREATE TRIGGER "extra_{table}" AFTER INSERT ON "{table}" BEGIN SELECT 1; END')
    build.__name__ = f"trigger_on_{table}"
    return build


def hostile_in_wal(path: Path) -> None:
    """The planted trigger lives only in the ``-wal`` side file (the main file is genuine)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("CREATE TRIGGER releases_copy AFTER INSERT ON releases BEGIN SELECT 1; END")
    tmp = path.with_name(path.name + ".tmp")
    shutil.copyfile(path, tmp)
    shutil.copyfile(f"{path}-wal", f"{tmp}-wal")  # copied while open: the WAL is not checkpointed
    conn.close()
    os.replace(tmp, path)
    os.replace(f"{tmp}-wal", f"{path}-wal")


def hostile_rollback_journal(path: Path) -> None:
    _run(path, "PRAGMA journal_mode = DELETE", journal="DELETE")
    _run(path, "CREATE TRIGGER releases_copy AFTER INSERT ON releases BEGIN SELECT 1; END")


def fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def fifo_wal(path: Path) -> None:
    os.mkfifo(f"{path}-wal")


def symlink_loop(path: Path) -> None:
    path.unlink()
    other = path.with_name("loop-b.dpdesk")
    os.symlink(other, path)
    os.symlink(path, other)


def folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


def device(path: Path) -> None:
    path.unlink()
    os.symlink("/dev/zero", path)


REFUSED: dict[str, Callable[[Path], None]] = {
    f.__name__: f
    for f in (
        budget_switched_off, same_named_noop_triggers, trigger_copies_releases, zeroblob_trigger,
        recursive_cte_trigger, endless_view_app, endless_view_releases, load_extension_trigger,
        load_extension_view, crafted_sql_name, crafted_table_name, quoted_sql_name, quoted_table_name,
        quoted_object_name, table_named_like_sql, items_lacking_columns, relabelled_version,
        orphan_dataset_table, dataset_table_generated_column, dataset_table_retyped, dataset_column_renumbered,
        expression_index,
        huge_name, hostile_in_wal, hostile_rollback_journal,
        *(_missing(t) for t in TABLES), *(_view_for(t) for t in TABLES), *(_trigger_on(t) for t in TABLES),
    )
}
#: Not files dpdesk could open: refused before SQLite sees them (and never hang).
NOT_FILES: dict[str, Callable[[Path], None]] = {f.__name__: f for f in (fifo, fifo_wal, symlink_loop, folder, device)}


def huge_blob_in_data(path: Path) -> None:
    """Genuine schema, a 20 MB text in a data cell and in the app table: opens, reads safely."""
    _run(path, "UPDATE data_1 SET c3 = CAST(zeroblob(20000000) AS TEXT) WHERE rowid = 1",
         "INSERT INTO app VALUES ('note', CAST(zeroblob(20000000) AS TEXT))")


def rollback_journal(path: Path) -> None:
    """A genuine project switched to the rollback journal (as a copy made by another tool is)."""
    _run(path, "PRAGMA user_version", journal="DELETE")


def wal_with_pending_frames(path: Path) -> None:
    """A genuine project whose last change is still in its ``-wal`` file (copied while open)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("INSERT INTO app VALUES ('note', 'written last')")
    tmp = path.with_name(path.name + ".tmp")
    shutil.copyfile(path, tmp)
    shutil.copyfile(f"{path}-wal", f"{tmp}-wal")
    conn.close()
    os.replace(tmp, path)
    os.replace(f"{tmp}-wal", f"{path}-wal")


OPENS: dict[str, Callable[[Path], None]] = {
    f.__name__: f for f in (huge_blob_in_data, rollback_journal, wal_with_pending_frames)
}


def make(base: Path, folder_: Path, case: str) -> Path:
    """A copy of the genuine project ``base`` in ``folder_``, turned into ``case``."""
    path = folder_ / f"{case}.dpdesk"
    shutil.copyfile(base, path)
    build = REFUSED.get(case) or NOT_FILES.get(case) or OPENS[case]
    build(path)
    return path
