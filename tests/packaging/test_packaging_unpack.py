"""The frozen bundle's OpenDP unpacking hook (packaging/rthooks/opendp_unpack.py), in a subprocess."""

import lzma
import os
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT

HOOK = ROOT / "packaging" / "rthooks" / "opendp_unpack.py"

CHILD = r"""
import os, runpy, sys
sys._MEIPASS = sys.argv[1]
hook = runpy.run_path(sys.argv[2])
assert "OPENDP_LIB_DIR" not in os.environ          # nothing happens before opendp is imported
finder = sys.meta_path[0]
finder.find_spec("opendp")                          # what the import system does on `import opendp`
assert finder not in sys.meta_path                  # the hook steps aside after the first use
folder = os.environ["OPENDP_LIB_DIR"]
assert oct(os.stat(folder).st_mode & 0o777) == "0o700"
with open(os.path.join(folder, "opendp.abi3.so"), "rb") as f:
    sys.stdout.write(f.read().hex())
"""


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="the hook is for Linux builds")
def test_the_packed_library_is_unpacked_in_memory_on_first_import(tmp_path):
    payload = os.urandom(1000) + b"\x7fELF" * 1000
    lib = tmp_path / "opendp" / "lib"
    lib.mkdir(parents=True)
    (lib / "opendp.abi3.so.xz").write_bytes(lzma.compress(payload))
    env = {k: v for k, v in os.environ.items() if k != "OPENDP_LIB_DIR"}
    result = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path), str(HOOK)], capture_output=True,
                            text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert bytes.fromhex(result.stdout) == payload
    assert not (lib / "opendp.abi3.so").exists()  # never written next to the packed file
