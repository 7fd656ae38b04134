"""A lazy table model over a data frame: cells are turned into text only when they are shown.

Nothing is converted when the frame is set: the rows a view asks for are turned into
Python values a block of 256 at a time (and cached), so a million rows cost what the
visible few dozen cost. Value labels show beside their codes
("1 = Yes", ".a = Refused" for Stata's missing values); blanks show as an empty cell with
"blank (missing)" as the tooltip.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

BLOCK = 256  # rows turned into Python values at a time


def cell_text(value: Any) -> str:
    """How a code looks in the table: integers without ".0", blanks empty, Stata's missing values
    as ``.a`` ... ``.z``."""
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        if value > 8.9e307:
            from dpdesk.project.reading.stata import tag_of

            return tag_of(value) or repr(value)
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    text = str(value)
    return "" if text in ("nan", "NaT", "<NA>", "None") and not isinstance(value, str) else text


class FrameModel(QAbstractTableModel):
    """Read-only model of a pandas DataFrame (or nothing); row headers are the file's row numbers."""

    def __init__(self, frame=None, *, value_labels: dict | None = None, first_row: int = 2,
                 max_rows: int | None = None, parent=None) -> None:
        super().__init__(parent)
        self._columns: list[str] = []
        self._series: list = []
        self._numeric: list[bool] = []
        self._labels: list[dict] = []
        self._blocks: dict[tuple[int, int], list] = {}
        self._rows = 0
        self.first_row = first_row
        self.set_frame(frame, value_labels=value_labels, first_row=first_row, max_rows=max_rows)

    def set_frame(self, frame, *, value_labels: dict | None = None, first_row: int = 2,
                  max_rows: int | None = None) -> None:
        """Show ``frame``; nothing is converted here (blocks of rows are, when first shown)."""
        self.beginResetModel()
        value_labels = value_labels or {}
        self._blocks.clear()
        if frame is None:
            self._columns, self._series, self._labels, self._rows, self._numeric = [], [], [], 0, []
        else:
            if max_rows is not None:
                frame = frame.iloc[:max_rows]
            self._columns = [str(c) for c in frame.columns]
            self._series = [frame.iloc[:, j] for j in range(len(self._columns))]
            self._numeric = [s.dtype.kind in "iuf" for s in self._series]
            self._labels = [{cell_text(k): str(v) for k, v in (value_labels.get(c) or {}).items()} for c in self._columns]
            self._rows = len(frame)
        self.first_row = first_row
        self.endResetModel()

    def _block(self, column: int, block: int) -> list:
        key = (column, block)
        values = self._blocks.get(key)
        if values is None:
            if len(self._blocks) > 4096:  # keep memory bounded while scrolling far
                self._blocks.clear()
            start = block * BLOCK
            values = self._blocks[key] = self._series[column].iloc[start:start + BLOCK].tolist()
        return values

    @property
    def columns(self) -> list[str]:
        return list(self._columns)

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self._columns)

    def raw(self, row: int, column: int) -> Any:
        return self._block(column, row // BLOCK)[row % BLOCK]

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            text = cell_text(self.raw(index.row(), index.column()))
            label = self._labels[index.column()].get(text) if text else None
            label = None if label == text else label  # ".b" labelled ".b": said once
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{text} = {label}" if label else text
            if not text:
                return "blank (missing)"
            return f"{self._columns[index.column()]}: {text}" + (f" ({label})" if label else "")
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if self._numeric[index.column()]:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if (role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal
                and section < len(self._series)):
            from dpdesk.gui.widgets.common import type_words

            return f"{self._columns[section]}: {type_words(self._series[section].dtype)}"  # never "int64"
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._columns[section] if section < len(self._columns) else None
        return str(section + self.first_row)


class RowsModel(QAbstractTableModel):
    """Read-only model of result rows (a list of dicts) with numbers shown rounded.

    ``Qt.UserRole`` gives the full-precision value (what "Copy table" and exports use).
    """

    def __init__(self, rows: list[dict] | None = None, *, digits: int = 4, parent=None) -> None:
        super().__init__(parent)
        self.digits = digits
        self.rows: list[dict] = []
        self.headers: list[str] = []
        self.set_rows(rows or [])

    def set_rows(self, rows: list[dict]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.headers = list(dict.fromkeys(k for r in self.rows for k in r))
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.headers)

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        value = self.rows[index.row()].get(self.headers[index.column()])
        if role == Qt.ItemDataRole.UserRole:
            return value
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self.format(value)
        if role == Qt.ItemDataRole.ToolTipRole:
            return None if value is None else str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(value, (int, float)):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def format(self, value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            if math.isnan(value):
                return ""
            if math.isinf(value):
                return "∞" if value > 0 else "−∞"
            return f"{value:.{self.digits}f}"
        return str(value)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.headers[section] if section < len(self.headers) else None
        return str(section + 1)
