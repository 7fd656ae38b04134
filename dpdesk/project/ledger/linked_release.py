"""A release from a linked dataset: checked, reserved, aggregated in the engine, then recorded.

The same request, budget, noise and ledger row as for imported data
(:func:`dpdesk.project.ledger.releases.release`); what differs is where the exact aggregates
come from (the linked source's engine, :mod:`dpdesk.project.linked`) and that the engine's
job, which may take minutes, runs holding no lock (:mod:`.reservations`):

1. before any lock, nothing spent on failure: the budget exists, the request is valid, its
   columns are in the recorded schema (:func:`~dpdesk.project.linked.query.query_for`), the
   engine can run (Java, pyspark, the master's form), and the source is unchanged since
   linking (its files, sizes and times: :func:`~dpdesk.project.linked.store.check_unchanged`);
2. under the spending lock and the file's transaction: the ledger is intact, an identical
   earlier release is returned at no cost, the budget is checked counting every live
   reservation, and this release's cost is reserved;
3. no lock: the engine aggregates (``cancel`` stops it; the reservation is given back);
4. the source is checked again (a file rewritten during the job is refused, nothing spent);
5. under the lock and one transaction: the budget is checked again (it may have been lowered),
   the noise drawn by OpenDP's samplers, the row written naming the engine and the source's
   fingerprint, committed; then the reservation is given back.

A kill before step 5's commit spends nothing (the reservation dies with the process); after
it, everything is recorded.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

from dpdesk.errors import DpdeskError
from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central.spec import release_spec
from dpdesk.project.ledger import copies, heads, reservations, turns
from dpdesk.project.ledger.budget import _budget, _spent_events, dataset_sha256
from dpdesk.project.ledger.entry import (LedgerEntry, _entry, _fits_floor, _no_budget, _refusal, _require_intact,
                                         record)
from dpdesk.project.ledger.text import epsilon_text
from dpdesk.project.linked import query as lq
from dpdesk.project.linked import store
from dpdesk.project.linked.engines import check_engine, open_engine

__all__ = ["release_linked"]


def _hashes(conn) -> list[str]:
    return [r[0] for r in conn.execute("SELECT hash FROM releases ORDER BY seq")]


def _check(project, conn, spec, ds, mine=None):
    """(budget, epsilon after) when the release fits with everything spent and reserved; else the refusal."""
    budget = _budget(conn)
    if budget is None:
        raise _no_budget(ds.name)
    spent = _spent_events(conn)
    others = copies.of_project(project, conn)
    reserved = reservations.live_events(project.path, _hashes(conn), mine)
    every = spent + list(others.events) + reserved + list(spec.events)
    after = accounting.epsilon(every, budget.delta)
    if not after <= budget.epsilon or not _fits_floor(every, others.floor):
        raise _refusal(spec, ds.name, spent + reserved, budget, others)
    return budget, after


def release_linked(project, ds, request, progress=None, cancel=None) -> LedgerEntry:
    """Release ``request`` from the linked dataset ``ds`` (see the module docstring)."""
    say = progress or (lambda stage: None)
    link, schema = store.link_of(ds), store.schema_of(ds)
    with project.transaction() as conn:
        budget = _budget(conn)
    if budget is None:
        raise _no_budget(ds.name)
    spec = release_spec(request, budget.delta)
    typed = lq.typed_keys(spec.request, schema, ds.name)
    ident = spec.request.get("identifier")
    query = lq.query_for(typed, schema, ds.name, (ident, spec.contributions) if ident else None)
    check_engine(link.engine, link.master, link.source)
    fp = store.check_unchanged(project, ds)
    sha = dataset_sha256(project, ds)
    people = _people_now(project, ds, sha, cancel)
    source_record = {"source": {"engine": link.engine, "master": link.master, "path": link.source,
                                "fingerprint": fp.content or fp.quick, "files": len(fp.files), "rows": ds.n_rows}}
    if cancel is not None:
        cancel.check()

    with contextlib.ExitStack() as held:  # the spending lock: given back once the cost is reserved
        held.enter_context(turns.spending_lock((lambda: say("waiting")) if progress is not None else None))
        with project.transaction() as conn:
            _require_intact(project, conn)
            say("verified")
            now = _budget(conn)
            spec = release_spec(request, now.delta if now is not None else budget.delta)
            row = conn.execute("SELECT * FROM releases WHERE dataset_sha256 = ? AND request = ? ORDER BY seq LIMIT 1",
                               (sha, spec.key)).fetchone()
            if row is not None:
                return _entry(row, replayed=True)
            _check(project, conn, spec, ds)
            head = conn.execute("SELECT hash FROM releases ORDER BY seq DESC LIMIT 1").fetchone()
        mine = reservations.reserve(project.path, head[0] if head else None, spec.events)
        with mine:  # given back at the end, whatever happens (a kill: the OS drops its lock)
            if mine.path is not None:  # reserved where other releases see it: the engine's job holds no lock
                held.close()
            say("checked")
            source = open_engine(link)
            try:
                aggregates = source.aggregate(query, cancel)
            finally:
                source.close()
            if cancel is not None:
                cancel.check()
            store.check_unchanged(project, ds)  # not rewritten while the engine read it
            with turns.spending_lock((lambda: say("waiting")) if progress is not None else None) \
                    if mine.path is not None else contextlib.nullcontext():
                with project.transaction() as conn:
                    _require_intact(project, conn)
                    budget, after = _check(project, conn, spec, ds, mine)
                    rel = spec.draw_exact(_arrays(aggregates), typed)
                    say("noised")
                    seq, _, sealed = record(project, conn, spec, budget, after, rel, sha, ds.name, people,
                                            source_record)
                    say("recorded")
                    entry = _entry(conn.execute("SELECT * FROM releases WHERE seq = ?", (seq,)).fetchone())
                heads.remember(sealed)  # after the commit: the register never runs ahead of the file
    say("committed")
    try:
        from dpdesk.project.people import respondents

        respondents.remember_release(project, ds, epsilon_text(after, budget.delta, up=True), None)
    except (OSError, sqlite3.Error, DpdeskError, ValueError, KeyError, TypeError):
        pass
    return entry


def _people_now(project, ds, sha, cancel):
    """The dataset's respondents' signature of the current definition. One recorded by an older dpdesk is
    computed again in the engine, once (:func:`store.respondents_now`), and the releases this file made from
    the dataset before are registered with it (:func:`heads.remember_people`), so they are charged to every
    file of the same people from now on; the register's older entries stay."""
    recorded = ds.report.get("linked", {}) if isinstance(ds.report, dict) else {}
    before = recorded.get("respondents") if isinstance(recorded.get("respondents"), dict) else None
    people = store.respondents_now(project, ds, cancel)
    if people is not None and people is not before:
        with project.transaction() as conn:
            hashes = [r[0] for r in conn.execute("SELECT hash FROM releases WHERE dataset_sha256 = ?", (sha,))]
        if hashes:
            text = json.dumps(people)
            heads.remember_people([(h, "", text) for h in hashes], str(Path(project.path).resolve()))
    return people


def _arrays(agg) -> dict:
    return {k: getattr(agg, k) for k in ("cells", "sums", "counts", "ranks") if getattr(agg, k) is not None}
