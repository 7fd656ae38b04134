"""Static checks of the release path: everything installs through the lock, the workflow builds on app
changes, the Windows/macOS scripts carry their fixes, the .deb owns no shared folder."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = (ROOT / ".github" / "workflows" / "installers.yml").read_text(encoding="utf-8")


def test_every_install_goes_through_the_lock():
    installs = [line for line in WORKFLOW.splitlines() if "pip install" in line]
    assert installs and all("-c constraints.txt" in line for line in installs), installs
    venv = (ROOT / "tools" / "venv.sh").read_text(encoding="utf-8")
    assert 'LOCK_ARGS="-c $LOCK"' in venv and "$LOCK_ARGS -e '.[test,spark]'" in venv
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "pip install --quiet -c $(LOCK) pyinstaller" in makefile
    assert "-c constraints.txt pyinstaller" in (ROOT / "packaging" / "build.sh").read_text(encoding="utf-8")


def test_the_lock_pins_pyinstaller_and_every_runtime_dependency():
    lock = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)$", lock, re.M))
    names = {n.lower().replace("_", "-") for n in pins}
    for name in ("pyinstaller", "pyside6-essentials", "numpy", "scipy", "pandas", "matplotlib", "opendp",
                 "dp-accounting", "openpyxl", "xlsxwriter", "pyreadstat", "ff3", "libffx", "cryptography",
                 "pytest", "pytest-qt"):
        assert name in names, f"constraints.txt does not pin {name}"
    assert not any(n.lower() == "dpdesk" for n in pins)


def test_workflow_builds_when_app_code_changes():
    for trigger in ("push:", "pull_request:"):
        assert trigger in WORKFLOW
    assert WORKFLOW.count('"dpdesk/**"') == 2 and WORKFLOW.count('"constraints.txt"') == 2


def test_windows_finds_iscc_at_run_time_and_freezes_in_utf8_mode():
    assert "Inno Setup 6\\ISCC.exe" not in WORKFLOW and "find_iscc.ps1" in WORKFLOW
    spec = (ROOT / "packaging" / "dpdesk.spec").read_text(encoding="utf-8")
    assert '("X utf8_mode=1", None, "OPTION")' in spec and 'sys.platform == "win32"' in spec
    assert 'target_arch="arm64"' in spec


def test_macos_retries_hdiutil():
    script = (ROOT / "packaging" / "macos" / "make_dmg.sh").read_text(encoding="utf-8")
    assert "until hdiutil create" in script and "Open Anyway" in script


@pytest.mark.parametrize("script", ["linux/make_portable.sh", "linux/install-desktop-entry.sh",
                                    "linux/test_portable.sh", "build.sh", "linux/make_deb.sh"])
def test_scripts_parse(script):
    result = subprocess.run(["sh", "-n", str(ROOT / "packaging" / script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_deb_installs_under_usr_lib_not_opt():
    script = (ROOT / "packaging" / "linux" / "make_deb.sh").read_text(encoding="utf-8")
    assert '"$TREE/opt' not in script and 'cp -a "$BUNDLE" "$TREE/usr/lib/dpdesk"' in script
    assert "debian_copyright.py" in script
