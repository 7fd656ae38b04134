"""The spending of other copies of a project on this computer, charged to the same people's budget.

A copy of a project made after releases shares their ledger: every release's hash covers
every release before it (:func:`dpdesk.project.ledger.chain.row_hash`), so the register of
histories (:mod:`dpdesk.project.ledger.history`, ``releases``: a tree, since copies branch)
knows where two copies split. The releases this computer made after that split in another
file (the register's ``costs``: each release's privacy events and the signature of the
respondents it read) are about the same people when they read the same respondents, so
:func:`elsewhere` gives them to the budget check and to every figure shown:

    spent = accountant(releases of this file + releases of its copies after the split)

composed exactly as the file's own releases (pure epsilon: the exact sum of Fractions,
Dwork & Roth 2014, thm 3.16; with a delta: the PLD accountant at this file's delta,
:func:`dpdesk.mechanisms.accounting.epsilon`). The rules:

- the shared history (releases #1..#k that both copies hold) is in this file's ledger and
  counted once, here; only releases *not* in this file's chain and descending from one of
  its releases are charged (each counted once, whatever copy of a copy holds it);
- a release is charged when the respondents it read share at least
  :data:`dpdesk.project.people.respondents.OVERLAP_WARNING` of their rows with a dataset of this
  file (the signatures of :func:`dpdesk.project.people.fingerprint.overlap`, this file's computed
  from its rows, never the file's cached claim) or with the respondents one of this file's
  own releases read (as the register recorded them: a dataset removed or recoded after the
  split does not hide the people of the shared history), or when its respondents were not
  recorded or this file's data cannot be read (charged: never in the user's favour);
- releases recorded in this very file (same path: an older backup restored over it) are a
  rollback, confirmed as such (:mod:`dpdesk.project.ledger.rewind`), not a copy;
- a budget lowered in a copy after the split (the register's lowest budget sealed for the
  budget history both files share, :func:`dpdesk.project.ledger.history.floor`) holds in
  every copy: what is left is the smaller of this file's remainder and that budget's
  (its epsilon minus every charged event composed at its delta);
- every other release this computer made from **the same people** (issue 28: the budget follows
  the people), in any file, is charged too: the register's ``people`` sketches
  (:mod:`dpdesk.project.ledger.same_people`) sharing at least
  :data:`dpdesk.project.people.sketch.SAME_PEOPLE` with this file's datasets or with the people
  its own releases read, whatever the columns are called; those files are :class:`Copy` of kind
  "people". Releases descending from this file's chain are left to the rules above (a rollback
  confirmed in this very file stays uncounted), and its own releases are counted once, here;
- copies made before the first release are projects of their own (no shared release); a project
  sharing only a few respondents (under SAME_PEOPLE) is warned about, never charged
  (:func:`dpdesk.project.ledger.releases.shared_spending`);
- a register that cannot be read, or a release of a copy whose cost this computer did not
  record (made by an older dpdesk) and whose file is gone, leaves the figure unchecked:
  ``checked`` is False and the screens say so, with the warnings of the respondents'
  registry as before. A register that is not one (a link, a folder, empty, cut short) never
  reads as empty: the ledger's check stops every release first
  (:func:`dpdesk.project.ledger.heads.read`).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from dpdesk.errors import ProjectError
from dpdesk.mechanisms import accounting
from dpdesk.project.people.fingerprint import overlap
from dpdesk.project.ledger import chain, heads, history, key, same_people

__all__ = ["Copies", "elsewhere", "costs_of"]


@dataclass(frozen=True)
class Copy:
    """The releases one other file made after it split from this one, charged here."""

    path: str
    releases: int
    events: tuple
    #: "copy": made after it split from this file; "people": another file's releases from the same people
    kind: str = "copy"


@dataclass(frozen=True)
class Copies:
    """What other copies on this computer spent from these people's budget (see the module)."""

    events: tuple = ()
    copies: tuple = ()  # Copy, one per other file
    checked: bool = True
    unchecked: str = ""  # why the figure could not be checked, in words
    releases: int = 0
    #: every file (resolved path) the register saw holding a release of this file's history or of a copy
    #: after the split: their spending is in this ledger or charged here, never "not in this budget"
    lineage: frozenset = frozenset()
    #: the lowest budget this computer sealed in the budget history this file shares with its copies
    #: (:func:`history.floor`: epsilon, delta, budget text, path, time), when lower than this file's
    floor: dict | None = None

    def names(self) -> str:
        return ", ".join(c.path for c in self.copies)


def _resolved(path) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError, TypeError):
        return str(path)


