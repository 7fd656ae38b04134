"""What a fitted regression shows: sentences, the APA table, tests and fit statistics, two plots.

A fit with a survey design shows its design sentence above the table, t (not z) and
design-based Wald F tests on the design df, and no likelihood-ratio tests or
likelihood-based fit statistics (the report leaves them out).

The cells arrive as text from ``project.regression_report`` (two decimals, p as ".012" or
"< .001"); this widget lays them out in APA style (horizontal rules above and below the
head and at the bottom, no vertical rules, numbers right-aligned) and never computes.
A fit that does not exist shows its message in words, with no numbers.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from dpdesk.gui.widgets.clipboard import copy_table
from dpdesk.gui.widgets.common import name, note
from dpdesk.gui.widgets.document_view import DocumentView
from dpdesk.gui.widgets.plots import PlotPanel
from dpdesk.gui.widgets.regression_plots import draw_odds_ratios, draw_prevalence_curve

_RULE = "border-top: 1px solid palette(text);"
_HEAD = "border-bottom: 1px solid palette(text); font-style: italic; font-weight: normal;"


def apa_table(header: list[str], rows: list[list[str]], *, first_left: bool = True) -> str:
    """HTML of an APA-style table: rules at the top, under the head and at the bottom only."""
    cell = "padding: 3px 10px 3px 10px;"
    out = ["<table cellspacing='0' cellpadding='0' style='border-collapse: collapse; margin-top: 4px;'>", "<tr>"]
    for i, h in enumerate(header):
        align = "left" if i == 0 and first_left else "right"
        out.append(f"<th align='{align}' style='{cell}{_RULE}{_HEAD}'>{html.escape(h)}</th>")
    out.append("</tr>")
    for r, row in enumerate(rows):
        last = "border-bottom: 1px solid palette(text);" if r == len(rows) - 1 else ""
        out.append("<tr>")
        for i, v in enumerate(row):
            align = "left" if i == 0 and first_left else "right"
            out.append(f"<td align='{align}' style='{cell}{last}'>{html.escape(v)}</td>")
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _num(x) -> str:
    from dpdesk.project.regression.text import num

    return f"{x:,}" if isinstance(x, int) else num(x)


def _p(p) -> str:
    from dpdesk.project.regression.report import apa_p

    return apa_p(p)


class RegressionOutput(QWidget):
    """The output of one fit (or the message of a fit that does not exist)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.report = None
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.message = note(object_name="regressionMessage")
        self.message.setAccessibleName("Why the model cannot be fitted")
        self.message.setStyleSheet("color: #a40000;")
        self.sentences = note(object_name="regressionSentences")
        self.sentences.setAccessibleName("Regression in words")
        self.sentences.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.design = note(object_name="regressionDesign")
        self.design.setAccessibleName("Survey design of the fit")
        # the report's coefficient table, with its note: links under it copy it (shown, full precision,
        # LaTeX), its context menu copies one cell
        self.table = DocumentView()
        self.table.setObjectName("regressionTable")
        self.table.setAccessibleName("Coefficients (APA table)")
        self.table.setAccessibleDescription("The coefficients with their note; links under the table copy it")
        self.copy_button = name(QPushButton("Copy table"), "Copy coefficient table",
                                "Copy the coefficients (full precision) to paste into Excel or Word")
        self.copy_button.clicked.connect(self.copy)
        self.tests = QLabel(objectName="regressionTests")
        self.tests.setAccessibleName("Likelihood-ratio tests and fit statistics")
        self.tests.setTextFormat(Qt.TextFormat.RichText)
        self.tests.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fit_table = QLabel(objectName="regressionFit")
        self.fit_table.setAccessibleName("Fit statistics")
        self.fit_table.setTextFormat(Qt.TextFormat.RichText)
        self.fit_table.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.forest = PlotPanel("Odds ratios", "each predictor's odds ratio with its interval (log scale)")
        self.curve = PlotPanel("Predicted prevalence", "the predicted prevalence across one predictor with its CI")
        for label in (self.tests, self.fit_table):
            label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        head = QHBoxLayout()
        head.addWidget(QLabel("<b>Coefficients</b>"))
        head.addStretch(1)
        head.addWidget(self.copy_button)
        below = QHBoxLayout()
        below.addWidget(self.tests, 0, Qt.AlignmentFlag.AlignTop)
        below.addSpacing(32)
        below.addWidget(self.fit_table, 0, Qt.AlignmentFlag.AlignTop)
        below.addStretch(1)
        self.body = QWidget()
        inner = QVBoxLayout(self.body)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.design)
        inner.addLayout(head)
        inner.addWidget(self.table)
        inner.addWidget(self.sentences)
        inner.addSpacing(4)
        inner.addLayout(below)
        inner.addSpacing(8)
        inner.addWidget(self.forest)
        inner.addWidget(self.curve)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        layout.addWidget(self.body)
        self.clear()

    def clear(self) -> None:
        self.report = None
        self.title.setText("")
        self.message.hide()
        self.body.hide()

    def show_message(self, text: str) -> None:
        """A fit that does not exist (separation, a singular information matrix...): words only."""
        self.report = None
        self.title.setText("<h3 style='font-weight: normal'>The model cannot be fitted</h3>")
        self.message.setText(text)
        self.message.show()
        self.body.hide()

    def show_report(self, report, style=None) -> None:
        self.report = report
        spec = report.spec
        self.title.setText(f"<h3 style='font-weight: normal'>{html.escape(report.title)}</h3>")
        self.message.hide()
        self.sentences.setText("<ul style='margin-left: 0px; -qt-list-indent: 1;'>"
                               + "".join(f"<li>{html.escape(s)}</li>" for s in report.sentences) + "</ul>")
        design = getattr(report, "design", "")
        self.design.setText(html.escape(design) + "." if design else "")
        self.design.setVisible(bool(design))
        self.tests.setAccessibleName("Design-based Wald tests" if design else "Likelihood-ratio tests")
        from dpdesk.project.report.regression import regression_tables

        coefficients, _tests = regression_tables(report)  # as in the report: its note, "> 1,000" explained
        self.table.set_tables([coefficients])
        tests, fit = self._tests_html(report)
        self.tests.setText(tests)
        self.fit_table.setText(fit)
        conf = spec.confidence
        self.tests.setVisible(bool(report.tests))
        self.forest.setVisible(bool(report.forest))  # a linear model has no odds ratios
        if report.forest:
            self.forest.plot(draw_odds_ratios, report.forest, confidence=conf)
            self.forest.canvas.setMinimumHeight(max(200, 30 * len(report.forest) + 90))
        curve = report.curve or {}
        self.curve.setVisible(bool(curve.get("rows")))  # nor a prevalence curve
        if curve.get("rows"):
            self._plot_curve(report, curve, conf, style)
        self.body.show()

    def _plot_curve(self, report, curve, conf, style) -> None:
        code = curve["predictor"]
        label = report.column(code)
        self.curve.title = f"Predicted prevalence by {label}"
        self.curve.style = style  # the table beside it in the number style of every other table
        table = [{(label if k == code else k): v for k, v in r.items()} for r in curve["rows"]]
        self.curve.plot(draw_prevalence_curve, curve["rows"], table_rows=table, predictor=code, kind=curve["kind"],
                        confidence=conf, outcome=report.outcome, label=label)
        self.curve.canvas.setMinimumHeight(260)

    @staticmethod
    def _tests_html(report) -> tuple[str, str]:
        if getattr(report, "design", ""):  # a pseudo-likelihood: Wald F tests on the design df, no LR tests
            rows = [[t["test"], f"{t['df']}, {t['df2']}", _num(t["F"]), _p(t["p"])] for t in report.tests]
            tests = apa_table(["Design-based Wald test", "df", "F", "p"], rows)
        else:
            rows = [[t["test"], str(t["df"]), _num(t["chi2"]), _p(t["p"])] for t in report.tests]
            tests = apa_table(["Likelihood-ratio test", "df", "χ²", "p"], rows)
        stats, share = [], False
        for s in report.statistics:
            v, label = s["value"], s["statistic"]
            if not label.startswith("  "):  # an indented row (its CI, its SE) is in its parent's unit
                share = "prevalence" in label or "(nuisance)" in label  # a share: in percent
            if v is None:
                text = "n/a"
            else:
                text = f"{100 * v:.1f}%" if share else _num(v)
            stats.append(["\u2003" + label.strip() if label.startswith("  ") else label, text])
        return "<b>Model tests</b>" + tests, "<b>Fit</b>" + apa_table(["Statistic", "Value"], stats)

    def copy(self) -> None:
        if self.report is not None:
            copy_table(self.report.coefficients)
