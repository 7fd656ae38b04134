"""dpdesk import --link, datasets --json, release on a linked dataset, and every bad input in one line."""

from __future__ import annotations

import json

import pytest

from tests.helpers import linked as data
from tests.helpers.cli import run


@pytest.fixture
def project(tmp_path, capsys):
    df = data.frame(300)
    data.write_parts(df, tmp_path / "census")
    path = tmp_path / "p.dpdesk"
    assert run(capsys, "new", path)[0] == 0
    code, out, err = run(capsys, "import", path, tmp_path / "census", "--link")
    assert code == 0, err
    assert "Linked 'census' (not copied)" in out and "300 rows in 3 files" in out
    assert run(capsys, "budget", path, "--set", "2")[0] == 0
    return path


def test_datasets_json_reports_rows_engine_and_source(project, capsys):
    code, out, _ = run(capsys, "datasets", project, "--json")
    (row,) = json.loads(out)
    assert code == 0 and row["rows"] == 300 and row["linked"] is True and row["engine"] == "duckdb"
    assert row["source"].endswith("census") and row["files"] == 3 and row["fingerprint_kind"] == "content"
    code, out, _ = run(capsys, "datasets", project, "--verify", "census")
    assert code == 0 and "match the recorded fingerprint" in out


def test_release_json_has_the_shape_of_an_imported_release(project, tmp_path, capsys):
    args = ["--stat", "histogram", "--columns", "region", "--keys", "north", "south", "--epsilon", "0.5", "--json"]
    code, out, err = run(capsys, "release", project, "--dataset", "census", *args)
    assert code == 0, err
    linked_entry = json.loads(out)
    imported = tmp_path / "i.dpdesk"
    csv = tmp_path / "rows.csv"
    data.frame(300).to_csv(csv, index=False)
    run(capsys, "new", imported)
    run(capsys, "import", imported, csv)
    run(capsys, "budget", imported, "--set", "2")
    code, out, _ = run(capsys, "release", imported, *args)
    imported_entry = json.loads(out)
    assert set(linked_entry) == set(imported_entry)
    assert set(linked_entry["result"]) == set(imported_entry["result"])
    assert linked_entry["request"] == imported_entry["request"]
    assert linked_entry["noise_params"]["source"]["engine"] == "duckdb"
    code, out, _ = run(capsys, "release", project, "--dataset", "census", "--stat", "quantile", "--alpha", "0.25",
                       "--columns", "age", "--bounds", "0", "100", "--epsilon", "0.25")
    assert code == 0 and "quantile of age" in out


@pytest.mark.parametrize("argv, words", [
    (["import", "{p}", "{t}/nowhere.parquet", "--link"], "does not exist"),
    (["import", "{p}", "{t}/census/*.csv", "--link"], "matches no file"),
    (["release", "{p}", "--dataset", "census", "--stat", "sum", "--columns", "salary", "--bounds", "0", "1",
      "--epsilon", "0.1"], "no column 'salary'"),
    (["import", "{p}", "hdfs://namenode/census", "--link", "--name", "s", "--engine", "spark", "--spark-master",
      "spark://127.0.0.1:9"], "does not answer"),
    (["import", "{p}", "{t}/census", "--link", "--name", "s", "--engine", "spark", "--spark-master",
      "spark://127.0.0.1:9"], "does not answer"),
    (["import", "{p}", "{t}/census", "--link", "--name", "s", "--engine", "spark", "--spark-master", "yarn"],
     "HADOOP_CONF_DIR"),
    (["import", "{p}", "{t}/census", "--engine", "spark"], "add --link"),
])
def test_bad_input_is_one_line_and_spends_nothing(project, tmp_path, capsys, monkeypatch, argv, words):
    monkeypatch.setattr("dpdesk.project.linked.engines.engine_problem", lambda engine, master=None: None)
    code, out, err = run(capsys, *[a.format(p=project, t=tmp_path) for a in argv])
    assert code == 1 and words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, out, _ = run(capsys, "budget", project, "--json")
    assert json.loads(out)["releases"] == 0


