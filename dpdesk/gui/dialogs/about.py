"""About dpdesk: the version, the libraries this copy runs on, and their licence texts.

The list comes from :func:`dpdesk.licences.libraries` (the bundle's records in an installed
app, the distributions' metadata otherwise), read in a worker because it opens many files.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
)

from dpdesk.errors import app_words
from dpdesk import __version__
from dpdesk.gui.shell.worker import JobRunner
from dpdesk.gui.widgets.common import name


def _libraries(job):
    from dpdesk.licences import libraries

    return libraries()


class AboutDialog(QDialog):
    """The version, then one row per library (name, version, licence) and the licence's text."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About dpdesk")
        self.setObjectName("aboutDialog")
        self.resize(760, 560)
        from PySide6.QtCore import qVersion

        intro = QLabel(f"<h3>dpdesk {__version__}</h3><p>Randomized-response surveys and differentially private "
                       "tabulations for survey researchers. Free software under the MIT licence.</p>"
                       f"<p>Qt {qVersion()}. dpdesk runs on the libraries below; each is listed with its "
                       "licence, and its licence text is shown when you choose it.</p>")
        intro.setWordWrap(True)
        intro.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.list = name(QListWidget(), "Libraries", "The libraries this copy of dpdesk runs on")
        self.text = name(QTextBrowser(), "Licence text", "The licence of the chosen library")
        self.text.setPlainText("Reading the libraries' licences…")
        self.list.currentRowChanged.connect(self._show)
        split = QSplitter()
        split.addWidget(self.list)
        split.addWidget(self.text)
        split.setStretchFactor(1, 3)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(split, 1)
        layout.addWidget(buttons)
        self.libraries: list = []
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_loaded)
        self.jobs.failed.connect(self._on_failed)
        self.jobs.start(_libraries)

    def _on_loaded(self, libraries) -> None:
        self.libraries = list(libraries)
        for lib in self.libraries:
            item = QListWidgetItem(f"{lib.name} {lib.version} — {lib.licence or 'licence not stated'}")
            item.setToolTip(", ".join(n for n, _ in lib.texts) or "no licence file shipped")
            self.list.addItem(item)
        if self.libraries:
            self.list.setCurrentRow(0)

    def _on_failed(self, exc) -> None:
        self.text.setPlainText(f"The licences could not be read: {app_words(exc)}")

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self.libraries):
            return
        lib = self.libraries[row]
        parts = [f"<h3>{html.escape(lib.name)} {html.escape(lib.version)}</h3>"
                 f"<p>Licence: {html.escape(lib.licence or 'not stated')}</p>"]
        for file_name, text in lib.texts:
            parts.append(f"<h4>{html.escape(file_name)}</h4><pre>{html.escape(text)}</pre>")
        if not lib.texts:
            parts.append("<p>This library ships no licence file.</p>")
        self.text.setHtml("".join(parts))

    def done(self, result: int) -> None:
        self.jobs.shutdown()
        super().done(result)
