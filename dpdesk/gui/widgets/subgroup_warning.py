"""A warning bar over subgroup results whose exact counts undercut central DP or a protected column.

It shows a :class:`dpdesk.project.sharing.subgroup_disclosure.SubgroupWarning` in words and offers
"Leave out groups smaller than N" (N defaults to the warning's threshold: the project's
sharing k, else 5). It never blocks: the results stay usable, and the choice is a signal
the view turns into a new analysis (``min_group_size``), which exports follow.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QFrame, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout

from dpdesk.gui.widgets.common import name


class SubgroupWarningBar(QFrame):
    """Hidden until :meth:`set_warning` gets a warning; emits ``leave_out_changed(N or None)``."""

    leave_out_changed = Signal(object)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("subgroupWarning")
        self.setStyleSheet("#subgroupWarning { background: #fff4d6; border: 1px solid #e0b84a; border-radius: 4px; }"
                           " QLabel { background: transparent; }")
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setObjectName("subgroupWarningText")
        name(self.text, "Subgroup counts warning", "Why the exact subgroup counts undercut the privacy protection")
        self.leave_out = name(QCheckBox("Leave out groups smaller than"), "Leave out small groups",
                              "Leave subgroups with fewer answers than this out of the results and the export")
        self.size = name(QSpinBox(), "Smallest group shown", "Groups with fewer answers than this are left out")
        self.size.setRange(1, 100_000)
        self.size.setValue(5)
        self.size.setSuffix(" answers")
        self.size.setKeyboardTracking(False)  # a new value when typing ends or an arrow is pressed
        row = QHBoxLayout()
        row.addWidget(self.leave_out)
        row.addWidget(self.size)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self.text)
        layout.addLayout(row)
        self.leave_out.toggled.connect(self._changed)
        self.size.valueChanged.connect(self._size_changed)
        self.warning = None
        self.hide()

    def set_warning(self, warning) -> None:
        """Show ``warning`` (a SubgroupWarning), or hide the bar for None."""
        self.warning = warning
        if warning is None:
            self.hide()
            return
        if not self.leave_out.isChecked():
            self.size.blockSignals(True)
            self.size.setValue(warning.threshold)
            self.size.blockSignals(False)
        self.text.setText(f"<b>Exact subgroup counts.</b> {warning.message}")
        self.show()

    def min_group_size(self) -> int | None:
        """N when small groups are to be left out, else None."""
        return self.size.value() if self.leave_out.isChecked() else None

    def _changed(self, _checked: bool = False) -> None:
        self.leave_out_changed.emit(self.min_group_size())

    def _size_changed(self, _value: int = 0) -> None:
        if self.leave_out.isChecked():
            self._changed()
