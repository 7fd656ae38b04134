"""The seal on a project's ledger: an HMAC-SHA-256, with this installation's key, of its head.

The release rows keep their public SHA-256 chain (:func:`dpdesk.project.ledger.chain.row_hash`),
which anyone can recompute. The ``app`` row ``ledger_seal`` adds what nobody can recompute
without the key (:mod:`dpdesk.project.ledger.key`)::

    mac = HMAC-SHA-256(key, canonical JSON of {v, key_id, project_id, seq, head, since, rollbacks, budgets})

``head`` is the hash of release ``seq``, which covers (through ``prev_hash``) every release
before it, so the MAC covers the whole ledger: an edit followed by recomputing every hash
changes ``head`` and, without the key, cannot produce a matching MAC. ``rollbacks`` is the
SHA-256 of the ``ledger_rollbacks`` row (the rollbacks the researcher confirmed), so that
record cannot be removed unseen either; ``budgets``, of the ``budget`` rows, so a lowered
budget cannot be deleted to bring a higher one back (the ledger is sealed again whenever a
budget is set or lowered). ``since`` is the number of releases the ledger had
when this key first sealed it: releases up to it were made before (by a dpdesk without
seals, or on another computer) and were checked by structure only when the seal was put on.
A seal made by another installation (another ``key_id``) cannot be checked here.

Older, unsealed ledgers are not rewritten: they keep verifying by structure, and their first
release with this version seals them (``since`` records where).

The project's id (``app`` row ``project_id``) names it in the register of heads
(:mod:`dpdesk.project.ledger.heads`). A project gets a new random id with its first release,
so copies of an empty template, or saved under another name before any release, are
projects of their own. Files without one (every file made before seals) get an id derived
from their creation time and creator, which copies share; it is written into the file with
the first seal, so it stays the same afterwards. The id only names a project; the register
recognises a history by its releases' hashes (:mod:`dpdesk.project.ledger.history`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import asdict, dataclass, field

from dpdesk.mechanisms.central.request import canonical_json
from dpdesk.project.ledger import history
from dpdesk.project.ledger.key import InstallationKey

__all__ = ["Seal", "SealCheck", "project_identity", "verify", "write", "rollbacks", "SEAL_KEY", "ID_KEY",
           "ROLLBACKS_KEY"]

SEAL_KEY = "ledger_seal"
ID_KEY = "project_id"
ROLLBACKS_KEY = "ledger_rollbacks"
VERSION = 1


@dataclass(frozen=True)
class Seal:
    key_id: str
    project_id: str
    seq: int
    head: str
    since: int
    rollbacks: str
    budgets: str
    mac: str = ""

    def payload(self) -> str:
        body = {k: v for k, v in asdict(self).items() if k != "mac"}
        return canonical_json(dict(body, v=VERSION))


@dataclass
class SealCheck:
    """What the seal says: ``mine`` when it is this installation's and its MAC holds."""

    seal: Seal | None = None
    mine: bool = False
    sealed_to: int = 0
    verified_from: int = 0
    problems: list[str] = field(default_factory=list)


