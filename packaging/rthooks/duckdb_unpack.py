"""PyInstaller runtime hook: unpack DuckDB's xz-compressed extension module on first import.

DuckDB is one extension module, ``_duckdb.<abi>.so`` (65 MB, already stripped), imported only when a
linked dataset is read (``dpdesk.project.linked.duckdb_source``). The Linux bundle carries it
xz-compressed (``packaging/pack_lib.py``, about 13 MB; ``dpdesk.spec``), which keeps the installed
size and the .deb within their targets. When ``_duckdb`` is first imported, this hook decompresses it
into an anonymous in-memory file (``memfd_create``; nothing is written to disk), links it from a
private temporary folder (mode 0700) under its own file name, and hands the import system a spec for
it. Start-up and every command that reads no linked data never pay for it (about 1 s).
"""

import atexit
import importlib.abc
import importlib.machinery
import importlib.util
import lzma
import os
import shutil
import sys
import tempfile
from pathlib import Path

_ROOT = Path(getattr(sys, "_MEIPASS", "/nonexistent"))
_FOUND = sorted(_ROOT.glob("_duckdb*.xz")) if _ROOT.is_dir() else []


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def unpacked(packed: Path) -> str:
    """The path of the decompressed module (a link to a memfd where Linux has one, else a private file)."""
    name = packed.name[:-3]
    folder = tempfile.mkdtemp(prefix="dpdesk-duckdb-")  # mode 0700: only this user
    atexit.register(shutil.rmtree, folder, True)
    target = os.path.join(folder, name)
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create(name, getattr(os, "MFD_CLOEXEC", 0))  # kept open: the module lives on it
        with lzma.open(packed, "rb") as src:
            while chunk := src.read(1 << 22):
                _write_all(fd, chunk)
        os.symlink(f"/proc/{os.getpid()}/fd/{fd}", target)
    else:
        with lzma.open(packed, "rb") as src, open(target, "wb") as out:
            shutil.copyfileobj(src, out, 1 << 22)
    return target


class _UnpackOnImport(importlib.abc.MetaPathFinder):
    """Finds ``_duckdb`` once, in its unpacked copy, then steps aside."""

    def find_spec(self, name, path=None, target=None):
        if name != "_duckdb":
            return None
        sys.meta_path.remove(self)
        location = unpacked(_FOUND[0])
        return importlib.util.spec_from_file_location(
            name, location, loader=importlib.machinery.ExtensionFileLoader(name, location))


if _FOUND:
    sys.meta_path.insert(0, _UnpackOnImport())
