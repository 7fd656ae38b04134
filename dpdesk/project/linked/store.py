"""Linked datasets in the project file: link, look up, check for changes, open the engine.

A linked dataset is a row of ``datasets`` like an imported one, with an empty table carrying
its columns (so every screen lists them) and ``n_rows`` the source's row count. Its
``options`` hold the :class:`~.source.Link` (``{"linked": ...}``) and its ``report`` what was
seen at link time: ``{"kind": "linked", "linked": {"schema", "fingerprint", "rows",
"respondents", "linked_at", "engine", "excluded_columns"}}`` (the direct identifiers left out of the
schema, found by the import's rules: :func:`direct_identifiers`; a release, the sample and the
respondents' signature never use them); ``source_sha256`` is the content fingerprint, which the
ledger records as the data a release read. Everything read back from a file is checked for
shape before use (a project from elsewhere is hostile), and no recorded text ever becomes SQL.
"""

from __future__ import annotations

import datetime as _dt
from typing import Callable

from dpdesk.errors import DataError, ProjectError, in_app
from dpdesk.project.linked import fingerprint as fpr
from dpdesk.project.linked.engines import open_engine, check_engine
from dpdesk.project.linked.source import CancelToken, Fingerprint, Link, LinkedSource, Schema
from dpdesk.project.people.identifiers import SAMPLE, by_content, by_name

__all__ = ["link_dataset", "is_linked", "link_of", "schema_of", "fingerprint_of", "describe", "changes",
           "open_source", "sample", "SourceChanged", "check_unchanged", "direct_identifiers", "respondents_now"]

_PANDAS_DTYPES = {"number": "float64", "boolean": "bool", "text": "object"}


class SourceChanged(DataError):
    """The linked source is not what was linked: a file was added, removed or rewritten."""


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def is_linked(dataset) -> bool:
    """Whether ``dataset`` (a :class:`~dpdesk.project.study.items.Dataset`) is linked, not imported."""
    opts = dataset.options if isinstance(getattr(dataset, "options", None), dict) else {}
    return isinstance(opts.get("linked"), dict)


def _recorded(dataset) -> dict:
    report = dataset.report if isinstance(dataset.report, dict) else {}
    rec = report.get("linked")
    if not isinstance(rec, dict):
        raise ProjectError(f"The linked dataset {dataset.name!r} has no record of its source in this project file "
                           "(the file was edited or damaged). Link the source again under another name.")
    return rec


def link_of(dataset) -> Link:
    """The recorded link (source, format, engine, master, CSV options), checked for shape."""
    if not is_linked(dataset):
        raise DataError(f"The dataset {dataset.name!r} is imported, not linked.")
    d = dataset.options["linked"]
    try:
        link = Link.from_dict(d)
    except (KeyError, TypeError, ValueError):
        raise ProjectError(f"The link of the dataset {dataset.name!r} in this project file is damaged. "
                           "Link the source again under another name.") from None
    if link.engine not in ("duckdb", "spark") or link.format not in ("parquet", "csv"):
        raise ProjectError(f"The link of the dataset {dataset.name!r} names an unknown engine or format "
                           f"({link.engine!r}, {link.format!r}). Link the source again.")
    return link


def schema_of(dataset) -> Schema:
    """The recorded schema: the columns dpdesk uses, and the direct identifiers left out at link time."""
    try:
        rec = _recorded(dataset)
        excluded = tuple((str(e["column"]), str(e["reason"]).removeprefix("direct identifier: "))
                         for e in rec.get("excluded_columns") or ())
        return Schema(Schema.from_list(rec["schema"]).columns, excluded)
    except (KeyError, TypeError):
        raise ProjectError(f"The schema of the linked dataset {dataset.name!r} is damaged in this project file. "
                           "Link the source again.") from None


def fingerprint_of(dataset) -> Fingerprint:
    try:
        return Fingerprint.from_dict(_recorded(dataset)["fingerprint"])
    except (KeyError, TypeError, ValueError):
        raise ProjectError(f"The fingerprint of the linked dataset {dataset.name!r} is damaged in this project file. "
                           "Link the source again.") from None


