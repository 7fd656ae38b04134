"""The privacy budget and the release ledger of a project (central differential privacy).

>>> from dpdesk.project import Project, ledger                     # doctest: +SKIP
>>> with Project.open("survey.dpdesk") as p:
...     ledger.set_budget(p, 1)                                    # epsilon 1 for the data
...     entry = ledger.release(p, {"statistic": "histogram", "columns": ["region"],
...                                "keys": ["north", "south"], "epsilon": 0.1})
...     entry.values, entry.half_width, ledger.budget_status(p).remaining_text

The budget itself (set once, lowered never raised, spending composed exactly) is
:mod:`dpdesk.project.ledger.budget`.

:func:`release` is one SQLite transaction (``BEGIN IMMEDIATE``): verify the hash chain,
return an earlier identical release at no cost, check the budget with the accountant
(refusing before any data is read or noise drawn), compute the exact statistic, draw the
noise with OpenDP's exact samplers, append the hash-chained ledger row, commit. A crash at
any point leaves both the spending and the result recorded, or neither.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from dpdesk.errors import BudgetError, DpdeskError, app_words
from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central.request import normalize
from dpdesk.mechanisms.central.spec import release_spec
from dpdesk.project.people import respondents
from dpdesk.project.ledger import chain, copies, heads, reservations, turns
from dpdesk.project.ledger.budget import (  # noqa: F401 - the budget's names stay importable from here
    BudgetStatus,
    _budget,
    _dataset,
    _spent_events,
    budget_status,
    dataset_sha256,
    lower_budget,
    set_budget,
)
from dpdesk.project.ledger.columns import bounded_rows, columns_of
from dpdesk.project.ledger.entry import (  # noqa: F401 - these names stay importable from here
    LedgerEntry,
    LedgerTamperedError,
    _entry,
    _fits_floor,
    _no_budget,
    _refusal,
    _require_intact,
    record,
)
from dpdesk.project.ledger.keys import resolve_keys
from dpdesk.project.ledger.text import epsilon_text

__all__ = [
    "BudgetStatus", "LedgerEntry", "Preview", "LedgerTamperedError", "BudgetExceeded",
    "set_budget", "lower_budget", "budget_status", "release", "ledger", "verify_ledger",
    "preview", "plan", "dataset_sha256", "shared_spending",
]

BudgetExceeded = accounting.BudgetExceeded
# ----------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Preview:
    """What a release would cost and how accurate it would be (no data read, no noise drawn)."""

    request: dict
    mechanism: str
    events: tuple
    cost_epsilon: Fraction | float
    cost_text: str
    half_width: dict | None
    spent_after: Fraction | float | None
    remaining_after: Fraction | None
    remaining_after_text: str
    fits: bool
    replay: bool
    message: str = ""
    noise: dict = field(default_factory=dict)


# ----------------------------------------------------------------------------- ledger


def ledger(project, dataset: str | None = None) -> list[LedgerEntry]:
    """Every release, oldest first (of one dataset's data when ``dataset`` is given)."""
    sha = None if dataset is None else dataset_sha256(project, _dataset(project, dataset))
    with project.transaction() as conn:
        rows = conn.execute("SELECT * FROM releases ORDER BY seq").fetchall()
    return [_entry(r) for r in rows if sha is None or r["dataset_sha256"] == sha]


def verify_ledger(project) -> chain.LedgerCheck:
    """Check the hash chain, its head, the protecting triggers and the budgets (read only).

    ``check.ok`` is False, and ``check.problems`` says what, when the ledger was edited
    outside dpdesk; :func:`release` then refuses with :class:`LedgerTamperedError`. The check
    is kept as ``project.ledger_check`` for the screens that show it.
    """
    with project.transaction() as conn:
        project.ledger_check = chain.check(conn, project.path, respondents=respondents.of_project(project),
                        people=respondents.signatures_of(project))
    news = project.ledger_check.to_remember(project.path)
    if news is not None:  # this computer has now seen this head
        heads.remember(news)
    return project.ledger_check


# ----------------------------------------------------------------------------- release


def release(project, request: Mapping[str, Any], *, dataset: str | None = None,
            progress: Callable[[str], None] | None = None, cancel=None) -> LedgerEntry:
    """Release one noisy statistic from a dataset and record it (see the module docstring).

    Returns the :class:`LedgerEntry` once it is committed. The same request on the same
    data returns the stored entry (``replayed=True``) at no cost, never re-noised. Raises
    :class:`BudgetExceeded` (nothing spent) when it would exceed the budget,
    :class:`LedgerTamperedError` when the ledger was edited outside dpdesk,
    :class:`~dpdesk.project.ledger.heads.LedgerRolledBackError` when this file is an older copy
    than this computer last saw (until :func:`~dpdesk.project.ledger.rewind.accept_rollback`). ``progress`` is
    called with "verified", "checked", "noised", "recorded", "committed"; if it raises
    (e.g. a cancelled worker), the transaction is rolled back and nothing is spent. While
    another release on this computer holds the spending lock, this one waits its turn
    (:mod:`~dpdesk.project.ledger.turns`: first come, first served, never given up) and
    ``progress("waiting")`` is called every few tenths of a second; if it raises, the request
    leaves the queue and nothing is spent.

    A linked dataset (:mod:`dpdesk.project.linked`) is aggregated by its engine without holding
    the spending lock (:mod:`.linked_release`: reserve, aggregate, commit); ``cancel`` (a
    :class:`~dpdesk.project.linked.source.CancelToken`) stops its engine's job, nothing spent.
    A request naming an ``identifier`` and ``max_rows`` keeps at most that many rows per person
    (chosen at random with a secret key) and scales the noise to protect a whole person.
    """
    from dpdesk.project.linked.store import is_linked

    ds = _dataset(project, dataset)
    request = resolve_keys(project, request, ds)  # labels to codes, checked before all
    if is_linked(ds):
        from dpdesk.project.ledger.linked_release import release_linked

        return release_linked(project, ds, request, progress, cancel)
    waiting = (lambda: progress("waiting")) if progress is not None else None
    with turns.spending_lock(waiting):  # one release at a time on this computer: copies check each other's spending
        return _release(project, request, dataset, progress)


def _release(project, request, dataset, progress) -> LedgerEntry:
    say = progress or (lambda stage: None)
    with project.transaction() as conn:
        ds = _dataset(project, dataset)
        sha = dataset_sha256(project, ds)
        _require_intact(project, conn)
        say("verified")
        budget = _budget(conn)
        if budget is None:
            raise _no_budget(ds.name)
        spec = release_spec(request, budget.delta)
        row = conn.execute("SELECT * FROM releases WHERE dataset_sha256 = ? AND request = ? ORDER BY seq LIMIT 1",
                           (sha, spec.key)).fetchone()
        if row is not None:
            return _entry(row, replayed=True)
        spent_events = _spent_events(conn)
        others = copies.of_project(project, conn)  # the same people's spending in copies of this project
        reserved = reservations.live_events(project.path, chain_hashes(conn))  # linked releases still counting
        every = spent_events + list(others.events) + reserved + list(spec.events)
        after = accounting.epsilon(every, budget.delta)
        if not after <= budget.epsilon or not _fits_floor(every, others.floor):
            raise _refusal(spec, ds.name, spent_events + reserved, budget, others)
        say("checked")
        frame = project.dataset_frame(ds.name)
        report = ds.report if isinstance(ds.report, dict) else {}
        if spec.request.get("identifier"):  # at most max_rows rows per person, then the exact path
            from dpdesk.mechanisms.central.exact import aggregate_arrays

            bounded = bounded_rows(frame, spec.request["identifier"], spec.contributions, ds.name)
            typed, data = columns_of(spec.request, bounded, ds.name, report.get("missing_values"))
            rel = spec.draw_exact(aggregate_arrays(typed, data), typed)
        else:
            typed, data = columns_of(spec.request, frame, ds.name, report.get("missing_values"))
            rel = spec.draw(data, typed)
        try:  # the respondents read, from the rows (never the file's cached claim), for the register's costs
            read_sig = respondents.respondents_signature(frame)
            respondents.signature(project, ds, frame)  # cached in the file before sealing: the register records it
        except (ValueError, TypeError, KeyError):
            read_sig = None
        say("noised")
        seq, after_hash, sealed = record(project, conn, spec, budget, after, rel, sha, ds.name, read_sig)
        say("recorded")
        entry = _entry(conn.execute("SELECT * FROM releases WHERE seq = ?", (seq,)).fetchone())
    heads.remember(sealed)  # after the commit: the register never runs ahead of the file
    say("committed")
    _remember(project, ds, epsilon_text(after, budget.delta, up=True), frame)
    return entry


def chain_hashes(conn) -> list[str]:
    """This file's release hashes (a reservation of a copy names one of them)."""
    return [r[0] for r in conn.execute("SELECT hash FROM releases ORDER BY seq")]


def _remember(project, ds, spent_text: str, frame) -> None:
    """Note in the user's registry that these respondents were released from (a courtesy for
    later imports elsewhere: :mod:`dpdesk.project.people.respondents`); never fails the release."""
    try:
        respondents.remember_release(project, ds, spent_text, frame)
    except (OSError, sqlite3.Error, DpdeskError):
        pass


def shared_spending(project, dataset: str | None = None) -> list[str]:
    """Warnings, in words, for the respondents of ``dataset`` (default: the active one) already released
    from in another project or copy on this computer, each naming that project and what it spent
    there (the respondents' registry, :mod:`dpdesk.project.people.respondents`). The spending of copies of this
    project after they split from it is counted in this budget (:mod:`dpdesk.project.ledger.copies`), and
    that of the file a copy was made from is in its ledger: neither is warned about. That of an unrelated
    project is not in this budget: the warning says so, it stops nothing. Copies' spending that could not
    be checked is said. Never raises (a registry that cannot be read gives no warning)."""
    try:
        ds = _dataset(project, dataset)
        with project.transaction() as conn:
            row = conn.execute("SELECT value FROM app WHERE key = ?",
                               (respondents.CACHE_KEY.format(ds.id),)).fetchone()
        import json

        sig = json.loads(row[0]) if row is not None else respondents.respondents_signature(
            project.dataset_frame(ds.name))
        seen = respondents.seen_before(project, sig)
        with project.transaction() as conn:
            none_here = conn.execute("SELECT count(*) FROM releases").fetchone()[0] == 0
            others = copies.of_project(project, conn)
    except (OSError, sqlite3.Error, ValueError, KeyError, TypeError, DpdeskError):
        return []
    # files of this project's history (its spending is in this ledger) or copies charged here: not warned about
    counted = {copies._resolved(c.path) for c in others.copies} | set(others.lineage)
    out = [s.message() for s in seen if not s.here and copies._resolved(s.project) not in counted]
    if not others.checked:
        out.append(f"The spending of copies of this project on this computer could not be checked: "
                   f"{others.unchecked}. Keep all copies within what you promised these people.")
    for s in seen:
        if s.here and none_here:  # released from in this very file, whose ledger now holds nothing
            common = "the same respondents" if s.share >= 0.999 else f"about {s.share:.0%} of these respondents"
            out.append(f"This computer released from {common} in this very file {s.project} (dataset "
                       f"{s.dataset!r}, {s.spent} spent), but its ledger now holds no release: its releases were "
                       "deleted outside dpdesk, or the file was replaced by another project. " +
                       ("That spending counts against this budget (the budget follows the people)."
                        if copies._resolved(s.project) in counted else
                        "That spending is not in this budget: keep both within what you promised these people."))
    return out


# ----------------------------------------------------------------------------- preview / plan


def preview(project, request: Mapping[str, Any], *, dataset: str | None = None) -> Preview:
    """Cost, accuracy and the budget left after a release, from public parameters only.

    Reads no data and draws no noise. ``fits`` says whether :func:`release` would accept
    it now; ``replay`` that it was released before (it would cost nothing).
    """
    normalize(request)  # a malformed request is refused before the data are looked up
    ds = _dataset(project, dataset)
    request = resolve_keys(project, request, ds)  # keys typed as value labels: their codes; bad keys said now
    sha = dataset_sha256(project, ds)
    with project.transaction() as conn:
        budget = _budget(conn)
        delta = budget.delta if budget is not None else Fraction(0)
        spec = release_spec(request, delta)
        replay = conn.execute("SELECT 1 FROM releases WHERE dataset_sha256 = ? AND request = ?",
                              (sha, spec.key)).fetchone() is not None
        own_events = _spent_events(conn)
        others = copies.of_project(project, conn)
        spent_events = own_events + list(others.events) + reservations.live_events(project.path, chain_hashes(conn))
        check = chain.check(conn, project.path, respondents=respondents.of_project(project),
                        people=respondents.signatures_of(project))
        intact = check.ok
    planned, cost, hw = spec.events, spec.cost, spec.half_width
    if budget is None:
        return Preview(spec.request, spec.mechanism, planned, cost, epsilon_text(cost, delta, up=True), hw, None,
                       None, "no budget set", False, replay, str(_no_budget(ds.name)), spec.noise)
    every = spent_events + ([] if replay else list(planned))
    after = accounting.epsilon(every, delta)
    remaining = max(Fraction(0), budget.epsilon - after) if after != math.inf else Fraction(0)
    if others.floor is not None:  # a budget lowered in a copy after the split holds here too
        remaining = min(remaining, copies.floor_remaining(every, others.floor))
    fits = intact and (replay or (after <= budget.epsilon and _fits_floor(every, others.floor)))
    message = ""
    if not intact:  # edited, rolled back or holding data released under another ledger: said as the check says it
        message = check.headline
    elif not fits:
        message = app_words(_refusal(spec, ds.name, own_events, budget, others))  # the GUI shows it
    return Preview(spec.request, spec.mechanism, planned, Fraction(0) if replay else cost,
                   "free (already released)" if replay else epsilon_text(cost, delta, up=True), hw, after,
                   remaining, epsilon_text(remaining, delta, up=False), fits, replay, message, spec.noise)


def plan(project, requests: Sequence[Mapping[str, Any]], weights: Sequence | None = None, *,
         dataset: str | None = None) -> list[dict]:
    """Requests that share the remaining budget by ``weights`` (default equal), ready to release.

    Pure epsilon: request i gets remaining * w_i / sum(w) exactly. With a delta, the noise
    scales come from :func:`dpdesk.mechanisms.accounting.plan` (PLD), shrunk until the new
    releases together with those already made fit the total. Counts, tables and sums get a
    ``scale``; means and medians an ``epsilon``.
    """
    specs = [normalize(r) for r in requests]
    if not specs:
        raise BudgetError("plan() needs at least one request.")
    ws = [Fraction(1)] * len(specs) if weights is None else [accounting.as_fraction(w, "weight") for w in weights]
    if len(ws) != len(specs) or any(w <= 0 for w in ws):
        raise BudgetError(f"plan() needs one positive weight per request; got {list(weights or [])!r}.")
    status = budget_status(project, dataset)
    ds = _dataset(project, dataset)
    if status is None:
        raise _no_budget(ds.name)
    if status.remaining_epsilon <= 0:
        raise BudgetExceeded(f"Nothing left to plan with: {status.spent_text} of {status.total_text} is spent.")
    delta, left = status.total_delta, status.remaining_epsilon
    base = [{k: v for k, v in s.items() if k not in ("epsilon", "accuracy", "scale")} for s in specs]
    if delta == 0:
        if any(s["mechanism"] == "gaussian" for s in specs):
            raise BudgetError("Gaussian noise needs a budget with a delta; plan Laplace releases.")
        return [dict(b, epsilon=str(left * w / sum(ws))) for b, w in zip(base, ws)]
    mechs = {s["mechanism"] for s in specs}
    if len(mechs) != 1:
        raise BudgetError("Plan releases of one mechanism at a time (all laplace or all gaussian).")
    mech = mechs.pop()
    with project.transaction() as conn:
        spent_events = _spent_events(conn) + list(copies.of_project(project, conn).events)
    sens = []
    for b in base:
        if b["statistic"] in ("mean", "median", "quantile"):
            if mech == "gaussian":
                raise BudgetError("Plan Gaussian means one at a time (preview shows their accuracy).")
            sens.append(None)
        else:
            sens.append(release_spec(dict(b, scale="1"), delta).events[0].sensitivity)
    target = left
    for _ in range(60):
        scales = accounting.plan(target, ws, delta, mechanism=mech)
        planned = [dict(b, epsilon=str(1 / s)) if d is None else dict(b, scale=str(s * d))
                   for b, s, d in zip(base, scales, sens)]
        events = [e for p in planned for e in release_spec(p, delta).events]
        if accounting.epsilon(spent_events + events, delta) <= status.total_epsilon:
            return [normalize(p) for p in planned]
        target = target * Fraction(19, 20)
    raise BudgetExceeded("No noise scales fit the remaining budget; release fewer statistics.")
