"""Linked datasets read by DuckDB: linking, exact aggregates equal to an imported copy's, releases in the same
ledger, changes detected with nothing spent, relinking recorded, contributions bounded, cancel."""

from __future__ import annotations

import os
import shutil
import threading
from fractions import Fraction

import numpy as np
import pytest

from dpdesk.errors import DataError
from dpdesk.mechanisms.central.exact import aggregate_arrays
from dpdesk.mechanisms.central.spec import release_spec
from dpdesk.project import Project, ledger, linked
from dpdesk.project.ledger.columns import columns_of
from dpdesk.project.linked import query as lq
from dpdesk.project.linked.source import CancelToken, Cancelled
from dpdesk.project.people.fingerprint import respondents_signature
from tests.helpers import linked as data

REQUESTS = [
    {"statistic": "count", "epsilon": 1},
    {"statistic": "count", "columns": ["income"], "epsilon": 1},
    {"statistic": "count", "by": "region", "by_keys": ["north", "south", "nowhere"], "epsilon": 1},
    {"statistic": "histogram", "columns": ["region"], "keys": ["north", "south", "east", "west"], "epsilon": 1},
    {"statistic": "histogram", "columns": ["code"], "keys": [1, 2, 7], "epsilon": 1},
    {"statistic": "histogram", "columns": ["age"], "bins": [18, 30, 50, 94], "by": "region",
     "by_keys": ["north", "east"], "epsilon": 1},
    {"statistic": "crosstab", "columns": ["region", "age"], "keys": [["north", "south"], None],
     "bins": [None, [0, 40, 95]], "accuracy": 20},
    {"statistic": "sum", "columns": ["income"], "bounds": [0, 100], "epsilon": 1},
    {"statistic": "mean", "columns": ["income"], "bounds": [-10, 100], "by": "code", "by_keys": [1, 3], "epsilon": 1},
    {"statistic": "median", "columns": ["age"], "bounds": [0, 100], "epsilon": 1},
    {"statistic": "quantile", "columns": ["income"], "bins": [0, 20, 40, 60, 80, 100], "alpha": 0.25, "epsilon": 1},
]


@pytest.fixture
def linked_project(tmp_path):
    df = data.frame()
    folder = data.write_parts(df, tmp_path / "registry")
    project = Project.create(tmp_path / "p.dpdesk")
    project.add_dataset("copy", df)  # the same rows imported, for comparison
    ds = linked.link_dataset(project, str(folder / "*.parquet"))
    yield project, ds, df, folder
    project.close()


def test_linking_records_path_schema_rows_and_fingerprint(linked_project):
    project, ds, df, folder = linked_project
    assert ds.name == "registry"  # a glob is named after its folder
    assert ds.n_rows == len(df) and ds.columns == list(df.columns)
    assert linked.is_linked(ds) and not linked.is_linked(project.datasets()[0])
    link, fp = linked.link_of(ds), linked.fingerprint_of(ds)
    assert link.engine == "duckdb" and link.format == "parquet" and link.source.endswith("registry/*.parquet")
    assert [f.path for f in fp.files] == ["part-0.parquet", "part-1.parquet", "part-2.parquet"]
    assert fp.content and fp.rows == len(df) and ds.sha256 == fp.content
    kinds = {c.name: c.kind for c in linked.schema_of(ds).columns}
    assert kinds == {"person": "number", "region": "text", "age": "number", "income": "number", "code": "number"}
    assert ds.report["linked"]["respondents"]["rows"] == len(df)  # computed in the engine
    assert project.dataset_frame(ds.name).empty  # nothing copied


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: r["statistic"] + "-" + "-".join(r.get("columns", [])))
def test_the_engines_aggregates_equal_the_imported_copys(linked_project, request_):
    """Nulls, NaN, infinities and values outside the keys are treated exactly as for imported data."""
    project, ds, df, _ = linked_project
    spec = release_spec(request_)
    typed, arrays = columns_of(spec.request, project.dataset_frame("copy"), "copy")
    expected = aggregate_arrays(typed, arrays)
    schema = linked.schema_of(ds)
    ltyped = lq.typed_keys(spec.request, schema, ds.name)
    source = linked.open_source(project, ds.name)
    try:
        got = source.aggregate(lq.query_for(ltyped, schema, ds.name))
    finally:
        source.close()
    for key, value in expected.items():
        assert np.asarray(getattr(got, key)).astype(object).tolist() == np.asarray(value).astype(object).tolist(), key