def describe(dataset) -> str:
    """One line: "linked with duckdb: /data/reg/*.parquet, 100,000,000 rows in 40 files"."""
    link = link_of(dataset)
    files = len(fingerprint_of(dataset).files)
    where = f" on {link.master}" if link.master else ""
    return (f"linked with {link.engine}{where}: {link.source}, {dataset.n_rows:,} rows in {files} file"
            f"{'s' if files != 1 else ''}")


def _dataset(project, name: str | None):
    from dpdesk.project.study.active import dataset_named

    return dataset_named(project, name)


def open_source(project, name: str | None = None) -> LinkedSource:
    """The engine reading the linked dataset ``name`` (quick for DuckDB; Spark's first session takes seconds)."""
    ds = _dataset(project, name)
    return open_engine(link_of(ds))


def changes(project, name: str | None = None) -> list[str]:
    """What changed in the source since it was linked, in words (empty: unchanged). Stats files; reads no data."""
    ds = _dataset(project, name)
    link = link_of(ds)
    before = fingerprint_of(ds)
    try:
        now = _quick(link)
    except DataError as exc:
        return [str(exc).split(". ")[0]]
    if now.quick == before.quick:
        return []
    return fpr.differences(before, now) or ["the list of files changed"]


def _quick(link: Link) -> Fingerprint:
    if fpr.is_remote(link.source):
        from dpdesk.project.linked.spark_source import remote_quick

        return remote_quick(link)
    return fpr.quick(link.source)


def check_unchanged(project, ds) -> Fingerprint:
    """Refuse (:class:`SourceChanged`, nothing spent) when the source changed since linking; else its fingerprint."""
    found = changes(project, ds.name)
    if found:
        shown = "; ".join(found[:5]) + (f"; and {len(found) - 5} more" if len(found) > 5 else "")
        head = (f"The linked source of {ds.name!r} ({link_of(ds).source}) changed since it was linked: {shown}. "
                "Nothing was released and no budget was spent. If the change is intended, link it again")
        raise in_app(SourceChanged(
            f"{head}: dpdesk import PROJECT {link_of(ds).source} --link --relink {ds.name} (recorded in the ledger); "
            "otherwise restore the files."), f"{head} (Relink… in Tabulate, recorded in the ledger); otherwise restore "
            "the files.")
    return fingerprint_of(ds)


def _say(progress, text, done=0, total=0):
    if progress is not None:
        progress(text, done, total)


def _inspect(link: Link, cancel: CancelToken | None, progress, content: bool):
    """Open the engine and read what a link records: schema, rows, fingerprint, respondents."""
    check_engine(link.engine, link.master, link.source)
    if not fpr.is_remote(link.source):
        files = fpr.resolve(link.source)
        fmt = fpr.source_format(files, link.source)
        if fmt != link.format:
            link = Link(link.source, fmt, link.engine, link.master, link.options)
    source = open_engine(link)
    try:
        _say(progress, "reading the schema")
        schema = source.schema()
        if not schema.columns:
            raise DataError(f"The source {link.source} has no columns. Check the files.")
        _say(progress, "counting the rows")
        rows = source.row_count(cancel)
        if content:
            _say(progress, "fingerprinting the files")
            fp = source.content_fingerprint(cancel, lambda d, t: _say(progress, "fingerprinting the files", d, t))
        else:
            fp = source.quick_fingerprint()
        fp = Fingerprint(fp.files, fp.quick, fp.content, rows)
        schema = _without_identifiers(source, schema, cancel)
        _say(progress, "the respondents' signature")
        people = source.respondents(cancel, columns=schema.columns)
    finally:
        source.close()
    return link, schema, rows, fp, people


#: Rows read from the start of a source to find identifiers by their values (as an import reads its first ones).
IDENTIFIER_ROWS = 4 * SAMPLE


def direct_identifiers(source, schema: Schema, cancel: CancelToken | None = None) -> dict[str, str]:
    """column -> reason, for the columns an import would leave out as direct identifiers
    (:mod:`dpdesk.project.people.identifiers`): by name, or by the values of the source's first
    :data:`IDENTIFIER_ROWS` rows (text columns only; read in the engine, never stored)."""
    import pandas as pd

    found = {c.name: f"{kind} (by column name)" for c in schema.columns if (kind := by_name(c.name))}
    text = [c for c in schema.columns if c.kind == "text" and c.name not in found]
    if text:
        cols = ", ".join(source.dialect.quote(c.name) for c in text)
        rows = source.run_sql(f"SELECT {cols} FROM {{source}} LIMIT {int(IDENTIFIER_ROWS)}", {}, cancel)
        for i, c in enumerate(text):
            values = pd.Series([None if r[i] is None else str(r[i]) for r in rows], dtype=object)
            kind, share = by_content(values)
            if kind and share >= 0.5:
                found[c.name] = f"{kind} (by content: {share:.0%} of values)"
    return found


