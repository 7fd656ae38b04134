"""Small linked sources for the tests: a pandas frame written as Parquet (by DuckDB, no pyarrow) or CSV."""

from __future__ import annotations

from pathlib import Path

import datetime as dt

import numpy as np


def frame(n: int = 600, seed: int = 31):
    """Rows with text, numbers, blanks, NaN, infinities, values outside any key, and a person id (1-4 rows each)."""
    import pandas as pd

    rng = np.random.default_rng(seed)  # test data only
    region = rng.choice(["north", "south", "east", "west", "elsewhere"], n).astype(object)
    region[::23] = None
    age = rng.integers(15, 95, n).astype(float)
    age[::37] = np.nan
    income = np.round(rng.normal(40, 30, n), 2)
    income[::41] = np.nan
    income[7] = np.inf
    person = np.repeat(np.arange(n), rng.integers(1, 5, n))[:n]
    return pd.DataFrame({"person": person, "region": region, "age": age, "income": income,
                         "code": rng.integers(1, 4, n)})


def write_parquet(df, path: Path) -> Path:
    import duckdb

    path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    con.register("df", df)
    con.execute(f"COPY df TO '{path.as_posix()}' (FORMAT parquet)")
    con.close()
    return path


def write_parts(df, folder: Path, parts: int = 3) -> Path:
    """``df`` as ``parts`` Parquet files in ``folder`` (row order kept across them)."""
    bounds = np.linspace(0, len(df), parts + 1).astype(int)
    for i in range(parts):
        write_parquet(df.iloc[bounds[i]:bounds[i + 1]], folder / f"part-{i}.parquet")
    return folder


def people_frame(n: int = 600):
    """Every type a Parquet or CSV column has: integers, floats (whole, 1.0 against 1, fractions, NaN, infinity,
    above 2^63), text with white space, Unicode and numbers in it, booleans, dates, blanks."""
    df = frame(n)
    rng = np.random.default_rng(7)  # test data only
    df["share"] = rng.random(n)
    df["whole"] = np.arange(n, dtype=float)  # 1.0 reads as 1, as in a CSV
    df["huge"] = np.where(np.arange(n) % 5 == 0, 3e19, 1.5e-7)
    df["note"] = [[" café ", "Zoë", "TRUE", " 12.50 ", "", None, "1e3", "x\u00a0"][i % 8] for i in range(n)]
    df["flag"] = np.arange(n) % 3 == 0
    df["day"] = [dt.date(2021, 1, 1) + dt.timedelta(days=i % 400) for i in range(n)]
    return df.astype({"note": object})
