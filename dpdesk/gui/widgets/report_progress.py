"""The progress of File > Export report, a row under the Results view's options: what is being done, a bar,
and Cancel. Shown only while a report is written (it follows a ``dpdesk.gui.dialogs.report.ReportWriter``)."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget


class ReportProgress(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("reportProgress")
        self.runner = None
        self.label = QLabel("")
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setFixedWidth(140)
        self.bar.setAccessibleName("Report progress")
        self.cancel_button = QPushButton("Cancel report")
        self.cancel_button.setObjectName("cancelReport")
        self.cancel_button.setToolTip("Stop writing the report (no file is left behind)")
        self.cancel_button.clicked.connect(self._cancel)  # bound methods, never lambdas (PITFALLS)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for w in (self.label, self.bar, self.cancel_button):
            row.addWidget(w)
        row.addStretch(1)
        self.hide()

    def follow(self, runner) -> None:
        """Show the progress of ``runner`` (a ReportWriter) while it is busy."""
        self.runner = runner
        runner.progress.connect(self._on_progress)
        runner.busy.connect(self._on_busy)

    def _on_progress(self, fraction: float, text: str) -> None:
        self.bar.setValue(round(100 * max(0.0, min(1.0, fraction))))
        if text:
            self.label.setText(text)

    def _on_busy(self, busy: bool) -> None:
        if busy:
            self.bar.setValue(0)
        self.setVisible(busy)

    def _cancel(self) -> None:
        if self.runner is not None:
            self.runner.cancel()
            self.label.setText("")
