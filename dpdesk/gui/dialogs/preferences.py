"""The Preferences dialog: the few choices dpdesk remembers."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QSpinBox, QVBoxLayout

from dpdesk.gui.widgets.common import name, note


class PreferencesDialog(QDialog):
    def __init__(self, settings, parent=None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setWindowTitle("Preferences")
        self.reopen = name(QCheckBox("Open the last project when dpdesk starts"), "Reopen last project",
                           "Start with the project you worked on last")
        self.reopen.setChecked(str(settings.value("reopen_last", "false")).lower() == "true")
        self.runs = name(QSpinBox(), "Preview surveys", "How many simulated surveys the design preview shows")
        self.runs.setRange(5, 100)
        self.runs.setValue(int(settings.value("preview_runs", 12)))
        from dpdesk.project.number_style import NumberStyle

        style = NumberStyle.from_text(settings.value("number_style", "percent:1"))
        self.unit = name(QComboBox(), "Show shares as",
                         "Estimates, SE and intervals as percentages (41.3) or proportions (.413)")
        self.unit.addItem("Percentages (41.3%)", "percent")
        self.unit.addItem("Proportions (.413)", "proportion")
        self.unit.setCurrentIndex(max(0, self.unit.findData(style.unit)))
        self.decimals = name(QSpinBox(), "Decimals", "Decimals of estimates, SE and intervals (1 to 3)")
        self.decimals.setRange(1, 3)
        self.decimals.setValue(style.decimals)
        form = QFormLayout()
        form.addRow(self.reopen)
        form.addRow("Simulated surveys in the preview:", self.runs)
        form.addRow("Show shares as:", self.unit)
        form.addRow("Decimals:", self.decimals)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note("The number style applies to the Results document, copied tables, reports and plots; "
                              "the workbook export keeps full precision. Your projects are saved after every "
                              "change."))
        layout.addWidget(buttons)

    def accept(self) -> None:
        self.settings.set_value("reopen_last", "true" if self.reopen.isChecked() else "false")
        self.settings.set_value("preview_runs", self.runs.value())
        self.settings.set_value("number_style", f"{self.unit.currentData()}:{self.decimals.value()}")
        super().accept()
