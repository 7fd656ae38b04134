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

import dataclasses
import math
import sqlite3
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from dpdesk import __version__
from dpdesk.errors import BudgetError, DpdeskError
from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central.request import canonical_json, describe, normalize
from dpdesk.mechanisms.central.spec import ReleaseSpec, release_spec
from dpdesk.project.people import respondents
from dpdesk.project.ledger import chain, copies, heads, turns
from dpdesk.project.ledger.budget import (  # noqa: F401 - the budget's names stay importable from here
    BudgetStatus,
    _Budget,
    _budget,
    _dataset,
    _load,
    _now,
    _spent_events,
    budget_status,
    dataset_sha256,
    lower_budget,
    set_budget,
)
from dpdesk.project.ledger.columns import columns_of
from dpdesk.project.ledger.text import epsilon_text, number_text

__all__ = [
    "BudgetStatus", "LedgerEntry", "Preview", "LedgerTamperedError", "BudgetExceeded",
    "set_budget", "lower_budget", "budget_status", "release", "ledger", "verify_ledger",
    "preview", "plan", "dataset_sha256", "shared_spending",
]

BudgetExceeded = accounting.BudgetExceeded


class LedgerTamperedError(BudgetError):
    """The ledger was edited outside dpdesk; the project makes no more releases."""


# ----------------------------------------------------------------------------- records


@dataclass(frozen=True)
class LedgerEntry:
    """One recorded release. ``replayed`` is True when it was returned again at no cost."""

    seq: int
    time: str
    app_version: str
    dataset_sha256: str
    request: dict
    mechanism: str
    noise_params: dict
    cost: dict
    result: dict
    prev_hash: str
    hash: str
    replayed: bool = False

    @property
    def dataset(self) -> str | None:
        return self.noise_params.get("dataset")

    @property
    def statistic(self) -> str:
        return self.request["statistic"]

    @property
    def epsilon(self) -> Fraction:
        """The release's own epsilon (exact; at the budget's delta for Gaussian noise)."""
        return Fraction(self.cost["epsilon"])

    @property
    def values(self):
        return self.result.get("values")

    @property
    def half_width(self) -> float | None:
        """Half-width of every cell at once (simultaneous), at ``result['half_width']['confidence']``."""
        hw = self.result.get("half_width")
        return None if hw is None else hw["simultaneous"]

    @property
    def description(self) -> str:
        return describe(self.request)


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


def _entry(row, replayed: bool = False) -> LedgerEntry:
    return LedgerEntry(
        seq=row["seq"], time=row["time"], app_version=row["app_version"], dataset_sha256=row["dataset_sha256"],
        request=_load(row["request"]), mechanism=row["mechanism"], noise_params=_load(row["noise_params"]),
        cost=_load(row["cost"]), result=_load(row["result"]), prev_hash=row["prev_hash"], hash=row["hash"],
        replayed=replayed)


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


def _require_intact(project, conn) -> None:
    check = chain.check(conn, project.path, respondents=respondents.of_project(project),
                        people=respondents.signatures_of(project))
    if not check.ok:
        error = LedgerTamperedError if check.problems else heads.LedgerRolledBackError
        raise error(check.message(project.path))


# ----------------------------------------------------------------------------- release


_NOUNS = {"count": "count", "histogram": "histogram", "crosstab": "cross-tab", "sum": "sum", "mean": "mean",
          "median": "median", "quantile": "quantile"}


def _refusal(spec: ReleaseSpec, ds_name, spent_events, budget: _Budget,
             others: copies.Copies | None = None) -> BudgetExceeded:
    """The refusal in the researcher's words ("This mean would cost epsilon 6; 0.4 is left."),
    with the noise's scale and sensitivity in a details line (``exc.summary``, ``exc.details``).
    ``spent_events`` are this file's; ``others`` the spending of its copies (named when it counts)."""
    d, planned = budget.delta, spec.events
    cost = accounting.epsilon(list(planned), d)
    theirs = list(others.events) if others is not None else []
    before = accounting.epsilon(list(spent_events) + theirs, d)
    remaining = max(Fraction(0), budget.epsilon - before) if before != math.inf else Fraction(0)
    floor = others.floor if others is not None else None
    if floor is not None:  # a budget lowered in a copy after the split holds here too
        remaining = min(remaining, copies.floor_remaining(list(spent_events) + theirs, floor))
    what = "; ".join(accounting.describe(e) for e in planned)
    noun = _NOUNS.get(spec.statistic, spec.statistic)
    left = "nothing is left" if remaining <= 0 else f"{epsilon_text(remaining, d, up=False)} is left"
    fix = "Nothing more can be released from this project's budget." if remaining <= 0 else (
        "To fix: ask for less (a smaller epsilon, a wider ± or fewer statistics).")
    if remaining > 0 and d == 0 and all(isinstance(e, accounting.Laplace) for e in planned):
        wider = "" if spec.statistic in ("mean", "median", "quantile") else ", or ask for a wider ±"
        fix = f"To fix: set the cost to at most epsilon {number_text(remaining, up=False)}{wider}."
    summary = (f"This {noun} would cost {epsilon_text(cost, d, up=True)}; {left} "
               f"(of {epsilon_text(budget.epsilon, d, up=False)}), so it does not fit. Release refused: nothing "
               f"was spent and no noise was drawn. {fix}")
    if floor is not None:
        summary = summary.replace(" so it does not fit.", f" so it does not fit. The budget of these people was "
                                  f"lowered to {floor['budget']} in {floor['path']} (a copy of this project on this "
                                  f"computer), and the lower budget holds in every copy; to fix it here too: dpdesk "
                                  f"budget PROJECT --set {number_text(floor['epsilon'], up=False)}.", 1)
    if theirs:
        named = "; ".join(f"{epsilon_text(accounting.epsilon(list(c.events), d), d, up=True)} in {c.path} "
                          f"({c.releases} release(s){', from the same people' if c.kind == 'people' else ''})"
                          for c in others.copies)
        who = ("Copies of this project on this computer spent part of these people's budget after they split from "
               "this file" if all(c.kind == "copy" for c in others.copies) else
               "Releases this computer made from the same people in other files (copies of this project after the "
               "split, or files holding mostly these respondents) spent part of their budget")
        summary = summary.replace(" so it does not fit.", f" so it does not fit. {who}: {named}.", 1)
    spent_where = epsilon_text(before, d, up=True)
    if theirs:
        here = epsilon_text(accounting.epsilon(list(spent_events), d), d, up=True)
        elsewhere = epsilon_text(accounting.epsilon(theirs, d), d, up=True)
        spent_where += f" (here {here}, in copies on this computer {elsewhere})"
    details = (f"Details: the {spec.description} of {ds_name!r} asks for {what}, costing "
               f"{epsilon_text(cost, d, up=True)}. Already spent: {spent_where}; remaining: "
               f"{epsilon_text(remaining, d, up=False)}.")
    exc = BudgetExceeded(f"{summary}\n{details}")
    exc.summary, exc.details = summary, details
    return exc


