"""Confirming a rollback: the researcher says an older copy of the project is the one to go on with.

A file whose ledger is behind the head this computer last saw
(:mod:`dpdesk.project.ledger.heads`) makes no releases until :func:`accept_rollback` is
called (``dpdesk ledger PROJECT --accept-rollback``). The confirmation is recorded in the
project, in the ``app`` row ``ledger_rollbacks`` (a JSON list: when, the ledger the file has,
the head this computer had seen, where and when), and the ledger is sealed again with this
installation's key, the seal covering that record (:mod:`dpdesk.project.ledger.seal`).

Why an ``app`` row and not a row of ``releases``: a confirmation spends no budget, has no
request, noise or result, and must not appear where releases are counted, replayed,
composed by the accountant or exported; the seal makes removing or changing it as visible
on this computer as an edited release, and anyone can read it in the file.
"""

from __future__ import annotations

import datetime as _dt
from fractions import Fraction

from dpdesk import __version__
from dpdesk.errors import BudgetError
from dpdesk.mechanisms.central.request import canonical_json
from dpdesk.project.people import respondents
from dpdesk.project.ledger import chain, heads, history, key, seal
from dpdesk.project.ledger.releases import LedgerTamperedError
from dpdesk.project.ledger.text import epsilon_text

__all__ = ["accept_rollback", "rekey", "confirmed_text", "listed_text", "question_text"]


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def accept_rollback(project, *, note: str = "") -> dict:
    """Record that the researcher goes on with this copy although this computer saw a later ledger.

    Returns the record written. Raises :class:`LedgerTamperedError` if the ledger was edited
    (rows, budget or seal that disagree with what this computer sealed or saw), and
    :class:`BudgetError` if it is not behind (nothing to confirm) or is in a state this
    computer never sealed or saw (its head is not in the register of histories, and its seal
    is not this computer's): only a rollback to a state known here is confirmed, never an
    edit. ``note`` (optional) is kept with the record.

    A confirmed rollback never raises a budget: when this computer sealed a lower budget in
    the same budget history (the register's ``floors``, :func:`history.floor`), a budget row
    lowering the file's budget back to it is added in the same transaction, and the record
    says so (``budget_lowered_to``).
    """
    with project.transaction() as conn:
        check = chain.check(conn, project.path, respondents=respondents.of_project(project),
                        people=respondents.signatures_of(project))
        if check.problems:
            raise LedgerTamperedError(check.message(project.path))
        if check.rollback is None:
            raise BudgetError(f"The ledger of {project.path} is not behind the one this computer last saw, so "
                              "there is no rollback to confirm.")
        if not check.confirmable:
            raise BudgetError(f"The ledger of {project.path} is in a state this computer never sealed or saw "
                              f"({check.rollback}), so going on from it cannot be confirmed here. Go on with the "
                              "copy this computer saw.")
        seen = check.behind or heads.Head("", 0, "")
        shared = check.shared or {}
        record = {"time": _now(), "app_version": __version__, "releases": check.releases, "head": check.head,
                  "seen": check.rollback, "seen_releases": seen.seq, "seen_head": seen.head, "seen_time": seen.time,
                  "seen_path": seen.path or shared.get("path", ""), "path": str(project.path),
                  "note": str(note)[:1000], "kind": check.rollback_kind or "behind", "copy": check.copy}
        if shared:
            record.update(seen_releases=shared.get("seq", 0), seen_time=shared.get("time", ""),
                          shared_data=shared.get("name", ""), shared_budget=shared.get("budget", ""))
            if shared.get("kind") == "people":
                record.update(shared_people=True, shared_spent=shared.get("spent", ""))
        lowered = _keep_the_lowest_budget(conn, check)
        if check.rollback_kind == "key":  # re-keyed: the new key is made now (if missing) and named
            record.update(lost_key_id=check.lost_key, new_key_id=key.load(create=True).id)
        if lowered:
            record.update(lowered)
        records = seal.rollbacks(conn) + [record]
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)",
                     (seal.ROLLBACKS_KEY, canonical_json(records)))
        sealed = chain.record_head(conn, check.releases, check.head, project.path, new=False)
    heads.reset(sealed)  # after the commit, as for a release
    with project.transaction() as conn:  # the screens that show the check see the new state
        project.ledger_check = chain.check(conn, project.path, respondents=respondents.of_project(project),
                        people=respondents.signatures_of(project))
    return record