def _without_identifiers(source, schema: Schema, cancel) -> Schema:
    """``schema`` with its direct identifiers moved to ``excluded`` (one line if nothing else is left)."""
    found = direct_identifiers(source, schema, cancel)
    kept = tuple(c for c in schema.columns if c.name not in found)
    if not kept:
        raise DataError(f"Every column of the source looks like a direct identifier ({', '.join(list(found)[:6])}), "
                        "so nothing is left to analyse. Link a source with the survey's answers too.")
    return Schema(kept, tuple(found.items()))


def _excluded_list(schema: Schema) -> list[dict]:
    return [{"column": n, "reason": f"direct identifier: {r}"} for n, r in schema.excluded]


def _csv_options(options: dict | None) -> dict:
    allowed = {"delimiter", "encoding", "decimal", "types"}
    opts = {k: v for k, v in (options or {}).items() if v is not None}
    unknown = sorted(set(opts) - allowed)
    if unknown:
        raise DataError(f"Linking takes the reading options {', '.join(sorted(allowed))}; got {', '.join(unknown)}.")
    if opts.get("encoding") and str(opts["encoding"]).lower().replace("_", "-") not in (
            "utf-8", "utf8", "utf-8-sig", "utf-16", "utf16", "latin-1", "latin1", "iso-8859-1"):
        raise DataError(f"A linked CSV is read as UTF-8, UTF-16 or Latin-1; {opts['encoding']!r} is not one of "
                        "them. Convert the file once (for example iconv -f cp1252 -t utf-8), or import it instead.")
    if opts.get("delimiter") in ("\\t", "tab"):
        opts["delimiter"] = "\t"
    return opts


def link_dataset(project, source: str, *, name: str | None = None, engine: str = "duckdb",
                 master: str | None = None, options: dict | None = None, use: bool = False,
                 cancel: CancelToken | None = None, progress: Callable | None = None, content: bool = True):
    """Link ``source`` as a dataset of ``project`` without copying its rows; returns the stored Dataset.

    Slow (counts the rows, reads every byte for the content fingerprint): run it in a worker.
    ``options`` are a CSV's delimiter, encoding and decimal mark (and optionally ``types``, a
    column -> DuckDB type mapping). Nothing is stored when it fails or is cancelled.
    """
    text = str(source)
    abs_source = fpr.absolute(text)
    if not fpr.is_remote(abs_source):
        files = fpr.resolve(abs_source)  # a missing path or an empty glob: one line, before any engine starts
        fmt = fpr.source_format(files, text)
    else:
        fmt = "csv" if text.lower().rstrip("/").endswith((".csv", ".csv.gz")) else "parquet"
    link = Link(abs_source, fmt, engine, master, _csv_options(options) if fmt == "csv" else {})
    name = name or fpr.default_name(text)
    if any(ds.name == name for ds in project.datasets()):
        raise in_app(ProjectError(f"The project already has a dataset named {name!r}. Give another name (--name), "
                                  f"or relink it (--relink {name})."),
                     f"The project already has a dataset named {name!r}. Give another name, or relink it (Relink… "
                     "in Tabulate).")
    link, schema, rows, fp, people = _inspect(link, cancel, progress, content)
    if cancel is not None:
        cancel.check()
    _store(project, name, link, schema, rows, fp, people, use)
    return _dataset(project, name)


