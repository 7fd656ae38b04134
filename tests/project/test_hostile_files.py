"""A project file from someone else is data, never code (issue 14).

Every file of the hostile corpus (``tests/helpers/hostile.py``) is refused, quickly, by the
API (read-write, shared and read-only), and by the command line's read and write commands,
with a clear message and no traceback; the file stays byte for byte the same. Odd but
genuine files (rollback journal, pending WAL frames, huge blobs) open and read safely, and
reading them changes nothing. The connection is hardened and bounds every statement.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from dpdesk.errors import ProjectError
from dpdesk.project import Project, ledger
from dpdesk.project.file import database, schema
from tests.helpers import hostile
from tests.helpers.cli import run
from tests.helpers.paths import FIXTURES

#: Every refusal takes milliseconds; the bound is generous for a loaded 2-core machine.
BOUND_S = 20
REFUSED = "changed outside dpdesk, or was not made by it"
COMMANDS = (("ledger",), ("ledger", "--json"), ("budget",), ("budget", "--set", "0.5"), ("estimate",),
            ("release", "--stat", "count", "--epsilon", "0.05"))


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return hostile.make_base(tmp_path_factory.mktemp("base") / "base.dpdesk")


def _files(folder: Path) -> list[str]:
    return sorted(n for n in os.listdir(folder) if not n.endswith("-shm"))  # SQLite's shared-memory index


def _opens(path: Path):
    yield "open", lambda: Project.open(path)
    yield "shared", lambda: Project.open(path, shared=True)
    yield "read-only", lambda: Project.open(path, read_only=True)


@pytest.mark.parametrize("case", sorted(hostile.REFUSED))
def test_a_hostile_schema_is_refused_everywhere_and_left_untouched(base, tmp_path, case, capsys):
    path = hostile.make(base, tmp_path, case)
    before, files = hostile.digest(path), _files(tmp_path)
    for how, opener in _opens(path):
        start = time.monotonic()
        with pytest.raises(ProjectError, match=REFUSED) as info:
            opener().close()
        assert time.monotonic() - start < BOUND_S, how
        assert str(path) in str(info.value) and "left unchanged" in str(info.value)
    for command in COMMANDS:
        start = time.monotonic()
        code, out, err = run(capsys, command[0], path, *command[1:])
        assert time.monotonic() - start < BOUND_S, command
        assert code == 1 and REFUSED in err and "Traceback" not in err + out, (command, err)
    assert hostile.digest(path) == before
    assert _files(tmp_path) == files  # no lock file, journal or copy left behind


@pytest.mark.parametrize("case", sorted(hostile.NOT_FILES))
def test_what_is_not_a_regular_file_is_refused_before_it_is_opened(base, tmp_path, case, capsys):
    path = hostile.make(base, tmp_path, case)
    before, files = hostile.digest(path), _files(tmp_path)
    for how, opener in _opens(path):
        with pytest.raises(ProjectError, match="not a project file|a folder") as info:
            opener().close()
        assert str(path) in str(info.value), how
    code, _, err = run(capsys, "ledger", path)
    assert code == 1 and ("not a project file" in err or "folder" in err)
    assert hostile.digest(path) == before and _files(tmp_path) == files


@pytest.mark.parametrize("case", sorted(hostile.OPENS))
def test_odd_but_genuine_files_are_read_without_a_change(base, tmp_path, case, capsys):
    path = hostile.make(base, tmp_path, case)
    before = hostile.digest(path)
    start = time.monotonic()
    with Project.open(path, read_only=True) as p:
        assert [i.name for i in p.items()] == ["cannabis"] and len(p.dataset_frame("wave 1")) == 40
        assert ledger.verify_ledger(p).ok and len(ledger.ledger(p)) == 2
    code, out, _ = run(capsys, "ledger", path)
    assert code == 0 and "Ledger intact: 2 release(s)" in out
    code, out, _ = run(capsys, "budget", path)
    assert code == 0 and "spent  ε = 0.2 in 2 release(s)" in out
    assert time.monotonic() - start < BOUND_S
    assert hostile.digest(path) == before


@pytest.mark.parametrize("case", ["rollback_journal", "huge_blob_in_data"])
def test_the_apps_read_write_open_changes_nothing_until_it_writes(base, tmp_path, case):
    path = hostile.make(base, tmp_path, case)
    before = hostile.digest(path)
    with Project.open(path) as p:  # what the app does on open, and what its views read
        assert ledger.verify_ledger(p).ok
        p.items(), p.datasets(), p.analyses(), p.dataset_frame("wave 1"), ledger.budget_status(p)
    assert hostile.digest(path) == before and _files(tmp_path) == [path.name]
    if case == "rollback_journal":
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        with Project.open(path) as p:
            p.save_analysis(None, {}, {})
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"  # once written


def test_read_only_open_of_an_old_version_upgrades_in_memory_only(tmp_path):
    path = tmp_path / "v1.dpdesk"
    path.write_bytes((FIXTURES / "projects" / "v1.dpdesk").read_bytes())
    before = hostile.digest(path)
    with Project.open(path, read_only=True) as p:
        assert p.read_only and len(p.items()) == 3 and len(p.ledger_rows()) == 1
        assert p.connection.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert ledger.budget_status(p) is not None  # read as the app reads it after upgrading
        assert os.listdir(tmp_path) == ["v1.dpdesk"]  # no lock, no backup, no -wal, no -shm
        with pytest.raises(ProjectError, match="read-only"):
            p.save_analysis(None, {}, {})
        with pytest.raises(ProjectError, match="read-only"):
            p.save_as(tmp_path / "copy.dpdesk")
    assert hostile.digest(path) == before


def test_a_runaway_statement_is_stopped_and_reported(base, tmp_path):
    path = tmp_path / "p.dpdesk"
    path.write_bytes(base.read_bytes())
    with Project.open(path) as p:
        p.connection.limit = 5_000_000  # the real bound is 100 times the work of a million-row import
        start = time.monotonic()
        with pytest.raises(ProjectError, match="past its bound.*damaged, or was made to hang"):
            p._read(hostile.ENDLESS)
        with pytest.raises(ProjectError, match="past its bound"):
            with p.transaction() as conn:
                conn.execute(hostile.ENDLESS).fetchall()
        assert time.monotonic() - start < BOUND_S
        assert [i.name for i in p.items()] == ["cannabis"]  # the next statement runs normally
    assert database.STATEMENT_INSTRUCTIONS >= 100 * 1_000_000


def test_connections_are_hardened(base, tmp_path):
    path = tmp_path / "p.dpdesk"
    path.write_bytes(base.read_bytes())
    for read_only in (False, True):
        with Project.open(path, read_only=read_only) as p:
            conn = p.connection
            assert conn.execute("PRAGMA trusted_schema").fetchone()[0] == 0
            assert conn.execute("PRAGMA cell_size_check").fetchone()[0] == 1
            with pytest.raises(sqlite3.OperationalError, match="too many attached"):
                conn.execute("ATTACH DATABASE ':memory:' AS other")
            with pytest.raises(sqlite3.OperationalError, match="not authorized"):
                conn.execute("SELECT load_extension('/nonexistent')")


def test_a_new_schema_version_is_covered_without_changing_the_check(tmp_path, monkeypatch):
    def add_notes(conn):  # what the next engineer's migration might be
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")

    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, add_notes])
    monkeypatch.setattr(schema, "SCHEMA_VERSION", schema.SCHEMA_VERSION + 1)
    path = tmp_path / "new.dpdesk"
    Project.create(path).close()
    with Project.open(path, read_only=True) as p:
        assert p.connection.execute("SELECT count(*) FROM notes").fetchone()[0] == 0
    hostile.edit_outside(path, "CREATE TRIGGER notes_spy AFTER INSERT ON notes BEGIN SELECT 1; END")
    with pytest.raises(ProjectError, match=f"{REFUSED}.*'notes_spy' on 'notes'"):
        Project.open(path)


def test_normalised_sql_keeps_strings_and_tokens():
    from dpdesk.project.file import schema_check

    n = schema_check.normalise
    assert n("CREATE  TABLE a (\n  x TEXT, -- a note\n  y /* old */ INTEGER\n)") == "CREATE TABLE a ( x TEXT, y INTEGER )"
    assert n("SELECT '--  not a comment', \"a  b\"") == "SELECT '--  not a comment', \"a  b\""
    assert n("a b") != n("ab") and n("x - 1") == "x - 1" and n("a/b") == "a/b"


def test_whitespace_edits_pass_but_a_comment_that_swallows_a_column_does_not(base, tmp_path):
    def rewrite(name: str, old: str, new: str) -> Path:
        path = tmp_path / f"{name}.dpdesk"
        path.write_bytes(base.read_bytes())
        conn = sqlite3.connect(path)
        version = conn.execute("PRAGMA schema_version").fetchone()[0]
        conn.execute("PRAGMA writable_schema = ON")
        conn.execute("UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE name = 'datasets'", (old, new))
        conn.execute(f"PRAGMA schema_version = {version + 1}")
        conn.commit()
        conn.close()
        return path

    with Project.open(rewrite("spaces", "    ", "\t  ")) as p:  # only white space differs
        assert p.datasets()[0].name == "wave 1"
    swallowed = rewrite("swallowed", "'{}',  -- JSON: import options\n", "'{}',  -- JSON: import options ")
    with pytest.raises(ProjectError, match=f"{REFUSED}.*'datasets' differs"):
        Project.open(swallowed)


def hot_journal_project(base, tmp_path, name="crashed.dpdesk"):
    """A genuine project and a hot rollback journal beside it, as a crash (or a sender) leaves them."""
    genuine = hostile.make(base, tmp_path, "rollback_journal")
    writer = sqlite3.connect(genuine, isolation_level=None)
    writer.execute("PRAGMA cache_size = 1")  # spill to the file: the journal becomes hot
    writer.execute("BEGIN")
    writer.executemany("INSERT INTO analyses(options, results) VALUES ('{}', ?)", [("x" * 500,)] * 2000)
    crashed = tmp_path / name
    crashed.write_bytes(genuine.read_bytes())
    Path(f"{crashed}-journal").write_bytes(Path(f"{genuine}-journal").read_bytes())
    writer.execute("ROLLBACK")
    writer.close()
    return crashed


def test_a_hot_rollback_journal_is_never_applied_on_open_and_is_recovered_into_a_copy(base, tmp_path):
    """Issue 21: a project sent with a hot journal beside it is never changed on open, read-only or not."""
    crashed = hot_journal_project(base, tmp_path)
    before = hostile.digest(crashed), Path(f"{crashed}-journal").read_bytes()
    for read_only in (True, False):
        with pytest.raises(ProjectError, match="unfinished change beside it.*untouched.*Recover into a copy"):
            Project.open(crashed, read_only=read_only)
        assert (hostile.digest(crashed), Path(f"{crashed}-journal").read_bytes()) == before
    copy = Project.recover_copy(crashed, tmp_path / "recovered.dpdesk")
    with Project.open(copy) as p:  # SQLite's own recovery in the copy, then the usual checks
        assert p.analyses() == []
    assert (hostile.digest(crashed), Path(f"{crashed}-journal").read_bytes()) == before  # the original as it was
    with pytest.raises(ProjectError, match="already exists"):
        Project.recover_copy(crashed, copy)
    with pytest.raises(ProjectError, match="no unfinished change"):
        Project.recover_copy(copy, tmp_path / "again.dpdesk")


def test_a_hot_rollback_journal_through_the_command_line(base, tmp_path, capsys):
    from tests.helpers.cli import run

    crashed = hot_journal_project(base, tmp_path)
    before = hostile.digest(crashed), Path(f"{crashed}-journal").read_bytes()
    for command in (["ledger", crashed], ["release", crashed, "--stat", "count", "--epsilon", "0.1"],
                    ["budget", crashed, "--set", "1"]):
        code, out, err = run(capsys, *command)
        assert code != 0 and "unfinished change beside it" in err and f'dpdesk recover "{crashed}"' in err
        assert "Traceback" not in err
    assert (hostile.digest(crashed), Path(f"{crashed}-journal").read_bytes()) == before
    code, out, err = run(capsys, "recover", crashed, tmp_path / "copy.dpdesk")
    assert code == 0 and "rolled back in the copy" in out and "original" in out, err
    assert (hostile.digest(crashed), Path(f"{crashed}-journal").read_bytes()) == before
    code, out, err = run(capsys, "ledger", tmp_path / "copy.dpdesk")
    assert code == 0 and "Ledger intact" in out


def test_a_file_shared_by_several_dpdesk_writers_is_rolled_back_in_place(base, tmp_path):
    """shared=True: the file belongs to the dpdesk processes writing it together; one of them stopped."""
    crashed = hot_journal_project(base, tmp_path)
    with Project.open(crashed, shared=True) as p:
        assert p.analyses() == []
    assert database.hot_journal(crashed) is None
