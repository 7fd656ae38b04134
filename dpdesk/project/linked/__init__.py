"""Linked datasets: data too big for the project file, read where they are by an engine.

A linked dataset is a row of the project's datasets whose rows are not copied: the project
records the source (a Parquet file, folder or glob, or a CSV file or glob), the engine
(``duckdb``: embedded, out of core on this machine; ``spark``: a cluster, ``local[2]`` in
tests), the schema, the row count and the fingerprint (:mod:`.fingerprint`). Releases
(:func:`dpdesk.project.ledger.release`) ask the engine for exact aggregates (:mod:`.query`
builds them from the release request) and draw the noise here, as for imported data.
Every engine is one class behind :class:`.source.LinkedSource` (:mod:`.duckdb_source`,
:mod:`.spark_source`); no engine code lives outside this room.

How the app calls it (``project`` is the open :class:`~dpdesk.project.file.store.Project`):

- **Slow, run in a worker** (``dpdesk.gui.shell.worker.JobRunner``), each taking a
  :class:`.source.CancelToken` whose ``cancel()`` the Cancel button calls (from the GUI
  thread: it interrupts the engine's running query at once, DuckDB's ``interrupt()``, Spark's
  ``cancelJobGroup``, and the call raises :class:`.source.Cancelled`):

  - ``link_dataset(project, source, name=None, engine="duckdb", master=None, options=None,
    cancel=token, progress=fn)``: link a source; ``progress(text, done, total)``.
  - ``dpdesk.project.ledger.relink(project, name, cancel=token, progress=fn)``: record the
    source as it is now (written in the ledger: it lives there, as it writes a ledger row).
  - ``sample(project, name, n=100, cancel=token)``: up to n rows drawn in the engine, as a list
    of dicts, to show in the Data view; never stored.
  - ``dpdesk.project.ledger.release(project, request, dataset=name, progress=fn, cancel=token)``:
    as for imported data; cancelled before the commit, nothing is spent.
  - ``dpdesk.project.ledger.preview`` reads no data and is quick on linked data too.

- **Quick, fine on the GUI thread** (read what the project recorded; no engine runs):
  ``is_linked(dataset)``, ``link_of(dataset)`` (:class:`.source.Link`), ``schema_of(dataset)``
  (:class:`.source.Schema`), ``fingerprint_of(dataset)`` (:class:`.source.Fingerprint`),
  ``describe(dataset)`` (one line: engine, source, rows). ``changes(project, name)`` stats
  the files (no data read) and returns what changed since linking, in words (empty: unchanged).

- Engines are optional: ``engine_problem(engine, master)`` returns None when the engine can
  run, else one line saying how to add it (``pip install "dpdesk[spark]"``, Java 17), to show
  when a user picks Spark.

Never create Qt objects in these calls; they return plain values.
"""

from __future__ import annotations

from dpdesk.lazy import exports

_PUBLIC = {
    **{name: "dpdesk.project.linked.source"
       for name in ("Aggregates", "CancelToken", "Cancelled", "Column", "Contributions", "ENGINES", "EngineError",
                    "FileStat", "Fingerprint", "Link", "LinkedSource", "Query", "Schema")},
    **{name: "dpdesk.project.linked.store"
       for name in ("changes", "describe", "fingerprint_of", "is_linked", "link_dataset", "link_of", "open_source",
                    "sample", "schema_of", "SourceChanged")},
    "engine_problem": "dpdesk.project.linked.engines",
}

__all__ = sorted(_PUBLIC)

__getattr__ = exports(__name__, _PUBLIC)
