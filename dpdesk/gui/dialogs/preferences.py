"""The Preferences dialog: the few choices dpdesk remembers."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QSpinBox, QVBoxLayout

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
        form = QFormLayout()
        form.addRow(self.reopen)
        form.addRow("Simulated surveys in the preview:", self.runs)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note("Your projects are saved after every change; there is nothing else to set."))
        layout.addWidget(buttons)

    def accept(self) -> None:
        self.settings.set_value("reopen_last", "true" if self.reopen.isChecked() else "false")
        self.settings.set_value("preview_runs", self.runs.value())
        super().accept()
