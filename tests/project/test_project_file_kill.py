"""SIGKILL a process writing a project at varied moments: the file always reopens intact,
holding exactly the state of its last committed transaction."""

from __future__ import annotations

import os
import signal
import sqlite3

import numpy as np
import pandas as pd
import pytest

from dpdesk.project import Project

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

ROUNDS = 50
STEPS = ("begin", "item", "analysis", "dataset", "counter", "commit")


class Design:
    def to_dict(self):
        return {"name": "custom", "params": {"matrix": [[0.8, 0.2], [0.2, 0.8]]}}


def _frame(k: int) -> pd.DataFrame:
    return pd.DataFrame({"k": np.full(k, k), "answer": pd.Categorical(["yes", "no"] * (k // 2) + ["yes"] * (k % 2))})


def _datasets_after(c: int) -> list[int]:
    """Transaction i adds dataset d<i> when 3 | i and removes d<i-6>: the last two remain."""
    return [k for k in range(3, c + 1, 3) if k + 6 > c]


def _writer(path, start: int, out: int) -> None:
    """Child process: commit transaction after transaction, reporting each step on ``out``."""
    p = Project.open(path)

    def say(i, step):
        os.write(out, f"{i} {step}\n".encode())

    i = start
    while True:
        i += 1
        with p.transaction() as conn:
            say(i, "begin")
            p.add_item(f"q{i}", Design(), column=f"c{i}", codes={1: "yes", 2: "no"})
            say(i, "item")
            p.save_analysis(f"q{i}", {"i": i}, {"estimate": i / 10})
            say(i, "analysis")
            if i % 3 == 0:
                p.add_dataset(f"d{i}", _frame(i), source={"name": f"d{i}.csv", "sha256": "0" * 64, "size": i})
                if i >= 9:
                    p.remove_dataset(f"d{i - 6}")
            say(i, "dataset")
            conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES ('test_counter', ?)", (str(i),))
            say(i, "counter")
        say(i, "commit")


def _run_and_kill(path, start: int, n_lines: int) -> int:
    """Fork a writer, wait for ``n_lines`` lines from it, SIGKILL it; the last committed i it reported."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_fd)
            _writer(path, start, write_fd)
        finally:
            os._exit(0)
    os.close(write_fd)
    last_commit, seen, buf = start, 0, b""
    with os.fdopen(read_fd, "rb", buffering=0) as pipe:
        while seen < n_lines:
            chunk = pipe.read(4096)
            assert chunk, "the writer process stopped early"
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                seen += 1
                i, step = line.decode().split()
                if step == "commit":
                    last_commit = int(i)
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    return last_commit


def _check_committed_state(p: Project, reported: int) -> int:
    conn = p.connection
    assert [tuple(r) for r in conn.execute("PRAGMA integrity_check")] == [("ok",)]
    row = conn.execute("SELECT value FROM app WHERE key = 'test_counter'").fetchone()
    c = int(row[0]) if row else 0
    assert reported <= c <= reported + 1  # the kill may land between COMMIT and the report
    assert [it.name for it in p.items()] == [f"q{i}" for i in range(1, c + 1)]
    analyses = p.analyses()
    assert [a["options"]["i"] for a in analyses] == list(range(1, c + 1))
    expected = _datasets_after(c)
    assert [d["name"] for d in p.datasets()] == [f"d{k}" for k in expected]
    for k in expected:
        pd.testing.assert_frame_equal(p.dataset_frame(f"d{k}"), _frame(k))
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'data_[0-9]*'")}
    assert tables == {f"data_{d['id']}" for d in p.datasets()}  # no orphan or missing data tables
    orphans = conn.execute("SELECT count(*) FROM dataset_columns WHERE dataset_id NOT IN (SELECT id FROM datasets)")
    assert orphans.fetchone()[0] == 0
    return c


def test_kill_at_random_moments_leaves_last_committed_state(tmp_path):
    path = tmp_path / "killed.dpdesk"
    Project.create(path).close()
    rng = np.random.default_rng(20261129)
    committed, kill_steps = 0, set()
    for _ in range(ROUNDS):
        n_lines = int(rng.integers(0, 4 * len(STEPS)))
        reported = _run_and_kill(path, committed, n_lines)
        with Project.open(path) as p:  # opens: the read-only check includes integrity_check
            committed = _check_committed_state(p, reported)
        kill_steps.add(n_lines % len(STEPS))
    assert committed >= ROUNDS  # the rounds made progress
    assert len(kill_steps) == len(STEPS)  # and the kills landed after every kind of step
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
