"""A budget protects people, not files (issue 31): a linked source and an imported copy of the same people (the
same file, another format, a renamed column, a 90% subset) have one row hash, so they are charged one budget."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from dpdesk.project import Project, ledger, linked
from dpdesk.project.people import sketch
from dpdesk.project.people.fingerprint import people_text, respondents_signature
from tests.helpers import linked as data
from tests.helpers.linked import people_frame


@pytest.fixture
def home(tmp_path, monkeypatch):
    for var, sub in (("DPDESK_SETTINGS_DIR", "settings"), ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    return tmp_path


def test_people_text_reads_every_number_alike_and_writes_the_rest_exactly():
    assert people_text(1) == people_text(1.0) == people_text(" 1 ") == people_text("1.0") == "1"
    assert people_text(0.1) == people_text("0.1") != people_text(0.1 + 1e-17 * 0 + 2 ** -56)
    assert people_text(0.1) == "7205759403792794p-4"  # 0.1 = 7205759403792794 x 2^(-4-52)
    assert people_text(float("nan")) == people_text(None) == people_text("  ") == ""
    assert people_text("TRUE") == people_text(True) == "true"
    assert people_text("e\u0301 ") == "\u00e9" and people_text("1_000") == "1_000" and people_text("inf") == "inf"
    assert people_text(dt.date(2020, 1, 2)) == "2020-01-02"


def test_duckdb_computes_the_imported_row_hashes(tmp_path):
    from dpdesk.project.linked import people
    from dpdesk.project.linked.duckdb_source import DuckDBSource
    from dpdesk.project.linked.source import Link

    df = people_frame()
    path = data.write_parquet(df, tmp_path / "f.parquet")
    source = DuckDBSource(Link(str(path), "parquet"))
    try:
        sig = people.signature(source)
    finally:
        source.close()
    mine = respondents_signature(df)["people"]
    assert sig["people"]["sketch"] == mine["sketch"] and sig["people"]["fp"] == mine["fp"]
    assert sig["rows"] == mine["rows"] == len(df) and sketch.same_people(sig["people"], mine) == 1.0


def _release_from_linked(path, source, epsilon="0.6"):
    with Project.create(path) as p:
        ds = linked.link_dataset(p, str(source), name="registry")
        ledger.set_budget(p, 1)
        ledger.release(p, {"statistic": "count", "epsilon": epsilon}, dataset=ds.name)


@pytest.mark.parametrize("variant", ["same csv", "renamed column", "subset of 90%", "reordered"])
def test_an_import_of_linked_people_is_charged_their_budget(home, variant):
    from dpdesk.project.reading.importing import import_file

    df = people_frame()
    source = data.write_parquet(df, home / "registry.parquet")  # linked as Parquet, imported as CSV
    _release_from_linked(home / "linked.dpdesk", source)
    copy = df
    if variant == "renamed column":
        copy = df.rename(columns={"income": "earnings", "region": "area"})
    elif variant == "subset of 90%":
        copy = df.sample(frac=0.9, random_state=3)
    elif variant == "reordered":
        copy = df.iloc[::-1][list(reversed(df.columns))]
    csv = home / "copy.csv"
    copy.to_csv(csv, index=False)
    with Project.create(home / "imported.dpdesk") as p:
        import_file(p, csv, name="copy")
        ledger.set_budget(p, 1)
        status = ledger.budget_status(p)
        assert status.spent_epsilon == Fraction(3, 5), variant  # the linked release, charged to these people
        with pytest.raises(ledger.BudgetExceeded):
            ledger.release(p, {"statistic": "count", "epsilon": "0.5"}, dataset="copy")
        ledger.release(p, {"statistic": "count", "epsilon": "0.4"}, dataset="copy")


def test_other_people_are_not_charged(home):
    from dpdesk.project.reading.importing import import_file

    _release_from_linked(home / "linked.dpdesk", data.write_parquet(people_frame(), home / "registry.parquet"))
    csv = home / "other.csv"
    data.frame(600, seed=99).to_csv(csv, index=False)
    with Project.create(home / "imported.dpdesk") as p:
        import_file(p, csv, name="other")
        ledger.set_budget(p, 1)
        assert ledger.budget_status(p).spent_epsilon == 0


def test_a_csv_and_a_parquet_link_of_the_same_rows_are_the_same_people(home):
    df = people_frame()
    _release_from_linked(home / "a.dpdesk", data.write_parquet(df, home / "registry.parquet"))
    df.to_csv(home / "registry.csv", index=False)
    with Project.create(home / "b.dpdesk") as p:
        ds = linked.link_dataset(p, str(home / "registry.csv"), name="again")
        ledger.set_budget(p, 1)
        assert ledger.budget_status(p).spent_epsilon == Fraction(3, 5)
        with pytest.raises(ledger.BudgetExceeded):
            ledger.release(p, {"statistic": "count", "epsilon": "0.5"}, dataset=ds.name)


def test_the_sketch_query_returns_a_top_k_never_the_rows(tmp_path):
    """Bounded memory: every query the signature runs returns one row of aggregates or at most 4k hashes (DuckDB's
    min(h, 4k) in the aggregate, ORDER BY h LIMIT 4k above it), whatever the number of rows."""
    from dpdesk.project.linked import people
    from dpdesk.project.linked.duckdb_source import DuckDBSource
    from dpdesk.project.linked.source import Link

    df = data.frame(100)
    df = df.loc[df.index.repeat(30)].reset_index(drop=True)  # each row 30 times: the 200 smallest hold few
    path = data.write_parquet(df, tmp_path / "f.parquet")
    source = DuckDBSource(Link(str(path), "parquet"))
    returned, run = [], source.run_sql

    def counting(text, params, cancel=None):
        rows = run(text, params, cancel)
        returned.append((text, len(rows), len(rows[0][4]) if len(rows) == 1 and len(rows[0]) > 4 else 0))
        return rows

    source.run_sql = counting
    try:
        sig = people.signature(source, k=50)
    finally:
        source.close()
    assert len(returned) >= 2  # the duplicates filled the first 200: a second, top-k query above them
    assert all(n <= 200 and inner <= 200 for _, n, inner in returned)
    assert all("LIMIT" in text for text, n, _ in returned[1:])
    assert len(sig["people"]["sketch"]) == 50 and sig["rows"] == len(df)


def test_direct_identifiers_are_left_out_of_a_link_as_of_an_import_and_the_people_still_match(home):
    """The import leaves out a column of e-mail addresses; the link leaves it out of its schema, its sample and its
    respondents' signature too (else the rows would hash differently), and refuses to release it."""
    from dpdesk.errors import DataError
    from dpdesk.project.reading.importing import import_file

    df = people_frame()
    df["email"] = [f"p{i}@example.org" for i in range(len(df))]
    source = data.write_parquet(df, home / "registry.parquet")
    _release_from_linked(home / "linked.dpdesk", source)
    with Project.open(home / "linked.dpdesk") as p:
        (ds,) = p.datasets()
        assert "email" not in linked.schema_of(ds).names
        assert linked.schema_of(ds).excluded == (("email", "e-mail address (by column name)"),)
        assert all("email" not in row for row in linked.sample(p, "registry", 20))
        with pytest.raises(DataError, match="is a direct identifier"):
            ledger.release(p, {"statistic": "count", "by": "email", "by_keys": ["x"], "epsilon": "0.1"},
                           dataset="registry")
    df.to_csv(home / "copy.csv", index=False)
    with Project.create(home / "imported.dpdesk") as p:
        import_file(p, home / "copy.csv", name="copy")
        assert "email" not in p.dataset_frame("copy").columns
        ledger.set_budget(p, 1)
        assert ledger.budget_status(p).spent_epsilon == Fraction(3, 5)


def test_the_fast_path_for_columns_of_numbers_writes_people_text_exactly():
    import numpy as np
    import pandas as pd

    from dpdesk.project.people.fingerprint import _column_texts

    rng = np.random.default_rng(5)  # test data only
    values = np.concatenate([rng.normal(0, 1e3, 500), rng.normal(0, 1, 500) * 1e-300, [0.0, -0.0, 1.0, 2.0 ** 63,
                             -2.0 ** 63, 2.0 ** 63 - 1024, 3e19, np.inf, -np.inf, np.nan, 5e-324, 0.1, -7.5]])
    for series in (pd.Series(values), pd.Series(values.astype(np.float32)), pd.Series(rng.integers(-9, 9, 50)),
                   pd.Series(np.array([2 ** 63 - 1, -2 ** 63, 0], dtype=np.int64)),
                   pd.Series(np.array([2 ** 64 - 1, 5], dtype=np.uint64))):
        _canon, fast, index = _column_texts(series, people=True)
        assert [fast[i] for i in index] == [people_text(v) for v in series.tolist()]
