"""Labels reach the output; blank subgroups are counted; pairwise p-values are adjusted (issue 20, 2-3)."""

import json
import shutil
import sqlite3
from pathlib import Path

import openpyxl
import pytest

from dpdesk.mechanisms import multiple_testing, rr
from dpdesk.project import Project
from dpdesk.project.analysis.estimates import analyze, results_bundle, stored_table, subgroup_rows
from dpdesk.project.export.results import export_results
from dpdesk.project.study.labels import MISSING, Labels
from dpdesk.project.reading.importing import import_file
from dpdesk.project.report.figures import figure_rows, report_figures
from dpdesk.project.analysis.subgroup_choice import project_subgroup_columns
from tests.helpers.cli import run

DATA = Path(__file__).resolve().parents[1] / "data"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "projects"


# ----------------------------------------------------------------------------- Holm and Bonferroni

# Values of R's p.adjust (Holm 1979: pmin(1, cummax((m - i + 1) * p[order]))), typed in as constants.
HOLM_CASES = [
    ([0.01, 0.04, 0.03, 0.005], [0.03, 0.06, 0.06, 0.02], [0.04, 0.16, 0.12, 0.02]),
    ([0.01, 0.02, 0.03, 0.04, 0.05], [0.05, 0.08, 0.09, 0.09, 0.09], [0.05, 0.10, 0.15, 0.20, 0.25]),
    ([0.3, 0.6], [0.6, 0.6], [0.6, 1.0]),
    ([0.02, 0.02, 0.5], [0.06, 0.06, 0.5], [0.06, 0.06, 1.0]),
    ([0.01, None, 0.02], [0.02, None, 0.02], [0.02, None, 0.04]),  # NA stays NA and does not count
]


@pytest.mark.parametrize("p, holm, bonferroni", HOLM_CASES)
def test_holm_and_bonferroni_match_r_p_adjust(p, holm, bonferroni):
    for method, expected in (("holm", holm), ("bonferroni", bonferroni), ("none", p)):
        got = multiple_testing.adjust(p, method)
        assert [g is None for g in got] == [e is None for e in expected]
        assert [g for g in got if g is not None] == pytest.approx([e for e in expected if e is not None], abs=1e-12)


def test_an_unknown_adjustment_is_refused_in_words():
    with pytest.raises(ValueError, match="holm, bonferroni, none"):
        multiple_testing.adjust([0.1], "fdr")


# ----------------------------------------------------------------------------- a study with blanks

def _study(tmp_path) -> Path:
    """200 answers to a forced-response item; gender with 22 blanks and a user code; a time stamp."""
    lines = ["StartDate,resp_answer,gender,faculty"]
    for i in range(200):
        gender = "" if i % 9 == 0 else ("1" if i % 2 else "2")
        answer = "Yes" if (i * 7) % 10 < 4 else "No"
        lines.append(f"2024-03-{1 + i % 28:02d} 10:00,{answer},{gender},{'ABC'[i % 3]}")
    csv = tmp_path / "study.csv"
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = tmp_path / "study.dpdesk"
    with Project.create(path) as p:
        import_file(p, csv, name="wave 1")
        p.add_item("cheat", rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25), column="resp_answer",
                   codes={"yes": ["Yes"], "no": ["No"]}, question="Have you ever cheated in an exam?")
        p.set_column_label("wave 1", "gender", "Gender", value_labels={1: "Female", 2: "Male"})
        p.set_column_label("wave 1", "faculty", "Faculty")
    return path


def test_blank_subgroup_values_are_a_missing_row_with_their_n(tmp_path):
    path = _study(tmp_path)
    with Project.open(path) as p:
        table = stored_table(p)
        blank = int(table.frame["gender"].isna().sum())
        (r,) = analyze(p, by="gender")
        assert set(r.subgroups.estimates) == {"Female", "Male"}  # value labels, never codes
        assert r.by_label == "Gender" and r.label == "Have you ever cheated in an exam?"
        rows = subgroup_rows([r])
        missing = [row for row in rows if row["subgroup"] == MISSING]
        assert len(missing) == 1 and missing[0]["n"] == blank == 23 and missing[0]["estimate"] is None
        groups = sum(row["n"] for row in rows if row["n"] is not None and row["subgroup"] != MISSING)
        assert groups + missing[0]["n"] == r.estimate.n  # every answer is in a row
        bundle = results_bundle(p, [r])
    assert "By Gender" in bundle.tables and bundle.metadata["subgroups: no value"] == {r.label: 23}
    assert bundle.metadata["subgroups by"] == "Gender (column gender)"  # the code where a reader needs it
    assert bundle.metadata["column labels"]["gender"] == "Gender"
    assert bundle.metadata["item labels"] == {"cheat": "Have you ever cheated in an exam?"}
    out = export_results(bundle, tmp_path / "out.xlsx", repro=False)
    book = openpyxl.load_workbook(out[0] if isinstance(out, (list, tuple)) else tmp_path / "out.xlsx")
    sheet = book["By Gender"]
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    head = values[0]
    assert "p-value" in head and "p-value (Holm)" in head  # the unadjusted p stays in exports
    row = next(v for v in values if v[head.index("subgroup")] == MISSING)
    assert row[head.index("n")] == 23


