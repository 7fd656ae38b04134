"""PyInstaller runtime hook: unpack OpenDP's xz-compressed library into memory on first use.

The bundle carries ``opendp/lib/opendp.abi3.so.xz`` (``packaging/pack_lib.py``). Just before
``opendp`` is first imported (only when noise is drawn), the library is decompressed into an
anonymous in-memory file (``memfd_create``; a deleted temporary file where that is missing),
and ``OPENDP_LIB_DIR`` points OpenDP's loader at a private folder holding one link to it.
Start-up and commands that draw no noise never pay for the unpacking (about 2 s, 168 MB of memory).
"""

import atexit
import importlib.abc
import lzma
import os
import shutil
import sys
import tempfile
from pathlib import Path

_PACKED = Path(getattr(sys, "_MEIPASS", "/nonexistent")) / "opendp" / "lib" / "opendp.abi3.so.xz"
_NAME = "opendp.abi3.so"


def _unpacked_file() -> int:
    """A file descriptor holding the decompressed library."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create(_NAME, getattr(os, "MFD_CLOEXEC", 0))
    else:  # pragma: no cover - Linux always has memfd_create
        fd, path = tempfile.mkstemp(suffix=".so")
        os.unlink(path)
    with lzma.open(_PACKED, "rb") as packed:
        while chunk := packed.read(1 << 22):
            _write_all(fd, chunk)
    return fd


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _prepare() -> None:
    if "OPENDP_LIB_DIR" in os.environ or not _PACKED.is_file():
        return
    fd = _unpacked_file()
    folder = tempfile.mkdtemp(prefix="dpdesk-opendp-")  # mode 0700: only this user
    atexit.register(shutil.rmtree, folder, True)
    os.symlink(f"/proc/{os.getpid()}/fd/{fd}", os.path.join(folder, _NAME))
    os.environ["OPENDP_LIB_DIR"] = folder


class _UnpackOnImport(importlib.abc.MetaPathFinder):
    """Runs ``_prepare`` once, when ``opendp`` is first imported, then steps aside."""

    def find_spec(self, name, path=None, target=None):
        if name == "opendp":
            sys.meta_path.remove(self)
            _prepare()
        return None


if _PACKED.is_file():
    sys.meta_path.insert(0, _UnpackOnImport())
