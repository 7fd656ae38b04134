"""Time a 50 x 50 noisy cross-tab over 1,000,000 rows (target: under one second).

Measures, for integer-coded and text-coded variables, the whole release: mapping values
to the declared keys, counting the 2,500 cells, and one OpenDP call drawing 2,500 discrete
Laplace noises. "first" includes importing OpenDP and building the measurement; "warm"
is the best of the following repeats.

Usage: .venv/bin/python benchmarks/release.py [--rows N] [--repeat R]
(writes benchmarks/results/release.md)
"""

from __future__ import annotations

import argparse
import datetime
import os
import pathlib
import platform
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from dpdesk.mechanisms import central  # noqa: E402
from dpdesk.mechanisms.central import laplace_counts  # noqa: E402


def timed(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)  # synthetic data only; noise comes from OpenDP
    r = rng.integers(0, 50, args.rows)
    c = rng.integers(0, 50, args.rows)
    keys = list(range(50))
    rs, cs = r.astype(str), c.astype(str)
    skeys = [str(k) for k in keys]

    cases = {
        "integer codes": lambda: central.crosstab(r, c, keys, keys, epsilon=1),
        "text codes": lambda: central.crosstab(rs, cs, skeys, skeys, epsilon=1),
        "noise only (2,500 cells, one OpenDP call)":
            lambda: laplace_counts(np.zeros((50, 50), dtype=np.int64), 1),
    }
    results = []
    for name, fn in cases.items():
        first = timed(fn)
        warm = min(timed(fn) for _ in range(args.repeat))
        results.append((name, first, warm))
        print(f"{name}: first {first:.3f} s, warm {warm:.3f} s")

    lines = [
        "# Release benchmark: 50 x 50 cross-tab over 1,000,000 rows",
        "",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}",
        f"- Command: `.venv/bin/python benchmarks/release.py --rows {args.rows} "
        f"--repeat {args.repeat}` (target: under 1 s)",
        "",
        "| case | first call (s) | warm, best of repeats (s) |",
        "|---|---:|---:|",
    ]
    lines += [f"| {n} | {f:.3f} | {w:.3f} |" for n, f, w in results]
    lines += ["", "First call includes importing OpenDP and building the cached measurement.",
              ""]
    (ROOT / "benchmarks" / "results" / "release.md").write_text("\n".join(lines),
                                                                encoding="utf-8")


if __name__ == "__main__":
    main()
