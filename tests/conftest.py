"""Suite-wide set-up: offscreen Qt, a temporary settings folder, no leaked threads."""

from __future__ import annotations

import os
import tempfile
import threading

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MPLBACKEND", "Agg")
# Settings and config go to a throwaway folder: tests never touch the user's real ones.
_SETTINGS_DIR = tempfile.mkdtemp(prefix="dpdesk-test-settings-")
os.environ["XDG_CONFIG_HOME"] = _SETTINGS_DIR
os.environ["DPDESK_SETTINGS_DIR"] = _SETTINGS_DIR

import pytest  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _qt_settings_in_temp_folder():
    """Point QSettings (every format and scope) at the temporary folder."""
    try:
        from PySide6.QtCore import QSettings
    except ImportError:  # pragma: no cover - Qt is a runtime dependency
        yield
        return
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
            QSettings.setPath(fmt, scope, _SETTINGS_DIR)
    yield


@pytest.fixture(autouse=True)
def _a_data_folder_per_test(tmp_path_factory, monkeypatch):
    """Each test its own user data folder (the ledger's key and register, the respondents' registry): the
    budget follows the people (issue 28), so releases from the same test data in another test's project
    would otherwise count against this one. A test that sets DPDESK_SETTINGS_DIR itself overrides it."""
    monkeypatch.setenv("DPDESK_SETTINGS_DIR", str(tmp_path_factory.mktemp("user")))
    yield


@pytest.fixture(scope="session", autouse=True)
def _none_kept_alive():
    """As the app does (dpdesk.gui.shell.none_guard): PySide6's None leak never aborts the suite."""
    from dpdesk.gui.shell import none_guard

    none_guard.install()
    yield


@pytest.fixture(scope="session", autouse=True)
def _garbage_on_the_main_thread():
    """As the app does (dpdesk.gui.shell.gc_guard): no automatic cyclic collection, which could run
    in a worker thread and destroy Qt objects there; tests collect on the main thread instead."""
    import gc

    gc.disable()
    yield
    gc.enable()


@pytest.fixture(autouse=True)
def _no_leaked_threads(request):
    """Fail a test that leaves a Python thread or a Qt worker running."""
    import gc

    before = set(threading.enumerate())
    yield
    # on the main thread, after the test (see _garbage_on_the_main_thread): young garbage after
    # every test, everything after a test that used Qt
    gc.collect(2 if {"qtbot", "qapp"} & set(request.fixturenames) else 1)
    leaked = [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
    for t in leaked:
        t.join(timeout=5)
    leaked = [t for t in leaked if t.is_alive()]
    assert not leaked, f"test left threads running: {[t.name for t in leaked]}"
    try:
        from PySide6.QtCore import QThreadPool
    except ImportError:  # pragma: no cover
        return
    pool = QThreadPool.globalInstance()
    if pool.activeThreadCount():
        pool.waitForDone(30_000)  # a worker still finishing on a loaded machine is not a leak; a stuck one is
        assert pool.activeThreadCount() == 0, "test left QThreadPool workers running"


#: A test still running after this many seconds is taken to hang: every thread's stack is printed and the run
#: stops (the longest test takes under a minute; a deadlock once held CI for its whole 90 minutes).
HANG_SECONDS = 600


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    import faulthandler
    import sys

    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True, file=sys.__stderr__)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
