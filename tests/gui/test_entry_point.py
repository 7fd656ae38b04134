"""The real entry point, in a subprocess: some Qt crashes only show there (PITFALLS.md)."""

import os
import subprocess
import sys
from tests.helpers.paths import ROOT



def run(*args, env_extra=None, timeout=120):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "dpdesk", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_selftest_exits_zero():
    result = run("--selftest")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "self-test passed" in result.stdout


def test_help_and_version():
    result = run("--help")
    assert result.returncode == 0 and "dpdesk" in result.stdout
    result = run("--version")
    assert result.returncode == 0 and "dpdesk" in result.stdout
