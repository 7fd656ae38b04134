"""Coverage of the randomized-response confidence intervals (default vs Wald).

For each design, sample size n and true prevalence, counts are drawn binomially per
group (two-group designs split n evenly; the yes probability of group g is the design
matrix P_g times the latent-state probabilities) and the interval from
``rr.estimate(d, counts)`` (default) and ``rr.estimate(d, counts, ci="wald")`` is checked
for containing the true prevalence.

Speed trick: an interval depends only on the counts. One-group yes/no designs: the
intervals for every yes-count 0..n are computed once per (design, n) and reused for all
prevalences; this also gives the EXACT coverage ``sum_y Binom(y; n, lambda) 1[pi in CI(y)]``
(no Monte-Carlo noise). Two-group designs: intervals are cached by (y1, y2).

Monte-Carlo SE of a simulated coverage near 95% with S simulations:
``sqrt(0.95 * 0.05 / S)`` (0.49 percentage points for S = 2000).

Boundary cells (``--boundary``): exact coverage at y = 0 / y = n cells before and after the
interval was made never tighter than the exact one-sided bound there.

Run:  .venv/bin/python benchmarks/coverage.py            (full run, 2 workers, ~10-20 min)
      .venv/bin/python benchmarks/coverage.py --boundary (the boundary cells only, seconds)
      .venv/bin/python benchmarks/coverage.py --quick    (smoke run, a few seconds)
"""

from __future__ import annotations

import argparse
import datetime as _dt
import importlib
import math
import os
import platform
import subprocess
import sys
import time
from multiprocessing import get_context
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dpdesk.mechanisms import rr  # noqa: E402

SEED = 20261129
SIMS = 2000
NS = (100, 500, 2000)
PREVALENCES = (0.0, 0.01, 0.05, 0.2, 0.5, 0.9)
TARGET = (0.935, 0.965)  # default interval's coverage band (95% nominal)
CONFIDENCE = 0.95
DIAG_SIMS = 800
EXACT_PAIRS = 3000  # two-group designs: exact coverage when there are at most this many (y1, y2)

#: name -> (design name, parameters, latent-state probabilities as a function of pi)
DESIGNS = {
    "forced (coin)": ("forced", dict(p_truth=0.5, p_yes=0.25, p_no=0.25), None),
    "warner p=0.7": ("warner", dict(p=0.7), None),
    "crosswise p=0.25": ("crosswise", dict(p=0.25), None),
    "triangular p=0.25": ("triangular", dict(p=0.25), None),
    "unrelated p=0.7 q=0.3": ("unrelated", dict(p_sensitive=0.7, q=0.3), None),
    "kuk p1=0.7 p2=0.3": ("kuk", dict(p1=0.7, p2=0.3, draws=1), None),
    # SLD states (non-carrier, honest carrier, lying carrier) with honesty t = 1
    "sld p1=0.3 p2=0.7 (t=1)": ("sld", dict(p1=0.3, p2=0.7), "sld_t1"),
    # CDM states (honest non-carrier, carrier, cheater) with gamma = 0: beta = 1 - pi
    "cdm p1=0.3 p2=0.7 (gamma=0)": ("cdm", dict(p1=0.3, p2=0.7), "cdm_g0"),
}


def state_probabilities(d, states: str | None, pi: float) -> np.ndarray:
    """The latent-state probabilities at prevalence ``pi`` (columns of the design matrix)."""
    if states is None:
        return np.array([1 - pi, pi])
    if states == "sld_t1":
        t = 1.0
        return np.array([1 - pi, pi * t, pi * (1 - t)])
    if states == "cdm_g0":
        gamma = 0.0
        return np.array([1 - pi - gamma, pi, gamma])
    raise ValueError(states)


def yes_probabilities(d, states, pi: float) -> np.ndarray:
    """P(recorded yes) per group: ``P_g @ c(pi)``, row 1 (``"yes"``)."""
    c = state_probabilities(d, states, pi)
    return np.array([float(np.clip(m[1] @ c, 0.0, 1.0)) for m in d.matrices])


