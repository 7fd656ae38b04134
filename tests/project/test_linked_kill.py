"""A long aggregation holds no lock other releases wait on, and a kill during it spends nothing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dpdesk.project import Project, ledger, linked
from dpdesk.project.file.lock import try_lock
from dpdesk.project.ledger import key, reservations, turns
from tests.helpers import linked as data

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import sys, time
    from dpdesk.project import Project, ledger
    from dpdesk.project.linked import duckdb_source

    def slow(self, query, cancel=None):
        print("aggregating", flush=True)
        time.sleep(300)

    duckdb_source.DuckDBSource.aggregate = slow
    with Project.open(sys.argv[1]) as p:
        ledger.release(p, {"statistic": "count", "epsilon": 0.75}, dataset="registry")
""")


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_killed_during_the_engines_job_spends_nothing_and_never_held_the_lock(tmp_path):
    folder = data.write_parts(data.frame(200), tmp_path / "registry", parts=2)
    path = tmp_path / "p.dpdesk"
    with Project.create(path) as project:
        linked.link_dataset(project, str(folder))
        ledger.set_budget(project, 1)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE, env=env, text=True)
    try:
        assert child.stdout.readline().strip() == "aggregating"
        # the spending lock is free while the engine works: another release would not wait
        fd = os.open(key.ledger_folder() / turns.LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            assert try_lock(fd)
        finally:
            os.close(fd)
        # and the reservation counts for this file meanwhile
        assert [str(e.epsilon) for e in reservations.live_events(path, [])] == ["3/4"]
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
    with Project.open(path) as project:
        assert ledger.ledger(project) == []
        status = ledger.budget_status(project)
        assert status.remaining_epsilon == 1
        assert reservations.live_events(path, []) == []  # died with its process
        assert ledger.release(project, {"statistic": "count", "epsilon": 0.75}).cost["epsilon"] == "3/4"
