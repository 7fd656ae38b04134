"""The Design view: the project's survey items, the wizard to add or edit one, combined privacy."""

from __future__ import annotations

import math
from fractions import Fraction

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpdesk.errors import DpdeskError
from dpdesk.gui.help.button import ViewTitle
from dpdesk.gui.shell import commands
from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.wizard.catalog import BY_KEY
from dpdesk.gui.widgets.common import design_words, name
from dpdesk.project.number_style import NumberStyle


def combined_epsilon(epsilons: list[float | None]) -> Fraction | float:
    """Sequential composition of the items' local epsilons (None = infinite), exactly summed by
    ``dpdesk.mechanisms.accounting`` (Dwork & Roth 2014, thm 3.16)."""
    if any(e is None or math.isinf(e) for e in epsilons):
        return math.inf
    from dpdesk.mechanisms import accounting

    return accounting.epsilon([accounting.PureDP(Fraction(str(e))) for e in epsilons if e > 0])


def combined_words(items: list[tuple[str, float | None]]) -> str:
    """The privacy a respondent accepts across all items, in words (items: name, epsilon)."""
    if not items:
        return "Add a survey item to see how well respondents are protected."
    finite = [(n, e) for n, e in items if e is not None and not math.isinf(e)]
    open_items = [n for n, e in items if e is None or math.isinf(e)]
    parts = []
    if finite:
        total = float(combined_epsilon([e for _n, e in finite]))
        ratio = math.exp(total)
        ratio_text = NumberStyle.ratio_in_text(ratio).removesuffix(" times")
        if len(finite) == 1 and not open_items:
            parts.append(f"Local epsilon {total:.2f}: any answer is at most {ratio_text} times as likely from one "
                         "kind of respondent as from another.")
        else:
            which = "all" if not open_items else "the"
            parts.append(f"A respondent who answers {which} {len(finite)} items with fully protected answers accepts "
                         f"a combined local epsilon of {total:.2f} (the items' epsilons add up): together, their "
                         f"answers are at most {ratio_text} times as likely from one kind of respondent as from "
                         "another.")
    if open_items:
        names = ", ".join(f"'{n}'" for n in open_items)
        parts.append(f"{names} {'has' if len(open_items) == 1 else 'have'} an answer that is not protected "
                     "(infinite epsilon); that is usual for designs that detect lying or cheating.")
    return " ".join(parts)


def mapping_words(item) -> tuple[str, str]:
    """The item's column in the active dataset ("not mapped in this dataset"), and where else it is mapped."""
    elsewhere = "; ".join(f"{ds}: {m['column']}" for ds, m in item.mappings.items()) or "not mapped in any dataset"
    if item.dataset is None:  # no data yet: the column it will be read from
        return (item.column or "", f"Once the data are imported: {item.column}" if item.column else "")
    if not item.mapped:
        return "not mapped in this dataset", f"Map it in Data > Map items…. Mapped in: {elsewhere}"
    return str(item.column), f"Mapped in: {elsewhere}"