def test_cli_by_shows_the_missing_row_labels_and_both_p_values(tmp_path, capsys):
    path = _study(tmp_path)
    code, out, _ = run(capsys, "estimate", path, "--by", "faculty", "--json")
    assert code == 0
    tables = json.loads(out)
    rows = tables["By Faculty"]
    diffs = [r for r in rows if " - " in r["subgroup"]]
    assert len(diffs) == 3 and all("p-value" in r and "p-value (Holm)" in r for r in diffs)
    raw = [r["p-value"] for r in diffs]
    assert [r["p-value (Holm)"] for r in diffs] == pytest.approx(multiple_testing.adjust(raw, "holm"))
    code, out, _ = run(capsys, "estimate", path, "--by", "gender", "--adjust", "bonferroni")
    assert code == 0
    assert "By Gender" in out and MISSING in out and "p-value (Bonferroni)" in out
    assert "Female - Male" in out and "Have you ever cheated in an exam?" in out
    assert "23 respondents who answered have no value for Gender" in out
    assert "Bonferroni" in out and "test that every group of Gender has the same prevalence" in out
    code, out, _ = run(capsys, "estimate", path, "--by", "gender", "--adjust", "none", "--json")
    assert "p-value (Holm)" not in out and MISSING in out


def test_choosers_leave_out_time_stamps_and_rr_answers(tmp_path):
    path = _study(tmp_path)
    with Project.open(path) as p:
        offered = dict(project_subgroup_columns(p))
    assert "StartDate" not in offered and "resp_answer" not in offered
    assert offered["gender"] == "gender \u2014 Gender" and "faculty" in offered


def test_qualtrics_question_text_reaches_choosers_tables_and_plots(tmp_path, capsys):
    path = tmp_path / "q.dpdesk"
    with Project.create(path) as p:
        import_file(p, DATA / "qualtrics.csv", name="q")
        p.add_item("cannabis", rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25), column="Q1",
                   codes={"yes": ["Yes"], "no": ["No"]})
        offered = dict(project_subgroup_columns(p))  # no time stamps, bookkeeping or RR answers (Q1)
        assert offered == {"Q2": "Q2 \u2014 What is your age group?",
                           "Q3": "Q3 \u2014 Region - Selected Choice"}
        p.set_item_label("cannabis", "Cannabis use")
        results = analyze(p, by="Q2")
    figures = report_figures(figure_rows(results))
    assert figures["subgroups"].caption.endswith("by What is your age group?")  # the caption speaks in labels
    assert figure_rows(results).by == "What is your age group?"
    assert figure_rows(results).forest[0]["item"] == "Cannabis use"
    code, out, _ = run(capsys, "estimate", path, "--by", "Q2")
    assert code == 0 and "By What is your age group?" in out and "Cannabis use" in out


@pytest.mark.parametrize("name, column, label, values", [
    ("survey.sav", "rr1", "Have you ever shoplifted? (answer by the spinner)",
     {0: "No", 1: "Yes", 98: "Refused", 99: "Don't know"}),
    ("survey.dta", "rr1", "Answer", {0: "No", 1: "Yes"}),
])
def test_spss_and_stata_labels_are_stored_with_their_codes(tmp_path, capsys, name, column, label, values):
    path = tmp_path / "s.dpdesk"
    with Project.create(path) as p:
        import_file(p, DATA / name, name="s")
    with Project.open(path) as p:
        stored = p.column_labels("s")[column]
        assert stored["label"] == label and stored["value_labels"] == values and stored["source"] == "file"
        assert all(type(k) is int for k in stored["value_labels"])  # the column holds whole numbers
        labels = Labels.from_stored(p.column_labels("s"))
    grp = "grp"
    assert labels.choice(grp) in ("grp \u2014 Randomization group", "grp \u2014 Group")
    code, out, _ = run(capsys, "label", path, column)
    assert code == 0 and label in out and "1 = Yes" in out


