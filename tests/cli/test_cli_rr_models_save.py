"""``dpdesk regress --model multilevel|linear`` and ``dpdesk correlate`` save their result with the project (unless
--no-save) and write it with --export; --json keeps its shape."""

from __future__ import annotations

import json

import pytest

from dpdesk.project import Project
from dpdesk.project.regression import saved_correlations, saved_reports
from tests.cli.test_cli_rr_models import study  # noqa: F401 - the simulated study, a module fixture
from tests.helpers.cli import run

MULTI = ["regress", "cheat", "--model", "multilevel", "--cluster", "school", "--predictors", "age"]
LINEAR = ["regress", "--model", "linear", "--outcome", "score", "--rr", "cheat", "--predictors", "age"]
CORRELATE = ["correlate", "cheat", "drugs", "age", "--bootstrap", "50", "--seed", "4"]


def _saved(path):
    with Project.open(path, read_only=True) as project:
        return [r.model for r in saved_reports(project)], len(saved_correlations(project))


@pytest.mark.parametrize("args, model", [(MULTI, "multilevel"), (LINEAR, "linear")])
def test_regress_saves_each_model_unless_told_not_to(study, capsys, args, model):  # noqa: F811
    path = study[0]
    before = _saved(path)[0]
    code, _, _ = run(capsys, args[0], path, *args[1:], "--no-save")
    assert code == 0 and _saved(path)[0] == before
    code, out, _ = run(capsys, args[0], path, *args[1:], "--json")
    assert code == 0 and _saved(path)[0] == before + [model]
    with Project.open(path, read_only=True) as project:
        report = saved_reports(project)[-1]
    coefficients = json.loads(out)["fit" if model == "multilevel" else "coefficients"]
    if model == "multilevel":
        coefficients = coefficients["coefficients"]
    assert [c["b"] for c in coefficients] == [
        r["b"] for r in report.coefficients]


@pytest.mark.parametrize("args, sheet_rows", [(MULTI, 2), (LINEAR, 3)])
def test_regress_export_writes_the_sheets_and_the_script(study, capsys, tmp_path, args, sheet_rows):  # noqa: F811
    import openpyxl

    target = tmp_path / "fit.xlsx"
    code, _, err = run(capsys, args[0], study[0], *args[1:], "--no-save", "--export", target)
    assert code == 0 and f"wrote {target}" in err and (tmp_path / "fit_reproduce.py").exists()
    book = openpyxl.load_workbook(target)
    rows = list(book["Regression"].values)
    assert len(rows) - 1 == sheet_rows and rows[0][0] == "term"


def test_correlate_saves_and_exports_and_keeps_its_json(study, capsys, tmp_path):  # noqa: F811
    path = study[0]
    before = _saved(path)[1]
    code, out, _ = run(capsys, CORRELATE[0], path, *CORRELATE[1:], "--json", "--no-save")
    assert code == 0 and _saved(path)[1] == before
    assert set(json.loads(out)) == {"variables", "dataset", "n_rows", "n_used", "excluded", "bootstrap", "seed", "r",
                                    "se", "p_value", "notes"}
    target = tmp_path / "cor.csv"
    code, out, err = run(capsys, CORRELATE[0], path, *CORRELATE[1:], "--export", target)
    assert code == 0 and out.startswith("Correlations corrected") and f"wrote {target}" in err
    assert _saved(path)[1] == before + 1
    with Project.open(path, read_only=True) as project:
        saved = saved_correlations(project)[-1]
    assert saved.names == ["cheat", "drugs", "age"] and saved.spec.seed == 4 and saved.spec.bootstrap == 50
    first = target.read_text(encoding="utf-8-sig").splitlines()[1].split(",")
    assert first[:2] == ["cheat", "drugs"] and float(first[4]) == saved.r[0][1]


@pytest.mark.parametrize("args, message", [
    (CORRELATE + ["--export", "cor.txt"], "--export cor.txt: choose a file name ending in .xlsx or .csv"),
    (LINEAR + ["--direct", "age"], "--direct does not cover --model linear"),
])
def test_export_and_direct_errors_are_one_line(study, capsys, args, message):  # noqa: F811
    before = _saved(study[0])
    code, out, err = run(capsys, args[0], study[0], *args[1:])
    assert code == 1 and out == "" and message in err and len(err.strip().splitlines()) == 1
    assert _saved(study[0]) == before  # nothing saved by a refused command
