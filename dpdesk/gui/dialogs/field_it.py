"""Field it: export the project's items for the platform the survey runs on.

Mode (online platform, interview on a tablet or laptop, paper card), the platform's format
and the languages; the export runs in a worker (on its own connection to the project) and
writes the instrument with its README, or on paper the respondent cards (one PDF per
language). A design the platform would have to randomize, or a language whose text would not
say how to draw the randomizer, is refused before anything is written, in words.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
)

from dpdesk.errors import app_words
from dpdesk.gui.help.window import HelpKey
from dpdesk.gui.shell.steps import StepRunner
from dpdesk.gui.shell.worker import JobRunner
from dpdesk.gui.widgets.common import name, note, problem_label, show_problem

#: Mode -> the formats that fit it (paper has none: it writes the respondent cards as PDF).
#: The words are marked for Qt's translation (context ``FieldDialog``) and shown through ``tr()``.
MODES = {
    "online": (QT_TRANSLATE_NOOP("FieldDialog", "Online: respondents fill it in themselves"),
               ("qsf", "qualtrics-txt", "limesurvey", "redcap", "xlsform")),
    "interview": (QT_TRANSLATE_NOOP("FieldDialog", "Interview: an interviewer reads it from a tablet or laptop"),
                  ("redcap", "xlsform", "limesurvey")),
    "paper": (QT_TRANSLATE_NOOP("FieldDialog", "Paper: a printed card handed to the respondent"), ()),
}
PAPER = "paper"
EXTENSIONS = {"qsf": "Qualtrics survey (*.qsf)", "qualtrics-txt": "Text (*.txt)", "limesurvey": "Text (*.txt)",
              "redcap": "CSV (*.csv)", "xlsform": "Excel workbook (*.xlsx)"}


def export_job(job, project, out: str, fmt: str, languages: list[str], mode: str = "online", items=None):
    """Worker: write the instrument (all items, or those named) and remember it in the project."""
    from dpdesk.project.fielding import export_instrument
    from dpdesk.project.reading.importing import own_connection

    job.progress(0.1, "Writing the instrument…")
    with own_connection(project) as own:
        return export_instrument(own, out, fmt, languages=languages, items=items, mode=mode)


def cards_steps(cards: dict[str, list[tuple[str, str]]], path: str):
    """Steps (``StepRunner``, on the GUI thread): one PDF of the items' cards per language (``cards`` from
    ``paper_cards``); returns the paths written."""
    from dpdesk.printing import card_steps, scaled_steps

    written = []
    for k, (language, pages) in enumerate(cards.items()):
        steps = card_steps(pages, card_path(path, language, len(cards)))
        written.append((yield from scaled_steps(steps, k / len(cards), 1 / len(cards))))
    return written


def card_path(path: str, language: str, count: int) -> Path:
    """Where the cards of ``language`` go: ``path`` itself for one language, else ``<path>-<language>.pdf``."""
    path = Path(path)
    stem = path.with_suffix("") if path.suffix.lower() == ".pdf" else path
    return Path(f"{stem}.pdf") if count == 1 else Path(f"{stem}-{language}.pdf")


class FieldDialog(QDialog):
    """Choose mode, format and languages; Export… writes the files (on paper: Save cards… the card PDFs).
    ``exported(Exported)`` or ``cards_saved([paths])`` after."""

    exported = Signal(object)
    cards_saved = Signal(list)

    def __init__(self, project, parent=None, items: list[str] | None = None, mode: str | None = None) -> None:
        """``items``: export only these (the wizard's new item); ``mode``: the mode chosen first."""
        super().__init__(parent)
        self.items = list(items) if items else None
        HelpKey(self, "Field")
        self.setWindowTitle(self.tr("Field it"))
        self.setObjectName("fieldDialog")
        self.resize(620, 380)
        self.project = project
        self._cards: dict = {}
        self.mode = name(QComboBox(), self.tr("Mode"), self.tr("How respondents answer: online, in an interview or on paper"))
        for key, (words, _) in MODES.items():
            self.mode.addItem(self.tr(words), key)
        self.format = name(QComboBox(), self.tr("Format"), self.tr("The survey platform's import format"))
        self.languages = name(QListWidget(), self.tr("Languages"), self.tr("The languages of the respondent text"))
        self.languages.setMaximumHeight(70)
        from dpdesk.gui.widgets import cell_choices

        cell_choices.install(self.languages)  # one click anywhere on a language ticks it (not only its square)
        from dpdesk.project.fielding.texts import LANGUAGES, language_name
        from dpdesk.project.languages import CHECK_NOTE, review_summary

        used = review_summary(project)  # the items' languages (Design > Languages…): (reviewed, items)
        for code in LANGUAGES:
            done, total = used.get(code, (0, 0))
            entry = QListWidgetItem(language_name(code) + (f" – {self.tr(CHECK_NOTE)}" if done < total else ""))
            entry.setData(Qt.ItemDataRole.UserRole, code)
            entry.setFlags(entry.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            entry.setCheckState(Qt.CheckState.Checked if code in used or code == "en" else Qt.CheckState.Unchecked)
            self.languages.addItem(entry)
        self.items_label = QLabel()
        self.items_label.setWordWrap(True)
        self.problem = problem_label()
        self.status = note()
        form = QFormLayout()
        form.addRow(self.tr("&Mode:"), self.mode)
        form.addRow(self.tr("&Format:"), self.format)
        form.addRow(self.tr("&Languages:"), self.languages)
        form.addRow(self.tr("Items:"), self.items_label)
        self.export_button = name(QPushButton(self.tr("Export…")), "Export instrument",
                                  "Choose where to save the instrument and write it")
        self.export_button.setDefault(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.export_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        chosen = [i for i in project.items() if self.items is None or i.name in self.items]
        versions = self.tr(" It draws one thing only: which version of question B each respondent of an extended "
                           "crosswise item reads, which says nothing about the answer and is recorded.") \
            if any(i.design_name == "ecwm" for i in chosen) else ""
        layout.addWidget(note(self.tr(
            "The instrument keeps the randomization with the respondent: the platform never draws an answer's "
            "randomizer.{0} A README beside it says which platform settings to switch off (per-question timing, "
            "ballot-box-stuffing cookies). Import the platform's answer export later: the items map themselves.")
            .format(versions)))
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addStretch(1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_done)
        self.jobs.failed.connect(self._on_failed)
        self.card_steps = StepRunner(self)  # the PDFs are laid out on the GUI thread, in steps
        self.card_steps.done.connect(self._on_done)
        self.card_steps.failed.connect(self._on_failed)
        self.mode.currentIndexChanged.connect(self._on_mode)
        self.languages.itemChanged.connect(self._on_language)
        self.export_button.clicked.connect(self.choose_and_export)
        self._on_mode(0)
        if mode in MODES:
            self.mode.setCurrentIndex(self.mode.findData(mode))

    # ------------------------------------------------------------------ choices
    def _on_mode(self, _index: int) -> None:
        from dpdesk.project.fielding import FORMAT_NAMES

        formats = MODES[self.mode.currentData()][1]
        self.format.clear()
        for fmt in formats:
            self.format.addItem(FORMAT_NAMES[fmt], fmt)
        self.format.setEnabled(bool(formats))
        self._check()

    def _on_language(self, _entry) -> None:
        self._check()

    def chosen_languages(self) -> list[str]:
        return [self.languages.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.languages.count())
                if self.languages.item(i).checkState() == Qt.CheckState.Checked]

    def _check(self) -> None:
        """Refusals in words before anything is written; Export only when every item can be fielded."""
        from dpdesk.project.fielding.instrument import problems

        items = [i for i in self.project.items() if self.items is None or i.name in self.items]
        self.items_label.setText(", ".join(i.name for i in items) or self.tr("none yet: add one first"))
        mode = self.mode.currentData()
        if mode == PAPER:  # the card: any design, with its physical randomizer in the respondent's hands
            found = self._paper_problems()
        else:
            found = problems(self.project, self.items, mode=mode, languages=self.chosen_languages())
        self.export_button.setText(self.tr("Save cards…") if mode == PAPER else self.tr("Export…"))
        show_problem(self.problem, "\n\n".join(found))
        self.export_button.setEnabled(bool(items) and not found and bool(self.chosen_languages()))

    def _paper_problems(self) -> list[str]:
        from dpdesk.errors import DpdeskError
        from dpdesk.project.languages import paper_cards

        try:
            self._cards = paper_cards(self.project, self.chosen_languages(), self.items)
        except DpdeskError as exc:
            self._cards = {}
            return [app_words(exc)]
        return []

    # ------------------------------------------------------------------ export
    def choose_and_export(self) -> None:
        if self.mode.currentData() == PAPER:
            start = str(Path(self.project.path).with_suffix("")) + "-cards.pdf"
            path, _ = QFileDialog.getSaveFileName(self, self.tr("Save the cards"), start,
                                                  self.tr("PDF files (*.pdf)"))
            if path:
                self.save_cards(path)
            return
        fmt = self.format.currentData()
        start = str(Path(self.project.path).with_suffix("")) + "-instrument"
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Save the instrument"), start, EXTENSIONS[fmt])
        if path:
            self.export_to(path)

    def export_to(self, path: str) -> None:
        self.export_button.setEnabled(False)
        self.status.setText(self.tr("Writing the instrument…"))
        self.jobs.start(export_job, self.project, path, self.format.currentData(), self.chosen_languages(),
                        self.mode.currentData(), self.items)

    def save_cards(self, path: str) -> None:
        """Write the cards (one PDF per chosen language) in steps; ``cards_saved(paths)`` after."""
        if self._paper_problems():
            return self._check()
        self.export_button.setEnabled(False)
        self.status.setText(self.tr("Writing the cards…"))
        self.card_steps.start(cards_steps(self._cards, path))

    def _on_done(self, result) -> None:
        self.export_button.setEnabled(True)
        if isinstance(result, list):  # the cards
            names = ", ".join(p.name for p in result)
            self.status.setText(self.tr("Wrote {names}. Print one card for each respondent.").format(names=names))
            self.cards_saved.emit(result)
            return
        names = ", ".join(p.name for p in result.files)
        self.status.setText(self.tr("Wrote {names}. Read the README before fielding.").format(names=names))
        self.exported.emit(result)

    def _on_failed(self, exc) -> None:
        from dpdesk.gui.dialogs.errors import show_error

        self.status.setText("")
        self.export_button.setEnabled(True)
        show_error(exc, self)

    def done(self, code: int) -> None:  # noqa: D102 - finish the job before closing
        self.jobs.cancel()
        self.card_steps.cancel()
        super().done(code)
