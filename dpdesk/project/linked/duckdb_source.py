"""A linked source read by DuckDB, embedded in this process: out of core, in bounded memory.

Each source gets its own in-memory DuckDB connection with a memory limit
(:data:`MEMORY_LIMIT`; larger aggregations spill to a temporary folder), insertion order not
preserved (less memory for grouping) and the machine's cores. The files are passed to
``read_parquet`` / ``read_csv`` as parameters, never pasted into SQL (a project file from
elsewhere is hostile: its recorded paths are data). A CSV's reading options (delimiter,
encoding, decimal mark) and the column types found at link time (from the whole file) are
passed the same way, so every release reads the values as the link did.

:meth:`DuckDBSource.cancel` calls the connection's ``interrupt()``, which stops the running
query at once from any thread; the call then raises :class:`~.source.Cancelled`.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

from dpdesk.errors import DataError, in_app
from dpdesk.project.linked import fingerprint as fp
from dpdesk.project.linked import query as q
from dpdesk.project.linked.source import (Aggregates, CancelToken, Cancelled, Column, EngineError, Fingerprint, Link,
                                          Query, Schema)

__all__ = ["DuckDBSource", "MEMORY_LIMIT", "kind_of"]

#: DuckDB's memory limit for one linked source (it spills beyond it): keeps dpdesk under 1 GB.
MEMORY_LIMIT = os.environ.get("DPDESK_DUCKDB_MEMORY", "512MB")

_NUMBER = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
           "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "REAL")


def kind_of(engine_type: str) -> str:
    t = engine_type.upper()
    if t.startswith(_NUMBER):
        return "number"
    if t == "BOOLEAN":
        return "boolean"
    return "text"


def _duckdb():
    try:
        import duckdb
    except ImportError:
        raise EngineError("DuckDB is not installed, so linked datasets cannot be read. Install dpdesk again "
                          "(pip install dpdesk installs duckdb).") from None
    return duckdb


class DuckDBSource:
    """One linked source read by DuckDB (see the module docstring)."""

    engine = "duckdb"
    dialect = q.DUCKDB

    def __init__(self, link: Link, files: list[Path] | None = None):
        self.link = link
        self.files = files if files is not None else fp.resolve(link.source)
        self._lock = threading.Lock()
        duckdb = _duckdb()
        self._conn = duckdb.connect(":memory:", config={"memory_limit": MEMORY_LIMIT, "preserve_insertion_order": False,
                                                        "temp_directory": _spill_folder(),
                                                        "enable_external_access": True})
        # DuckDB draws a progress bar on stdout after 2 s of a query, even into a pipe: it would corrupt
        # --json. Progress is dpdesk's to show. (A session option: refused in connect's config.)
        self._conn.execute("SET enable_progress_bar = false")
        self._interrupted = False

    # ------------------------------------------------------------------ reading

    def _relation(self, params: dict) -> str:
        params["__files"] = [str(f) for f in self.files]
        if self.link.format == "parquet":
            return "read_parquet($__files, union_by_name = true)"
        opts = self.link.options or {}
        params["__delim"] = opts.get("delimiter") or ","
        params["__quote"] = '"'
        params["__header"] = True
        parts = ["delim = $__delim", "quote = $__quote", "header = $__header"]
        if opts.get("encoding"):
            params["__encoding"] = _encoding(opts["encoding"])
            parts.append("encoding = $__encoding")
        if opts.get("decimal"):
            params["__decimal"] = opts["decimal"]
            parts.append("decimal_separator = $__decimal")
        types = opts.get("types")
        if types:
            params["__columns"] = {str(k): str(v) for k, v in types.items()}
            parts.append("columns = $__columns")
        else:  # types from the whole file; numbers or text only (Yes/No stays text, as an import keeps it)
            params["__sample"] = -1
            params["__candidates"] = ["BIGINT", "DOUBLE", "VARCHAR"]
            parts += ["sample_size = $__sample", "auto_type_candidates = $__candidates"]
        return f"read_csv($__files, {', '.join(parts)})"

    def _run(self, sql_text: str, params: dict, cancel: CancelToken | None):
        if cancel is not None:
            cancel.check()
            cancel.on_cancel(self.cancel)
        duckdb = _duckdb()
        try:
            with self._lock:
                self._interrupted = False
                return self._conn.execute(sql_text, params).fetchall()
        except duckdb.InterruptException:
            raise Cancelled("Cancelled: DuckDB's query was stopped. Nothing was released and no budget was "
                            "spent.") from None
        except duckdb.Error as exc:
            if cancel is not None and cancel.cancelled:
                raise Cancelled("Cancelled: DuckDB's query was stopped. Nothing was released and no budget was "
                                "spent.") from None
            if isinstance(exc, getattr(duckdb, "OutOfMemoryException", ())):
                head = (f"DuckDB ran out of the memory dpdesk gives it ({MEMORY_LIMIT}) for the linked source "
                        f"{self.link.source}: {_first_line(exc)}. Nothing was spent")
                raise in_app(DataError(f"{head}. Give it more (for example DPDESK_DUCKDB_MEMORY=2GB dpdesk ...), "
                                       "or release with a larger --max-rows or without --identifier."),
                             f"{head}. Start dpdesk with more for DuckDB (the environment variable "
                             "DPDESK_DUCKDB_MEMORY=2GB), or bound fewer rows per person.") from None
            head = f"DuckDB could not read the linked source {self.link.source}: {_first_line(exc)}. Check the files"
            raise in_app(DataError(f"{head} (dpdesk import PROJECT SOURCE --link --relink after fixing them). Nothing "
                                   "was spent."), f"{head}, then relink them (Relink… in Tabulate). Nothing was "
                         "spent.") from None

    def schema(self) -> Schema:
        params: dict = {}
        rows = self._run(f"DESCRIBE SELECT * FROM {self._relation(params)}", params, None)
        return Schema(tuple(Column(str(r[0]), str(r[1]), kind_of(str(r[1]))) for r in rows))

    def row_count(self, cancel: CancelToken | None = None) -> int:
        params: dict = {"__files": [str(f) for f in self.files]}
        if self.link.format == "parquet":
            return int(self._run("SELECT coalesce(sum(num_rows), 0) FROM parquet_file_metadata($__files)",
                                 params, cancel)[0][0])
        params = {}
        return int(self._run(f"SELECT count(*) FROM {self._relation(params)}", params, cancel)[0][0])

    def quick_fingerprint(self) -> Fingerprint:
        return fp.quick(self.link.source)

    def content_fingerprint(self, cancel: CancelToken | None = None,
                            progress: Callable[[int, int], None] | None = None) -> Fingerprint:
        return fp.content(self.link.source, self.files, check=None if cancel is None else cancel.check,
                          progress=progress)

    def aggregate(self, query: Query, cancel: CancelToken | None = None) -> Aggregates:
        start = time.perf_counter()
        params: dict = {}
        relation = self._relation(params)
        names = self.schema().names if query.contributions is not None else []
        text, qparams, axes = q.sql(query, relation, q.DUCKDB, names)
        rows = self._run(text, {**params, **qparams}, cancel)
        out = q.assemble(query, axes, rows, self.engine)
        return Aggregates(**out, engine=self.engine, seconds=time.perf_counter() - start)

    def sample(self, n: int = 100, cancel: CancelToken | None = None) -> list[dict]:
        n = max(0, min(int(n), 10_000))  # an int made here, so a literal
        params: dict = {}
        relation = self._relation(params)
        cols = self.schema().names
        rows = self._run(f"SELECT * FROM {relation} USING SAMPLE reservoir({n} ROWS)", params, cancel) if n else []
        return [dict(zip(cols, r)) for r in rows]

    def respondents(self, cancel: CancelToken | None = None, k: int | None = None, columns=None) -> dict:
        from dpdesk.project.linked import people

        return people.signature(self, cancel, k, columns)

    def run_sql(self, text: str, params: dict, cancel: CancelToken | None = None):
        """Run a statement of this room over the source (``{source}`` in ``text`` is the files' relation)."""
        relation = self._relation(params)
        return self._run(text.format(source=relation), params, cancel)

    def cancel(self) -> None:
        self._interrupted = True
        try:
            self._conn.interrupt()
        except Exception:  # noqa: BLE001 - a closed connection has nothing to stop
            pass

    def close(self) -> None:
        try:
            self._conn.close()
        except Exception:  # noqa: BLE001
            pass


def _spill_folder() -> str:
    """Where DuckDB spills what exceeds its memory limit: a folder of this user's (0700), removed by DuckDB's own
    clean-up of its files."""
    uid = os.getuid() if hasattr(os, "getuid") else os.getlogin()
    path = os.path.join(tempfile.gettempdir(), f"dpdesk-duckdb-{uid}")
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def _encoding(name: str) -> str:
    n = str(name).lower().replace("_", "-")
    aliases = {"utf8": "utf-8", "utf-8-sig": "utf-8", "latin1": "latin-1", "iso-8859-1": "latin-1",
               "utf16": "utf-16"}
    return aliases.get(n, n)


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__
