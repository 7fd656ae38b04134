"""Project file speed: store and read back a survey-sized dataset, open (with integrity check).

Run: ``.venv/bin/python benchmarks/bench_project_file.py [rows]`` (default 200 000 rows x 12 columns).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from dpdesk.project import Project


def frame(n: int) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    data = {f"q{k}": rng.integers(1, 3, n) for k in range(6)}
    data.update({f"x{k}": rng.normal(size=n) for k in range(3)})
    data["region"] = pd.Categorical(rng.choice(["north", "south", "east", "west"], n))
    data["group"] = pd.Categorical(rng.choice(["A", "B"], n))
    data["note"] = rng.choice(["", "refused", "don't know"], n).astype(object)
    return pd.DataFrame(data)


def main(n: int) -> None:
    df = frame(n)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.dpdesk"
        with Project.create(path) as p:
            t = time.perf_counter()
            p.add_dataset("wave", df)
            write = time.perf_counter() - t
        size = path.stat().st_size
        t = time.perf_counter()
        p = Project.open(path)
        opened = time.perf_counter() - t
        t = time.perf_counter()
        back = p.dataset_frame("wave")
        read = time.perf_counter() - t
        p.close()
        pd.testing.assert_frame_equal(back, df)
    print(f"{n} rows x {df.shape[1]} columns: add_dataset {write:.2f} s, open (integrity check) "
          f"{opened:.2f} s, dataset_frame {read:.2f} s, file {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