def rekey(project, *, note: str = "") -> dict:
    """Go on with a project sealed with this computer's own ledger key after that key was lost.

    Allowed only when the file's seal is of a key this computer's register recorded sealing with
    (``check.rollback_kind == "key"``) and the register holds the file's very state (its last release
    sealed here, budget rows extending those sealed). The re-keying is recorded in the project
    (``ledger_rollbacks``: kind "key", the lost and the new key id) and the ledger sealed with this
    computer's key (made now if it is missing). The releases before it are from then on verified
    against the register, which recorded them when they were sealed, not against the lost key."""
    with project.transaction() as conn:
        check = chain.check(conn, project.path, respondents=respondents.of_project(project),
                            people=respondents.signatures_of(project))
    if not check.problems and check.rollback_kind != "key":
        raise BudgetError(f"The ledger of {project.path} is not sealed with a lost key of this computer, so there is "
                          "nothing to re-key." + (f" ({check.rollback}; see dpdesk ledger.)" if check.rollback else ""))
    return accept_rollback(project, note=note)


def _keep_the_lowest_budget(conn, check) -> dict:
    """Lower the file's budget to the lowest this computer sealed in its budget history (same transaction)."""
    budgets = [list(r) for r in check.budgets]
    lowest = heads.read(lambda register: history.floor(register, budgets))
    if lowest is None or not budgets:
        return {}
    eps, delta = Fraction(budgets[-1][1]), Fraction(budgets[-1][2] or 0)
    if eps <= lowest["epsilon"] and delta <= lowest["delta"]:
        return {}
    eps, delta = min(eps, lowest["epsilon"]), min(delta, lowest["delta"])
    conn.execute("INSERT INTO budget(epsilon, delta, set_time, dataset_sha256) VALUES (?, ?, ?, NULL)",
                 (str(eps), str(delta), _now()))
    return {"budget_lowered_to": epsilon_text(eps, delta, up=False), "budget_lowered_time": lowest["time"],
            "budget_lowered_path": lowest["path"]}


def _on(time, path) -> str:
    when = str(time or "").replace("T", " ")
    return f"on {when} in {path}" if path else f"on {when}"


def _releases(first: int, last: int) -> tuple[str, str]:
    """("release #4", "stays") or ("releases #4-#6", "stay")."""
    return (f"release #{first}", "stays", "is") if first >= last else (f"releases #{first}-#{last}", "stay", "are")


def confirmed_text(record: dict) -> str:
    """What was confirmed, in words (the command line prints it, the app shows it)."""
    n, m = record.get("releases", 0), record.get("seen_releases", 0)
    where = _on(record.get("seen_time"), record.get("seen_path"))
    kind = record.get("kind", "behind")
    if kind == "key":
        text = (f"Re-keyed and recorded in the project: its releases #1-#{n} were sealed with this computer's former "
                f"ledger key (key id {record.get('lost_key_id', '?')}), which is lost; they were checked against this "
                "computer's register (the release hashes and budget rows it recorded when it sealed them), not "
                f"against that key. From now on the ledger is sealed with key id {record.get('new_key_id', '?')}. "
                "Other projects sealed with the lost key are re-keyed one by one the same way; a copy in a state this "
                "computer's register never held cannot be re-keyed here.")
    elif kind == "shared" and record.get("shared_people"):
        text = (f"Confirmed and recorded in the project: it is a project of its own, going on from its release "
                f"#{n}. It holds mostly the same people as releases this computer made (the latest {where}), which "
                f"spent {record.get('shared_spent', '')} on them: those releases count against this file's budget "
                "(the budget follows the people), so keep them together within what you promised them.")
    elif kind == "shared":
        text = (f"Confirmed and recorded in the project: it is a project of its own, going on from its release "
                f"#{n}. It holds the data {record.get('shared_data', '')!r} that this computer released from "
                f"{where} (budget {record.get('shared_budget', '')}): the spending of both counts against the same "
                "respondents, so keep them together within what you promised them.")
    elif kind == "budget":
        text = (f"Rollback confirmed and recorded in the project: it goes on at release #{n} with the budget rows "
                f"of a state this computer sealed before it lowered the budget ({where}).")
    elif record.get("copy"):
        gone, stay, _are = _releases(n + 1, m)
        text = (f"Confirmed and recorded in the project: this copy goes on from release #{n}. The other file went on "
                f"to release #{m} ({where}); {gone} {stay} recorded there, not in this copy. Both "
                "copies spend from the same respondents' budget: on this computer, the releases each makes after the "
                "split count in the other's budget too (Tabulate and dpdesk budget show them).")
    else:
        gone, _stay, are = _releases(n + 1, m)
        text = (f"Rollback confirmed and recorded in the project: it goes on from release #{n}, although this "
                f"computer had seen release #{m} ({where}). The spending of {gone} is no longer counted in this "
                f"file: make sure {'it was' if are == 'is' else 'they were'} never published.")
    if record.get("budget_lowered_to"):
        text += (f" Its privacy budget was lowered back to {record['budget_lowered_to']}, the lowest this computer "
                 f"sealed for this history ({_on(record.get('budget_lowered_time'), record.get('budget_lowered_path'))}"
                 "): a confirmed rollback never raises a budget.")
    return text


