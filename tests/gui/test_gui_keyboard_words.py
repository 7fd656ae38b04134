"""No Tab traps in tables; column types in words; Share proposes time stamps and direct-question
twins as quasi-identifier / sensitive, numbers rows as the file does and asks before exporting
records that fail k."""

from __future__ import annotations

import pandas as pd
import pytest
from PySide6.QtWidgets import QAbstractItemView

from dpdesk.mechanisms import rr


def test_no_table_swallows_tab(window, tmp_path):
    from dpdesk.gui.shell.example_project import build_example

    assert window.open_project(build_example(None, tmp_path / "example.dpdesk"))
    for task in range(window.nav.count()):
        window.nav.setCurrentRow(task)
    traps = [v.accessibleName() or v.objectName() for v in window.findChildren(QAbstractItemView)
             if v.tabKeyNavigation() and v.isVisibleTo(window)]
    assert traps == []


def test_column_types_are_words():
    from dpdesk.gui.widgets.common import type_words

    assert [type_words(t) for t in ("int64", "Int8", "float64", "category", "object", "string",
                                    "datetime64[ns]")] == \
        ["whole numbers", "whole numbers", "numbers", "categories", "text", "text", "dates and times"]


def make_project(folder):
    from dpdesk.project.file.store import Project

    n = 60
    frame = pd.DataFrame({
        "StartDate": [f"2024-03-{1 + i % 28:02d} 10:{i % 60:02d}:00" for i in range(n)],
        "RecordedDate": [f"2024-03-{1 + i % 28:02d} 11:{i % 60:02d}:00" for i in range(n)],
        "age": [18 + i % 30 for i in range(n)],
        "cheated": [1 + i % 2 for i in range(n)],
        "cheated_direct": ["Yes" if i % 5 else "No" for i in range(n)],
    })
    path = folder / "survey.dpdesk"
    with Project.create(path) as project:
        project.add_dataset("s", frame, source={"name": "s.csv", "sha256": "cd" * 32}, options={},
                            report={"first_data_row": 2})
        project.add_item("cheating", rr.design("warner", p=0.7), column="cheated", codes={"1": "yes", "2": "no"})
    return path


@pytest.fixture
def share(window, tmp_path, qtbot):
    assert window.open_project(make_project(tmp_path))
    v = window.share_view
    window.nav.setCurrentRow(window.nav.count() - 1)
    qtbot.waitUntil(lambda: v.table is not None, timeout=20000)
    return v


def test_share_roles_rows_and_confirmation(share, qtbot, tmp_path):
    roles = share.chosen_roles()
    assert roles["StartDate"] == roles["RecordedDate"] == "quasi-identifier"
    assert roles["cheated_direct"] == "sensitive"
    share.set_role("StartDate", "other")
    share.set_role("RecordedDate", "other")
    share.k.setValue(20)
    share.run_check()
    qtbot.waitUntil(lambda: not share.jobs.running, timeout=20000)
    assert not share.extract.result.passes
    first = share.extract.frame.loc[share.extract.result.at_risk].index[0]
    assert share.at_risk.item(0, 0).text() == str(first + 2)  # the Data view's numbering
    asked = []
    share.confirm_failing = lambda fails: asked.append(fails) or False
    share.export_to(tmp_path / "x.csv")
    assert asked == [int(share.extract.result.at_risk.sum())] and not (tmp_path / "x.csv").exists()
    share.confirm_failing = lambda fails: True
    share.export_to(tmp_path / "x.csv")
    qtbot.waitUntil(lambda: not share.jobs.running, timeout=20000)
    assert (tmp_path / "x.csv").exists()


def test_gui_text_names_no_command_line_flags():
    """No string in the GUI code hints at a command (``dpdesk budget ...``) or a flag (``--set``)."""
    import ast
    import re

    from tests.helpers.paths import ROOT

    hint = re.compile(r"\bdpdesk (new|import|budget|release|ledger|share|report|estimate|export)\b|(^|\s)--[a-z]")
    found = []
    for path in (ROOT / "dpdesk" / "gui").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if hint.search(node.value) and "print" not in path.name:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:60]!r}")
    assert found == []


def test_errors_shown_in_the_app_name_app_actions(window, tmp_path):
    from dpdesk.gui.dialogs.errors import error_box
    from dpdesk.errors import DpdeskError
    from dpdesk.project import ledger

    assert window.create_project(tmp_path / "p.dpdesk")
    with pytest.raises(DpdeskError) as err:
        ledger.lower_budget(window.project, 1)
    assert "--set" in str(err.value)  # the command line keeps its wording
    text = error_box(err.value).informativeText()
    assert "--" not in text and "dpdesk budget" not in text and "Set the privacy budget" in text


def test_design_names_are_words(window, tmp_path):
    from dpdesk.gui.shell.example_project import build_example
    from dpdesk.gui.widgets.common import design_words

    assert design_words("forced_multi") == "Forced response, several categories"
    assert all("_" not in design_words(k) for k in rr.DESIGN_NAMES)
    assert window.open_project(build_example(None, tmp_path / "example.dpdesk"))
    t = window.design_view.table
    shown = [t.item(r, 2).text() for r in range(t.rowCount())]
    assert shown and all("_" not in s.split(":")[0] for s in shown)


def test_column_headers_say_the_type_in_words():
    from PySide6.QtCore import Qt

    from dpdesk.gui.widgets.table_model import FrameModel

    model = FrameModel(pd.DataFrame({"age": [20, 30], "faculty": pd.Categorical(["Arts", "Law"])}))
    tips = [model.headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) for i in range(2)]
    assert tips == ["age: whole numbers", "faculty: categories"]


def test_wizard_tables_do_not_swallow_tab(window, tmp_path, qtbot):
    assert window.create_project(tmp_path / "w.dpdesk")
    wizard = window.design_view.new_item()
    tables = wizard.findChildren(QAbstractItemView)
    assert tables and [t.accessibleName() for t in tables if t.tabKeyNavigation()] == []
    wizard.reject()
