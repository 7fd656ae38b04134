"""1,000 release requests at once (threads with their own connections, and two processes)
never spend past the budget: budget 1, each 0.01, so exactly 100 succeed."""

from __future__ import annotations

import json
import os
import threading
from fractions import Fraction

import pandas as pd
import pytest

from dpdesk.project import Project, ledger

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

N, THREADS, PROCESSES, PER_PROCESS = 1000, 4, 2, 250


def _request(i: int) -> dict:
    return {"statistic": "count", "epsilon": "0.01", "confidence": f"0.9{i:04d}"}


def _fire(path, indices) -> dict:
    """Release each request from a connection of its own (shared mode); tally the outcomes."""
    tally = {"released": 0, "refused": 0, "other": []}
    with Project.open(path, shared=True) as p:
        for i in indices:
            try:
                ledger.release(p, _request(i))
                tally["released"] += 1
            except ledger.BudgetExceeded:
                tally["refused"] += 1
            except Exception as exc:  # noqa: BLE001 - any other outcome fails the test below
                tally["other"].append(f"{type(exc).__name__}: {exc}")
    return tally


def test_concurrent_releases_never_overspend(tmp_path):
    path = tmp_path / "busy.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("d", pd.DataFrame({"x": range(30)}), source={"name": "d.csv", "sha256": "7" * 64, "size": 1})
        ledger.set_budget(p, 1)
    children = []
    for k in range(PROCESSES):  # fork first, before any thread exists here
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(read_fd)
                start = N - PROCESSES * PER_PROCESS + k * PER_PROCESS
                os.write(write_fd, json.dumps(_fire(path, range(start, start + PER_PROCESS))).encode())
                code = 0
            finally:
                os._exit(code)
        os.close(write_fd)
        children.append((pid, read_fd))
    in_threads = N - PROCESSES * PER_PROCESS
    tallies = [None] * THREADS

    def work(t):
        tallies[t] = _fire(path, range(t, in_threads, THREADS))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
    for t in threads:
        t.start()
    for pid, fd in children:
        with os.fdopen(fd, "rb") as pipe:
            tallies.append(json.loads(pipe.read()))
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    for t in threads:
        t.join()
    assert [x for t in tallies for x in t["other"]] == []
    assert sum(t["released"] for t in tallies) == 100
    assert sum(t["refused"] for t in tallies) == N - 100
    assert [t["released"] + t["refused"] for t in tallies[THREADS:]] == [PER_PROCESS] * PROCESSES
    with Project.open(path) as p:
        status = ledger.budget_status(p)
        assert status.spent_epsilon == 1 and status.releases == 100 and ledger.verify_ledger(p).ok
        assert sum(e.epsilon for e in ledger.ledger(p)) == Fraction(1)
