"""The .dpdesk project file: create/open/close, refusals, items, datasets, analyses, ledger tables."""

from __future__ import annotations

import datetime
import os
import signal
import sqlite3
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import ProjectError
from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project.file import schema


class StandIn:
    """Anything with to_dict() can be stored as a design."""

    def to_dict(self):
        return {"name": "custom", "params": {"matrix": [[0.8, 0.2], [0.2, 0.8]]}, "description": "a stand-in"}


@pytest.fixture
def path(tmp_path):
    return tmp_path / "survey.dpdesk"


@pytest.fixture
def project(path):
    with Project.create(path) as p:
        yield p


def _bytes_and_mtime(p):
    return p.read_bytes(), os.stat(p).st_mtime_ns


# ---------------------------------------------------------------- create / open / close


def test_create_then_reopen_keeps_content(path):
    with Project.create(path) as p:
        p.add_item("drugs", rr.design("warner", p=0.7), column="q1")
    with Project.open(path) as p:
        assert [i.name for i in p.items()] == ["drugs"]
    assert sorted(os.listdir(path.parent)) == ["survey.dpdesk"]  # WAL, shm and lock files cleaned up


def test_create_refuses_to_overwrite(path):
    path.write_bytes(b"precious")
    with pytest.raises(ProjectError, match="already exists"):
        Project.create(path)
    assert path.read_bytes() == b"precious"


def test_file_is_plain_sqlite_with_magic(project, path):
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    assert conn.execute("SELECT value FROM app WHERE key = 'magic'").fetchone()[0] == schema.MAGIC
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"app", "items", "datasets", "dataset_columns", "analyses", "budget", "releases"} <= tables
    conn.close()
    assert project.connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_missing_file(tmp_path):
    with pytest.raises(ProjectError, match="no project file"):
        Project.open(tmp_path / "nope.dpdesk")
    assert os.listdir(tmp_path) == []


def test_closed_project_says_so(project):
    project.close()
    project.close()  # twice is fine
    with pytest.raises(ProjectError, match="closed"):
        project.items()


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b"id,answer\n1,yes\n", "not a dpdesk project"),
        (b"SQLite format 3\x00" + b"\x00" * 20, "damaged"),
    ],
)
def test_not_sqlite_or_cut_short_is_refused_untouched(tmp_path, content, message):
    p = tmp_path / "bad.dpdesk"
    p.write_bytes(content)
    before = _bytes_and_mtime(p)
    with pytest.raises(ProjectError, match=message) as info:
        Project.open(p)
    assert str(p) in str(info.value)
    assert _bytes_and_mtime(p) == before
    assert os.listdir(tmp_path) == ["bad.dpdesk"]


def _filled(path):
    with Project.create(path) as p:
        frame = pd.DataFrame({"x": np.arange(3000), "y": ["some text"] * 3000})
        p.add_dataset("big", frame)


