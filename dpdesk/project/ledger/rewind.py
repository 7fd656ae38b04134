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

from dpdesk import __version__
from dpdesk.errors import BudgetError
from dpdesk.mechanisms.central.request import canonical_json
from dpdesk.project.ledger import chain, heads, seal
from dpdesk.project.ledger.releases import LedgerTamperedError

__all__ = ["accept_rollback"]


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
    """
    with project.transaction() as conn:
        check = chain.check(conn, project.path)
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
        record = {"time": _now(), "app_version": __version__, "releases": check.releases, "head": check.head,
                  "seen": check.rollback, "seen_releases": seen.seq, "seen_head": seen.head, "seen_time": seen.time,
                  "seen_path": seen.path, "path": str(project.path), "note": str(note)[:1000]}
        records = seal.rollbacks(conn) + [record]
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)",
                     (seal.ROLLBACKS_KEY, canonical_json(records)))
        sealed = chain.record_head(conn, check.releases, check.head, project.path, new=False)
    heads.reset(sealed)  # after the commit, as for a release
    with project.transaction() as conn:  # the screens that show the check see the new state
        project.ledger_check = chain.check(conn, project.path)
    return record