def test_a_release_is_charged_recorded_and_shaped_as_for_imported_data(linked_project):
    project, ds, _, _ = linked_project
    ledger.set_budget(project, 2)
    req = {"statistic": "histogram", "columns": ["region"], "keys": ["north", "south"], "epsilon": 0.5}
    on_copy = ledger.release(project, req, dataset="copy")
    entry = ledger.release(project, req, dataset=ds.name)
    assert set(entry.result) == set(on_copy.result) and entry.request == on_copy.request
    assert entry.mechanism == on_copy.mechanism and entry.cost["epsilon"] == "1/2"
    source = entry.noise_params["source"]
    assert source["engine"] == "duckdb" and source["fingerprint"] == linked.fingerprint_of(ds).content
    assert entry.dataset_sha256 == ds.sha256
    assert ledger.budget_status(project).remaining_epsilon == 1
    again = ledger.release(project, req, dataset=ds.name)
    assert again.replayed and again.values == entry.values  # never re-noised, costs nothing
    assert ledger.budget_status(project).remaining_epsilon == 1
    assert ledger.verify_ledger(project).ok


def _nothing_spent(project, before):
    assert len(ledger.ledger(project)) == before
    status = ledger.budget_status(project)
    assert status.remaining_epsilon == status.total_epsilon


@pytest.mark.parametrize("request_, words", [
    ({"statistic": "sum", "columns": ["salary"], "bounds": [0, 1], "epsilon": 0.1}, "no column 'salary'"),
    ({"statistic": "count", "epsilon": 0.1, "identifier": "household"}, "no column 'household'"),
    ({"statistic": "mean", "columns": ["region"], "bounds": [0, 1], "epsilon": 0.1}, "needs a numeric column"),
    ({"statistic": "histogram", "columns": ["code"], "keys": ["one"], "epsilon": 0.1}, "holds numbers"),
])
def test_a_request_the_schema_cannot_answer_is_refused_before_the_engine(linked_project, request_, words):
    project, ds, _, _ = linked_project
    ledger.set_budget(project, 1)
    with pytest.raises(DataError, match=words) as err:
        ledger.release(project, request_, dataset=ds.name)
    assert "\n" not in str(err.value)
    _nothing_spent(project, 0)