def _intervals(d, counts):
    """(default ci, wald ci) for one counts value; (nan, nan) pairs with the error on failure."""
    try:
        a = rr.estimate(d, counts, confidence=CONFIDENCE)
        b = rr.estimate(d, counts, confidence=CONFIDENCE, ci="wald")
        return a.ci, b.ci, a.prevalence, None
    except Exception as exc:  # recorded and reported, never silently dropped
        nan = (math.nan, math.nan)
        return nan, nan, math.nan, f"{type(exc).__name__}: {exc}"


def _covers(ci, pi) -> bool:
    return bool(ci[0] <= pi <= ci[1])


def run_one_group(label, d, states, n, sims, seed_key):
    """All prevalences for one (one-group design, n): exact and simulated coverage."""
    ys = np.arange(n + 1)
    dflt = np.empty((n + 1, 2))
    wald = np.empty((n + 1, 2))
    est = np.empty(n + 1)
    errors = []
    for y in ys:
        a, b, e, err = _intervals(d, [n - y, y])
        dflt[y], wald[y], est[y] = a, b, e
        if err:
            errors.append(f"y={y}: {err}")
        if not err and not (dflt[y, 0] - 1e-12 <= e <= dflt[y, 1] + 1e-12):
            errors.append(f"y={y}: estimate {e} outside default interval {tuple(dflt[y])}")
    from scipy.stats import binom

    rows = []
    for k, pi in enumerate(PREVALENCES):
        lam = yes_probabilities(d, states, pi)[0]
        pmf = binom.pmf(ys, n, lam)
        cov_d = (dflt[:, 0] <= pi) & (pi <= dflt[:, 1])
        cov_w = (wald[:, 0] <= pi) & (pi <= wald[:, 1])
        rng = np.random.default_rng([SEED, *seed_key, k])
        y_sim = rng.binomial(n, lam, size=sims)
        rows.append(dict(
            design=label, n=n, pi=pi,
            sim_default=float(cov_d[y_sim].mean()), sim_wald=float(cov_w[y_sim].mean()),
            exact_default=float(pmf @ cov_d), exact_wald=float(pmf @ cov_w),
            width_default=float(np.mean(dflt[y_sim, 1] - dflt[y_sim, 0])),
            width_wald=float(np.mean(wald[y_sim, 1] - wald[y_sim, 0])),
            contains_estimate=bool(np.all((dflt[:, 0] <= est + 1e-12) & (est - 1e-12 <= dflt[:, 1]))),
            distinct=int(len(np.unique(y_sim))),
        ))
    return rows, errors


def run_two_group(label, d, states, n, sims, seed_key):
    """All prevalences for one (two-group design, n): simulated coverage, intervals cached by (y1, y2)."""
    n1, n2 = n // 2, n - n // 2
    cache: dict[tuple[int, int], tuple] = {}
    errors = []
    rows = []
    exact = (n1 + 1) * (n2 + 1) <= EXACT_PAIRS
    if exact:  # small n: every (y1, y2), so the exact coverage too
        for a1 in range(n1 + 1):
            for a2 in range(n2 + 1):
                cache[(a1, a2)] = _intervals(d, [[n1 - a1, a1], [n2 - a2, a2]])
                if cache[(a1, a2)][3]:
                    errors.append(f"y=({a1}, {a2}): {cache[(a1, a2)][3]}")
        grid = np.array([[cache[(a1, a2)][0] + cache[(a1, a2)][1] for a2 in range(n2 + 1)] for a1 in range(n1 + 1)])
    for k, pi in enumerate(PREVALENCES):
        lam = yes_probabilities(d, states, pi)
        rng = np.random.default_rng([SEED, *seed_key, k])
        y1 = rng.binomial(n1, lam[0], size=sims)
        y2 = rng.binomial(n2, lam[1], size=sims)
        cd = cw = 0
        wd = ww = 0.0
        contains = True
        for a1, a2 in zip(y1.tolist(), y2.tolist()):
            key = (a1, a2)
            if key not in cache:
                cache[key] = _intervals(d, [[n1 - a1, a1], [n2 - a2, a2]])
                if cache[key][3]:
                    errors.append(f"y=({a1}, {a2}): {cache[key][3]}")
            a, b, e, _ = cache[key]
            cd += _covers(a, pi)
            cw += _covers(b, pi)
            wd += a[1] - a[0]
            ww += b[1] - b[0]
            contains &= bool(a[0] - 1e-12 <= e <= a[1] + 1e-12)
        ex_d = ex_w = math.nan
        if exact:
            from scipy.stats import binom

            pmf = np.outer(binom.pmf(np.arange(n1 + 1), n1, lam[0]), binom.pmf(np.arange(n2 + 1), n2, lam[1]))
            ex_d = float(np.sum(pmf * ((grid[..., 0] <= pi) & (pi <= grid[..., 1]))))
            ex_w = float(np.sum(pmf * ((grid[..., 2] <= pi) & (pi <= grid[..., 3]))))
        rows.append(dict(
            design=label, n=n, pi=pi, sim_default=cd / sims, sim_wald=cw / sims,
            exact_default=ex_d, exact_wald=ex_w,
            width_default=wd / sims, width_wald=ww / sims, contains_estimate=contains,
            distinct=len({(a, b) for a, b in zip(y1.tolist(), y2.tolist())}),
        ))
    return rows, errors


