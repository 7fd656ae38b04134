"""xz-compress a large native library that is only loaded on demand (used by ``dpdesk.spec``).

OpenDP's library (168 MB after stripping) is loaded with ctypes only when the first noise is
drawn. The bundle carries it xz-compressed (about 25 MB) and ``rthooks/opendp_unpack.py``
unpacks it into memory (a memfd, never onto disk) just before ``opendp`` is first imported.
UPX would do the same, but Debian 12 has no ``upx-ucl`` package; Python's ``lzma`` needs
nothing outside the standard library at build or run time.
"""

from __future__ import annotations

import lzma
from pathlib import Path

#: x86-64 branch/call filter first (about 10% smaller machine code), then LZMA2 at preset 6.
FILTERS_X86 = [{"id": lzma.FILTER_X86}, {"id": lzma.FILTER_LZMA2, "preset": 6}]
FILTERS = [{"id": lzma.FILTER_LZMA2, "preset": 6}]


def pack(src: Path, target: Path, x86: bool = True) -> Path:
    """Write ``src`` xz-compressed to ``target`` (reused while newer than ``src``) and return it."""
    src, target = Path(src), Path(target)
    if not target.exists() or target.stat().st_mtime < src.stat().st_mtime:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".part")
        with open(src, "rb") as fin, lzma.open(partial, "wb", format=lzma.FORMAT_XZ,
                                               filters=FILTERS_X86 if x86 else FILTERS) as fout:
            while chunk := fin.read(1 << 22):
                fout.write(chunk)
        partial.replace(target)
    return target
