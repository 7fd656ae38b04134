"""The command line works in any terminal encoding: cp1252 (Windows consoles and runners' pipes), ASCII."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dpdesk.cli.console import make_streams_safe

ROOT = Path(__file__).resolve().parents[2]


def dpdesk(*args, encoding, user=None):
    env = dict(os.environ, PYTHONIOENCODING=encoding, QT_QPA_PLATFORM="offscreen")
    if user is not None:  # copies of one project released from on one computer are rollbacks: one each
        env["DPDESK_SETTINGS_DIR"] = str(user)
    return subprocess.run([sys.executable, "-m", "dpdesk", *args], cwd=ROOT, env=env,
                          capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    folder = tmp_path_factory.mktemp("encoding")
    result = dpdesk("demo", str(folder), encoding="utf-8")
    assert result.returncode == 0, result.stderr.decode()
    return folder / "example.dpdesk"


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_budget_and_release_in_a_non_utf8_terminal(project, encoding, tmp_path):
    copy = tmp_path / "p.dpdesk"
    copy.write_bytes(project.read_bytes())
    for args in (("budget", str(copy), "--set", "1"), ("release", str(copy), "--stat", "count", "--epsilon", "0.1"),
                 ("budget", str(copy)), ("budget", str(copy), "--set", "-1")):
        result = dpdesk(*args, encoding=encoding, user=tmp_path / "user")
        out, err = result.stdout.decode(encoding), result.stderr.decode(encoding)
        assert "UnicodeEncodeError" not in err and "Traceback" not in err, err
        assert result.returncode == (1 if "-1" in args else 0), out + err
        assert "\u03b5" not in out and ("epsilon" in out + err)


def test_utf8_terminal_keeps_the_greek_letters(project, tmp_path):
    copy = tmp_path / "p.dpdesk"
    copy.write_bytes(project.read_bytes())
    result = dpdesk("budget", str(copy), "--set", "1", encoding="utf-8")
    assert result.returncode == 0 and "\u03b5" in result.stdout.decode("utf-8")


@pytest.mark.parametrize("encoding, expected", [
    ("cp1252", "\u00b1 3, epsilon = 0.1, delta 1e-6, infinity\u2026"),  # cp1252 has ± and …, not ε δ ∞
    ("ascii", "+/- 3, epsilon = 0.1, delta 1e-6, infinity..."),
])
def test_unencodable_characters_are_written_in_words(encoding, expected):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding)
    make_streams_safe([stream])
    stream.write("\u00b1 3, \u03b5 = 0.1, \u03b4 1e-6, \u221e\u2026")
    stream.flush()
    assert raw.getvalue().decode(encoding) == expected
