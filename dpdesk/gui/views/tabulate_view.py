"""The Tabulate view: publish counts, tables, sums, means and medians with noise.

Before anything is released the view shows the cost, the accuracy (± at the chosen
confidence, per cell and for the whole table) and what would remain, from
:func:`dpdesk.project.ledger.releases.preview` (no data read, no noise drawn). A release that
would not fit is disabled with the reason in view. Release asks for a confirmation that
states the cost and runs :func:`dpdesk.project.ledger.releases.release` in a worker (progress,
Cancel; a release that waits for another one on this computer says so, and Cancel stops the
wait; a cancelled release is rolled back and spends nothing). The budget meter in the
status bar and the panel here always show the ledger's own numbers.

On a linked dataset the engine computes the exact counts: Cancel interrupts its query (nothing
is spent), and a source changed since linking is refused, said in :class:`LinkedPanel`, which
offers **Relink…** (recorded in the ledger; in the same worker, with progress and Cancel).
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dpdesk.errors import DpdeskError, app_words
from dpdesk.project.ledger.release_cells import entry_labels

from dpdesk.gui.help.button import ViewTitle
from dpdesk.gui.widgets.budget_meter import BudgetMeter, BudgetPanel, meter_state
from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.widgets.ledger_view import LedgerView
from dpdesk.gui.widgets.release_form import ReleaseForm
from dpdesk.gui.widgets.release_plan import PlanPane, accuracy_text
from dpdesk.gui.widgets.release_linked import LinkedPanel, linked_state, relink_job
from dpdesk.gui.widgets.release_result import ResultPane
from dpdesk.gui.shell.worker import JobRunner

STAGES = {"waiting": (0.0, "Waiting for another release on this computer to finish…"),  # Cancel stops waiting
          "verified": (0.2, "Ledger verified"), "checked": (0.4, "Budget checked; counting in the data"),
          "noised": (0.7, "Noise drawn"), "recorded": (0.9, "Recording the release")}


def release_job(job, project, requests: list[dict]) -> list:
    """Release each request in turn (one ledger transaction each); progress stages are
    cancellation points, so Cancel before "recorded" rolls the release back."""
    from dpdesk.project import ledger
    from dpdesk.project.linked import CancelToken

    token = CancelToken()  # a linked dataset's engine: Cancel interrupts its running query
    job.on_cancel(token.cancel)
    out = []
    for i, request in enumerate(requests):
        def say(stage, i=i):
            if stage in STAGES:  # "committed": too late to cancel, the release is recorded
                frac, text = STAGES[stage]
                job.progress((i + frac) / len(requests), f"{text} ({i + 1} of {len(requests)})")

        job.check()
        out.append(ledger.release(project, request, progress=say, cancel=token))
    return out


def ask_relink(parent, text: str) -> bool:
    """The confirmation before a relink (tests replace ``TabulateView.confirm_relink``)."""
    return ask_confirmation(parent, text, "Relink the source?", "Relink")


def refusal_words(message: str) -> str:
    """The ledger's refusal, worded for before the click (nothing was tried yet), as rich text:
    the researcher's sentence first, the noise details (scale, sensitivity) in a small line."""
    import html

    summary, _, details = message.partition("\nDetails: ")
    summary = summary.replace(" Release refused: nothing was spent and no noise was drawn.", "")
    text = html.escape(summary)
    if details:
        text += f"<br><small style='color:#555'>Details: {html.escape(details)}</small>"
    return text


