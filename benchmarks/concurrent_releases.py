"""1,000 simultaneous release requests against a budget for 100 (issue 28, part 5; README's promise).

Every request is a thread of its own with its own connection to the project (shared mode),
spread over several processes; the threads of a process are released together by a barrier.
Budget 1, each request 0.01 and different from the others (no replays), so exactly 100 fit.
Counts the outcomes (released; refused for the budget; anything else, which must be none) and
times the run and each request (from the barrier to its answer).

``--hold S`` makes every release hold the lock S seconds longer (a loaded machine): with
``--hold 0.15`` the 1,000 requests take longer than the 120 s after which the lock of dpdesk
before issue 28 refused a waiting request.

Usage: .venv/bin/python benchmarks/concurrent_releases.py [--requests N] [--processes P] [--hold S]
(writes benchmarks/results/concurrent_releases.md, or concurrent_releases_held.md with --hold)
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import statistics
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import pandas as pd  # noqa: E402

from dpdesk.project import Project, ledger  # noqa: E402
from provenance import stamp  # noqa: E402


def fire(path, indices, epsilon: str) -> list:
    """(outcome, seconds) of each request, all threads released at once."""
    out: list = []
    ready = threading.Barrier(len(indices))

    def one(i):
        try:
            with Project.open(path, shared=True) as p:
                ready.wait()
                start = time.perf_counter()
                try:
                    ledger.release(p, {"statistic": "count", "epsilon": epsilon, "confidence": f"0.9{i:04d}"})
                    outcome = "released"
                except ledger.BudgetExceeded as exc:
                    text = str(exc)
                    outcome = ("budget" if "so it does not fit" in text and "nothing was spent" in text
                               else f"refused otherwise: {text.splitlines()[0]}")
                out.append((outcome, time.perf_counter() - start))
        except Exception as exc:  # noqa: BLE001 - counted and shown
            out.append((f"{type(exc).__name__}: {exc}", 0.0))

    threads = [threading.Thread(target=one, args=(i,)) for i in indices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def slow_down(seconds: float) -> None:
    """Make every release hold the spending lock ``seconds`` longer (it wraps the transaction that
    :func:`ledger.releases.release` runs inside the lock), as a loaded machine or a big dataset does."""
    from dpdesk.project.ledger import releases

    inner = releases._release

    def held(*args, **kwargs):
        time.sleep(seconds)
        return inner(*args, **kwargs)

    releases._release = held


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--hold", type=float, default=0.0,
                    help="seconds each release takes longer inside the lock (a loaded machine, a big dataset)")
    args = ap.parse_args()
    if args.hold:
        slow_down(args.hold)
    n, procs = args.requests, args.processes
    folder = pathlib.Path(tempfile.mkdtemp(prefix="dpdesk-bench-concurrent-"))
    os.environ["DPDESK_SETTINGS_DIR"] = str(folder / "settings")  # a data folder (and spending lock) of its own
    path = folder / "busy.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("d", pd.DataFrame({"x": range(30)}), source={"name": "d.csv", "sha256": "7" * 64, "size": 1})
        ledger.set_budget(p, 1)
    epsilon = "0.01"
    share = n // procs
    parts = [range(k * share, (k + 1) * share if k < procs - 1 else n) for k in range(procs)]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    t0 = time.perf_counter()
    children = []
    for part in parts[1:]:  # fork before any thread exists here
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(r)
                with os.fdopen(w, "w") as pipe:
                    pipe.write(json.dumps(fire(path, part, epsilon)))
                code = 0
            finally:
                os._exit(code)
        os.close(w)
        children.append((pid, r))
    results = fire(path, parts[0], epsilon)
    for pid, r in children:
        with os.fdopen(r) as pipe:
            results += [tuple(x) for x in json.loads(pipe.read())]
        os.waitpid(pid, 0)
    wall = time.perf_counter() - t0
    outcomes = [o for o, _ in results]
    released, budget = outcomes.count("released"), outcomes.count("budget")
    other = sorted({o for o in outcomes if o not in ("released", "budget")})
    times = sorted(s for o, s in results if o in ("released", "budget"))
    with Project.open(path) as p:
        status = ledger.budget_status(p)
        intact = ledger.verify_ledger(p).ok
    ok = released == 100 and budget == n - 100 and not other and len(results) == n and intact
    print(f"{n} requests in {procs} processes: {released} released, {budget} refused for the budget, "
          f"{n - released - budget} other; wall {wall:.1f} s; spent {status.spent_epsilon}; ledger intact {intact}")
    lines = [
        "# Concurrent releases: 1,000 simultaneous requests against a budget for 100"
        + (f", each release holding the lock {args.hold} s longer (a loaded machine)" if args.hold else ""),
        "",
        stamp("concurrent_releases").rstrip(),
        f"- Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}; load {load:.1f} at the start",
        f"- Command: `.venv/bin/python benchmarks/concurrent_releases.py --requests {n} --processes {procs}"
        f"{f' --hold {args.hold}' if args.hold else ''}` "
        "(target: exactly 100 released, every other request refused for the budget, none for waiting)",
        "",
        "| requests | processes | released | refused for the budget | other outcomes | wall time (s) | "
        "per request: median (s) | slowest (s) | spent | ledger intact |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        f"| {n:,} | {procs} | {released} | {budget} | {n - released - budget} | {wall:.1f} | "
        f"{statistics.median(times) if times else float('nan'):.2f} | {max(times) if times else float('nan'):.1f} | "
        f"{status.spent_epsilon} | {'yes' if intact else 'NO'} |",
        "",
        "Each request is a thread with its own connection, all released at once (a barrier per process). "
        "A request's time runs from the barrier to its answer, so it includes its wait in the queue for "
        "the spending lock (`dpdesk/project/ledger/turns.py`: first come, first served in a process, a "
        "blocking `flock` between processes, no deadline).",
    ]
    if other:
        lines += ["", "Other outcomes: " + "; ".join(other[:5])]
    name = "concurrent_releases" + ("_held" if args.hold else "")
    (ROOT / "benchmarks" / "results" / f"{name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
