"""Qt work that must stay on the GUI thread, done in steps so the window keeps answering.

A step job is a generator: each ``yield fraction`` is progress and a point where the event loop
runs (and Cancel can stop it); its ``return`` value comes back as ``done``. Laying out and
painting a PDF (``dpdesk.printing.pdf_steps``) runs this way: ``QTextDocument`` and
``QPdfWriter`` are QObjects, and making them in a worker deadlocked (PySide6 keeps the GIL while
Qt takes its signal-slot locks, and the GUI thread waited for the GIL while it destroyed another
Qt object). :class:`StepRunner` has the signals of :class:`~dpdesk.gui.shell.worker.JobRunner`.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal


class StepRunner(QObject):
    """Runs one generator at a time on the GUI thread, one step per turn of the event loop."""

    done = Signal(object)
    failed = Signal(object)
    progress = Signal(float, str)
    busy = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._steps = None
        self._text = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)

    @property
    def running(self) -> bool:
        return self._steps is not None

    def start(self, steps, text: str = "") -> None:
        """Run the generator ``steps`` (a new one cancels the one before); ``text`` goes with its progress."""
        self.cancel()
        self._steps, self._text = steps, text
        self.busy.emit(True)
        self._timer.start()

    def cancel(self) -> None:
        """Stop the current steps (the generator is closed: it cleans up after itself)."""
        steps, self._steps = self._steps, None
        self._timer.stop()
        if steps is not None:
            steps.close()
            self.busy.emit(False)

    shutdown = cancel  # nothing runs off the GUI thread, so there is nothing to wait for

    def _step(self) -> None:
        steps = self._steps
        if steps is None:
            return
        try:
            fraction = next(steps)
        except StopIteration as stop:
            self._finish()
            self.done.emit(stop.value)
            return
        except Exception as exc:  # noqa: BLE001 - every error is reported, never swallowed
            self._finish()
            self.failed.emit(exc)
            return
        self.progress.emit(float(fraction), self._text)
        self._timer.start()

    def _finish(self) -> None:
        self._steps = None
        self.busy.emit(False)
