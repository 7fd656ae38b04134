"""tr() readiness (issue 24): the wizard's "Then field it" modes and the Field it dialog's modes are
marked for Qt's translation and shown through tr(), so a translation file changes them."""

from __future__ import annotations

import ast
import inspect

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

from dpdesk.gui.dialogs import field_it
from dpdesk.gui.wizard import page_instructions


class Marking(QTranslator):
    """A stand-in translation: every text of the given contexts comes back as ``«text»``."""

    def __init__(self, contexts):
        super().__init__()
        self.contexts = set(contexts)

    def isEmpty(self) -> bool:  # noqa: N802 - Qt API
        return False

    def translate(self, context, source, disambiguation=None, n=-1):
        return f"«{source}»" if context in self.contexts else None


@pytest.fixture
def marking(qapp):
    translator = Marking({"InstructionsPage", "FieldDialog"})
    QCoreApplication.installTranslator(translator)
    yield translator
    QCoreApplication.removeTranslator(translator)


def _noop_contexts(module, constant: str) -> set:
    """The contexts of the QT_TRANSLATE_NOOP calls inside ``constant``'s definition (lupdate reads these)."""
    tree = ast.parse(inspect.getsource(module))
    node = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == constant)
    calls = [c for c in ast.walk(node.value) if isinstance(c, ast.Call) and getattr(c.func, "id", "") == "QT_TRANSLATE_NOOP"]
    return {c.args[0].value for c in calls}, len(calls)


def test_mode_labels_are_marked_for_translation():
    contexts, count = _noop_contexts(page_instructions, "FIELD_MODES")
    assert contexts == {"InstructionsPage"} and count == len(page_instructions.FIELD_MODES)
    contexts, count = _noop_contexts(field_it, "MODES")
    assert contexts == {"FieldDialog"} and count == len(field_it.MODES)


def test_the_wizard_shows_its_field_modes_through_tr(window, qtbot, marking):
    wizard = window.design_view.new_item()
    combo = wizard.instructions_page.field_mode
    shown = [combo.itemText(i) for i in range(combo.count())]
    assert shown == [f"«{words}»" for words, _ in page_instructions.FIELD_MODES]
    assert [combo.itemData(i) for i in range(combo.count())] == [m for _, m in page_instructions.FIELD_MODES]
    wizard.reject()


def test_the_field_dialog_shows_its_modes_through_tr(window, qtbot, tmp_path, marking):
    from PySide6.QtCore import Qt

    from tests.helpers.fielding import fielding_project

    fielding_project(tmp_path / "s.dpdesk", ["forced"]).close()
    assert window.open_project(tmp_path / "s.dpdesk")
    view = window.design_view
    qtbot.waitUntil(lambda: view.field_button.isEnabled())
    qtbot.mouseClick(view.field_button, Qt.MouseButton.LeftButton)
    dialog = view.field_dialog
    qtbot.waitExposed(dialog)
    shown = [dialog.mode.itemText(i) for i in range(dialog.mode.count())]
    assert shown == [f"«{words}»" for words, _ in field_it.MODES.values()]
    assert [dialog.mode.itemData(i) for i in range(dialog.mode.count())] == list(field_it.MODES)
    assert dialog.mode.accessibleName() == "«Mode»"
    dialog.reject()