def _branches(conn, hashes: list[str]) -> list:
    """Register rows of every release descending from one of ``hashes`` but not among them."""
    mine = set(hashes)
    out, frontier = {}, list(hashes)
    costs = ("c.events, c.respondents FROM releases r LEFT JOIN costs c ON c.hash = r.hash" if _has_costs(conn)
             else "NULL AS events, NULL AS respondents FROM releases r")  # a register of an older dpdesk
    while frontier:
        part, frontier = frontier[:500], frontier[500:]
        rows = conn.execute(f"SELECT r.hash, r.prev, r.seq, r.path, {costs} "
                            f"WHERE r.prev IN ({', '.join('?' * len(part))})", part).fetchall()
        for row in rows:
            if row["hash"] in mine or row["hash"] in out:
                continue
            out[row["hash"]] = row
            frontier.append(row["hash"])
    return list(out.values())


def _has_costs(conn) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'costs'").fetchone() is not None


def _spent_elsewhere(conn, known: set) -> bool:
    """Whether the register holds the people of any release made here that is not among ``known``."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'spent_on'").fetchone():
        return False
    return any(h not in known for (h,) in conn.execute("SELECT hash FROM spent_on"))


def _own_paths(conn, hashes: list[str]) -> set[str]:
    """The files the register saw holding releases of this file's own history."""
    out = set()
    for i in range(0, len(hashes), 500):
        part = hashes[i:i + 500]
        out |= {r[0] for r in conn.execute(f"SELECT DISTINCT path FROM releases WHERE hash IN "
                                           f"({', '.join('?' * len(part))})", part)}
    return out


def _own_signatures(conn, hashes: list[str]) -> list[dict]:
    """The respondents' signatures the register recorded for this file's own releases (distinct)."""
    out, seen = [], set()
    if not _has_costs(conn):
        return out
    for i in range(0, len(hashes), 500):
        part = hashes[i:i + 500]
        for (text,) in conn.execute(f"SELECT respondents FROM costs WHERE hash IN ({', '.join('?' * len(part))})",
                                    part):
            if text and text not in seen:
                seen.add(text)
                try:
                    out.append(json.loads(text))
                except ValueError:
                    continue
    return out


def _from_file(path: str, release_hash: str):
    """The events of release ``release_hash`` read from the copy at ``path`` itself (read only; the row
    must hash to it), for a release this computer made before it recorded costs. None: not there."""
    try:
        conn = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
    except (sqlite3.Error, ValueError, OSError):
        return None
    try:
        conn.row_factory = sqlite3.Row
        row = conn.execute("SELECT * FROM releases WHERE hash = ?", (release_hash,)).fetchone()
        if row is None or chain.row_hash(row) != release_hash:
            return None
        return json.loads(row["noise_params"])["events"]
    except (sqlite3.Error, ValueError, KeyError, TypeError, IndexError):
        return None
    finally:
        conn.close()


