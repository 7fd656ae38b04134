"""Time of ``rr.estimate`` per design and interval method, for 1,000 and 10,000,000 respondents.

Estimators take counts, never rows, so the time should not depend on n (microseconds to
milliseconds; the bootstrap's 2,000 resamples are the slow one). Counts are the expected
counts (rounded) at prevalence 0.2 (interior) and at prevalence 0 (estimate on the
boundary, where the two-group designs maximize the profile likelihood numerically).

Run:  .venv/bin/python benchmarks/speed_rr.py           (about a minute; run on a quiet machine)
      .venv/bin/python benchmarks/speed_rr.py --quick   (a few seconds, to a temp file)
"""

from __future__ import annotations

import argparse
import datetime as _dt
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dpdesk.mechanisms import rr  # noqa: E402


def _coverage_module():
    """benchmarks/coverage.py, loaded by path (the name ``coverage`` is also the coverage.py package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_rr_coverage_bench", Path(__file__).with_name("coverage.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_COV = _coverage_module()
_COV.GIT_AT_START = _COV.git_state()  # the checkout is shared: record what was imported


def machine() -> dict[str, str]:
    """Machine description shared with benchmarks/coverage.py."""
    return _COV.machine()

NS = (1_000, 10_000_000)
PREVALENCES = (0.2, 0.0)
CATS = ("a", "b", "c", "d")

#: label -> (design name, parameters)
DESIGNS = {
    "forced (coin)": ("forced", dict(p_truth=0.5, p_yes=0.25, p_no=0.25)),
    "warner p=0.7": ("warner", dict(p=0.7)),
    "crosswise p=0.25": ("crosswise", dict(p=0.25)),
    "triangular p=0.25": ("triangular", dict(p=0.25)),
    "unrelated p=0.7 q=0.3": ("unrelated", dict(p_sensitive=0.7, q=0.3)),
    "mangat p=0.7": ("mangat", dict(p=0.7)),
    "kuk p1=0.7 p2=0.3 draws=1": ("kuk", dict(p1=0.7, p2=0.3, draws=1)),
    "kuk p1=0.7 p2=0.3 draws=5": ("kuk", dict(p1=0.7, p2=0.3, draws=5)),
    "sld p1=0.3 p2=0.7": ("sld", dict(p1=0.3, p2=0.7)),
    "cdm p1=0.3 p2=0.7": ("cdm", dict(p1=0.3, p2=0.7)),
    "unrelated_unknown p1=0.7 p2=0.3": ("unrelated_unknown", dict(p1=0.7, p2=0.3)),
    "forced_multi 4 categories": ("forced_multi", dict(p_truth=0.6, p_forced=[0.1] * 4, categories=list(CATS))),
    "krr 4 categories eps=1": ("krr", dict(categories=list(CATS), epsilon=1.0)),
    "unary (OUE) 4 categories eps=1": ("unary", dict(categories=list(CATS), epsilon=1.0)),
}


def states(d, pi: float) -> np.ndarray:
    """Latent-state probabilities with prevalence ``pi`` (nuisances: t=0.8, beta=0.5(1-pi), pi_uq=0.3)."""
    if d.model == "prevalence":
        return np.array([1 - pi, pi])
    if d.model == "sld":
        t = 0.8
        return np.array([1 - pi, pi * t, pi * (1 - t)])
    if d.model == "cdm":
        beta = 0.5 * (1 - pi)
        return np.array([beta, pi, 1 - pi - beta])
    if d.model == "unrelated_unknown":
        u = 0.3
        return np.array([(1 - pi) * (1 - u), (1 - pi) * u, pi * (1 - u), pi * u])
    # categories: the first has frequency pi, the rest share 1 - pi
    k = len(d.categories)
    return np.array([pi] + [(1 - pi) / (k - 1)] * (k - 1))


def expected_counts(d, n: int, pi: float):
    """Rounded expected counts for n respondents (two-group designs: n split evenly)."""
    c = states(d, pi)
    if d.model == "unary":
        ticked = [round(n * float(d.matrix[1] @ np.array([1 - f, f]))) for f in c]
        return [[n - t, t] for t in ticked]
    sizes = [n] if d.groups == 1 else [n // 2, n - n // 2]
    out = []
    for m, size in zip(d.matrices, sizes):
        lam = m @ c
        cnt = np.floor(size * lam).astype(np.int64)
        cnt[np.argmax(lam)] += size - cnt.sum()  # keep the total exact
        out.append(cnt.tolist())
    return out[0] if d.groups == 1 else out


def time_call(fn, min_total: float, max_reps: int) -> tuple[float, int]:
    """Median seconds per call after one warm-up call; repeats until min_total seconds or max_reps.

    A call slower than 2 s is timed once (its warm-up call is the measurement).
    """
    t = time.perf_counter()
    fn()
    first = time.perf_counter() - t
    if first > 2.0:
        return first, 1
    times = []
    start = time.perf_counter()
    while len(times) < max_reps and (len(times) < 3 or time.perf_counter() - start < min_total):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), len(times)


def _fmt(sec: float) -> str:
    if sec < 1e-3:
        return f"{sec * 1e6:.0f} µs"
    if sec < 1:
        return f"{sec * 1e3:.1f} ms"
    return f"{sec:.2f} s"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "speed_rr.md")
    ap.add_argument("--quick", action="store_true", help="one design per family, few repeats, to a temp file")
    a = ap.parse_args(argv)
    labels = list(DESIGNS)
    min_total, max_reps = 0.3, 200
    if a.quick:
        labels = ["forced (coin)", "sld p1=0.3 p2=0.7", "krr 4 categories eps=1", "unary (OUE) 4 categories eps=1"]
        min_total, max_reps = 0.02, 3
        if a.out == ap.get_default("out"):
            a.out = Path("/tmp/speed_rr_quick.md")
    rows = []
    t0 = time.perf_counter()
    for label in labels:
        name, params = DESIGNS[label]
        d = rr.design(name, **params)
        for pi in PREVALENCES:
            cells = {}
            for n in NS:
                counts = expected_counts(d, n, pi)
                for ci in rr.CI_METHODS:
                    sec, reps = time_call(lambda: rr.estimate(d, counts, ci=ci), min_total, max_reps)
                    cells[(n, ci)] = (sec, reps)
            rows.append((label, pi, cells))
            print(f"{label:34s} prevalence={pi:g}  " + "  ".join(
                f"{ci}: {_fmt(cells[(NS[0], ci)][0])} / {_fmt(cells[(NS[1], ci)][0])}" for ci in rr.CI_METHODS),
                flush=True)
    elapsed = time.perf_counter() - t0
    m = machine()
    head = " | ".join(f"{ci} n={n:,}" for ci in rr.CI_METHODS for n in NS)
    lines = [
        "# Speed of `rr.estimate`",
        "",
        f"Generated by `benchmarks/speed_rr.py` on {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC "
        f"({elapsed:.0f} s in all).",
        "",
        "| | |", "|---|---|",
        *[f"| {k} | `{v}` |" for k, v in m.items()],
        "",
        "Median wall time of one `rr.estimate(design, counts, ci=...)` call (after a warm-up call; "
        f"repeated for at least {min_total} s or {max_reps} calls) on the rounded expected counts of n "
        "respondents (two-group designs: n split evenly). Bootstrap: 2,000 resamples (the default). "
        "Nuisances: SLD t = 0.8, CDM beta = (1 - prevalence) / 2, unrelated-unknown pi_uq = 0.3; "
        "designs with categories: the first category has the given frequency.",
        "",
        f"| design | prevalence | {head} |",
        "|---|---:|" + "---:|" * (len(rr.CI_METHODS) * len(NS)),
    ]
    ratios = []
    for label, pi, cells in rows:
        lines.append(f"| {label} | {pi:g} | " + " | ".join(
            _fmt(cells[(n, ci)][0]) for ci in rr.CI_METHODS for n in NS) + " |")
        ratios += [cells[(NS[1], ci)][0] / cells[(NS[0], ci)][0] for ci in rr.CI_METHODS]
    slowest = max(((cells[k][0], label, pi, k) for label, pi, cells in rows for k in cells))
    lines += [
        "",
        "## Summary",
        "",
        f"- Time ratio n = {NS[1]:,} / n = {NS[0]:,} over all cells: median {statistics.median(ratios):.2f}, "
        f"range {min(ratios):.2f}-{max(ratios):.2f} (1 = independent of n).",
        f"- Slowest call: {_fmt(slowest[0])} ({slowest[1]}, prevalence {slowest[2]:g}, ci={slowest[3][1]}, "
        f"n={slowest[3][0]:,}).",
    ]
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
