"""Link a large dataset (not copied): a Parquet file, folder or glob, or a CSV file or glob.

The rows stay where they are; the project records the source, the engine, the schema, the row
count and the fingerprint (:func:`dpdesk.project.linked.link_dataset`). Linking reads every byte
once (the content fingerprint), so it runs in a worker with progress and Cancel (which stops the
engine's query; nothing is stored). Picking Spark checks, in a worker, that it can run here
(:func:`dpdesk.project.linked.engine_problem`) and says in one line how to add it when not.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
)

from dpdesk.gui.dialogs.errors import show_error
from dpdesk.gui.help.window import HelpKey
from dpdesk.gui.shell.worker import JobRunner
from dpdesk.gui.widgets.common import job_row, name, note

ENGINES = [("duckdb", "DuckDB: on this computer, out of core (the default)"),
           ("spark", "Spark: on a cluster (or local[2] on this computer)")]
CSV_CHOICES = {
    "delimiter": [(None, "comma ,"), (";", "semicolon ;"), ("\t", "tab"), ("|", "pipe |")],
    "encoding": [(None, "UTF-8"), ("utf-16", "UTF-16"), ("latin-1", "Latin-1 (ISO 8859-1)")],
    "decimal": [(None, "point ."), (",", "comma ,")],
}
INTRO = ("Link data too large to copy into the project (a registry, a census extract). The rows stay where they "
         "are: the project records the path, the columns, the row count and a fingerprint of the files, and every "
         "release asks the engine for the exact counts there. The noise, the budget and the ledger are as for "
         "imported data.")


def link_job(job, project, source: str, name: str, engine: str, master: str | None, options: dict):
    """Worker: link the source; Cancel interrupts the engine. Returns (dataset, seconds)."""
    from dpdesk.project import linked
    from dpdesk.project.reading.importing import own_connection

    token = linked.CancelToken()
    job.on_cancel(token.cancel)

    def progress(text: str, done: int = 0, total: int = 0) -> None:
        job.progress(done / total if total else 0.0, f"{text[:1].upper()}{text[1:]}"
                     + (f"… {done / 1e6:,.1f} of {total / 1e6:,.1f} MB" if total else "…"))

    start = time.perf_counter()
    with own_connection(project) as own:  # the window's connection stays free meanwhile
        ds = linked.link_dataset(own, source, name=name or None, engine=engine, master=master, options=options,
                                 use=True, cancel=token, progress=progress)
    return ds, time.perf_counter() - start


def engine_job(job, engine: str, master: str | None):
    """Worker: None when the engine can run here, else the line saying how to add it (runs ``java -version``)."""
    from dpdesk.project.linked import engine_problem

    return engine_problem(engine, master)


def linked_words(ds, seconds: float) -> str:
    """The result in words: rows, columns, fingerprint and what linking cost (rich text)."""
    from html import escape

    from dpdesk.project import linked

    fp = linked.fingerprint_of(ds)
    size = sum(f.size for f in fp.files)
    files = len(fp.files)
    print_fp = (fp.content or fp.quick)[:16]
    schema = linked.schema_of(ds)
    return (f"<b>Linked {escape(ds.name)}</b>: {ds.n_rows:,} rows, {len(schema.columns)} columns "
            f"({escape(', '.join(schema.names[:8]))}{', …' if len(schema.columns) > 8 else ''}), "
            f"in {files} file{'s' if files != 1 else ''}.<br>{_left_out(schema)}"
            f"Fingerprint (SHA-256 of the files' content): {print_fp}…<br>"
            f"It took {seconds:,.1f} s and read {_size(size)} once; nothing was copied into the project. "
            "Every release checks the files' sizes and times first (no data read).")


def _left_out(schema) -> str:
    """The direct identifiers left out at link time, in words (rich text), or nothing."""
    from html import escape

    if not schema.excluded:
        return ""
    return ("Left out as direct identifiers, as an import leaves them out (never shown or released): "
            f"{escape(', '.join(f'{n} ({r})' for n, r in schema.excluded[:6]))}.<br>")


def _size(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n} bytes"


class LinkDialog(QDialog):
    """Link one source. ``linked(dataset name)`` when stored."""

    linked = Signal(str)

    def __init__(self, project, source: str | None = None, parent=None) -> None:
        super().__init__(parent)
        HelpKey(self, "Link")
        self.setWindowTitle("Link a large dataset (not copied)")
        self.setObjectName("linkDialog")
        self.resize(820, 520)
        self.project = project
        self.result_name: str | None = None
        self._phase = ""
        self._problem: str | None = None
        self.jobs = JobRunner(self)
        self.jobs.done.connect(self._on_done)
        self.jobs.failed.connect(self._on_failed)
        self.jobs.progress.connect(self._on_progress)
        self.jobs.busy.connect(self._on_busy)

        intro = note(INTRO)
        self.source = name(QLineEdit(), "Source", "A Parquet file, a folder of Parquet files, a glob such as "
                           "/data/registry/*.parquet, or a CSV file or glob")
        self.source.setPlaceholderText("/data/registry/  or  /data/registry/part-*.parquet  or  /data/wave3.csv")
        self.source.textChanged.connect(self._on_source)
        self.file_button = name(QPushButton("File…"), "Choose a file", "Choose one Parquet or CSV file")
        self.file_button.clicked.connect(self.choose_file)
        self.folder_button = name(QPushButton("Folder…"), "Choose a folder", "Choose a folder of Parquet files")
        self.folder_button.clicked.connect(self.choose_folder)
        self.engine = name(QComboBox(), "Engine", "Where the exact counts are computed")
        for value, text in ENGINES:
            self.engine.addItem(text, value)
        self.engine.currentIndexChanged.connect(self._on_engine)
        self.master = name(QLineEdit("local[2]"), "Spark master", "local[2] (this computer), spark://host:7077 or "
                           "yarn; a cluster reads paths it can see (hdfs://, s3a://)")
        self.engine_note = note(object_name="engineProblem")
        self.engine_note.setStyleSheet("QLabel { color: #a40000; }")
        self.engine_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.engine_note.hide()
        self.csv: dict[str, QComboBox] = {}
        csv_row = QHBoxLayout()
        for key, label in (("delimiter", "Delimiter"), ("encoding", "Encoding"), ("decimal", "Decimal mark")):
            combo = name(QComboBox(), f"CSV {label.lower()}", f"{label} of a linked CSV")
            for value, text in CSV_CHOICES[key]:
                combo.addItem(text, value)
            self.csv[key] = combo
            csv_row.addWidget(QLabel(label + ":"))
            csv_row.addWidget(combo)
        csv_row.addStretch(1)
        self.dataset_name = name(QLineEdit(), "Dataset name", "The name of the linked data in the project "
                                 "(default: the folder's name, or the file's)")
        self.progress, self.status, self.cancel_button, running = job_row(
            "How far the files have been read", ("Cancel linking", "Stop the engine; nothing is linked"), self.cancel_job,
            status_name="linkStatus")
        self.report = note(object_name="linkReport")
        self.report.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.link_button = name(QPushButton("Link"), "Link", "Link the source: count its rows and fingerprint "
                                "its files in the engine (reads every byte once)")
        self.link_button.setDefault(True)
        self.link_button.clicked.connect(self.start_link)
        self.close_button = name(QPushButton("Close"), "Close", "Close this dialog")
        self.close_button.clicked.connect(self.reject)

        pick = QHBoxLayout()
        pick.addWidget(self.source, 1)
        pick.addWidget(self.file_button)
        pick.addWidget(self.folder_button)
        form = QFormLayout()
        form.addRow("Source:", pick)
        form.addRow("Engine:", self.engine)
        form.addRow("Spark master:", self.master)
        form.addRow("", self.engine_note)
        form.addRow("A CSV's reading:", csv_row)
        form.addRow("Dataset name:", self.dataset_name)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(self.link_button)
        bottom.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addLayout(running)
        layout.addWidget(self.report, 1)
        layout.addLayout(bottom)
        self._on_engine()
        if source:
            self.source.setText(str(source))
        self._update()

    # ------------------------------------------------------------------ choosing
    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Link a Parquet or CSV file", self._start_folder(),
                                              "Parquet or CSV (*.parquet *.csv *.csv.gz);;All files (*)")
        if path:
            self.source.setText(path)

    def choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Link a folder of Parquet files", self._start_folder())
        if path:
            self.source.setText(path)

    def _start_folder(self) -> str:
        text = self.source.text().strip()
        return str(Path(text).parent) if text else str(Path.home())

    def options(self) -> dict:
        """A CSV's reading options the researcher chose (none for Parquet)."""
        if not self.is_csv():
            return {}
        return {k: c.currentData() for k, c in self.csv.items() if c.currentData() is not None}

    def is_csv(self) -> bool:
        return self.source.text().strip().lower().rstrip("/").endswith((".csv", ".csv.gz"))

    def _on_source(self, text: str) -> None:
        from dpdesk.project.linked import fingerprint as fpr

        text = text.strip()
        self.dataset_name.setPlaceholderText(fpr.default_name(text) if text else "")
        for combo in self.csv.values():
            combo.setEnabled(self.is_csv())
        self._update()

    def _on_engine(self, *_args) -> None:
        spark = self.engine.currentData() == "spark"
        self.master.setEnabled(spark)
        self._problem = None
        self.engine_note.hide()
        if spark:  # can it run here? (java -version takes a moment: in the worker)
            self._phase = "engine"
            self.status.setText("Checking that Spark can run here…")
            self.jobs.start(engine_job, "spark", self.master.text().strip() or None)
        elif self._phase == "engine":
            self.jobs.cancel()
            self._phase = ""
            self.status.setText("")
        self._update()

    # ------------------------------------------------------------------ linking
    def start_link(self) -> None:
        source = self.source.text().strip()
        if not source or self.jobs.running:
            return
        engine = self.engine.currentData()
        master = self.master.text().strip() or None if engine == "spark" else None
        self._phase = "link"
        self.report.setText("")
        self.progress.setValue(0)
        self.status.setText("Starting the engine…")
        self.jobs.start(link_job, self.project, source, self.dataset_name.text().strip(), engine, master,
                        self.options())
        self._update()

    def cancel_job(self) -> None:
        """Stop the engine's job: nothing is linked."""
        was, self._phase = self._phase, ""
        self.jobs.cancel()
        self.progress.setValue(0)
        self.status.setText("Cancelled; nothing was linked." if was == "link" else "")
        self._update()

    def _on_progress(self, fraction: float, text: str) -> None:
        self.progress.setValue(int(1000 * fraction))
        self.status.setText(text)

    def _on_busy(self, busy: bool) -> None:
        if busy and self._phase == "link":
            self.progress.setRange(0, 1000)
        self._update()

    def _on_done(self, result) -> None:
        phase, self._phase = self._phase, ""
        if phase == "engine":
            self._problem = result
            self.engine_note.setText(result or "")
            self.engine_note.setVisible(bool(result))
            self.status.setText("" if result else "Spark can run here.")
        elif phase == "link":
            ds, seconds = result
            self.result_name = ds.name
            self.progress.setValue(1000)
            self.status.setText(f"Linked as {ds.name!r}.")
            self.report.setText(linked_words(ds, seconds))
            self.close_button.setDefault(True)  # done: Return closes (linking it again would be refused)
            self.close_button.setFocus()
            self.linked.emit(ds.name)
        self._update()

    def _on_failed(self, exc) -> None:
        phase, self._phase = self._phase, ""
        self.progress.setValue(0)
        self.status.setText("")
        if phase == "link":
            self.report.setText(f"<span style='color: #a40000'>{_escaped(exc)}</span>")
        show_error(exc, self)
        self._update()

    def _update(self) -> None:
        busy = self.jobs.running and self._phase == "link"
        blocked = self.engine.currentData() == "spark" and (self._problem is not None or self._phase == "engine")
        self.link_button.setEnabled(bool(self.source.text().strip()) and not busy and not blocked)
        self.cancel_button.setEnabled(busy)
        for w in (self.source, self.file_button, self.folder_button, self.engine, self.dataset_name):
            w.setEnabled(not busy)
        self.master.setEnabled(not busy and self.engine.currentData() == "spark")

    def done(self, result: int) -> None:  # noqa: D401 - Qt API
        """Closing cancels a running job (the engine's query is interrupted) and waits for it."""
        self.jobs.shutdown()
        super().done(result)


def _escaped(exc) -> str:
    from html import escape

    from dpdesk.errors import app_words

    return escape(app_words(exc), quote=False)