def task(args):
    label, n, sims = args
    name, params, states = DESIGNS[label]
    d = rr.design(name, **params)
    seed_key = (list(DESIGNS).index(label), NS.index(n) if n in NS else n)
    t0 = time.perf_counter()
    run = run_one_group if d.groups == 1 else run_two_group
    rows, errors = run(label, d, states, n, sims, seed_key)
    return label, n, rows, errors, time.perf_counter() - t0


DIAG_HEADER = ["| design | n | prevalence | P(LR = 0) | 95% quantile of LR(pi0) | median c(pi0) used | "
               "P(LR > c) = 1 - coverage |", "|---|---:|---:|---:|---:|---:|---:|"]


def diagnose_two_group(label: str, n: int, sims: int = 800) -> list[str]:
    """Null distribution of the profile likelihood ratio at the TRUE prevalence (two-group design).

    The default interval contains pi0 iff LR(pi0) <= c(pi0), the Feldman-Cousins critical value
    from pi0's own distance to 0 and 1. Coverage is P(LR(pi0) <= c(pi0)), so comparing the 95%
    quantile of LR(pi0) with c(pi0) shows whether the calibration, not the likelihood, is off.
    Uses the estimator's internals (diagnostic only).
    """
    from dpdesk.mechanisms.rr import intervals as iv
    from dpdesk.mechanisms.rr.estimate import _se_distances, _two_group_model

    name, params, states = DESIGNS[label]
    d = rr.design(name, **params)
    model = _two_group_model(d)
    sizes = np.array([n // 2, n - n // 2], float)

    if hasattr(iv, "critical_value_2d"):  # the 2-D calibration (profile construction)
        def critical(pi, eta0):
            return iv.critical_value_2d(model.affine_information(sizes, pi, eta0), model.affine_point(pi, eta0),
                                        model.affine_region(), model.affine_segment(pi), CONFIDENCE)
    else:  # the earlier 1-D Feldman-Cousins calibration
        from dpdesk.mechanisms.rr.likelihood import schur_se

        def critical(pi, eta0):
            se0 = schur_se(model.information(sizes, pi, eta0))
            return iv.critical_value(*_se_distances(pi, se0), CONFIDENCE)

    out = []
    for k, pi in enumerate(PREVALENCES):
        lam = yes_probabilities(d, states, pi)
        rng = np.random.default_rng([SEED, 99, n, k])
        lrs, crits = [], []
        for _ in range(sims):
            y = rng.binomial(sizes.astype(int), lam).astype(float)
            p_hat, e_hat, _ = model.mle(y, sizes)
            eta0 = model.profile_eta(y, sizes, pi)
            lrs.append(max(0.0, 2 * (model.loglik(y, sizes, p_hat, e_hat) - model.loglik(y, sizes, pi, eta0))))
            crits.append(critical(pi, eta0))
        lrs, crits = np.array(lrs), np.array(crits)
        out.append(f"| {label} | {n} | {pi:g} | {np.mean(lrs < 1e-9):.3f} | {np.quantile(lrs, 0.95):.2f} | "
                   f"{np.median(crits):.2f} | {np.mean(lrs > crits + 1e-9):.3f} |")
    return out


def diag_task(args):
    label, n, sims = args
    try:
        return label, n, diagnose_two_group(label, n, sims)
    except Exception as exc:  # internals renamed: the diagnostic is optional
        return label, n, [f"| {label} | {n} | diagnostic failed: {type(exc).__name__}: {exc} | | | | |"]


# ----------------------------------------------------------------------------- boundary cells
#
# The reference checks found the default interval too tight at y = n: n = 40, triangular
# p = 0.1, prevalence 0.95 had exact coverage 80.9%. Since then the interval at y = 0 and
# y = n is never tighter than the exact one-sided Clopper-Pearson bound. "before" is the
# Feldman-Cousins interval alone (the widening switched off), "after" the default now.

BOUNDARY_CELLS = [  # (label, design, params, n, prevalences)
    ("triangular p=0.1", "triangular", {"p": 0.1}, 40, (0.9, 0.95, 0.98)),
    ("triangular p=0.25", "triangular", {"p": 0.25}, 100, (0.95, 0.98)),
    ("mangat p=0.7", "mangat", {"p": 0.7}, 40, (0.9, 0.95)),
    ("forced (coin)", "forced", {"p_truth": 0.5, "p_yes": 0.25, "p_no": 0.25}, 40, (0.0, 0.9)),
]
BOUNDARY_GRID = np.linspace(0.0, 1.0, 201)


def _boundary_intervals(d, n: int, widen: bool) -> np.ndarray:
    est = importlib.import_module("dpdesk.mechanisms.rr.estimate")  # rr loads its parts lazily
    original = est._widen_at_boundary
    if not widen:
        est._widen_at_boundary = lambda model, counts, low, high, confidence: (low, high)
    try:
        return np.array([rr.estimate(d, [n - y, y], confidence=CONFIDENCE).ci for y in range(n + 1)])
    finally:
        est._widen_at_boundary = original


def boundary_rows() -> list[dict]:
    """Exact coverage (enumerating y = 0..n) before and after the exact bound at y = 0, n."""
    from scipy.stats import binom

    rows = []
    for label, name, params, n, prevalences in BOUNDARY_CELLS:
        d = rr.design(name, **params)
        cis = {w: _boundary_intervals(d, n, w) for w in (False, True)}
        ys = np.arange(n + 1)

        def coverage(pi, w):
            lam = yes_probabilities(d, None, pi)[0]
            return float(binom.pmf(ys, n, lam) @ ((cis[w][:, 0] <= pi + 1e-12) & (pi - 1e-12 <= cis[w][:, 1])))

        for pi in prevalences:
            rows.append(dict(design=label, n=n, pi=f"{pi:g}", before=coverage(pi, False), after=coverage(pi, True)))
        worst = {w: min((coverage(pi, w), pi) for pi in BOUNDARY_GRID) for w in (False, True)}
        rows.append(dict(design=label, n=n, pi=f"worst of 0..1 (at {worst[False][1]:g}; {worst[True][1]:g})",
                         before=worst[False][0], after=worst[True][0]))
    return rows


def boundary_report() -> list[str]:
    lines = ["| design | n | prevalence | exact coverage before | exact coverage after |", "|---|---:|---|---:|---:|"]
    for r in boundary_rows():
        lines.append(f"| {r['design']} | {r['n']} | {r['pi']} | {100 * r['before']:.2f} | {100 * r['after']:.2f} |")
    return lines


# ----------------------------------------------------------------------------- report


def git_state() -> str:
    """HEAD and whether the estimator's files differ from it (the checkout is shared)."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "dpdesk/mechanisms/rr"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except Exception:
        return "unknown"
    return head + (" (dpdesk/mechanisms/rr modified)" if dirty else "")


GIT_AT_START = git_state() if __name__ == "__main__" else ""


def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import scipy

    commit = git_state()
    return {
        "uname -a": " ".join(platform.uname()),
        "CPU": f"{cpu} ({os.cpu_count()} logical CPUs)",
        "Python": sys.version.split()[0],
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "dpdesk commit (at the start; at the end)": f"{GIT_AT_START or commit}; {commit}",
        "load average (1, 5, 15 min) at the end": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def _pct(x: float, flag: bool = False, digits: int = 1) -> str:
    if math.isnan(x):
        return "–"
    s = f"{100 * x:.{digits}f}"
    out = TARGET[0] - 1e-12 <= x <= TARGET[1] + 1e-12
    return f"**{s}**" if flag and not out else s


def write_report(rows, errors, sims, workers, elapsed, path: Path, diag=None) -> list[str]:
    mc_se = math.sqrt(0.95 * 0.05 / sims)
    order = {k: i for i, k in enumerate(DESIGNS)}
    rows = sorted(rows, key=lambda r: (order[r["design"]], r["n"], r["pi"]))
    outside = []
    for r in rows:
        # The exact coverage is the truth where we have it; else the simulated one.
        judged = r["exact_default"] if not math.isnan(r["exact_default"]) else r["sim_default"]
        if not (TARGET[0] - 1e-12 <= judged <= TARGET[1] + 1e-12) or not r["contains_estimate"]:
            kind = (f"exact; simulated {100 * r['sim_default']:.1f}%" if not math.isnan(r["exact_default"])
                    else f"simulated, +-{100 * 1.96 * math.sqrt(judged * (1 - judged) / sims):.1f} points at 95%")
            outside.append(f"- {r['design']}, n={r['n']}, prevalence={r['pi']:g}: default coverage "
                           f"{100 * judged:.2f}% ({kind})"
                           + ("" if r["contains_estimate"] else "; interval does NOT always contain the estimate"))
    m = machine()
    lines = [
        "# Coverage of the randomized-response intervals",
        "",
        f"Generated by `benchmarks/coverage.py` on {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC "
        f"({sims} simulations per cell, seed {SEED}, {workers} worker processes, {elapsed / 60:.1f} min).",
        "",
        "| | |", "|---|---|",
        *[f"| {k} | `{v}` |" for k, v in m.items()],
        "",
        f"Nominal level {100 * CONFIDENCE:.0f}%. Target for the default interval: "
        f"{100 * TARGET[0]:.1f}-{100 * TARGET[1]:.1f}% in every cell; cells outside are **bold**.",
        f"Monte-Carlo SE of a simulated coverage near 95%: sqrt(0.95 x 0.05 / {sims}) = "
        f"{100 * mc_se:.2f} percentage points (so simulated values within about +-1 point of the exact "
        f"ones are noise).",
        "",
        "How: counts are drawn binomially per group (two-group designs: n split evenly, group g's yes "
        "probability = P_g @ state probabilities; SLD with t = 1, CDM with gamma = 0). "
        "One-group designs: the interval of every yes-count 0..n is computed once, so the *exact* "
        "coverage (sum of the binomial pmf over the counts whose interval covers) is reported "
        "beside the simulated one; bold flags use the exact value where there is one. "
        f"Two-group designs: intervals cached by (y1, y2); exact coverage too where there are at most "
        f"{EXACT_PAIRS} count pairs (n = 100: all 51 x 51), simulated only above. Widths are the mean over "
        "the simulated counts. Coverage counts `low <= prevalence <= high`.",
        "",
        "| design | n | prevalence | default cov. (sim) | default cov. (exact) | Wald cov. (sim) | "
        "Wald cov. (exact) | default mean width | Wald mean width |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        exact_known = not math.isnan(r["exact_default"])
        lines.append(
            f"| {r['design']} | {r['n']} | {r['pi']:g} | {_pct(r['sim_default'], not exact_known)} | "
            f"{_pct(r['exact_default'], True, 2)} | {_pct(r['sim_wald'])} | {_pct(r['exact_wald'], digits=2)} | "
            f"{r['width_default']:.4f} | {r['width_wald']:.4f} |")
    # summary
    def best(r, which):
        return r[f"exact_{which}"] if not math.isnan(r[f"exact_{which}"]) else r[f"sim_{which}"]

    judged = [best(r, "default") for r in rows]
    wald = [best(r, "wald") for r in rows]
    near0 = [r for r in rows if r["pi"] <= 0.05]
    ratio = [r["width_default"] / r["width_wald"] for r in rows if r["width_wald"] > 0]
    lines += [
        "",
        "## Summary",
        "",
        f"- Default interval: coverage {100 * min(judged):.1f}% to {100 * max(judged):.1f}% over "
        f"{len(rows)} cells (exact where available, else simulated); "
        f"{len(outside)} cells outside {100 * TARGET[0]:.1f}-{100 * TARGET[1]:.1f}%.",
        f"- Wald interval: coverage {100 * min(wald):.1f}% to {100 * max(wald):.1f}%; at prevalence <= 0.05 "
        f"it averages {100 * np.mean([best(r, 'wald') for r in near0]):.1f}% (the default: "
        f"{100 * np.mean([best(r, 'default') for r in near0]):.1f}%).",
        f"- Width default / Wald: median {np.median(ratio):.2f}, range {min(ratio):.2f}-{max(ratio):.2f}.",
        "",
        "| design | default coverage min-max | cells outside | Wald coverage min-max |",
        "|---|---:|---:|---:|",
    ]
    for label in DESIGNS:
        mine = [r for r in rows if r["design"] == label]
        if not mine:
            continue
        dv = [best(r, "default") for r in mine]
        wv = [best(r, "wald") for r in mine]
        bad = sum(1 for v in dv if not TARGET[0] - 1e-12 <= v <= TARGET[1] + 1e-12)
        lines.append(f"| {label} | {100 * min(dv):.1f}-{100 * max(dv):.1f}% | {bad} | "
                     f"{100 * min(wv):.1f}-{100 * max(wv):.1f}% |")
    if outside:
        lines += ["", "### Cells outside the target", "", *outside]
    if diag:
        lines += [
            "", "## Two-group designs: is the critical value calibrated? (diagnostic)", "",
            "The default interval contains the true prevalence pi0 exactly when the profile likelihood-ratio "
            "statistic LR(pi0) is at most the calibrated critical value c(pi0). Below: the simulated null "
            f"distribution of LR(pi0) ({DIAG_SIMS} draws per row, same data-generating process as the table). For a 1-parameter "
            "model on the boundary, P(LR = 0) is 1/2 and the 95% quantile is 2.71; here the nuisance sits "
            "on its own bound (SLD t = 1: pi t <= pi; CDM gamma = 0: beta <= 1 - pi), so the parameter "
            "space near the truth is a 2-D wedge: the estimate lands on pi = 0 less often than 1/2 and "
            "LR(pi0) behaves like a chi-bar-square mixture with a chi-square(2) part. The column c(pi0) is "
            "the critical value the estimator uses (2-D calibrated when `intervals.critical_value_2d` "
            "exists, else the 1-D one); the calibration is right when its last column is near 0.05.",
            "", *DIAG_HEADER, *diag,
        ]
    lines += ["", "## Boundary cells: y = 0 and y = n (exact coverage)", "",
              "Before: the Feldman-Cousins interval alone; after: never tighter than the exact one-sided "
              "Clopper-Pearson bound at y = 0 and y = n (the default since the fix).", "", *boundary_report()]
    if errors:
        lines += ["", "### Estimation errors", "", *[f"- {e}" for e in errors[:50]]]
        if len(errors) > 50:
            lines.append(f"- ... and {len(errors) - 50} more")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return outside


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=SIMS)
    ap.add_argument("--workers", type=int, default=2, help="worker processes (at most 2 on the shared machine)")
    ap.add_argument("--designs", nargs="*", default=list(DESIGNS), help="design labels to run")
    ap.add_argument("--n", nargs="*", type=int, default=list(NS))
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "coverage.md")
    ap.add_argument("--quick", action="store_true", help="smoke run: n=100, 200 simulations, to a temp file")
    ap.add_argument("--diagnose", action="store_true",
                    help="only print the profile-LR null distribution for the two-group designs (1 process)")
    ap.add_argument("--boundary", action="store_true",
                    help="only print the boundary cells (exact coverage before/after the exact bound; seconds)")
    a = ap.parse_args(argv)
    if a.boundary:
        t0 = time.perf_counter()
        table = boundary_report()
        out = ROOT / "benchmarks" / "results" / "coverage_boundary.md"
        m = machine()
        lines = ["# Coverage at the boundary: y = 0 and y = n", "",
                 f"Generated by `benchmarks/coverage.py --boundary` on "
                 f"{_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC ({time.perf_counter() - t0:.1f} s); "
                 f"dpdesk commit `{m['dpdesk commit (at the start; at the end)']}`, Python {m['Python']}, "
                 f"numpy {m['numpy']}, scipy {m['scipy']}.", "",
                 "Exact coverage: the sum over y = 0..n of the binomial probability of y where the 95% default "
                 "interval of y contains the prevalence (no simulation). *Before*: the Feldman-Cousins interval "
                 "alone, whose Gaussian calibration fails as the yes probability approaches 1 (at y = n the "
                 "interval of triangular p = 0.1, n = 40 started at 0.9505 and missed a prevalence of 0.95). "
                 "*After*: at y = 0 and y = n never tighter than the exact one-sided Clopper-Pearson bound "
                 "(1 - confidence)^(1/n) on the yes probability (the default now). The *worst* rows scan 201 "
                 "prevalences; the remaining dip (about 91.5%) comes from y = n - 1, n - 2 near the top, where "
                 "the binomial is discrete and skewed.", "", *table]
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print("\n".join(table))
        print(f"wrote {out}")
        return 0
    if a.diagnose:
        print("\n".join(DIAG_HEADER))
        for label, (name, params, _) in DESIGNS.items():
            if rr.design(name, **params).groups == 2:
                for n in a.n:
                    print("\n".join(diagnose_two_group(label, n, DIAG_SIMS)), flush=True)
        return 0
    if a.quick:
        a.n, a.sims = [100], 200
        if a.out == ap.get_default("out"):
            a.out = Path("/tmp/coverage_quick.md")
    workers = max(1, min(2, a.workers))
    unknown = [x for x in a.designs if x not in DESIGNS]
    if unknown:
        ap.error(f"unknown design labels {unknown}; known: {list(DESIGNS)}")
    # Two-group cells and large n first: they take longest.
    jobs = sorted(((lab, n, a.sims) for lab in a.designs for n in a.n),
                  key=lambda j: (rr.design(DESIGNS[j[0]][0], **DESIGNS[j[0]][1]).groups, j[1]), reverse=True)
    t0 = time.perf_counter()
    rows, errors = [], []
    print(f"{len(jobs)} jobs (design x n), {len(PREVALENCES)} prevalences each, {a.sims} sims, {workers} workers",
          flush=True)
    with get_context("spawn").Pool(workers) as pool:
        for i, (label, n, r, e, dt) in enumerate(pool.imap_unordered(task, jobs), 1):
            rows += r
            errors += [f"{label}, n={n}, {x}" for x in e]
            worst = min((x["exact_default"] if not math.isnan(x["exact_default"]) else x["sim_default"]) for x in r)
            print(f"[{i}/{len(jobs)}] {label:30s} n={n:5d}  {dt:6.1f}s  min default coverage {100 * worst:.1f}%"
                  f"  (elapsed {(time.perf_counter() - t0) / 60:.1f} min)", flush=True)
        diag_jobs = [(lab, n, DIAG_SIMS) for lab in a.designs for n in a.n
                     if rr.design(DESIGNS[lab][0], **DESIGNS[lab][1]).groups == 2 and not a.quick]
        diag = []
        if diag_jobs:
            print(f"diagnostic: profile-LR null distribution, {len(diag_jobs)} jobs", flush=True)
            done = {(lab, n): lines for lab, n, lines in pool.imap_unordered(diag_task, diag_jobs)}
            diag = [x for j in diag_jobs for x in done[(j[0], j[1])]]
    outside = write_report(rows, errors, a.sims, workers, time.perf_counter() - t0, a.out, diag)
    print(f"wrote {a.out}; {len(outside)} cells outside target, {len(errors)} estimation errors")
    for line in outside:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