def test_spark_without_java_or_pyspark_says_how_to_add_it(project, tmp_path, capsys, monkeypatch):
    from dpdesk.project.linked import engines

    monkeypatch.setattr(engines, "_has_pyspark", lambda: False)
    code, _, err = run(capsys, "import", project, tmp_path / "census", "--link", "--name", "s", "--engine", "spark")
    assert code == 1 and 'pip install "dpdesk[spark]"' in err and len(err.strip().splitlines()) == 1
    monkeypatch.setattr(engines, "_has_pyspark", lambda: True)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "no-java"))
    code, _, err = run(capsys, "import", project, tmp_path / "census", "--link", "--name", "s", "--engine", "spark")
    assert code == 1 and "Spark needs Java 17 or later" in err and "openjdk-17-jre-headless" in err


def test_a_changed_source_is_refused_then_relinked(project, tmp_path, capsys):
    data.write_parquet(data.frame(10), tmp_path / "census" / "part-9.parquet")
    code, _, err = run(capsys, "release", project, "--dataset", "census", "--stat", "count", "--epsilon", "0.1")
    assert code == 1 and "added part-9.parquet" in err and "--relink census" in err
    code, out, _ = run(capsys, "import", project, tmp_path / "census", "--link", "--relink", "census")
    assert code == 0 and "added part-9.parquet" in out and "Recorded in the ledger as #1" in out
    code, out, _ = run(capsys, "release", project, "--dataset", "census", "--stat", "count", "--epsilon", "0.1")
    assert code == 0
    code, out, _ = run(capsys, "ledger", project)
    assert "relinked 'census'" in out and "nothing spent" in out and "Ledger intact" in out


def test_a_cluster_master_needs_paths_the_cluster_sees(monkeypatch, tmp_path):
    from dpdesk.errors import DpdeskError
    from dpdesk.project.linked import engines, spark_source

    monkeypatch.setattr(engines, "engine_problem", lambda engine, master=None: None)
    monkeypatch.setattr(spark_source, "check_master", lambda master: None)  # a master that answers
    with pytest.raises(DpdeskError, match="cannot read .* on this machine"):
        engines.check_engine("spark", "spark://cluster:7077", str(tmp_path))
    engines.check_engine("spark", "spark://cluster:7077", "hdfs://namenode/census")  # fine
    engines.check_engine("spark", "local[2]", str(tmp_path))  # local reads local files


def test_an_import_of_linked_people_is_charged_their_budget_from_the_command_line(tmp_path, capsys):
    """Issue 31: link F, release, then import F (as CSV, a column renamed) into another project: the same people,
    so the linked release is charged there and a release beyond what is left is refused."""
    df = data.frame(300)
    data.write_parquet(df, tmp_path / "registry.parquet")
    df.rename(columns={"income": "earnings"}).to_csv(tmp_path / "copy.csv", index=False)
    a, b = tmp_path / "a.dpdesk", tmp_path / "b.dpdesk"
    for argv in (["new", a], ["import", a, tmp_path / "registry.parquet", "--link"], ["budget", a, "--set", "1"],
                 ["release", a, "--dataset", "registry", "--stat", "count", "--epsilon", "0.7"],
                 ["new", b], ["import", b, tmp_path / "copy.csv"], ["budget", b, "--set", "1"]):
        code, _, err = run(capsys, *argv)
        assert code == 0, (argv, err)
    code, out, _ = run(capsys, "budget", b, "--json")
    assert code == 0 and json.loads(out)["spent_epsilon"] == "7/10"
    code, _, err = run(capsys, "release", b, "--stat", "count", "--epsilon", "0.5")
    assert code != 0 and "budget" in err.lower() and "Traceback" not in err


def test_linking_says_which_direct_identifiers_it_left_out_and_refuses_to_release_them(tmp_path, capsys):
    df = data.frame(100)
    df["email"] = [f"p{i}@example.org" for i in range(len(df))]
    data.write_parquet(df, tmp_path / "wave.parquet")
    path = tmp_path / "p.dpdesk"
    run(capsys, "new", path)
    code, out, err = run(capsys, "import", path, tmp_path / "wave.parquet", "--link")
    assert code == 0, err
    assert "Left out the column 'email': a direct identifier (e-mail address (by column name))" in out
    (row,) = json.loads(run(capsys, "datasets", path, "--json")[1])
    assert row["excluded_columns"] == [{"column": "email", "reason": "direct identifier: e-mail address (by column "
                                                                       "name)"}]
    run(capsys, "budget", path, "--set", "1")
    code, out, err = run(capsys, "release", path, "--dataset", "wave", "--stat", "histogram", "--columns", "email",
                         "--keys", "x", "--epsilon", "0.1")
    assert code != 0 and "is a direct identifier" in err and "no budget was spent" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
