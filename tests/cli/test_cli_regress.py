"""``dpdesk regress``: the APA-style table, plain sentences, JSON, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dpdesk.cli import main
from dpdesk.project.example import example_folder
from tests.helpers.cli import run

CSV = example_folder() / "students.csv"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli_regress") / "survey.dpdesk"
    for args in (["new", path], ["import", path, CSV],
                 ["item", path, "exam_cheating", "--design", "forced", "--param", "p_truth=0.5", "--param",
                  "p_yes=0.25", "--param", "p_no=0.25", "--column", "cheat_rr", "--codes", "yes=Yes", "--codes",
                  "no=No", "--question", "In the last year, have you cheated in an exam?"],
                 ["item", path, "drugs", "--design", "sld", "--param", "p1=0.3", "--param", "p2=0.7", "--column",
                  "drug_sld", "--codes", "yes=Yes", "--codes", "no=No", "--group-column", "sld_group",
                  "--group-codes", "1=1", "--group-codes", "2=2"]):
        assert main([str(a) for a in args]) == 0
    return path


def test_text_output_has_the_table_tests_and_sentences(project, capsys):
    code, out, err = run(capsys, "regress", project, "exam_cheating", "--predictors", "age", "exam_stress", "faculty",
                         "--ref", "faculty=Arts", "--center", "age")
    assert code == 0 and err == ""
    assert "Predictors: age (centred at 22.52), exam_stress, faculty (categorical, reference Arts)" in out
    assert out.startswith("Logistic regression of \u201cIn the last year, have you cheated in an exam?\u201d")
    header = next(line for line in out.splitlines() if line.startswith("Term"))
    assert header.split() == ["Term", "b", "SE", "z", "p", "OR", "95%", "CI", "(OR)", "LR", "χ²", "p", "(LR)"]
    assert "faculty: χ²(3) = " in out and "Model against the intercept only: LR χ²(5) = " in out
    assert "n = 914, log-likelihood = " in out and "AIC = " in out and "BIC = " in out
    question = "\u201cIn the last year, have you cheated in an exam?\u201d"  # the item's question, not its name
    assert f"Each additional year of age multiplies the odds of a true 'yes' to {question} by 0.83 (95% CI 0.69 " \
           "to 0.98)." in out
    assert "Each additional unit of exam_stress multiplies the odds" in out
    assert "times as high with faculty Law as with Arts" in out
    assert f"914 of 1,200 rows were used; 286 had no usable answer to {question}." in out
    assert "faculty: Law (vs Arts)" in out and "faculty[Law]" not in out
    assert out.rstrip().endswith("Codes in the data: item exam_cheating.")


def test_json_output_is_the_full_result(project, capsys):
    code, out, _ = run(capsys, "regress", project, "exam_cheating", "--predictors", "age", "gender",
                       "--interaction", "age:gender", "--center", "age", "--json")
    assert code == 0
    record = json.loads(out)
    terms = [row["term"] for row in record["fit"]["coefficients"]]
    assert terms[:2] == ["(Intercept)", "age"] and terms[-1] == "age:gender[male]"
    assert record["interactions"] == ["age:gender"] and record["n_used"] == 914
    assert record["fit"]["ci_method"] == "profile likelihood"
    assert {p["column"]: p["kind"] for p in record["predictors"]} == {"age": "numeric", "gender": "categorical"}


def test_a_two_group_item_reports_its_nuisance(project, capsys):
    code, out, _ = run(capsys, "regress", project, "drugs", "--predictors", "faculty", "--ref", "faculty=Arts")
    assert code == 0
    assert "t = " in out and "test of t = 1: LR χ²(1) = " in out
    assert "of carriers answered honestly (the SLD's t)." in out


@pytest.mark.parametrize("args, message", [
    (["exam_cheating", "--predictors", "age", "--ref", "faculty"], "--ref 'faculty' must be COLUMN=LEVEL"),
    (["exam_cheating", "--predictors", "agee"], "no column 'agee'"),
    (["nothing", "--predictors", "age"], "no item 'nothing'"),
    # the few 'diverse' students (3%) cannot carry an age slope of their own: separation
    (["drugs", "--predictors", "age", "faculty", "gender", "--interaction", "age:gender"],
     "'age:gender[diverse]' runs off towards -infinity"),
])
def test_errors_are_one_line(project, capsys, args, message):
    code, out, err = run(capsys, "regress", project, *args)
    assert code == 1 and out == ""
    assert err.startswith("dpdesk regress: ") and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_the_installed_command_runs(project):
    run_ = subprocess.run([sys.executable, "-m", "dpdesk", "regress", str(project), "exam_cheating", "--predictors",
                           "exam_stress"], capture_output=True, text=True, timeout=120)
    assert run_.returncode == 0, run_.stderr
    assert "Each additional unit of exam_stress" in run_.stdout


def test_p_values_in_apa_style():
    from dpdesk.project.regression.text import p_cell, p_text

    assert (p_text(0.0002), p_cell(0.0002)) == ("p < .001", "< .001")
    assert (p_text(0.0344), p_cell(0.0344)) == ("p = .034", ".034")
    assert p_cell(1.0) == "1.000" and p_cell(float("nan")) == "n/a"


def test_direct_answers_as_a_comparison_group(project, capsys):
    code, out, _ = run(capsys, "regress", project, "exam_cheating", "--predictors", "mode", "--ref", "mode=direct",
                       "--direct", "cheat_direct")
    assert code == 0
    assert "n = 1,200 (286 asked directly)" in out
    assert "times as high with mode randomized as with direct" in out


def test_the_guide_shows_what_the_command_prints(project, capsys):
    """docs/guide/regression.md's worked example is the real output (from the table on)."""
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "regression.md").read_text(encoding="utf-8")
    block = guide.split("```\nLogistic regression of ", 1)[1].split("```", 1)[0]
    shown = block[block.index("Term"):].strip().splitlines()
    code, out, _ = run(capsys, "regress", project, "exam_cheating", "--predictors", "age", "exam_stress", "faculty",
                       "--ref", "faculty=Arts", "--center", "age")
    assert code == 0
    printed = out.splitlines()
    assert [line for line in shown if line not in printed] == []
