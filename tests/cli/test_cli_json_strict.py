"""Every ``--json`` is strict JSON (issue 29): no Infinity or NaN, which strict parsers reject; the local ε
of a design that can reveal the truth is null with a note. Rows keep the item's short name ("name") and
the category ("category") beside the human label ("item")."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from dpdesk.cli import json_out
from tests.helpers.cli import run
from dpdesk.project.example import example_folder

CSV = example_folder() / "students.csv"


def strict_loads(text: str):
    def refuse(word):
        raise ValueError(f"not strict JSON: {word}")

    return json.loads(text, parse_constant=refuse)


@pytest.fixture
def project(tmp_path, capsys):
    path = tmp_path / "survey.dpdesk"
    for args in (["new", path], ["import", path, CSV],
                 # 'no' is never forced: a 'no' reveals a true 'no', so the local epsilon is infinite
                 ["item", path, "cheating", "--design", "forced", "--param", "p_truth=0.5", "--param", "p_yes=0.5",
                  "--param", "p_no=0", "--column", "cheat_rr", "--codes", "yes=Yes", "--codes", "no=No",
                  "--question", "Cheated in an exam?"],
                 ["item", path, "exam", "--design", "forced", "--param", "p_truth=0.5", "--param", "p_yes=0.25",
                  "--param", "p_no=0.25", "--column", "cheat_rr", "--codes", "yes=Yes", "--codes", "no=No"],
                 ["budget", path, "--set", "1"]):
        code, _, err = run(capsys, *args)
        assert code == 0, err
    return path


def test_every_json_output_parses_strictly(project, tmp_path, capsys):
    outputs = {}
    for args in (["estimate", project, "--json"], ["estimate", project, "--by", "faculty", "--json"],
                 ["datasets", project, "--json"], ["import", project, CSV, "--name", "again", "--json"],
                 ["budget", project, "--json"], ["design-sample", project, "--json"],
                 ["release", project, "--stat", "count", "--epsilon", "0.1", "--json"],
                 ["release", project, "--stat", "count", "--epsilon", "0.1", "--preview", "--json"],
                 ["ledger", project, "--json"], ["text", project, "cheating", "--json"],
                 ["regress", project, "exam", "--predictors", "age", "--json", "--no-save"],
                 ["share", project, "--sensitive", "exam_stress", "--json"]):
        code, out, err = run(capsys, *args)
        assert code == 0, (args, err)
        outputs[args[0] + " ".join(map(str, args[2:]))] = strict_loads(out)
    row = outputs["estimate--json"]["Estimates"][0]
    assert row["local epsilon"] is None and row["notes"] == {"local epsilon": "infinite"}
    assert row["name"] == "cheating" and row["item"] == "Cheated in an exam?" and row["category"] is None
    by = outputs["estimate--by faculty --json"]["By faculty"]
    assert {r["name"] for r in by} == {"cheating", "exam"} and all("category" in r for r in by)


def test_the_helper_never_writes_infinity_or_nan():
    text = json_out.dumps({"a": float("inf"), "b": [np.float64("nan"), 1.5], "c": np.int64(3), "d": -np.inf})
    data = strict_loads(text)
    assert data == {"a": None, "b": [None, 1.5], "c": 3, "d": None,
                    "notes": {"a": "infinite", "d": "-infinite"}}


def test_rows_of_categories_keep_name_and_category(tmp_path):
    from dpdesk.mechanisms import rr
    from dpdesk.project import Project
    from dpdesk.project.analysis.estimates import analyze
    from dpdesk.project.analysis.result_tables import estimate_rows, subgroup_rows

    rng = np.random.default_rng(5)  # test data only
    frame = pd.DataFrame({"party": rng.choice(["A", "B", "C"], 300), "region": rng.choice(["N", "S"], 300)})
    with Project.create(tmp_path / "p.dpdesk") as p:
        p.add_dataset("w", frame)
        p.add_item("vote", rr.design("krr", categories=["A", "B", "C"], epsilon=2.0), column="party",
                   codes={"A": ["A"], "B": ["B"], "C": ["C"]}, question="Which party?")
        results = analyze(p, by="region")
    rows = estimate_rows(results, keys=True)
    assert [(r["name"], r["category"], r["item"]) for r in rows] == [
        ("vote", c, f"Which party?: {c}") for c in "ABC"]
    sub = subgroup_rows(results, keys=True)
    assert all(r["name"] == "vote" and r["category"] in {"A", "B", "C"} for r in sub)
    assert "name" not in estimate_rows(results)[0]  # the workbook's tables are unchanged
