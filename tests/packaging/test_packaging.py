"""Static checks of the installers (packaging/): fast, no build. `make test-package` builds and installs."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.helpers.paths import ROOT

PKG = ROOT / "packaging"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"


def _bundle_filter():
    spec = importlib.util.spec_from_file_location("bundle_filter", PKG / "bundle_filter.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _desktop_entry() -> dict[str, str]:
    lines = (PKG / "linux" / "dpdesk.desktop").read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))


def test_desktop_file_validates():
    if shutil.which("desktop-file-validate") is None:
        pytest.skip("desktop-file-validate is not installed (apt-get install desktop-file-utils)")
    result = subprocess.run(["desktop-file-validate", str(PKG / "linux" / "dpdesk.desktop")],
                            capture_output=True, text=True)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


def test_desktop_entry_opens_projects_of_the_mime_type():
    entry = _desktop_entry()
    assert entry["Exec"].split() == ["dpdesk", "%f"]
    assert entry["Icon"] == "dpdesk" and entry["Terminal"] == "false"
    root = ET.parse(PKG / "linux" / "dpdesk-mime.xml").getroot()
    types = root.findall(f"{MIME_NS}mime-type")
    assert [t.get("type") for t in types] == ["application/x-dpdesk-project"]
    assert entry["MimeType"].rstrip(";").split(";") == ["application/x-dpdesk-project"]
    assert [g.get("pattern") for g in types[0].findall(f"{MIME_NS}glob")] == ["*.dpdesk"]
    assert types[0].find(f"{MIME_NS}sub-class-of").get("type") == "application/vnd.sqlite3"


def test_excludes_keep_modules_matplotlib_and_scipy_import_when_frozen():
    bf = _bundle_filter()
    for name in ("unittest", "pydoc", "doctest", *bf.MUST_KEEP):
        hits = [e for e in bf.EXCLUDES if e == name or e.startswith(name + ".") or name.startswith(e + ".")]
        assert not hits, f"{name} must stay in the bundle (PITFALLS.md), excluded by {hits}"
    for name in ("numpy", "scipy", "pandas", "matplotlib", "PySide6", "PySide6.QtWidgets", "PySide6.QtGui",
                 "PySide6.QtSvg", "opendp", "dp_accounting", "openpyxl", "xlsxwriter", "pyreadstat", "dpdesk"):
        assert name not in bf.EXCLUDES


@pytest.mark.parametrize("dest, kept", [
    ("PySide6/Qt/plugins/platforms/libqxcb.so", True),
    ("PySide6/Qt/plugins/platforms/libqoffscreen.so", True),
    ("PySide6\\plugins\\platforms\\qwindows.dll", True),
    ("PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so", True),
    ("PySide6/Qt/plugins/imageformats/libqsvg.so", True),
    ("PySide6/Qt/lib/libQt6Core.so.6", True),
    ("PySide6/Qt/lib/libQt6Widgets.so.6", True),
    ("PySide6/Qt/lib/libQt6DBus.so.6", True),
    ("PySide6/Qt/lib/libicudata.so.73", True),
    ("dpdesk/resources/examples/students.csv", True),
    ("dpdesk/resources/licences/PySide6_Essentials/LICENSE.LGPL-3.0-only", True),
    ("PySide6/Qt/translations/qtbase_de.qm", False),
    ("PySide6/Qt/lib/libQt6Quick.so.6", False),
    ("PySide6/Qt/lib/libQt6Pdf.so.6", False),
    ("PySide6/Qt/plugins/imageformats/libqpdf.so", False),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", False),
    ("PySide6/Qt/plugins/sqldrivers/libqsqlite.so", False),
])
def test_bundle_filter(dest, kept):
    assert _bundle_filter().keep(dest) is kept


def test_spec_carries_the_matplotlib_backend_of_every_plot_format():
    """matplotlib imports a format's backend by name when saving, which PyInstaller cannot see."""
    from matplotlib.backend_bases import _default_backends

    from dpdesk.gui.widgets.plots import PLOT_SUFFIXES

    carried = {f"matplotlib.backends.backend_{name}" for name in _bundle_filter().MPL_BACKENDS}
    for suffix in {*PLOT_SUFFIXES, ".svg"}:  # .svg: the figures of the HTML report
        backend = _default_backends[suffix[1:]]  # a module name, or its canvas class once matplotlib used it
        assert getattr(backend, "__module__", backend) in carried, suffix
    assert "MPL_BACKENDS" in (PKG / "dpdesk.spec").read_text(encoding="utf-8")


