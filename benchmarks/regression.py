"""Logistic regression with a randomized-response outcome (``rr.logistic``): speed and coverage.

Speed: the time to fit n respondents x k standard-normal predictors (plus an intercept),
with SEs only (``ci="wald", lr_tests=False``) and with everything the default reports
(profile-likelihood intervals for every coefficient and the nuisance, a likelihood-ratio
test per coefficient, the model test). Median of 3 runs after a warm-up (one run at
n = 100,000).

Coverage: for one standard-normal covariate x, ``logit pi = -1 + beta x`` with beta 0.25
(small) or 1.0 (large), n in {300, 1000, 3000}, two designs (the coin forced-response
design; the stochastic lie detector with p = (2/12, 10/12), groups of random size, honesty
t = 0.8 estimated jointly), S datasets per cell (default 2,000): how often the profile and
the Wald 95% intervals for beta contain the true beta (median widths; "unbounded": profile
intervals open on one side, which count as covering when the truth is inside). Datasets the
fit refuses (separation, an estimate that does not exist) are counted and left out of the
coverage. The profile interval is computed for the slope alone (``logistic_inference.
profile_interval``, the function ``rr.logistic`` calls for each coefficient). Monte-Carlo SE
of a coverage near 95%: sqrt(0.95 x 0.05 / S), 0.49 points for S = 2000.

One process, fixed seeds (cell k uses ``default_rng([SEED, k])``). The results file is
rewritten after every cell, so a run stopped early leaves the finished cells (marked).

Run:  .venv/bin/python benchmarks/regression.py             (speed and coverage, about 30 min)
      .venv/bin/python benchmarks/regression.py --quick     (100 datasets per cell)
      .venv/bin/python benchmarks/regression.py --speed     (speed only; keeps the last coverage section)
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dpdesk.errors import EstimationError  # noqa: E402
from dpdesk.mechanisms import rr  # noqa: E402
from dpdesk.mechanisms.rr.regression import inference as inf  # noqa: E402
from dpdesk.mechanisms.rr.regression import model as lm  # noqa: E402

SEED = 20261201
SIMS = 2000
NS = (300, 1000, 3000)
EFFECTS = {"small": 0.25, "large": 1.0}
INTERCEPT = -1.0
Z95 = 1.959963984540054
T_HONEST = 0.8
DESIGNS = {
    "forced (coin)": rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25),
    "SLD p=(2/12, 10/12), t=0.8": rr.design("sld", p1=2 / 12, p2=10 / 12),
}
SPEED_SIZES = ((1_000, 10), (10_000, 2), (10_000, 10), (100_000, 10))
OUT = ROOT / "benchmarks" / "results" / "regression.md"


def simulate(d, X, beta, rng):
    """Responses and groups for ``logit pi = X beta`` under design d (SLD: t = 0.8)."""
    n = len(X)
    carrier = rng.random(n) < 1 / (1 + np.exp(-(X @ beta)))
    if d.groups == 1:
        lam = d.matrix[1][carrier.astype(int)]
        return (rng.random(n) < lam).astype(int), None
    g = rng.integers(1, 3, n)
    honest = rng.random(n) < T_HONEST
    state = np.where(carrier, np.where(honest, 1, 2), 0)
    lam = np.array([m[1] for m in d.matrices])[g - 1, state]
    return (rng.random(n) < lam).astype(int), g


def speed() -> list[str]:
    rng = np.random.default_rng(SEED)
    rows = ["| design | n | predictors | fit with SEs (s) | everything: profile CIs, LR tests (s) | Newton steps |",
            "|---|---:|---:|---:|---:|---:|"]
    for label, d in DESIGNS.items():
        for n, k in SPEED_SIZES:
            X = np.column_stack([np.ones(n), rng.normal(size=(n, k))])
            beta = np.r_[INTERCEPT, rng.normal(scale=0.3, size=k)]
            y, g = simulate(d, X, beta, rng)
            rr.logistic(d, y, X, group=g, ci="wald", lr_tests=False)  # warm-up (imports, caches)
            times = {}
            for mode, kw in (("wald", dict(ci="wald", lr_tests=False)), ("full", {})):
                runs = []
                for _ in range(3 if n <= 10_000 else 1):
                    t0 = time.perf_counter()
                    fit = rr.logistic(d, y, X, group=g, **kw)
                    runs.append(time.perf_counter() - t0)
                times[mode] = float(np.median(runs))
            rows.append(f"| {label} | {n:,} | {k} | {times['wald']:.3f} | {times['full']:.3f} | {fit.iterations} |")
            print(rows[-1], flush=True)
    return rows


def coverage_cell(k: int, d, n: int, beta1: float, sims: int) -> dict:
    rng = np.random.default_rng([SEED, k])
    beta = np.array([INTERCEPT, beta1])
    cov_p = cov_w = ok = unbounded = 0
    width_p, width_w = [], []
    refused: dict[str, int] = {}
    for _ in range(sims):
        x = rng.normal(size=n)
        X = np.column_stack([np.ones(n), x])
        y, g = simulate(d, X, beta, rng)
        try:
            fit = rr.logistic(d, y, X, group=g, names=["(Intercept)", "x"], ci="wald", lr_tests=False)
        except EstimationError as exc:
            key = "separation" if "runs off" in str(exc) else str(exc).split(":")[0][:60]
            refused[key] = refused.get(key, 0) + 1
            continue
        c = fit.coefficients[1]
        # the default (profile) interval of the slope alone: the same function rr.logistic calls
        # for each coefficient, without the intercept's and the nuisance's intervals
        data = fit._data
        lf = lm.best_fit(data, fit.nuisance.estimate if fit.nuisance else 0.0,
                         beta_starts=[fit.beta])
        ci = inf.profile_interval(data, lf, 1, c.se, Z95)
        ok += 1
        cov_p += ci[0] <= beta1 <= ci[1]
        cov_w += c.wald_ci[0] <= beta1 <= c.wald_ci[1]
        unbounded += not np.all(np.isfinite(ci))
        width_p.append(ci[1] - ci[0])
        width_w.append(c.wald_ci[1] - c.wald_ci[0])
    return dict(ok=ok, refused=refused, profile=cov_p / max(ok, 1), wald=cov_w / max(ok, 1), unbounded=unbounded,
                width_profile=float(np.median(width_p)) if ok else np.nan,
                width_wald=float(np.median(width_w)) if ok else np.nan)


def _git(*args) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


def _kept_coverage() -> list[str]:
    """A speed-only run keeps the coverage section of the last full run, saying where it came from."""
    if not OUT.exists():
        return []
    old = OUT.read_text(encoding="utf-8")
    if "## Coverage" not in old:
        return []
    origin = next((line for line in old.splitlines() if line.startswith("Generated by")), "")
    commit = next((line for line in old.splitlines() if line.startswith("| dpdesk commit")), "")
    section = old[old.index("## Coverage"):].rstrip().splitlines()
    note = (f"(Kept from the earlier coverage run: {origin.replace('Generated by ', '')} "
            f"Commits {commit.split('`')[1] if '`' in commit else '?'}.)")
    return section[:1] + ["", note] + section[1:] + [""]


def write(speed_rows, cells, total_cells, sims, started, commit_start, elapsed):
    import numpy as _np
    import scipy

    kept = _kept_coverage() if total_cells == 0 else []

    done = len(cells)
    status = ("speed only" if total_cells == 0 else "complete" if done == total_cells
              else f"**partial: {done} of {total_cells} cells finished**")
    lines = [
        "# Logistic regression with a randomized-response outcome",
        "",
        f"Generated by `benchmarks/regression.py` on {started} ({sims} datasets per coverage cell, seed {SEED}, "
        f"one process, {elapsed / 60:.1f} min; {status}).",
        "",
        "| | |", "|---|---|",
        f"| uname -a | `{' '.join(platform.uname())}` |",
        f"| CPU | `{platform.processor() or platform.machine()} ({os.cpu_count()} logical CPUs)` |",
        f"| Python | `{platform.python_version()}` |",
        f"| numpy | `{_np.__version__}` |",
        f"| scipy | `{scipy.__version__}` |",
        f"| dpdesk commit (at the start; at the end) | `{commit_start}; {_git('rev-parse', '--short', 'HEAD')}` |",
        f"| load average (1, 5, 15 min) at the end | `{' '.join(f'{x:.2f}' for x in os.getloadavg())}` |",
        "",
    ]
    if speed_rows:
        lines += ["## Speed", "",
                  "Standard-normal predictors plus an intercept; wall time, median of 3 runs after a warm-up (1 at "
                  "n = 100,000), on a "
                  "shared machine (an upper bound). Target: 10,000 x 10 with SEs under 1 s.", ""] + speed_rows + [""]
    if cells:
        mc = 100 * (0.95 * 0.05 / sims) ** 0.5
        lines += ["## Coverage of the 95% intervals for a slope", "",
                  f"`logit pi = {INTERCEPT:g} + beta x`, x standard normal; small beta = {EFFECTS['small']}, large "
                  f"beta = {EFFECTS['large']}. Monte-Carlo SE of a coverage near 95%: {mc:.2f} points. Refused: "
                  "datasets `rr.logistic` stopped with a clear error (left out of the coverage).", "",
                  "| design | n | effect | profile cov. | Wald cov. | profile median width | Wald median width | "
                  "profile unbounded | fitted | refused |", "|---|---:|---|---:|---:|---:|---:|---:|---:|---|"]
        for c in cells:
            ref = ", ".join(f"{k}: {v}" for k, v in c["refused"].items()) or "0"
            lines.append(f"| {c['design']} | {c['n']:,} | {c['effect']} ({c['beta']:g}) | {100 * c['profile']:.1f} | "
                         f"{100 * c['wald']:.1f} | {c['width_profile']:.3f} | {c['width_wald']:.3f} | {c['unbounded']} | {c['ok']} | "
                         f"{ref} |")
        lines.append("")
    lines += kept
    OUT.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="100 datasets per coverage cell")
    ap.add_argument("--sims", type=int, default=None, help="datasets per coverage cell (default 2000)")
    ap.add_argument("--speed", action="store_true", help="speed only")
    args = ap.parse_args()
    sims = args.sims or (100 if args.quick else SIMS)
    started = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    commit = _git("rev-parse", "--short", "HEAD")
    t0 = time.perf_counter()
    speed_rows = speed()
    plan = [(label, n, eff) for label in DESIGNS for eff in EFFECTS for n in NS]
    total = 0 if args.speed else len(plan)
    cells: list[dict] = []
    write(speed_rows, cells, total, sims, started, commit, time.perf_counter() - t0)
    if not args.speed:
        for k, (label, n, eff) in enumerate(plan):
            c = coverage_cell(k, DESIGNS[label], n, EFFECTS[eff], sims)
            c.update(design=label, n=n, effect=eff, beta=EFFECTS[eff])
            cells.append(c)
            print(f"{label} n={n} {eff}: profile {100 * c['profile']:.1f}, Wald {100 * c['wald']:.1f}, "
                  f"refused {c['refused']}", flush=True)
            write(speed_rows, cells, total, sims, started, commit, time.perf_counter() - t0)
    print(OUT)


if __name__ == "__main__":
    main()
