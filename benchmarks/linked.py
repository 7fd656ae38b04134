"""Linked data too big for one machine: DuckDB against its own query, memory, fixed cost, Spark local[2].

Generates ROWS x 5 columns of Parquet with DuckDB itself (into --data, outside the repository,
once; reused when present), links them (timing the content fingerprint: MB/s), then runs from
the command line, each in its own process:

- DuckDB's own ``SELECT region, count(*) FROM read_parquet(files) GROUP BY region`` (the baseline);
- ``dpdesk release --dataset big --stat histogram --columns region --keys 0..49`` on the linked files;
- the same release on a 1,000-row imported dataset (dpdesk's fixed cost per command);
- optionally (--spark) the same release on Spark local[2] (the JVM's memory measured apart).

Target: linked - fixed <= 2 x DuckDB's own query; peak resident memory of the dpdesk process
< 1 GB (sampled from /proc every 50 ms, the process and, apart, its JVM children).

Usage: .venv/bin/python benchmarks/linked.py [--rows 100000000] [--data /work/bench-data] [--repeat 3]
       [--spark] (writes benchmarks/results/linked.md)
       .venv/bin/python benchmarks/linked.py --signature --rows 10000000 (the respondents' signature alone:
       benchmarks/results/linked_signature.md)
"""

from __future__ import annotations

import argparse
import datetime
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
PY = sys.executable
KEYS = [str(k) for k in range(50)]


def generate(folder: pathlib.Path, rows: int, files: int = 20) -> list[pathlib.Path]:
    import duckdb

    folder.mkdir(parents=True, exist_ok=True)
    out = sorted(folder.glob("part-*.parquet"))
    if len(out) == files and (folder / f"rows-{rows}").exists():
        return out
    for f in out:
        f.unlink()
    con = duckdb.connect(config={"memory_limit": "2GB", "preserve_insertion_order": False})
    per = rows // files
    for i in range(files):
        lo, hi = i * per, (i + 1) * per if i < files - 1 else rows
        con.execute(f"""COPY (SELECT i AS person, (hash(i) % 50)::INTEGER AS region, (hash(i + 1) % 90)::INTEGER AS age,
                        CASE WHEN hash(i + 2) % 2 = 0 THEN 'f' ELSE 'm' END AS sex,
                        round((hash(i + 3) % 100000) / 100.0, 2) AS income
                        FROM range({lo}, {hi}) t(i)) TO '{folder / f'part-{i:02d}.parquet'}' (FORMAT parquet)""")
    (folder / f"rows-{rows}").write_text("")
    return sorted(folder.glob("part-*.parquet"))


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            kids = [int(x) for x in fh.read().split()]
    except OSError:
        return []
    return kids + [g for k in kids for g in _children(k)]


