"""The releases this computer made from the same people, found by their sketch, whatever file holds them.

The register of heads (``<user data folder>/ledger/heads.sqlite``) keeps, beside each release's
``costs`` (:mod:`dpdesk.project.ledger.history`):

- ``people``: per respondents' fingerprint, the name-free sketch of the rows a release read
  (:mod:`dpdesk.project.people.sketch`; no row of data);
- ``spent_on``: per release made here, the fingerprint of the people it read.

:func:`matching` compares a file's datasets (their signatures, computed from the rows) with
every sketch in ``people``; a file holds *the same people* as a release when their containment
is at least :data:`dpdesk.project.people.sketch.SAME_PEOPLE` in either direction (renamed
columns, a few respondents deleted or added, a few answers changed are still the same people).
The budget check charges those releases to any file holding the people
(:mod:`dpdesk.project.ledger.copies`), and the ledger's check stops a file holding them under a
history this computer did not seal (:mod:`dpdesk.project.ledger.chain`). The work is bounded:
at most :data:`MAX_SKETCHES` sketches are compared.
"""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction

from dpdesk.mechanisms import accounting
from dpdesk.project.people.sketch import SAME_PEOPLE, same_people_of
from dpdesk.project.ledger.text import epsilon_text

__all__ = ["DDL", "record", "matching", "releases_of", "found", "MAX_SKETCHES"]

MAX_SKETCHES = 5000

DDL = (
    """CREATE TABLE IF NOT EXISTS people (
    fingerprint TEXT PRIMARY KEY,
    sketch      TEXT NOT NULL,
    time        TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS spent_on (
    hash        TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    path        TEXT NOT NULL,
    time        TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS spent_on_people ON spent_on(fingerprint)",
)


def record(conn, costs, path: str, time: str) -> None:
    """Remember the people each release in ``costs`` ((hash, events, signature JSON)) read."""
    for release_hash, _events, text in costs:
        try:
            sig = json.loads(text) if text else None
        except ValueError:
            continue
        if not isinstance(sig, dict) or not isinstance(sig.get("people"), dict) or not sig.get("fingerprint"):
            continue
        fp = str(sig["fingerprint"])
        conn.execute("INSERT OR IGNORE INTO people(fingerprint, sketch, time) VALUES (?, ?, ?)",
                     (fp, json.dumps(sig["people"]), time))
        _upgrade(conn, fp, sig["people"])
        conn.execute("INSERT OR IGNORE INTO spent_on(hash, fingerprint, path, time) VALUES (?, ?, ?, ?)",
                     (release_hash, fp, path, time))


def _upgrade(conn, fp: str, people: dict) -> None:
    """The same rows (``fp``) released again by a newer sketch version: the entry takes the newer sketch, which
    linked sources can match, and keeps the older one inside it (``people_v2``); never the reverse."""
    row = conn.execute("SELECT sketch FROM people WHERE fingerprint = ?", (fp,)).fetchone()
    try:
        kept = json.loads(row[0]) if row is not None else None
        older = int(kept.get("v") or 0) < int(people.get("v") or 0)
    except (ValueError, TypeError, AttributeError):
        return
    if older:
        conn.execute("UPDATE people SET sketch = ? WHERE fingerprint = ?",
                     (json.dumps(dict(people, **{f"people_v{kept.get('v')}": kept})), fp))


def _has_tables(conn) -> bool:
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return {"people", "spent_on", "costs"} <= names


def matching(conn, signatures, at_least: float = SAME_PEOPLE) -> dict[str, float]:
    """fingerprint -> share, for every released people's sketch sharing at least ``at_least`` with one of
    ``signatures`` (the file's, each with a ``people`` sketch)."""
    exact = {str(s.get("fingerprint")) for s in signatures if isinstance(s, dict) and s.get("fingerprint")}
    mine = [s for s in signatures if isinstance(s, dict) and isinstance(s.get("people"), dict)]
    if not (mine or exact) or not _has_tables(conn):
        return {}
    out: dict[str, float] = {}
    for fp, text in conn.execute("SELECT fingerprint, sketch FROM people LIMIT ?", (MAX_SKETCHES,)):
        if str(fp) in exact:  # the very same rows (also those whose rows do not tell people apart)
            out[str(fp)] = 1.0
            continue
        if not mine:
            continue
        try:
            theirs = json.loads(text)
            share = max(same_people_of(m, theirs) for m in mine)  # by the definition (version) it was kept in
        except (ValueError, TypeError, AttributeError):
            continue
        if share >= at_least:
            out[str(fp)] = share
    return out


def releases_of(conn, fingerprints) -> list:
    """Register rows (hash, events, path, time, seq) of the releases made here from these people."""
    fps = sorted(fingerprints)
    rows = []
    for i in range(0, len(fps), 500):
        part = fps[i:i + 500]
        rows += conn.execute(
            "SELECT s.hash, c.events, s.path, s.time, r.seq FROM spent_on s JOIN costs c ON c.hash = s.hash "
            f"LEFT JOIN releases r ON r.hash = s.hash WHERE s.fingerprint IN ({', '.join('?' * len(part))})",
            part).fetchall()
    return rows


def _events(rows) -> list:
    out = []
    for row in rows:
        try:
            out += [accounting.from_record(e) for e in json.loads(row[1])]
        except (ValueError, KeyError, TypeError, ZeroDivisionError, accounting.NoiseParameterError):
            continue
    return out


def spent_text(rows, delta) -> str:
    """What ``rows`` spent, composed at ``delta`` (pure epsilon: exactly), rounded up."""
    spent = accounting.epsilon(_events(rows), Fraction(delta))
    if spent == float("inf"):
        return "an epsilon without bound at δ = 0 (Gaussian noise)"
    return epsilon_text(spent, Fraction(delta), up=True)


def found(conn, signatures, delta=0, exclude=(), at_least: float = SAME_PEOPLE) -> dict | None:
    """The releases this computer made from the people of ``signatures`` (a list, or a callable giving it,
    called only when the register holds any people) not among ``exclude``, or None: share, how many, what
    they spent (``spent``, in words), and the latest (path, time, seq)."""
    try:
        if not _has_tables(conn) or conn.execute("SELECT 1 FROM people LIMIT 1").fetchone() is None:
            return None
        shares = matching(conn, list(signatures() if callable(signatures) else signatures), at_least)
        skip = set(exclude)
        rows = [r for r in releases_of(conn, shares) if r[0] not in skip] if shares else []
    except sqlite3.OperationalError:  # a register made by an older dpdesk
        return None
    if not rows:
        return None
    latest = max(rows, key=lambda r: str(r[3]))
    return {"share": max(shares.values()), "releases": len(rows), "spent": spent_text(rows, delta),
            "path": latest[2], "time": latest[3], "seq": latest[4] or 0,
            "files": sorted({str(r[2]) for r in rows})}

