"""Relinking a linked dataset whose source changed, recorded in the ledger.

A linked source that changed after linking (a file added, removed or rewritten) is refused at
release time (:func:`dpdesk.project.linked.store.check_unchanged`). When the change is
intended (the registry's next month arrived), :func:`relink` reads the source as it is now
(schema, rows, fingerprint, respondents, in the engine) and writes both into the project
in one transaction: the dataset's new record, and a row of the hash-chained ledger
(``mechanism`` ``"relink"``, no privacy events, ``cost`` epsilon 0) naming the old and the new
fingerprint and what changed. The budget is untouched: relinking gives nothing back, and the
releases made before stay in the ledger, charged. Later releases record the new fingerprint.
"""

from __future__ import annotations

from dpdesk.errors import DataError, in_app
from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central.request import canonical_json
from dpdesk.project.ledger import chain, heads, turns
from dpdesk.project.ledger.budget import _budget, _now, _spent_events
from dpdesk.project.ledger.entry import LedgerEntry, _entry, _require_intact
from dpdesk.project.linked import fingerprint as fpr
from dpdesk.project.linked import store
from dpdesk.project.linked.source import Link

__all__ = ["relink", "MECHANISM"]

MECHANISM = "relink"


def relink(project, name: str, source: str | None = None, *, cancel=None, progress=None,
           content: bool = True) -> LedgerEntry:
    """Record the linked dataset ``name``'s source as it is now (``source``: a new path for it); returns the
    ledger's row of the relink. Slow (counts rows, hashes the files): run it in a worker."""
    from dpdesk.project.study.active import dataset_named

    ds = dataset_named(project, name)
    if not store.is_linked(ds):
        head = f"The dataset {name!r} is imported, not linked: import the new file instead"
        raise in_app(DataError(f"{head} (dpdesk import PROJECT FILE --replace)."),
                     f"{head} (File > Import data, replacing the dataset).")
    old = store.link_of(ds)
    before = store.fingerprint_of(ds)
    new_source = fpr.absolute(source) if source else old.source
    link = Link(new_source, old.format, old.engine, old.master, old.options)
    link, schema, rows, fp, people = store.inspect(link, cancel, progress, content)
    if cancel is not None:
        cancel.check()
    changed = fpr.differences(before, fp) if new_source == old.source else [f"moved from {old.source}"]
    with turns.spending_lock():
        with project.transaction() as conn:
            _require_intact(project, conn)
            store.update_link(project, ds, link, schema, rows, fp, people)
            budget = _budget(conn)
            spent = accounting.epsilon(_spent_events(conn), budget.delta) if budget is not None else 0
            request = {"statistic": "relink", "columns": [], "dataset": ds.name, "source": link.source}
            result = {"before": {"fingerprint": before.content or before.quick, "rows": ds.n_rows,
                                 "files": len(before.files)},
                      "after": {"fingerprint": fp.content or fp.quick, "rows": rows, "files": len(fp.files)},
                      "changes": changed or ["nothing changed in the files"], "values": None}
            cost = {"epsilon": "0", "delta": str(budget.delta) if budget else "0", "spent_after": str(spent)}
            if budget is not None:
                cost["budget"] = {"id": budget.id, "epsilon": str(budget.epsilon), "delta": str(budget.delta)}
            params = {"dataset": ds.name, "events": [], "source": {"engine": link.engine, "master": link.master,
                                                                  "path": link.source,
                                                                  "fingerprint": fp.content or fp.quick}}
            prev = conn.execute("SELECT hash FROM releases ORDER BY seq DESC LIMIT 1").fetchone()
            seq = conn.execute("SELECT coalesce(max(seq), 0) FROM releases").fetchone()[0] + 1
            fields = {"seq": seq, "time": _now(), "app_version": _version(), "dataset_sha256": fp.content or fp.quick,
                      "request": canonical_json(request), "mechanism": MECHANISM,
                      "noise_params": canonical_json(params), "cost": canonical_json(cost),
                      "result": canonical_json(result), "prev_hash": prev[0] if prev else chain.GENESIS}
            fields["hash"] = chain.row_hash(fields)
            conn.execute(f"INSERT INTO releases({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})",
                         tuple(fields.values()))
            sealed = chain.record_head(conn, seq, fields["hash"], project.path)
            entry = _entry(conn.execute("SELECT * FROM releases WHERE seq = ?", (seq,)).fetchone())
        heads.remember(sealed)
    return entry


def _version() -> str:
    from dpdesk import __version__

    return __version__
