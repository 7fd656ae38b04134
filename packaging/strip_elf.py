"""Strip symbols from the bundle's Linux binaries without breaking any (used by ``dpdesk.spec``).

PyInstaller's own ``strip=True`` strips every file, and ``strip`` mis-lays-out libraries that
``patchelf`` has edited (auditwheel does that to numpy's and scipy's OpenBLAS): the frozen app
then fails with "ELF load command address/offset not page-aligned". Here each binary is
stripped into a copy, and the copy is used only if every loadable segment is still aligned
(offset = address modulo alignment); files in ``*.libs`` folders (auditwheel's) are left as they are.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

PT_LOAD = 1


def is_elf64(path: Path) -> bool:
    with open(path, "rb") as f:
        head = f.read(6)
    return head[:4] == b"\x7fELF" and head[4] == 2 and head[5] == 1  # 64-bit, little-endian


def segments_aligned(path: Path) -> bool:
    """Whether every PT_LOAD segment of a 64-bit little-endian ELF file satisfies offset = vaddr (mod align)."""
    data = Path(path).read_bytes()
    phoff, = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    for i in range(phnum):
        p_type, _flags, offset, vaddr, _paddr, _filesz, _memsz, align = struct.unpack_from(
            "<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == PT_LOAD and align > 1 and (offset - vaddr) % min(align, 4096) != 0:
            return False
    return True


def strip_binaries(toc: list, workdir: Path) -> tuple[list, int]:
    """Return ``toc`` with safely strippable binaries replaced by stripped copies, and the bytes saved."""
    if shutil.which("strip") is None:
        return toc, 0
    result, saved = [], 0
    for dest, src, kind in toc:
        top = dest.replace("\\", "/").split("/")[0]
        if kind in ("BINARY", "EXTENSION") and not top.endswith(".libs") and Path(src).is_file() and is_elf64(Path(src)):
            target = workdir / dest
            if not target.exists() or target.stat().st_mtime < Path(src).stat().st_mtime:
                target.parent.mkdir(parents=True, exist_ok=True)
                done = subprocess.run(["strip", "--strip-unneeded", "-o", str(target), src], capture_output=True)
                if done.returncode != 0 or not segments_aligned(target):
                    target.unlink(missing_ok=True)
            if target.exists():
                saved += Path(src).stat().st_size - target.stat().st_size
                src = str(target)
        result.append((dest, src, kind))
    return result, saved
