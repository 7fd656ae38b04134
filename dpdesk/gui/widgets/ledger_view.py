"""The release list (the ledger): every release with its time, cost and result.

Opening an old release shows its recorded result, costs nothing and says so. A ledger
found edited outside dpdesk (``verify_ledger``) is shown as such; releases then stop. So is
a file that is an older copy than this computer last saw (rolled back): the researcher may
confirm it (``accept_rollback``, recorded in the project). Under the table: how far the
ledger is verified (with this computer's key, or by structure only), and "Receipt…", which
saves the ledger's head and seal for someone who keeps it elsewhere.
"""

from __future__ import annotations

import html
from fractions import Fraction
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpdesk.project.ledger.text import epsilon_text

from dpdesk.gui.widgets.release_result import cells, what_words

TAMPERED_TEXT = ("<b>This ledger was edited outside dpdesk.</b> Its records cannot be trusted, so no more "
                 "releases are made from this project. What was found: {problems}")
ROLLBACK_TEXT = ("<b>This file is an older copy of the project than this computer last saw.</b> {rollback}. "
                 "Releases recorded since then may already be published, and their spending is missing here, "
                 "so no releases are made until you confirm that this copy is the one to go on with.")
BUDGET_TEXT = ("<b>This file is an older state of the project than this computer last saw.</b> {rollback}. No "
               "releases are made until you confirm; confirming keeps the lower budget (it is lowered back in this "
               "file).")
SHARED_TEXT = ("<b>This file holds data this computer released from under another ledger, which it does not "
               "recognise.</b> {rollback}. No releases are made until you confirm that it is a project of its own: "
               "if it is that ledger rewritten, its spending would be forgotten.")
KEY_TEXT = ("<b>This computer's ledger key, which sealed this file, is missing or was replaced.</b> {rollback}. "
            "This is not an edit, and a backup of the project cannot help. Restore ledger.key from a backup of your "
            "data folder, or re-key the project: it is checked against this computer's register, the re-keying is "
            "recorded in it, and it is sealed with the new key.")
UNKNOWN_STATE_TEXT = ("<b>This file is behind the ledger this computer last saw, in a state this computer never "
                      "sealed or saw.</b> {rollback}. It cannot be confirmed here, so no releases are made from "
                      "it: go on with the copy this computer saw, or ask whoever sent this one which releases it "
                      "holds.")


def cost_text(entry) -> str:
    try:
        return epsilon_text(Fraction(entry.cost["epsilon"]), Fraction(entry.cost.get("delta", "0")), up=True)
    except (KeyError, ValueError, ZeroDivisionError, TypeError):
        return "unreadable"


def is_relink(entry) -> bool:
    """A row recording a linked source read anew (:func:`dpdesk.project.ledger.relink`): no release, no cost."""
    return getattr(entry, "mechanism", "") == "relink"


def relink_text(entry) -> str:
    """``"600 → 650 rows, 3 → 4 files"``: the source before and after the relink."""
    try:
        before, after = entry.result["before"], entry.result["after"]
        return f"{before['rows']:,} → {after['rows']:,} rows, {before['files']} → {after['files']} files"
    except (KeyError, TypeError, ValueError):
        return "unreadable"


def result_text(entry, limit: int = 4, labels=None) -> str:
    """The first cells as "Female 156, Male 114 …" (keys in ``labels``' value labels)."""
    if is_relink(entry):
        return relink_text(entry)
    parts = cells(entry.result, labels and _texts(entry, labels)) \
        if isinstance(entry.result.get("values"), (list, int, float)) else []
    out = []
    for label, value in parts[:limit]:
        v = f"{value:,.4g}" if isinstance(value, float) else str(value)
        out.append(v if label == "all respondents" else f"{label} {v}")
    return ", ".join(out) + (" …" if len(parts) > limit else "") if out else "unreadable"


def _texts(entry, labels):
    from dpdesk.project.ledger.release_cells import release_cells

    return release_cells(entry, labels).key_texts