def run(argv: list[str], env=None) -> dict:
    """Wall time, peak RSS of the process and of its descendants (the JVM), exit code and output."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    peak, peak_kids, done = [0], [0], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], _rss_kb(proc.pid))
            peak_kids[0] = max(peak_kids[0], sum(_rss_kb(k) for k in _children(proc.pid)))
            time.sleep(0.05)

    t = threading.Thread(target=sample, daemon=True)
    t.start()
    out, err = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    t.join()
    return {"wall": wall, "rss_mb": peak[0] / 1024, "children_mb": peak_kids[0] / 1024, "code": proc.returncode,
            "out": out, "err": err}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000_000)
    ap.add_argument("--data", default="/work/bench-data")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--spark", action="store_true")
    ap.add_argument("--signature", action="store_true",
                    help="time only the respondents' signature (issue 31's people hash in DuckDB) on --rows rows")
    args = ap.parse_args()
    if args.signature:
        return signature_only(args)
    env = dict(os.environ, PYTHONPATH=str(ROOT), DPDESK_SETTINGS_DIR=tempfile.mkdtemp(prefix="dpdesk-bench-"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode kept, as installed: else every module compiles each run
    folder = pathlib.Path(args.data) / f"linked-{args.rows}"
    t0 = time.perf_counter()
    files = generate(folder, args.rows)
    gen = time.perf_counter() - t0
    size = sum(f.stat().st_size for f in files)
    work = pathlib.Path(tempfile.mkdtemp(prefix="dpdesk-bench-"))
    project, small = work / "big.dpdesk", work / "small.dpdesk"
    dp = [PY, "-m", "dpdesk"]
    for p in (project, small):
        assert run(dp + ["new", str(p)], env)["code"] == 0
    link = run(dp + ["import", str(project), str(folder / "*.parquet"), "--link", "--name", "big"], env)
    assert link["code"] == 0, link["err"]
    parts = fingerprint_parts(folder, files)
    csv = work / "small.csv"
    with open(csv, "w") as fh:
        fh.write("region\n" + "".join(f"{i % 50}\n" for i in range(1000)))
    assert run(dp + ["import", str(small), str(csv)], env)["code"] == 0
    for p in (project, small):
        run(dp + ["budget", str(p), "--set", "1000"], env)
    own = [PY, "-c", "import duckdb, sys; c = duckdb.connect(); "
           "print(c.execute('SELECT region, count(*) FROM read_parquet($f) GROUP BY region', "
           "{'f': sys.argv[1:]}).fetchall()[:1])", *map(str, files)]
    rows = []
    for i in range(args.repeat):
        eps = str(0.01 + i / 1000)  # a new request each time (an identical one is answered from the ledger)
        rel = ["release", "--stat", "histogram", "--columns", "region", "--keys", *KEYS, "--epsilon", eps]
        r_own = run(own, env)
        r_big = run(dp + [rel[0], str(project), "--dataset", "big", *rel[1:]], env)
        r_small = run(dp + [rel[0], str(small), *rel[1:]], env)
        assert r_big["code"] == 0 and r_small["code"] == 0 and r_own["code"] == 0, (r_big["err"], r_small["err"])
        rows.append((r_own, r_big, r_small))
    best = lambda k: min(r[k]["wall"] for r in rows)  # noqa: E731
    own_t, big_t, small_t = best(0), best(1), best(2)
    ratio = (big_t - small_t) / own_t
    peak = max(r[1]["rss_mb"] for r in rows)
    spark = None
    if args.spark:
        sproj = work / "spark.dpdesk"
        run(dp + ["new", str(sproj)], env)
        s_link = run(dp + ["import", str(sproj), str(folder / "*.parquet"), "--link", "--name", "big", "--engine",
                           "spark", "--spark-master", "local[2]", "--quick"], env)
        run(dp + ["budget", str(sproj), "--set", "10"], env)
        s_rel = run(dp + ["release", str(sproj), "--dataset", "big", "--stat", "histogram", "--columns", "region",
                          "--keys", *KEYS, "--accuracy", "2000", "--confidence", "0.95", "--json"], env)
        import json

        exact = {int(k): int(n) for k, n in _exact(files)}
        if s_rel["code"] == 0:
            entry = json.loads(s_rel["out"])
            hw = entry["result"]["half_width"]["simultaneous"]
            worst = max(abs(v - exact[int(k)]) for k, v in zip(entry["result"]["keys"][0], entry["result"]["values"]))
        else:
            hw = worst = None
        spark = {"link": s_link, "release": s_rel, "half_width": hw, "worst": worst}
    from provenance import stamp

    lines = [
        "# linked data: DuckDB against its own query (benchmarks/linked.py)", "", stamp("linked").rstrip(),
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        f"- machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, load "
        f"{os.getloadavg()[0]:.1f} at the end",
        f"- data: {args.rows:,} rows x 5 columns in {len(files)} Parquet files, {size / 1e9:.2f} GB "
        f"(generated by DuckDB in {gen:.0f} s, or reused)",
        "",
        "| step | wall s | peak RSS of dpdesk MB | note |",
        "|---|---|---|---|",
        f"| link with content fingerprint (schema, rows, SHA-256 of {size / 1e9:.2f} GB, respondents' sketch) | "
        f"{link['wall']:.1f} | {link['rss_mb']:.0f} | {size / 1e6 / link['wall']:.0f} MB/s overall |",
        f"| of which: the files' list, sizes and times (checked before every release) | {parts['quick']:.3f} | | "
        f"{len(files)} files |",
        f"| of which: the content SHA-256 (read every byte) | {parts['content']:.1f} | | "
        f"{size / 1e6 / parts['content']:.0f} MB/s |",
        f"| of which: the respondents' signature in DuckDB (people hash v3; one pass: count, HLL, XOR, sum, bottom-k) | "
        f"{parts['people']:.1f} | | |",
        f"| DuckDB's own GROUP BY region (python -c, best of {args.repeat}) | {own_t:.2f} | "
        f"{min(r[0]['rss_mb'] for r in rows):.0f} | baseline |",
        f"| dpdesk release, 50-key histogram, linked (best of {args.repeat}) | {big_t:.2f} | {peak:.0f} | |",
        f"| the same release on a 1,000-row imported dataset (fixed cost) | {small_t:.2f} | "
        f"{max(r[2]['rss_mb'] for r in rows):.0f} | |",
        "",
        f"(linked - fixed) / DuckDB's own = **{ratio:.2f}x** (target <= 2x); peak RSS {peak:.0f} MB (target < 1024).",
    ]
    if spark is not None:
        lines += ["", "Spark local[2] (--quick link):", "",
                  f"- link: {spark['link']['wall']:.1f} s (code {spark['link']['code']}), dpdesk {spark['link']['rss_mb']:.0f}"
                  f" MB, JVM {spark['link']['children_mb']:.0f} MB",
                  f"- release (accuracy +-2000 at 95%): {spark['release']['wall']:.1f} s (code "
                  f"{spark['release']['code']}), dpdesk {spark['release']['rss_mb']:.0f} MB, JVM "
                  f"{spark['release']['children_mb']:.0f} MB; largest error {spark['worst']} within half-width "
                  f"{spark['half_width']}"]
        if spark["release"]["code"] != 0:
            lines.append(f"- error: {spark['release']['err'].strip()[:300]}")
    text = "\n".join(lines) + "\n"
    (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
    (ROOT / "benchmarks" / "results" / "linked.md").write_text(text)
    print(text)
    return 0


def fingerprint_parts(folder, files, only_people: bool = False) -> dict:
    """The link's parts timed in this process: the quick list, the content hash, the respondents' signature."""
    sys.path.insert(0, str(ROOT))
    from dpdesk.project.linked import fingerprint as fp, people
    from dpdesk.project.linked.duckdb_source import DuckDBSource
    from dpdesk.project.linked.source import Link

    source = str(folder / "*.parquet")
    quick = content = 0.0
    if not only_people:
        t = time.perf_counter()
        fp.quick(source)
        quick = time.perf_counter() - t
        t = time.perf_counter()
        fp.content(source)
        content = time.perf_counter() - t
    engine = DuckDBSource(Link(source, "parquet"))
    t = time.perf_counter()
    people.signature(engine)
    sig = time.perf_counter() - t
    engine.close()
    return {"quick": quick, "content": content, "people": sig}


def signature_only(args) -> int:
    """The respondents' signature alone (people hash version 3: MD5 per cell, SplitMix64 per row, in DuckDB SQL),
    on ROWS x 5 columns (integers, a text, a float), its peak memory and the load; writes
    benchmarks/results/linked_signature.md."""
    import resource

    folder = pathlib.Path(args.data) / f"linked-{args.rows}"
    files = generate(folder, args.rows)
    size = sum(f.stat().st_size for f in files)
    load_before = pathlib.Path("/proc/loadavg").read_text().split()[:3]
    import duckdb

    times, own = [], []
    baseline = ("SELECT count(*), bit_xor(hash(person, region, age, sex, income)) FROM read_parquet($f)")
    for _ in range(args.repeat):
        times.append(fingerprint_parts(folder, files, only_people=True)["people"])
        con = duckdb.connect(config={"memory_limit": "1GB", "preserve_insertion_order": False})
        t = time.perf_counter()
        con.execute(baseline, {"f": [str(f) for f in files]}).fetchall()
        own.append(time.perf_counter() - t)
        con.close()
    load_after = pathlib.Path("/proc/loadavg").read_text().split()[:3]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    from provenance import stamp

    text = "\n".join([
        "# linked data: the respondents' signature in DuckDB (benchmarks/linked.py --signature)", "",
        stamp("linked_signature").rstrip(),
        f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC}",
        f"- machine: {platform.machine()} {os.cpu_count()} cores (shared), Python {platform.python_version()}; load "
        f"average (1, 5, 15 min, as uptime shows it) {' '.join(load_before)} before, {' '.join(load_after)} after",
        f"- data: {args.rows:,} rows x 5 columns (person, region, age: integers; sex: text; income: a float) in "
        f"{len(files)} Parquet files, {size / 1e9:.2f} GB",
        "",
        "| what | wall s | note |", "|---|---|---|",
        f"| respondents' signature (people hash v3: count, HLL distinct, sum and XOR, bottom-256), best of "
        f"{args.repeat} | {min(times):.1f} | all runs: {', '.join(f'{t:.1f}' for t in times)}; "
        f"{args.rows / min(times) / 1e6:.2f} M rows/s |",
        f"| DuckDB's own hash() of the same 5 columns, XORed (the engine's hash the signature used before "
        f"version 3), best of {args.repeat} | {min(own):.1f} | all runs: {', '.join(f'{t:.1f}' for t in own)} |",
        f"| peak resident memory of this process (DuckDB's memory limit: 1 GB) | | {peak:.0f} MB |",
        "",
    ])
    (ROOT / "benchmarks" / "results").mkdir(exist_ok=True)
    (ROOT / "benchmarks" / "results" / "linked_signature.md").write_text(text)
    print(text)
    return 0


def _exact(files):
    import duckdb

    return duckdb.connect().execute("SELECT region, count(*) FROM read_parquet($f) GROUP BY region",
                                    {"f": [str(f) for f in files]}).fetchall()


if __name__ == "__main__":
    sys.exit(main())
