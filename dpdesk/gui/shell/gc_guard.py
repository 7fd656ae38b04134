"""Collect cyclic garbage on the GUI thread only.

Python's cyclic garbage collector runs in whichever thread happens to allocate when a
threshold is crossed. If that is a worker thread (reading a table, importing a module) and
the garbage holds Qt objects, they are destroyed off the GUI thread and the program can
crash (seen here as segfaults inside pandas in a worker). The usual remedy (pyqtgraph,
Orange): switch automatic collection off and collect from a timer on the GUI thread.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer


class MainThreadGarbageCollector(QObject):
    """Disables automatic collection; collects on the GUI thread when a threshold is passed."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = 500) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> None:
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self.thresholds[generation]:
                gc.collect(generation)
                return


def install(app) -> MainThreadGarbageCollector:
    """Install once per application (kept as a child of ``app``). The guard is remembered on ``app``:
    ``findChild`` with a Python class cost a tenth of the start-up (benchmarks/startup.py)."""
    guard = getattr(app, "_dpdesk_gc_guard", None)
    if guard is None:
        guard = app._dpdesk_gc_guard = MainThreadGarbageCollector(app)
    return guard