class LedgerView(QWidget):
    """The list of releases; ``opened(entry)`` when one is opened (free of cost)."""

    opened = Signal(object)
    export_requested = Signal(object)
    #: the researcher confirmed a rollback (the ledger changed: screens showing it refresh)
    rollback_accepted = Signal()
    #: a receipt was saved (its path)
    receipt_saved = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("ledgerView")
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet("QLabel { background: #fdecea; color: #8e1b1b; padding: 8px; "
                                  "border: 1px solid #e57373; }")
        self.banner.hide()
        self.accept_button = QPushButton("Confirm this copy…")
        self.accept_button.setToolTip("Go on with this older copy. The confirmation is recorded in the project.")
        self.accept_button.hide()
        self.verification = QLabel()
        self.verification.setWordWrap(True)
        self.verification.setObjectName("ledgerVerification")
        self.confirmed = QLabel()  # what the last confirmation did (budget lowered back, copies, ...)
        self.confirmed.setWordWrap(True)
        self.confirmed.setObjectName("ledgerConfirmed")
        self.table = QTableWidget(0, 5)
        self.table.setHorizontalHeaderLabels(["#", "Time (UTC)", "What", "Cost", "Result"])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)
        header = self.table.horizontalHeader()
        for col in (0, 1, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.setAccessibleName("Releases")
        self.table.setAccessibleDescription("Every noisy release of this project: time, what, cost and result")
        self.open_button = QPushButton("Open (free)")
        self.open_button.setToolTip("Show the recorded result again. It costs nothing: it is never re-noised.")
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Save the selected release as .xlsx or .csv (costs nothing)")
        self.receipt_button = QPushButton("Receipt…")
        self.receipt_button.setToolTip("Save the ledger's head and seal as a short receipt (text and QR code) for "
                                       "someone who keeps it elsewhere, such as your data protection officer")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.summary, 1)
        row.addWidget(self.open_button)
        row.addWidget(self.export_button)
        row.addWidget(self.receipt_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        top = QHBoxLayout()
        top.addStretch(1)
        top.addWidget(self.accept_button)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.verification)
        layout.addWidget(self.confirmed)
        layout.addLayout(row)
        self.entries: list = []
        self.intact = True
        self.check = None
        self._project = None
        self.open_button.clicked.connect(self.open_selected)
        self.export_button.clicked.connect(self.export_selected)
        self.accept_button.clicked.connect(self.accept_rollback)
        self.receipt_button.clicked.connect(self.save_receipt)
        self.table.itemDoubleClicked.connect(self.open_selected)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self._update_buttons()

    def refresh(self, project) -> None:
        from dpdesk.project import ledger

        if project is not self._project:
            self.confirmed.clear()
        self._project = project
        if project is None or project.closed:
            self.entries, self.intact, self.check = [], True, None
        else:
            self.entries = ledger.ledger(project)
            check = self.check = ledger.verify_ledger(project)
            self.intact = check.ok
            if check.problems or not check.rollback:
                found = "; ".join(check.problems) or "the hash chain"  # names from the file: shown as text
                self.banner.setText(TAMPERED_TEXT.format(problems=html.escape(found, quote=False)))
            else:
                said = check.rollback[0].upper() + check.rollback[1:]
                text = ROLLBACK_TEXT if check.confirmable else UNKNOWN_STATE_TEXT
                if check.rollback_kind == "key":
                    text = KEY_TEXT if check.confirmable else UNKNOWN_STATE_TEXT
                elif check.rollback_kind == "shared":
                    text = SHARED_TEXT
                elif check.rollback_kind == "budget":
                    text = BUDGET_TEXT
                self.banner.setText(text.format(rollback=html.escape(said, quote=False)))
        self.banner.setVisible(not self.intact)
        rolled_back = self.check is not None and self.check.intact and self.check.rollback is not None
        self.confirmed.setVisible(bool(self.confirmed.text()))  # only after a confirmation
        self.accept_button.setVisible(rolled_back and self.check.confirmable)
        shared = rolled_back and self.check.rollback_kind == "shared"
        rekey = rolled_back and self.check.rollback_kind == "key"
        self.accept_button.setText("Confirm a project of its own…" if shared else
                                   "Re-key this project…" if rekey else "Confirm this copy…")
        trust = self.check.trust if self.check is not None and self.check.intact else "none"
        self.verification.setVisible(trust != "none")
        if trust != "none":
            text = html.escape(self.check.trust_text, quote=False)
            self.verification.setText(f"Ledger {text}." if trust == "key" else
                                      f"<span style='color:#8a5a00'>Ledger {text}.</span>")
        self.table.setRowCount(len(self.entries))
        from dpdesk.project.ledger.release_cells import entry_labels

        by_dataset: dict = {}  # one look-up of the labels per dataset, not per release
        for r, e in enumerate(reversed(self.entries)):  # newest first
            if e.dataset not in by_dataset:
                by_dataset[e.dataset] = entry_labels(project, e)
            labels = by_dataset[e.dataset]
            texts = (str(e.seq), e.time.replace("T", " ")[:19], what_words(e, labels), cost_text(e),
                     result_text(e, labels=labels))
            for c, text in enumerate(texts):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, e.seq)
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        relinks = sum(is_relink(e) for e in self.entries)
        n = len(self.entries) - relinks
        again = f" and {relinks} relink(s) of a linked source" if relinks else ""
        self.summary.setText(f"No releases yet{again}." if not n else
                             f"{n} release(s){again}. Opening one shows its recorded result at no cost.")
        self._update_buttons()

    def selected_entry(self):
        items = self.table.selectedItems()
        if not items:
            return None
        seq = items[0].data(Qt.ItemDataRole.UserRole)
        return next((e for e in self.entries if e.seq == seq), None)

    def open_selected(self, *_args) -> None:
        entry = self.selected_entry()
        if entry is not None and not is_relink(entry):  # a relink has no result to show: its row says it all
            self.opened.emit(entry)

    def export_selected(self) -> None:
        entry = self.selected_entry()
        if entry is not None and not is_relink(entry):
            self.export_requested.emit(entry)

    def accept_rollback(self) -> None:
        """Ask, then record that this older copy is the one to go on with."""
        from dpdesk.errors import DpdeskError
        from dpdesk.project import ledger

        from dpdesk.gui.dialogs.errors import show_error

        project = self._project
        if project is None or project.closed or self.check is None or not self.check.rollback:
            return
        from dpdesk.project.ledger.rewind import confirmed_text, question_text

        shared = self.check.rollback_kind == "shared"
        answer = QMessageBox.question(
            self, "Confirm a project of its own" if shared else "Re-key this project" if
            self.check.rollback_kind == "key" else "Confirm this older copy", question_text(self.check),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Cancel)
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            record = ledger.accept_rollback(project)
        except DpdeskError as exc:
            show_error(exc, self)
        else:
            self.confirmed.setText(html.escape(confirmed_text(record), quote=False))
        self.refresh(project)
        self.rollback_accepted.emit()

    def save_receipt(self) -> None:
        """Make a receipt of the ledger as it is, save it (a QR image and its text, or text) and show it."""
        from dpdesk.errors import DpdeskError
        from dpdesk.project import ledger

        from dpdesk.gui.dialogs.errors import show_error

        project = self._project
        if project is None or project.closed:
            return
        try:
            made = ledger.receipt(project)
        except DpdeskError as exc:
            show_error(exc, self)
            return
        suggested = Path(project.path).with_name(f"{Path(project.path).stem} receipt {made.releases}.png")
        path, _ = QFileDialog.getSaveFileName(self, "Save the ledger's receipt", str(suggested),
                                              "QR code and text (*.png);;QR code and text (*.svg);;Text (*.txt)")
        if not path:
            return
        try:
            saved = made.save(path)
        except DpdeskError as exc:
            show_error(exc, self)
            return
        self.receipt_saved.emit(str(saved))
        box = QMessageBox(QMessageBox.Icon.Information, "dpdesk", "<b>Receipt saved</b>", QMessageBox.StandardButton.Ok,
                          self)
        box.setObjectName("receiptDialog")
        box.setInformativeText(f"Saved as {saved}. Send or print it for someone who keeps it elsewhere, such as "
                               "your data protection officer: with it, anyone can check later that the project still "
                               "holds this history, release by release (Show Details… shows its text).")
        box.setDetailedText(made.text)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.open()

    def _update_buttons(self) -> None:
        entry = self.selected_entry()
        chosen = entry is not None and not is_relink(entry)
        self.open_button.setEnabled(chosen)
        self.export_button.setEnabled(chosen)
        self.receipt_button.setEnabled(bool(self.entries) and self.intact)
