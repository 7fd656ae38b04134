"""The simulated preview: what a survey's results could look like (worker + plot + table).

``simulate_surveys`` runs in a worker: it draws a few surveys with ``rr.simulate``,
estimates each with ``rr.estimate`` and loads matplotlib for the plot (its progress stops at
``SIMULATING``; the page fills the bar once the plot is drawn). :class:`PreviewPlot` draws
them with matplotlib and lists them in a table beside the plot. Simulating takes seconds, so the
analytic preview (the guess and its expected interval, ``rr.expected_halfwidth``) is shown at once
above them (``show_expected``) and the simulated surveys refine it.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from dpdesk.gui.widgets.common import full_width, name, note
from dpdesk.gui.widgets.wheel import guard


#: The share of the progress bar for simulating; the rest is drawing (the bar is full once the plot is drawn).
SIMULATING = 0.8


@dataclass(frozen=True)
class SimulatedSurvey:
    estimate: tuple[float, ...]  # one per category (one value for yes/no designs)
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True)
class Preview:
    labels: tuple[str, ...]
    truth: tuple[float, ...]
    n: int
    surveys: tuple[SimulatedSurvey, ...]


def simulate_surveys(job, design, n: int, guess, runs: int = 12, seed: int | None = None) -> Preview:
    """``runs`` simulated surveys of ``n`` respondents at the guessed prevalence (worker thread)."""
    import numpy as np

    from dpdesk.mechanisms import rr

    rng = np.random.default_rng(seed)
    surveys = []
    for i in range(runs):
        job.progress(SIMULATING * i / runs, f"Simulating survey {i + 1} of {runs}")
        est = rr.estimate(design, rr.simulate(design, int(n), guess, rng=rng))
        prev = np.atleast_1d(np.asarray(est.prevalence, float))
        ci = np.asarray(est.ci, float).reshape(-1, 2)
        surveys.append(SimulatedSurvey(tuple(prev), tuple(ci[:, 0]), tuple(ci[:, 1])))
    job.progress(SIMULATING, "Preparing the plot")
    from dpdesk.gui.shell.prewarm import import_now

    import_now("matplotlib.figure", "matplotlib.backends.backend_agg")  # here, not on the GUI thread when it draws

    labels = ("prevalence",) if design.is_binary else tuple(design.categories)
    truth = tuple(np.atleast_1d(np.asarray(guess, float)))
    return Preview(labels, truth, int(n), tuple(surveys))


def expected_line(labels, estimate, low, high, n: int) -> str:
    """The analytic preview in words: the guessed share and its expected 95% interval at ``n``."""
    parts = [f"{'' if len(labels) == 1 else label + ' '}{100 * e:.1f}% (about {100 * lo:.1f}% to {100 * hi:.1f}%)"
             for label, e, lo, hi in zip(labels, estimate, low, high)]
    return (f"<b>Expected</b> with {n:,} respondents: " + "; ".join(parts) + ", a 95% interval from the "
            "design's information. Simulated surveys show how single results scatter around it.")


class PreviewPlot(QWidget):
    """A dot-and-interval plot of the simulated surveys, with the same numbers in a table; above them the
    analytic preview (:meth:`show_expected`), shown at once while the surveys are simulated."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.canvas = None
        self.figure = None
        self.plot_holder = QVBoxLayout()
        self.expected = note(object_name="expectedPreview")
        self.expected.setAccessibleName("Expected result")
        self.expected.hide()
        self.placeholder = note("The preview appears here.")
        self.plot_holder.addWidget(self.placeholder)
        self.table = name(QTableWidget(0, 3), "Simulated results table",
                          "Each simulated survey's estimate and 95% interval, the same numbers as the plot")
        self.table.setHorizontalHeaderLabels(["Survey", "Estimate", "95% interval"])
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMinimumWidth(260)
        row = QHBoxLayout()
        row.addLayout(self.plot_holder, 3)
        row.addWidget(self.table, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.expected)
        layout.addLayout(row, 1)

    def show_expected(self, labels, estimate, low, high, n: int) -> None:
        """The analytic preview: the guess and its expected interval, in words and in the table, until the
        simulated surveys replace the table (the words stay above them)."""
        self.expected.setText(expected_line(labels, estimate, low, high, n))
        self.expected.show()
        if self.canvas is None:
            self.placeholder.setText("Simulating surveys…")
        rows = [(f"Expected{'' if len(labels) == 1 else ': ' + label}", e, lo, hi)
                for label, e, lo, hi in zip(labels, estimate, low, high)]
        self.table.setRowCount(len(rows))
        for r, (first, e, lo, hi) in enumerate(rows):
            for c, text in enumerate((first, f"{100 * e:.1f}%", f"{100 * lo:.1f}% to {100 * hi:.1f}%")):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()

    def _ensure_canvas(self) -> None:
        if self.canvas is not None:
            return
        from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
        from matplotlib.figure import Figure

        self.figure = Figure(figsize=(4.5, 2.6), dpi=96, layout="constrained")
        self.canvas = FigureCanvasQTAgg(self.figure)
        name(self.canvas, "Simulated results plot",
             "Estimates and intervals of simulated surveys; the line is the guessed prevalence")
        self.canvas.setMinimumHeight(220)
        self.placeholder.hide()
        self.plot_holder.addWidget(self.canvas)
        guard(self)  # the wheel over the plot or its table scrolls the page

    def show_preview(self, preview: Preview) -> None:
        self._ensure_canvas()
        fig = self.figure
        fig.clear()
        ax = fig.add_subplot(111)
        k = len(preview.labels)
        runs = len(preview.surveys)
        for j, label in enumerate(preview.labels):
            ys = [j + (i + 1) / (runs + 1) - 0.5 for i in range(runs)] if k > 1 else list(range(1, runs + 1))
            est = [s.estimate[j] for s in preview.surveys]
            lo = [s.estimate[j] - s.low[j] for s in preview.surveys]
            hi = [s.high[j] - s.estimate[j] for s in preview.surveys]
            ax.errorbar(est, ys, xerr=[lo, hi], fmt="o", ms=4, capsize=2, label=label if k > 1 else None)
            if j < len(preview.truth):
                ax.axvline(preview.truth[j], color=f"C{j}", ls="--", lw=1)
        ax.set_xlabel("estimated share (dashed: your guess)")
        ax.set_ylabel("category" if k > 1 else "simulated survey")
        if k > 1:
            ax.set_yticks(range(k))
            ax.set_yticklabels(preview.labels)
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(lambda x, _pos: f"{100 * x:.0f}%")
        ax.set_title(f"{runs} simulated surveys of {preview.n:,} respondents", fontsize=9)
        self.canvas.draw()  # now, so that what follows (a full progress bar) comes after the plot
        rows = [(i + 1, label, s.estimate[j], s.low[j], s.high[j])
                for i, s in enumerate(preview.surveys) for j, label in enumerate(preview.labels)]
        self.table.setRowCount(len(rows))
        for r, (i, label, e, lo, hi) in enumerate(rows):
            first = str(i) if k == 1 else f"{i}: {label}"
            for c, text in enumerate((first, f"{100 * e:.1f}%", f"{100 * lo:.1f}% to {100 * hi:.1f}%")):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.setMinimumWidth(min(440, full_width(self.table)))  # the plot gives way: numbers never cut

    def clear(self) -> None:
        self.table.setRowCount(0)
        self.expected.hide()
        if self.figure is not None:
            self.figure.clear()
            self.canvas.draw_idle()
