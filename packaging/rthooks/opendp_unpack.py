"""PyInstaller runtime hook: unpack OpenDP's xz-compressed library on first use.

The bundle carries ``opendp/lib/<library>.xz`` (``packaging/pack_lib.py``; Linux and Windows).
Just before ``opendp`` is first imported (only when noise is drawn), the library is decompressed
and ``OPENDP_LIB_DIR`` points OpenDP's loader at a private folder holding it:

- Linux: into an anonymous in-memory file (``memfd_create``), linked from a private temporary
  folder; nothing is written to disk.
- Windows (no memfd, and a DLL must be a file): once per build into the user's cache,
  ``%LOCALAPPDATA%\\dpdesk\\opendp\\<first 16 hex digits of the packed file's SHA-256>``, written
  to a temporary name and renamed when complete, so a half-written library is never loaded;
  later sessions reuse it.

Start-up and commands that draw no noise never pay for the unpacking (about 2 s).
"""

import atexit
import importlib.abc
import lzma
import os
import shutil
import sys
import tempfile
from pathlib import Path

_LIB = Path(getattr(sys, "_MEIPASS", "/nonexistent")) / "opendp" / "lib"
_FOUND = sorted(_LIB.glob("opendp*.xz")) if _LIB.is_dir() else []
_PACKED = _FOUND[0] if _FOUND else _LIB / "opendp.abi3.so.xz"
_NAME = _PACKED.name[:-3]  # opendp.abi3.so, opendp.pyd ...


def _unpacked_file() -> int:
    """A file descriptor holding the decompressed library."""
    fd = os.memfd_create(_NAME, getattr(os, "MFD_CLOEXEC", 0))
    with lzma.open(_PACKED, "rb") as packed:
        while chunk := packed.read(1 << 22):
            _write_all(fd, chunk)
    return fd


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _cache_root() -> Path:
    base = os.environ.get("LOCALAPPDATA") or os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dpdesk" / "opendp"


def _unpack_to_cache() -> str:
    """Decompress once into the user's cache (a folder named by the packed file's hash); return the folder."""
    import hashlib

    digest = hashlib.sha256()
    with open(_PACKED, "rb") as f:
        while chunk := f.read(1 << 22):
            digest.update(chunk)
    folder = _cache_root() / digest.hexdigest()[:16]
    if (folder / _NAME).is_file():
        return str(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=folder.parent))
    with lzma.open(_PACKED, "rb") as packed, open(partial / _NAME, "wb") as out:
        shutil.copyfileobj(packed, out, 1 << 22)
    try:
        os.replace(partial, folder)
    except OSError:  # another session finished first: use its copy
        shutil.rmtree(partial, True)
    return str(folder)


def _prepare() -> None:
    if "OPENDP_LIB_DIR" in os.environ or not _PACKED.is_file():
        return
    if not hasattr(os, "memfd_create"):
        os.environ["OPENDP_LIB_DIR"] = _unpack_to_cache()
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