def ask_confirmation(parent, text: str, title: str = "Release with noise?", action: str = "Release") -> bool:
    """The confirmation before a release (tests replace ``TabulateView.confirm``)."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.Cancel, parent)
    ok = box.addButton(action, QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is ok


class TabulateView(QWidget):
    budget_changed = Signal()
    released = Signal(list)  # the LedgerEntry objects of a finished release
    relinked = Signal(object)  # the ledger's row of a relink
    cancelled = Signal()  # a release (or relink) was cancelled and its job has ended

    def __init__(self, window, parent=None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.setObjectName("view_tabulate")
        self.confirm = ask_confirmation
        self.confirm_relink = ask_relink
        self.jobs = JobRunner(self)
        self.meter = BudgetMeter()
        self.panel = BudgetPanel()
        self.form = ReleaseForm()
        self.preview_label = QLabel()
        self.preview_label.setObjectName("previewText")
        self.preview_label.setWordWrap(True)
        self.preview_label.setTextFormat(Qt.TextFormat.RichText)
        self.reason = QLabel()
        self.reason.setObjectName("releaseReason")
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet("QLabel { color: #b71c1c; }")
        self.release_button = QPushButton("Release…")
        self.release_button.setObjectName("releaseButton")
        self.release_button.setAccessibleName("Release")
        self.cancel_button = QPushButton("Cancel")
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.cancel_button.hide()
        self.result = ResultPane()
        self.plan = PlanPane()
        self.ledger_view = LedgerView()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.result, "Result")
        plan_scroll = QScrollArea()  # its buttons need room; the window can still be narrow
        plan_scroll.setWidget(self.plan)
        plan_scroll.setWidgetResizable(True)
        plan_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.tabs.addTab(plan_scroll, "Plan several")
        self.tabs.addTab(self.ledger_view, "Releases")

        left = QWidget()
        lcol = QVBoxLayout(left)
        lcol.setContentsMargins(0, 0, 8, 0)
        lcol.addWidget(self.form)
        lcol.addWidget(self.preview_label)
        lcol.addWidget(self.reason)
        buttons = QHBoxLayout()
        buttons.addWidget(self.release_button)
        buttons.addWidget(self.progress, 1)
        buttons.addWidget(self.cancel_button)
        lcol.addLayout(buttons)
        lcol.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(left)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        split = QSplitter()
        split.addWidget(scroll)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 5)
        split.setStretchFactor(1, 6)
        split.setChildrenCollapsible(False)
        scroll.setMinimumWidth(200)  # the window can still be made small (it scrolls then)
        self._left, self._scroll, self._split = left, scroll, split
        split.setSizes([560, 460])
        title = ViewTitle("Tabulate")  # with its "?" button: the guide's page on this view
        intro = QLabel("Publish counts, tables and means of the ordinary variables with calibrated noise. "
                       "Each release spends part of the privacy budget below; see its cost and accuracy "
                       "before you release.")
        intro.setWordWrap(True)
        self.survey_note = QLabel("This dataset has a survey design (weights, strata, clusters). Noisy tabulations "
                                  "stay unweighted counts of respondents: a weight would change how much one "
                                  "person can move a release, and with it the privacy guarantee.")
        self.survey_note.setObjectName("surveyDesignNote")
        self.survey_note.setWordWrap(True)
        self.survey_note.hide()
        self.linked = LinkedPanel()
        self.linked.relink_requested.connect(self.relink)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.setSpacing(10)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addWidget(self.survey_note)
        layout.addWidget(self.linked)
        layout.addWidget(self.panel)
        layout.addWidget(split, 1)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.update_preview)
        self.form.changed.connect(self._timer.start)
        self.form.changed.connect(self._give_form_room)
        self.release_button.clicked.connect(self.release)
        self.cancel_button.clicked.connect(self.cancel)
        self.panel.budget_requested.connect(self.budget_dialog)
        self.meter.open_requested.connect(self.show_in_window)
        self.ledger_view.opened.connect(self._open_entry)
        self.ledger_view.export_requested.connect(self._export_entry)
        self.ledger_view.rollback_accepted.connect(self.refresh)
        self.plan.add_requested.connect(self.add_to_plan)
        self.plan.plan_requested.connect(self.make_plan)
        self.plan.release_requested.connect(self.release_many)
        self.jobs.done.connect(self._on_done)
        self.jobs.failed.connect(self._on_failed)
        self.jobs.progress.connect(self._on_progress)
        self.jobs.busy.connect(self._on_busy)
        self._poll = QTimer(self)
        self._poll.setInterval(20)
        self._poll.timeout.connect(self._poll_job)
        window.project_changed.connect(self._on_project)
        data_view = getattr(window, "data_view", None)
        if data_view is not None:
            data_view.imported.connect(self._on_project)  # new columns
            data_view.active_changed.connect(self._on_project)
        self.preview = None
        self.status = None
        self.dialog = None
        self.error_box = None
        self._releasing = False
        self._job = None
        self._many = False
        self._relinking = False
        self._on_project(window.project)

    # ------------------------------------------------------------------ project and budget
    @property
    def project(self):
        p = self.window_.project
        return p if p is not None and not p.closed else None

    def _on_project(self, _project) -> None:
        self.shutdown()
        self.plan.clear()
        p = self.project
        from dpdesk.project.study.active import active_dataset

        active = active_dataset(p) if p is not None else None
        columns = list(active.columns) if active is not None else []
        defaults, groups = {}, None
        numeric, declared = [], {}
        if active is not None:
            from dpdesk.project.ledger.column_choice import (
                avoided_columns, declared_bounds, default_column, numeric_columns)
            from dpdesk.project.analysis.subgroup_choice import project_subgroup_columns

            groups = project_subgroup_columns(p, active.name)  # sensible groups, as "Q3 — What is your gender?"

            first = default_column(active)
            second = next((c for c in columns if c != first and c not in avoided_columns(active)), first)
            defaults = {"category": first, "category2": second, "numeric": default_column(active, numeric=True)}
            numeric, declared = numeric_columns(active), declared_bounds(active)
        self.form.set_columns(columns, defaults, numeric=numeric, declared=declared, groups=groups)
        if active is not None:  # a coded column's categories may be typed as the labels the app shows
            from dpdesk.project.study.labels import Labels

            values = Labels.from_stored(p.column_labels(active.name)).values
            self.form.set_value_labels({c: list(v.values()) for c, v in values.items()})
        from dpdesk.project.study.survey_design import survey_design

        self.survey_note.setVisible(active is not None and survey_design(p, active.name) is not None)
        self.linked.show_state(active.name if active is not None else None, *linked_state(p, active))
        self.refresh()

    def refresh(self) -> None:
        """Re-read the budget and the ledger, then the preview."""
        from dpdesk.project import ledger

        p = self.project
        try:
            self.status = ledger.budget_status(p) if p is not None and p.datasets() else None
        except DpdeskError:
            self.status = None
        self.form.set_gaussian_allowed(bool(self.status and self.status.total_delta))
        self.ledger_view.refresh(p)
        self.update_preview()
        self.budget_changed.emit()

    def show_in_window(self) -> None:
        from dpdesk.gui.shell.tasks import TASKS

        if self.project is not None:
            self.window_.nav.setCurrentRow(TASKS.index("Tabulate"))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._give_form_room()

    def _give_form_room(self) -> None:
        """Widen the form's side of the splitter to the form's whole width when the other side can spare it:
        at 1024 x 700 the form was 6 px too narrow and scrolled sideways."""
        bar = self._scroll.verticalScrollBar()
        need = self._left.minimumSizeHint().width() + (bar.sizeHint().width() if bar.isVisible() else 0)
        sizes = self._split.sizes()
        if len(sizes) == 2 and 0 < sizes[0] < need and sum(sizes) - need >= self.tabs.minimumSizeHint().width():
            self._split.setSizes([need, sum(sizes) - need])

    def budget_dialog(self):
        """Open the guided budget step (set, or lower once set). Returns the dialog."""
        from dpdesk.gui.dialogs.budget import BudgetDialog

        if self.project is None:
            return None
        self.dialog = BudgetDialog(self.status, self)
        self.dialog.finished.connect(self._on_budget_dialog)
        self.dialog.open()
        return self.dialog

    def _on_budget_dialog(self, code: int) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is None:
            return
        if code == QDialog.DialogCode.Accepted:
            eps, delta = dialog.values()
            self.apply_budget(eps, delta)
        dialog.deleteLater()

    def apply_budget(self, epsilon, delta=0) -> bool:
        """Set the budget (first time) or lower it; errors are shown in words."""
        from dpdesk.project import ledger

        try:
            if self.status is None:
                status = ledger.set_budget(self.project, epsilon, delta)
                words = f"Privacy budget set: {status.total_text}."
            else:
                status = ledger.lower_budget(self.project, epsilon, delta)
                words = f"Privacy budget lowered to {status.total_text}."
        except DpdeskError as exc:
            self.error_box = show_error(exc, self)
            return False
        self.window_.statusBar().showMessage(words, 8000)
        self.refresh()
        return True

    # ------------------------------------------------------------------ preview
    def update_preview(self) -> None:
        from dpdesk.project import ledger

        p = self.project
        self.preview = None
        reason = ""
        if p is None or not p.datasets():
            reason = "Open a project with imported respondent data to publish tables."
        elif not p.ledger_check.ok or (self.status is not None and not self.status.ledger_intact):
            reason = (p.ledger_check.headline.replace("outside dpdesk.", "outside dpdesk (see Releases).")
                      if not p.ledger_check.ok else "Releases are stopped: the release ledger was edited "
                      "outside dpdesk (see Releases). Restore the project from a backup made before the edit.")
        if not reason:
            first_pld = bool(self.status and self.status.total_delta) and "dp_accounting" not in sys.modules
            if first_pld:  # the PLD accountant loads once, in about a second or two: say so
                self.window_.statusBar().showMessage("Preparing the (ε, δ) privacy accountant (first time only)…")
                QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
            try:
                self.preview = ledger.preview(p, self.form.request())
            except DpdeskError as exc:
                reason = f"To see the cost and accuracy: {app_words(exc)}"
            finally:
                if first_pld:
                    QApplication.restoreOverrideCursor()
                    self.window_.statusBar().clearMessage()
        pv = self.preview
        if pv is not None:
            self._show_preview(pv)
            if self.status is None:
                reason = "Set the privacy budget first (the button above) — then releases can be made."
            elif not pv.fits:
                reason = refusal_words(pv.message)
        else:
            self.preview_label.setText("")
            self.form.show_followed(None, None)
        self.reason.setText(reason)
        self.reason.setVisible(bool(reason))
        can = pv is not None and pv.fits and self.status is not None and not self.jobs.running
        self.release_button.setEnabled(can and not self._releasing)
        self.release_button.setToolTip(reason or "Release this table with noise (asks first)")
        self._push_meter()

    def _show_preview(self, pv) -> None:
        hw = pv.half_width
        eps = None if pv.cost_epsilon == math.inf else math.ceil(float(pv.cost_epsilon) * 1e4) / 1e4
        self.form.show_followed(eps, hw["simultaneous"] if hw else None)
        conf = f"{float(Fraction(pv.request['confidence'])):.0%}"
        if pv.replay:
            lines = ["<b>Released before</b>: showing it again is free (it is never re-noised)."]
        else:
            lines = [f"<b>Cost</b> {pv.cost_text}"]
        if hw:
            cells = hw["cells"]
            lines.append(f"<b>Accuracy at {conf}</b>: every one of the {cells} cell(s) within "
                         f"<b>±{hw['simultaneous']:,.4g}</b> at once; any one cell ±{hw['per_cell']:,.4g}"
                         if cells > 1 else f"<b>Accuracy at {conf}</b>: within <b>±{hw['simultaneous']:,.4g}</b>")
        else:
            lines.append("<b>Accuracy</b>: " + accuracy_text(pv))
        if self.status is not None and pv.fits:
            lines.append(f"<b>Left afterwards</b> {pv.remaining_after_text} of {self.status.total_text}")
        elif self.status is not None:
            lines.append(f"<b>Does not fit</b>: {self.status.remaining_text} is left of {self.status.total_text}")
        self.preview_label.setText("<br>".join(lines))

    def _push_meter(self) -> None:
        # a form nobody has filled yet (a reopened project) previews nothing on the meter
        pending = self.preview if self.status is not None and not self._releasing and self.form.touched else None
        state = meter_state(self.project, pending)
        self.meter.set_state(state)
        self.panel.set_state(state)

    # ------------------------------------------------------------------ release
    def release(self) -> None:
        """Release the form's request after a confirmation that states the cost."""
        if self._timer.isActive():  # typed a moment ago: release what the form says now, not the last preview
            self._timer.stop()
            self.update_preview()
        pv = self.preview
        if self._releasing or self.jobs.running or pv is None or not pv.fits or self.status is None:
            return
        if pv.replay:
            text = "This table was released before: it is shown again at no cost."
        else:
            text = (f"Release the {pv.request['statistic']} with noise? It costs {pv.cost_text} of the "
                    f"{self.status.remaining_text} left, leaving {pv.remaining_after_text}. A release cannot "
                    "be taken back.")
            from dpdesk.project import ledger

            if self.status.copies:  # the same people's spending in copies of this project counts here too
                text += f"\n\nThese people's budget: {self.status.people_text}."
            for warning in ledger.shared_spending(self.project):  # the same people, another project or copy
                text += f"\n\nNote: {warning}"
        self._start([pv.request], text)

    def release_many(self, requests: list) -> None:
        if self._releasing or self.jobs.running or not requests or self.status is None:
            return
        text = (f"Release the {len(requests)} planned tables with noise? Together they use at most the "
                f"{self.status.remaining_text} left. Releases cannot be taken back.")
        self._many = True
        self._start(list(requests), text)

    def _start(self, requests: list, text: str) -> None:
        self._releasing = True  # set before the dialog: a second click does nothing
        self.release_button.setEnabled(False)
        self.plan.release_button.setEnabled(False)
        if not self.confirm(self, text):
            self._releasing = self._many = False
            self.update_preview()
            return
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self._job = self.jobs.start(release_job, self.project, requests)

    def cancel(self) -> None:
        """Cancel the running release (a linked dataset's engine query is interrupted); anything not yet
        recorded is rolled back (nothing spent)."""
        self.cancel_button.setEnabled(False)
        self.window_.statusBar().showMessage("Cancelling the relink…" if self._relinking else
                                             "Cancelling the release…", 8000)
        self.jobs.cancel()

    def relink(self, dataset: str) -> None:
        """Record the linked source ``dataset`` as it is now (asks first; a row of the ledger; costs nothing)."""
        if self._releasing or self.jobs.running or self.project is None:
            return
        changed = "; ".join(self.linked.changed[:5]) or "the change found at the release"
        text = (f"Relink {dataset}? Its source changed since it was linked ({changed}). Relinking records the "
                "source as it is now: its rows, columns and fingerprint, read again by the engine. It is written "
                "in the ledger, costs nothing and gives nothing back: the releases made before stay charged.")
        self._releasing = self._relinking = True
        self.release_button.setEnabled(False)
        if not self.confirm_relink(self, text):
            self._releasing = self._relinking = False
            self.update_preview()
            return
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self._job = self.jobs.start(relink_job, self.project, dataset)

    def _on_busy(self, busy: bool) -> None:
        if not busy and self._job is not None:
            self._poll.start()  # finish up once the job's thread is really done

    def _poll_job(self) -> None:
        job = self._job
        if job is not None and not job.is_finished:
            return
        self._poll.stop()
        cancelled = job is not None and job.cancelled
        relinking = self._relinking
        self._on_finished()
        if cancelled:
            self.window_.statusBar().showMessage(
                "Relink cancelled: the link is as it was." if relinking else
                "Release cancelled: nothing was spent (a release already recorded stays in the list).", 8000)
            self.cancelled.emit()

    def shutdown(self) -> None:
        """Cancel and wait for the release job (before the project closes)."""
        self.jobs.shutdown()
        self._poll.stop()
        self._job = None
        self._releasing = self._relinking = False
        self.progress.hide()
        self.cancel_button.hide()

    def _on_progress(self, fraction: float, text: str) -> None:
        self.progress.setValue(int(fraction * 100))
        self.progress.setFormat(text)

    def _on_done(self, entries) -> None:
        if self._relinking:
            self.window_.statusBar().showMessage(f"Relinked: {'; '.join(entries.result.get('changes') or [])}. "
                                                 "Recorded in the ledger; nothing was spent.", 8000)
            self.window_.update_dataset_label()  # its new row count
            data_view = getattr(self.window_, "data_view", None)
            if data_view is not None:
                data_view.refresh()  # the datasets' row counts, and a sample of the source as it is now
            self.relinked.emit(entries)
            return
        if entries:
            last = entries[-1]
            self.result.show_entry(last, "replayed" if last.replayed else "released",
                                   entry_labels(self.project, last))
            self.tabs.setCurrentWidget(self.result)
            if self._many:
                self.plan.clear(f"The {len(entries)} planned tables were released; see Releases.")
            spent = sum(0 if e.replayed else 1 for e in entries)
            self.window_.statusBar().showMessage(
                f"Released {spent} table(s)." if spent else "Shown again at no cost.", 8000)
        self.released.emit(entries)

    def _on_failed(self, exc) -> None:
        from dpdesk.project.linked import SourceChanged

        if isinstance(exc, SourceChanged):  # nothing spent; the panel offers Relink
            from dpdesk.gui.widgets.release_linked import in_app_words

            exc.in_app = in_app_words(str(exc))
            self.linked.refused(str(exc))
        self.error_box = show_error(exc, self)

    def _on_finished(self) -> None:
        self._job = None
        self._many = False
        self._releasing = self._relinking = False
        self.cancel_button.setEnabled(True)
        self.progress.hide()
        self.cancel_button.hide()
        if self.project is not None:
            from dpdesk.project import ledger

            ledger.verify_ledger(self.project)
            from dpdesk.project.study.active import active_dataset

            active = active_dataset(self.project)
            self.linked.show_state(active.name if active is not None else None,
                                   *linked_state(self.project, active))  # after a refusal: what changed, Relink
        self.refresh()

    def _open_entry(self, entry) -> None:
        self.result.show_entry(entry, "opened", entry_labels(self.project, entry))
        self.tabs.setCurrentWidget(self.result)

    def _export_entry(self, entry) -> None:
        self._open_entry(entry)
        self.result.export_dialog()

    # ------------------------------------------------------------------ plan
    def add_to_plan(self) -> None:
        try:
            self.plan.add(self.form.request())
        except DpdeskError as exc:
            self.error_box = show_error(exc, self)

    def make_plan(self) -> None:
        if self.project is None:
            return
        try:
            self.plan.make_plan(self.project)
        except DpdeskError as exc:
            self.error_box = show_error(exc, self)
