"""Map each survey item to its column and codes, and check the mapping before anything is stored.

For the chosen column the dialog lists its values (with value labels and how often each
occurs); each value is assigned to a response, named in the respondent's words (the words
the card prints: "Both answers are the same", not "yes"). Values are matched to those
words automatically, from their text or the file's value labels. Two-group designs also
get the column that holds the randomization group. The check (``map_item`` in a worker)
reports the counts, the missing answers (blanks and the file's user-missing codes, left out
and reported with the results; a missing code can still be counted as an answer) and every
row that matches no code, with row numbers; the researcher either fixes the codes or
chooses to leave those rows out. A mapping that contradicts the file's own labels (a code
labelled "same" mapped to "different") is shown as a problem and is not accepted.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpdesk.errors import app_words
from dpdesk.gui.help.window import HelpKey
from dpdesk.gui.dialogs.discard import AskBeforeDiscard
from dpdesk.gui.widgets.common import name, note
from dpdesk.gui.widgets.wheel import guard
from dpdesk.gui.widgets.table_model import cell_text
from dpdesk.gui.shell.worker import JobRunner

NOT_COUNTED = "(not counted)"
MISSING = "(missing: left out)"
NO_COLUMN = "(not in this file)"


def inspect_column(job, table, column: str, group_column: str | None):
    """Worker: the distinct values (value, label, count) of the column and the group column."""
    from dpdesk.project.reading.importing import distinct_values

    values = distinct_values(table, column) if column else []
    groups = distinct_values(table, group_column) if group_column else []
    return ("values", column, group_column, values, groups)


def check_mapping(job, table, item: str, mapping: dict):
    """Worker: count the item's answers as mapped (rows not counted are listed, never dropped)."""
    from dpdesk.errors import DpdeskError
    from dpdesk.project.mapping import map_item
    from dpdesk.project.mapping.unary import is_unary_codes, unary_counts

    design = mapping.get("design")
    try:
        if is_unary_codes(mapping.get("codes")):  # a multi-select item: one tick column per option
            return ("check", item, unary_counts(table, mapping["codes"], exclude=False), "")
        report = map_item(table, mapping["column"], mapping["codes"], group_column=mapping.get("group_column"),
                          group_codes=mapping.get("group_codes"), exclude=False, design=design)
    except DpdeskError as exc:
        return ("check", item, None, app_words(exc))
    return ("check", item, report, "")


def check_all(job, table, mappings: dict):
    """Worker: check every mapping the dialog starts with (the items' stored mappings)."""
    out = {}
    for item, mapping in mappings.items():
        job.check()
        out[item] = check_mapping(job, table, item, mapping)
    return out


def report_text(report, limit: int = 12) -> str:
    """The check's result in words (counts by the respondent's words, missing answers left
    out and why, then the rows that match no code with their row numbers)."""
    counts = report.counts
    words = [f"“{report.label(r)}” {{:,}}" for r in report.responses]
    if report.groups:
        parts = [f"group {g}: " + ", ".join(w.format(c) for w, c in zip(words, counts[i]))
                 for i, g in enumerate(report.groups)]
    elif counts and isinstance(counts[0], list):  # unary: (not ticked, ticked) per option
        parts = [", ".join(f"{r} ticked {c[1]}" for r, c in zip(report.responses, counts))]
    else:
        parts = [", ".join(w.format(c) for w, c in zip(words, counts))]
    lines = [f"Counted {report.n_used:,} of {report.n_rows:,} rows: " + "; ".join(parts) + "."]
    if report.missing:
        reasons = {}
        for p in report.missing:
            reasons[p.reason] = reasons.get(p.reason, 0) + p.count
        why = ", ".join(f"{n:,} {r}" for r, n in sorted(reasons.items(), key=lambda kv: -kv[1]))
        rows = ", ".join(str(p.row) for p in report.missing[:limit]) + (", …" if len(report.missing) > limit else "")
        lines.append(f"{report.n_missing:,} missing answer(s) left out and reported with the results ({why}): "
                     f"rows {rows}.")
    if report.unmatched:
        rows = ", ".join(str(p.row) for p in report.unmatched[:limit]) + (", …" if len(report.unmatched) > limit else "")
        values = sorted({str(p.value) for p in report.unmatched if p.value is not None})[:6]
        shown = f" (values: {', '.join(repr(v) for v in values)})" if values else ""
        lines.append(f"{report.n_unmatched:,} row(s) match no code{shown}: rows {rows}. Choose what each value "
                     f"means above, or leave these rows out.")
    return "\n".join(lines)


