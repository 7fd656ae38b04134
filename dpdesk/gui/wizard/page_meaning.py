"""Wizard page 4: what the design means, live: privacy, precision, sample size, power, a preview."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWizardPage,
)

from dpdesk.errors import DpdeskError, app_words

from dpdesk.gui.widgets.preview import PreviewPlot, simulate_surveys
from dpdesk.gui.shell import prewarm
from dpdesk.gui.shell.worker import JobRunner
from dpdesk.gui.wizard import meaning
from dpdesk.gui.widgets.common import name, note, problem_label, show_problem

PREVIEW_DELAY_MS = 400
PLANNING = "dpdesk.mechanisms.rr.planning.sample_size"  # the precision and sample-size figures (scipy)


def _percent_spin(value: float, low: float, high: float, what: str, description: str) -> QDoubleSpinBox:
    spin = name(QDoubleSpinBox(), what, description)
    spin.setRange(low, high)
    spin.setDecimals(1)
    spin.setSuffix(" %")
    spin.setValue(100 * value)
    return spin


class MeaningPage(QWizardPage):
    def __init__(self, draft, parent=None) -> None:
        super().__init__(parent)
        self.draft = draft
        self.runs = 12  # simulated surveys in the preview
        self.seed: int | None = None
        self.setTitle("What it means")
        self.setSubTitle("How well respondents are protected and how precise your results will be. "
                         "Change the numbers to plan your survey.")
        self.n = name(QSpinBox(), "Planned respondents", "How many people you plan to ask")
        self.n.setRange(10, 10_000_000)
        self.n.setSingleStep(100)
        self.n.setGroupSeparatorShown(True)
        self.prevalence = _percent_spin(0.2, 0.1, 99.9, "Guessed prevalence",
                                        "Your best guess of the share who have the attribute")
        self.shares = name(QLineEdit(), "Guessed shares",
                           "Your best guess of each category's share, in percent, separated by commas")
        self.halfwidth = _percent_spin(0.05, 0.1, 50, "Target margin", "The margin of error you would like (±)")
        self.null = _percent_spin(0.0, 0.0, 99.0, "Compare against",
                                  "The share you want to show the prevalence is above")
        self.deff = name(QDoubleSpinBox(), "Expected design effect",
                         "How much weights, strata and clusters will inflate the variance (1: a simple random "
                         "sample; 1.5-2 is common for clustered samples)")
        self.deff.setRange(1.0, 20.0)
        self.deff.setDecimals(2)
        self.deff.setSingleStep(0.1)
        form = QFormLayout()
        form.setVerticalSpacing(8)
        form.addRow("Planned &respondents:", self.n)
        form.addRow("&Guessed prevalence:", self.prevalence)
        form.addRow("Guessed &shares (%):", self.shares)
        self.shares.setToolTip("Your guess of each category's share in percent, for example 50, 30, 20. "
                               "Single-choice guesses are rescaled to add up to 100%.")
        form.addRow("&Target margin (±):", self.halfwidth)
        form.addRow("Show it is above:", self.null)
        form.addRow("Expected &design effect:", self.deff)
        self.form = form
        self.privacy = note(object_name="privacyText")
        self.privacy.setAccessibleName("Privacy in words")
        self.precision = note(object_name="precisionText")
        self.precision.setAccessibleName("Precision in words")
        self.problem = problem_label()
        words = QVBoxLayout()
        words.addWidget(self.privacy)
        words.addWidget(self.precision)
        words.addWidget(self.problem)
        words.addStretch(1)
        top = QHBoxLayout()
        top.addLayout(form, 2)
        top.addSpacing(16)
        top.addLayout(words, 3)
        self.plot = PreviewPlot()
        self.progress = name(QProgressBar(), "Preview progress", "How far the simulated preview has got")
        self.progress.setRange(0, 100)
        self.cancel = name(QPushButton("Cancel"), "Cancel preview", "Stop simulating the preview")
        self.again = name(QPushButton("Simulate again"), "Simulate again", "Draw new simulated surveys")
        bar = QHBoxLayout()
        bar.addWidget(self.progress, 1)
        bar.addWidget(self.cancel)
        bar.addWidget(self.again)
        box = QGroupBox("Preview: what your results could look like")
        col = QVBoxLayout(box)
        col.addWidget(self.plot)
        col.addLayout(bar)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(box, 1)
        self.runner = JobRunner(self)
        self.runner.done.connect(self._on_preview)
        self.runner.failed.connect(self._on_preview_failed)
        self.runner.progress.connect(self._on_progress)
        self.runner.busy.connect(self._on_busy)
        self.loader = JobRunner(self)  # first use: the planning figures' libraries load in a worker
        self.loader.done.connect(self._on_loaded)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(PREVIEW_DELAY_MS)
        self.timer.timeout.connect(self.start_preview)
        for spin in (self.n, self.prevalence, self.halfwidth, self.null, self.deff):
            spin.valueChanged.connect(self._on_change)
        self.shares.textChanged.connect(self._on_change)
        self.cancel.clicked.connect(self.runner.cancel)
        self.again.clicked.connect(self.start_preview)
        self._on_busy(False)

    def initializePage(self) -> None:
        d = self.draft
        design = d.design()
        binary = design.is_binary
        self._binary = binary
        self.form.setRowVisible(self.prevalence, binary)
        self.form.setRowVisible(self.shares, not binary)
        for spin, value in ((self.n, d.planned_n), (self.prevalence, 100 * d.prevalence),
                            (self.halfwidth, 100 * d.halfwidth), (self.null, 100 * d.null), (self.deff, d.deff)):
            spin.blockSignals(True)
            spin.setValue(value)
            spin.blockSignals(False)
        if not binary:
            guess = d.guessed_prevalence(design)
            self.shares.blockSignals(True)
            self.shares.setText(", ".join(f"{100 * g:.3g}" for g in guess))
            self.shares.blockSignals(False)
        self.plot.clear()
        self._read_inputs()
        self.start_preview()  # the page just opened: the preview starts at once (edits wait a moment) ...
        self._words()  # ... and before the figures in words, so its bar moves within 100 ms of the click

    def cleanupPage(self) -> None:
        self.timer.stop()
        self.runner.cancel()

    def _read_inputs(self) -> None:
        d = self.draft
        d.planned_n = self.n.value()
        d.prevalence = self.prevalence.value() / 100
        d.halfwidth = self.halfwidth.value() / 100
        d.null = self.null.value() / 100
        d.deff = self.deff.value()
        if not getattr(self, "_binary", True):
            try:
                d.shares = [float(x) / 100 for x in self.shares.text().replace(";", ",").split(",") if x.strip()]
            except ValueError:
                d.shares = []

    def _on_change(self, *_args) -> None:
        if self._words():
            self.timer.start()  # the preview follows the edits after a moment

    def _words(self) -> bool:
        """Privacy and precision in words; False (and the problem shown) if the inputs are not usable."""
        from dpdesk.mechanisms import rr

        self._read_inputs()
        d = self.draft
        try:
            design = d.design()
            self.privacy.setText(f"<b>Privacy.</b> {meaning.epsilon_words(design)}")
            if not prewarm.loaded(PLANNING):  # first use: the page shows now, the figures when loaded
                self.precision.setText("<b>Precision.</b> Working it out…")
                if not self.loader.running:
                    self.loader.start(prewarm.load_job, PLANNING)
                return True
            guess = d.guessed_prevalence(design)
            lines = [meaning.halfwidth_words(rr.expected_halfwidth(design, d.planned_n, guess, deff=d.deff),
                                             d.planned_n)]
            try:
                lines.append(meaning.required_n_words(rr.required_n(design, d.halfwidth, guess, deff=d.deff),
                                                      d.halfwidth))
            except DpdeskError as exc:
                lines.append(app_words(exc))
            lines.append(meaning.power_words(rr.power(design, d.planned_n, guess, null=d.null, deff=d.deff), d.null,
                                             d.planned_n))
            lines.append(meaning.deff_words(d.deff, d.planned_n))
            lines.append(meaning.efficiency_words(rr.efficiency(design, guess)))
            self.precision.setText("<b>Precision.</b> " + " ".join(lines))
            show_problem(self.problem, "")
        except DpdeskError as exc:
            show_problem(self.problem, app_words(exc))
            return False
        return True

    def _on_loaded(self, _module) -> None:
        self._words()
        if self.runner.running:
            self._show_expected()  # the simulation is still running: the analytic preview meanwhile

    def _show_expected(self) -> None:
        """The analytic preview at once: the guess and its expected 95% interval (Wald, from the expected
        information: ``rr.expected_halfwidth``), for a simple random sample like the simulated surveys."""
        if not prewarm.loaded(PLANNING):
            return  # first use: shown when the planning figures are loaded (``_on_loaded``)
        import numpy as np

        from dpdesk.mechanisms import rr

        d = self.draft
        try:
            design = d.design()
            guess = np.atleast_1d(np.asarray(d.guessed_prevalence(design), float))
            half = np.atleast_1d(np.asarray(rr.expected_halfwidth(design, d.planned_n, d.guessed_prevalence(design)),
                                            float))
        except DpdeskError:
            return
        labels = ("prevalence",) if design.is_binary else tuple(design.categories)
        self.plot.show_expected(labels, tuple(guess), tuple(np.clip(guess - half, 0, 1)),
                                tuple(np.clip(guess + half, 0, 1)), d.planned_n)

    def start_preview(self) -> None:
        self.timer.stop()
        d = self.draft
        try:
            design = d.design()
            guess = d.guessed_prevalence(design)
        except DpdeskError as exc:
            show_problem(self.problem, app_words(exc))
            return
        self.runner.start(simulate_surveys, design, d.planned_n, guess, self.runs, self.seed)
        self._show_expected()  # at once; the simulated surveys refine it in a few seconds

    def _on_preview(self, preview) -> None:
        self.progress.setValue(90)  # drawing: the bar is full only once the plot is there
        self.plot.show_preview(preview)
        self.progress.setValue(100)

    def _on_preview_failed(self, exc) -> None:
        show_problem(self.problem, f"The preview could not be simulated: {app_words(exc)}" if isinstance(exc, DpdeskError)
                     else "The preview could not be simulated (an error inside dpdesk).")

    def _on_progress(self, fraction: float, _text: str) -> None:
        self.progress.setValue(round(100 * fraction))

    def _on_busy(self, busy: bool) -> None:
        self.cancel.setEnabled(busy)
        if busy:
            self.progress.setValue(0)
