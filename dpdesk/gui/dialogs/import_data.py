"""Import a data file: preview with what was detected, overrides, item mapping, then store.

1. The file is read in a worker (progress bar, Cancel) with ``read_table``; the first rows
   are shown with the detected format, encoding, delimiter, decimal mark, header rows,
   platform and the identifier columns left out. Changing a setting reads it again.
2. **Map items…** checks each survey item's column and codes (:mod:`.mapping_dialog`).
3. **Import** stores the data and the mappings in one transaction, in a worker; Cancel
   (or any error) leaves the project exactly as it was.

**Link a large dataset (not copied)…** hands over to :mod:`.link_data` (``link_requested``): a
Parquet file, folder or glob, or a CSV too large to copy, is linked instead. Choosing a Parquet
file here does the same.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
)

from dpdesk.errors import app_words
from dpdesk.gui.help.window import HelpKey
from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.widgets.table_model import FrameModel
from dpdesk.gui.widgets.common import job_row, name, note
from dpdesk.gui.shell.worker import JobRunner

DATA_FILTER = ("Survey data (*.csv *.tsv *.txt *.xlsx *.sav *.zsav *.por *.dta *.xpt);;CSV or text (*.csv *.tsv *.txt);;"
               "Excel (*.xlsx);;SPSS (*.sav *.zsav *.por);;Stata (*.dta);;SAS transport (*.xpt);;"
               "Parquet, linked (not copied) (*.parquet);;All files (*)")
PREVIEW_ROWS = 200
CHOICES = {
    "encoding": [("utf-8", "UTF-8"), ("cp1252", "Windows-1252"), ("latin-1", "Latin-1 (ISO 8859-1)"),
                 ("utf-16", "UTF-16")],
    "delimiter": [(",", "comma ,"), (";", "semicolon ;"), ("\t", "tab"), ("|", "pipe |")],
    "decimal": [(".", "point ."), (",", "comma ,")],
    "header_rows": [(1, "1"), (2, "2"), (3, "3"), (0, "none")],
    "platform": [("none", "none"), ("qualtrics", "Qualtrics"), ("surveymonkey", "SurveyMonkey"),
                 ("limesurvey", "LimeSurvey"), ("redcap", "REDCap")],
    "kind": [("responses", "one row per respondent"), ("counts", "a counts table")],
}
LABELS = {"encoding": "Encoding", "delimiter": "Delimiter", "decimal": "Decimal mark",
          "header_rows": "Header rows", "platform": "Survey platform", "kind": "The file is",
          "sheet": "Sheet"}


def read_job(job, path: str, overrides: dict, project=None):
    """Worker: ``read_table`` with progress (Cancel stops it between pieces), and the items whose
    known mapping fits the table: ``(table, {item: AutoMapping})``."""
    from dpdesk.project.mapping.matching import auto_mappings
    from dpdesk.project.reading.importing import own_connection
    from dpdesk.project.reading.table import read_table

    def progress(fraction: float) -> None:
        job.progress(fraction, f"Reading {Path(path).name}… {100 * fraction:.0f}%")

    table = read_table(path, progress=progress, **overrides)
    if project is None:
        return table, {}
    job.progress(1.0, "Matching the items' mappings…")
    with own_connection(project) as own:
        return table, auto_mappings(own, table)


def store_job(job, project, table, name: str, options: dict, mappings: dict, placing: str = "use"):
    """Worker: the dataset and the mappings in one transaction (Cancel rolls it all back).

    ``placing`` is what happens to the current data: "replace" it, keep the new data beside
    it and "use" the new data, or keep it beside and "keep" analysing the current data.
    """
    from dpdesk.project.reading.importing import own_connection, store_import

    job.progress(0.0, "Saving the data in the project…")
    with own_connection(project) as own:  # the window's connection stays free meanwhile
        return store_import(own, table, name=name, options=options, mappings=mappings, check=job.check,
                            replace=placing == "replace", use=placing == "use")


def _shown(value) -> str:
    return {"\t": "tab", ",": "comma ,", ";": "semicolon ;", "|": "pipe |", ".": "point ."}.get(value, str(value))


class ImportDialog(QDialog):
    """Preview, override, map and import one file. ``imported(dataset name, Table)`` when stored."""

    imported = Signal(str, object)
    link_requested = Signal(str)  # link a large source instead (a path chosen here, or "")

    def __init__(self, project, path=None, parent=None, *, taken: list[str] | None = None) -> None:
        super().__init__(parent)
        HelpKey(self, "Import")  # F1: the guide's page on this dialog
        self.setWindowTitle("Import survey data")
        self.setObjectName("importDialog")
        self.resize(1000, 680)
        self.project = project
        self.path: str | None = None
        self.table = None
        self.mappings: dict[str, dict] = {}
        self.found: dict = {}  # item -> AutoMapping: mapped by itself when the file was read
        self.mapping_dialog = None
        self.items_: list = []
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_done)
        self.jobs.failed.connect(self._on_failed)
        self.jobs.progress.connect(self._on_progress)
        self.jobs.busy.connect(self._on_busy)
        self._phase = ""
        self.taken = [d.name for d in project.datasets()] if taken is None else list(taken)
        self._has_items = bool(project.items())  # read now: the GUI thread never waits for the project later

        self.file_label = name(QLabel("No file chosen."), "File", "The file to import")
        self.choose_button = name(QPushButton("Choose file…"), "Choose file", "Choose the data file to import")
        self.choose_button.clicked.connect(self.choose_file)
        self.link_button = name(QPushButton("Link a large dataset (not copied)…"), "Link a large dataset",
                                "Data too large to copy (Parquet or CSV files, a folder or a glob): link them; "
                                "the rows stay where they are and an engine counts there")
        self.link_button.clicked.connect(self.request_link)
        self.combos: dict[str, QComboBox] = {}
        grid = QGridLayout()
        for i, key in enumerate(("encoding", "delimiter", "decimal", "header_rows", "platform", "kind", "sheet")):
            combo = name(QComboBox(), LABELS[key], f"{LABELS[key]}: keep what was detected, or choose another")
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.addItem("detected", None)
            for value, text in CHOICES.get(key, []):
                combo.addItem(text, value)
            combo.activated.connect(self.reread)
            self.combos[key] = combo
            grid.addWidget(QLabel(LABELS[key] + ":"), i // 4, 2 * (i % 4))
            grid.addWidget(combo, i // 4, 2 * (i % 4) + 1)
        self.keep_ids = name(QCheckBox("Keep identifier columns"), "Keep identifier columns",
                             "Keep columns that look like e-mail addresses, names or IP addresses (left out by default)")
        self.keep_ids.toggled.connect(self.reread)
        grid.addWidget(self.keep_ids, 1, 6, 1, 2)
        self.no_header = name(QCheckBox("No header row"), "No header row",
                              "The file has no header row: its first row is a respondent. The columns are then "
                              "named column_1, column_2, ...")
        self.no_header.toggled.connect(self._on_no_header)
        grid.addWidget(self.no_header, 2, 0, 1, 2)
        self.report = note(object_name="importReport")
        self.report.setAccessibleName("What was detected")
        self.report.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview_model = FrameModel()
        self.preview = name(QTableView(), "Preview", f"The first {PREVIEW_ROWS} rows as they will be imported")
        self.preview.setModel(self.preview_model)
        self.preview.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.preview.verticalHeader().setDefaultSectionSize(22)
        self.progress, self.status, self.cancel_button, running = job_row(
            "How far the file has been read or saved", ("Cancel reading", "Stop reading or importing; nothing is changed"),
            self.cancel_job)
        self.dataset_name = name(QLineEdit(), "Dataset name", "The name of the data in the project")
        from dpdesk.project.study.active import active_dataset

        current = active_dataset(project)
        self.placing = name(QComboBox(), "The current data", "What happens to the data the project analyses now")
        if current is not None:
            self.placing.addItem(f"Keep it beside {current.name!r}, and analyse the new data", "use")
            self.placing.addItem(f"Keep it beside {current.name!r}, and keep analysing {current.name!r}", "keep")
            self.placing.addItem(f"Replace {current.name!r} (a corrected export of the same respondents)", "replace")
            self.placing.currentIndexChanged.connect(self._on_placing)
        self.placing.setVisible(current is not None)
        self._current_name = current.name if current is not None else None
        self.map_button = name(QPushButton("Map items…"), "Map items",
                               "Choose the column and codes of each survey item and check them")
        self.map_button.clicked.connect(self.open_mapping)
        self.mapping_label = note(object_name="mappingSummary")
        self.mapping_label.setTextFormat(Qt.TextFormat.RichText)  # column names are escaped, never markup
        self.import_button = name(QPushButton("Import"), "Import", "Store the data (and mappings) in the project")
        self.import_button.setDefault(True)
        self.import_button.clicked.connect(self.start_import)
        self.close_button = name(QPushButton("Close"), "Close", "Close without importing")
        self.close_button.clicked.connect(self.reject)

        top = QHBoxLayout()
        top.addWidget(self.file_label, 1)
        top.addWidget(self.choose_button)
        top.addWidget(self.link_button)
        form = QFormLayout()
        form.addRow("Dataset name:", self.dataset_name)
        if self._current_name is not None:
            form.addRow("The project's data:", self.placing)
        bottom = QHBoxLayout()
        bottom.addWidget(self.map_button)
        bottom.addWidget(self.mapping_label, 1)
        bottom.addWidget(self.import_button)
        bottom.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(grid)
        layout.addWidget(self.report)
        layout.addWidget(self.preview, 1)
        layout.addLayout(running)
        layout.addLayout(form)
        layout.addLayout(bottom)
        self._update_buttons()
        if path is not None:
            self.set_file(path)

    # ------------------------------------------------------------------ reading
    def choose_file(self) -> None:
        from dpdesk.gui.widgets.folders import settings_for

        start = str(Path(self.path).parent) if self.path else settings_for(self).start_path("data")
        path, _ = QFileDialog.getOpenFileName(self, "Import survey data", start, DATA_FILTER)
        if path:
            settings_for(self).set_last_folder("data", path)
            self.set_file(path)

    def request_link(self, path: str = "") -> None:
        """Hand over to the link dialog (the Data view opens it) and close this one."""
        self.link_requested.emit(str(path or ""))
        self.reject()

    def set_file(self, path) -> None:
        if str(path).lower().endswith(".parquet"):  # never copied: linked
            self.request_link(str(path))
            return
        self.path = str(path)
        self.file_label.setText(f"<b>{Path(path).name}</b> <span style='color: gray'>{Path(path).parent}</span>")
        from dpdesk.project.reading.importing import free_dataset_name

        self.dataset_name.setText(free_dataset_name(self.taken, Path(path).name))
        for combo in self.combos.values():
            combo.setCurrentIndex(0)
        self.no_header.blockSignals(True)  # a new file starts from what is detected
        self.no_header.setChecked(False)
        self.no_header.blockSignals(False)
        self._fill_sheets()
        self.reread()

    def _fill_sheets(self) -> None:
        combo = self.combos["sheet"]
        combo.clear()
        combo.addItem("first", None)
        if Path(self.path).suffix.lower() == ".xlsx":
            from dpdesk.errors import DpdeskError
            from dpdesk.project.reading.table import list_sheets

            try:
                for sheet in list_sheets(self.path):
                    combo.addItem(sheet, sheet)
            except DpdeskError:
                pass
        combo.setEnabled(combo.count() > 1)

    def overrides(self) -> dict:
        """The settings the researcher changed (the rest are detected)."""
        out = {k: c.currentData() for k, c in self.combos.items() if c.currentData() is not None}
        if self.no_header.isChecked():
            out["header_rows"] = 0
        if self.keep_ids.isChecked():
            out["keep_identifiers"] = True
        return out

    def _on_no_header(self, checked: bool) -> None:
        """The box wins over the header rows chosen (the same as choosing "none" there)."""
        self.combos["header_rows"].setEnabled(not checked)
        self.reread()

    def reread(self, *_args) -> None:
        if not self.path:
            return
        self.table = None
        self.preview.setEnabled(False)
        self.report.setText("Reading…")
        self._phase = "read"
        self.jobs.start(read_job, self.path, self.overrides(), self.project)
        self._update_buttons()

    # ------------------------------------------------------------------ storing
    def start_import(self) -> None:
        if self.table is None:
            return
        dataset = self.dataset_name.text().strip() or Path(self.path).name
        self._phase = "store"
        self.store = self.jobs.start(store_job, self.project, self.table, dataset, self.overrides(), self.mappings,
                                     self.placing.currentData() or "use")
        self._update_buttons()

    def _on_placing(self, _index: int) -> None:
        replacing = self.placing.currentData() == "replace"
        self.dataset_name.setEnabled(not replacing)  # a replacement keeps the current data's name
        if replacing:
            self.dataset_name.setText(self._current_name)
        elif self.path and self.dataset_name.text() == self._current_name:
            from dpdesk.project.reading.importing import free_dataset_name

            self.dataset_name.setText(free_dataset_name(self.taken, Path(self.path).name))

    def cancel_job(self) -> None:
        self.jobs.cancel()
        self.status.setText("Cancelled; nothing was imported." if self._phase == "store" else "Reading cancelled.")
        self.progress.setValue(0)
        if self._phase == "read":
            self.report.setText("Reading was cancelled. Change a setting or choose the file again to read it.")
        self._phase = ""
        self._update_buttons()

    # ------------------------------------------------------------------ job results
    def _on_progress(self, fraction: float, text: str) -> None:
        self.progress.setValue(int(1000 * fraction))
        self.status.setText(text)

    def _on_busy(self, busy: bool) -> None:
        self.cancel_button.setEnabled(busy)
        if busy and self._phase == "store":
            self.progress.setRange(0, 0)  # saving has no steps to report: a moving bar
        else:
            self.progress.setRange(0, 1000)

    def _on_done(self, result) -> None:
        if self._phase == "read":
            self._phase = ""
            self.show_table(*result)
        elif self._phase == "store":
            self._phase = ""
            self.status.setText(f"Imported as {result!r}.")
            found = [a.sentence() for i, a in self.found.items() if self.mappings.get(i) == a.mapping]
            self.table.auto_mapped[:0] = found  # after those a replacement kept
            self.imported.emit(result, self.table)
            self.accept()
        self._update_buttons()

    def _on_failed(self, exc) -> None:
        phase, self._phase = self._phase, ""
        self.progress.setValue(0)
        self.status.setText("")
        if phase == "read":
            self.report.setText(f"<span style='color: #a40000'>{app_words(exc)}</span>")
            self.preview_model.set_frame(None)
        show_error(exc, self)
        self._update_buttons()

    def show_table(self, table, found: dict | None = None) -> None:
        from html import escape

        self.table = table
        r = table.report
        self.preview_model.set_frame(table.frame, value_labels=r.value_labels, first_row=r.first_data_row,
                                     max_rows=PREVIEW_ROWS)
        self.preview.setEnabled(True)
        detected = {"encoding": r.encoding, "delimiter": r.delimiter, "decimal": r.decimal,
                    "header_rows": r.header_rows, "platform": r.platform or "none", "kind": r.kind}
        for key, value in detected.items():
            self.combos[key].setItemText(0, f"detected: {_shown(value) if value is not None else 'n/a'}")
        self.combos["sheet"].setItemText(0, f"detected: {r.sheet}" if r.sheet else "first")
        lines = [f"<b>{r.n_rows:,} rows, {r.n_columns} columns</b> — {r.format.upper()}"
                 + (f", {r.platform} export" if r.platform else "")]
        if r.excluded_columns:
            lines.append("Left out: " + "; ".join(f"<b>{escape(str(e['column']), quote=False)}</b> ({e['reason']})"
                                                  for e in r.excluded_columns)
                         + ". To keep them, tick <i>Keep identifier columns</i>.")
        # the reader's own note on the left-out columns names the command line and Python too: said above
        # names and values from the file are text, never markup
        lines += [f"Note: {escape(w, quote=False)}" for w in r.warnings if not w.startswith("Left out ")][:4]
        self.report.setText("<br>".join(lines))
        self.progress.setValue(1000)
        self.status.setText("Read. Check the preview, map the items, then import.")
        self._prefill_mappings(found or {})

    def _prefill_mappings(self, found: dict) -> None:
        """Each item whose known mapping fits this file maps itself (the researcher may change it)."""
        self.found = found
        self.mappings = {name: dict(a.mapping) for name, a in found.items()}
        self.items_ = self.project.items()
        self._has_items = bool(self.items_)
        self._show_mapping_summary()

    def _show_mapping_summary(self) -> None:
        from html import escape

        items = [it.name for it in self.items_]
        if not items:
            self.mapping_label.setText("The project has no survey items yet; add them in Design, or import now.")
            return
        mapped = [i for i in items if i in self.mappings]
        auto = {i: a for i, a in self.found.items() if self.mappings.get(i) == a.mapping}
        pairs = "; ".join(escape(auto[i].sentence(), quote=False) if i in auto
                          else escape(f"{i} → {self.mappings[i]['column']}", quote=False)
                          for i in mapped)
        how = " automatically" if mapped and set(mapped) <= set(auto) else ""
        self.mapping_label.setText(f"{len(mapped)} of {len(items)} items mapped{how}" + (f": {pairs}" if mapped else "")
                                   + ".")

    # ------------------------------------------------------------------ mapping
    def open_mapping(self) -> None:
        from dpdesk.gui.dialogs.mapping import MappingDialog

        self.mapping_dialog = MappingDialog(self.table, self.items_, self.mappings, self)
        self.mapping_dialog.accepted.connect(self._on_mapping_accepted)
        self.mapping_dialog.open()

    def _on_mapping_accepted(self) -> None:
        self.mappings = self.mapping_dialog.accepted_mappings()
        self._show_mapping_summary()

    # ------------------------------------------------------------------ state
    def _update_buttons(self) -> None:
        busy = self.jobs.running
        self.import_button.setEnabled(self.table is not None and not busy)
        self.map_button.setEnabled(self.table is not None and not busy and self._has_items)
        self.cancel_button.setEnabled(busy)
        for combo in self.combos.values():
            combo.setEnabled(not (busy and self._phase == "store") and (combo is not self.combos["sheet"]
                                                                         or combo.count() > 1))
        if self.no_header.isChecked():
            self.combos["header_rows"].setEnabled(False)

    def done(self, result: int) -> None:  # noqa: D401 - Qt API
        """Closing cancels a running job and waits for it (a cancelled save is rolled back)."""
        self.jobs.shutdown()
        super().done(result)
