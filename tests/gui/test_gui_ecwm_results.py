"""ECWM items in the Results view: the non-adherence test in words, both versions' prevalences, and a
warning bar above the document when the test rejects at 5% (unweighted and with a survey design)."""

from __future__ import annotations

import pytest

from tests.gui.test_gui_mappings_per_dataset import choose, go_to
from tests.helpers.ecwm import ecwm_frame, ecwm_project
from tests.helpers.gui import shot


def _open(window, qtbot, path):
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None) as got:
        window.open_project(path)
        go_to(window, qtbot, 2)
    return rv, got.args[0]


@pytest.mark.parametrize("weighted", [False, True])
def test_a_rejected_test_shows_a_warning_and_both_versions(window, qtbot, tmp_path, weighted):
    path = ecwm_project(tmp_path / "na.dpdesk", ecwm_frame(non_adherent=0.15), weighted=weighted)
    rv, rs = _open(window, qtbot, path)
    (r,) = rs.results
    assert r.error is None and (r.survey is not None) == weighted
    assert rv.adherence_warning.isVisible()
    bar = rv.adherence_warning.text.text()
    assert "The two versions disagree" in bar and "Heck, Hoffmann &amp; Moshagen, 2018" in bar
    assert ("F(1, " if weighted else "G² = ") in bar
    shown = rv.document_view.toPlainText()
    assert "Non-adherence (extended crosswise model)" in shown
    assert "Prevalence in each version of question B and the non-adherence test" in shown
    assert "version 1 25%, version 2 75%" in shown
    assert "Warning." in shown and "may not follow the instructions" in shown
    assert "pi_group" not in shown  # the versions are named, never by their keys


def test_agreeing_versions_read_as_adherence_without_a_warning(window, qtbot, tmp_path):
    path = ecwm_project(tmp_path / "ok.dpdesk", ecwm_frame(n=800, seed=3), weighted=False)
    rv, rs = _open(window, qtbot, path)
    assert not rv.adherence_warning.isVisible()
    shown = rv.document_view.toPlainText()
    assert "Respondents seem to follow the instructions: the two versions agree (G² = " in shown
    # another interval method: the versions' intervals follow it (Wald), the bar stays hidden
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None) as got:
        choose(qtbot, rv.ci, "wald")
    (r,) = got.args[0].results
    assert r.estimate.ci_method.startswith("Wald") and not rv.adherence_warning.isVisible()


def test_the_guides_example_when_the_versions_disagree(window, qtbot, tmp_path):
    """docs/guide/ecwm.md's worked example (15% answer "different" whatever the truth): its screenshot."""
    path = ecwm_project(tmp_path / "nonadherent.dpdesk", ecwm_frame(n=800, seed=3, non_adherent=0.15),
                        label="Exam cheating")
    window.resize(1200, 900)
    rv, _rs = _open(window, qtbot, path)
    bar = rv.adherence_warning.text.text()
    assert "<b>Exam cheating</b>: The two versions disagree (G² = 13.52, df = 1, p &lt; .001)" in bar
    rv.scroll_to("Non-adherence (extended crosswise model)")
    shown = rv.document_view.toPlainText()
    assert "44.0" in shown and "18.5" in shown  # the versions, as the guide quotes them
    shot(window, "results_ecwm")


def test_subgroups_by_tests_each_subgroup_and_warns_for_the_one_that_disagrees(window, qtbot, tmp_path):
    """Subgroups by school (chosen with a click and the arrow keys): the document has each school's test,
    the bar warns about the school whose versions disagree and not about the other."""
    from tests.project.test_ecwm_adherence_by import schools_frame

    path = ecwm_project(tmp_path / "schools.dpdesk", schools_frame(), weighted=False)
    rv, _ = _open(window, qtbot, path)
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None) as got:
        choose(qtbot, rv.by, "school")
    assert got.args[0].options.by == "school"
    bar = rv.adherence_warning.text.text()
    assert rv.adherence_warning.isVisible() and "school = Brook: The two versions disagree (G² = " in bar
    assert "school = Avon" not in bar
    shown = rv.document_view.toPlainText()
    assert "Non-adherence test in each subgroup of school" in shown and "Avon" in shown


def test_bootstrapped_subgroup_tests_are_computed_in_the_worker_item_by_item(tmp_path, monkeypatch):
    """With bootstrap intervals, each subgroup's versions are bootstrapped in the worker's item loop (where
    Cancel is checked), before the document is built; the document and the bar read them back."""
    from dpdesk.gui.views.results_job import Options, _analyze
    from dpdesk.project.analysis.adherence import subgroup_adherence
    from dpdesk.project.file.store import Project
    from dpdesk.project.report import document
    from tests.project.test_ecwm_adherence_by import schools_frame

    path = ecwm_project(tmp_path / "boot.dpdesk", schools_frame(), weighted=False)
    ready = []
    build = document.build_document

    def spy(project, results, **kw):
        ready.append([hasattr(r, "_subgroup_adherence") for r in results])
        return build(project, results, **kw)

    monkeypatch.setattr(document, "build_document", spy)

    class Job:
        def progress(self, *args):
            pass

        def check(self):
            pass

    with Project.open(path) as project:
        rs = _analyze(Job(), project, Options(ci="bootstrap", by="school", confirmed=True))
    assert ready == [[True]]  # computed item by item, not all at once while the document is laid out
    (r,) = rs.results
    assert [g for g, _ in subgroup_adherence(r)] == ["Avon", "Brook"]
    assert "Non-adherence test in each subgroup of school" in str(rs.document)
