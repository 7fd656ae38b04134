"""Folders the tests read: the repository, the test data files and the project fixtures; and the one
folder screenshots go to."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
FIXTURES = ROOT / "tests" / "fixtures"

#: Set by ``make screenshots`` (to docs/screenshots) to write the pictures the README and the guide show.
SHOTS_ENV = "DPDESK_SCREENSHOTS"


def _shots_folder() -> Path:
    """Where screenshots are written: ``$DPDESK_SCREENSHOTS`` when set, else a temporary folder removed at
    exit, so ``make test`` leaves the tracked docs/screenshots/ untouched."""
    chosen = os.environ.get(SHOTS_ENV)
    if chosen:
        return Path(chosen).resolve()
    folder = Path(tempfile.mkdtemp(prefix="dpdesk-test-shots-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


SHOTS = _shots_folder()
