"""A lazy table model over a data frame: cells are turned into text only when they are shown.

The columns are kept as NumPy arrays (one per column), so a view of a million rows asks
for the few dozen visible cells and nothing else. Value labels show beside their codes
("1 = Yes"); blanks show as an empty cell with "blank (missing)" as the tooltip.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt


def cell_text(value: Any) -> str:
    """How a code looks in the table: integers without ".0", blanks empty."""
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    text = str(value)
    return "" if text in ("nan", "NaT", "<NA>", "None") and not isinstance(value, str) else text


class FrameModel(QAbstractTableModel):
    """Read-only model of a pandas DataFrame (or nothing); row headers are the file's row numbers."""

    def __init__(self, frame=None, *, value_labels: dict | None = None, first_row: int = 2,
                 max_rows: int | None = None, parent=None) -> None:
        super().__init__(parent)
        self._columns: list[str] = []
        self._arrays: list = []
        self._labels: list[dict] = []
        self._rows = 0
        self.first_row = first_row
        self.set_frame(frame, value_labels=value_labels, first_row=first_row, max_rows=max_rows)

    def set_frame(self, frame, *, value_labels: dict | None = None, first_row: int = 2,
                  max_rows: int | None = None) -> None:
        self.beginResetModel()
        value_labels = value_labels or {}
        if frame is None:
            self._columns, self._arrays, self._labels, self._rows = [], [], [], 0
        else:
            if max_rows is not None:
                frame = frame.iloc[:max_rows]
            self._columns = [str(c) for c in frame.columns]
            self._arrays = [frame[c].to_numpy(dtype=object, copy=False) if frame[c].dtype.kind not in "iufb"
                            else frame[c].to_numpy() for c in frame.columns]
            self._labels = [{str(k): str(v) for k, v in (value_labels.get(c) or {}).items()} for c in self._columns]
            self._rows = len(frame)
        self.first_row = first_row
        self.endResetModel()

    @property
    def columns(self) -> list[str]:
        return list(self._columns)

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802 - Qt API
        return 0 if parent.isValid() else len(self._columns)

    def raw(self, row: int, column: int) -> Any:
        value = self._arrays[column][row]
        item = getattr(value, "item", None)
        return item() if callable(item) and getattr(value, "ndim", 1) == 0 else value

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            text = cell_text(self.raw(index.row(), index.column()))
            label = self._labels[index.column()].get(text) if text else None
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{text} = {label}" if label else text
            if not text:
                return "blank (missing)"
            return f"{self._columns[index.column()]}: {text}" + (f" ({label})" if label else "")
        if role == Qt.ItemDataRole.TextAlignmentRole:
            kind = getattr(self._arrays[index.column()], "dtype", None)
            if kind is not None and kind.kind in "iuf":
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
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