def _fits_floor(events, floor) -> bool:
    """Whether ``events`` fit the lowest budget of the shared history (a budget lowered in a copy)."""
    return floor is None or accounting.epsilon(list(events), floor["delta"]) <= floor["epsilon"]


def _no_budget(ds_name: str) -> BudgetError:
    from dpdesk.errors import in_app

    head = f"No privacy budget is set for the data of {ds_name!r} yet, so nothing can be released. "
    return in_app(BudgetError(head + "Set one first: dpdesk budget PROJECT --set 1 (Python: "
                              "ledger.set_budget(project, 1))."),
                  head + "Set one first: Tabulate > Set the privacy budget….")


def release(project, request: Mapping[str, Any], *, dataset: str | None = None,
            progress: Callable[[str], None] | None = None) -> LedgerEntry:
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
    """
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
        every = spent_events + list(others.events) + list(spec.events)
        after = accounting.epsilon(every, budget.delta)
        if not after <= budget.epsilon or not _fits_floor(every, others.floor):
            raise _refusal(spec, ds.name, spent_events, budget, others)
        say("checked")
        frame = project.dataset_frame(ds.name)
        report = ds.report if isinstance(ds.report, dict) else {}
        typed, data = columns_of(spec.request, frame, ds.name, report.get("missing_values"))
        rel = spec.draw(data, typed)
        try:  # the respondents read, from the rows (never the file's cached claim), for the register's costs
            read_sig = respondents.respondents_signature(frame)
            respondents.signature(project, ds, frame)  # cached in the file before sealing: the register records it
        except (ValueError, TypeError, KeyError):
            read_sig = None
        say("noised")
        mech = {"laplace": "discrete_laplace", "gaussian": "discrete_gaussian"}.get(
            getattr(rel, "mechanism", spec.mechanism), "noisy_max")
        cost = {"epsilon": str(spec.cost), "delta": str(budget.delta), "spent_after": str(after),
                "budget": {"id": budget.id, "epsilon": str(budget.epsilon), "delta": str(budget.delta)}}
        rho = sum((e.rho for e in spec.events if isinstance(e, accounting.Gaussian)), Fraction(0))
        if rho:
            cost["rho"] = str(rho)
        params = {"dataset": ds.name, "events": [accounting.to_record(e) for e in spec.events],
                  "noise": spec.noise_record()}
        prev = conn.execute("SELECT hash FROM releases ORDER BY seq DESC LIMIT 1").fetchone()
        seq = (conn.execute("SELECT coalesce(max(seq), 0) FROM releases").fetchone()[0]) + 1
        fields = {"seq": seq, "time": _now(), "app_version": __version__, "dataset_sha256": sha, "request": spec.key,
                  "mechanism": mech, "noise_params": canonical_json(params), "cost": canonical_json(cost),
                  "result": canonical_json(spec.result_record(rel)),
                  "prev_hash": prev[0] if prev else chain.GENESIS}
        fields["hash"] = chain.row_hash(fields)
        conn.execute(f"INSERT INTO releases({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})",
                     tuple(fields.values()))
        sealed = chain.record_head(conn, seq, fields["hash"], project.path)
        sealed = dataclasses.replace(sealed, costs=copies.costs_of(fields["hash"], params["events"], read_sig))
        say("recorded")
        entry = _entry(conn.execute("SELECT * FROM releases WHERE seq = ?", (seq,)).fetchone())
    heads.remember(sealed)  # after the commit: the register never runs ahead of the file
    say("committed")
    _remember(project, ds, epsilon_text(after, budget.delta, up=True), frame)
    return entry


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
    sha = dataset_sha256(project, ds)
    with project.transaction() as conn:
        budget = _budget(conn)
        delta = budget.delta if budget is not None else Fraction(0)
        spec = release_spec(request, delta)
        replay = conn.execute("SELECT 1 FROM releases WHERE dataset_sha256 = ? AND request = ?",
                              (sha, spec.key)).fetchone() is not None
        own_events = _spent_events(conn)
        others = copies.of_project(project, conn)
        spent_events = own_events + list(others.events)
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
        message = str(_refusal(spec, ds.name, own_events, budget, others))
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
