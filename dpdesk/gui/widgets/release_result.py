"""A released statistic shown as a table: noisy values, their intervals, the post-processing.

Counts (and sums with a lower bound of 0 or more) are shown clamped at 0 by
:func:`dpdesk.mechanisms.central.postprocess.clamp_nonnegative`, free of privacy cost;
a +-a interval that covered the truth around the raw value then covers it as
[max(0, y - a), y + a] (see that module). The half-width ``a`` is the ledger's recorded
simultaneous one: every cell of the table within it at once, at the stated confidence.
"""

from __future__ import annotations

from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


def _num(v) -> str:
    if isinstance(v, (int, float)):
        return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.4g}"
    return str(v)


def cells(result: dict) -> list[tuple[str, object]]:
    """(label, value) of each released cell."""
    keys, values = result.get("keys") or [], result.get("values")
    if not keys:
        return [("all respondents", values)]
    if len(keys) == 1:
        return [(str(k), v) for k, v in zip(keys[0], values)]
    return [(f"{a} × {b}", v) for a, row in zip(keys[0], values) for b, v in zip(keys[1], row)]


def rows(entry) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """Table rows (cell, released value, ±, interval) and the notes on post-processing."""
    from dpdesk.mechanisms.central import postprocess

    result, stat = entry.result, entry.statistic
    labelled = cells(result)
    hw = result.get("half_width")
    notes: list[str] = []
    raw = [float(v) for _l, v in labelled if isinstance(v, (int, float))]
    clampable = stat in ("count", "histogram", "crosstab") or (
        stat == "sum" and Fraction(entry.request.get("bounds", ["-1"])[0]) >= 0)
    shown = raw
    if clampable and len(raw) == len(labelled):
        adjusted = postprocess.clamp_nonnegative(raw)
        shown = [float(x) for x in adjusted.values]
        notes.append(f"Post-processing (free): {adjusted.did}, since the true values cannot be negative.")
    if stat == "mean":
        notes.append("Post-processing: " + str(result.get("postprocessing") or result.get("note", "")) + ".")
        notes.append("A mean is a noisy sum over a noisy count; it has no simple ± interval.")
    if stat in ("median", "quantile"):
        notes.append("Chosen among the declared candidate values by the exponential mechanism; no ± interval.")
    out = []
    for i, (label, value) in enumerate(labelled):
        if hw and i < len(shown) and len(raw) == len(labelled):
            a = float(hw["simultaneous"])
            lo = max(0.0, raw[i] - a) if clampable else raw[i] - a
            out.append((label, _num(shown[i]), f"±{_num(a)}", f"{_num(lo)} to {_num(raw[i] + a)}"))
        else:
            out.append((label, _num(shown[i] if i < len(shown) else value), "", ""))
    if hw:
        conf = float(Fraction(hw["confidence"]))
        notes.insert(0, f"±: every cell within this of its exact value at once, with probability {conf:.0%} "
                        f"(any one cell alone: ±{_num(float(hw['per_cell']))}).")
    return out, notes


class ResultPane(QWidget):
    """Shows one :class:`~dpdesk.project.ledger.releases.LedgerEntry`."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("releaseResult")
        self.title = QLabel("No release shown yet. Prepare one on the left, or open one from the release list.")
        self.title.setWordWrap(True)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Cell", "Noisy value", "±", "Interval"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setAccessibleName("Released values")
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes)
        self.entry = None

    def show_entry(self, entry, how: str = "released") -> None:
        """``how``: 'released' (just now), 'replayed' or 'opened' (from the ledger; both free)."""
        self.entry = entry
        table, notes = rows(entry)
        self.table.setRowCount(len(table))
        for r, row in enumerate(table):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        cost = entry.cost.get("epsilon", "?")
        try:
            from dpdesk.project.ledger.text import epsilon_text

            cost = epsilon_text(Fraction(cost), Fraction(entry.cost.get("delta", "0")), up=True)
        except (ValueError, ZeroDivisionError, TypeError):
            cost = f"ε = {cost}"
        when = entry.time.replace("T", " ")[:19]
        head = f"<b>Release #{entry.seq}: {entry.description}</b> ({entry.mechanism.replace('_', ' ')})<br>"
        if how == "released":
            head += f"Released just now; it cost {cost}."
        elif how == "replayed":
            head += (f"Asked before, on {when}: the recorded result is shown again at no cost "
                     "(never re-noised, so asking again cannot average the noise away).")
        else:
            head += (f"Opened from the release list: made on {when} for {cost}. Opening it costs nothing; "
                     "the recorded result is shown, never re-noised.")
        self.title.setText(head)
        self.notes.setText("<br>".join(notes))
