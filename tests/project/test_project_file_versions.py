"""Old project files keep opening (one fixture per schema version); migrations are safe."""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys

from fractions import Fraction

import pandas as pd
import pytest

from dpdesk.errors import ProjectError
from dpdesk.project import Project, ledger
from dpdesk.project.file import schema

from tests.helpers.paths import FIXTURES

sys.path.insert(0, str(FIXTURES))
import make_fixtures  # noqa: E402

VERSIONS = sorted(int(p.stem[1:]) for p in (FIXTURES / "projects").glob("v*.dpdesk"))


def test_a_fixture_for_every_version():
    assert VERSIONS == list(range(1, schema.SCHEMA_VERSION + 1))
    assert len(schema.MIGRATIONS) == schema.SCHEMA_VERSION - 1


@pytest.mark.parametrize("version", VERSIONS)
def test_old_files_open_with_their_content(version, tmp_path):
    path = tmp_path / f"v{version}.dpdesk"
    shutil.copyfile(FIXTURES / "projects" / f"v{version}.dpdesk", path)  # never touch the fixture
    with Project.open(path) as p:
        assert p.connection.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        items = p.items()
        assert [i.name for i in items] == [it["name"] for it in make_fixtures.ITEMS]
        for item, expected in zip(items, make_fixtures.ITEMS):
            name, params = expected["design"]
            assert item.design.name == name and item.design.params == params
            assert item.codes == expected["codes"] and item.column == expected["column"]
            assert item.group_column == expected["group_column"] and item.question == expected["question"]
            assert item.group_codes == expected["group_codes"]
        (info,) = p.datasets()
        assert info["source"] == make_fixtures.SOURCE and info["report"] == make_fixtures.REPORT
        pd.testing.assert_frame_equal(p.dataset_frame("wave 1"), make_fixtures.frame())
        (analysis,) = p.analyses("cannabis")
        assert (analysis["options"], analysis["results"]) == make_fixtures.ANALYSIS
        (release,) = p.ledger_rows(decode=False)
        assert {k: release[k] for k in make_fixtures.RELEASE} == make_fixtures.RELEASE
        budgets = [(b["epsilon"], b["delta"]) for b in p.budget_rows()]
        # up to v2 a budget belonged to one dataset; v3 adds the project's (the smallest ever set)
        assert budgets == [make_fixtures.BUDGET] * (1 if version >= 3 else 2)
        assert ledger.budget_status(p).total_epsilon == Fraction(make_fixtures.BUDGET[0])
    if version < schema.SCHEMA_VERSION:
        assert (tmp_path / f"v{version}.dpdesk.v{version}.bak").exists()


def test_migration_backs_up_then_upgrades_in_one_transaction(tmp_path, monkeypatch):
    path = tmp_path / "old.dpdesk"
    shutil.copyfile(FIXTURES / "projects" / "v1.dpdesk", path)  # a real v1 file (a relabelled v2 is refused)
    kept = [(it["name"],) for it in make_fixtures.ITEMS]
    calls = []

    def add_notes(conn):  # a pretend v1 -> v2 migration
        calls.append(1)
        conn.execute("CREATE TABLE notes (text TEXT)")

    def broken(conn):  # a pretend v2 -> v3 migration that fails half-way
        conn.execute("CREATE TABLE half (x)")
        raise sqlite3.OperationalError("no such column: y")

    monkeypatch.setattr(schema, "SCHEMA_VERSION", 3)
    monkeypatch.setattr(schema, "MIGRATIONS", [add_notes, broken])
    with pytest.raises(ProjectError, match="upgrade.*unchanged"):
        Project.open(path)
    backup = tmp_path / "old.dpdesk.v1.bak"
    assert backup.exists()
    conn = sqlite3.connect(path)  # rolled back: still version 1, no half-made tables
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert not conn.execute("SELECT 1 FROM sqlite_master WHERE name IN ('notes', 'half')").fetchall()
    conn.close()
    assert sqlite3.connect(backup).execute("SELECT name FROM items ORDER BY id").fetchall() == kept

    first_backup = backup.read_bytes()
    monkeypatch.setattr(schema, "MIGRATIONS", [add_notes, lambda conn: None])
    with Project.open(path) as p:
        assert p.connection.execute("PRAGMA user_version").fetchone()[0] == 3
        # (the pretend version 3 has none of the real migrations' tables: read the rows themselves)
        assert [tuple(r) for r in p.connection.execute("SELECT name FROM items ORDER BY id")] == kept
        assert p.backup_path == tmp_path / "old.dpdesk.v1.2.bak"
    assert backup.read_bytes() == first_backup  # an earlier backup is never overwritten


def test_future_version_fixture_refused_untouched(tmp_path):
    path = tmp_path / "future.dpdesk"
    shutil.copyfile(FIXTURES / "projects" / f"v{schema.SCHEMA_VERSION}.dpdesk", path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 5}")
    conn.execute("CREATE TABLE from_the_future (x)")
    conn.commit()
    conn.close()
    before = (path.read_bytes(), os.stat(path).st_mtime_ns)
    with pytest.raises(ProjectError, match="newer dpdesk"):
        Project.open(path)
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before
    assert sorted(os.listdir(tmp_path)) == ["future.dpdesk"]