def test_spec_carries_the_example_data_and_the_entry_point():
    spec = (PKG / "dpdesk.spec").read_text(encoding="utf-8")
    assert 'collect_data_files("dpdesk")' in spec  # dpdesk/resources, read with importlib.resources
    assert (ROOT / "dpdesk" / "resources" / "examples" / "students.csv").is_file()
    assert "excludes=EXCLUDES" in spec and "keep(" in spec
    assert "from dpdesk.__main__ import main" in (PKG / "entry.py").read_text(encoding="utf-8")


def test_deb_control_depends_on_the_qt_system_libraries():
    control = (PKG / "linux" / "control.in").read_text(encoding="utf-8")
    depends = re.search(r"^Depends:(.*)$", control, re.M).group(1)
    names = {re.split(r"[\s(]", d.strip())[0] for d in depends.split(",")}
    assert {"libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0", "fonts-dejavu-core", "libc6"} <= names


def test_shell_scripts_parse():
    for script in ("build.sh", "linux/make_deb.sh", "linux/test_package.sh", "macos/make_dmg.sh"):
        result = subprocess.run(["sh", "-n", str(PKG / script)], capture_output=True, text=True)
        assert result.returncode == 0, f"{script}: {result.stderr}"


def test_windows_installer_associates_projects():
    iss = (PKG / "windows" / "dpdesk.iss").read_text(encoding="utf-8")
    assert "ChangesAssociations=yes" in iss
    assert 'Subkey: "Software\\Classes\\.dpdesk"' in iss
    assert '"""{app}\\dpdesk.exe"" ""%1"""' in iss


def test_workflow_builds_and_self_tests_on_three_systems():
    text = (ROOT / ".github" / "workflows" / "installers.yml").read_text(encoding="utf-8")
    assert "\t" not in text
    for runner in ("ubuntu-", "windows-", "macos-"):
        assert f"runs-on: {runner}" in text
    assert text.count("--selftest") >= 3 and "make test-package" in text


def test_project_argument_opens_the_app_not_the_command_line(tmp_path, monkeypatch):
    from dpdesk.__main__ import _is_project_argument

    monkeypatch.chdir(tmp_path)
    (tmp_path / "survey.csv").write_text("a\n1\n")
    (tmp_path / "estimate").write_text("")  # a file that shares a command's name stays a command
    assert _is_project_argument("my survey.dpdesk") and _is_project_argument("/x/y/Survey.DPDESK")
    assert _is_project_argument(str(tmp_path / "survey.csv"))
    assert not _is_project_argument("estimate") and not _is_project_argument("--selftest")
    assert not _is_project_argument("no-such-file.csv")


def test_double_click_opens_the_project_in_the_window(tmp_path):
    from dpdesk.project.file.store import Project

    path = tmp_path / "double click.dpdesk"
    Project.create(path).close()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", DPDESK_QUIT_AFTER_SHOW="1",
               DPDESK_SETTINGS_DIR=str(tmp_path / "settings"))
    result = subprocess.run([sys.executable, "-m", "dpdesk", str(path)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"window shown: True; project: {path}" in result.stdout


def _strip_elf():
    spec = importlib.util.spec_from_file_location("strip_elf", PKG / "strip_elf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _elf64(offset: int, vaddr: int, align: int = 0x1000) -> bytes:
    """A minimal 64-bit little-endian ELF header with one PT_LOAD program header."""
    import struct

    header = bytearray(64)
    header[:6] = b"\x7fELF\x02\x01"
    struct.pack_into("<Q", header, 32, 64)         # e_phoff
    struct.pack_into("<HH", header, 54, 56, 1)     # e_phentsize, e_phnum
    return bytes(header) + struct.pack("<IIQQQQQQ", 1, 5, offset, vaddr, vaddr, 16, 16, align)


def test_strip_check_rejects_misaligned_segments(tmp_path):
    se = _strip_elf()
    good, bad = tmp_path / "good.so", tmp_path / "bad.so"
    good.write_bytes(_elf64(0x2000, 0x402000))
    bad.write_bytes(_elf64(0x23939e8, 0x2394000))  # what strip made of a patchelf-ed OpenBLAS
    assert se.is_elf64(good) and se.segments_aligned(good)
    assert not se.segments_aligned(bad)
    real = Path(sys.executable).resolve()
    if se.is_elf64(real):
        assert se.segments_aligned(real)


def test_example_data_is_a_package_resource():
    from dpdesk.project import example

    folder = example.example_folder()
    assert folder == ROOT / "dpdesk" / "resources" / "examples"
    assert (folder / "students.csv").is_file() and (folder / "items.json").is_file()
