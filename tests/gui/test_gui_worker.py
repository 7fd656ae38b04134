"""The worker: results, errors and progress come back as signals; cancel and replace work."""

from __future__ import annotations

import threading

import pytest

from dpdesk.errors import DataError
from dpdesk.gui.shell.worker import JobRunner


def _add(job, a, b):
    job.progress(0.5, "half way")
    return a + b


def _boom(job):
    raise ZeroDivisionError("inside the worker")


def _bad_input(job):
    raise DataError("file.csv, row 3: not a number")


def _wait_for_cancel(job, started: threading.Event):
    started.set()
    while not job.cancelled:
        job.wait(0.01)  # a short wait on the job's own event: returns as soon as it finishes
    job.check()


@pytest.fixture
def runner(qtbot):
    r = JobRunner()
    yield r
    r.shutdown()


def test_result_and_progress(runner, qtbot):
    seen = []

    def record(fraction, text):
        seen.append((fraction, text))

    runner.progress.connect(record)
    with qtbot.waitSignal(runner.done, timeout=10_000) as blocker:
        runner.start(_add, 2, 3)
    assert blocker.args == [5] and seen == [(0.5, "half way")]
    assert not runner.running


def test_exception_comes_back_as_a_signal(runner, qtbot):
    with qtbot.waitSignal(runner.failed, timeout=10_000) as blocker:
        runner.start(_boom)
    assert isinstance(blocker.args[0], ZeroDivisionError)
    with qtbot.waitSignal(runner.failed, timeout=10_000) as blocker:
        runner.start(_bad_input)
    assert isinstance(blocker.args[0], DataError)


def test_cancel_drops_the_result(runner, qtbot):
    started = threading.Event()
    job = runner.start(_wait_for_cancel, started)
    assert started.wait(10)
    with qtbot.waitSignal(runner.busy, timeout=1000) as blocker:
        runner.cancel()
    assert blocker.args == [False]
    assert job.wait(10) and job.cancelled and not runner.running


def test_a_new_job_replaces_the_running_one(runner, qtbot):
    started = threading.Event()
    first = runner.start(_wait_for_cancel, started)
    assert started.wait(10)
    with qtbot.waitSignal(runner.done, timeout=10_000) as blocker:
        runner.start(_add, 1, 1)
    assert first.cancelled and blocker.args == [2]
