"""The methods paragraph: generated from the project and the results on screen, edited, copied.

The text (``dpdesk.project.report.methods``) describes each item's design and randomizer,
its local epsilon, the respondents analysed and left out, the estimator and interval
with citations, and every privacy release; the APA references follow. The researcher
edits it here; Copy puts the edited text on the clipboard (plain text and HTML).
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton, QTextEdit, QVBoxLayout

from dpdesk.gui.widgets.common import name, note


class MethodsDialog(QDialog):
    def __init__(self, methods, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Methods paragraph")
        self.resize(760, 560)
        self.methods = methods  # computed with the results, in the worker
        self.editor = name(QTextEdit(), "Methods text", "The generated methods paragraph and references; edit freely")
        self.editor.setAcceptRichText(False)
        self.editor.setHtml(self.methods.html())
        self.editor.setTabChangesFocus(True)  # Tab moves on, it is not typed into the text
        self.copy_button = name(QPushButton("Copy"), "Copy methods",
                                "Copy the text as it is now (with your edits) to paste into a paper")
        self.copy_button.setDefault(True)
        self.copy_button.clicked.connect(self.copy)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(note("Generated from the project and the results on screen. Check it and edit it before "
                              "you copy: it says what dpdesk knows (designs, data, releases), not how the survey "
                              "was run in the field."))
        layout.addWidget(self.editor, 1)
        layout.addWidget(buttons)

    def copy(self) -> None:
        mime = QMimeData()
        mime.setText(self.editor.toPlainText())
        mime.setHtml(self.editor.toHtml())
        QGuiApplication.clipboard().setMimeData(mime)
