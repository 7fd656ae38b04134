"""Simultaneous release requests (issue 28, part 5): every request its own thread, in three
processes, all at once, against a budget for a tenth of them. Exactly that tenth is released,
and every other request is refused for the budget (never for waiting: the spending lock
queues them, :mod:`dpdesk.project.ledger.turns`). The README promises the same of 1,000
requests; ``benchmarks/concurrent_releases.py`` measures that (results in benchmarks/README.md).
"""

from __future__ import annotations

import json
import os
import threading
from fractions import Fraction

import pandas as pd
import pytest

from dpdesk.project import Project, ledger

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

N, PROCESSES, EPSILON = 200, 3, Fraction(1, 20)  # budget 1: exactly 20 fit
WAIT = 300  # seconds: a bound for a hang, far beyond the run's time


def _request(i: int) -> dict:
    return {"statistic": "count", "epsilon": str(EPSILON), "confidence": f"0.9{i:04d}"}  # all different


def _fire(path, indices) -> list[str]:
    """Each request in a thread of its own with its own connection, released at the same moment."""
    outcomes: list[str] = []
    ready = threading.Barrier(len(indices))

    def one(i):
        try:
            with Project.open(path, shared=True) as p:
                ready.wait(WAIT)
                try:
                    ledger.release(p, _request(i))
                    outcomes.append("released")
                except ledger.BudgetExceeded as exc:
                    text = str(exc)
                    budget = "so it does not fit" in text and "nothing was spent" in text
                    outcomes.append("budget" if budget else f"refused otherwise: {text}")
        except Exception as exc:  # noqa: BLE001 - any other outcome fails the test
            outcomes.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=one, args=(i,)) for i in indices]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    return outcomes


def test_simultaneous_requests_are_refused_only_for_the_budget(tmp_path):
    path = tmp_path / "busy.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("d", pd.DataFrame({"x": range(30)}), source={"name": "d.csv", "sha256": "7" * 64, "size": 1})
        ledger.set_budget(p, 1)
    share = N // PROCESSES
    children = []
    for k in range(PROCESSES - 1):  # fork first, before any thread exists here
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(read_fd)
                os.write(write_fd, json.dumps(_fire(path, range(k * share, (k + 1) * share))).encode())
                code = 0
            finally:
                os._exit(code)
        os.close(write_fd)
        children.append((pid, read_fd))
    outcomes = _fire(path, range((PROCESSES - 1) * share, N))
    for pid, fd in children:
        with os.fdopen(fd, "rb") as pipe:
            outcomes += json.loads(pipe.read())
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert len(outcomes) == N
    assert [o for o in outcomes if o not in ("released", "budget")] == []
    assert outcomes.count("released") == 20 and outcomes.count("budget") == N - 20
    with Project.open(path) as p:
        status = ledger.budget_status(p)
        assert status.spent_epsilon == 1 and status.releases == 20 and ledger.verify_ledger(p).ok
        assert sum(e.epsilon for e in ledger.ledger(p)) == Fraction(1)
