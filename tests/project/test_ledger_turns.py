"""Issue 28, part 5: releases queue for the spending lock, first come first served; they never give up.

The lock used to poll every 20 ms and refuse a release after 120 s of waiting ("Another release is
being made…"): under load, most requests were refused for waiting, not for the budget. Each test
here is an attack on that: a clock that races past any deadline, a queue jumped, a wait that
cannot be cancelled, another program holding the lock.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from fractions import Fraction

import pandas as pd
import pytest

from dpdesk.project import Project, ledger
from dpdesk.project.ledger import turns
from tests.helpers.gui import settings_dir  # noqa: F401 - a data folder (and its spending lock) of this test
from tests.helpers.paths import ROOT

WAIT = 30  # seconds: a bound for a test that would otherwise hang, never reached when it passes


class Stop(Exception):
    """What a cancelled request's ``waiting`` raises (the app's Cancel)."""


def _project(tmp_path) -> Project:
    path = tmp_path / "turns.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("d", pd.DataFrame({"x": range(30)}), source={"name": "d.csv", "sha256": "7" * 64, "size": 1})
        ledger.set_budget(p, 1)
    return path


def _in_thread(fn):
    """Run ``fn`` in a thread; returns (thread, outcome dict with 'value' or 'error')."""
    out: dict = {}

    def run():
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - the test looks at it
            out["error"] = exc

    t = threading.Thread(target=run)
    t.start()
    return t, out


class _Holder:
    """Another program on this computer holding the spending lock (a child process's flock)."""

    def __init__(self) -> None:
        code = ("import sys, fcntl, os\n"
                "from dpdesk.project.ledger import key, turns\n"
                "fd = os.open(key.ledger_folder() / turns.LOCK, os.O_RDWR | os.O_CREAT, 0o600)\n"
                "fcntl.flock(fd, fcntl.LOCK_EX)\n"
                "print('held', flush=True)\n"
                "sys.stdin.readline()\n")
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=env)
        assert self.proc.stdout.readline().strip() == "held"

    def let_go(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.write("\n")
            self.proc.stdin.flush()
            self.proc.wait(WAIT)


@pytest.fixture
def holder(settings_dir):
    h = _Holder()
    yield h
    h.let_go()


def test_a_waiting_release_is_never_refused_for_waiting(settings_dir, tmp_path, monkeypatch):
    """The clock races past any deadline while another release holds the lock: the waiting one
    waits its turn and is released, not refused with "Another release is being made"."""
    path = _project(tmp_path)
    said = threading.Event()
    hold = turns.spending_lock()
    hold.__enter__()  # another release of this process is under way
    real = time.monotonic
    skew = iter(range(0, 10**12, 1000))
    monkeypatch.setattr(time, "monotonic", lambda: real() + next(skew))  # 1,000 s pass at every look

    def release():
        with Project.open(path, shared=True) as p:
            return ledger.release(p, {"statistic": "count", "epsilon": "0.1"},
                                  progress=lambda stage: said.set() if stage == "waiting" else None)

    t, out = _in_thread(release)
    try:
        assert said.wait(WAIT) or "error" in out, "the release neither waited nor failed"
        assert "error" not in out, f"refused while waiting: {out.get('error')}"
        assert t.is_alive()  # still in the queue, however late the clock says it is
    finally:
        monkeypatch.setattr(time, "monotonic", real)
        hold.__exit__(None, None, None)
        t.join(WAIT)
    assert "error" not in out and out["value"].epsilon == Fraction(1, 10) and not out["value"].replayed


def test_requests_of_one_process_take_their_turns_in_the_order_they_came(settings_dir):
    order, joined = [], []
    with turns.spending_lock():
        threads = []
        for i in range(8):
            queued = threading.Event()
            joined.append(queued)

            def take(i=i, queued=queued):
                with turns.spending_lock(queued.set):
                    order.append(i)

            threads.append(_in_thread(take)[0])
            assert queued.wait(WAIT)  # in the queue before the next one comes
        assert turns.queued() == 9
    for t in threads:
        t.join(WAIT)
    assert order == list(range(8))
    assert turns.queued() == 0


def test_a_cancelled_request_leaves_the_queue_and_the_next_goes_on(settings_dir):
    first_waits, second_waits, stop = threading.Event(), threading.Event(), threading.Event()
    done = []

    def cancellable():
        first_waits.set()
        if stop.is_set():
            raise Stop()

    def first():
        with turns.spending_lock(cancellable):
            done.append("first")

    def second():
        with turns.spending_lock(second_waits.set):
            done.append("second")

    with turns.spending_lock():
        t1, out1 = _in_thread(first)
        assert first_waits.wait(WAIT)
        t2, _ = _in_thread(second)
        assert second_waits.wait(WAIT)
        stop.set()  # Cancel, while another release still holds the lock
        t1.join(WAIT)
        assert isinstance(out1.get("error"), Stop) and turns.queued() == 2
    t2.join(WAIT)
    assert done == ["second"] and turns.queued() == 0


def test_another_program_holding_the_lock_is_waited_for(holder, tmp_path):
    path = _project(tmp_path)
    waits = threading.Event()

    def release():
        with Project.open(path, shared=True) as p:
            return ledger.release(p, {"statistic": "count", "epsilon": "0.25"},
                                  progress=lambda stage: waits.set() if stage == "waiting" else None)

    t, out = _in_thread(release)
    try:
        assert waits.wait(WAIT), "the release did not wait for the other program"
        assert t.is_alive() and not out
    finally:
        holder.let_go()
        t.join(WAIT)
    assert out["value"].epsilon == Fraction(1, 4)


def test_cancel_stops_waiting_for_another_program_at_once(holder, tmp_path):
    """The blocking flock of a cancellable request runs in a helper: Cancel returns while the
    other program still holds the lock, nothing is spent, and the lock is free once it lets go."""
    path = _project(tmp_path)
    waits, stop = threading.Event(), threading.Event()

    def progress(stage):
        if stage == "waiting":
            waits.set()
            if stop.is_set():
                raise Stop()

    def release():
        with Project.open(path, shared=True) as p:
            return ledger.release(p, {"statistic": "count", "epsilon": "0.25"}, progress=progress)

    t, out = _in_thread(release)
    assert waits.wait(WAIT)
    stop.set()
    t.join(WAIT)
    assert not t.is_alive() and isinstance(out.get("error"), Stop)
    assert holder.proc.poll() is None  # the other program still holds the lock
    with Project.open(path) as p:
        assert ledger.budget_status(p).releases == 0  # nothing spent
    holder.let_go()


    def take():
        with turns.spending_lock():  # the lock comes free, not kept by the cancelled request's helper
            return True

    t2, out2 = _in_thread(take)
    t2.join(WAIT)
    assert not t2.is_alive() and out2 == {"value": True}


def test_the_cli_says_it_waits_and_then_releases(holder, tmp_path):
    path = _project(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "dpdesk", "release", str(path), "--stat", "count",
                             "--epsilon", "0.5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stderr.readline()
    assert line.startswith("Waiting for another release on this computer to finish")
    holder.let_go()
    out, err = proc.communicate(timeout=WAIT * 2)
    assert proc.returncode == 0, err
    with Project.open(path) as p:
        assert ledger.budget_status(p).releases == 1
