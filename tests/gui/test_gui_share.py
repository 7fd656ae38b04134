"""The Share view: roles proposed, check, remedies with undo, pseudonyms, export (pytest-qt)."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.helpers.gui import shot
from dpdesk.mechanisms import rr


def make_project(folder):
    from dpdesk.project.file.store import Project

    n = 240
    frame = pd.DataFrame({
        "student_no": [f"{41000000 + 13 * i}" for i in range(n)],
        "age": [18 + (i * 7) % 47 for i in range(n)],
        "sex": ["f" if i % 3 else "m" for i in range(n)],
        "region": [("north", "south", "east", "west")[i % 4] for i in range(n)],
        "cheated": [1 + (i * 5) % 2 for i in range(n)],
        "stress": [1 + (i * 3) % 5 for i in range(n)],
    })
    path = folder / "survey.dpdesk"
    with Project.create(path) as project:
        project.add_dataset("students", frame, source={"name": "students.csv", "sha256": "ab" * 32},
                            options={}, report={})
        project.add_item("cheating", rr.design("warner", p=0.7), column="cheated", codes={"1": "yes", "2": "no"})
    return path


@pytest.fixture
def view(window, tmp_path, qtbot):
    assert window.open_project(make_project(tmp_path))
    v = window.share_view
    window.nav.setCurrentRow(window.nav.count() - 1)
    qtbot.waitUntil(lambda: v.table is not None, timeout=20000)
    return v


def wait(qtbot, v):
    qtbot.waitUntil(lambda: not v.jobs.running, timeout=20000)


def test_share_view_check_remedy_undo_pseudonym_export(view, qtbot, tmp_path, window):
    roles = view.chosen_roles()
    assert roles["student_no"] == "identifier" and roles["age"] == "quasi-identifier"
    assert roles["cheated"] == "sensitive"  # protected: not checked unless ticked
    view.set_role("stress", "sensitive")
    view.run_check()
    wait(qtbot, view)
    assert view.extract is not None and not view.extract.result.passes
    assert view.at_risk.rowCount() > 0 and "fail a check" in view.verdict.text()
    summary = {view.summary.item(i, 0).text(): view.summary.item(i, 1).text()
               for i in range(view.summary.rowCount())}
    assert "cheated: not checked" in summary
    view.column.setCurrentText("age")
    view.rule.setText("bands:20")
    view.generalize()
    wait(qtbot, view)
    at_risk_after_bands = int(view.extract.result.k.n_at_risk)
    view.suppress_records()
    wait(qtbot, view)
    assert view.extract.result.k.passes and view.steps.rowCount() == 3
    view.undo()
    wait(qtbot, view)
    assert view.extract.result.k.n_at_risk == at_risk_after_bands and view.steps.rowCount() == 2
    view.suppress_records()
    wait(qtbot, view)
    from dpdesk.project.sharing import pseudonymize as pz

    key = pz.generate_key(tmp_path / "study.key")
    view.key_path.setText(str(key))
    view.column.setCurrentText("student_no")
    view.pseudonymize()
    wait(qtbot, view)
    assert "student_no" in view.extract.pseudonymised
    shot(window, "share_view")
    view.export_to(tmp_path / "shared.xlsx")
    wait(qtbot, view)
    sheets = pd.read_excel(tmp_path / "shared.xlsx", sheet_name=None, dtype=str)
    assert list(sheets) == ["Data", "Disclosure report"]
    assert sheets["Data"]["student_no"].str.fullmatch(r"\d{8}").all()
    assert "Wrote shared.xlsx" in view.status.text()
    from dpdesk.project.sharing.column_protection import sharing_settings

    remembered = sharing_settings(view.project)  # the Results view warns about exact counts by these
    assert remembered.k == view.extract.options.k and "age" in remembered.quasi


def test_share_view_shows_errors_in_words(view, qtbot, monkeypatch):
    shown = []
    monkeypatch.setattr("dpdesk.gui.views.share_view.show_error", lambda exc, parent: shown.append(str(exc)))
    for column in view.chosen_roles():
        view.set_role(column, "other")
    view.run_check()
    wait(qtbot, view)
    assert shown and "No quasi-identifiers" in shown[-1]
