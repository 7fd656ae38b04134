"""make setup (tools/venv.sh) recovers from a broken .venv and names the fix for missing prerequisites."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "venv.sh"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="make and sh are the Linux/macOS path")


def run(venv, python=sys.executable, check_only=True):
    env = dict(os.environ, DPDESK_VENV_CHECK_ONLY="1" if check_only else "")
    return subprocess.run(["sh", str(SCRIPT), str(venv), python, "constraints.txt"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def base_python():
    """A real interpreter (not a venv's) that has venv and ensurepip, as make would use."""
    return getattr(sys, "_base_executable", sys.executable)


def test_venv_made_by_a_python_that_is_gone_is_rebuilt(tmp_path):
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(tmp_path / "no-such-python3.9")
    (venv / "pyvenv.cfg").write_text("home = /opt/python3.9/bin\n")
    result = run(venv, base_python())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "is broken: its Python does not run" in result.stdout and "/opt/python3.9/bin" in result.stdout
    assert "creating" in result.stdout
    assert subprocess.run([venv / "bin" / "python", "-m", "pip", "--version"], capture_output=True).returncode == 0


def test_venv_without_pip_gets_pip_back(tmp_path):
    venv = tmp_path / ".venv"
    subprocess.run([base_python(), "-m", "venv", "--without-pip", str(venv)], check=True)
    assert subprocess.run([venv / "bin" / "python", "-m", "pip", "--version"], capture_output=True).returncode != 0
    result = run(venv, base_python())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no pip" in result.stdout
    assert subprocess.run([venv / "bin" / "python", "-m", "pip", "--version"], capture_output=True).returncode == 0
    assert "No module named pip" not in result.stdout + result.stderr


def test_half_installed_venv_is_reinstalled(tmp_path):
    venv = tmp_path / ".venv"
    subprocess.run([base_python(), "-m", "venv", str(venv)], check=True)
    (venv / ".installed").touch()  # the stamp says done, but dpdesk's dependencies are not there
    result = run(venv, base_python())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "half-installed" in result.stdout and not (venv / ".installed").exists()


def test_venv_of_another_python_version_is_rebuilt(tmp_path):
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    fake = venv / "bin" / "python"
    fake.write_text("#!/bin/sh\necho 3.9\n")
    fake.chmod(0o755)
    result = run(venv, base_python())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "made by Python 3.9" in result.stdout and "creating" in result.stdout


def test_too_old_or_missing_python_names_the_apt_line(tmp_path):
    old = tmp_path / "python3.9"
    old.write_text("#!/bin/sh\nexit 1\n")
    old.chmod(0o755)
    result = run(tmp_path / ".venv", str(old))
    assert result.returncode == 1
    assert "needs 3.11 or newer" in result.stderr and "sudo apt-get install python3 python3-venv" in result.stderr
    result = run(tmp_path / ".venv", str(tmp_path / "no-python"))
    assert result.returncode == 1 and "sudo apt-get install python3 python3-venv" in result.stderr
    assert not (tmp_path / ".venv").exists()
