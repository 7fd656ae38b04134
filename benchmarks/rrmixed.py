"""Multilevel logistic regression with an RR outcome: dpdesk against RRreg::RRmixed on the same data, one run.

Datasets (fixed seed): forced response (p_yes 0.15, p_no 0.1), ``logit pi = -0.5 + 0.8 x - 0.4 z + u_j``,
u_j ~ N(0, 0.9^2), with J clusters of unequal size (uniform on [m/2, 3m/2]): J x m in 20 x 20, 50 x 40,
100 x 50, 200 x 50. Each dataset is written to a temporary CSV; one Rscript process fits every dataset
with ``RRmixed(response ~ x + z + (1 | cluster))`` twice: glmer's defaults, and the tight settings dpdesk
is checked against (bobyqa to rhoend 1e-12, ``tolPwrss`` 1e-12, or the tightest that converges); R's time
is ``system.time`` of the fit alone (R's start and package loading excluded). dpdesk's time is one
``rr.logistic(..., random_intercept=)`` call after a warm-up fit, best of 3 (wall and this process's CPU).
Both report the marginal log-likelihood, so the speed is compared at equal answers. Laplace (nAGQ = 1).

Without Rscript or RRreg the R columns are skipped with a message. Writes benchmarks/results/rrmixed.md.
Run:  .venv/bin/python benchmarks/rrmixed.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dpdesk.mechanisms import rr  # noqa: E402
from provenance import stamp  # noqa: E402

SEED = 20261207
SIZES = ((20, 20), (50, 40), (100, 50), (200, 50))
DESIGN = rr.design("forced", p_truth=0.75, p_yes=0.15, p_no=0.1)

R_SCRIPT = r"""
suppressMessages({library(RRreg); library(lme4); library(jsonlite)})
args <- commandArgs(TRUE)
ctrl_at <- function(tol) glmerControl(tolPwrss = tol, optimizer = "bobyqa",
                                      optCtrl = list(rhoend = 1e-12, maxfun = 1e5), check.conv.grad = "ignore")
