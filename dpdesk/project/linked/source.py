"""The one small interface every engine of a linked dataset offers, and the values it passes.

A linked source is a large dataset that stays where it is (Parquet or CSV files, a folder or
a glob of them); an engine (:mod:`.duckdb_source`, :mod:`.spark_source`) reads it there. The
project keeps a :class:`Link` (what to open and how) and what was seen at link time (the
:class:`Schema`, the row count and the :class:`Fingerprint`); the ledger asks the engine for
the exact aggregates of one release (:class:`Query` in, :class:`Aggregates` out) and draws the
noise itself. No rows ever leave the engine except :meth:`LinkedSource.sample`'s few, which are
shown and never stored.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, runtime_checkable

from dpdesk.errors import DataError, DpdeskError

__all__ = ["ENGINES", "Column", "Schema", "FileStat", "Fingerprint", "Link", "Contributions", "Query",
           "Aggregates", "CancelToken", "Cancelled", "EngineError", "LinkedSource"]

ENGINES = ("duckdb", "spark")


class EngineError(DpdeskError):
    """The engine cannot run: not installed, no Java, a Spark master that does not answer."""


class Cancelled(DpdeskError):
    """The engine's job was cancelled; nothing was spent."""


@dataclass(frozen=True)
class Column:
    """One column of a linked source: its name, the engine's type and the kind dpdesk treats it as.

    ``kind`` is ``"number"`` (integers, decimals, floats: keys match as numbers, sums and
    medians allowed), ``"boolean"`` (matched as the texts ``True``/``False``, as an imported
    column of booleans) or ``"text"`` (everything else, matched as the engine's text of the value).
    """

    name: str
    type: str
    kind: str

    def to_dict(self) -> dict:
        return {"name": self.name, "type": self.type, "kind": self.kind}


@dataclass(frozen=True)
class Schema:
    """The columns dpdesk uses of a source; ``excluded``: (name, reason) of the direct identifiers left out of it
    at link time (:func:`dpdesk.project.linked.store.direct_identifiers`), refused by name."""

    columns: tuple[Column, ...]
    excluded: tuple = ()

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    def column(self, name: str, *, dataset: str = "", fix: str = "") -> Column:
        """The column ``name``, or a :class:`DataError` saying which columns there are (before any engine runs)."""
        for c in self.columns:
            if c.name == name:
                return c
        where = f" {dataset!r}" if dataset else ""
        for left_out, reason in self.excluded:
            if left_out == name:
                raise DataError(f"The column {name!r} of the linked dataset{where} is a direct identifier ({reason}): "
                                "it was left out when the source was linked, as an import leaves it out, and is "
                                "never released. Nothing was released and no budget was spent.")
        known = ", ".join(repr(n) for n in self.names[:20]) + (", ..." if len(self.columns) > 20 else "")
        raise DataError(f"The linked dataset{where} has no column {name!r} in its recorded schema (it has: {known}). "
                        f"Nothing was released and no budget was spent. {fix or 'Check the column name.'}".rstrip())

    def to_list(self) -> list[dict]:
        return [c.to_dict() for c in self.columns]

    @classmethod
    def from_list(cls, items) -> "Schema":
        return cls(tuple(Column(str(i["name"]), str(i["type"]), str(i["kind"])) for i in items))


@dataclass(frozen=True)
class FileStat:
    """One file of a source as the operating system (or the cluster's file system) lists it."""

    path: str
    size: int
    mtime_ns: int

    def to_list(self) -> list:
        return [self.path, self.size, self.mtime_ns]


@dataclass(frozen=True)
class Fingerprint:
    """What a linked source was when it was linked (:mod:`.fingerprint` defines and computes it).

    ``files`` lists every file with its size and modification time; ``quick`` is the SHA-256 of
    that list (cheap: one stat per file, checked before every release); ``content`` the SHA-256
    of the files' bytes (reads everything once: at link time and on request); ``rows`` the row
    count the engine found.
    """

    files: tuple[FileStat, ...]
    quick: str
    content: str | None = None
    rows: int | None = None

    def to_dict(self) -> dict:
        return {"files": [f.to_list() for f in self.files], "quick": self.quick, "content": self.content,
                "rows": self.rows}

    @classmethod
    def from_dict(cls, d: dict) -> "Fingerprint":
        files = tuple(FileStat(str(p), int(s), int(m)) for p, s, m in d.get("files") or ())
        return cls(files, str(d["quick"]), d.get("content"), d.get("rows"))


@dataclass(frozen=True)
class Link:
    """How to open a linked source again: the path as given (file, folder or glob), its format, the
    engine, the Spark master, and the reading options of a CSV (delimiter, encoding, types)."""

    source: str
    format: str  # "parquet" or "csv"
    engine: str = "duckdb"
    master: str | None = None
    options: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"source": self.source, "format": self.format, "engine": self.engine, "master": self.master,
                "options": dict(self.options)}

    @classmethod
    def from_dict(cls, d: dict) -> "Link":
        return cls(str(d["source"]), str(d["format"]), str(d.get("engine") or "duckdb"), d.get("master"),
                   dict(d.get("options") or {}))


