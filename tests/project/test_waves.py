"""Waves compared under their own designs (issue 29): wave 1 stratified, clustered and weighted, wave 2 a
simple random sample. Each wave's estimate and SE are its design's, the difference has SE √(se₁² + se₂²)
and a t test on Welch–Satterthwaite's df (R survey: tests/fixtures/survey/make_waves.R), whatever dataset
is active, in the analysis, the workbook, the report and the command line, with a note on the weights."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project.analysis.estimates import analyze, results_bundle
from dpdesk.project.report.report import report_parts
from dpdesk.project.study.active import set_active_dataset
from dpdesk.project.study.survey_design import SurveyDesign, set_survey_design
from tests.helpers.cli import run
from tests.mechanisms.test_rr_survey_reference import HERE

REL = 1e-6
YES_NO = {"yes": [1], "no": [0]}


@pytest.fixture
def waves(tmp_path):
    path = tmp_path / "waves.dpdesk"
    w1 = pd.read_csv(HERE / "sample.csv")[["stratum", "psu", "w", "z_warner"]]
    w2 = pd.read_csv(HERE / "wave2.csv")[["z_warner"]]
    with Project.create(path) as p:
        p.add_dataset("wave 1", w1)
        p.add_item("cheating", rr.design("warner", p=0.7), column="z_warner", codes=YES_NO)
        set_survey_design(p, SurveyDesign(weights="w", strata="stratum", clusters="psu"), "wave 1")
        p.add_dataset("wave 2", w2)
        p.set_mapping("cheating", "wave 2", column="z_warner", codes=YES_NO)
    return path


@pytest.fixture(scope="module")
def ref():
    return json.loads((HERE / "waves_expected.json").read_text())["warner"]


@pytest.mark.parametrize("active", ["wave 1", "wave 2"])
def test_each_wave_under_its_own_design_whatever_is_active(waves, ref, active):
    with Project.open(waves) as p:
        set_active_dataset(p, active)
        (r,) = analyze(p, by_dataset=True)
        assert r.error is None
        est = r.subgroups.estimates
        assert est["wave 1"].prevalence == pytest.approx(ref["estimate1"], rel=REL)  # weighted, not 35.1%-style
        assert est["wave 1"].se == pytest.approx(ref["se1"], rel=REL)
        assert est["wave 2"].se == pytest.approx(ref["se2"], rel=REL)
        diff = r.subgroups.differences[("wave 1", "wave 2")]
        assert diff.se == pytest.approx(ref["se"], rel=REL) and diff.p_value == pytest.approx(ref["p"], rel=REL)
        assert "wave 1 weighted" in r.wave_note and "wave 2 unweighted" in r.wave_note
        # the "(all)" estimate is the active wave's under its own design
        own = analyze(p, dataset=active)[0].estimate.prevalence
        assert r.estimate.prevalence == pytest.approx(own, rel=1e-12)
        bundle = results_bundle(p, [r])
        assert "wave 1 weighted" in bundle.metadata["datasets compared"]
        row = next(x for x in bundle.tables["By dataset"] if x["subgroup"] == "wave 1")
        assert row["estimate"] == pytest.approx(ref["estimate1"], rel=REL)
        (test,) = bundle.tables["Tests by dataset"]
        assert test["denominator df"] == pytest.approx(ref["df"], rel=REL) and test["df"] == 1


def test_the_report_says_which_waves_are_weighted(waves, ref):
    with Project.open(waves) as p:
        doc, methods, _ = report_parts(p, by_dataset=True)
    notes = " ".join(doc.table("comparisons:cheating").notes)
    assert "wave 1 weighted" in notes and "wave 2 unweighted" in notes
    assert f"{ref['df']:.1f}" in notes  # F(1, Welch df)
    text = methods.text()
    assert "independent samples, each under its own survey design" in text and "Satterthwaite" in text


@pytest.mark.parametrize("active", ["wave 1", "wave 2"])
def test_the_command_line_compares_the_waves_under_their_designs(waves, ref, capsys, active):
    with Project.open(waves) as p:
        set_active_dataset(p, active)
    code, out, err = run(capsys, "estimate", waves, "--by-dataset")
    assert code == 0, err
    assert "wave 1 weighted" in out and "--no-design" not in out + err
    code, out, _ = run(capsys, "estimate", waves, "--by-dataset", "--json")
    rows = json.loads(out)["By dataset"]
    assert next(r for r in rows if r["subgroup"] == "wave 1")["estimate"] == pytest.approx(ref["estimate1"], rel=REL)


def test_without_designs_the_waves_stay_count_based(waves):
    with Project.open(waves) as p:
        (r,) = analyze(p, by_dataset=True, survey=False)
    assert r.wave_note == "" and "likelihood" in r.subgroups.test.method.lower()


def test_the_note_is_plain_latex(waves):
    """pdflatex on Debian's texlive-latex-base stops at a character it has no glyph for (√, subscripts)."""
    from dpdesk.project.report.latex import escape

    with Project.open(waves) as p:
        (r,) = analyze(p, by_dataset=True)
    assert escape(r.wave_note).isascii()
