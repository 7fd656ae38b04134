"""With "Subgroups by", each subgroup of an ECWM item gets its own non-adherence test (analysis.adherence
.subgroup_adherence): the likelihood-ratio test of the subgroup's counts, or with a survey design the Wald
F test of its domain; in the results tables, the command line (plain and --json) and the report."""

import json
import shutil
import subprocess

import numpy as np
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project.analysis.adherence import TABLE, subgroup_adherence
from dpdesk.project.analysis.estimates import analyze, results_bundle
from dpdesk.project.file.store import Project
from tests.helpers.cli import run
from tests.helpers.ecwm import ecwm_frame, ecwm_project

BY_TABLE = f"{TABLE} by school"


def schools_frame():
    """Two schools of 600: at Avon everyone follows the instructions, at Brook 30% answer "different"."""
    import pandas as pd

    frame = pd.concat([ecwm_frame(600, seed=1).assign(school="Avon"),
                       ecwm_frame(600, seed=2, non_adherent=0.3).assign(school="Brook")], ignore_index=True)
    frame["resp_id"] = np.arange(1, len(frame) + 1)
    return frame


@pytest.fixture(scope="module")
def projects(tmp_path_factory):
    root = tmp_path_factory.mktemp("ecwm_by")
    return {w: ecwm_project(root / f"p_{w}.dpdesk", schools_frame(), weighted=w) for w in (False, True)}


def _result(path):
    with Project.open(path) as project:
        (res,) = analyze(project, by="school")
        return res, results_bundle(project, [res])


def test_each_subgroup_gets_the_likelihood_ratio_test_of_its_own_counts(projects):
    res, bundle = _result(projects[False])
    tests = dict(subgroup_adherence(res))
    assert list(tests) == ["Avon", "Brook"]
    for school, a in tests.items():
        alone = rr.estimate(res.design, res.subgroup_counts[school])  # the subgroup's answers only
        assert a.statistic == "G²" and a.df == (1,)
        assert (a.value, a.p_value) == pytest.approx((alone.fit.g2, alone.fit.p_value))
        assert sum(v.n for v in a.versions) == 600
    assert not tests["Avon"].rejects and tests["Brook"].rejects
    rows = bundle.tables[BY_TABLE]
    assert [(r["subgroup"], r["part"]) for r in rows] == [
        (s, p) for s in ("Avon", "Brook")
        for p in ("version 1 (B 'yes' 25%)", "version 2 (B 'yes' 75%)", "non-adherence test")]
    assert rows[5]["p-value"] == pytest.approx(tests["Brook"].p_value)
    assert list(bundle.tables).index(BY_TABLE) > list(bundle.tables).index("By school")


def test_a_weighted_subgroup_gets_the_wald_test_of_its_domain(projects):
    res, _ = _result(projects[True])
    assert res.survey is not None
    tests = dict(subgroup_adherence(res))
    frame = schools_frame()
    z = (frame["answer"] == "same").to_numpy(int)
    domains = rr.survey_estimate_by(res.design, z, frame["school"].to_numpy(str), groups=frame["version"].to_numpy(),
                                    weights=frame["w"].to_numpy(), strata=frame["region"].to_numpy())
    for school, a in tests.items():
        t = domains[school].adherence  # weights 0 outside the school, every PSU kept: the design's df
        assert a.statistic == "F" and a.df == (1, t.df_den) and t.df_den == res.survey.adherence.df_den
        assert (a.value, a.p_value) == pytest.approx((t.f, t.p_value))
        unweighted = rr.estimate(res.design, res.subgroup_counts[school]).fit.g2
        assert a.value != pytest.approx(unweighted)  # never the simple random sample's test
    assert not tests["Avon"].rejects and tests["Brook"].rejects


def test_the_command_line_tests_each_subgroup(projects, capsys):
    code, out, _ = run(capsys, "estimate", projects[True], "--by", "school")
    assert code == 0 and BY_TABLE in out
    assert "school = Avon: Respondents seem to follow the instructions: the two versions agree (F(1, " in out
    assert "school = Brook: WARNING: The two versions disagree (F(1, " in out
    code, out, _ = run(capsys, "estimate", projects[False], "--by", "school", "--json")
    rows = json.loads(out)[BY_TABLE]
    test = rows[-1]
    assert test["name"] == "cheat" and test["subgroup"] == "Brook" and test["statistic"] == "G²"
    assert test["rejects"] is True and test["sentence"].startswith("The two versions disagree")


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext")
def test_the_report_has_a_table_of_each_subgroups_test_and_warns(projects, tmp_path):
    from dpdesk.cli import main

    out = tmp_path / "report.pdf"
    assert main(["report", str(projects[False]), str(out), "--by", "school"]) == 0
    text = " ".join(subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True,
                                   timeout=120).stdout.split())
    assert "Non-adherence test in each subgroup of school" in text
    assert "Warning. Have you cheated in an exam?, school = Brook: The two versions disagree (G² = " in text
    assert "school = Avon: The two versions disagree" not in text
    assert "The same test was made within each subgroup of school, on that subgroup's answers." in text
