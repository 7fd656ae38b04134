"""SPSS user-missing codes (98 refused, 99 don't know declared in a .sav) are blanks in a shared
extract and counted by code and label in its disclosure report, as Stata's .a-.z are."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyreadstat
import pytest

from dpdesk.project import Project
from dpdesk.project.analysis.estimates import stored_table
from dpdesk.project.reading.importing import import_file
from dpdesk.project.sharing.checks import ShareOptions
from dpdesk.project.sharing.extract import Extract, report_labels
from dpdesk.project.sharing.writing import export_extract, report_rows
from tests.helpers.cli import run

SAV = Path(__file__).resolve().parents[1] / "data" / "survey.sav"
ROW = ("missing values", "rr1: 2 user-missing value(s) written as blanks: 98 = Refused (1), 99 = Don't know (1)")
ANSWERS = [1, 0, 1, 0, 1]  # rr1 without 98, 99 and the one blank, in file order


def test_the_fixture_declares_98_and_99_missing():
    frame, meta = pyreadstat.read_sav(SAV, user_missing=True)
    declared = [(r["lo"], r["hi"]) for r in meta.missing_ranges["rr1"]]
    assert declared == [(98, 98), (99, 99)]
    assert meta.variable_value_labels["rr1"][98] == "Refused" and meta.variable_value_labels["rr1"][99] == "Don't know"
    assert frame["rr1"].tolist().count(98) == 1 and frame["rr1"].tolist().count(99) == 1


@pytest.fixture
def table(tmp_path):
    with Project.create(tmp_path / "p.dpdesk") as p:
        import_file(p, SAV)
        return stored_table(p)  # labels and codes as stored (JSON keys)


def test_user_missing_codes_through_the_python_api(table, tmp_path):
    extract = Extract(table.frame, ShareOptions(quasi=["grp"], sensitive=["rr1"], k=2),
                      labels=report_labels(table.report))
    assert extract.declared_missing == {"rr1": {"98": 1, "99": 1}}
    shared = extract.shared_frame()
    assert shared["rr1"].isna().sum() == 3 and shared["rr1"].dropna().tolist() == ANSWERS
    assert ROW in report_rows(extract)
    assert (table.frame["rr1"] == 98).sum() == 1  # the stored data keep the codes
    (sav, report) = export_extract(extract, tmp_path / "x.sav")
    back, meta = pyreadstat.read_sav(sav, user_missing=True)
    assert back["rr1"].isna().sum() == 3 and back["rr1"].max() == 1
    assert meta.variable_value_labels["rr1"] == {0: "No", 1: "Yes"}  # no labels for codes no longer there
    assert "98 = Refused (1)" in report.read_text(encoding="utf-8")
    (xlsx,) = export_extract(extract, tmp_path / "x.xlsx")
    assert pd.read_excel(xlsx, sheet_name="Data")["rr1"].isna().sum() == 3


def test_a_declared_range_and_text_codes():
    frame = pd.DataFrame({"q": [1, 2, 97, 98, 99, 3] * 2, "why": ["ok", "dk", "ok", "DK ", "x", "ok"] * 2})
    labels = {"value_labels": {"q": {"97": "Not asked", "1": "Low"}},
              "missing_values": {"q": [{"from": 97, "to": 99}], "why": ["dk"]}}
    extract = Extract(frame, ShareOptions(quasi=["why"], k=2), labels=labels)
    assert extract.declared_missing == {"q": {"97": 2, "98": 2, "99": 2}, "why": {"dk": 2, "DK": 2}}
    assert extract.shared_frame()["q"].dropna().tolist() == [1, 2, 3] * 2
    assert extract.value_labels == {"q": {"1": "Low"}}
    rows = report_rows(extract)
    assert ("missing values",
            "q: 6 user-missing value(s) written as blanks: 97 = Not asked (2), 98 (2), 99 (2)") in rows


def test_user_missing_codes_through_the_command_line(tmp_path, capsys):
    project = tmp_path / "share.dpdesk"
    assert run(capsys, "new", project)[0] == 0
    assert run(capsys, "import", project, SAV)[0] == 0
    out_file = tmp_path / "extract.csv"
    code, out, err = run(capsys, "share", project, out_file, "--quasi", "grp", "--sensitive", "rr1", "--k", "2")
    assert code == 0, out + err
    shared = pd.read_csv(out_file, encoding="utf-8-sig")
    assert shared["rr1"].isna().sum() == 3 and shared["rr1"].dropna().astype(int).tolist() == ANSWERS
    report = (tmp_path / "extract.disclosure-report.txt").read_text(encoding="utf-8")
    assert ROW[1] in report
    sav = tmp_path / "extract.sav"
    assert run(capsys, "share", project, sav, "--quasi", "grp", "--sensitive", "rr1", "--k", "2")[0] == 0
    back, meta = pyreadstat.read_sav(sav, user_missing=True)
    assert back["rr1"].isna().sum() == 3 and set(meta.variable_value_labels["rr1"]) == {0, 1}
