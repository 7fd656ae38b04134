"""Third-party licences: what dpdesk.licences finds, what packaging/collect_licences.py writes for a
bundle, and the Debian-format copyright file made from it."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dpdesk import licences

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    out = tmp_path_factory.mktemp("licences") / "licences"
    subprocess.run([sys.executable, str(ROOT / "packaging" / "collect_licences.py"), str(out)], check=True,
                   capture_output=True, text=True)
    return out


def by_name(libs):
    return {re.sub(r"[-_.]+", "-", lib.name).lower(): lib for lib in libs}


def test_installed_libraries_carry_their_licence_texts():
    libs = by_name(licences.installed())
    assert list(libs)[:2] == ["dpdesk", "python"]
    for name in ("pyside6-essentials", "shiboken6", "numpy", "scipy", "pandas", "matplotlib", "opendp",
                 "dp-accounting", "openpyxl", "xlsxwriter", "pyreadstat"):
        assert name in libs and libs[name].texts, f"{name}: no licence text"
    qt = "\n".join(text for _, text in libs["pyside6-essentials"].texts)
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in qt and "GNU GENERAL PUBLIC LICENSE" in qt
    assert "Redistribution and use in source and binary forms" in "\n".join(t for _, t in libs["scipy"].texts)
    assert "pytest" not in libs and "hypothesis" not in libs  # test tools are not shipped


def test_versions_are_cheap_and_match_the_metadata():
    from importlib.metadata import version

    found = licences.versions()
    assert list(found)[:2] == ["dpdesk", "Python"]
    assert found["opendp"] == version("opendp") and found["numpy"] == version("numpy")


def test_bundle_index_is_read_back_as_the_same_records(collected, monkeypatch):
    import dpdesk.resources

    index = json.loads((collected / "index.json").read_text(encoding="utf-8"))
    assert {e["name"] for e in index["libraries"]} >= {"dpdesk", "Python", "PySide6_Essentials", "scipy"}
    real = dpdesk.resources.path
    monkeypatch.setattr(dpdesk.resources, "path",
                        lambda *parts: collected.joinpath(*parts[1:]) if parts[0] == "licences" else real(*parts))
    bundled = by_name(licences.bundled())
    installed = by_name(licences.installed())
    assert bundled.keys() == installed.keys()
    assert bundled["scipy"].texts == installed["scipy"].texts
    assert licences.libraries() == licences.bundled()
    assert licences.versions()["scipy"] == installed["scipy"].version


def test_debian_copyright_is_machine_readable(collected, tmp_path):
    out = tmp_path / "copyright"
    subprocess.run([sys.executable, str(ROOT / "packaging" / "linux" / "debian_copyright.py"), str(collected), str(out)],
                   check=True, capture_output=True, text=True)
    text = out.read_text(encoding="utf-8")
    paragraphs = text.strip("\n").split("\n\n")
    assert paragraphs[0].startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
    for paragraph in paragraphs:
        lines = paragraph.splitlines()
        assert all(re.match(r"^[A-Za-z-]+: ?", line) or line.startswith(" ") for line in lines), lines[:3]
        fields = {line.split(":", 1)[0] for line in lines if not line.startswith(" ")}
        if "Files" in fields:
            assert {"Copyright", "License"} <= fields
        short = next((line for line in lines if line.startswith("License:")), "License: x")
        assert short.strip() != "License:"
    assert paragraphs[1].startswith("Files: *\nCopyright: Copyright (c) 2026 dpdesk developers\nLicense: MIT")
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in text and "usr/lib/dpdesk/_internal/PySide6/*" in text
    assert paragraphs[-1].startswith("License: MIT\n")