def elsewhere(conn, path, signatures) -> Copies:
    """The spending of this file's copies after they split from it, and of every other release this
    computer made from the same people (``conn``: the file's connection, ``path``: its path,
    ``signatures``: a callable giving its datasets' respondents' signatures).

    Never raises: a register or file that cannot be read gives ``checked=False``."""
    hashes = [r[0] for r in conn.execute("SELECT hash FROM releases ORDER BY seq")]
    here = _resolved(path) if path is not None else ""
    try:
        if not heads.registry_path_exists():
            if hashes and key.key_path().exists():  # this computer released before, and its register is gone
                return Copies(checked=False, unchecked="this computer's register of ledgers is missing (moved "
                              "or deleted), so the releases of other copies of this project are not known")
            return Copies()  # nothing was ever released on this computer: no copy released here
        budgets = history.budget_rows(conn)
        rows, released, paths, floor = heads.read(
            lambda reg: (_branches(reg, hashes), _own_signatures(reg, hashes), _own_paths(reg, hashes),
                         history.floor(reg, budgets)),
            empty=([], [], set(), None))
    except (ProjectError, sqlite3.Error, OSError) as exc:
        return Copies(checked=False, unchecked=f"this computer's register of ledgers could not be read ({exc})")
    lineage = frozenset(_resolved(p) for p in paths | {r["path"] for r in rows}) - {here}
    descendants = {r["hash"] for r in rows}
    rows = [r for r in rows if _resolved(r["path"]) != here]
    own = set(hashes)
    try:  # releases made here outside this file's own chain (else there is nothing to match people with)
        others = heads.read(lambda reg: _spent_elsewhere(reg, own | descendants), empty=False)
    except (ProjectError, sqlite3.Error, OSError) as exc:
        return Copies(checked=False, unchecked=f"this computer's register of ledgers could not be read ({exc})")
    mine = []
    if rows or others:
        try:  # the people of this file: its datasets now, and those its own releases read (the shared history's)
            mine = list(signatures())
        except Exception:  # noqa: BLE001 - data that cannot be read: charge every release (never in the user's favour)
            mine = []
        mine = mine + list(released) if mine else []
    same = []
    if others and mine:
        try:  # every other release this computer made from these people, whatever file holds them
            same = heads.read(lambda reg: same_people.releases_of(reg, same_people.matching(reg, mine)), empty=[])
        except (ProjectError, sqlite3.Error, OSError) as exc:
            return Copies(checked=False, unchecked=f"this computer's register of ledgers could not be read ({exc})")
    same = [r for r in same if r[0] not in own and r[0] not in descendants]
    if not rows and not same:
        return Copies(lineage=lineage)
    floor = _lower(floor, budgets)
    by_path: dict[str, list] = {}
    counts: dict[str, int] = {}
    missing = []
    for row in rows:
        try:
            sig = json.loads(row["respondents"]) if row["respondents"] else None
        except ValueError:
            sig = None
        if sig and mine and not _same_people(sig, mine):
            continue  # released from other people
        try:
            records = json.loads(row["events"]) if row["events"] else _from_file(row["path"], row["hash"])
        except ValueError:  # a damaged register row: read the release from the copy itself
            records = _from_file(row["path"], row["hash"])
        if records is None:
            missing.append(row)
            continue
        try:
            events = [accounting.from_record(e) for e in records]
        except (KeyError, TypeError, ValueError, ZeroDivisionError, accounting.NoiseParameterError):
            missing.append(row)
            continue
        by_path.setdefault(row["path"], []).extend(events)
        counts[row["path"]] = counts.get(row["path"], 0) + 1
    people_paths = set()
    for release_hash, events_text, where, _time, _seq in same:
        try:
            events = [accounting.from_record(e) for e in json.loads(events_text)]
        except (KeyError, TypeError, ValueError, ZeroDivisionError, accounting.NoiseParameterError):
            missing.append({"path": where})
            continue
        by_path.setdefault(where, []).extend(events)
        counts[where] = counts.get(where, 0) + 1
        people_paths.add(where)
    copies = tuple(Copy(p, counts[p], tuple(ev), "people" if p in people_paths else "copy")
                   for p, ev in sorted(by_path.items()))
    events = tuple(e for c in copies for e in c.events)
    unchecked = ""
    if missing:
        where = ", ".join(sorted({str(r["path"]) for r in missing}))
        unchecked = (f"{len(missing)} release(s) made in {where} after it split from this file are not in this "
                     "computer's register with their cost, and that file could not be read")
    return Copies(events, copies, not missing, unchecked, sum(counts.values()), lineage, floor)


def floor_remaining(events, floor) -> Fraction | None:
    """What the lowest budget of the shared history leaves after ``events`` (None: no lower budget):
    its epsilon minus the events composed at its delta (:func:`accounting.epsilon`), at least 0."""
    if floor is None:
        return None
    spent = accounting.epsilon(list(events), floor["delta"])
    return Fraction(0) if spent == float("inf") else max(Fraction(0), floor["epsilon"] - spent)


def _lower(floor, budgets) -> dict | None:
    """``floor`` when it is below this file's budget in force (a budget lowered in a copy after the split)."""
    if floor is None or not budgets:
        return None
    try:
        eps, delta = Fraction(budgets[-1][1]), Fraction(budgets[-1][2] or 0)
    except (ValueError, ZeroDivisionError, TypeError):
        return None
    return floor if floor["epsilon"] < eps or floor["delta"] < delta else None


def _same_people(sig, mine) -> bool:
    """Whether ``sig`` shares at least SAME_PEOPLE of its rows with one of ``mine`` (a signature
    that cannot be compared counts as the same people: never in the user's favour)."""
    try:
        return any(overlap(s, sig) >= _threshold() for s in mine)
    except (AttributeError, TypeError, ValueError):
        return True


def _threshold() -> float:
    from dpdesk.project.people.sketch import SAME_PEOPLE

    return SAME_PEOPLE


def of_project(project, conn) -> Copies:
    """:func:`elsewhere` for an open project (its datasets' signatures computed from the rows)."""
    from dpdesk.project.people import respondents

    return elsewhere(conn, project.path, respondents.signatures_of(project))


def costs_of(release_hash: str, events: list, signature: dict | None) -> tuple:
    """The register's ``costs`` entry of a release made now (for :attr:`heads.Head.costs`)."""
    from dpdesk.mechanisms.central.request import canonical_json

    return ((release_hash, canonical_json(events), json.dumps(signature) if signature else ""),)

