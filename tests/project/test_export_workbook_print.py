"""The workbook as a reader prints and reads it: design effects and effective n formatted (not raw floats),
every sheet one page wide (landscape when wide, the header on every page), a sheet name too long for Excel
shortened by one rule (whole words and "…", the full name on the Metadata sheet), and the reproducibility
script naming a weighted fit's objective a pseudo-log-likelihood, never a log-likelihood."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from dpdesk.project import Project
from dpdesk.project.export.model import ResultsBundle
from dpdesk.project.export.results import export_results
from tests.helpers.wide_study import BY, make_wide_study


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    return make_wide_study(tmp_path_factory.mktemp("book") / "wide.dpdesk")


@pytest.fixture(scope="module")
def book(wide):
    from dpdesk.cli import main

    out = wide.parent / "results.xlsx"
    assert main(["export", str(wide), str(out), "--by", BY]) == 0
    import openpyxl

    return openpyxl.load_workbook(out)


def test_design_effect_and_effective_n_are_formatted(book):
    ws = book["Estimates"]
    head = [c.value for c in ws[1]]
    deff, n_eff = head.index("design effect"), head.index("effective n")
    for row in ws.iter_rows(min_row=2):
        assert isinstance(row[deff].value, float) and row[deff].number_format == "0.00"
        assert isinstance(row[n_eff].value, float) and row[n_eff].number_format == "#,##0"


def test_every_sheet_prints_one_page_wide(book):
    for ws in book.worksheets:
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert ws.page_setup.fitToWidth in (None, 1) and ws.page_setup.fitToHeight == 0, ws.title
        if ws.title != "Readme":
            assert ws.print_title_rows == "$1:$1", ws.title  # the header on every page
    assert book["Estimates"].page_setup.orientation == "landscape"  # 14 columns


def test_a_long_sheet_name_is_shortened_by_one_rule(tmp_path):
    import openpyxl

    long = "Tests by What is the highest level of education you have completed"
    bundle = ResultsBundle(tables={"Estimates": [{"item": "x", "estimate": 0.1}], long: [{"test": "F", "p": 0.5}],
                                   long + " (again)": [{"test": "F", "p": 0.4}]})
    path = export_results(bundle, tmp_path / "long.xlsx")[0]
    book = openpyxl.load_workbook(path)
    names = book.sheetnames[1:3]
    assert names[0] == "Tests by What is the highest…"
    assert re.fullmatch(r"Tests by What is the(?: highest)?… \(2\)", names[1])
    for name in names:
        assert len(name.encode("utf-16-le")) // 2 <= 31
        kept = name.split("…")[0]
        assert long.startswith(kept) and long[len(kept)] == " "  # cut between words
    meta = {r[0]: r[1] for r in book["Metadata"].iter_rows(values_only=True)}
    assert meta[f"sheet {names[0]} / table name"] == long


def test_the_script_names_a_weighted_fit_a_pseudo_likelihood(wide, tmp_path):
    from dpdesk.project.regression.export import regression_bundle
    from dpdesk.project.regression.report import saved_reports

    with Project.open(wide) as project:
        report = saved_reports(project)[-1]
        bundle = regression_bundle(project, report)
    script = export_results(bundle, tmp_path / "reg.xlsx")[1]
    run = subprocess.run([sys.executable, str(script), str(wide)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "weighted pseudo-log-likelihood (not a likelihood)" in run.stdout
    assert not re.search(r"(?<!pseudo-)log-likelihood", run.stdout)
