"""The privacy budget meter: a small one in the status bar, a large one as a panel.

The bar is custom-painted: one segment per release (its share of the spending, from the
ledger's recorded ``spent_after``), the pending release as a hatched segment, and the
rest is what remains. It turns red as soon as the pending release would not fit, i.e.
before an overspend could happen; the ledger refuses it, so the bar never shows one.
Every part has a tooltip in plain words. All numbers come from
:mod:`dpdesk.project.ledger.releases` (``budget_status``, ``ledger``, ``preview``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from dpdesk.project.ledger.text import epsilon_text

SPENT = (QColor("#2f6db3"), QColor("#5b93d3"))  # alternate so neighbouring releases show
PENDING = QColor("#2f6db3")
OVER = QColor("#c62828")
LOW = QColor("#e09a1a")
REST = QColor("#e6ebf1")
TAMPERED = QColor("#9e9e9e")
NEARLY_FULL = Fraction(9, 10)


@dataclass(frozen=True)
class Segment:
    """A part of the bar: ``width`` as an exact epsilon, a short label and a tooltip."""

    width: Fraction
    label: str
    tip: str
    seq: int | None = None


@dataclass(frozen=True)
class MeterState:
    """What the meter shows. ``total`` is None when no budget is set (or no data)."""

    total: Fraction | None = None
    delta: Fraction = Fraction(0)
    spent: Fraction = Fraction(0)
    remaining: Fraction = Fraction(0)
    total_text: str = ""
    spent_text: str = ""
    remaining_text: str = ""
    releases: int = 0
    segments: tuple = ()
    pending: Segment | None = None
    pending_fits: bool = True
    intact: bool = True
    rolled_back: bool = False  # not edited, but an older copy than this computer last saw
    dataset: str = ""
    message: str = ""
    extra: dict = field(default_factory=dict)
    #: the spending of copies of this project on this computer (ledger.copies): shown beside this file's
    spent_here_text: str = ""
    copies_text: str = ""
    people_text: str = ""
    copies_checked: bool = True

    @property
    def has_budget(self) -> bool:
        return self.total is not None

    @property
    def nearly_full(self) -> bool:
        return self.has_budget and self.total > 0 and self.spent >= self.total * NEARLY_FULL

    @property
    def warning(self) -> bool:
        """Red: the pending release would exceed the budget, or the ledger was edited."""
        return (self.pending is not None and not self.pending_fits) or not self.intact


def _when(iso: str) -> str:
    return iso.replace("T", " ")[:16] + " UTC" if iso else "an unknown time"


def meter_state(project, pending=None) -> MeterState:
    """The meter's state: the project's budget and every release from any of its datasets
    (whichever is active); ``pending`` is a ledger ``Preview``."""
    from dpdesk.project import ledger

    if project is None or project.closed or not project.datasets():
        return MeterState(message="Import respondent-level data to publish noisy tables.")
    try:
        status = ledger.budget_status(project)
    except Exception as exc:  # noqa: BLE001 - e.g. a counts table: shown in words
        return MeterState(message=str(exc))
    check = getattr(project, "ledger_check", None)
    intact = check.ok if check is not None else True
    rolled_back = check is not None and check.intact and check.rollback is not None
    from dpdesk.project.study.active import active_dataset

    if status is None:
        return MeterState(message="No privacy budget set yet: choose one before publishing.",
                          dataset=active_dataset(project).name, intact=intact, rolled_back=rolled_back)
    intact = intact and status.ledger_intact
    spent = status.spent_epsilon if status.spent_epsilon != math.inf else status.total_epsilon
    spent = Fraction(spent)
    here = status.spent_here_epsilon if status.spent_here_epsilon != math.inf else spent
    here = min(Fraction(here), spent) if status.copies else spent
    entries = ledger.ledger(project)  # the budget is the project's: every dataset's releases spend it
    segments, before = [], Fraction(0)
    marks = []
    for e in entries:
        try:
            after = Fraction(e.cost.get("spent_after", "0"))
        except (ValueError, ZeroDivisionError, TypeError, AttributeError):
            after = before
        marks.append((e, max(Fraction(0), after - before)))
        before = max(before, after)
    recorded = sum((w for _e, w in marks), Fraction(0))
    from dpdesk.project.ledger.release_cells import described, entry_labels

    labels: dict = {}  # each dataset's labels, looked up once
    for e, w in marks:
        if e.dataset not in labels:
            labels[e.dataset] = entry_labels(project, e)
        width = w * here / recorded if recorded else Fraction(0)
        own = e.cost.get("epsilon", "?") if isinstance(e.cost, dict) else "?"
        try:
            own_text = epsilon_text(Fraction(own), status.total_delta, up=True)
        except (ValueError, ZeroDivisionError, TypeError):
            own_text = "an unreadable amount"
        extra = ""
        if status.total_delta and width:
            extra = (f" Together with the releases before it, it added ε {float(width):.4g} to the spending "
                     f"(releases composed with (ε, δ) cost less together than their sum).")
        what = described(e, labels[e.dataset])
        segments.append(Segment(width, f"#{e.seq}", f"Release #{e.seq} on {_when(e.time)}: {what}. "
                                f"It cost {own_text}.{extra}", e.seq))
    if status.copies:  # the same people's spending in copies of this project, after they split from this file
        named = "; ".join(f"{text} in {path} ({n} release(s))" for path, n, text in status.copies)
        where = ("in copies of this project on this computer after they split from this file" if not
                 status.people_files else "in other files on this computer holding the same people (copies of this "
                 "project after the split, or other projects)")
        segments.append(Segment(spent - here, "copies", f"Spent {where}: {named}. They released from the same people, "
                                f"so it counts against this budget too."))
    pend, fits = None, True
    if pending is not None and not pending.replay:
        fits = bool(pending.fits)
        after = pending.spent_after
        if after is None or after == math.inf:
            width = status.remaining_epsilon if not fits else Fraction(0)
        else:
            width = max(Fraction(0), Fraction(after) - spent)
        if fits:
            tip = (f"This release (not made yet) would use {pending.cost_text}; "
                   f"{pending.remaining_after_text} would be left.")
        else:
            tip = (f"This release would use {pending.cost_text}, more than the {status.remaining_text} left, "
                   "so it cannot be made. Ask for less (a smaller ε or a wider ±).")
        pend = Segment(width, "pending", tip)
    return MeterState(status.total_epsilon, status.total_delta, spent, status.remaining_epsilon,
                      status.total_text, status.spent_text, status.remaining_text, status.releases,
                      tuple(segments), pend, fits, intact, rolled_back, status.dataset,
                      spent_here_text=status.spent_here_text, copies_text=status.copies_text,
                      people_text=status.people_text, copies_checked=status.copies_checked)


def summary(state: MeterState) -> str:
    """One line in words: 'ε = 0.3 spent of ε = 1; ε = 0.7 left'."""
    if not state.has_budget:
        return state.message or "No privacy budget set"
    text = f"{state.spent_text} spent of {state.total_text}; {state.remaining_text} left"
    if state.copies_text or not state.copies_checked:
        text = state.people_text[:1].upper() + state.people_text[1:]
    if not state.intact:
        text += (" — older copy of the project (ledger rolled back), releases stopped" if state.rolled_back else
                 " — ledger edited outside dpdesk, releases stopped")
    return text


class BudgetBar(QWidget):
    """The segmented bar (any size); tooltips name the part under the mouse."""

    def __init__(self, compact: bool = False, parent=None) -> None:
        super().__init__(parent)
        self.compact = compact
        self.state = MeterState()
        self.setMouseTracking(True)
        self.setMinimumHeight(14 if compact else 26)
        self.setMinimumWidth(110 if compact else 240)
        self.setAccessibleName("Privacy budget bar")

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(140, 14) if self.compact else QSize(480, 30)

    def set_state(self, state: MeterState) -> None:
        self.state = state
        self.setAccessibleDescription(summary(state))
        self.update()

    # geometry ------------------------------------------------------------------------
    def parts(self) -> list[tuple[QRectF, Segment | None, str]]:
        """(rectangle, segment, kind) with kind 'spent', 'pending' or 'rest'."""
        s, r = self.state, QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        if not s.has_budget or s.total <= 0:
            return [(r, None, "rest")]
        out, x = [], r.left()

        def w(eps: Fraction) -> float:
            return float(eps / s.total) * r.width()

        for seg in s.segments:
            width = w(seg.width)
            out.append((QRectF(x, r.top(), width, r.height()), seg, "spent"))
            x += width
        if s.pending is not None:
            width = min(w(s.pending.width), r.right() - x)
            if not s.pending_fits:
                width = r.right() - x  # it would run past the end: show the whole rest in red
            out.append((QRectF(x, r.top(), max(width, 2.0), r.height()), s.pending, "pending"))
            x += width
        out.append((QRectF(x, r.top(), max(0.0, r.right() - x), r.height()), None, "rest"))
        return out

    def tip_at(self, x: float) -> str:
        s = self.state
        if not s.has_budget:
            return s.message or "No privacy budget set yet."
        if not s.intact and s.rolled_back:
            return ("This file is an older copy of the project than this computer last saw: releases recorded "
                    "since then are missing from it, so no releases are made until you confirm (see Releases).")
        if not s.intact:
            return ("The release ledger was edited outside dpdesk, so the spending it records cannot be trusted "
                    "and no more releases are made from this project.")
        for rect, seg, kind in self.parts():
            if rect.left() <= x <= rect.right() and rect.width() > 0:
                if seg is not None:
                    return seg.tip
                return (f"Still available: {s.remaining_text} of {s.total_text}. Each release spends part of it; "
                        "when it is gone, no more tables can be published from this project's data.")
        return summary(s)

    # painting ------------------------------------------------------------------------
    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        s = self.state
        outline = OVER if s.warning else (LOW if s.nearly_full else QColor("#8a99ab"))
        for i, (rect, seg, kind) in enumerate(self.parts()):
            if kind == "spent":
                colour = TAMPERED if not s.intact else SPENT[i % 2]
                p.fillRect(rect, colour)
                if rect.width() > 3:
                    p.setPen(QPen(QColor("white"), 1))
                    p.drawLine(QPointF(rect.right(), rect.top()), QPointF(rect.right(), rect.bottom()))
            elif kind == "pending":
                colour = OVER if not s.pending_fits else PENDING
                back = QColor(colour)
                back.setAlpha(45)
                p.fillRect(rect, back)
                p.fillRect(rect, QBrush(colour, Qt.BrushStyle.BDiagPattern))
            else:
                p.fillRect(rect, REST if s.has_budget else QColor("#f0f0f0"))
        p.setPen(QPen(outline, 2 if s.warning else 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -1, -1))
        if not self.compact:
            p.setPen(QColor("#1b1b1b"))
            for rect, seg, kind in self.parts():
                if kind == "spent" and seg is not None and rect.width() > 28:
                    p.setPen(QColor("white"))
                    p.drawText(rect, Qt.AlignmentFlag.AlignCenter, seg.label)
        p.end()

    def event(self, ev) -> bool:  # noqa: D401 - Qt API
        if ev.type() == ev.Type.ToolTip:
            QToolTip.showText(ev.globalPos(), self.tip_at(ev.pos().x()), self)
            return True
        return super().event(ev)


class BudgetMeter(QWidget):
    """The status-bar meter: a small bar and one line of text; a click opens the panel."""

    open_requested = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("budgetMeter")
        self.bar = BudgetBar(compact=True)
        self.bar.setFixedSize(140, 14)
        self.label = QLabel()
        self.label.setMinimumWidth(self.label.fontMetrics().horizontalAdvance("ε = 0.0001 left of 0.0001"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 0, 6, 0)
        layout.setSpacing(6)
        layout.addWidget(QLabel("Privacy budget"))
        layout.addWidget(self.bar)
        layout.addWidget(self.label)
        self.setAccessibleName("Privacy budget meter")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.set_state(MeterState())

    def set_state(self, state: MeterState) -> None:
        self.state = state
        self.bar.set_state(state)
        if not state.has_budget:
            self.label.setText("not set" if state.dataset else "—")
        elif not state.intact:
            what = "older copy" if state.rolled_back else "ledger edited"
            self.label.setText(f"<span style='color:#c62828'>{what}: releases stopped</span>")
        else:
            text = f"{state.remaining_text} left of {state.total_text.removeprefix('ε = ')}"
            colour = "#c62828" if state.warning else ("#b36b00" if state.nearly_full else None)
            self.label.setText(f"<span style='color:{colour}'>{text}</span>" if colour else text)
        self.setToolTip(summary(state) + ". Click for the budget and the list of releases.")
        self.setAccessibleDescription(summary(state))

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            self.open_requested.emit()
        super().mousePressEvent(event)


class BudgetPanel(QWidget):
    """The large meter: total, spent, remaining, the segmented bar, and the budget button."""

    budget_requested = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("budgetPanel")
        self.bar = BudgetBar()
        self.total = QLabel()
        self.spent = QLabel()
        self.remaining = QLabel()
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.button = QPushButton("Set the privacy budget…")
        self.button.setAccessibleName("Privacy budget")
        numbers = QHBoxLayout()
        for label in (self.total, self.spent, self.remaining):
            label.setTextFormat(Qt.TextFormat.RichText)
            numbers.addWidget(label)
        numbers.addStretch(1)
        numbers.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addLayout(numbers)
        layout.addWidget(self.bar)
        layout.addWidget(self.note)
        self.button.clicked.connect(self.budget_requested)
        self.set_state(MeterState())

    def set_state(self, state: MeterState) -> None:
        self.state = state
        self.bar.set_state(state)
        self.bar.setVisible(state.has_budget)
        if not state.has_budget:
            for label in (self.total, self.spent, self.remaining):
                label.clear()
            self.total.setText("<b>Privacy budget:</b> not set")
            self.note.setText(state.message)
            self.button.setText("Set the privacy budget…")
            self.button.setEnabled(bool(state.dataset))
            return
        self.total.setText(f"<b>Total</b> {state.total_text}")
        if state.copies_text:
            self.spent.setText(f"<b>Spent here</b> {state.spent_here_text} in {state.releases} release(s); "
                               f"<b>in copies on this computer</b> {state.copies_text}")
        else:
            self.spent.setText(f"<b>Spent</b> {state.spent_text} in {state.releases} release(s)")
        red = state.warning
        colour = "#c62828" if red else ("#b36b00" if state.nearly_full else None)
        left = f"<span style='color:{colour}'>{state.remaining_text}</span>" if colour else state.remaining_text
        self.remaining.setText(f"<b>Left</b> {left}")
        self.button.setText("Lower the budget…")
        self.button.setEnabled(state.intact)
        if not state.intact and state.rolled_back:
            note = ("<span style='color:#c62828'><b>This file is an older copy of the project</b> than this "
                    "computer last saw: releases recorded since then are missing from it, and so is their "
                    "spending. No releases are made until you confirm the rollback (Releases tab).</span>")
        elif not state.intact:
            note = ("<span style='color:#c62828'><b>The release ledger was edited outside dpdesk.</b> "
                    "The spending it records cannot be trusted, so no more releases are made from this "
                    "project. Restore the file from a backup to publish again.</span>")
        elif state.pending is not None and not state.pending_fits:
            note = ("<span style='color:#c62828'>The release being prepared (hatched) would exceed what is "
                    "left; it cannot be made. Ask for less.</span>")
        elif state.pending is not None:
            note = "Hatched: the release being prepared. " + state.pending.tip
        elif state.remaining <= 0:
            note = "The whole budget is spent: no more tables can be published from this project's data."
        elif state.nearly_full:
            note = "Nearly all of the budget is spent: plan what is left carefully."
        elif state.releases == 0:
            note = "Nothing spent yet. Each release will show here as a block; hover over one to see what it was."
        else:
            note = "Each block is one release; hover over it to see what it was."
        if state.copies_text:
            note += (f" The last block is what copies of this project on this computer spent from the same people "
                     f"after they split from this file: {state.people_text}.")
        elif not state.copies_checked:
            note += " The spending of copies of this project on this computer could not be checked."
        if state.delta:
            note += (" With a δ, spending is the ε of all releases together (privacy-loss-distribution "
                     "accountant), less than their sum.")
        self.note.setText(note)
