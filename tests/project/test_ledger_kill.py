"""SIGKILL a releasing process at random moments: spending and results are recorded together.

The child reports each stage of every release on a pipe; the parent kills it after a
seeded number of stage lines, so the kill lands before, inside and after the transaction.
After each kill: the file reopens, the chain verifies, the spent budget equals the sum of
the recorded releases and never exceeds the total.
"""

from __future__ import annotations

import os
import signal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from dpdesk.project import Project, ledger

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

ROUNDS = 50
STAGES = ("start", "verified", "checked", "noised", "recorded", "committed")
TOTAL, EACH = Fraction(2), Fraction(1, 20)  # room for 40 releases; later rounds are refused


def _request(i: int) -> dict:
    return {"statistic": "histogram", "columns": ["answer"], "keys": ["yes", "no"], "epsilon": str(EACH),
            "confidence": f"0.9{i:05d}"}


def _releaser(path, start: int, out: int) -> None:
    def say(i, stage):
        os.write(out, f"{i} {stage}\n".encode())

    p = Project.open(path)
    i = start
    while True:
        i += 1
        say(i, "start")
        try:
            ledger.release(p, _request(i), progress=lambda stage, i=i: say(i, stage))
        except ledger.BudgetExceeded:
            say(i, "refused")


def _run_and_kill(path, start: int, n_lines: int) -> tuple[int, int]:
    """Fork a releaser, SIGKILL it after ``n_lines`` stage lines; (committed, refused) it reported."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_fd)
            _releaser(path, start, write_fd)
        finally:
            os._exit(0)
    os.close(write_fd)
    committed = refused = seen = 0
    buf = b""
    with os.fdopen(read_fd, "rb", buffering=0) as pipe:
        while seen < n_lines:
            chunk = pipe.read(4096)
            assert chunk, "the releasing process stopped early"
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                seen += 1
                stage = line.decode().split()[1]
                committed += stage == "committed"
                refused += stage == "refused"
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    return committed, refused


def test_kill_while_releasing_never_loses_or_overspends(tmp_path):
    path = tmp_path / "killed.dpdesk"
    frame = pd.DataFrame({"answer": pd.Categorical(["yes", "no", "no"] * 20)})
    with Project.create(path) as p:
        p.add_dataset("d", frame, source={"name": "d.csv", "sha256": "5" * 64, "size": 1})
        ledger.set_budget(p, TOTAL)
    rng = np.random.default_rng(20261130)
    recorded = refusals = 0
    for round_ in range(ROUNDS):
        n_lines = int(rng.integers(0, 3 * len(STAGES)))
        committed, refused = _run_and_kill(path, round_ * 1000, n_lines)
        refusals += refused
        with Project.open(path) as p:
            assert [tuple(r) for r in p.connection.execute("PRAGMA integrity_check")] == [("ok",)]
            check = ledger.verify_ledger(p)
            assert check.ok, check.problems
            entries = ledger.ledger(p)
            # the kill may land between COMMIT and the "committed" line: at most one more
            assert recorded + committed <= len(entries) <= recorded + committed + 1
            recorded = len(entries)
            status = ledger.budget_status(p)
            assert status.spent_epsilon == sum(e.epsilon for e in entries) == EACH * len(entries)
            assert status.spent_epsilon <= TOTAL and status.releases == len(entries)
            assert all(e.result["keys"] == [["yes", "no"]] for e in entries)
    assert recorded == TOTAL / EACH and refusals > 0  # the budget ran out on the way, cleanly
