"""PyInstaller runtime hook: unpack xz-compressed extension modules on their first import.

Two large extension modules are imported only by a few commands: DuckDB's (``_duckdb``, 65 MB, read
when a linked dataset is) and cryptography's Rust bindings (``cryptography.hazmat.bindings._rust``,
12 MB, for FF1 pseudonyms when sharing). The Linux bundle carries them xz-compressed
(``packaging/pack_lib.py``; ``dpdesk.spec``: :data:`MODULES`), which keeps the installed size and the
.deb near their targets. When one is first imported, this hook decompresses it into an anonymous
in-memory file (``memfd_create``; nothing is written to disk), links it from a private temporary
folder (mode 0700) under its own file name, and hands the import system a spec for it. Start-up and
every command that does not use them never pay for it (about 1 s for DuckDB).
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

#: The packed modules: import name -> the folder (in the bundle) and the start of the file's name.
MODULES = {"_duckdb": ("", "_duckdb"),
           "cryptography.hazmat.bindings._rust": ("cryptography/hazmat/bindings", "_rust")}

_ROOT = Path(getattr(sys, "_MEIPASS", "/nonexistent"))


def _packed(folder: str, stem: str):
    found = sorted((_ROOT / folder).glob(stem + ".*.xz")) if (_ROOT / folder).is_dir() else []
    return found[0] if found else None


_FOUND = {name: p for name, (folder, stem) in MODULES.items() if (p := _packed(folder, stem)) is not None}


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def unpacked(packed: Path) -> str:
    """The path of the decompressed module (a link to a memfd where Linux has one, else a private file)."""
    name = packed.name[:-3]
    folder = tempfile.mkdtemp(prefix="dpdesk-module-")  # mode 0700: only this user
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
    """Finds each packed module once, in its unpacked copy; steps aside when none is left."""

    def find_spec(self, name, path=None, target=None):
        packed = _FOUND.pop(name, None)
        if packed is None:
            return None
        if not _FOUND:
            sys.meta_path.remove(self)
        location = unpacked(packed)
        return importlib.util.spec_from_file_location(
            name, location, loader=importlib.machinery.ExtensionFileLoader(name, location))


if _FOUND:
    sys.meta_path.insert(0, _UnpackOnImport())
