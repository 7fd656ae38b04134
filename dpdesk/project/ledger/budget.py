"""The privacy budget of a project: set once, lowered never raised, spending composed exactly.

One budget per project covers every dataset imported into it: the budget protects the
people in the data, whatever files they arrive in. Re-importing, correcting a cell,
importing a subset or a superset, or removing a dataset never resets it or gives any of it
back (schema v3; older files were migrated conservatively: the smallest budget ever set,
with every recorded release spent from it). Releases still record the SHA-256 of the data
they read, so an identical request on identical data is answered from the ledger.
Pure-epsilon spending is the exact sum of the releases' epsilons (Fractions; Dwork & Roth
2014, thm 3.16); with a delta it is the (epsilon, delta) of their composition by a
privacy-loss-distribution accountant (:func:`dpdesk.mechanisms.accounting.epsilon`).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
import sqlite3
from dataclasses import dataclass
from fractions import Fraction

from dpdesk.errors import BudgetError, DataError, ProjectError, in_app
from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central.request import canonical_json
from dpdesk.project.study.active import dataset_named
from dpdesk.project.people import respondents
from dpdesk.project.study.items import loads
from dpdesk.project.ledger import chain, heads
from dpdesk.project.ledger.text import epsilon_text

__all__ = ["BudgetStatus", "set_budget", "lower_budget", "budget_status", "dataset_sha256"]


@dataclass(frozen=True)
class BudgetStatus:
    """The project's budget: exact totals and spending, and texts rounded safely.

    ``dataset`` and ``dataset_sha256`` name the active dataset (empty when there is none):
    what the next release would read, not what the budget belongs to.

    ``spent_text`` is rounded up and ``remaining_text`` (and ``total_text``) down, never in
    the user's favour. ``spent_epsilon`` is ``math.inf`` if Gaussian releases were made and
    the delta was later lowered to 0.
    """

    dataset: str
    dataset_sha256: str
    total_epsilon: Fraction
    total_delta: Fraction
    spent_epsilon: Fraction | float
    remaining_epsilon: Fraction
    releases: int
    total_text: str
    spent_text: str
    remaining_text: str
    ledger_intact: bool = True
    #: this file's own spending (``spent_*`` is it together with that of its copies, composed)
    spent_here_epsilon: Fraction | float = Fraction(0)
    spent_here_text: str = ""
    #: the spending of copies of this project on this computer after they split from this file
    #: (:mod:`dpdesk.project.ledger.copies`): their text, and (path, releases, text) per copy
    copies_text: str = ""
    copies: tuple = ()
    #: False when the copies' spending could not be checked (``copies_unchecked`` says why)
    copies_checked: bool = True
    copies_unchecked: str = ""
    #: a budget lowered in a copy after the split (the lowest this computer sealed in the shared budget
    #: history): it holds here too; its text and where it was lowered ("" when none)
    people_budget_text: str = ""
    lowered_in: str = ""
    #: the files in ``copies`` charged because they released from the same people (not copies of this one)
    people_files: tuple = ()

    @property
    def people_text(self) -> str:
        """"spent here X, in copies on this computer Y, left Z of the people's budget W" (the copies
        only when there are some; said as not checked when the register could not be read)."""
        text = f"spent here {self.spent_here_text or self.spent_text}"
        if self.copies:
            where = "copies and other files of these people" if self.people_files else "copies"
            text += f", in {where} on this computer {self.copies_text}"
        text += f", left {self.remaining_text} of the people's budget {self.people_budget_text or self.total_text}"
        if self.lowered_in:
            text += f" (lowered in {self.lowered_in})"
        if not self.copies_checked:
            text += " (the spending of copies on this computer could not be checked)"
        return text


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _dataset(project, name: str | None):
    """The dataset a release reads: ``name``, or the active one; never a counts table."""
    try:
        ds = dataset_named(project, name)
    except DataError as exc:
        raise ProjectError(str(exc)) from None
    opts = ds.options if isinstance(ds.options, dict) else {}
    report = ds.report if isinstance(ds.report, dict) else {}
    if opts.get("kind") == "counts" or report.get("kind") == "counts":
        raise BudgetError(f"The dataset {ds.name!r} is a counts table, not one row per respondent, so "
                          "the noise would not protect individuals. Release from the respondent-level data.")
    return ds


def dataset_sha256(project, ds) -> str:
    """The SHA-256 a release records as the data it read: the imported file's, else the stored rows'."""
    if ds.sha256:
        return str(ds.sha256)
    import pandas as pd

    frame = project.dataset_frame(ds.name)
    digest = hashlib.sha256()
    digest.update(canonical_json([[str(c), str(t)] for c, t in frame.dtypes.items()]).encode())
    digest.update(pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class _Budget:
    id: int
    epsilon: Fraction
    delta: Fraction


def _budget(conn) -> _Budget | None:
    """The project's budget: its latest (lowest) row."""
    row = conn.execute("SELECT id, epsilon, delta FROM budget ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else _Budget(row["id"], Fraction(row["epsilon"]), Fraction(row["delta"]))


def _budget_args(epsilon, delta, *, allow_zero: bool = False) -> tuple[Fraction, Fraction]:
    eps = accounting.as_fraction(epsilon, "epsilon")
    d = accounting.as_fraction(delta, "delta")
    if eps < 0 or (eps == 0 and not allow_zero):
        raise BudgetError(f"The total epsilon must be positive (e.g. 1); got {epsilon!r}.")
    if not 0 <= d < 1:
        raise BudgetError(f"delta must be 0 (pure epsilon) or a small probability such as 1e-6; got {delta!r}.")
    return eps, d


def _insert_budget(project, conn, eps: Fraction, d: Fraction):
    """Add a budget row and seal again; returns the register's entry (remember it after the commit)."""
    before = chain.check(conn, project.path, respondents=respondents.of_project(project),
                        people=respondents.signatures_of(project))
    try:
        conn.execute("INSERT INTO budget(epsilon, delta, set_time, dataset_sha256) VALUES (?, ?, ?, NULL)",
                     (str(eps), str(d), _now()))
    except sqlite3.IntegrityError as exc:
        raise BudgetError(f"The privacy budget could not be changed: {exc}.") from exc
    return chain.reseal(conn, before, project.path)  # the seal covers the budget rows too


def set_budget(project, epsilon, delta=0, *, dataset: str | None = None) -> BudgetStatus:
    """Set the project's privacy budget, once (then it can only be lowered).

    ``delta = 0`` is a pure-epsilon budget (Laplace noise); ``delta > 0`` also allows
    Gaussian noise, and spending is composed by the PLD accountant at that delta. The budget
    covers every dataset of the project; ``dataset`` is accepted for compatibility and only
    names the dataset the returned status reports as active.
    """
    eps, d = _budget_args(epsilon, delta)
    news = None
    with project.transaction() as conn:
        current = _budget(conn)
        if current is not None and (current.epsilon, current.delta) != (eps, d):
            head = (f"This project already has a privacy budget of {epsilon_text(current.epsilon, current.delta)}. "
                    f"It covers everyone in the project's data, whatever files they arrive in, so it is set once: "
                    f"it can be lowered ")
            raise in_app(BudgetError(head + "(lower_budget, or dpdesk budget --set with a smaller value), never "
                                     "raised."), head + "(Set the privacy budget… in Tabulate), never raised.")
        if current is None:
            news = _insert_budget(project, conn, eps, d)
    _remember(news)
    return budget_status(project, dataset)


def _remember(news) -> None:
    """After the commit: this computer sealed this budget (never before: the register never runs ahead)."""
    if news is not None:
        heads.remember(news)


def lower_budget(project, epsilon, delta=None, *, dataset: str | None = None) -> BudgetStatus:
    """Lower the project's budget (``delta=None`` keeps the delta); raising is refused."""
    news = None
    with project.transaction() as conn:
        current = _budget(conn)
        if current is None:
            from dpdesk.errors import in_app

            raise in_app(BudgetError("This project has no privacy budget yet; set one first "
                                     "(set_budget, or dpdesk budget PROJECT --set EPS)."),
                         "This project has no privacy budget yet; set one first: Tabulate > Set the privacy budget….")
        eps, d = _budget_args(epsilon, current.delta if delta is None else delta, allow_zero=True)
        if eps > current.epsilon or d > current.delta:
            raise BudgetError(
                f"The project's privacy budget can be lowered, never raised: it is "
                f"{epsilon_text(current.epsilon, current.delta)} and {epsilon_text(eps, d)} was asked. A raised "
                f"budget would let new releases add to the ones already published beyond what was promised "
                f"to these respondents.")
        if (eps, d) != (current.epsilon, current.delta):
            news = _insert_budget(project, conn, eps, d)
    _remember(news)
    return budget_status(project, dataset)


def _load(text: str) -> dict:
    """A JSON column; text edited into something unreadable comes back as {"unreadable": text}."""
    try:
        value = loads(text)
    except ValueError:
        return {"unreadable": text}
    return value if isinstance(value, dict) else {"unreadable": text}


def _spent_events(conn) -> list:
    """The privacy events of every release of the project (unreadable ones, only possible
    in a ledger edited outside dpdesk, which refuses releases, are left out)."""
    events = []
    for (params,) in conn.execute("SELECT noise_params FROM releases ORDER BY seq"):
        try:
            events.extend(accounting.from_record(e) for e in _load(params)["events"])
        except (KeyError, TypeError, ValueError, ZeroDivisionError, accounting.NoiseParameterError):
            continue
    return events


def _status(conn, ds_name: str, sha: str, budget: _Budget, intact: bool, others=None) -> BudgetStatus:
    events = _spent_events(conn)
    n = conn.execute("SELECT count(*) FROM releases WHERE mechanism != 'relink'").fetchone()[0]  # relinks: no cost
    here = accounting.epsilon(events, budget.delta)
    copies_text, per_copy, checked, why = "", (), True, ""
    spent = here
    if others is not None:
        checked, why = others.checked, others.unchecked
        if others.events:
            spent = accounting.epsilon(events + list(others.events), budget.delta)
            copies_text = epsilon_text(accounting.epsilon(list(others.events), budget.delta), budget.delta, up=True)
            per_copy = tuple((c.path, c.releases, epsilon_text(accounting.epsilon(list(c.events), budget.delta),
                                                               budget.delta, up=True)) for c in others.copies)
    remaining = max(Fraction(0), budget.epsilon - spent) if spent != math.inf else Fraction(0)
    people_files = tuple(c.path for c in others.copies if c.kind == "people") if others is not None else ()
    people, lowered_in = "", ""
    if others is not None and others.floor is not None:  # a budget lowered in a copy holds here too
        from dpdesk.project.ledger.copies import floor_remaining

        remaining = min(remaining, floor_remaining(events + list(others.events), others.floor))
        people, lowered_in = others.floor["budget"], str(others.floor["path"])
    return BudgetStatus(
        dataset=ds_name, dataset_sha256=sha, total_epsilon=budget.epsilon, total_delta=budget.delta,
        spent_epsilon=spent, remaining_epsilon=remaining, releases=n,
        total_text=epsilon_text(budget.epsilon, budget.delta, up=False),
        spent_text=epsilon_text(spent, budget.delta, up=True),
        remaining_text=epsilon_text(remaining, budget.delta, up=False),
        ledger_intact=intact, spent_here_epsilon=here, spent_here_text=epsilon_text(here, budget.delta, up=True),
        copies_text=copies_text, copies=per_copy, copies_checked=checked, copies_unchecked=why,
        people_budget_text=people, lowered_in=lowered_in, people_files=people_files)


def budget_status(project, dataset: str | None = None) -> BudgetStatus | None:
    """Total, spent and remaining budget of the project (None when no budget was set).

    Spending counts every release from any of the project's data, and the releases other copies
    of the project on this computer made from the same respondents after they split from this
    file (:mod:`dpdesk.project.ledger.copies`; ``spent_here_*`` is this file's alone). ``dataset``
    (default: the active one) is only named in the status as what the next release would read.
    """
    ds = None
    if project.datasets():
        ds = dataset_named(project, dataset)
    sha = dataset_sha256(project, ds) if ds is not None else ""
    with project.transaction() as conn:  # one consistent snapshot
        budget = _budget(conn)
        if budget is None:
            return None
        intact = chain.check(conn, project.path, respondents=respondents.of_project(project),
                        people=respondents.signatures_of(project)).ok
        from dpdesk.project.ledger import copies

        return _status(conn, ds.name if ds is not None else "", sha, budget, intact, copies.of_project(project, conn))
