"""Time to the first shown window: dpdesk against a bare PySide6 window, in the same run.

Each measurement is a fresh process (``python -c ...``) timed from launch until the
window has been shown and its first events processed; the two kinds alternate so both
see the same machine load. Target: dpdesk <= 2x the bare window. Also lists which heavy
libraries (numpy, scipy, pandas, matplotlib) were imported before the window was shown.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/startup.py [--runs 7] [--write]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "startup.md"

BARE = """
import sys
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv[:1])
w = QMainWindow(); w.resize(1100, 720); w.show(); app.processEvents()
print("shown", flush=True)
"""

DPDESK = """
import sys
from dpdesk.gui.shell.app import make_app
app = make_app([])
from dpdesk.gui.shell.main_window import MainWindow
w = MainWindow(); w.show(); app.processEvents()
heavy = [m for m in ("numpy", "scipy", "pandas", "matplotlib") if m in sys.modules]
print("shown", ",".join(heavy) or "-", flush=True)
w.close()
"""


def once(code: str, env: dict) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)
    elapsed = time.perf_counter() - start
    if out.returncode != 0 or not out.stdout.startswith("shown"):
        raise SystemExit(f"run failed ({out.returncode}): {out.stdout}{out.stderr}")
    return elapsed, out.stdout.split()[1] if len(out.stdout.split()) > 1 else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--write", action="store_true", help=f"write the table to {RESULTS.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
                   DPDESK_SETTINGS_DIR=tmp)
        once(BARE, env), once(DPDESK, env)  # warm the file cache
        bare, app, heavy = [], [], ""
        for _ in range(args.runs):
            bare.append(once(BARE, env)[0])
            t, heavy = once(DPDESK, env)
            app.append(t)
    mb, ma = statistics.median(bare), statistics.median(app)
    ratio = ma / mb
    verdict = "meets" if ratio <= 2 else "MISSES"
    lines = [
        "# Start-up: time to the first shown window",
        "",
        f"`benchmarks/startup.py --runs {args.runs}` on {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, QT_QPA_PLATFORM={env['QT_QPA_PLATFORM']}. "
        "Wall time from process launch to the window shown (fresh process each run, runs alternating).",
        "",
        "| window | median (s) | min (s) | max (s) |",
        "|---|---|---|---|",
        f"| bare PySide6 QMainWindow | {mb:.3f} | {min(bare):.3f} | {max(bare):.3f} |",
        f"| dpdesk main window (welcome screen) | {ma:.3f} | {min(app):.3f} | {max(app):.3f} |",
        "",
        f"Ratio dpdesk / bare: **{ratio:.2f}x** ({verdict} the target of at most 2x).",
        f"Heavy libraries imported before the window was shown: {heavy or 'none'}.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        RESULTS.write_text(text, encoding="utf-8")
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
