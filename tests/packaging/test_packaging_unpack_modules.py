"""The frozen bundle's DuckDB unpacking hook (packaging/rthooks/unpack_modules.py), in a subprocess: the
real extension module, xz-compressed as dpdesk.spec packs it, imported from memory and queried."""

import lzma
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

HOOK = ROOT / "packaging" / "rthooks" / "unpack_modules.py"

CHILD = r"""
import os, runpy, sys
sys._MEIPASS = sys.argv[1]
runpy.run_path(sys.argv[2])
finder = sys.meta_path[0]
assert "_duckdb" not in sys.modules                  # nothing happens before duckdb is imported
import duckdb
assert finder in sys.meta_path                      # cryptography's module is still to come
import _duckdb
folder = os.path.dirname(_duckdb.__file__)
assert folder != os.path.dirname(os.path.dirname(duckdb.__file__)), _duckdb.__file__  # not the installed copy
assert oct(os.stat(folder).st_mode & 0o777) == "0o700"
assert os.readlink(_duckdb.__file__).startswith("/proc/")  # a memfd: nothing written to disk
print(duckdb.connect().execute("SELECT sum(i) FROM range(1000) t(i)").fetchone()[0])
from cryptography.hazmat.bindings import _rust        # a submodule, packed in its package's folder
assert os.readlink(_rust.__file__).startswith("/proc/"), _rust.__file__
assert finder not in sys.meta_path                  # the hook steps aside once both were used
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
enc = Cipher(algorithms.AES(bytes(16)), modes.ECB()).encryptor()
print((enc.update(bytes(16)) + enc.finalize()).hex())
"""


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="the hook is for Linux builds")
def test_the_packed_modules_are_imported_from_memory(tmp_path):
    import importlib.util

    packed = []
    for name, folder in (("_duckdb", tmp_path), ("cryptography.hazmat.bindings._rust",
                                                  tmp_path / "cryptography" / "hazmat" / "bindings")):
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            pytest.skip(f"{name} is not installed")
        origin = Path(spec.origin)
        folder.mkdir(parents=True, exist_ok=True)
        with open(origin, "rb") as src, lzma.open(folder / (origin.name + ".xz"), "wb", preset=0) as out:
            while chunk := src.read(1 << 22):
                out.write(chunk)
        packed.append(folder / origin.name)
    result = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path), str(HOOK)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["499500", "66e94bd4ef8a2c3b884cfa59ca342b2e"]  # AES-128, zero key and block
    assert not any(p.exists() for p in packed)  # never written next to the packed files
