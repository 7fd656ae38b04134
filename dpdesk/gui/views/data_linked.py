"""The Data view's side of a linked dataset: its schema, and a sample drawn in the engine.

A linked dataset's rows stay in its source (:mod:`dpdesk.project.linked`), so the Data view
never loads the table: it shows the recorded schema (each column's name, the engine's type and
how dpdesk treats it), the engine and the source in words, and up to :data:`SAMPLE_ROWS` rows
drawn by the engine in a worker (DuckDB's reservoir sample; Cancel interrupts it). The sample is
shown only: it is never stored in the project.
"""

from __future__ import annotations

from html import escape

SAMPLE_ROWS = 100

KIND_WORDS = {"number": "number", "text": "text", "boolean": "yes/no (True, False)"}


def sample_job(job, project, dataset: str):
    """Worker: ``(dataset, Table of the sample)``; the rows come from the engine and are not stored."""
    import pandas as pd

    from dpdesk.project import linked
    from dpdesk.project.reading.importing import own_connection
    from dpdesk.project.reading.table import ImportReport, Source, Table
    from dpdesk.project.study.active import dataset_named
    from dpdesk.project.study.labels import Labels

    token = linked.CancelToken()
    job.on_cancel(token.cancel)
    job.progress(0.0, f"Drawing a sample of {dataset} in the engine…")
    with own_connection(project) as own:
        ds = dataset_named(own, dataset)
        schema = linked.schema_of(ds)
        labels = Labels.from_stored(own.column_labels(ds.name))
        rows = linked.sample(own, ds.name, SAMPLE_ROWS, cancel=token)
    frame = pd.DataFrame(rows, columns=schema.names)
    report = ImportReport(format=linked.link_of(ds).format, kind="linked", first_data_row=1)  # sample numbers
    report.variable_labels, report.value_labels = dict(labels.columns), dict(labels.values)
    fp = linked.fingerprint_of(ds)
    table = Table(frame, report, Source(linked.link_of(ds).source, "", sum(f.size for f in fp.files),
                                        fp.content or fp.quick))
    return dataset, table


def mapping_table_job(job, project, dataset: str, item: str | None):
    """Worker: the counts table the mapping dialog reads for a linked dataset, counted in the engine over its
    few-valued columns (:func:`dpdesk.project.linked.distinct.mapping_columns`); ``(table, left out, item)``."""
    from dpdesk.project import linked
    from dpdesk.project.analysis.estimates import stored_table
    from dpdesk.project.linked.distinct import mapping_columns
    from dpdesk.project.reading.importing import own_connection
    from dpdesk.project.study.active import dataset_named

    token = linked.CancelToken()
    job.on_cancel(token.cancel)
    job.progress(0.0, f"Counting the values of {dataset}'s columns in the engine…")
    with own_connection(project) as own:
        chosen, left = mapping_columns(own, dataset_named(own, dataset), cancel=token)
        job.progress(0.5, f"Counting the answers of {dataset} in the engine…")
        table = stored_table(own, dataset, columns=chosen)
    return table, left, item


def mapping_intro(dataset: str, left: list[str]) -> str:
    """The mapping dialog's first line for a linked dataset: which columns it offers, and which not."""
    from dpdesk.project.linked.distinct import MAX_VALUES

    out = (f"These mappings are for the linked dataset “{dataset}”; other datasets keep their own. The answers are "
           f"counted in its engine: the columns offered are those with at most {MAX_VALUES} values")
    if left:
        shown = ", ".join(left[:8]) + (", …" if len(left) > 8 else "")
        out += f" (not offered: {shown})"
    return out + ". The change is stored when you press OK; Edit > Undo takes it back."


def is_linked_dataset(project, dataset: str) -> bool:
    """Quick: the project's record says so (no engine runs)."""
    from dpdesk.errors import DpdeskError
    from dpdesk.project.linked import is_linked
    from dpdesk.project.study.active import dataset_named

    try:
        return is_linked(dataset_named(project, dataset))
    except DpdeskError:
        return False


def schema_rows(project, dataset: str, report, values_text) -> list[tuple[str, str, str, str, str]]:
    """(column, type, question text, value labels, missing codes) from the recorded schema."""
    from dpdesk.project.linked import schema_of
    from dpdesk.project.study.active import dataset_named

    out = []
    for c in schema_of(dataset_named(project, dataset)).columns:
        kind = KIND_WORDS.get(c.kind, c.kind)
        out.append((c.name, f"{kind} ({c.type})", report.variable_labels.get(c.name, ""),
                    values_text(report.value_labels.get(c.name) or {}), ""))
    return out


def linked_info(project, dataset: str, shown: int) -> str:
    """The info line: the engine, the source, the rows, and that the rows shown are a sample (rich text)."""
    from dpdesk.project.linked import describe, fingerprint_of
    from dpdesk.project.study.active import dataset_named

    from dpdesk.project.linked import schema_of

    ds = dataset_named(project, dataset)
    fp = fingerprint_of(ds)
    left = [name for name, _ in schema_of(ds).excluded]
    out = (f"<b>{escape(dataset)}</b>: {escape(describe(ds))}; fingerprint {(fp.content or fp.quick)[:12]}…<br>"
           f"Linked, not copied: below, {shown:,} rows drawn at random by the engine (shown only, never stored), "
           "and the columns as recorded when it was linked.")
    if left:
        out += ("<br>Left out as direct identifiers, as an import leaves them out (never shown or released): "
                f"{escape(', '.join(left[:8]))}{' …' if len(left) > 8 else ''}.")
    return out


def failed_info(dataset: str, exc) -> str:
    """Why no sample is shown, in view (a changed source: relinked in Tabulate)."""
    from dpdesk.gui.widgets.release_linked import in_app_words

    from dpdesk.errors import app_words

    text = in_app_words(app_words(exc), "relink it in Tabulate (Relink…)")
    return f"<b>{escape(dataset)}</b>: <span style='color: #a40000'>{escape(text, quote=False)}</span>"
