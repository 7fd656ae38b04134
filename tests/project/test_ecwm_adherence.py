"""An ECWM item's non-adherence test and its two versions, in words (analysis.adherence), in the
results tables, the workbook and the command line (plain and --json), unweighted and weighted."""

import json

import numpy as np
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project.analysis.adherence import TABLE, adherence
from dpdesk.project.analysis.estimates import analyze, results_bundle
from dpdesk.project.file.store import Project
from tests.helpers.cli import run
from tests.helpers.ecwm import P_B, ecwm_frame, ecwm_project


@pytest.fixture(scope="module")
def projects(tmp_path_factory):
    root = tmp_path_factory.mktemp("ecwm")
    return {(na, w): ecwm_project(root / f"p_{na}_{w}.dpdesk", ecwm_frame(non_adherent=na), weighted=w)
            for na in (0.0, 0.15) for w in (False, True)}


def _result(path):
    with Project.open(path) as project:
        (res,) = analyze(project)
        return res, results_bundle(project, [res])


def test_adherent_answers_read_as_agreement_with_the_likelihood_ratio_test(projects):
    res, _ = _result(projects[(0.0, False)])
    a = adherence(res)
    assert a.statistic == "G²" and a.df == (1,) and not a.rejects
    assert a.value == pytest.approx(res.estimate.fit.g2) and a.p_value == pytest.approx(res.estimate.fit.p_value)
    assert a.sentence() == (f"Respondents seem to follow the instructions: the two versions agree "
                            f"(G² = {a.value:.2f}, df = 1, p = .{round(a.p_value * 1000):03d}).")
    # each version is the crosswise estimate of its own respondents, with its own interval
    for v, counts, p in zip(a.versions, res.estimate.counts, (P_B, 1 - P_B)):
        alone = rr.estimate(rr.design("crosswise", p=p), counts)
        assert (v.estimate, v.se, *v.ci, v.n) == pytest.approx((alone.prevalence, alone.se, *alone.ci, alone.n))
        assert v.estimate == pytest.approx(res.estimate.extra[f"pi_group{v.version}"][0])


def test_non_adherence_is_a_warning_citing_heck_et_al(projects):
    res, _ = _result(projects[(0.15, False)])
    a = adherence(res)
    assert a.rejects and a.p_value < 0.05
    assert a.sentence().startswith("The two versions disagree (G² = ")
    assert "some respondents may not follow the instructions" in a.sentence()
    assert "(Heck, Hoffmann & Moshagen, 2018)" in a.sentence()


def test_a_weighted_study_gets_the_design_based_wald_test(projects):
    res, bundle = _result(projects[(0.15, True)])
    assert res.error is None and res.survey is not None
    a = adherence(res)
    t = res.survey.adherence
    assert a.statistic == "F" and a.df == (1, t.df_den) and a.value == pytest.approx(t.f) and a.rejects
    assert a.sentence().startswith(f"The two versions disagree (F(1, {t.df_den}) = ")
    assert "Taylor-linearized covariance" in a.method_text()
    assert bundle.metadata["non-adherence test (ECWM)"][a.item].startswith(f"F(1, {t.df_den})")
    rows = bundle.tables[TABLE]
    assert [r["part"] for r in rows] == ["version 1 (B 'yes' 25%)", "version 2 (B 'yes' 75%)", "non-adherence test"]
    assert rows[0]["estimate"] == pytest.approx(res.survey.extra["pi_group1"][0])
    assert rows[2]["p-value"] == pytest.approx(t.p_value)
    # the estimates table no longer lists the versions as bare [pi_group1] rows
    assert [r["item"] for r in bundle.tables["Estimates"]] == [res.label]


