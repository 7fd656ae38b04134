"""The Data view's "Survey design" panel: the weight, strata, PSU and stratum-size columns, the known population size.

It shows the shown dataset's stored design, offers columns whose names look like a design's
(``project.survey_design.guess_design``) without applying them, and saves or removes the
design (``set_survey_design`` checks the columns: a blank or negative weight is refused with
its rows). A known population size N makes the means Horvitz-Thompson estimates (``rr.survey_estimate``'s
``population``): the weighted answers' sum over N, for Kuk's card design of the mean red card; the
two-group designs, estimated by weighted pseudo-maximum likelihood, refuse it. It computes nothing itself.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton

from dpdesk.errors import DpdeskError

from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.widgets.common import name, note

NONE = "(none)"
ROLES = (("weights", "Weight", "The column of survey weights"),
         ("strata", "Strata", "The column of strata"),
         ("clusters", "Clusters (PSU)", "The column of primary sampling units (clusters), numbered within strata"),
         ("fpc", "Stratum sizes", "The column with the population size of each respondent's stratum "
                                  "(finite population correction)"))
POPULATION_TIP = ("The number of people in the population the sample was drawn from (leave empty for weighted "
                  "means). With it, prevalences are Horvitz-Thompson means, the sum of the weighted answers over N "
                  "as in RRTCS (Kuk's card design: of the mean red card, with any number of cards); the weights "
                  "must expand the sample to the population. Two-group designs (lie detector, cheating detection, "
                  "unrelated question with unknown prevalence) cannot use it.")


class SurveyDesignPanel(QGroupBox):
    """Choose, save or remove the survey design of the dataset shown in the Data view."""

    design_changed = Signal(str)  # the dataset whose design was saved or removed (results are out of date)

    def __init__(self, parent=None) -> None:
        super().__init__("Survey design", parent)
        self.setObjectName("surveyDesignPanel")
        self.project = None
        self.dataset = None
        self.frame = None
        self.combos: dict[str, QComboBox] = {}
        grid = QGridLayout()
        for k, (role, label, tip) in enumerate(ROLES):
            combo = name(QComboBox(), label, tip)
            # a labelled column's long name must not widen the window past a 1024 px screen (the list shows it whole)
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(14)
            self.combos[role] = combo
            grid.addWidget(QLabel(label + ":"), k // 2, 2 * (k % 2))  # two columns of two
            grid.addWidget(combo, k // 2, 2 * (k % 2) + 1)
        from dpdesk.project.study.survey_design import LONELY_WORDS

        self.lonely = name(QComboBox(), "Single-PSU strata",
                           "What to do with a stratum that has only one PSU (R survey's survey.lonely.psu)")
        for key, words in LONELY_WORDS.items():
            self.lonely.addItem(words, key)
        self.lonely.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.lonely.setMinimumContentsLength(20)
        grid.addWidget(QLabel("A stratum with one PSU:"), 2, 0)
        grid.addWidget(self.lonely, 2, 1)
        self.suggest = name(QPushButton("Use suggestions"), "Use suggested columns",
                            "Fill in the columns whose names look like a survey design's (not saved until you save)")
        self.suggest.clicked.connect(self.use_suggestions)
        self.save = name(QPushButton("Save design"), "Save survey design",
                         "Store this design with the dataset: every estimate becomes design-based")
        self.save.clicked.connect(self.save_design)
        self.remove = name(QPushButton("Remove design"), "Remove survey design",
                           "Analyse the dataset as a simple random sample again")
        self.remove.clicked.connect(self.remove_design)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for b in (self.suggest, self.save, self.remove):
            buttons.addWidget(b)
        grid.addLayout(buttons, 3, 2, 1, 2)
        self.population = name(QLineEdit(), "Known population size", POPULATION_TIP)
        self.population.setObjectName("surveyPopulation")
        self.population.setPlaceholderText("(none: weighted means)")
        grid.addWidget(QLabel("Population size (N):"), 2, 2)
        grid.addWidget(self.population, 2, 3)
        self.status = note(object_name="surveyDesignStatus")
        self.hint = note(object_name="surveyDesignHint")
        grid.addWidget(self.status, 4, 0, 1, 4)
        grid.addWidget(self.hint, 5, 0, 1, 4)
        self.setLayout(grid)
        self.suggested = None

    def show_dataset(self, project, dataset: str, frame) -> None:
        """Fill the choices from the dataset's columns and its stored design."""
        from dpdesk.project.study.survey_design import guess_design, survey_design

        self.project, self.dataset, self.frame = project, dataset, frame
        columns = [str(c) for c in frame.columns]
        stored = survey_design(project, dataset)
        for role, combo in self.combos.items():
            combo.clear()
            combo.addItem(NONE, None)
            for c in columns:
                combo.addItem(c, c)
            chosen = getattr(stored, role) if stored is not None else None
            combo.setCurrentIndex(max(0, combo.findData(chosen)) if chosen else 0)
        self.lonely.setCurrentIndex(max(0, self.lonely.findData(stored.lonely_psu if stored else "fail")))
        self.population.setText(f"{stored.population:g}" if stored is not None and stored.population else "")
        guess = guess_design(columns)
        self.suggested = None if guess.is_empty else guess
        self.suggest.setEnabled(self.suggested is not None)
        self.remove.setEnabled(stored is not None)
        self._show_status(stored)

    def _show_status(self, stored) -> None:
        if stored is None:
            self.status.setText("No survey design: the dataset is analysed as a simple random sample.")
        else:
            ht = (" With the population size, prevalences are Horvitz-Thompson means (Kuk's cards: of the mean red "
                  "card); two-group designs cannot use it." if stored.population else "")
            self.status.setText(f"<b>Saved:</b> {stored.describe()}. Estimates, subgroups and regressions of "
                                f"this dataset are weighted, with Taylor-linearization standard errors.{ht}")
        self.hint.setText(f"Suggested from the column names (not applied): {self.suggested.describe()}."
                          if self.suggested is not None and stored is None else "")
        self.hint.setVisible(bool(self.hint.text()))

    def chosen(self):
        """The design in the boxes (a population size that is not a number: DataError in words)."""
        from dpdesk.project.study.survey_design import SurveyDesign, population_from_text

        return SurveyDesign(**{role: combo.currentData() for role, combo in self.combos.items()},
                            population=population_from_text(self.population.text()),
                            lonely_psu=self.lonely.currentData())

    def use_suggestions(self) -> None:
        if self.suggested is None:
            return
        for role, combo in self.combos.items():
            column = getattr(self.suggested, role)
            if column:
                combo.setCurrentIndex(max(0, combo.findData(column)))

    def save_design(self) -> None:
        from dpdesk.project.study.survey_design import set_survey_design, survey_design

        if self.project is None or self.dataset is None:
            return
        try:
            set_survey_design(self.project, self.chosen(), self.dataset, frame=self.frame)
        except DpdeskError as exc:
            show_error(exc, self)
            return
        stored = survey_design(self.project, self.dataset)
        self.remove.setEnabled(stored is not None)
        self._show_status(stored)
        self.design_changed.emit(self.dataset)

    def remove_design(self) -> None:
        from dpdesk.project.study.survey_design import clear_survey_design

        if self.project is None or self.dataset is None:
            return
        clear_survey_design(self.project, self.dataset)
        for combo in self.combos.values():
            combo.setCurrentIndex(0)
        self.population.clear()
        self.remove.setEnabled(False)
        self._show_status(None)
        self.design_changed.emit(self.dataset)