@dataclass(frozen=True)
class Contributions:
    """At most ``max_rows`` rows per value of the ``identifier`` column are aggregated.

    Which rows are kept is decided in the engine by a keyed hash of each row's position with
    a secret ``salt`` drawn per release from the operating system's CSPRNG (``secrets``), so
    the kept rows are a uniformly random-looking ``max_rows`` of each person's rows that
    nobody can predict or steer (as OpenDP's and Tumult's truncation).
    """

    identifier: str
    max_rows: int
    salt: int  # 63-bit secret, per release


@dataclass(frozen=True)
class Query:
    """The exact aggregation one release needs, in engine-neutral terms (built by :mod:`.query`).

    ``statistic`` is one of count, histogram, crosstab, sum (also for a mean: sums and counts)
    and ranks (a quantile: counts of values below, at and between the candidates).
    ``axes`` holds, per counted column, ``("keys", column, kind, keys)`` or ``("bins", column,
    edges)``; ``by`` the subgroup axis in the same form (or None); ``value`` the numeric column
    of a sum or quantile; ``grid`` (resolution, low, high) for sums; ``candidates`` for ranks;
    ``present`` (column, is_float) whose missing values are left out (a count of a column).
    """

    statistic: str
    axes: tuple = ()
    by: tuple | None = None
    value: str | None = None
    grid: tuple | None = None
    candidates: tuple = ()
    present: tuple | None = None
    contributions: Contributions | None = None


@dataclass(frozen=True)
class Aggregates:
    """The exact integers a release needs (numpy int64 arrays), and how many rows were read.

    ``cells``: counts (count: shape (groups,) or (1,); histogram/crosstab: one axis per
    counted column, after the by axis); ``sums`` and ``counts``: grid sums and counts of
    present values per group (sum, mean); ``ranks``: shape (groups, 2K+1) counts below the
    first candidate, at it, between it and the next, ... above the last (quantiles).
    """

    cells: Any = None
    sums: Any = None
    counts: Any = None
    ranks: Any = None
    rows_read: int = 0
    engine: str = ""
    seconds: float = 0.0


class CancelToken:
    """Set from any thread to stop the engine's job; the engine checks it and interrupts its query."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def cancel(self) -> None:
        self._event.set()
        with self._lock:
            hooks = list(self._hooks)
        for hook in hooks:
            try:
                hook()
            except Exception:  # noqa: BLE001 - an engine that is already gone has nothing to stop
                pass

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def on_cancel(self, hook: Callable[[], None]) -> None:
        """Call ``hook`` (the engine's interrupt) when cancelled; at once if it already is."""
        with self._lock:
            self._hooks.append(hook)
        if self.cancelled:
            hook()

    def check(self) -> None:
        if self.cancelled:
            raise Cancelled("Cancelled: the engine's job was stopped. Nothing was released and no budget was spent.")


@runtime_checkable
class LinkedSource(Protocol):
    """An engine reading one linked source. Every method but :meth:`cancel` may take long."""

    engine: str
    link: Link

    def schema(self) -> Schema:
        """The columns (names, engine types, kinds): reads the files' footers or a CSV's first rows."""

    def row_count(self, cancel: CancelToken | None = None) -> int:
        """The number of rows (Parquet: from the footers; CSV: one pass)."""

    def quick_fingerprint(self) -> Fingerprint:
        """The files, their sizes and modification times, and their SHA-256 (no data read)."""

    def content_fingerprint(self, cancel: CancelToken | None = None,
                            progress: Callable[[int, int], None] | None = None) -> Fingerprint:
        """:meth:`quick_fingerprint` with ``content``, the SHA-256 of every byte (``progress(done, total)`` bytes)."""

    def aggregate(self, query: Query, cancel: CancelToken | None = None) -> Aggregates:
        """The exact aggregates of ``query``, computed in the engine (raises :class:`Cancelled`)."""

    def sample(self, n: int = 100, cancel: CancelToken | None = None) -> list[dict]:
        """Up to ``n`` rows drawn in the engine, for showing only (never stored)."""

    def respondents(self, cancel: CancelToken | None = None, k: int | None = None, columns=None) -> dict:
        """The respondents' signature (rows, distinct, bottom-k sketch of row hashes) of ``columns`` (default:
        all), in the engine."""

    def cancel(self) -> None:
        """Stop the running job, from any thread (returns at once)."""

    def close(self) -> None:
        """Give the engine's resources back (DuckDB's connection; Spark's session stays shared)."""
