"""Kuk's card design with 25 cards in a project with a survey design and a known population size (issue 32).

RRTCS's ``KukData`` (200 of N = 802 students; p1 = 0.6, p2 = 0.2, k = 25) through the whole
path: stored design, estimate, CLI, report note and methods text. The numbers are RRTCS's
and R survey's (tests/fixtures/survey/make_rrtcs.R).
"""

import json
from pathlib import Path

import pandas as pd
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project.analysis.estimates import analyze
from dpdesk.project.study.survey_design import SurveyDesign, set_survey_design
from tests.helpers.cli import run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "survey"
KUK = json.loads((FIXTURES / "rrtcs_expected.json").read_text())["more"]["kuk"]


@pytest.fixture
def project(tmp_path):
    frame = pd.read_csv(FIXTURES / "rrtcs_kuk.csv")
    p = Project.create(tmp_path / "kuk.dpdesk")
    p.add_dataset("kuk", frame, source={"name": "rrtcs_kuk.csv"}, report={"first_data_row": 2})
    d = rr.design("kuk", p1=0.6, p2=0.2, draws=25)
    p.add_item("sex", d, column="z", codes={f"{k} red": [k] for k in range(26)})
    yield p
    p.close()


def _survey(project, **design):
    set_survey_design(project, SurveyDesign(weights="w", **design))
    (result,) = analyze(project)
    return result.survey


def test_with_the_population_size_the_estimate_is_rrtcss_kuk_and_without_it_svymles(project):
    ht = _survey(project, population=802)
    assert ht.unconstrained == pytest.approx(KUK["rrtcs_estimate"], rel=1e-9)
    assert ht.se == pytest.approx(KUK["survey"]["se"], rel=1e-6)
    assert "mean red card" in ht.describe()
    ml = _survey(project)
    assert ml.prevalence == ml.unconstrained == pytest.approx(KUK["svymle"]["estimate"], rel=1e-7)
    assert ml.se == pytest.approx(KUK["svymle"]["se"], rel=1e-6)
    assert "weighted pseudo-maximum likelihood" in ml.describe()


def test_methods_text_names_each_estimator(project):
    from dpdesk.project.report.methods import methods

    set_survey_design(project, SurveyDesign(weights="w", population=802))
    text = methods(project, analyze(project)).text()
    assert "sex: the number of red cards drawn, f, as (f / k - p2) / (p1 - p2); Kuk, 1990" in text and "Kuk, 1990" in text
    assert "Horvitz-Thompson estimates with the known population size of 802" in text
    set_survey_design(project, SurveyDesign(weights="w"))
    text = methods(project, analyze(project)).text()
    assert "Prevalences were estimated by weighted pseudo-maximum likelihood" in text
    assert "transformed by the design's response matrix" not in text


def test_cli_estimates_kuk_with_a_population_size(project, capsys):
    path = project.path
    set_survey_design(project, SurveyDesign(weights="w"))
    project.close()
    code, out, err = run(capsys, "estimate", path, "--json", "--population", "802")
    assert code == 0, err
    (row,) = json.loads(out)["Estimates"]
    assert row["estimate"] == pytest.approx(KUK["rrtcs_estimate"], abs=5e-4)   # the table's rounding
    assert row["SE"] == pytest.approx(KUK["survey"]["se"], rel=1e-3)
    assert "Horvitz-Thompson estimate of the mean red card with population size 802" in row["note"]


def test_the_reproducibility_script_refits_kuk_with_the_population_size(project, tmp_path):
    import os
    import subprocess
    import sys

    from dpdesk.project.analysis.estimates import results_bundle
    from dpdesk.project.export.results import export_results

    set_survey_design(project, SurveyDesign(weights="w", population=802))
    written = export_results(results_bundle(project, analyze(project)), tmp_path / "kuk.xlsx")
    project.close()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    run = subprocess.run([sys.executable, str(written[-1])], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 weighted item(s) refitted" in run.stdout and "agree with the exported estimates" in run.stdout


@pytest.mark.parametrize("text, value", [("", None), ("  ", None), ("802", 802.0), ("10,777", 10777.0),
                                         ("10 777", 10777.0), ("1.5e4", 15000.0)])
def test_the_panel_reads_a_population_size(text, value):
    from dpdesk.project.study.survey_design import population_from_text

    assert population_from_text(text) == value


@pytest.mark.parametrize("text", ["eight hundred", "0", "-5", "inf", "nan", "1/0"])
def test_a_population_size_that_is_not_a_positive_number_is_refused_in_words(text):
    from dpdesk.errors import DataError
    from dpdesk.project.study.survey_design import population_from_text

    with pytest.raises(DataError, match="is not a positive number: type the number of people"):
        population_from_text(text)
