"""The sdist and the wheel are real: a wheel rebuilt from the sdist carries the run-time resources,
installs into a fresh venv (through constraints.txt) and passes ``dpdesk --selftest`` there, away
from the source tree. 3-5 minutes here even with a warm pip cache (pip asks the package index about
every dependency), so it is left out of ``make test`` (marker ``wheel``, deselected in pyproject's
addopts) and runs in ``make test-wheel`` and ``make test-package``."""

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.wheel, pytest.mark.skipif(sys.platform == "win32", reason="venv layout of Linux/macOS")]

#: What a rebuild from the sdist needs, beyond the Python modules.
SDIST_MUST_HAVE = ["pyproject.toml", "README.md", "LICENSE", "constraints.txt", "Makefile", "MANIFEST.in",
                   "dpdesk/resources/examples/students.csv", "dpdesk/resources/examples/items.json",
                   "dpdesk/resources/icons/dpdesk.svg", "dpdesk/resources/licence_texts/LGPL-3.0-only.txt",
                   "tools/make_example.py", "tools/venv.sh", "packaging/dpdesk.spec", "packaging/build.sh",
                   "tests/conftest.py"]
WHEEL_MUST_HAVE = ["dpdesk/resources/examples/students.csv", "dpdesk/resources/examples/items.json",
                   "dpdesk/resources/icons/dpdesk.svg", "dpdesk/resources/licence_texts/GPL-3.0-only.txt",
                   "dpdesk/resources/licence_texts/Apache-2.0.txt", "dpdesk/licences.py"]


def run(*args, cwd, env=None, timeout=600):
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{args}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result.stdout


def test_wheel_from_the_sdist_installs_and_passes_its_selftest(tmp_path):
    base = getattr(sys, "_base_executable", sys.executable)
    venv, dist = tmp_path / "venv", tmp_path / "dist"
    run(base, "-m", "venv", venv, cwd=tmp_path)
    py = venv / "bin" / "python"
    lock = ["-c", ROOT / "constraints.txt"] if (ROOT / "constraints.txt").is_file() else []
    run(py, "-m", "pip", "install", "--quiet", *lock, "setuptools>=77", "wheel", cwd=tmp_path)
    sdist = run(py, "-c", f"import setuptools.build_meta as b; print(b.build_sdist({str(dist)!r}))", cwd=ROOT)
    sdist = dist / sdist.strip().splitlines()[-1]
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    missing = [n for n in SDIST_MUST_HAVE if n not in names]
    assert not missing, f"the sdist lacks {missing}"
    assert not [n for n in names if n.startswith(("docs/screenshots", ".venv", "build/", "dist/"))]

    run(py, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", dist, sdist, cwd=tmp_path)
    wheel = next(dist.glob("dpdesk-*.whl"))
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
    missing = [n for n in WHEEL_MUST_HAVE if n not in names]
    assert not missing, f"the wheel lacks {missing}"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)

    run(py, "-m", "pip", "install", "--quiet", *lock, wheel, cwd=tmp_path)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", MPLBACKEND="Agg", DPDESK_SETTINGS_DIR=str(tmp_path / "settings"))
    env.pop("PYTHONPATH", None)
    where = run(py, "-c", "import dpdesk.resources as r; print(r.path('examples', 'students.csv'))", cwd=tmp_path, env=env)
    assert Path(where.strip()).is_file() and str(venv) in where, where
    out = run(venv / "bin" / "dpdesk", "--selftest", cwd=tmp_path, env=env, timeout=300)
    assert "self-test passed" in out
    libs = run(py, "-c", "from dpdesk import licences; print({l.name: bool(l.texts) for l in licences.installed()})",
               cwd=tmp_path, env=env)
    assert "'dpdesk': True" in libs and "'PySide6_Essentials': True" in libs and "False" not in libs, libs
