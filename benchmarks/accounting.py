"""Epsilon of k releases at delta = 1e-6 by basic, advanced, RDP and PLD composition.

Compares dpdesk's accountant (dpdesk.mechanisms.accounting.epsilon: PLD, pessimistic,
rounded up to 1e-6; continuous events as the API's default, and the discrete events
dpdesk's own releases are charged with) with:

- basic composition: Laplace k * eps0 (pure); Gaussian k * eps0(delta/k), eps0 from the
  analytic Gaussian mechanism (Balle & Wang 2018);
- advanced composition (Dwork, Rothblum & Vadhan 2010, thm III.3):
  sqrt(2 k ln(1/delta')) eps0 + k eps0 (e^eps0 - 1); Laplace delta' = delta; Gaussian
  delta' = delta/2 and eps0 at delta/(2k) each;
- dp_accounting's RdpAccountant (continuous Laplace / Gaussian);
- dp_accounting's PLDAccountant (continuous Laplace / Gaussian, and DiscreteLaplaceDpEvent).

Usage: .venv/bin/python benchmarks/accounting.py  (writes benchmarks/results/accounting.md)
"""

from __future__ import annotations

import datetime
import math
import os
import pathlib
import platform
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import dp_accounting as dpa  # noqa: E402
from scipy import stats  # noqa: E402

from dpdesk.mechanisms import accounting as acc  # noqa: E402

DELTA = 1e-6
LAPLACE_SCALE = 10.0  # epsilon 0.1 per release
SIGMA = 20.0


def bw_epsilon(sigma, delta):
    """Smallest eps with the analytic Gaussian delta(eps) <= delta (Balle & Wang 2018)."""
    def d(e):
        return stats.norm.cdf(-e * sigma + 0.5 / sigma) - math.exp(e) * stats.norm.cdf(
            -e * sigma - 0.5 / sigma)

    lo, hi = 0.0, 200.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if d(mid) > delta else (lo, mid)
    return hi


def advanced(eps0, k, delta_prime):
    return math.sqrt(2 * k * math.log(1 / delta_prime)) * eps0 + k * eps0 * math.expm1(eps0)


def rdp(event, k):
    a = dpa.rdp.RdpAccountant()
    a.compose(event, k)
    return a.get_epsilon(DELTA)


def pld(event, k):
    a = dpa.pld.PLDAccountant()
    a.compose(event, k)
    return a.get_epsilon(DELTA)


def rows():
    out = []
    for k in (1, 10, 100):
        eps0 = 1 / LAPLACE_SCALE
        t = time.perf_counter()
        ours = float(acc.epsilon([acc.Laplace(LAPLACE_SCALE)] * k, DELTA))
        dt = time.perf_counter() - t
        charged = float(acc.epsilon([acc.Laplace(LAPLACE_SCALE, discrete=True)] * k, DELTA))
        cont = pld(dpa.LaplaceDpEvent(LAPLACE_SCALE), k)
        disc = pld(dpa.dp_event.DiscreteLaplaceDpEvent(1 / LAPLACE_SCALE, 1), k)
        out.append((f"Laplace b={LAPLACE_SCALE:g}", k, k * eps0, advanced(eps0, k, DELTA),
                    rdp(dpa.LaplaceDpEvent(LAPLACE_SCALE), k), cont, disc, ours, charged, dt))
    for k in (1, 10, 100):
        basic = k * bw_epsilon(SIGMA, DELTA / k)
        adv = advanced(bw_epsilon(SIGMA, DELTA / (2 * k)), k, DELTA / 2) if k > 1 else basic
        t = time.perf_counter()
        ours = float(acc.epsilon([acc.Gaussian(SIGMA)] * k, DELTA))
        dt = time.perf_counter() - t
        charged = float(acc.epsilon([acc.Gaussian(SIGMA, discrete=True)] * k, DELTA))
        cont = pld(dpa.GaussianDpEvent(SIGMA), k)
        out.append((f"Gaussian sigma={SIGMA:g}", k, basic, adv, rdp(dpa.GaussianDpEvent(SIGMA), k),
                    cont, bw_epsilon(SIGMA / math.sqrt(k), DELTA), ours, charged, dt))
    return out


def main():
    res = rows()
    lines = [
        "# Accounting benchmark: epsilon of k releases at delta = 1e-6",
        "",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}, "
        f"dp_accounting {getattr(dpa, '__version__', '0.6')}",
        "- Command: `.venv/bin/python benchmarks/accounting.py`",
        "",
        "Column \"exact/discrete\": for Laplace, dp_accounting's PLD of the *discrete* "
        "Laplace (the mechanism dpdesk samples); for Gaussian, the exact analytic continuous "
        "Gaussian (Balle & Wang 2018) of sigma/sqrt(k). \"ours\" is "
        "`dpdesk.mechanisms.accounting.epsilon` of continuous events (pessimistic PLD, rounded up "
        "to 1e-6); \"ours, discrete\" is what dpdesk charges for its own releases, which draw "
        "OpenDP's discrete samplers.",
        "",
        "| releases | k | basic | advanced (DRV) | RDP | PLD (continuous) | exact/discrete | ours | "
        "ours vs PLD (continuous) | ours, discrete | ours, discrete vs exact/discrete | time (s) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, k, basic, adv, r, cont, ref, ours, charged, dt in res:
        lines.append(f"| {name} | {k} | {basic:.4f} | {adv:.4f} | {r:.4f} | {cont:.4f} | "
                     f"{ref:.4f} | {ours:.4f} | {100 * (ours / cont - 1):+.2f}% | {charged:.4f} | "
                     f"{100 * (charged / ref - 1):+.2f}% | {dt:.2f} |")
    lines += [
        "",
        "Reading: the discrete Laplace with sensitivity 1 has privacy loss exactly +-1/b, the "
        "PLD of randomized response, which is the worst case among (1/b)-DP mechanisms; so at "
        "k = 100 it costs about 1.7% more than the continuous Laplace (4.77 vs 4.69). dpdesk "
        "charges its own releases the discrete figure because that is the noise it draws; it "
        "never charges them the smaller continuous one. For the Gaussian the discrete and continuous figures "
        "agree closely at sigma = 20.",
        "",
    ]
    out = ROOT / "benchmarks" / "results" / "accounting.md"
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