def test_missing_paths_and_empty_globs_are_one_line_and_link_nothing(tmp_path):
    project = Project.create(tmp_path / "q.dpdesk")
    with pytest.raises(DataError, match="does not exist"):
        linked.link_dataset(project, str(tmp_path / "nothing.parquet"))
    with pytest.raises(DataError, match="matches no file"):
        linked.link_dataset(project, str(tmp_path / "*.parquet"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="holds no Parquet or CSV"):
        linked.link_dataset(project, str(tmp_path / "empty"))
    assert project.datasets() == []


@pytest.mark.parametrize("change, words", [("add", "added part-3.parquet"), ("remove", "removed part-1.parquet"),
                                           ("rewrite", "rewritten part-0.parquet")])
def test_a_changed_source_is_refused_with_nothing_spent_and_relinking_is_recorded(linked_project, change, words):
    project, ds, df, folder = linked_project
    ledger.set_budget(project, 1)
    if change == "add":
        shutil.copy(folder / "part-0.parquet", folder / "part-3.parquet")
    elif change == "remove":
        os.remove(folder / "part-1.parquet")
    else:
        data.write_parquet(df.iloc[:50], folder / "part-0.parquet")
    req = {"statistic": "count", "epsilon": 0.5}
    with pytest.raises(linked.SourceChanged, match=words) as err:
        ledger.release(project, req, dataset=ds.name)
    assert "--relink registry" in str(err.value) and "no budget was spent" in str(err.value)
    _nothing_spent(project, 0)
    entry = ledger.relink(project, ds.name)
    assert entry.mechanism == "relink" and entry.cost["epsilon"] == "0" and words in entry.result["changes"][0]
    fresh = next(d for d in project.datasets() if d.name == ds.name)
    assert fresh.n_rows == entry.result["after"]["rows"] and fresh.sha256 != ds.sha256
    released = ledger.release(project, req, dataset=ds.name)
    assert released.noise_params["source"]["fingerprint"] == fresh.sha256
    assert ledger.verify_ledger(project).ok and len(ledger.ledger(project)) == 2


def test_contributions_are_bounded_per_identifier_in_the_engine(linked_project):
    project, ds, df, _ = linked_project
    per_person = df.groupby("person").size()
    schema = linked.schema_of(ds)
    source = linked.open_source(project, ds.name)
    try:
        for k in (1, 2):
            spec = release_spec({"statistic": "count", "epsilon": 1, "identifier": "person", "max_rows": k})
            q = lq.query_for(spec.request, schema, ds.name, ("person", k))
            got = source.aggregate(q).cells[0]
            assert got == int(np.minimum(per_person, k).sum())
        # which rows are kept changes with the secret salt, not their number
        spec = release_spec({"statistic": "sum", "columns": ["age"], "bounds": [0, 100], "resolution": 1,
                             "epsilon": 1, "identifier": "person", "max_rows": 1})
        sums = {int(source.aggregate(lq.query_for(spec.request, schema, ds.name, ("person", 1))).sums[0])
                for _ in range(4)}
        assert len(sums) > 1
    finally:
        source.close()
    ledger.set_budget(project, 1)
    entry = ledger.release(project, {"statistic": "count", "epsilon": 0.5, "identifier": "person", "max_rows": 2},
                           dataset=ds.name)
    assert entry.noise_params["events"][0]["sensitivity"] == "2" and entry.cost["epsilon"] == "1/2"
    copy = ledger.release(project, {"statistic": "count", "epsilon": 0.25, "identifier": "person", "max_rows": 2},
                          dataset="copy")  # imported data are bounded the same way
    assert copy.noise_params["events"][0]["sensitivity"] == "2"


def test_bounding_many_persons_stays_within_the_engines_memory(tmp_path, monkeypatch):
    """Persons with one row each, three with several, blanks as one person, at a small memory limit: only
    those with more than k rows are windowed (a window partitioned by each of 30 million persons ran DuckDB
    out of its 512 MB; at this size the old query only spilled, 3x slower, so this checks the counts)."""
    import duckdb

    from dpdesk.project.linked import duckdb_source
    from dpdesk.project.linked.source import Link, Schema, Column

    path = tmp_path / "many.parquet"
    duckdb.connect().execute(
        "COPY (SELECT CASE WHEN i < 5 THEN NULL WHEN i < 15 THEN 7 WHEN i < 18 THEN 8 ELSE i END AS person, "
        f"(i % 50)::INTEGER AS region, i % 90 AS age FROM range(200000) t(i)) TO '{path}' (FORMAT parquet)")
    monkeypatch.setattr(duckdb_source, "MEMORY_LIMIT", "32MB")
    source = duckdb_source.DuckDBSource(Link(str(path), "parquet"))
    schema = Schema(tuple(Column(n, "BIGINT", "number") for n in ("person", "region", "age")))
    try:
        for k in (1, 2):
            spec = release_spec({"statistic": "count", "epsilon": 1, "identifier": "person", "max_rows": k})
            got = source.aggregate(lq.query_for(spec.request, schema, "many", ("person", k))).cells[0]
            assert got == (200000 - 18) + 3 * k  # blanks (5 rows), person 7 (10) and 8 (3): k rows each
    finally:
        source.close()


def test_cancel_stops_the_engines_running_query(linked_project):
    project, ds, _, _ = linked_project
    source = linked.open_source(project, ds.name)
    token = CancelToken()
    timer = threading.Timer(0.5, token.cancel)
    timer.start()
    try:
        with pytest.raises(Cancelled):
            source.run_sql("SELECT count(*) FROM {source}, range(4000000000) AS r(i) WHERE i % 7 = 3", {}, token)
    finally:
        timer.join()
        source.close()


def test_the_engine_draws_no_progress_bar_on_stdout(linked_project):
    """DuckDB's own progress bar (after 2 s of a query) goes to stdout, where it would break --json."""
    project, ds, _, _ = linked_project
    source = linked.open_source(project, ds.name)
    try:
        assert source.run_sql("SELECT current_setting('enable_progress_bar') FROM {source} LIMIT 1", {}) == [(False,)]
    finally:
        source.close()


def test_a_release_cancelled_after_its_reservation_spends_nothing(linked_project):
    project, ds, _, _ = linked_project
    ledger.set_budget(project, 1)
    token = CancelToken()

    def progress(stage):
        if stage == "checked":  # reserved; the engine's job is next
            token.cancel()

    with pytest.raises(Cancelled):
        ledger.release(project, {"statistic": "count", "epsilon": 0.5}, dataset=ds.name, progress=progress,
                       cancel=token)
    _nothing_spent(project, 0)
    from dpdesk.project.ledger import reservations

    assert reservations.live_events(project.path, []) == []  # given back


def test_a_live_reservation_counts_and_a_dead_one_does_not(linked_project):
    from dpdesk.mechanisms import accounting
    from dpdesk.project.ledger import reservations

    project, ds, _, _ = linked_project
    ledger.set_budget(project, 1)
    held = reservations.reserve(project.path, None, [accounting.PureDP(Fraction(4, 5))])
    try:
        with pytest.raises(ledger.BudgetExceeded):
            ledger.release(project, {"statistic": "count", "epsilon": 0.5}, dataset="copy")
        assert not ledger.preview(project, {"statistic": "count", "epsilon": 0.5}, dataset=ds.name).fits
    finally:
        held.give_back()
    # a reservation whose process died: its file is there, its lock is not
    dead = reservations.reserve(project.path, None, [accounting.PureDP(Fraction(4, 5))])
    os.close(dead.fd)  # the lock goes with the descriptor, as with a killed process
    dead.fd = None
    assert dead.path.exists()
    assert ledger.release(project, {"statistic": "count", "epsilon": 0.5}, dataset=ds.name).cost["epsilon"] == "1/2"
    assert not dead.path.exists()  # removed by the next release's check


def test_a_csv_is_linked_with_the_import_options(tmp_path):
    path = tmp_path / "survey data" / "answers.csv"
    path.parent.mkdir()
    path.write_text("id;answer;score\n1;Yes;1,5\n2;No;2,5\n3;;3\n", encoding="latin-1")
    project = Project.create(tmp_path / "c.dpdesk")
    ds = linked.link_dataset(project, str(path), options={"delimiter": ";", "decimal": ",", "encoding": "latin-1"})
    assert ds.name == "answers" and ds.n_rows == 3
    kinds = {c.name: (c.kind) for c in linked.schema_of(ds).columns}
    assert kinds == {"id": "number", "answer": "text", "score": "number"}
    ledger.set_budget(project, 1)
    entry = ledger.release(project, {"statistic": "histogram", "columns": ["answer"], "keys": ["Yes", "No"],
                                     "scale": 1000}, dataset=ds.name)
    assert len(entry.values) == 2
    with pytest.raises(DataError, match="UTF-8, UTF-16 or Latin-1"):
        linked.link_dataset(project, str(path), name="x", options={"encoding": "cp1252"})


def test_the_sample_is_drawn_in_the_engine_and_never_stored(linked_project):
    project, ds, df, _ = linked_project
    rows = linked.sample(project, ds.name, 5)
    assert len(rows) == 5 and set(rows[0]) == set(df.columns)
    assert project.dataset_frame(ds.name).empty


def test_randomized_response_items_are_counted_in_the_engine(tmp_path):
    from dpdesk.project.analysis.estimates import analyze
    from dpdesk.project.example import example_folder

    csv = example_folder() / "students.csv"
    project = Project.create(tmp_path / "rr.dpdesk")
    ds = linked.link_dataset(project, str(csv), name="big")
    from dpdesk.mechanisms import rr

    design = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
    project.add_item("cheating", design, question="Cheated in an exam?", column="cheat_rr",
                     codes={"yes": ["Yes"], "no": ["No"]})
    (res,) = analyze(project, dataset=ds.name)
    assert res.mapping.n_used == 914  # as from the imported file (tests/cli/test_cli.py): 26.6%, 20.4% to 32.9%
    assert (round(res.estimate.prevalence, 3), round(res.estimate.ci[0], 3), round(res.estimate.ci[1], 3)) == (
        0.266, 0.204, 0.329)


def test_copies_releasing_from_the_same_linked_source_charge_each_other(tmp_path, monkeypatch):
    """The copies' check reads a linked dataset's respondents as its engine computed them (its rows are not
    in the file): without that, a copy's release from linked data, split off after a release from other data,
    would not count here."""
    for var, sub in (("DPDESK_SETTINGS_DIR", "settings"), ("XDG_CONFIG_HOME", "config")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    folder = data.write_parts(data.frame(100), tmp_path / "reg", parts=1)
    a, b = tmp_path / "A.dpdesk", tmp_path / "B.dpdesk"
    with Project.create(a) as p:
        p.add_dataset("pilot", data.frame(30, seed=5))
        ledger.set_budget(p, 1)
        ledger.release(p, {"statistic": "count", "epsilon": "0.25"}, dataset="pilot")
        linked.link_dataset(p, str(folder))
    shutil.copyfile(a, b)
    with Project.open(a) as p:
        ledger.release(p, {"statistic": "count", "epsilon": "0.25"}, dataset="reg")
    with Project.open(b) as p:
        ledger.accept_rollback(p, note="a copy")
        assert ledger.budget_status(p).spent_epsilon == Fraction(1, 2)  # the shared 0.25 and A's linked 0.25
        with pytest.raises(ledger.BudgetExceeded):
            ledger.release(p, {"statistic": "count", "epsilon": "0.6"}, dataset="reg")


def test_the_respondents_sketch_is_the_bottom_k_of_the_engines_row_hashes(tmp_path):
    """The engine's sketch is the bottom k of the same row hashes an imported copy has (issue 31), found above
    the duplicates that fill the first top-k, and its rows digest is the import's."""
    from dpdesk.project.linked import people
    from dpdesk.project.linked.duckdb_source import DuckDBSource
    from dpdesk.project.linked.source import Link
    from dpdesk.project.people import sketch
    from dpdesk.project.people.fingerprint import _column_texts

    df = data.frame(300)
    df = df.loc[df.index.repeat(np.where(np.arange(len(df)) % 3 == 0, 9, 1))].reset_index(drop=True)  # duplicates
    path = data.write_parquet(df, tmp_path / "dups.parquet")
    columns, blank = [], np.ones(len(df), dtype=bool)
    for name in df.columns:
        _t, texts, index = _column_texts(df[name], people=True)
        blank &= np.array([t == "" for t in texts])[index]
        columns.append((sketch.value_hashes(texts), index))
    exact = sorted(set(int(h) for h in sketch.row_hashes_from(columns, len(df), blank)))
    source = DuckDBSource(Link(str(path), "parquet"))
    try:
        for k in (4, 50, 256):
            sig = people.signature(source, k=k)
            assert [int(h, 16) for h in sig["people"]["sketch"]] == exact[:k]
        assert sig["rows"] == len(df) and abs(sig["distinct"] - len(exact)) <= 0.05 * len(exact)
        assert sig["fingerprint"] == respondents_signature(df)["people"]["fp"]
    finally:
        source.close()
