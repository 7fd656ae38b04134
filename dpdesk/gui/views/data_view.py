"""The Data view: import a file, browse the imported table, and read its variables.

The table is a lazy model (:class:`~dpdesk.gui.widgets.table_model.FrameModel`): a million rows
scroll because only the visible cells are formatted. The variable list gives each
column's question text, value labels and missing codes from the import report.
A linked dataset (:mod:`.data_linked`) is never loaded: its recorded schema and a sample drawn
in its engine are shown, with the engine and the source in words.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpdesk.errors import DpdeskError

from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.help.button import ViewTitle
from dpdesk.gui.widgets.table_model import FrameModel, cell_text
from dpdesk.gui.widgets.common import name, note, type_words
from dpdesk.gui.widgets.survey_design_panel import SurveyDesignPanel
from dpdesk.gui.shell.worker import JobRunner


def load_job(job, project, dataset: str):
    """Worker: the stored dataset as a Table (rows read from the project file)."""
    from dpdesk.project.analysis.estimates import stored_table
    from dpdesk.project.reading.importing import own_connection

    job.progress(0.0, f"Loading {dataset}…")
    with own_connection(project) as own:  # the window's connection stays free meanwhile
        return dataset, stored_table(own, dataset)


#: The columns of the variable list that hold each column's label and value labels (editable).
LABEL_COLUMN = 2
VALUES_COLUMN = 3
#: Value labels shown in full (and editable) up to this many; more are shortened with "…".
SHOWN_VALUES = 12


def values_text(labels: dict) -> str:
    """``"1 = Female; 2 = Male"`` (a code labelled with its own text shows once: ``.a``)."""
    return "; ".join(f"{cell_text(k)} = {v}" if cell_text(k) != v else cell_text(k)
                     for k, v in list(labels.items())[:SHOWN_VALUES]) + ("; …" if len(labels) > SHOWN_VALUES else "")


def variable_rows(table) -> list[tuple[str, str, str, str, str]]:
    """(column, type, question text, value labels, missing codes) for the variable list."""
    r = table.report
    out = []
    for column in table.frame.columns:
        c = str(column)
        shown = values_text(r.value_labels.get(c) or {})
        missing = ", ".join(cell_text(m) for m in (r.missing_values.get(c) or []))
        out.append((c, type_words(table.frame[column].dtype), r.variable_labels.get(c, ""), shown, missing))
    return out


def _origin(dataset: str, source) -> str:
    """Where the rows came from: the file and the start of its SHA-256, or that no file was recorded."""
    if source.sha256:
        return f"from {source.name} (SHA-256 {source.sha256[:12]}…)"
    if source.name and source.name != dataset:
        return f"from {source.name}"
    return "added without a source file"


class DataView(QWidget):
    dataset_shown = Signal(str)  # the dataset now in the table
    dialog_opened = Signal(object)  # the ImportDialog (tests drive it)
    imported = Signal(str)  # a dataset was just imported (results are out of date)
    active_changed = Signal(str)  # another dataset is now the active one (every view follows it)
    labels_changed = Signal(str)  # a column of this dataset was relabelled (output follows)

    def __init__(self, window, parent=None) -> None:
        super().__init__(parent)
        self.window_ = window
        self.setObjectName("view_data")
        self.table = None
        self.shown_dataset: str | None = None  # the dataset whose rows self.table holds
        self._map_when_loaded: str | None = None  # an item to map once the active dataset is loaded
        self.dialog = None
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_loaded)
        self.jobs.failed.connect(self._on_failed)
        self.linked_shown = False  # the table holds a linked dataset's sample, not its rows
        self.map_jobs = JobRunner(self)  # a linked dataset's answers, counted in its engine for the mapping
        self.map_jobs.done.connect(self._on_mapping_table)
        self.map_jobs.failed.connect(self._on_failed)
        self.link = None  # the LinkDialog
        title = ViewTitle("Data")  # with its "?" button: the guide's page on this view
        self.import_button = name(QPushButton("Import data…"), "Import data",
                                  "Import survey answers from CSV, Excel, SPSS, Stata or a counts table, or link "
                                  "data too large to copy (Parquet or CSV files)")
        self.import_button.clicked.connect(self._on_import_clicked)
        self.map_button = name(QPushButton("Map items…"), "Map items",
                               "Change which column holds each survey item's answers and what its values mean "
                               "(Undo takes it back)")
        self.map_button.clicked.connect(self.mapping_dialog)
        self.map_button.setEnabled(False)
        self.mapping = None
        self.datasets = name(QComboBox(), "Active dataset",
                             "The data every analysis, release and extract uses; choose another to switch")
        self.datasets.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.datasets.activated.connect(self._on_dataset_chosen)
        self.info = note(object_name="dataInfo")
        self.model = FrameModel()
        self.view = name(QTableView(), "Data table", "The imported answers; row numbers are as in the file")
        self.view.setModel(self.model)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.view.horizontalHeader().setDefaultSectionSize(110)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.variables = name(QTableWidget(0, 5), "Variables",
                              "Each column with its type, question text, value labels and missing codes")
        self.variables.setHorizontalHeaderLabels(["Variable", "Type", "Label (question text)", "Value labels",
                                                  "Missing codes"])
        self.variables.horizontalHeaderItem(LABEL_COLUMN).setToolTip(
            "What tables, plots and reports call the column. Double-click or press F2 to rename it.")
        self.variables.verticalHeader().setVisible(False)
        self.variables.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked  # or F2: never a stray key
                                       | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.variables.itemChanged.connect(self._on_variable_edited)
        self._dataset_shown: str | None = None
        header = self.variables.horizontalHeader()
        for c in (0, 1, 4):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.empty = note("No data yet. Import the survey answers with <b>Import data…</b> or drop the file on "
                          "the window (CSV/TSV, Excel, SPSS, Stata, survey-platform exports, counts tables). Data too large to copy "
                          "(Parquet or CSV files, a folder, a glob) are linked: <b>Import data…</b>, then <b>Link a large "
                          "dataset (not copied)…</b>.")
        self.survey = SurveyDesignPanel()
        self.survey.design_changed.connect(self._on_design_changed)
        self.survey.hide()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.view)
        split.addWidget(self.variables)
        split.setSizes([420, 200])
        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        top.addWidget(QLabel("Active dataset:"))
        top.addWidget(self.datasets)
        top.addWidget(self.map_button)
        top.addWidget(self.import_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.setSpacing(10)
        layout.addLayout(top)
        layout.addWidget(self.empty)
        layout.addWidget(self.info)
        layout.addWidget(self.survey)
        layout.addWidget(split, 1)
        self.split = split
        # connected before the views created later, so this reads the project before their jobs start
        window.project_changed.connect(self.refresh)
        window.undo_stack.indexChanged.connect(self._sync_labels)  # a label change undone or redone

    @property
    def project(self):
        return self.window_.project

    # ------------------------------------------------------------------ project
    def refresh(self, *_args) -> None:
        """List the project's datasets and load the latest (in the worker)."""
        self.jobs.cancel()
        self.map_jobs.cancel()
        self.datasets.clear()
        sets = self.project.datasets() if self.project is not None else []
        for d in sets:
            self.datasets.addItem(f"{d.name} ({d.n_rows:,} rows)", d.name)
        self.import_button.setEnabled(self.project is not None)
        self.empty.setVisible(not sets)
        self.split.setVisible(bool(sets))
        if not sets:
            self.survey.hide()
            self.table = None
            self.model.set_frame(None)
            self.variables.setRowCount(0)
            self.info.setText("")
            return
        from dpdesk.project.study.active import active_dataset

        active = active_dataset(self.project)
        self.datasets.setCurrentIndex(max(0, self.datasets.findData(active.name)))
        self.info.setText(f"Loading {active.name}…")
        # started from the event loop: other views read the project first (a running job holds it)
        QTimer.singleShot(0, self._load_chosen)

    def _load_chosen(self) -> None:
        if self.project is not None and self.datasets.count():
            self.load(self.datasets.currentData())

    def load(self, dataset: str) -> None:
        from dpdesk.gui.views.data_linked import is_linked_dataset, sample_job

        self._loading = dataset
        if is_linked_dataset(self.project, dataset):  # never loaded: a sample drawn in its engine
            self.info.setText(f"Drawing a sample of {dataset} in its engine…")
            self.jobs.start(sample_job, self.project, dataset)
            return
        self.info.setText(f"Loading {dataset}…")
        self.jobs.start(load_job, self.project, dataset)

    def _on_dataset_chosen(self, index: int) -> None:
        chosen = self.datasets.itemData(index)
        self.window_.use_dataset(chosen)
        self.load(chosen)
        self.active_changed.emit(chosen)

    def _on_loaded(self, result) -> None:
        self.show_table(*result)

    def _on_failed(self, exc) -> None:
        from dpdesk.gui.views.data_linked import failed_info, is_linked_dataset

        dataset = getattr(self, "_loading", None)
        if dataset and self.project is not None and is_linked_dataset(self.project, dataset):
            self.info.setText(failed_info(dataset, exc))  # a changed source, a missing file: said in view
            self.table, self.shown_dataset, self._dataset_shown = None, dataset, None
            self.model.set_frame(None)
            self.variables.setRowCount(0)
            self.map_button.setEnabled(False)
            return
        self.info.setText("")
        show_error(exc, self)

    def show_table(self, dataset: str, table) -> None:
        self.table = table
        self.shown_dataset = dataset
        r = table.report
        self.linked_shown = getattr(r, "kind", "") == "linked"
        self.model.set_frame(table.frame, value_labels=r.value_labels, first_row=r.first_data_row)
        left = f"; left out: {', '.join(r.excluded)}" if r.excluded else ""
        if self.linked_shown:
            from dpdesk.gui.views.data_linked import linked_info, schema_rows

            self.info.setText(linked_info(self.project, dataset, len(table.frame)))
            rows = schema_rows(self.project, dataset, r, values_text)
        else:
            self.info.setText(f"<b>{dataset}</b>: {len(table.frame):,} rows, {len(table.frame.columns)} columns, "
                              f"{_origin(dataset, table.source)}{left}")
            rows = variable_rows(table)
        self._dataset_shown = None  # filling the list is no edit
        self.variables.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, text in enumerate(row):
                cell = QTableWidgetItem(text)
                editable = j == LABEL_COLUMN or j == VALUES_COLUMN and not text.endswith("…")
                if not editable:
                    cell.setFlags(cell.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.variables.setItem(i, j, cell)
        self._dataset_shown = dataset
        self.empty.hide()
        self.split.show()
        counts = getattr(r, "kind", "") in ("counts", "linked")  # no respondents' rows here to weight
        self.survey.setVisible(not counts)
        if not counts:
            self.survey.show_dataset(self.project, dataset, table.frame)
        self.map_button.setEnabled(bool(self.project is not None and self.project.items()))
        self.dataset_shown.emit(dataset)
        if self._map_when_loaded is not None:  # a Map button was pressed while the rows were loading
            item, self._map_when_loaded = self._map_when_loaded, None
            self.mapping_dialog(item=item or None)

    def _sync_labels(self, _index: int = 0) -> None:
        """Show the labels the project holds now (after Undo or Redo)."""
        dataset = self._dataset_shown
        if dataset is None or self.project is None or self.project.closed or self.table is None:
            return
        from dpdesk.project.study.labels import Labels

        stored = Labels.from_stored(self.project.column_labels(dataset))
        report = self.table.report
        if (stored.columns, stored.values) == ({c: v for c, v in report.variable_labels.items() if v},
                                               {c: v for c, v in report.value_labels.items() if v}):
            return
        report.variable_labels, report.value_labels = dict(stored.columns), dict(stored.values)
        self.show_table(dataset, self.table)
        self.labels_changed.emit(dataset)

    def _on_variable_edited(self, cell) -> None:
        """The researcher renamed a column (its label) or its values: store it as one undoable step."""
        if self._dataset_shown is None or self.project is None:
            return
        if cell.column() == VALUES_COLUMN:
            self._on_values_edited(cell)
            return
        if cell.column() != LABEL_COLUMN:
            return
        from dpdesk.gui.shell import commands

        column = self.variables.item(cell.row(), 0).text()
        label = " ".join(cell.text().split())
        if label == (self.table.report.variable_labels.get(column) or ""):
            return
        try:
            commands.push(self.window_.undo_stack, commands.SetColumnLabel(self.project, self._dataset_shown,
                                                                           column, label))
        except DpdeskError as exc:
            show_error(exc, self)
            return
        self.table.report.variable_labels[column] = label
        self.window_.statusBar().showMessage(f"Column {column} is now labelled {label!r}." if label else
                                             f"Column {column} has no label now.", 8000)
        self.labels_changed.emit(self._dataset_shown)

    def _on_values_edited(self, cell) -> None:
        from dpdesk.gui.shell import commands
        from dpdesk.project.study.labels import parse_value_labels

        column = self.variables.item(cell.row(), 0).text()
        before = self.table.report.value_labels.get(column) or {}
        try:
            values = parse_value_labels(cell.text(), self.table.frame[column], column,
                                        known={cell_text(k): k for k in before})
            if values == before:
                return
            commands.push(self.window_.undo_stack, commands.SetValueLabels(self.project, self._dataset_shown,
                                                                           column, values))
        except DpdeskError as exc:
            show_error(exc, self)
            self._dataset_shown, shown = None, self._dataset_shown
            cell.setText(values_text(before))
            self._dataset_shown = shown
            return
        self.table.report.value_labels[column] = values
        self.model.set_frame(self.table.frame, value_labels=self.table.report.value_labels,
                             first_row=self.table.report.first_data_row)
        self.window_.statusBar().showMessage(f"Column {column} has {len(values)} value label(s) now.", 8000)
        self.labels_changed.emit(self._dataset_shown)

    def _on_design_changed(self, dataset: str) -> None:
        self.window_.statusBar().showMessage(f"Survey design of {dataset} updated; results follow it.", 8000)
        self.imported.emit(dataset)  # results are out of date

    # ------------------------------------------------------------------ mapping
    def mapping_dialog(self, *_args, item: str | None = None):
        """Map the items to the shown (active) dataset; one undoable step. Returns the dialog.

        ``item`` is shown first. Other datasets keep their own mappings.
        """
        if self.project is None or self.table is None:
            return None
        if self.linked_shown:  # its answers are counted in the engine first (a worker, Cancel), then the dialog
            from dpdesk.gui.views.data_linked import mapping_table_job

            self.info.setText(f"Counting the answers of {self.shown_dataset} in its engine…")
            self.map_jobs.start(mapping_table_job, self.project, self.shown_dataset, item)
            return None
        return self._open_mapping(self.table, item, f"These mappings are for the dataset “{self.shown_dataset}”; "
                                  "other datasets keep their own. The change is stored when you press OK; Edit > Undo "
                                  "takes it back.")

    def _on_mapping_table(self, result) -> None:
        from dpdesk.gui.views.data_linked import linked_info, mapping_intro

        table, left, item = result
        if self.table is not None and self.shown_dataset is not None:
            self.info.setText(linked_info(self.project, self.shown_dataset, len(self.table.frame)))
        self._open_mapping(table, item, mapping_intro(self.shown_dataset, left))
        self.dialog_opened.emit(self.mapping)

    def _open_mapping(self, table, item, intro: str):
        from dpdesk.gui.dialogs.mapping import MappingDialog

        dataset = self.shown_dataset
        items = self.project.items(dataset)
        current = {it.name: {"column": it.column, "codes": it.codes, "group_column": it.group_column,
                             "group_codes": it.group_codes} for it in items if it.column and it.codes}
        self.mapping = MappingDialog(table, items, current, self, intro=intro)
        self.mapping.setWindowTitle(f"Map survey items to the columns of {dataset}")
        self.mapping.dataset = dataset
        self.mapping.accepted.connect(self._on_mapping_accepted)
        names = [it.name for it in items]
        if item in names:
            self.mapping.item_list.setCurrentRow(names.index(item))
        self.mapping.open()
        return self.mapping

    def map_item(self, item: str | None = None) -> None:
        """Open the mapping dialog on ``item`` for the active dataset (once its rows are loaded)."""
        from dpdesk.project.study.active import active_dataset

        active = active_dataset(self.project) if self.project is not None else None
        if active is None:
            return
        if self.table is not None and self.shown_dataset == active.name and not self.jobs.running:
            self.mapping_dialog(item=item)
            return
        self._map_when_loaded = item or ""
        if not self.jobs.running:
            self.load(active.name)

    def _on_mapping_accepted(self) -> None:
        from dpdesk.gui.shell import commands

        dialog, self.mapping = self.mapping, None
        changed = {k: v for k, v in dialog.accepted_mappings().items()}
        if not changed or self.project is None:
            return
        try:
            commands.push(self.window_.undo_stack, commands.EditMappings(self.project, changed, dialog.dataset))
        except DpdeskError as exc:
            show_error(exc, self)
            return
        self.window_.statusBar().showMessage(f"Mapped {len(changed)} item(s) to the data.", 8000)
        self.imported.emit(self.datasets.currentData() or "")  # results are out of date

    # ------------------------------------------------------------------ import
    def _on_import_clicked(self) -> None:
        dialog = self.import_dialog()
        if dialog is not None:
            dialog.choose_file()

    def import_dialog(self, path=None):
        """Open the import dialog (for ``path`` if given); returns it (tests drive it)."""
        if self.project is None:
            return None
        from dpdesk.gui.dialogs.import_data import ImportDialog

        if path is not None and str(path).lower().endswith(".parquet"):  # too big to copy: linked
            return self.link_dialog(str(path))
        taken = [self.datasets.itemData(i) for i in range(self.datasets.count())]
        self.dialog = ImportDialog(self.project, path, self, taken=taken)
        self.dialog.imported.connect(self._on_imported)
        self.dialog.link_requested.connect(self.link_dialog)
        self.dialog.open()
        self.dialog_opened.emit(self.dialog)
        return self.dialog

    def link_dialog(self, source: str = ""):
        """Open the dialog that links a large dataset (not copied); returns it (tests drive it)."""
        if self.project is None:
            return None
        from dpdesk.gui.dialogs.link_data import LinkDialog

        self.link = LinkDialog(self.project, source or None, self)
        self.link.linked.connect(self._on_linked)
        self.link.open()
        self.dialog_opened.emit(self.link)
        return self.link

    def _on_linked(self, dataset: str) -> None:
        """A source was linked (and made the active dataset): list it, show its sample, tell the others."""
        self.refresh()
        self.window_.update_dataset_label()
        self.window_.statusBar().showMessage(f"Linked {dataset} (not copied).", 8000)
        self.imported.emit(dataset)
        self.active_changed.emit(dataset)

    def _on_imported(self, dataset: str, table) -> None:
        from dpdesk.project.study.active import active_dataset

        self.jobs.cancel()
        active = active_dataset(self.project).name
        self.datasets.clear()
        for d in self.project.datasets():
            self.datasets.addItem(f"{d.name} ({d.n_rows:,} rows)", d.name)
        self.datasets.setCurrentIndex(max(0, self.datasets.findData(active)))
        self.empty.setVisible(False)
        self.split.setVisible(True)
        if active == dataset:
            self.show_table(dataset, table)
        else:
            self.load(active)
        self.window_.update_dataset_label()
        if table.seen_before:  # the same respondents were released from before: say so, don't block
            from dpdesk.gui.dialogs.errors import show_message

            show_message(self, "These respondents were released from before", "\n\n".join(table.seen_before))
        mapped = f" {len(table.auto_mapped)} item(s) mapped automatically." if table.auto_mapped else ""
        self.window_.statusBar().showMessage(
            f"Imported {dataset}." + mapped + ("" if active == dataset else f" Analyses still use {active}."), 8000)
        self.imported.emit(dataset)

    def shutdown(self) -> None:
        if self.dialog is not None:
            self.dialog.reject()  # cancels (and waits for) its job; a cancelled save is rolled back
            self.dialog = None
        if self.link is not None:
            self.link.reject()  # interrupts the engine and waits; nothing is linked
            self.link = None
        self.map_jobs.shutdown()
        self.jobs.shutdown()