def listed_text(record: dict) -> str:
    """One line per confirmation recorded in a file, for ``dpdesk ledger``'s listing."""
    when, n, m = record.get("time", "?"), record.get("releases", "?"), record.get("seen_releases", "?")
    kind = record.get("kind", "behind")
    if kind == "key":
        text = (f"Re-keyed on {when}: releases #1-#{n} were sealed with the lost key id "
                f"{record.get('lost_key_id', '?')} and checked against this computer's register; sealed since with "
                f"key id {record.get('new_key_id', '?')}.")
    elif kind == "shared":
        text = (f"Confirmed on {when}: a project of its own from release #{n}, holding data this computer released "
                f"from in {record.get('seen_path', '?')}.")
    elif kind == "budget":
        text = (f"Confirmed rollback on {when}: went on at release #{n} with the budget rows from before the budget "
                "was lowered.")
    elif record.get("copy"):
        text = f"Confirmed on {when}: this copy went on from release #{n}; the other file went on to release #{m}."
    else:
        text = f"Confirmed rollback on {when}: went on from release #{n} although release #{m} had been seen."
    if record.get("budget_lowered_to"):
        text += f" The budget was lowered back to {record['budget_lowered_to']}."
    return text + (f" Note: {record['note']}" if record.get("note") else "")


def question_text(check) -> str:
    """The question the app asks before confirming (the rollback, then what confirming does)."""
    said = check.rollback[0].upper() + check.rollback[1:]
    if check.rollback_kind == "key":
        return (f"{said}.\n\nRe-key this project? Its releases and budget rows were checked against this computer's "
                "register, which recorded them when they were sealed; the ledger is sealed with this computer's new "
                "key, and the re-keying is recorded in the project. If you have a backup of your data folder, restore "
                "its ledger.key instead.")
    if check.rollback_kind == "shared":
        return (f"{said}.\n\nGo on with it as a project of its own? Its spending then counts against the same "
                "respondents as the releases made here, so keep both within what you promised them; if it is a "
                "rewrite of that ledger, its spending would be forgotten. The confirmation is recorded in the project.")
    if check.rollback_kind == "budget":
        return (f"{said}.\n\nGo on with this copy? Its budget is lowered back to the lowest this computer sealed "
                "(a confirmed rollback never raises a budget). The confirmation is recorded in the project.")
    if check.copy:
        return (f"{said}.\n\nGo on with this copy? The releases of the other file stay recorded there; both "
                "copies spend from the same respondents' budget, and a budget lowered in the other is kept. The "
                "confirmation is recorded in the project.")
    return (f"{said}.\n\nGo on with this copy? The spending of the releases missing from it will no longer be "
            "counted, so confirm only if they were never published. A budget lowered since is kept. The "
            "confirmation is recorded in the project.")
