"""OpenDP's samplers against their exact pmf, over 1,000,000 draws per scale (chi-square).

The same eight checks as ``tests/mechanisms/test_sampler_distribution.py`` (which uses 200,000
draws to stay near 20 s in ``make test``), with five times the draws: discrete Laplace at scales
1, 3, 5, 40 and discrete Gaussian at sigma 1, 2, 5, 40, each failing a correct sampler with
probability 1e-7 (``dpdesk.mechanisms.central.sampler_check``). Also prints the power against
the error OpenDP 0.12 showed (X^2 = 1072 on 26 df over 1M draws).

    .venv/bin/python benchmarks/samplers.py [--draws 1000000] [--write]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from provenance import stamp  # noqa: E402

from dpdesk.mechanisms.central import sampler_check as sc  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "samplers.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=1_000_000)
    parser.add_argument("--write", action="store_true", help=f"write {RESULTS.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    rows, ok = [], True
    for kind, scale in sc.CHECKS:
        start = time.perf_counter()
        result = sc.check_sampler(kind, scale, args.draws)
        seconds = time.perf_counter() - start
        print(f"{result}  [{seconds:.1f} s]", flush=True)
        ok &= result.passed
        rows.append(f"| {kind} | {scale:g} | {result.statistic:.1f} | {result.df} | {result.threshold:.1f} | "
                    f"{result.p_value:.3g} | {'ok' if result.passed else '**FAILS**'} | {seconds:.1f} |")
    miss = 1 - sc.power((1072 - 26) / 1e6, args.draws, 26)
    text = (f"# Samplers: OpenDP's noise against the exact pmf\n\n"
            f"{stamp('samplers')}"
            f"- Machine: {platform.machine()}, Python {platform.python_version()}, opendp {version('opendp')}\n"
            f"- Command: `.venv/bin/python benchmarks/samplers.py --draws {args.draws}`\n\n"
            f"Pearson's X^2 over {args.draws:,} draws per row; each row fails a correct sampler with "
            f"probability {sc.ALPHA:g} (all eight: < 1e-6). Against OpenDP 0.12's error (X^2 = 1072 on 26 df "
            f"over 1M draws), a check of this size misses with probability {miss:.2g}.\n\n"
            "| distribution | scale | X^2 | df | threshold | p | verdict | time (s) |\n"
            "|---|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")
    if args.write:
        RESULTS.write_text(text, encoding="utf-8")
        print(RESULTS)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
