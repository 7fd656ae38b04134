"""The hash chain of the release ledger, and the check that finds edits made outside dpdesk.

Each row of ``releases`` carries ``hash = SHA-256(canonical JSON of the row's fields,
prev_hash included)`` and ``prev_hash`` = the previous row's hash (64 zeros for the first).
The JSON columns are hashed as the text stored, so verification never re-serialises.
The ``app`` row ``ledger_head`` = "<number of releases>:<last hash>" is written in the same
transaction, so a deleted last release is found too.

:func:`check` also looks for the append-only triggers of the schema, for budgets that
were raised (the budget rows per dataset must never increase) and for budget rows that
changed after a release recorded them.

What this guarantees: any change made with another tool (sqlite3, DB Browser) that does
not recompute every later hash is found. The chain has no secret key, so it cannot stop
someone who rewrites the whole chain on purpose; it makes an accidental or casual edit
visible and stops further releases from a ledger that no longer adds up.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from fractions import Fraction

from dpdesk.mechanisms.central.request import canonical_json

__all__ = ["GENESIS", "row_hash", "check", "LedgerCheck", "HEAD_KEY", "TRIGGERS"]

GENESIS = "0" * 64
HEAD_KEY = "ledger_head"
HASHED = ("seq", "time", "app_version", "dataset_sha256", "request", "mechanism", "noise_params",
          "cost", "result", "prev_hash")
TRIGGERS = ("releases_no_update", "releases_no_delete", "budget_no_update", "budget_no_delete",
            "budget_never_raised")


def row_hash(row) -> str:
    """SHA-256 hex of the canonical JSON of the hashed fields (``prev_hash`` included)."""
    payload = canonical_json({k: row[k] for k in HASHED})
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass
class LedgerCheck:
    """Result of :func:`check`: ``ok`` when nothing was edited; ``problems`` say what was."""

    releases: int = 0
    problems: list[str] = field(default_factory=list)
    head: str = GENESIS

    @property
    def ok(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.ok

    def message(self, path) -> str:
        shown = "; ".join(self.problems[:3]) + (f"; and {len(self.problems) - 3} more" if len(self.problems) > 3 else "")
        return (f"The release ledger of {path} was edited outside dpdesk ({shown}). The recorded "
                f"privacy spending can no longer be trusted, so this project makes no more releases. "
                f"Restore the project from a backup made before the edit.")


def check(conn: sqlite3.Connection) -> LedgerCheck:
    """Verify the chain, the head, the triggers and the budgets (read only)."""
    out = LedgerCheck()
    present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    for name in TRIGGERS:
        if name not in present:
            out.problems.append(f"the protecting trigger {name} was removed")
    prev = GENESIS
    budget_refs = {}
    for row in conn.execute("SELECT * FROM releases ORDER BY seq"):
        out.releases += 1
        seq = row["seq"]
        if row["prev_hash"] != prev:
            out.problems.append(f"release #{seq} does not follow the release before it "
                                "(a release was deleted, inserted or changed)")
        if row_hash(row) != row["hash"]:
            out.problems.append(f"release #{seq} was changed after it was recorded")
        try:
            ref = json.loads(row["cost"]).get("budget") or {}
            if ref:
                budget_refs[int(ref["id"])] = (ref["epsilon"], ref["delta"], seq)
        except (ValueError, TypeError, KeyError, AttributeError):
            out.problems.append(f"release #{seq} has an unreadable cost")
        prev = row["hash"]
    out.head = prev
    head = conn.execute("SELECT value FROM app WHERE key = ?", (HEAD_KEY,)).fetchone()
    expected = f"{out.releases}:{prev}" if out.releases else None
    if (head[0] if head else None) != expected:
        out.problems.append("the ledger's last release does not match the recorded head "
                            "(a release was deleted or added)")
    _check_budgets(conn, budget_refs, out)
    return out


def _check_budgets(conn, refs: dict, out: LedgerCheck) -> None:
    """Budget rows never rise: per dataset until schema v2, then for the whole project.

    Project budgets (schema v3) have no dataset: the first one is at most every budget set
    before it (the migration takes the smallest), each later one at most the one before,
    and no budget for one dataset may follow them.
    """
    latest: dict = {}
    earlier: list[tuple[Fraction, Fraction]] = []
    project = None
    rows = {r["id"]: r for r in conn.execute("SELECT * FROM budget ORDER BY id")}
    for r in rows.values():
        try:
            eps, delta = Fraction(r["epsilon"]), Fraction(r["delta"])
        except (ValueError, ZeroDivisionError, TypeError):
            out.problems.append(f"budget row {r['id']} is not an exact fraction")
            continue
        key = r["dataset_sha256"]
        if project is not None:
            raised = key is not None or eps > project[0] or delta > project[1]
        elif key is None:
            raised = any(eps > e or delta > d for e, d in earlier)
        else:
            raised = key in latest and (eps > latest[key][0] or delta > latest[key][1])
        if raised:
            out.problems.append(f"budget row {r['id']} raises the budget")
        if key is None:
            project = (eps, delta)
        latest[key] = (eps, delta)
        earlier.append((eps, delta))
    for bid, (eps, delta, seq) in refs.items():
        r = rows.get(bid)
        if r is None or (r["epsilon"], r["delta"]) != (eps, delta):
            out.problems.append(f"the budget in force at release #{seq} was changed or deleted")
