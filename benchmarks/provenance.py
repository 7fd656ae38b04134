"""Where a benchmark result comes from, and whether the code it measures has changed since.

Benchmark scripts put :func:`stamp` lines (date, commit, uncommitted changes) into their results
file; ``collect.py`` calls :func:`provenance` for each results file and marks, or with
``--strict`` refuses, a result older than the code it measures (:data:`MEASURES`).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What each benchmark measures (besides its own script and constraints.txt, the versions it ran on).
MEASURES = {
    "accounting": ["dpdesk/mechanisms/accounting.py"],
    "coverage": ["dpdesk/mechanisms/rr"],
    "speed_rr": ["dpdesk/mechanisms/rr"],
    "survey": ["dpdesk/mechanisms/rr"],
    "simulate": ["dpdesk/mechanisms/rr"],
    "import": ["dpdesk/project"],
    "bench_project_file": ["dpdesk/project"],
    "concurrent_releases": ["dpdesk/project/ledger", "dpdesk/project/file"],
    "concurrent_releases_held": ["dpdesk/project/ledger", "dpdesk/project/file"],
    "release": ["dpdesk/mechanisms/central", "dpdesk/mechanisms/accounting.py", "dpdesk/project"],
    "samplers": ["dpdesk/mechanisms/central/noise.py", "dpdesk/mechanisms/central/sampler_check.py"],
    "disclosure": ["dpdesk/mechanisms/disclosure", "dpdesk/project"],
    "responsiveness": ["dpdesk/project", "dpdesk/gui"],
    "startup": ["dpdesk"],
    "latency": ["dpdesk"],
    "package": ["dpdesk", "packaging"],
    "rrmixed": [f"dpdesk/mechanisms/rr/regression/{m}.py" for m in
                ("multilevel", "multilevel_fit", "logistic", "model", "inference", "inputs", "results", "weighted")]
               + ["dpdesk/mechanisms/rr/design.py"],
    "ecwm": [f"dpdesk/mechanisms/rr/{m}.py" for m in ("estimate", "likelihood", "intervals", "counts", "design")],
    "coverage_models": ["dpdesk/mechanisms/rr"],
    "linked": ["dpdesk/project/linked", "dpdesk/project/ledger", "dpdesk/mechanisms/central", "dpdesk/cli"],
}


def _git(*args: str) -> str:
    result = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return result.stdout.strip() if result.returncode == 0 else ""


def stamp(name: str) -> str:
    """Markdown lines for a results file: the date (UTC) and the commit measured."""
    commit = _git("rev-parse", "--short=10", "HEAD") or "unknown"
    dirty = _git("status", "--porcelain", "--", *measured_paths(name))
    date = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"- Date: {date}\n- Commit: {commit}"
            + (" (with uncommitted changes to the measured code)" if dirty else "") + "\n")


def measured_paths(name: str) -> list[str]:
    return [f"benchmarks/{name}.py", "constraints.txt", *MEASURES.get(name, ["dpdesk"])]


@dataclass(frozen=True)
class Provenance:
    name: str
    commit: str        # the commit measured (or, without a Commit line, the one that last wrote the file)
    date: str
    recorded: bool     # whether the results file names its commit itself
    changed_since: tuple[str, ...]  # commits after it that touched the measured code

    @property
    def stale(self) -> bool:
        return bool(self.changed_since)

    def describe(self) -> str:
        how = "" if self.recorded else " (commit that last wrote the results file; the file names none)"
        state = (f"STALE: {len(self.changed_since)} later commit(s) changed the measured code "
                 f"({', '.join(self.changed_since[:3])}{'...' if len(self.changed_since) > 3 else ''})"
                 if self.stale else "current")
        return f"{self.name}: measured at {self.commit or 'unknown'} on {self.date or 'unknown date'}{how}; {state}"


def provenance(results: Path) -> Provenance:
    name = results.stem
    text = results.read_text(encoding="utf-8")
    commit_match = re.search(r"^- Commit: ([0-9a-f]{7,40})", text, re.M)
    date_match = re.search(r"^- Date: ([0-9-]+(?: [0-9:]+ UTC)?)", text, re.M)
    if commit_match:
        commit, recorded = commit_match[1], True
    elif results.resolve().is_relative_to(ROOT):
        commit, recorded = _git("log", "-1", "--format=%h", "--", str(results.resolve().relative_to(ROOT))), False
    else:
        commit, recorded = "", False
    date = date_match[1] if date_match else _git("log", "-1", "--format=%cs", commit) if commit else ""
    changed = ()
    if commit and _git("cat-file", "-t", commit) == "commit":
        log = _git("log", "--format=%h", f"{commit}..HEAD", "--", *measured_paths(name))
        changed = tuple(log.split()) if log else ()
    return Provenance(name, commit, date, recorded, changed)
