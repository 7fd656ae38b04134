"""Background jobs: progress, Cancel, errors as signals; one job per view.

A job is a plain function ``fn(job, *args)``. It reports with ``job.progress(fraction,
text)`` and checks ``job.cancelled`` (or calls ``job.check()``, which raises
:class:`Cancelled`) between steps; a job waiting on something it cannot check (an engine's
query) registers ``job.on_cancel(hook)`` to stop it. Its return value comes back on the main thread as
the ``done`` signal; any exception comes back as ``failed`` (PITFALLS.md: an exception
in ``QRunnable.run`` is otherwise only printed and the result never arrives).

:class:`JobRunner` keeps one job per view: starting a job cancels the previous one, and
signals of a cancelled or replaced job are dropped.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from dpdesk.errors import DpdeskError


class Cancelled(DpdeskError):
    """The job was cancelled (nothing was changed)."""


class JobSignals(QObject):
    progress = Signal(float, str)
    done = Signal(object)
    failed = Signal(object)
    cancelled = Signal()
    finished = Signal()  # always last, after done/failed/cancelled


class Job(QRunnable):
    """One run of ``fn(job, *args, **kwargs)`` in the thread pool."""

    def __init__(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.setAutoDelete(False)  # the runner keeps it until its signals are handled
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.signals = JobSignals()
        self._cancel = threading.Event()
        self._finished = threading.Event()
        self._hooks: list[Callable[[], None]] = []
        self._hooks_lock = threading.Lock()

    # called from the job function (worker thread) ---------------------------------
    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        if self._cancel.is_set():
            raise Cancelled("The job was cancelled.")

    def progress(self, fraction: float, text: str = "") -> None:
        self.check()
        self.signals.progress.emit(float(fraction), text)

    def on_cancel(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` when the job is cancelled (at once if it already is), on the cancelling thread: an
        engine's token (``CancelToken.cancel``) interrupts its running query this way."""
        with self._hooks_lock:
            self._hooks.append(hook)
        if self._cancel.is_set():
            hook()

    # called from the main thread ----------------------------------------------------
    def cancel(self) -> None:
        self._cancel.set()
        with self._hooks_lock:
            hooks = list(self._hooks)
        for hook in hooks:
            try:
                hook()
            except Exception:  # noqa: BLE001 - a job already finished has nothing left to stop
                pass

    @property
    def is_finished(self) -> bool:
        return self._finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    def run(self) -> None:  # noqa: D401 - QRunnable API
        try:
            result = self.fn(self, *self.args, **self.kwargs)
        except Cancelled:
            self._emit(self.signals.cancelled)
        except BaseException as exc:  # every error is reported, never swallowed
            if self._cancel.is_set():  # an engine's own "cancelled" (or what stopping it caused)
                self._emit(self.signals.cancelled)
            else:
                self._emit(self.signals.failed, exc)
        else:
            if self._cancel.is_set():
                self._emit(self.signals.cancelled)
            else:
                self._emit(self.signals.done, result)
        finally:
            self._emit(self.signals.finished)
            self._finished.set()

    def _emit(self, signal, *args) -> None:
        try:
            signal.emit(*args)
        except RuntimeError:  # the receiver (and our signals object) was deleted
            pass


class JobRunner(QObject):
    """Runs one job at a time for its owner; a new job cancels the one before.

    Signals carry only the current job's results: ``done(result)``, ``failed(exc)``,
    ``progress(fraction, text)``, ``busy(bool)``.
    """

    done = Signal(object)
    failed = Signal(object)
    progress = Signal(float, str)
    busy = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._job: Job | None = None
        self._jobs: list[Job] = []  # started and not yet finished (kept alive)

    @property
    def running(self) -> bool:
        return self._job is not None

    @property
    def current(self) -> Job | None:
        return self._job

    def start(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Job:
        self.cancel()
        job = Job(fn, *args, **kwargs)
        job.signals.progress.connect(self._on_progress)
        job.signals.done.connect(self._on_done)
        job.signals.failed.connect(self._on_failed)
        job.signals.cancelled.connect(self._on_cancelled)
        job.signals.finished.connect(self._on_finished)
        self._job = job
        self._jobs.append(job)
        self.busy.emit(True)
        QThreadPool.globalInstance().start(job)
        return job

    def cancel(self) -> None:
        """Cancel the current job; its results, if any still come, are dropped."""
        job, self._job = self._job, None
        if job is not None:
            job.cancel()
            self.busy.emit(False)

    def shutdown(self, timeout_ms: int = 10_000) -> None:
        """Cancel and wait for every job this runner started (before its owner goes away)."""
        self.cancel()
        for job in list(self._jobs):
            job.wait(timeout_ms / 1000)
        self._jobs.clear()

    # slots (main thread) ------------------------------------------------------------
    def _sender_job(self) -> Job | None:
        signals = self.sender()
        for job in self._jobs:
            if job.signals is signals:
                return job
        return None

    def _is_current(self) -> bool:
        job = self._sender_job()
        return job is not None and job is self._job

    def _on_progress(self, fraction: float, text: str) -> None:
        if self._is_current():
            self.progress.emit(fraction, text)

    def _on_done(self, result: object) -> None:
        if self._is_current():
            self._job = None
            self.busy.emit(False)
            self.done.emit(result)

    def _on_failed(self, exc: object) -> None:
        if self._is_current():
            self._job = None
            self.busy.emit(False)
            self.failed.emit(exc)

    def _on_cancelled(self) -> None:
        if self._is_current():
            self._job = None
            self.busy.emit(False)

    def _on_finished(self) -> None:
        job = self._sender_job()
        if job is not None and job in self._jobs:
            self._jobs.remove(job)