_MOVING_KEYS = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_Home,
                Qt.Key.Key_End)


class KeepChoiceOnArrows(QObject):
    """On a closed combo box, the arrow, Page and Home/End keys do nothing: a column chosen for an item
    (and the codes that hang on it) changes only from the opened list (Alt+Down, F4 or Space) or by
    typing a name, never by a key pressed to move on."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if (event.type() == QEvent.Type.KeyPress and isinstance(obj, QComboBox) and not obj.view().isVisible()
                and event.key() in _MOVING_KEYS
                and not event.modifiers() & (Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier)):
            return True
        return False


class CodeTable(QTableWidget):
    """The values of a column, each with a combo box: which response (or group) it stands for."""

    edited = Signal()  # the user picked a response (or group) for a value

    def __init__(self, what: str, parent=None) -> None:
        super().__init__(0, 4, parent)
        self.what = what
        name(self, f"{what} codes", f"Each value of the column and the {what.lower()} it stands for")
        self.setHorizontalHeaderLabels(["Value", "Label", "Rows", what])
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        for c in range(3):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.values: list = []

    def fill(self, values: list[tuple], choices: list[tuple[str, str]], chosen: dict, suggest=None) -> None:
        """``choices``: (key, text); ``chosen``: {key: [codes]} preselected (matching as text);
        ``suggest(value, label)`` gives the key a value names in the respondent's words (or None).
        User-missing codes (labelled "(missing code)") start as missing, not as a response."""
        self.values = [v for v, _label, _n in values if v is not None]
        blanks = sum(n for v, _label, n in values if v is None)
        self.setRowCount(len(self.values) + (1 if blanks else 0))
        wanted = {str(c).strip().casefold(): key for key, codes in chosen.items() for c in codes}
        row = 0
        for value, label, count in values:
            if value is None:
                continue
            for col, text in enumerate((cell_text(value), label, f"{count:,}")):
                cell = QTableWidgetItem(text)
                cell.setFlags(cell.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.setItem(row, col, cell)
            combo = name(QComboBox(), f"{self.what} of {cell_text(value)}",
                         f"Which {self.what.lower()} the value {cell_text(value)} means")
            is_missing = label.endswith("(missing code)")
            combo.addItem(MISSING if is_missing else NOT_COUNTED, None)
            for key, text in choices:
                combo.addItem(text, key)
            key = wanted.get(str(value).strip().casefold()) or wanted.get(label.strip().casefold())
            if key is None and not chosen and not is_missing:
                if suggest is not None:
                    key = suggest(value, label.removesuffix("(missing code)").strip())
                else:
                    key = next((k for k, _t in choices if k.casefold() in (str(value).casefold(), label.casefold())),
                               None)
            combo.setCurrentIndex(max(0, combo.findData(key)) if key is not None else 0)
            combo.activated.connect(self.edited)
            combo.installEventFilter(self)
            self.setCellWidget(row, 3, combo)
            row += 1
        if blanks:  # blanks are missing answers: listed, never a response (last row, outside self.values)
            for col, text in enumerate(("(blank)", "no answer", f"{blanks:,}")):
                cell = QTableWidgetItem(text)
                cell.setFlags(cell.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.setItem(row, col, cell)
            combo = name(QComboBox(), f"{self.what} of blank answers", "Blank answers are missing: left out and reported")
            combo.addItem(MISSING, None)
            combo.setEnabled(False)
            self.setCellWidget(row, 3, combo)
        self._chain_tab_order()
        guard(self)  # a wheel over a value's box scrolls the table; it never changes the choice

    def combos(self) -> list[QComboBox]:
        """The response (or group) boxes, top to bottom."""
        return [self.cellWidget(r, 3) for r in range(len(self.values))]

    def _chain_tab_order(self) -> None:
        """Tab goes from the table through each value's box, in order, then on to the next control."""
        previous = self
        for combo in self.combos():
            QWidget.setTabOrder(previous, combo)
            previous = combo

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        """In a value's box, Up and Down move to the box above or below, as in a table; they never change
        the choice (Alt+Down, F4 or Space open the list, and typing picks by the first letters)."""
        if event.type() == QEvent.Type.KeyPress and isinstance(obj, QComboBox) and not obj.view().isVisible():
            key, mods = event.key(), event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            step = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -1, Qt.Key.Key_PageDown: 1}.get(key)
            if key in (Qt.Key.Key_Home, Qt.Key.Key_End) and mods == Qt.KeyboardModifier.NoModifier:
                return True
            if step is not None and mods == Qt.KeyboardModifier.NoModifier:
                combos = self.combos()
                if obj in combos:
                    row = min(max(combos.index(obj) + step, 0), len(combos) - 1)
                    combos[row].setFocus(Qt.FocusReason.TabFocusReason)
                    self.setCurrentCell(row, 3)
                return True
        return super().eventFilter(obj, event)

    def combo(self, value) -> QComboBox:
        return self.cellWidget(self.values.index(value), 3)

    def assign(self, value, key) -> None:
        self.combo(value).setCurrentIndex(self.combo(value).findData(key))

    def codes(self, keys: list[str]) -> dict:
        out = {k: [] for k in keys}
        for row, value in enumerate(self.values):
            key = self.cellWidget(row, 3).currentData()
            if key is not None:
                out[key].append(value)
        return out