def test_researcher_labels_round_trip_exactly_and_say_who_set_them(tmp_path):
    path = _study(tmp_path)
    odd = {1: "one", 1.5: "one and a half", "1": "text one", False: "no"}
    with Project.open(path) as p:
        p.set_column_label("wave 1", "faculty", value_labels=odd)
    with Project.open(path) as p:
        got = p.column_labels("wave 1")["faculty"]
    assert got["value_source"] == "researcher" and got["label"] == "Faculty"
    assert list(got["value_labels"].items()) == list(odd.items())
    assert [type(k) for k in got["value_labels"]] == [int, float, str, bool]


def test_v3_report_labels_migrate_with_typed_codes(tmp_path):
    copy = tmp_path / "v3.dpdesk"
    shutil.copy(FIXTURES / "v3.dpdesk", copy)
    conn = sqlite3.connect(copy)
    dataset_id, report = conn.execute("SELECT id, report FROM datasets").fetchone()
    columns = dict(conn.execute("SELECT name, dtype FROM dataset_columns WHERE dataset_id = ? AND position >= 0",
                                (dataset_id,)).fetchall())
    numeric = next(c for c, t in columns.items() if t.lower().startswith("int"))
    text = next(c for c, t in columns.items() if not t.lower().startswith(("int", "float")))
    data = json.loads(report)
    data["variable_labels"] = {numeric: "How old are you?"}
    data["value_labels"] = {numeric: {"1.0": "one", "2": "two"}, text: {"a": "Alpha"}}
    conn.execute("UPDATE datasets SET report = ? WHERE id = ?", (json.dumps(data), dataset_id))
    conn.commit()
    conn.close()
    with Project.open(copy) as p:
        name = p.datasets()[0].name
        stored = p.column_labels(name)
    assert stored[numeric]["label"] == "How old are you?"
    assert stored[numeric]["value_labels"] == {1: "one", 2: "two"}
    assert all(type(k) is int for k in stored[numeric]["value_labels"])
    assert stored[text]["value_labels"] == {"a": "Alpha"}


def test_regression_terms_use_labels_and_keep_their_code(tmp_path):
    from dpdesk.project.regression.report import RegressionSpec, fit_report

    path = _study(tmp_path)
    with Project.open(path) as p:
        p.set_item_label("cheat", "Exam cheating")
        report = fit_report(p, RegressionSpec("cheat", ["faculty"]))
    terms = [r["term"] for r in report.coefficients]
    assert any(t.startswith("Faculty: ") and "(vs " in t for t in terms), terms
    row = next(r for r in report.coefficients if r["term"].startswith("Faculty: "))
    assert row["term code"].startswith("faculty[") and report.coefficient(row["term code"]) is row
    assert report.title.startswith("Logistic regression of Exam cheating")
    assert any("with Faculty " in s for s in report.sentences)


def test_typed_value_labels_are_parsed_in_the_columns_type():
    import pandas as pd

    from dpdesk.errors import DataError
    from dpdesk.project.study.labels import parse_value_labels

    assert parse_value_labels("1 = Female; 2 = Male", pd.Series([1, 2])) == {1: "Female", 2: "Male"}
    assert [type(k) for k in parse_value_labels("1 = a; 2.5 = b", pd.Series([1.0, 2.5]))] == [float, float]
    assert parse_value_labels("A = Arts", pd.Series(["A"])) == {"A": "Arts"} and parse_value_labels("") == {}
    with pytest.raises(DataError, match="'1 = Female; 2 = Male'"):
        parse_value_labels("1 Female", pd.Series([1]), "gender")
    with pytest.raises(DataError, match="must be a number"):
        parse_value_labels("x = Female", pd.Series([1]), "gender")


def test_a_user_missing_code_of_the_subgroup_column_is_missing_too(tmp_path):
    import pandas as pd

    frame = pd.DataFrame({"answer": ["Yes", "No"] * 60, "region": [1, 2, 9] * 40})
    path = tmp_path / "m.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("d", frame, report={"missing_values": {"region": [9]},
                                          "value_labels": {"region": {1: "North", 2: "South", 9: "Refused"}}})
        p.add_item("q", rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25), column="answer",
                   codes={"yes": ["Yes"], "no": ["No"]})
        (r,) = analyze(p, by="region")
    assert set(r.subgroups.estimates) == {"North", "South"} and r.missing_n == 40  # 9 = refused: no subgroup
    rows = subgroup_rows([r])
    assert [row["n"] for row in rows if row["subgroup"] == MISSING] == [40]
