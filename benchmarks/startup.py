"""Time to the first shown window: dpdesk against a bare PySide6 window, in the same run.

Each measurement is a fresh process (``python -c ...``) timed from launch until the
window has been shown and its first events processed; the two kinds alternate so both
see the same machine load. Besides the wall time, the CPU time of each process (user +
system, from ``getrusage``) is recorded: on a shared, loaded machine it moves far less
than the wall time. Target: dpdesk <= 1.5x the bare window (issue 29; it was 2x). Also lists
which heavy libraries (numpy, scipy, pandas, matplotlib) were imported before the window was
shown. ``--root`` measures another checkout (for a before/after on the same machine).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/startup.py [--runs 11] [--write] [--root DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
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


TARGET = 1.5


def once(code: str, env: dict, root: Path = ROOT) -> tuple[float, str, float]:
    """(wall seconds, heavy libraries loaded, CPU seconds of the process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, timeout=120)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if out.returncode != 0 or not out.stdout.startswith("shown"):
        raise SystemExit(f"run failed ({out.returncode}): {out.stdout}{out.stderr}")
    return elapsed, out.stdout.split()[1] if len(out.stdout.split()) > 1 else "", cpu


def _commit(root: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "--short=10", "HEAD"], capture_output=True,
                              text=True, timeout=30).stdout.strip() or "?"
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--write", action="store_true", help=f"write the table to {RESULTS.relative_to(ROOT)}")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose dpdesk is measured")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
                   DPDESK_SETTINGS_DIR=tmp, PYTHONPATH=str(root))
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "dpdesk")], env=dict(
            env, PYTHONDONTWRITEBYTECODE=""), capture_output=True, timeout=300)  # as installed: bytecode ready
        once(BARE, env, root), once(DPDESK, env, root)  # warm the file cache
        bare, app, heavy = [], [], ""
        for _ in range(args.runs):
            bare.append(once(BARE, env, root))
            t = once(DPDESK, env, root)
            app.append(t)
            heavy = t[1]
    wall = [statistics.median(r[0] for r in runs) for runs in (bare, app)]
    cpu = [statistics.median(r[2] for r in runs) for runs in (bare, app)]
    ratio, cpu_ratio = wall[1] / wall[0], cpu[1] / cpu[0]
    verdict = "meets" if ratio <= TARGET else "MISSES"
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from provenance import stamp  # the date and commit lines that collect.py reads

    lines = [
        "# Start-up: time to the first shown window",
        "",
        stamp("startup") if root == ROOT else f"- Commit: {_commit(root)}",
        f"`benchmarks/startup.py --runs {args.runs}` on {platform.system()} {platform.machine()}, "
        f"Python {platform.python_version()}, {os.cpu_count()} cores, QT_QPA_PLATFORM={env['QT_QPA_PLATFORM']}; "
        f"dpdesk at {_commit(root)}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
        f"{load[0]:.1f} at the start and {os.getloadavg()[0]:.1f} at the end. Wall time from process launch "
        "to the window shown (fresh process each run, runs alternating, bytecode compiled beforehand), and "
        "the CPU time (user + system) of the same processes.",
        "",
        "| window | wall median (s) | wall min (s) | wall max (s) | CPU median (s) |",
        "|---|---|---|---|---|",
        f"| bare PySide6 QMainWindow | {wall[0]:.3f} | {min(r[0] for r in bare):.3f} | {max(r[0] for r in bare):.3f} "
        f"| {cpu[0]:.3f} |",
        f"| dpdesk main window (welcome screen) | {wall[1]:.3f} | {min(r[0] for r in app):.3f} | "
        f"{max(r[0] for r in app):.3f} | {cpu[1]:.3f} |",
        "",
        f"Ratio dpdesk / bare: **{ratio:.2f}x** wall ({verdict} the target of at most {TARGET}x), "
        f"{cpu_ratio:.2f}x CPU.",
        f"Heavy libraries imported before the window was shown: {heavy or 'none'}.",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        RESULTS.write_text(text, encoding="utf-8")
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