def test_the_command_line_shows_the_test_and_both_versions(projects, capsys):
    code, out, _ = run(capsys, "estimate", projects[(0.15, False)])
    assert code == 0
    assert TABLE in out and "non-adherence test" in out and "version 2 (B 'yes' 75%)" in out
    assert "WARNING: The two versions disagree (G² = " in out
    assert "Version 1 (question B 'yes' for 25%; n = " in out
    code, out, _ = run(capsys, "estimate", projects[(0.0, True)], "--json")
    data = json.loads(out)
    test = data[TABLE][-1]
    assert test["name"] == "cheat" and test["statistic"] == "F" and test["rejects"] is False
    assert test["sentence"].startswith("Respondents seem to follow the instructions")
    assert [r["part"] for r in data[TABLE]][:2] == ["version 1 (B 'yes' 25%)", "version 2 (B 'yes' 75%)"]
    assert all(np.isfinite(r["CI low"]) for r in data[TABLE][:2])
    code, out, _ = run(capsys, "estimate", projects[(0.0, True)], "--no-design")
    assert "G² = " in out  # without the design: the likelihood-ratio test


def test_the_document_has_the_versions_the_test_and_the_warning(projects):
    from dpdesk.project.report.document import build_document

    with Project.open(projects[(0.15, False)]) as project:
        results = analyze(project)
        doc = build_document(project, results)
    section = doc.section("ecwm")
    assert section.title == "Non-adherence (extended crosswise model)"
    assert section.paragraphs[0].startswith("<b>Warning.</b> ") and "The two versions disagree" in section.paragraphs[0]
    table = doc.table("ecwm")
    assert [row.cells[0].text for row in table.rows] == [results[0].label, "Version 1", "Version 2"]
    assert table.rows[0].cells[5].text.startswith("G²(1) = ")
    assert table.rows[0].cells[5].value == pytest.approx(results[0].estimate.fit.g2)
    assert table.columns[5].numeric  # a statistic is kept whole, never wrapped
    a = adherence(results[0])
    assert table.rows[1].cells[2].value == pytest.approx(a.versions[0].estimate)
    assert table.rows[2].cells[4].value == pytest.approx(a.versions[1].ci)
    # the estimates table names no bare pi_group rows
    assert [row.cells[0].text for row in doc.table("estimates").rows] == [results[0].label]


@pytest.mark.parametrize("weighted", [False, True])
def test_the_methods_text_cites_the_design_says_the_test_and_what_it_assumes(projects, weighted):
    from dpdesk.project.report.methods import methods

    with Project.open(projects[(0.0, weighted)]) as project:
        m = methods(project, analyze(project))
    text = m.text()
    assert "extended crosswise model (Heck, Hoffmann & Moshagen, 2018), an extension of the crosswise model " \
           "(Yu, Tian & Tang, 2008)" in text
    assert "versions were assigned at random" in text
    assert "prevalence of question B is known and independent of the sensitive attribute" in text
    assert ("design-based Wald test" in text and "(Lumley, 2010; Korn & Graubard, 1990)" in text
            and "Test results: cheat, F(1, " in text) if weighted else \
           ("likelihood-ratio test" in text and "Test results: cheat, G² = " in text)
    refs = "\n".join(m.references)
    assert "Heck, D. W., Hoffmann, A., & Moshagen, M. (2018). Detecting nonadherence without loss in efficiency" in refs
    assert "Yu, J.-W., Tian, G.-L., & Tang, M.-L. (2008)" in refs


def test_the_workbook_has_a_non_adherence_sheet(projects, tmp_path):
    import openpyxl

    from dpdesk.project import export_results

    _, bundle = _result(projects[(0.15, True)])
    out = tmp_path / "r.xlsx"
    export_results(bundle, out)
    wb = openpyxl.load_workbook(out, read_only=True)
    name = next(s for s in wb.sheetnames if s.startswith("Non-adherence"))
    rows = list(wb[name].iter_rows(values_only=True))
    header = list(rows[0])
    assert header[:3] == ["item", "part", "n"] and "p-value" in header
    assert rows[3][header.index("part")] == "non-adherence test"
    assert rows[3][header.index("test")].startswith("F(1, ")
    readme = " ".join(str(c) for row in wb["Readme"].iter_rows(values_only=True) for c in row if c)
    assert "part (the Non-adherence (ECWM) sheet): version 1 or 2 of an extended crosswise item" in readme
