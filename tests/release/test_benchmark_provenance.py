"""benchmarks/collect.py knows the commit and date of every result and which are older than their code."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import provenance  # noqa: E402


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def test_result_of_the_current_commit_is_current(tmp_path):
    path = tmp_path / "samplers.md"
    path.write_text(f"# x\n\n{provenance.stamp('samplers')}")
    p = provenance.provenance(path)
    assert p.recorded and git("rev-parse", "--short=10", "HEAD").startswith(p.commit[:7])
    assert not p.stale and "current" in p.describe()


def test_result_older_than_the_code_it_measures_is_stale(tmp_path):
    changed = git("log", "-1", "--format=%H", "--", "dpdesk/mechanisms/central/sampler_check.py")
    before = git("rev-parse", f"{changed}~1")
    path = tmp_path / "samplers.md"
    path.write_text(f"# x\n\n- Date: 2026-11-30\n- Commit: {before[:10]}\n")
    p = provenance.provenance(path)
    assert p.stale and changed[:7] in " ".join(p.changed_since) and "STALE" in p.describe()
    assert p.date == "2026-11-30"


def test_collect_prints_commit_and_date_of_every_result_and_flags_stale_ones():
    results = sorted((ROOT / "benchmarks" / "results").glob("*.md"))
    stale = [r.stem for r in results if provenance.provenance(r).stale]
    before = (ROOT / "benchmarks" / "README.md").read_bytes()
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "collect.py"), "--check"], capture_output=True,
                         text=True, cwd=ROOT)
    assert (ROOT / "benchmarks" / "README.md").read_bytes() == before  # --check never writes
    for name in (r.stem for r in results):
        assert f"{name}: measured at " in run.stdout  # every row's commit and date is printed
    assert (run.returncode == 1) == bool(stale)
