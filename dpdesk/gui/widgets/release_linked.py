"""Tabulate's panel for a linked dataset: where its rows are, whether they changed, and Relink.

A release from a linked dataset is aggregated by its engine (:mod:`dpdesk.project.linked`). Its
source is checked before every release; a changed source is refused with nothing spent, and the
panel then says what changed and offers **Relink…**, which records the source as it is now in
the ledger (:func:`dpdesk.project.ledger.relink`, in a worker: it reads every byte once). The
panel reads only what the project recorded and stats the files (no data read).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from dpdesk.gui.widgets.common import name


def relink_job(job, project, dataset: str):
    """Worker: record the linked source as it is now (a row of the ledger); Cancel interrupts the engine."""
    from dpdesk.project import ledger, linked
    from dpdesk.project.reading.importing import own_connection

    token = linked.CancelToken()
    job.on_cancel(token.cancel)

    def progress(text: str, done: int = 0, total: int = 0) -> None:
        job.progress(done / total if total else 0.0, f"Relinking: {text}…")

    with own_connection(project) as own:
        return ledger.relink(own, dataset, cancel=token, progress=progress)


def in_app_words(message: str, where: str = "press Relink… here") -> str:
    """A changed source's refusal as the app says it: the command line's relink advice becomes the button."""
    said, found, _ = message.partition(" If the change is intended")
    if not found:
        return message
    return (f"{said} If the change is intended, {where} (it is recorded in the ledger and costs nothing); "
            "otherwise restore the files.")


def linked_state(project, dataset) -> tuple[str, list[str]]:
    """(one line describing the linked source, what changed since linking) — or ("", []) for imported data."""
    from dpdesk.errors import DpdeskError
    from dpdesk.project import linked
    from dpdesk.project.linked import fingerprint as fpr

    if dataset is None or not linked.is_linked(dataset):
        return "", []
    try:
        line = linked.describe(dataset)
        remote = fpr.is_remote(linked.link_of(dataset).source)
        return line, [] if remote else linked.changes(project, dataset.name)  # a cluster's files: at release
    except DpdeskError as exc:
        return str(exc), []


class LinkedPanel(QWidget):
    """The linked source in words, its changes, and the Relink button (hidden for imported data)."""

    relink_requested = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.dataset: str | None = None
        self.changed: list[str] = []
        self.text = QLabel()
        self.text.setObjectName("linkedSource")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.relink_button = name(QPushButton("Relink…"), "Relink",
                                  "Record the source as it is now (its rows, columns and fingerprint). It is "
                                  "written in the ledger; it costs nothing and gives nothing back")
        self.relink_button.clicked.connect(self._on_relink)
        self.relink_button.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.text, 1)
        row.addWidget(self.relink_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        self.hide()

    def show_state(self, dataset: str | None, line: str, changed: list[str]) -> None:
        """Show ``line`` (the engine and source), and what changed with the Relink button when anything did."""
        self.dataset, self.changed = dataset, list(changed)
        if not line:
            self.hide()
            return
        text = (f"<b>Linked data</b> (not copied; the exact counts are computed by the engine, the noise here): "
                f"{escape(line)}.")
        if changed:
            shown = "; ".join(changed[:5]) + (f"; and {len(changed) - 5} more" if len(changed) > 5 else "")
            text += (f"<br><span style='color:#b71c1c'><b>The source changed since it was linked</b>: "
                     f"{escape(shown)}. Releases are refused (nothing is spent) until it is restored, or relinked "
                     "if the change is intended: <b>Relink…</b> records it in the ledger.</span>")
        self.text.setText(text)
        self.relink_button.setVisible(bool(changed))
        self.show()
        self.text.adjustSize()  # a shorter text gives its lines back to the view (a wrapped label keeps them)
        self.adjustSize()

    def refused(self, message: str) -> None:
        """A release was refused because the source changed: say so here, and offer Relink."""
        self.text.setText(f"<span style='color:#b71c1c'>{escape(in_app_words(message))}</span>")
        self.relink_button.setVisible(True)
        self.show()

    def _on_relink(self) -> None:
        if self.dataset:
            self.relink_requested.emit(self.dataset)
