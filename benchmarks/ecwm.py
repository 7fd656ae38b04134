"""The ECWM non-adherence test (``rr.estimate(ecwm, ...).fit``): type-I error and power, by simulation.

Design ``rr.design("ecwm", p=0.25)`` (question B's share 0.25 in version 1, 0.75 in version 2), prevalence
pi in {0.1, 0.3}, n respondents per group in {100, 250, 500, 1000, 2000}; S datasets per cell (default
10,000), cell k seeded ``default_rng([SEED, k])``. Each respondent's true state is Bernoulli(pi); an
adherent respondent answers "same" with probability p_g if a carrier and 1 - p_g otherwise.

* Type-I error: everyone adheres; the share of datasets whose likelihood-ratio test (G^2, 1 df) rejects
  at the 5% level.
* Power: 10% of the respondents (each independently, in both groups) do not adhere, simulated two ways:
  "different": they tick "different" whatever the truth (the self-protective answer of Heck, Hoffmann &
  Moshagen 2018); "random": they answer "same" or "different" with a fair coin (careless responding; this
  leaves both groups' "same" rates pulled towards 1/2).

Monte Carlo SE of a rate r: sqrt(r (1 - r) / S) (0.22 points at 5% for S = 10,000).
Writes benchmarks/results/ecwm.md.  Run:  .venv/bin/python benchmarks/ecwm.py [--sims S]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from dpdesk.mechanisms import rr  # noqa: E402
from provenance import stamp  # noqa: E402

SEED = 20261207
P = 0.25
PIS = (0.1, 0.3)
NS = (100, 250, 500, 1000, 2000)
SCENARIOS = ("adherent", "different", "random")


def same_probability(pi: float, pg: float, scenario: str, share: float = 0.10) -> float:
    """P("same") in a group with B's share pg: adherent mixture, then the non-adherent share's answer."""
    adherent = pi * pg + (1 - pi) * (1 - pg)
    if scenario == "adherent":
        return adherent
    off = 0.0 if scenario == "different" else 0.5
    return (1 - share) * adherent + share * off


def rejection_rate(pi: float, n: int, scenario: str, sims: int, rng) -> float:
    d = rr.design("ecwm", p=P)
    probs = [same_probability(pi, pg, scenario) for pg in (P, 1 - P)]
    same = np.column_stack([rng.binomial(n, q, sims) for q in probs])
    rejected = 0
    for y1, y2 in same:
        e = rr.estimate(d, [[n - int(y1), int(y1)], [n - int(y2), int(y2)]], ci="wald")
        rejected += e.fit.p_value < 0.05
    return rejected / sims


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=10_000)
    args = ap.parse_args(argv)
    S = args.sims
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    table = {}
    k = 0
    for pi in PIS:
        for n in NS:
            for sc in SCENARIOS:
                table[(pi, n, sc)] = rejection_rate(pi, n, sc, S, np.random.default_rng([SEED, k]))
                k += 1
            print(pi, n, [f"{table[(pi, n, sc)]:.4f}" for sc in SCENARIOS], flush=True)
    took = time.perf_counter() - t0
    mc = math.sqrt(0.05 * 0.95 / S)
    lines = ["# ecwm: type-I error and power of the ECWM non-adherence test", "", stamp("ecwm"),
             f"- Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}, Python "
             f"{platform.python_version()}",
             f"- Load (1, 5, 15 min) before: {', '.join(f'{v:.1f}' for v in load_before)}; "
             f"after: {', '.join(f'{v:.1f}' for v in os.getloadavg())}; {took:.0f} s in all", "",
             f"`rr.design(\"ecwm\", p={P})`, {S:,} datasets per cell, test at the 5% level. Type-I error: everyone "
             f"adheres (Monte Carlo SE {100 * mc:.2f} points at 5%). Power: 10% of respondents in both groups answer "
             f"\"different\" whatever the truth, or answer at random (a fair coin). n is per group.", "",
             "| prevalence | n per group | type-I error | power, 10% say \"different\" | power, 10% answer at random |",
             "|---|---|---|---|---|"]
    for pi in PIS:
        for n in NS:
            a, d, r = (table[(pi, n, sc)] for sc in SCENARIOS)
            lines.append(f"| {pi} | {n} | {100 * a:.2f}% | {100 * d:.1f}% | {100 * r:.1f}% |")
    out = Path(__file__).resolve().parent / "results" / "ecwm.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