class DesignView(QWidget):
    wizard_opened = Signal(object)  # the DesignWizard, for tests and the main window

    def __init__(self, window, parent=None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.setObjectName("view_design")
        title = ViewTitle("Design")  # with its "?" button: the guide's page on this view
        intro = QLabel("The sensitive questions of your survey and how respondents answer them.")
        intro.setWordWrap(True)
        self.table = name(QTableWidget(0, 5), "Survey items", "The survey items of this project and their designs")
        self.table.setHorizontalHeaderLabels(["Item", "Question", "What respondents do", "Privacy (local epsilon)",
                                              "Answer column"])
        self.table.horizontalHeaderItem(4).setToolTip("The column holding the item's answers in the active dataset "
                                                      "(each dataset keeps its own)")
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.ResizeToContents)
        self.new_button = name(QPushButton("New survey item…"), "New survey item",
                               "Design a new sensitive question step by step")
        self.edit_button = name(QPushButton("Edit…"), "Edit item", "Change the selected item's question or design")
        self.remove_button = name(QPushButton("Remove"), "Remove item", "Remove the selected item (you can undo this)")
        self.map_button = name(QPushButton("Map…"), "Map item",
                               "Choose the column and codes of the selected item in the active dataset")
        self.languages_button = name(QPushButton(self.tr("Languages…")), self.tr("Respondent text in other languages"),
                                     self.tr("The selected item's question, instructions and card in the "
                                             "respondents' languages, and their review"))
        self.field_button = name(QPushButton(self.tr("Field it…")), "Field it",
                                 "Export the items for Qualtrics, LimeSurvey, REDCap or ODK/Kobo")
        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.map_button)
        buttons.addWidget(self.languages_button)
        buttons.addStretch(1)
        buttons.addWidget(self.field_button)
        self.combined = QLabel()
        self.combined.setObjectName("combinedEpsilon")
        self.combined.setWordWrap(True)
        self.combined.setAccessibleName("Combined privacy")
        self.combined.setAccessibleDescription("The local epsilon a respondent accepts across all items")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.setSpacing(12)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        self.short_label = name(QLineEdit(), "Short label",
                                "What tables, plots and reports call the selected item (empty: its question)")
        self.short_label.setPlaceholderText("the question (type a short label, e.g. Exam cheating)")
        self.short_label.editingFinished.connect(self._on_short_label)
        label_row = QHBoxLayout()
        caption = QLabel("Short label in output:")
        caption.setBuddy(self.short_label)
        label_row.addWidget(caption)
        label_row.addWidget(self.short_label, 1)
        layout.addLayout(label_row)
        layout.addWidget(self.combined)
        self.new_button.clicked.connect(self.new_item)
        self.edit_button.clicked.connect(self.edit_selected)
        self.remove_button.clicked.connect(self.remove_selected)
        self.map_button.clicked.connect(self.map_selected)
        self.languages_button.clicked.connect(self.languages_selected)
        self.field_button.clicked.connect(self.field_it)
        self.field_dialog = None
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(self.edit_selected)
        self.wizard = None
        self.setTabOrder(self.new_button, self.edit_button)
        self.setTabOrder(self.edit_button, self.remove_button)
        self.setTabOrder(self.remove_button, self.map_button)
        self.setTabOrder(self.map_button, self.languages_button)
        self.setTabOrder(self.languages_button, self.field_button)
        self.setTabOrder(self.field_button, self.table)
        self.refresh()

    # ------------------------------------------------------------------ display
    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        project = self.window_.project
        if project is not None and not project.closed:  # the active dataset may have changed meanwhile
            self.refresh()

    def refresh(self) -> None:
        project = self.window_.project
        items = project.items() if project is not None and not project.closed else []
        self.table.setRowCount(len(items))
        epsilons: list[tuple[str, float | None]] = []
        for row, item in enumerate(items):
            record = item.design_record
            choice = BY_KEY.get(record["name"])
            what = design_words(record["name"])  # "Forced response, several categories", never "forced_multi"
            if choice is not None:
                what += f": {choice.title[0].lower()}{choice.title[1:]}"
            eps = record.get("epsilon")
            epsilons.append((item.name, eps))
            privacy = ("infinite: not every answer is protected" if eps is None
                       else f"{eps:.2f}: answers at most {NumberStyle.ratio_in_text(math.exp(eps))} as likely")
            answers, where = mapping_words(item)
            languages = self._languages_words(item.name)
            for col, text in enumerate((item.name, item.question, what, privacy, answers)):
                cell = QTableWidgetItem(text)
                cell.setToolTip({1: f"{text}\n\n{languages}" if languages else text,
                                 2: record.get("description") or text, 4: where}.get(col, text))
                self.table.setItem(row, col, cell)
        self.table.resizeRowsToContents()
        self.combined.setText("<b>Combined privacy.</b> " + combined_words(epsilons))
        self._update_buttons()

    def _languages_words(self, item_name: str) -> str:
        """"Also in: Deutsch (reviewed), Français (check with a native speaker before fielding)"."""
        from dpdesk.mechanisms.rr.wording import LANGUAGES
        from dpdesk.project import languages

        project = self.window_.project
        others = list(languages.item_languages(project, item_name).items())[1:]  # after the source language
        if not others:
            return ""
        return self.tr("Also in: {0}").format(", ".join(
            f"{LANGUAGES[lang]} ({self.tr('reviewed') if done else languages.CHECK_NOTE})"
            for lang, (done, _by) in others))

    def _update_buttons(self) -> None:
        has_project = self.window_.project is not None
        selected = bool(self.table.selectedItems())
        item = self.selected_name()
        project = self.window_.project
        self.short_label.setEnabled(has_project and selected)
        self.short_label.setText(project.item_labels().get(item, "") if item and project is not None
                                 and not project.closed else "")
        self.new_button.setEnabled(has_project)
        self.edit_button.setEnabled(has_project and selected)
        self.remove_button.setEnabled(has_project and selected)
        self.map_button.setEnabled(has_project and selected and bool(self.window_.project.datasets()))
        self.languages_button.setEnabled(has_project and selected)
        self.field_button.setEnabled(has_project and self.table.rowCount() > 0)

    def field_it(self, *_args, items: list[str] | None = None, mode: str | None = None) -> None:
        """The Field it dialog: export the items (all, or those named) for a survey platform."""
        from dpdesk.gui.dialogs.field_it import FieldDialog

        self.field_dialog = FieldDialog(self.window_.project, self, items=items, mode=mode)
        self.field_dialog.open()

    def _on_short_label(self) -> None:
        """The short label was edited (Enter or leaving the box): store it as one undoable step."""
        item, project = self.selected_name(), self.window_.project
        if item is None or project is None or project.closed:
            return
        text = " ".join(self.short_label.text().split())
        if text == project.item_labels().get(item, ""):
            return
        try:
            commands.push(self.window_.undo_stack, commands.SetItemLabel(project, item, text))
        except DpdeskError as exc:
            show_error(exc, self)
            return
        self.window_.statusBar().showMessage(f"Output calls {item} {text!r} now." if text else
                                             f"Output calls {item} by its question now.", 8000)

    def selected_name(self) -> str | None:
        rows = {i.row() for i in self.table.selectedItems()}
        if not rows:
            return None
        return self.table.item(min(rows), 0).text()

    def select(self, item_name: str) -> None:
        for row in range(self.table.rowCount()):
            if self.table.item(row, 0).text() == item_name:
                self.table.selectRow(row)

    # ------------------------------------------------------------------ actions
    def new_item(self):
        from dpdesk.gui.wizard.wizard import DesignWizard

        return self._open(DesignWizard(settings=self.window_.settings, parent=self))

    def map_selected(self, *_args) -> None:
        """The mapping dialog of the selected item, for the active dataset (the Data view's)."""
        item_name = self.selected_name()
        if item_name is not None:
            self.window_.data_view.map_item(item_name)

    def languages_selected(self, *_args):
        """The selected item's respondent text in each language (the dialog, not blocking)."""
        item_name = self.selected_name()
        if item_name is None:
            return None
        from dpdesk.gui.dialogs.languages import open_languages

        self.languages_dialog = open_languages(self.window_.project, item_name, self.window_.settings, self)
        return self.languages_dialog

    def edit_selected(self, *_args):
        item_name = self.selected_name()
        if item_name is None:
            return None
        from dpdesk.gui.wizard.wizard import DesignWizard, draft_from_item

        try:
            draft = draft_from_item(self.window_.project.item(item_name), self.window_.project)
        except DpdeskError as exc:
            show_error(exc, self)
            return None
        return self._open(DesignWizard(draft, settings=self.window_.settings, parent=self))

    def _open(self, wizard):
        self.wizard = wizard
        wizard.finished.connect(self._on_wizard_finished)
        wizard.open()
        self.wizard_opened.emit(wizard)
        return wizard

    def _save_wizard(self, wizard) -> None:
        result = wizard.item_result()
        project = self.window_.project
        try:
            # Instructions are stored only as edited (unedited ones follow the design's wording), or when
            # they ask a question B, which the design alone does not know.
            text = result["instructions"] if (wizard.draft.instructions_edited or wizard.draft.question_b
                                             or wizard.draft.question_b2) else ""
            if wizard.draft.editing:
                command = commands.EditItem(project, wizard.draft.editing, result["name"], result["design"],
                                            result["question"], text)
            else:
                command = commands.AddItem(project, result["name"], result["design"], result["question"], text)
            commands.push(self.window_.undo_stack, command)
        except DpdeskError as exc:
            show_error(exc, self)
            return
        self.refresh()
        self.select(result["name"])
        self.window_.statusBar().showMessage(f"Saved item '{result['name']}' to the project.", 5000)
        if wizard.draft.field_mode:  # the wizard's last step: field it next
            self.field_it(items=[result["name"]], mode=wizard.draft.field_mode)

    def _on_wizard_finished(self, code: int) -> None:
        wizard, self.wizard = self.wizard, None
        if wizard is None:
            return
        if code == QDialog.DialogCode.Accepted:
            self._save_wizard(wizard)
        wizard.deleteLater()

    def remove_selected(self) -> None:
        item_name = self.selected_name()
        if item_name is None:
            return
        try:
            commands.push(self.window_.undo_stack, commands.RemoveItem(self.window_.project, item_name))
        except DpdeskError as exc:
            show_error(exc, self)
            return
        self.refresh()
        self.window_.statusBar().showMessage(f"Removed item '{item_name}'. Undo brings it back.", 5000)