def _store(project, name, link, schema, rows, fp, people, use):
    import json

    import pandas as pd

    from dpdesk.project.people import respondents
    from dpdesk.project.study.active import active_dataset, set_active_dataset

    frame = pd.DataFrame({c.name: pd.Series([], dtype=_PANDAS_DTYPES[c.kind]) for c in schema.columns})
    record = {"schema": schema.to_list(), "fingerprint": fp.to_dict(), "rows": rows, "respondents": people,
              "linked_at": _now(), "engine": link.engine, "excluded_columns": _excluded_list(schema)}
    size = sum(f.size for f in fp.files)
    with project.transaction() as conn:
        before = active_dataset(project)
        dataset_id = project.add_dataset(name, frame, source={"name": link.source, "sha256": fp.content or fp.quick,
                                                              "size": size},
                                         options={"linked": link.to_dict()}, report={"kind": "linked",
                                                                                     "linked": record})
        conn.execute("UPDATE datasets SET n_rows = ? WHERE id = ?", (int(rows), dataset_id))
        if people:
            conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)",
                         (respondents.CACHE_KEY.format(dataset_id), json.dumps(people)))
        set_active_dataset(project, name if (before is None or use) else before.name)


def update_link(project, ds, link: Link, schema: Schema, rows: int, fp: Fingerprint, people: dict) -> None:
    """Overwrite the recorded link of ``ds`` (inside the caller's transaction): the ledger's relink uses it."""
    import json

    from dpdesk.project.people import respondents

    report = dict(ds.report) if isinstance(ds.report, dict) else {}
    record = {"schema": schema.to_list(), "fingerprint": fp.to_dict(), "rows": rows, "respondents": people,
              "linked_at": _now(), "engine": link.engine, "excluded_columns": _excluded_list(schema)}
    report["linked"], report["kind"] = record, "linked"
    conn = project.connection
    conn.execute("UPDATE datasets SET n_rows = ?, source_sha256 = ?, source_size = ?, options = ?, report = ? "
                 "WHERE id = ?", (int(rows), fp.content or fp.quick, sum(f.size for f in fp.files),
                                  json.dumps({"linked": link.to_dict()}), json.dumps(report), ds.id))
    if people:
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)",
                     (respondents.CACHE_KEY.format(ds.id), json.dumps(people)))


def respondents_now(project, ds, cancel: CancelToken | None = None) -> dict | None:
    """The linked dataset's respondents' signature of the current definition
    (:func:`dpdesk.project.linked.people.current`). One recorded by an older dpdesk (its engine's own hashes,
    which an imported copy never matched) is computed again in the engine, once, and recorded with the link
    (not a relink: the source is checked unchanged first; the old signature is kept beside it, and the
    register's entries made from it stay). None when nothing was recorded."""
    import json

    from dpdesk.project.linked import people as linked_people
    from dpdesk.project.people import respondents

    report = dict(ds.report) if isinstance(ds.report, dict) else {}
    record = dict(report.get("linked") or {})
    old = record.get("respondents")
    if linked_people.current(old):
        return old
    check_unchanged(project, ds)
    schema = schema_of(ds)
    source = open_engine(link_of(ds))
    try:
        if "excluded_columns" not in record:  # linked before identifiers were left out: as a link now would
            schema = _without_identifiers(source, schema, cancel)
            record["schema"], record["excluded_columns"] = schema.to_list(), _excluded_list(schema)
        kept = set(schema.names)  # the engine's own columns (no name from the file becomes SQL), those recorded
        new = source.respondents(cancel, columns=[c for c in source.schema().columns if c.name in kept])
    finally:
        source.close()
    if cancel is not None:
        cancel.check()
    record["respondents"] = new
    if isinstance(old, dict):
        record.setdefault("respondents_before", old)
    report["linked"] = record
    with project.transaction() as conn:
        conn.execute("UPDATE datasets SET report = ? WHERE id = ?", (json.dumps(report), ds.id))
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)",
                     (respondents.CACHE_KEY.format(ds.id), json.dumps(new)))
    try:
        project._signatures_of_rows = None  # the people of this file are computed again
    except AttributeError:
        pass
    return new


def inspect(link: Link, cancel=None, progress=None, content=True):
    """Public for the ledger's relink: (link, schema, rows, fingerprint, respondents) of the source now."""
    return _inspect(link, cancel, progress, content)


def sample(project, name: str | None = None, n: int = 100, cancel: CancelToken | None = None) -> list[dict]:
    """Up to ``n`` rows drawn in the engine (DuckDB's reservoir sample), to show; never stored."""
    ds = _dataset(project, name)
    check_unchanged(project, ds)
    shown = schema_of(ds).names  # never a direct identifier left out at link time
    source = open_engine(link_of(ds))
    try:
        return [{c: row.get(c) for c in shown} for row in source.sample(n, cancel)]
    finally:
        source.close()
