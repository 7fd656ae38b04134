"""A recorded release (:class:`LedgerEntry`), the budget's refusal in words, and writing a release's row.

Shared by the release of imported data (:mod:`.releases`) and of linked data
(:mod:`.linked_release`): the hash-chained row, its seal and the register's costs are written
the same way whichever engine counted.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction

from dpdesk import __version__
from dpdesk.errors import BudgetError, in_app
from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central.request import canonical_json, describe
from dpdesk.mechanisms.central.spec import ReleaseSpec
from dpdesk.project.people import respondents
from dpdesk.project.ledger import chain, copies, heads
from dpdesk.project.ledger.budget import _Budget, _load, _now
from dpdesk.project.ledger.text import epsilon_text, number_text

__all__ = ["LedgerEntry", "LedgerTamperedError", "BudgetExceeded", "record", "refusal"]

BudgetExceeded = accounting.BudgetExceeded


class LedgerTamperedError(BudgetError):
    """The ledger was edited outside dpdesk; the project makes no more releases."""


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



def _entry(row, replayed: bool = False) -> LedgerEntry:
    return LedgerEntry(
        seq=row["seq"], time=row["time"], app_version=row["app_version"], dataset_sha256=row["dataset_sha256"],
        request=_load(row["request"]), mechanism=row["mechanism"], noise_params=_load(row["noise_params"]),
        cost=_load(row["cost"]), result=_load(row["result"]), prev_hash=row["prev_hash"], hash=row["hash"],
        replayed=replayed)



def _require_intact(project, conn) -> None:
    check = chain.check(conn, project.path, respondents=respondents.of_project(project),
                        people=respondents.signatures_of(project))
    if not check.ok:
        error = LedgerTamperedError if check.problems else heads.LedgerRolledBackError
        raise in_app(error(check.message(project.path)), check.message(project.path, app=True))



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
    app_fix = ""
    if floor is not None:
        lowered = number_text(floor['epsilon'], up=False)
        summary = summary.replace(" so it does not fit.", f" so it does not fit. The budget of these people was "
                                  f"lowered to {floor['budget']} in {floor['path']} (a copy of this project on this "
                                  f"computer), and the lower budget holds in every copy; {_floor_fix_cli(lowered)}",
                                  1)
        app_fix = (f"to fix it here too, lower this project's budget to {lowered} as well (Lower the budget… in "
                   f"Tabulate).")
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
    if app_fix:  # the command line's fix names a flag; the app's names its button
        in_app(exc, f"{_app_summary(summary, _floor_fix_cli(lowered), app_fix)}\n{details}")
    exc.summary, exc.details = summary, details
    return exc


def _floor_fix_cli(lowered: str) -> str:
    """The command line's fix for a budget lowered in a copy (the app's is in :func:`_refusal`)."""
    return f"to fix it here too: dpdesk budget PROJECT --set {lowered}."


def _app_summary(summary: str, cli_fix: str, app_fix: str) -> str:
    """``summary`` with its command-line fix (:func:`_floor_fix_cli`) in the app's words."""
    return summary.replace(cli_fix, app_fix, 1)


def _fits_floor(events, floor) -> bool:
    """Whether ``events`` fit the lowest budget of the shared history (a budget lowered in a copy)."""
    return floor is None or accounting.epsilon(list(events), floor["delta"]) <= floor["epsilon"]


def _no_budget(ds_name: str) -> BudgetError:
    from dpdesk.errors import in_app

    head = f"No privacy budget is set for the data of {ds_name!r} yet, so nothing can be released. "
    return in_app(BudgetError(head + "Set one first: dpdesk budget PROJECT --set 1 (Python: "
                              "ledger.set_budget(project, 1))."),
                  head + "Set one first: Tabulate > Set the privacy budget….")


def record(project, conn, spec: ReleaseSpec, budget: _Budget, after, rel, sha: str, ds_name: str, read_sig,
           extra: dict | None = None):
    """Append the release's hash-chained row and seal it (inside the caller's transaction).

    ``extra`` adds fields to the row's ``noise_params`` (a linked source: its engine and
    fingerprint). Returns (seq, the row's hash, the head to remember after the commit).
    """
    mech = {"laplace": "discrete_laplace", "gaussian": "discrete_gaussian"}.get(
        getattr(rel, "mechanism", spec.mechanism), "noisy_max")
    cost = {"epsilon": str(spec.cost), "delta": str(budget.delta), "spent_after": str(after),
            "budget": {"id": budget.id, "epsilon": str(budget.epsilon), "delta": str(budget.delta)}}
    rho = sum((e.rho for e in spec.events if isinstance(e, accounting.Gaussian)), Fraction(0))
    if rho:
        cost["rho"] = str(rho)
    params = {"dataset": ds_name, "events": [accounting.to_record(e) for e in spec.events],
              "noise": spec.noise_record(), **(extra or {})}
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
    return seq, fields["hash"], sealed


def require_intact(project, conn) -> None:
    _require_intact(project, conn)


def refusal(spec, ds_name, spent_events, budget, others=None):
    return _refusal(spec, ds_name, spent_events, budget, others)
