"""The frozen bundle's DuckDB unpacking hook (packaging/rthooks/duckdb_unpack.py), in a subprocess: the
real extension module, xz-compressed as dpdesk.spec packs it, imported from memory and queried."""

import lzma
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

HOOK = ROOT / "packaging" / "rthooks" / "duckdb_unpack.py"

CHILD = r"""
import os, runpy, sys
sys._MEIPASS = sys.argv[1]
runpy.run_path(sys.argv[2])
finder = sys.meta_path[0]
assert "_duckdb" not in sys.modules                  # nothing happens before duckdb is imported
import duckdb
assert finder not in sys.meta_path                  # the hook steps aside after the first use
import _duckdb
folder = os.path.dirname(_duckdb.__file__)
assert folder != os.path.dirname(os.path.dirname(duckdb.__file__)), _duckdb.__file__  # not the installed copy
assert oct(os.stat(folder).st_mode & 0o777) == "0o700"
assert os.readlink(_duckdb.__file__).startswith("/proc/")  # a memfd: nothing written to disk
print(duckdb.connect().execute("SELECT sum(i) FROM range(1000) t(i)").fetchone()[0])
"""


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="the hook is for Linux builds")
def test_the_packed_module_is_imported_from_memory(tmp_path):
    import importlib.util

    spec = importlib.util.find_spec("_duckdb")
    if spec is None or not spec.origin:
        pytest.skip("DuckDB is not installed")
    origin = Path(spec.origin)
    with open(origin, "rb") as src, lzma.open(tmp_path / (origin.name + ".xz"), "wb", preset=0) as out:
        while chunk := src.read(1 << 22):
            out.write(chunk)
    result = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path), str(HOOK)], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "499500"
    assert not (tmp_path / origin.name).exists()  # never written next to the packed file
