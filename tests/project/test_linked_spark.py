"""Linked datasets on Spark local[2]: the same exact aggregates as DuckDB's, the same ledger, cancel.

One Spark session for the module (20-40 s to start). Skipped, with the reason, only where
pyspark or Java 17 is missing; ``make test``'s setup installs both (tools/venv.sh, tools/syslibs.sh).
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from dpdesk.mechanisms.central.spec import release_spec
from dpdesk.project import Project, ledger, linked
from dpdesk.project.linked import query as lq
from dpdesk.project.linked.engines import engine_problem
from dpdesk.project.linked.source import CancelToken, Cancelled
from tests.helpers import linked as data

_PROBLEM = engine_problem("spark", "local[2]")
pytestmark = pytest.mark.skipif(_PROBLEM is not None, reason=f"Spark cannot run here: {_PROBLEM}")

REQUESTS = [  # one query each: Spark takes seconds per job
    {"statistic": "crosstab", "columns": ["code", "age"], "keys": [[1, 2], None], "bins": [None, [0, 40, 95]],
     "epsilon": 1},
    {"statistic": "mean", "columns": ["income"], "bounds": [-10, 100], "by": "region", "by_keys": ["north", "west"],
     "epsilon": 1},
    {"statistic": "quantile", "columns": ["income"], "bins": [0, 25, 50, 75, 100], "alpha": 0.75, "epsilon": 1},
]


@pytest.fixture(scope="module")
def spark_project(tmp_path_factory):
    from dpdesk.project.linked.spark_source import stop_sessions

    tmp = tmp_path_factory.mktemp("spark")
    df = data.frame(400)
    folder = data.write_parts(df, tmp / "panel", parts=2)
    project = Project.create(tmp / "s.dpdesk")
    spark = linked.link_dataset(project, str(folder), name="on_spark", engine="spark", master="local[2]")
    duck = linked.link_dataset(project, str(folder), name="on_duckdb")
    yield project, spark, duck, df
    project.close()
    stop_sessions()


def _aggregate(project, ds, request):
    spec = release_spec(request)
    schema = linked.schema_of(ds)
    source = linked.open_source(project, ds.name)
    try:
        return source.aggregate(lq.query_for(lq.typed_keys(spec.request, schema, ds.name), schema, ds.name))
    finally:
        source.close()


def test_linking_on_spark_records_the_same_source(spark_project):
    _, spark, duck, df = spark_project
    assert spark.n_rows == duck.n_rows == len(df)
    assert linked.link_of(spark).engine == "spark" and linked.link_of(spark).master == "local[2]"
    assert spark.sha256 == duck.sha256  # the same files: the same content fingerprint
    assert [c.kind for c in linked.schema_of(spark).columns] == [c.kind for c in linked.schema_of(duck).columns]


@pytest.mark.parametrize("request_", REQUESTS, ids=lambda r: r["statistic"])
def test_spark_counts_exactly_what_duckdb_counts(spark_project, request_):
    project, spark, duck, _ = spark_project
    a, b = _aggregate(project, spark, request_), _aggregate(project, duck, request_)
    for key in ("cells", "sums", "counts", "ranks"):
        x, y = getattr(a, key), getattr(b, key)
        assert (x is None) == (y is None)
        if x is not None:
            assert np.asarray(x).astype(object).tolist() == np.asarray(y).astype(object).tolist(), key


def test_spark_bounds_contributions_as_duckdb_does(spark_project):
    """At most k rows per person: only persons with more rows are windowed, in Spark's SQL too."""
    project, spark, duck, df = spark_project
    per_person = df.groupby("person").size()
    spec = release_spec({"statistic": "count", "epsilon": 1, "identifier": "person", "max_rows": 2})
    for ds in (spark, duck):
        schema = linked.schema_of(ds)
        source = linked.open_source(project, ds.name)
        try:
            got = source.aggregate(lq.query_for(spec.request, schema, ds.name, ("person", 2))).cells[0]
        finally:
            source.close()
        assert got == int(np.minimum(per_person, 2).sum()), ds.name


def test_a_release_on_spark_is_in_the_same_ledger_within_its_half_width(spark_project):
    project, spark, _, df = spark_project
    ledger.set_budget(project, 5)
    entry = ledger.release(project, {"statistic": "histogram", "columns": ["region"], "keys": ["north", "south"],
                                     "accuracy": 25, "confidence": 0.99}, dataset=spark.name)
    assert entry.noise_params["source"]["engine"] == "spark"
    exact = [int((df["region"] == k).sum()) for k in ("north", "south")]
    assert all(abs(v - e) <= entry.half_width for v, e in zip(entry.values, exact))
    assert ledger.verify_ledger(project).ok


def test_cancel_stops_the_spark_job(spark_project):
    project, spark, _, _ = spark_project
    source = linked.open_source(project, spark.name)
    token = CancelToken()
    timer = threading.Timer(1.0, token.cancel)
    timer.start()
    try:
        with pytest.raises(Cancelled):
            source.run_sql("SELECT count(*) FROM {source} CROSS JOIN range(2000000000) AS r WHERE r.id % 7 = 3",
                           {}, token)
    finally:
        timer.join()
        source.close()


def test_spark_duckdb_and_an_import_give_one_respondents_sketch(spark_project, tmp_path):
    """Issue 31: one row hash in Python, DuckDB and Spark, for every type a Parquet or CSV column has (Spark's
    CSV reader infers booleans and dates where DuckDB's link reads numbers and text): the same sketch and rows
    digest, so the same people are recognised whichever engine or format holds them."""
    from dpdesk.project.linked import people
    from dpdesk.project.linked.source import Link
    from dpdesk.project.linked.spark_source import SparkSource
    from dpdesk.project.people.fingerprint import respondents_signature
    from tests.helpers.linked import people_frame

    _, spark, duck, df = spark_project
    recorded = [ds.report["linked"]["respondents"]["people"] for ds in (spark, duck)]
    assert recorded[0]["sketch"] == recorded[1]["sketch"] == respondents_signature(df)["people"]["sketch"]
    assert recorded[0]["fp"] == recorded[1]["fp"] == respondents_signature(df)["people"]["fp"]
    rich = people_frame(300)
    mine = respondents_signature(rich)["people"]
    rich.to_csv(tmp_path / "rich.csv", index=False)
    for path, fmt in ((data.write_parquet(rich, tmp_path / "rich.parquet"), "parquet"), (tmp_path / "rich.csv", "csv")):
        source = SparkSource(Link(str(path), fmt, "spark", "local[2]"))
        try:
            sig = people.signature(source)
        finally:
            source.close()
        assert sig["people"]["sketch"] == mine["sketch"] and sig["people"]["fp"] == mine["fp"], fmt
