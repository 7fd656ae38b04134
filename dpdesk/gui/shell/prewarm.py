"""Import the heavy libraries in the background once the window is up, so first use is quick.

The window shows without scipy, pandas or matplotlib (``benchmarks/startup.py``); the views
import them when first needed, which took seconds on the GUI thread (wizard page 2 waited
1.5 s for scipy). One daemon thread imports them after start-up instead. Only pure-Python
imports happen there: no Qt object is made or destroyed off the GUI thread, and cyclic
garbage is collected on the GUI thread only (:mod:`dpdesk.gui.shell.gc_guard`). A module the
GUI thread needs while the thread imports it is simply waited for (Python's import lock).
``DPDESK_NO_PREWARM=1`` turns it off.

Background threads import the heavy libraries one at a time (:data:`IMPORT_LOCK`,
:func:`import_now`): two threads running one library's import at once can each get a
half-initialised module (matplotlib's ``__init__`` runs in one thread while another imports
``matplotlib.figure``; Python's import locks then break the cycle by handing out the partial
module), which made the wizard's first preview fail now and then with "module 'matplotlib'
has no attribute 'get_data_path'".
"""

from __future__ import annotations

import importlib
import os
import sys
import threading

#: In the order the app needs them: designs and planning (wizard), estimates (Results),
#: data frames (Data, Share, Tabulate), plots (the wizard's preview, Results).
MODULES = (
    "dpdesk.mechanisms.rr",
    "dpdesk.mechanisms.rr.planning.sample_size",
    "dpdesk.mechanisms.rr.estimate",
    "dpdesk.mechanisms.rr.planning.simulate",
    "dpdesk.mechanisms.rr.subgroups",
    "scipy.stats",
    "pandas",
    "dpdesk.project.analysis.estimates",
    "matplotlib.figure",
    "matplotlib.backends.backend_agg",
)

_started = threading.Event()

#: Held by a background thread while it imports (see the module docstring).
IMPORT_LOCK = threading.RLock()


def import_now(*modules: str) -> None:
    """Import ``modules`` in this (background) thread, one library's import at a time across threads."""
    for name in modules:
        if loaded(name):
            continue
        with IMPORT_LOCK:
            importlib.import_module(name)


def start() -> threading.Thread | None:
    """Start the import thread (once per process); returns it, or None if already started or off."""
    if _started.is_set() or os.environ.get("DPDESK_NO_PREWARM"):
        return None
    _started.set()
    thread = threading.Thread(target=_run, name="dpdesk-prewarm", daemon=True)
    thread.start()
    return thread


def _run() -> None:
    for name in MODULES:
        try:
            import_now(name)
        except Exception:  # noqa: BLE001 - the view that needs it imports it again and reports the error
            pass


def loaded(module: str) -> bool:
    """Whether ``module`` is imported and ready (not still being imported by another thread):
    code on the GUI thread that would otherwise wait for it can do the work in a worker."""
    found = sys.modules.get(module)
    return found is not None and not getattr(getattr(found, "__spec__", None), "_initializing", False)


def load_job(job, module: str) -> str:
    """Worker: import ``module`` (waiting for the import thread if it is at it)."""
    import_now(module)
    return module