class MappingDialog(AskBeforeDiscard, QDialog):
    """One page per item: column, codes, group column and codes, and the check's report."""

    def __init__(self, table, items: list, mappings: dict, parent=None,
                 intro: str = "Nothing is stored until you import.") -> None:
        super().__init__(parent)
        HelpKey(self, "Mapping")  # F1: the guide's page on this dialog
        self.setWindowTitle("Map survey items to columns")
        self.setObjectName("mappingDialog")
        self.resize(900, 620)
        self.table_ = table
        self.items_ = {it.name: it for it in items}
        self.mappings: dict[str, dict] = dict(mappings)
        self.reports: dict[str, object] = {}
        self.errors: dict[str, str] = {}
        self.exclude: dict[str, bool] = {}
        self.current: str | None = None
        self._filling = False
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_job_done)
        self.first_checks = JobRunner(self)  # the stored mappings, all checked once at the start
        self.first_checks.done.connect(self._on_first_checks)

        self.item_list = name(QListWidget(), "Survey items", "The items to map; each shows whether its mapping is ready")
        self.item_list.setFixedWidth(220)
        self.about = note()
        columns = [str(c) for c in table.frame.columns]
        self.column = name(QComboBox(), "Answer column", "The column that holds the item's recorded answers")
        self.column.addItem(NO_COLUMN, None)
        for c in columns:  # the whole label: the box stays its width, the list is as wide as its longest entry
            label = table.report.variable_labels.get(c, "")
            self.column.addItem(f"{c} — {label}" if label else c, c)
            self.column.setItemData(self.column.count() - 1, f"{c} — {label}" if label else c,
                                    Qt.ItemDataRole.ToolTipRole)
        self.column.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.column.setMinimumContentsLength(40)
        widest = max((self.column.fontMetrics().horizontalAdvance(self.column.itemText(i))
                      for i in range(self.column.count())), default=0)
        self.column.view().setMinimumWidth(min(widest + 40, 1000))
        self.codes = CodeTable("Response")
        self.group_column = name(QComboBox(), "Group column", "The column that holds each respondent's randomization group")
        self.group_column.addItem(NO_COLUMN, None)
        for c in columns:
            self.group_column.addItem(c, c)
        self.group_codes = CodeTable("Group")
        self.group_box = QWidget()
        group_layout = QFormLayout(self.group_box)
        group_layout.setContentsMargins(0, 0, 0, 0)
        group_layout.addRow("Group column:", self.group_column)
        group_layout.addRow(self.group_codes)
        self.report = note(object_name="mappingReport")
        self.report.setAccessibleName("Check of the mapping")
        self.report.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.exclude_box = name(QCheckBox("Leave the rows that match no code out of the estimate (they are "
                                          "reported with the results)"), "Leave rows out",
                                "Instead of fixing the codes, leave the rows that match no code out")
        form = QFormLayout()
        form.addRow("Answer column:", self.column)
        right = QVBoxLayout()
        right.addWidget(self._fixed_height(self.about, lines=5))  # a question that wraps never moves the boxes
        right.addLayout(form)
        right.addWidget(self.codes, 2)
        right.addWidget(self.group_box, 1)
        right.addWidget(self.report)
        right.addWidget(self.exclude_box)
        body = QHBoxLayout()
        body.addWidget(self.item_list)
        body.addLayout(right, 1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        heading = QLabel("Tell dpdesk which column holds each item's answers and what each value means. " + intro)
        heading.setWordWrap(True)  # one long line made the dialog 1,398 px wide, its OK button off screen
        heading.setObjectName("mappingIntro")
        layout.addWidget(heading)
        layout.addLayout(body, 1)
        layout.addWidget(self.buttons)
        for it in items:
            self.item_list.addItem(it.name)
        if self.mappings:
            self.reports.update({item: None for item in self.mappings})  # "checking…"
            self.first_checks.start(check_all, table, {item: {**m, "design": self.design(item)}
                                                       for item, m in self.mappings.items() if item in self.items_})
        self.item_list.currentRowChanged.connect(self._show_row)
        self.column.currentIndexChanged.connect(self._on_column)
        self.group_column.currentIndexChanged.connect(self._on_column)
        self.keep_choice = KeepChoiceOnArrows(self)
        for combo in (self.column, self.group_column):
            combo.installEventFilter(self.keep_choice)
        self.exclude_box.toggled.connect(self._on_exclude)
        if items:
            self.item_list.setCurrentRow(0)
        self.watch_edits()  # Escape / Cancel with changes asks first
        self.codes.edited.connect(self._mark_edited)
        self.group_codes.edited.connect(self._mark_edited)

    @staticmethod
    def _fixed_height(label: QLabel, lines: int) -> QScrollArea:
        """``label`` in an area ``lines`` text lines high (a scroll bar for more), so what is below stays put."""
        area = QScrollArea()
        area.setWidget(label)
        area.setWidgetResizable(True)
        area.setFrameShape(QScrollArea.Shape.NoFrame)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        area.setFixedHeight(label.fontMetrics().lineSpacing() * lines + 6)
        area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        return area

    # ------------------------------------------------------------------ items
    def design(self, item: str):
        from dpdesk.mechanisms import rr

        return rr.Design.from_dict(self.items_[item].design_record)

    def _show_row(self, row: int) -> None:
        if 0 <= row < len(self.items_):
            self.show_item(list(self.items_)[row])

    def show_item(self, item: str) -> None:
        self.current = item
        it = self.items_[item]
        d = self.design(item)
        self.about.setText(f"<b>{item}</b>: {it.question or ''}<br><i>{d.summary or d.name}</i>; respondents "
                           f"answer: " + ", ".join(f"“{label}”" for label in d.response_labels)
                           + (" — two randomization groups" if d.groups == 2 else ""))
        m = self.mappings.get(item, {})
        self._filling = True
        self.column.setCurrentIndex(max(0, self.column.findData(m.get("column"))))
        self.group_column.setCurrentIndex(max(0, self.group_column.findData(m.get("group_column"))))
        self.group_box.setVisible(d.groups == 2)
        self.exclude_box.setChecked(self.exclude.get(item, False))
        self._filling = False
        self._on_column()

    def _on_column(self) -> None:
        if self._filling or self.current is None:
            return
        self.report.setText("Reading the column's values…")
        self.jobs.start(inspect_column, self.table_, self.column.currentData(),
                        self.group_column.currentData() if self.design(self.current).groups == 2 else None)

    def _on_exclude(self, on: bool) -> None:
        if self.current is not None and not self._filling:
            self.exclude[self.current] = on
            self._update_status()

    def _on_job_done(self, result) -> None:
        if result[0] == "values" and result[1] != self.column.currentData():
            return  # the values of a column no longer chosen
        if result[0] == "values":
            _kind, column, group_column, values, groups = result
            d = self.design(self.current)
            m = self.mappings.get(self.current, {})
            from dpdesk.project.mapping.answer_labels import suggest

            self.codes.fill(values, list(zip(d.responses, d.response_labels)),
                            m.get("codes") or {} if m.get("column") == column else {},
                            suggest=lambda value, label: suggest(d, value, label))
            self.group_codes.fill(groups, [(str(g), f"group {g}") for g in range(1, d.groups + 1)],
                                  m.get("group_codes") or {} if m.get("group_column") == group_column else {})
            for table in (self.codes, self.group_codes):
                for row in range(table.rowCount()):
                    table.cellWidget(row, 3).currentIndexChanged.connect(self.recheck)
            self.recheck()
        else:
            _kind, item, report, error = result
            self.reports[item] = report
            self.errors[item] = error
            if item == self.current:
                self.report.setText(error or report_text(report))
            self._update_status()

    def _on_first_checks(self, results: dict) -> None:
        for item, (_kind, _item, report, error) in results.items():
            if self.reports.get(item) is None and self.mappings.get(item) is not None:
                self.reports[item] = report
                if error:
                    self.errors[item] = error
        self._update_status()

    def recheck(self) -> None:
        """Store the current page's mapping and check it in the worker."""
        item = self.current
        column = self.column.currentData()
        if item is None:
            return
        if column is None:
            self.mappings.pop(item, None)
            self.reports.pop(item, None)
            self.report.setText("Not mapped: this item is left out of this import's results.")
            self.report.setStyleSheet("")
            self._update_status()
            return
        d = self.design(item)
        mapping = {"column": column, "codes": self.codes.codes(list(d.responses)), "design": d}
        if d.groups == 2:
            mapping["group_column"] = self.group_column.currentData()
            mapping["group_codes"] = self.group_codes.codes([str(g) for g in range(1, d.groups + 1)])
        else:
            mapping["group_column"], mapping["group_codes"] = None, None
        self.mappings[item] = {k: v for k, v in mapping.items() if k != "design"}
        self.reports[item] = None
        self.errors.pop(item, None)
        self._update_status()
        self.jobs.start(check_mapping, self.table_, item, mapping)

    # ------------------------------------------------------------------ state
    def status(self, item: str) -> str:
        """"ready", "excluded" (problems, rows left out), "problems", "checking" or "not mapped"."""
        if item not in self.mappings:
            return "not mapped"
        if self.errors.get(item):
            return "problems"  # e.g. a code mapped against the file's own label
        report = self.reports.get(item)
        if report is None:
            return "checking" if item in self.reports else "problems"
        if report.ok:
            return "ready"
        return "excluded" if self.exclude.get(item) else "problems"

    def _update_status(self) -> None:
        marks = {"ready": "✓", "excluded": "✓ (rows left out)", "problems": "needs fixing", "checking": "checking…",
                 "not mapped": "not mapped"}
        for row in range(self.item_list.count()):
            entry = self.item_list.item(row)
            item = list(self.items_)[row]
            report = self.reports.get(item)
            missing = f" ({report.n_missing:,} missing)" if self.status(item) == "ready" and report is not None \
                and report.n_missing else ""
            entry.setText(f"{item} — {marks[self.status(item)]}{missing}")
            entry.setData(Qt.ItemDataRole.UserRole, item)
        colour = {"ready": "", "excluded": "color: #6b4a00;", "problems": "color: #a40000;"}
        if self.current is not None:
            self.report.setStyleSheet(colour.get(self.status(self.current), ""))
            report = self.reports.get(self.current)
            # only rows that match no code can be left out on request; missing answers always are
            self.exclude_box.setEnabled(bool(report is not None and report.unmatched) or self.exclude_box.isChecked())
        ok = all(self.status(i) in ("ready", "excluded", "not mapped") for i in self.items_)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def ready(self) -> bool:
        return self.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()

    def accepted_mappings(self) -> dict:
        return {k: v for k, v in self.mappings.items() if self.status(k) in ("ready", "excluded")}

    def done(self, result: int) -> None:  # noqa: D401 - Qt API
        self.jobs.shutdown()
        self.first_checks.shutdown()
        super().done(result)
