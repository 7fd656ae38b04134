"""Keep ``None`` alive through PySide6's reference leak on Python 3.11.

PySide6 6.12.0 on Python 3.11 drops one reference to ``None`` on every call of a Qt method
that returns nothing (``setText``, ``processEvents``, ``setInterval`` ...). ``None``'s count
starts at a few thousand in a small process, so after that many calls the interpreter
aborts with "Fatal Python error: none_dealloc" (measured: 1,000 ``QLabel.setText`` calls
took ``sys.getrefcount(None)`` from 5,082 to 4,082; a few thousand more abort). PySide6
6.11.3 does not leak, but 6.7-6.11.0 crashed the GUI suite (docs/guide/install.md).

Python 3.12 made ``None`` immortal (PEP 683: its count is pinned at a huge value and never
reaches zero), so the leak is harmless there. :func:`install` does the same on 3.11: it adds
2**40 to ``None``'s reference count once, which no session can leak away (one leaked
reference per Qt call: about 10**12 calls). ``None`` is never freed in any case, so nothing
else changes. ``ob_refcnt`` is the first field of every object in CPython 3.11.
"""

from __future__ import annotations

import ctypes
import sys

_RESERVE = 1 << 40
_installed = False


def install() -> None:
    """Make ``None`` practically immortal on CPython < 3.12 (once per process)."""
    global _installed
    if _installed or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    ctypes.c_ssize_t.from_address(id(None)).value += _RESERVE
    _installed = True
