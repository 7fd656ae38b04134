"""Where there is no memfd (Windows), the bundle's OpenDP hook unpacks the library once into the user's
cache, atomically, and later sessions reuse it (packaging/rthooks/opendp_unpack.py)."""

import lzma
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOOK = ROOT / "packaging" / "rthooks" / "opendp_unpack.py"

CHILD = r"""
import os, runpy, sys
if hasattr(os, "memfd_create"):
    del os.memfd_create                             # as on Windows
sys._MEIPASS = sys.argv[1]
runpy.run_path(sys.argv[2])
finder = sys.meta_path[0]
finder.find_spec("opendp")
print(os.environ["OPENDP_LIB_DIR"])
"""


def session(bundle, cache):
    env = {k: v for k, v in os.environ.items() if k != "OPENDP_LIB_DIR"}
    env["LOCALAPPDATA"] = str(cache)
    result = subprocess.run([sys.executable, "-c", CHILD, str(bundle), str(HOOK)], capture_output=True, text=True,
                            env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    return Path(result.stdout.strip())


def test_unpacked_once_into_the_user_cache_and_reused(tmp_path):
    payload = os.urandom(5000)
    lib = tmp_path / "bundle" / "opendp" / "lib"
    lib.mkdir(parents=True)
    (lib / "opendp.pyd.xz").write_bytes(lzma.compress(payload))
    first = session(tmp_path / "bundle", tmp_path / "cache")
    assert first.parent == tmp_path / "cache" / "dpdesk" / "opendp"
    assert (first / "opendp.pyd").read_bytes() == payload
    assert [p.name for p in first.parent.iterdir()] == [first.name]  # no half-written leftovers
    stamp = (first / "opendp.pyd").stat().st_mtime_ns
    assert session(tmp_path / "bundle", tmp_path / "cache") == first
    assert (first / "opendp.pyd").stat().st_mtime_ns == stamp  # reused, not written again
    assert not (lib / "opendp.pyd").exists()