def test_truncated_file_is_refused_untouched(path):
    _filled(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = _bytes_and_mtime(path)
    with pytest.raises(ProjectError, match="damaged"):
        Project.open(path)
    assert _bytes_and_mtime(path) == before


def test_damaged_page_fails_integrity_check(path):
    _filled(path)
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'data_1'").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    offset = (root - 1) * page_size
    data[offset + 8 : offset + 400] = bytes(range(256)) + bytes(392 - 256)  # scribble over the b-tree page
    path.write_bytes(bytes(data))
    before = _bytes_and_mtime(path)
    with pytest.raises(ProjectError, match="damaged") as info:
        Project.open(path)
    assert "backup" in str(info.value)
    assert _bytes_and_mtime(path) == before


def test_other_sqlite_database_is_not_a_project(tmp_path):
    p = tmp_path / "other.sqlite"
    conn = sqlite3.connect(p)
    conn.execute("CREATE TABLE app (key, value)")
    conn.commit()
    conn.close()
    before = _bytes_and_mtime(p)
    with pytest.raises(ProjectError, match="not a dpdesk project"):
        Project.open(p)
    assert _bytes_and_mtime(p) == before
    assert os.listdir(tmp_path) == ["other.sqlite"]


def test_newer_version_is_refused_untouched(path):
    with Project.create(path):
        pass
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = _bytes_and_mtime(path)
    with pytest.raises(ProjectError, match="newer dpdesk") as info:
        Project.open(path)
    assert "Update dpdesk" in str(info.value) and str(path) in str(info.value)
    assert _bytes_and_mtime(path) == before
    assert os.listdir(path.parent) == [path.name]


# ---------------------------------------------------------------- one opener at a time


def test_second_open_in_same_process_is_refused(project, path):
    with pytest.raises(ProjectError, match="already open"):
        Project.open(path)
    project.add_item("still works", StandIn())


def test_second_open_from_another_process_is_refused_and_stale_lock_taken_over(path):
    Project.create(path).close()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: hold the project open until killed
        try:
            os.close(read_fd)
            held = Project.open(path)
            os.write(write_fd, b"open\n")
            signal.pause()
            held.close()
        finally:
            os._exit(0)
    os.close(write_fd)
    try:
        assert os.read(read_fd, 5) == b"open\n"
        with pytest.raises(ProjectError, match=f"already open.*process {pid}"):
            Project.open(path)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(read_fd)
    assert path.with_name(path.name + ".lock").exists()  # left by the killed process
    with Project.open(path) as p:  # ...and taken over
        assert p.items() == []


def test_shared_mode_lets_two_connections_write(path):
    Project.create(path).close()
    a = Project.open(path, shared=True)
    b = Project.open(path, shared=True)
    try:
        a.add_item("a", StandIn())
        b.add_item("b", StandIn())
        with a.transaction():
            a.save_analysis("b", {}, {"n": 1})
        assert [i.name for i in b.items()] == ["a", "b"]
        assert len(b.analyses("b")) == 1
    finally:
        a.close()
        b.close()


# ---------------------------------------------------------------- transactions


def test_transaction_groups_changes_and_rolls_back(project):
    with pytest.raises(RuntimeError):
        with project.transaction():
            project.add_item("one", StandIn())
            project.add_item("two", StandIn())
            raise RuntimeError("cancelled")
    assert project.items() == []
    with project.transaction():
        project.add_item("one", StandIn())
        with pytest.raises(ProjectError):
            with project.transaction():  # a nested block is a savepoint
                project.add_item("two", StandIn())
                project.add_item("one", StandIn())  # duplicate: this inner block is undone
    assert [i.name for i in project.items()] == ["one"]


# ---------------------------------------------------------------- items


def test_items_round_trip_with_real_design(project):
    d = rr.design("forced", p_truth=0.75, p_yes=0.125, p_no=0.125)
    item_id = project.add_item("cheat", d, column="q3", codes={1: "yes", 2: "no"}, group_column="g",
                               question="Did you cheat?")
    it = project.item("cheat")
    assert it.id == item_id and it.column == "q3" and it.group_column == "g"
    assert it.codes == {1: "yes", 2: "no"}  # integer keys survive JSON
    assert it.group_codes is None
    project.update_item("cheat", group_codes={"1": [1], "2": [2]})
    assert project.item("cheat").group_codes == {"1": [1], "2": [2]}
    assert it.question == "Did you cheat?"
    assert it.design_name == "forced" and it.description == d.describe()
    rebuilt = it.design
    assert rebuilt.name == d.name and rebuilt.params == d.params
    np.testing.assert_array_equal(rebuilt.matrix, d.matrix)
    stored = project.connection.execute("SELECT design_name, design_params, design FROM items").fetchone()
    assert stored[0] == "forced" and "p_truth" in stored[1] and "matrices" in stored[2]


def test_item_names_unique_and_missing_names_explained(project):
    project.add_item("q", StandIn())
    with pytest.raises(ProjectError, match="already has an item named 'q'"):
        project.add_item("q", StandIn())
    with pytest.raises(ProjectError, match="no item named 'z'.*'q'"):
        project.item("z")
    with pytest.raises(KeyError):
        project.remove_item("z")
    with pytest.raises(ProjectError, match="name"):
        project.add_item("  ", StandIn())
    with pytest.raises(ProjectError, match="design"):
        project.add_item("r", object())


def test_update_and_remove_item(project):
    project.add_item("q", rr.design("warner", p=0.7), column="a")
    project.add_item("other", StandIn())
    it = project.update_item("q", new_name="q2", design=rr.design("warner", p=0.8), column=None, question="Q?")
    assert it.name == "q2" and it.column is None and it.question == "Q?" and it.design.params == {"p": 0.8}
    with pytest.raises(ProjectError, match="already has an item"):
        project.update_item("q2", new_name="other")
    project.remove_item("q2")
    assert [i.name for i in project.items()] == ["other"]


# ---------------------------------------------------------------- datasets


def test_dataset_round_trip_restores_types(project):
    frame = pd.DataFrame(
        {
            "id": np.arange(4, dtype="int64"),
            "score": [0.5, np.nan, 2.25, -1.0],
            "answer": pd.Categorical(["yes", "no", None, "yes"], categories=["no", "yes"]),
            "level": pd.Categorical([3, 1, 3, 2], categories=[3, 2, 1], ordered=True),
            "n": pd.array([1, None, 3, 4], dtype="Int64"),
            "flag": [True, False, True, True],
            "note": pd.array(["a", None, "c", "d"], dtype="string"),
            "when": pd.to_datetime(["2020-01-01", None, "2021-05-05 10:00", "2022-01-01"], format="ISO8601"),
            "mixed": [1, "x", 2.5, None],
            "born": [datetime.date(1990, 1, 2), None, datetime.date(2001, 12, 31), datetime.date(1970, 1, 1)],
        }
    )
    source = {"name": "wave1.sav", "sha256": "ab" * 32, "size": 2048}
    project.add_dataset("wave 1", frame, source=source, options={"user_missing": True}, report={"rows": 4})
    back = project.dataset_frame("wave 1")
    pd.testing.assert_frame_equal(back, frame)
    (info,) = project.datasets()
    assert info["name"] == "wave 1" and info["n_rows"] == 4 and info["source"] == source
    assert info["options"] == {"user_missing": True} and info["report"] == {"rows": 4}
    assert info["columns"] == list(frame.columns)
    assert info.sha256 == source["sha256"] and info.source_name == "wave1.sav" and info.size == 2048
    # a real table, readable with any SQLite tool
    rows = project.connection.execute(f"SELECT c0, c2 FROM {info['table']} ORDER BY rowid").fetchall()
    assert [tuple(r) for r in rows] == [(0, "yes"), (1, "no"), (2, None), (3, "yes")]


def test_dataset_names_unique_removal_and_odd_column_names(project):
    frame = pd.DataFrame({"it's; DROP TABLE items; --": [1, 2], "ünïcode": ["a", "b"]})
    project.add_dataset("d", frame)
    pd.testing.assert_frame_equal(project.dataset_frame("d"), frame)
    with pytest.raises(ProjectError, match="already has a dataset"):
        project.add_dataset("d", frame)
    with pytest.raises(ProjectError, match="more than one column"):
        project.add_dataset("dup", pd.DataFrame([[1, 2]], columns=["a", "a"]))
    project.remove_dataset("d")
    assert project.datasets() == []
    tables = {r[0] for r in project.connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert not any(t.startswith("data_") for t in tables)
    with pytest.raises(ProjectError, match="no dataset named 'd'"):
        project.dataset_frame("d")


def test_empty_dataset(project):
    frame = pd.DataFrame({"a": pd.Series([], dtype="int64")})
    project.add_dataset("empty", frame)
    pd.testing.assert_frame_equal(project.dataset_frame("empty"), frame)


# ---------------------------------------------------------------- analyses


def test_analyses_saved_per_item(project):
    project.add_item("q", StandIn())
    project.add_item("r", StandIn())
    a1 = project.save_analysis("q", {"confidence": 0.95}, {"estimate": np.float64(0.3), "ci": [0.1, float("nan")]})
    a2 = project.save_analysis("r", {}, {"n": np.int64(5)})
    assert a2 > a1
    (saved,) = project.analyses("q")
    assert saved.results == saved["results"]
    assert saved["id"] == a1 and saved["options"] == {"confidence": 0.95} and saved["results"]["estimate"] == 0.3
    assert np.isnan(saved["results"]["ci"][1]) and saved["app_version"] and saved["created_at"]
    assert [a["item"] for a in project.analyses()] == ["q", "r"]
    project.update_item("q", new_name="q-renamed")
    assert project.analyses("q-renamed")[0]["id"] == a1
    with pytest.raises(ProjectError, match="no item named"):
        project.save_analysis("missing", {}, {})


# ---------------------------------------------------------------- ledger tables


RELEASE = dict(dataset_sha256="s" * 64, request="{}", mechanism="discrete_laplace", noise_params="{}",
               cost='{"epsilon": "1/10", "delta": "0"}', result='{"n": 7}', prev_hash="0" * 64)


def _release(conn, seq):
    cols = ", ".join(RELEASE) + ", seq, hash"
    conn.execute(f"INSERT INTO releases({cols}) VALUES ({', '.join('?' * (len(RELEASE) + 2))})",
                 (*RELEASE.values(), seq, f"h{seq}"))


def test_releases_are_append_only(project):
    with project.transaction() as conn:
        _release(conn, 1)
        _release(conn, 2)
    rows = project.ledger_rows()
    assert [r["seq"] for r in rows] == [1, 2] and rows[0]["cost"] == {"epsilon": "1/10", "delta": "0"}
    assert project.ledger_rows(decode=False)[0]["result"] == '{"n": 7}'
    for sql in ("UPDATE releases SET result = '{}' WHERE seq = 1", "DELETE FROM releases WHERE seq = 2"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            with project.transaction() as conn:
                conn.execute(sql)
    assert len(project.ledger_rows()) == 2


def test_budget_can_be_lowered_never_raised(project):
    conn = project.connection

    def set_budget(eps, delta="0"):
        with project.transaction():
            conn.execute("INSERT INTO budget(epsilon, delta, dataset_sha256) VALUES (?, ?, 'abc')",
                         (str(Fraction(str(eps))), str(Fraction(str(delta)))))

    set_budget(1, "1e-6")
    set_budget(0.3, "1e-7")
    for eps, delta in ((0.31, "1e-7"), (0.3, "1e-6"), (2, 0)):
        with pytest.raises(sqlite3.IntegrityError, match="never raised"):
            set_budget(eps, delta)
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        with project.transaction():
            conn.execute("INSERT INTO budget(epsilon) VALUES ('0.1')")  # not an exact fraction
    for sql in ("UPDATE budget SET epsilon = '5'", "DELETE FROM budget"):
        with pytest.raises(sqlite3.IntegrityError, match="budget"):
            with project.transaction():
                conn.execute(sql)
    assert [r["epsilon"] for r in project.budget_rows()] == ["1", "3/10"]