out <- lapply(args, function(path) {
  d <- read.csv(path)
  d$cluster <- factor(d$cluster)
  f0 <- NULL
  t0 <- system.time(f0 <- tryCatch(suppressWarnings(RRmixed(response ~ x + z + (1 | cluster), data = d,
                                                             model = "FR", p = c(.1, .15))), error = function(e) NULL))
  tight <- NULL
  for (tol in c(1e-12, 1e-11, 1e-10, 1e-9)) {
    t1 <- system.time(tight <- tryCatch(suppressWarnings(RRmixed(response ~ x + z + (1 | cluster), data = d,
                        model = "FR", p = c(.1, .15), control = ctrl_at(tol))), error = function(e) NULL))
    if (!is.null(tight)) break
  }
  list(path = path, default = list(elapsed = t0[["elapsed"]], cpu = t0[["user.self"]] + t0[["sys.self"]],
                                   loglik = if (is.null(f0)) NA else as.numeric(logLik(f0))),
       tight = list(elapsed = t1[["elapsed"]], cpu = t1[["user.self"]] + t1[["sys.self"]],
                    loglik = as.numeric(logLik(tight)), tol = tol))
})
cat(toJSON(out, auto_unbox = TRUE, digits = NA, na = "null"))
"""


def simulate(J: int, m: int, rng):
    sizes = rng.integers(max(2, m // 2), 3 * m // 2 + 1, J)
    cl = np.repeat(np.arange(J), sizes)
    n = len(cl)
    x, z = rng.normal(size=n), rng.integers(0, 2, n).astype(float)
    eta = -0.5 + 0.8 * x - 0.4 * z + rng.normal(0, 0.9, J)[cl]
    true = rng.random(n) < 1 / (1 + np.exp(-eta))
    lam = DESIGN.matrix[1]
    resp = (rng.random(n) < np.where(true, lam[1], lam[0])).astype(int)
    return resp, x, z, cl


def dpdesk_time(resp, x, z, cl, repeats=3):
    X = np.column_stack([np.ones(len(resp)), x, z])
    best, fit = None, None
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        fit = rr.logistic(DESIGN, resp, X, random_intercept=cl)
        t = (time.perf_counter() - w, time.process_time() - c)
        best = t if best is None or t[0] < best[0] else best
    return best, fit.loglik


def r_times(paths):
    if not shutil.which("Rscript"):
        return None, "Rscript is not installed: R's columns are skipped."
    with tempfile.NamedTemporaryFile("w", suffix=".R", delete=False) as f:
        f.write(R_SCRIPT)
    proc = subprocess.run(["Rscript", f.name, *map(str, paths)], capture_output=True, text=True)
    os.unlink(f.name)
    if proc.returncode != 0:
        return None, "R could not run RRmixed (is RRreg installed? set R_LIBS): " + proc.stderr.strip()[-300:]
    return json.loads(proc.stdout), ""


def _ratio(r_fit, row) -> str:
    return "R failed" if r_fit["loglik"] is None else f"{r_fit['cpu'] / row['cpu']:.1f}x"


def _diff(ours, theirs) -> str:
    return "R failed" if theirs is None else f"{ours - theirs:+.2e}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the two smallest sizes only")
    args = ap.parse_args(argv)
    sizes = SIZES[:2] if args.quick else SIZES
    rng = np.random.default_rng(SEED)
    data, paths = [], []
    tmp = Path(tempfile.mkdtemp(prefix="rrmixed-bench-"))
    for J, m in sizes:
        resp, x, z, cl = simulate(J, m, rng)
        p = tmp / f"J{J}_m{m}.csv"
        with p.open("w") as f:
            f.write("response,x,z,cluster\n")
            for row in zip(resp, x, z, cl):
                f.write(f"{int(row[0])},{float(row[1]):.17g},{float(row[2]):g},c{int(row[3])}\n")
        data.append((J, m, resp, x, z, cl))
        paths.append(p)
    load_before = os.getloadavg()
    r_out, r_note = r_times(paths)
    dpdesk_time(*data[0][2:], repeats=1)  # warm-up: imports, first calls
    rows = []
    for k, (J, m, resp, x, z, cl) in enumerate(data):
        (wall, cpu), ll = dpdesk_time(resp, x, z, cl)
        row = {"J": J, "n": len(resp), "wall": wall, "cpu": cpu, "loglik": ll}
        if r_out:
            row["r"] = r_out[k]
        rows.append(row)
        print(row, flush=True)
    load_after = os.getloadavg()
    shutil.rmtree(tmp, ignore_errors=True)
    lines = ["# rrmixed: multilevel logistic regression against RRreg::RRmixed", "", stamp("rrmixed"),
             f"- Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}, Python "
             f"{platform.python_version()}", f"- Load (1, 5, 15 min) before: {', '.join(f'{v:.1f}' for v in load_before)}; "
             f"after: {', '.join(f'{v:.1f}' for v in load_after)}", ""]
    if r_note:
        lines += [r_note, ""]
    lines += ["Laplace approximation; forced response; 2 covariates; times in seconds (wall / CPU of the process). "
              "R: system.time of RRmixed alone. Speed-up = R's CPU / dpdesk's CPU (CPU time is less moved by the "
              "machine's load than wall time).", "",
              "| clusters | n | dpdesk wall | dpdesk CPU | R default wall | R default CPU | R tight CPU | "
              "speed-up vs default | vs tight | loglik dpdesk - R default | - R tight |",
              "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        r = row.get("r")
        if r:
            d, t = r["default"], r["tight"]
            lines.append(f"| {row['J']} | {row['n']} | {row['wall']:.3f} | {row['cpu']:.3f} | {d['elapsed']:.3f} | "
                         f"{d['cpu']:.3f} | {t['cpu']:.3f} | {_ratio(d, row)} | {_ratio(t, row)} | "
                         f"{_diff(row['loglik'], d['loglik'])} | {_diff(row['loglik'], t['loglik'])} |")
        else:
            lines.append(f"| {row['J']} | {row['n']} | {row['wall']:.3f} | {row['cpu']:.3f} | - | - | - | - | - | - | - |")
    out = Path(__file__).resolve().parent / "results" / "rrmixed.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