def _app(conn, key: str) -> str | None:
    row = conn.execute("SELECT value FROM app WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def project_identity(conn) -> str:
    """The project's stable id: the ``project_id`` row, else one derived from its creation."""
    stored = _app(conn, ID_KEY)
    if isinstance(stored, str) and 0 < len(stored) <= 100:
        return stored
    created = f"{_app(conn, 'created_at')}\0{_app(conn, 'created_by')}"
    return "p-" + hashlib.sha256(created.encode("utf-8", "replace")).hexdigest()[:32]


def _digest(value) -> str:
    if value is None:
        return ""
    data = value if isinstance(value, bytes) else str(value).encode("utf-8", "replace")
    return hashlib.sha256(data).hexdigest()


def _budgets_digest(conn) -> str:
    return history.budgets_digest(history.budget_rows(conn))


def rollbacks(conn) -> list[dict]:
    """The rollbacks the researcher confirmed, oldest first (unreadable: an empty list)."""
    try:
        value = json.loads(_app(conn, ROLLBACKS_KEY) or "[]")
    except (ValueError, RecursionError):  # RecursionError: JSON nested beyond any record's depth
        return []
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def _same(mac: str, stored: str) -> bool:
    """Constant-time comparison (of bytes: the stored text may hold anything)."""
    return hmac.compare_digest(mac.encode("ascii"), stored.encode("utf-8", "replace"))


def _read(conn) -> tuple[Seal | None, str | None]:
    raw = _app(conn, SEAL_KEY)
    if raw is None:
        return None, None
    try:
        d = json.loads(raw)
        seal = Seal(key_id=str(d["key_id"]), project_id=str(d["project_id"]), seq=int(d["seq"]),
                    head=str(d["head"]), since=int(d["since"]), rollbacks=str(d["rollbacks"]),
                    budgets=str(d["budgets"]), mac=str(d["mac"]))
        if d.get("v") != VERSION:
            raise ValueError("unknown seal version")
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError, RecursionError):
        return None, "the ledger's seal is unreadable (it was edited outside dpdesk)"
    return seal, None


def verify(conn, project_id: str, hashes: list[str], key: InstallationKey | None) -> SealCheck:
    """Check the seal against the releases' ``hashes`` (in order) with this installation's key."""
    seal, problem = _read(conn)
    out = SealCheck(seal=seal, problems=[problem] if problem else [])
    if seal is None or key is None or seal.key_id != key.id:
        return out
    if not _same(key.mac(seal.payload()), seal.mac):
        out.problems.append("the ledger's seal does not match it: the seal or the releases were changed without "
                            "this computer's key")
        return out
    n = len(hashes)
    if seal.project_id != project_id:
        out.problems.append("the project's id was changed after this computer sealed its ledger")
    if seal.rollbacks != _digest(_app(conn, ROLLBACKS_KEY)):
        out.problems.append("the record of confirmed rollbacks was changed or removed")
    if seal.budgets != _budgets_digest(conn):
        out.problems.append("the budget rows were changed after this computer sealed the ledger (a lowered "
                            "budget removed, or one added outside dpdesk)")
    if seal.seq > n:
        out.problems.append(f"releases after #{n} were deleted: this computer sealed the ledger at release "
                            f"#{seal.seq}")
    elif seal.seq and hashes[seal.seq - 1] != seal.head:
        out.problems.append(f"the releases up to #{seal.seq} are not the ones this computer sealed (they were "
                            "changed, and their hashes recomputed)")
    if not out.problems:
        out.mine, out.sealed_to, out.verified_from = True, seal.seq, seal.since + 1
    return out


def write(conn, seq: int, head: str, key: InstallationKey, *, new: bool = True, fresh_id: bool = False) -> Seal:
    """Seal the ledger at release ``seq`` with hash ``head`` (inside the caller's transaction).

    ``new``: release ``seq`` was just recorded by this installation (else the seal is put on
    a ledger as it stands, e.g. after a confirmed rollback). The caller has verified the
    ledger in the same transaction. ``fresh_id``: give the project a new random id (its first
    release: copies made before it become projects of their own).
    """
    project_id = "p-" + secrets.token_hex(16) if fresh_id else project_identity(conn)
    if _app(conn, ID_KEY) != project_id:
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)", (ID_KEY, project_id))
    previous, _problem = _read(conn)
    ours = (previous is not None and previous.key_id == key.id and previous.since <= seq
            and _same(key.mac(previous.payload()), previous.mac))
    # first seal by this installation: what came before was checked by structure only
    since = previous.since if ours else max(0, seq - 1 if new else seq)
    seal = Seal(key.id, project_id, seq, head, since, _digest(_app(conn, ROLLBACKS_KEY)), _budgets_digest(conn))
    seal = Seal(**dict(asdict(seal), mac=key.mac(seal.payload())))
    conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)",
                 (SEAL_KEY, canonical_json(dict(asdict(seal), v=VERSION))))
    return seal
