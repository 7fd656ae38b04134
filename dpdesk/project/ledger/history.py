"""The histories this computer sealed or saw, recognised by their releases, whatever id a file carries.

A project's id is a row of the file, which anyone can change; its releases are not: each
release's hash covers every release before it (:func:`dpdesk.project.ledger.chain.row_hash`).
So the register of heads (``<user data folder>/ledger/heads.sqlite``) also keeps:

- ``releases``: every release this computer recorded or saw in an intact ledger (its hash,
  the hash before it, its number, and whether a ledger this computer sealed held it): a
  tree, since copies of a project branch;
- ``costs``: for every release this computer made, its privacy events (as the ledger records
  them) and the signature of the respondents it read, so the spending of copies of a project
  is counted against the same people's budget (:mod:`dpdesk.project.ledger.copies`);
- ``people`` and ``spent_on``: the name-free sketch of the people each release made here read
  (:mod:`dpdesk.project.ledger.same_people`), so a file holding mostly the same people is found
  and charged whatever its columns are called;
- ``states``: every state of a ledger this computer sealed (after a release, a budget set or
  lowered, a confirmed rollback): its last release, its budget rows (how many, and their
  SHA-256), and the first budget row's SHA-256 (which names the budget's history while there
  are no releases yet).

:func:`compare` reads a file's chain against them (see docs/guide/project-files.md for the
rules and the words of each message). Nothing here is secret: the register says what this
computer saw, and the key (:mod:`dpdesk.project.ledger.key`) proves what it sealed.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from fractions import Fraction

from dpdesk.mechanisms.central.request import canonical_json
from dpdesk.project.ledger import same_people
from dpdesk.project.ledger.text import epsilon_text

__all__ = ["DDL", "record", "compare", "Verdict", "budget_rows", "budgets_digest", "data_of", "floor",
           "released_here"]

GENESIS = "0" * 64

DDL = (
    """CREATE TABLE IF NOT EXISTS releases (
    hash   TEXT PRIMARY KEY,
    prev   TEXT NOT NULL,
    seq    INTEGER NOT NULL,
    sealed INTEGER NOT NULL,
    path   TEXT NOT NULL,
    time   TEXT NOT NULL
)""",
    "CREATE INDEX IF NOT EXISTS releases_prev ON releases(prev)",
    *same_people.DDL,
    """CREATE TABLE IF NOT EXISTS states (
    head        TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    budgets     INTEGER NOT NULL,
    digest      TEXT NOT NULL,
    budget_root TEXT NOT NULL,
    budget      TEXT NOT NULL,
    path        TEXT NOT NULL,
    time        TEXT NOT NULL,
    PRIMARY KEY (head, digest)
)""",
    """CREATE TABLE IF NOT EXISTS floors (
    budget_root TEXT PRIMARY KEY,
    epsilon     TEXT NOT NULL,
    delta       TEXT NOT NULL,
    budget      TEXT NOT NULL,
    path        TEXT NOT NULL,
    time        TEXT NOT NULL
)""",
    """CREATE TABLE IF NOT EXISTS data (
    value       TEXT NOT NULL,
    kind        TEXT NOT NULL,
    name        TEXT NOT NULL,
    budget_root TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    budget      TEXT NOT NULL,
    path        TEXT NOT NULL,
    time        TEXT NOT NULL,
    PRIMARY KEY (value, budget_root)
)""",
    """CREATE TABLE IF NOT EXISTS costs (
    hash        TEXT PRIMARY KEY,
    events      TEXT NOT NULL,
    respondents TEXT NOT NULL,
    path        TEXT NOT NULL,
    time        TEXT NOT NULL
)""",
)

_CHUNK = 500  # hashes per query (SQLite's limit on parameters is far above)


def budget_rows(conn) -> list[list]:
    """The budget rows as the seal hashes them: [id, epsilon, delta, set_time, dataset] as text."""
    rows = conn.execute("SELECT id, epsilon, delta, set_time, dataset_sha256 FROM budget ORDER BY id").fetchall()
    return [[None if v is None else str(v) for v in r] for r in rows]


def budgets_digest(rows) -> str:
    return hashlib.sha256(canonical_json([list(r) for r in rows]).encode("utf-8", "replace")).hexdigest()


def data_of(conn, released_only: bool = False) -> list[tuple[str, str, str]]:
    """The file's data as (kind, value, dataset name): ``sha256`` (each dataset's and each release's
    recorded SHA-256), ``import`` (SHA-256 of the dataset row: name, source SHA-256, rows, import
    time) and ``respondents`` (the cached respondents' fingerprint). ``released_only``: only the
    datasets releases were made from."""
    out: list[tuple[str, str, str]] = []
    try:
        released = {r[0] for r in conn.execute("SELECT DISTINCT dataset_sha256 FROM releases")}
        datasets = conn.execute("SELECT id, name, source_sha256, n_rows, imported_at FROM datasets").fetchall()
        cached = dict(conn.execute("SELECT key, value FROM app WHERE key LIKE 'respondents:%'").fetchall())
    except Exception:  # noqa: BLE001 - a file without these tables has no data to compare
        return out
    for sha in sorted(s for s in released if s):
        out.append(("sha256", str(sha), ""))
    for d in datasets:
        if released_only and d[2] not in released:
            continue
        name = str(d[1])
        if d[2]:
            out.append(("sha256", str(d[2]), name))
        out.append(("import", budgets_digest([[str(v) for v in d[1:]]]), name))
        try:
            fp = json.loads(cached.get(f"respondents:{d[0]}") or "{}").get("fingerprint")
        except (ValueError, AttributeError, RecursionError):
            fp = None
        if isinstance(fp, str) and fp:
            out.append(("respondents", fp, name))
    return out


def _budget_text(rows) -> str:
    """The budget in force, in the researcher's words ("ε = 0.5"), rounded down as every budget shown."""
    if not rows:
        return ""
    try:
        return epsilon_text(Fraction(rows[-1][1]), Fraction(rows[-1][2] or 0), up=False)
    except (ValueError, ZeroDivisionError, TypeError):
        return "a budget that is not an exact fraction"


def record(conn, head, time: str) -> None:
    """Remember ``head``'s chain and, when sealed here, its state (inside the register's transaction)."""
    if head.chain:
        conn.executemany(
            "INSERT INTO releases(hash, prev, seq, sealed, path, time) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(hash) DO UPDATE SET sealed = max(sealed, excluded.sealed)",
            [(h, prev, seq, int(head.sealed), head.path, time) for seq, h, prev in head.chain])
    if head.costs:
        conn.executemany("INSERT OR IGNORE INTO costs(hash, events, respondents, path, time) VALUES (?, ?, ?, ?, ?)",
                         [(h, events, sig, head.path, time) for h, events, sig in head.costs])
        same_people.record(conn, head.costs, head.path, time)
    if head.sealed and head.budgets is not None:
        rows = list(head.budgets)
        conn.execute(
            "INSERT OR IGNORE INTO states(head, seq, budgets, digest, budget_root, budget, path, time) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (head.head if head.seq else GENESIS, head.seq, len(rows), budgets_digest(rows),
             budgets_digest(rows[:1]) if rows else "", _budget_text(rows), head.path, time))
        if rows:
            _record_floor(conn, rows, head.path, time)
        if rows and head.seq:
            root = budgets_digest(rows[:1])
            conn.executemany(
                "INSERT INTO data(value, kind, name, budget_root, seq, budget, path, time) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(value, budget_root) DO UPDATE SET seq = excluded.seq, budget = excluded.budget, "
                "path = excluded.path, time = excluded.time, name = CASE WHEN excluded.name != '' THEN excluded.name "
                "ELSE data.name END WHERE excluded.seq >= data.seq",
                [(value, kind, name, root, head.seq, _budget_text(rows), head.path, time)
                 for kind, value, name in head.data])


def _record_floor(conn, rows, path, time) -> None:
    """Keep the lowest budget sealed under this budget history (epsilon and delta each at their lowest)."""
    try:
        eps, delta = Fraction(rows[-1][1]), Fraction(rows[-1][2] or 0)
    except (ValueError, ZeroDivisionError, TypeError):
        return
    root = budgets_digest(rows[:1])
    old = conn.execute("SELECT epsilon, delta FROM floors WHERE budget_root = ?", (root,)).fetchone()
    if old is not None:
        if Fraction(old[0]) <= eps and Fraction(old[1]) <= delta:
            return
        eps, delta = min(eps, Fraction(old[0])), min(delta, Fraction(old[1]))
    conn.execute("INSERT OR REPLACE INTO floors(budget_root, epsilon, delta, budget, path, time) "
                 "VALUES (?, ?, ?, ?, ?, ?)",
                 (root, str(eps), str(delta), epsilon_text(eps, delta, up=False), path, time))


def floor(conn, budgets) -> dict | None:
    """The lowest budget this computer sealed in the history of these budget rows (None: none)."""
    if not budgets:
        return None
    try:
        row = conn.execute("SELECT * FROM floors WHERE budget_root = ?", (budgets_digest(budgets[:1]),)).fetchone()
    except sqlite3.OperationalError:  # a register made by an older dpdesk, not written to since
        return None
    if row is None:
        return None
    return {"epsilon": Fraction(row["epsilon"]), "delta": Fraction(row["delta"]), "budget": row["budget"],
            "time": row["time"], "path": row["path"]}


def released_here(conn, data) -> dict | None:
    """The state this computer sealed that released from any of ``data`` (an import first), or None."""
    values = sorted({v for _k, v, _n in data})
    found = []
    try:
        for i in range(0, len(values), _CHUNK):
            part = values[i:i + _CHUNK]
            found += conn.execute(f"SELECT * FROM data WHERE value IN ({', '.join('?' * len(part))})",
                                  part).fetchall()
    except sqlite3.OperationalError:  # a register made by an older dpdesk, not written to since
        return None
    if not found:
        return None
    best = max(found, key=lambda r: (r["kind"] == "import", r["seq"], r["time"]))
    names = {v: n for _k, v, n in data if n}
    return {"kind": best["kind"], "name": names.get(best["value"]) or best["name"], "seq": best["seq"],
            "budget": best["budget"], "path": best["path"], "time": best["time"],
            "import": any(r["kind"] == "import" for r in found)}


@dataclass
class Verdict:
    """What the register says of a file: edits (``problems``), or a ``rollback`` (and whether the
    researcher may confirm it: only to a state this computer sealed or saw)."""

    known: int = 0  # releases #1..#known are ones this computer sealed or saw
    head_sealed: bool = False  # the file's last release is in a ledger this computer sealed
    problems: list[str] = field(default_factory=list)
    rollback: str | None = None
    confirmable: bool = False
    later: dict | None = None  # the furthest state this computer saw beyond the file's: seq, head, time, path
    note: str | None = None  # said with the verification, stops nothing
    #: what the rollback is: "behind" (releases this computer saw after the file's), "budget" (the
    #: budget rows of an older state sealed here), "shared" (data released here, history not recognised)
    kind: str = ""
    copy: bool = False  # the later state is in another file (a copy, or an older backup)
    shared: dict | None = None  # data of the file this computer released from (released_here)
    data_recorded: bool = True  # the register has the data of this history (False: record them again)


def _later(row, head: str) -> dict:
    return {"seq": row["seq"], "head": row[head], "time": row["time"], "path": row["path"]}


def _where(row) -> str:
    return f"on {str(row['time']).replace('T', ' ')} in {row['path']}" if row["path"] else f"on {row['time']}"


def _known(conn, hashes: list[str]) -> dict:
    found = {}
    for i in range(0, len(hashes), _CHUNK):
        part = hashes[i:i + _CHUNK]
        for row in conn.execute(f"SELECT * FROM releases WHERE hash IN ({', '.join('?' * len(part))})", part):
            found[row["hash"]] = row
    return found


def _latest_after(conn, head: str):
    """The furthest release this computer knows after ``head`` (sealed ones first), or None."""
    return conn.execute(
        "WITH RECURSIVE later(hash) AS (SELECT hash FROM releases WHERE prev = ? "
        "UNION SELECT r.hash FROM releases r JOIN later l ON r.prev = l.hash) "
        "SELECT r.* FROM releases r JOIN later l ON r.hash = l.hash ORDER BY r.sealed DESC, r.seq DESC LIMIT 1",
        (head,)).fetchone()


def _states(conn, heads: list[str]) -> list:
    out = []
    for i in range(0, len(heads), _CHUNK):
        part = heads[i:i + _CHUNK]
        out += conn.execute(f"SELECT * FROM states WHERE head IN ({', '.join('?' * len(part))})", part).fetchall()
    return out


def compare(conn, hashes: list[str], budgets: list[list], *, mine: bool, foreign: str | None, unsealed: bool,
            confirmed: bool, path, data=(), upgraded: bool = False) -> Verdict:
    """Read the file's chain (``hashes``, in order) and budget rows against the register ``conn``.

    ``mine``: the file carries this computer's seal and it holds over every release;
    ``foreign``: the key id of another computer's seal on it; ``unsealed``: no seal at all;
    ``confirmed``: the researcher confirmed going on from this very head (a record under this
    computer's seal); ``path``: the file's (to say when the later state is in another file);
    ``data``: the file's data (:func:`data_of`); ``upgraded``: the file says (an ``app`` row) that
    its ledger was made, unsealed, by a dpdesk before ledgers were sealed.
    """
    out = Verdict()
    n = len(hashes)
    known = _known(conn, hashes)
    k = max((i + 1 for i, h in enumerate(hashes) if h in known), default=0)
    out.known = k
    head = hashes[-1] if n else GENESIS
    out.head_sealed = k == n > 0 and bool(known[head]["sealed"])
    root = _root_state(conn, budgets)
    if mine and n and budgets:  # a state sealed by an older dpdesk: its data are not in the register yet
        try:
            out.data_recorded = conn.execute("SELECT 1 FROM data WHERE budget_root = ? LIMIT 1",
                                             (budgets_digest(budgets[:1]),)).fetchone() is not None
        except sqlite3.OperationalError:
            out.data_recorded = False
    if n == 0:
        _compare_empty(root, mine, confirmed, out)
        if root is None and budgets and not mine:
            _compare_data(conn, data, foreign, unsealed, upgraded, out)
        elif root is None and out.note is None and (seen := released_here(conn, data) if data else None):
            out.shared = seen  # no ledger to compare: said, stops nothing (each release warns again)
            out.note = (f"it holds the data {seen['name']!r} that this computer released from {_where(seen)} "
                        f"(release #{seen['seq']}, budget {seen['budget']}): a new project from the same "
                        "respondents, or that project with its whole ledger deleted")
        return out
    if k == 0 and root is not None and not mine:  # the budget of a history sealed here, none of its releases
        if unsealed:
            out.problems.append(f"its releases are not the ones this computer sealed under the same privacy budget "
                                f"{_where(root)}, and it has no seal: its history was rewritten")
        else:
            out.rollback = (f"its releases are not the ones this computer sealed under the same privacy budget "
                            f"{_where(root)}: a copy made before the first release went on elsewhere, or its history "
                            "was rewritten")
        return out
    if k < n:
        other = None
        if k:  # this computer knows releases after #k other than the file's: the history was rewritten there
            other = conn.execute("SELECT * FROM releases WHERE prev = ? AND hash != ? ORDER BY sealed DESC LIMIT 1",
                                 (hashes[k - 1], hashes[k])).fetchone()
        rewritten = other is not None and (other["sealed"] or _latest_after(conn, hashes[k - 1])["sealed"])
        if mine and not rewritten and not (k == 0 and root is not None):
            pass  # this computer's own seal holds over every release: it made them (the register lagged)
        elif mine and k == 0:  # the owner's key can seal a rewrite; the register still knows the history
            out.problems.append(f"its releases are not the ones this computer sealed under the same privacy budget "
                                f"{_where(root)}, although it carries this computer's seal: the history was rewritten "
                                "and sealed again with this computer's key")
        elif rewritten:
            out.problems.append(
                f"release #{k + 1} is not the one this computer sealed {_where(other)}: the history it sealed was "
                "rewritten from there (whatever seal or project id the file now carries)")
        elif other is not None:
            out.rollback = (f"its release #{k + 1} is not the one this computer saw {_where(other)}: its ledger went "
                            f"another way after release #{k}, or its history was rewritten")
        elif unsealed and (sealed_at := _states(conn, hashes[:k])):
            last = max(s["seq"] for s in sealed_at)
            out.problems.append(f"releases #{k + 1}-#{n} were added and the ledger's seal removed outside dpdesk "
                                f"(this computer sealed it at release #{last})")
    else:
        sealed_here = bool(_states(conn, [head]))  # this computer sealed the ledger at this very head
        if sealed_here and not mine:
            if unsealed:
                out.problems.append(f"the seal this computer put on the ledger at release #{n} was removed")
            elif foreign:
                out.problems.append(
                    f"the seal this computer put on the ledger at release #{n} was replaced by the seal of another "
                    f"computer (key id {foreign}): a foreign seal over a history this computer sealed is a rewrite")
        later = _latest_after(conn, head)
        if later is not None and not confirmed and not out.problems:
            out.rollback = (f"its ledger ends at release #{n}, but this computer saw release #{later['seq']} of this "
                            f"history {_where(later)}")
            out.confirmable = True
            out.later = _later(later, "hash")
            out.kind = "behind"
            if later["path"] and path is not None and str(later["path"]) != str(path):
                out.rollback += f" (another file: this one is a copy made at release #{n}, or an older backup)"
                out.copy = True
    _compare_budgets(conn, hashes[:k], budgets, mine, confirmed, out)
    if k == 0 and root is None and not mine and not out.problems and out.rollback is None:
        _compare_data(conn, data, foreign, unsealed, upgraded, out)
    return out


def _compare_data(conn, data, foreign, unsealed, upgraded, out: Verdict) -> None:
    """A history this computer does not recognise (none of its releases, not its budget), not sealed
    here: if it holds data this computer released from under a ledger it sealed, it is that ledger
    rewritten (no seal: an edit), or a project of its own made from the same respondents elsewhere
    (another computer's seal, or the file's claim of a dpdesk before seals: stopped until confirmed)."""
    seen = released_here(conn, data) if data else None
    if seen is None:
        return
    out.shared = seen
    what = (f"it holds the data {seen['name']!r} that this computer released from {_where(seen)} (release "
            f"#{seen['seq']}, under a ledger it sealed, budget {seen['budget']}), but none of that ledger's releases "
            "or budget")
    if unsealed and (seen["import"] or not upgraded):
        claim = (", and no seal, although the file says it was made by a dpdesk before ledgers were sealed (this "
                 "computer sealed a ledger over that very import)" if upgraded else ", and no seal")
        out.problems.append(f"{what}{claim}: the history of those releases was rewritten outside dpdesk (whatever "
                            "project id the file now carries)")
        return
    who = ("the file says its ledger was made by a dpdesk before ledgers were sealed, which this computer cannot "
           "check" if unsealed else f"it carries the seal of another computer (key id {foreign}), which this "
           "computer cannot check")
    out.rollback = (f"{what}; {who}: either a project of its own made from the same respondents, or that ledger "
                    "rewritten outside dpdesk")
    out.kind, out.confirmable = "shared", True


def compare_people(hit: dict, ledger: bool, foreign, unsealed: bool, upgraded: bool, out: Verdict) -> None:
    """A history this computer does not recognise, not sealed here, holding mostly the same people as
    releases made here (``hit``: :func:`dpdesk.project.ledger.same_people.found`): without a seal an edit,
    under another computer's seal (or the file's claim of a dpdesk before seals) stopped until confirmed;
    a file with no ledger at all (no release, no budget) is told so, and stops nothing."""
    where = f"on {str(hit['time']).replace('T', ' ')} in {hit['path']}"
    what = (f"it holds mostly the same people (about {hit['share']:.0%} of the rows, renamed columns, reordered "
            f"rows and a few changed, added or deleted ones included) as {hit['releases']} release(s) this computer "
            f"made, the latest {where} (release #{hit['seq']}), which spent {hit['spent']} on them")
    out.shared = {"kind": "people", "name": "", "seq": hit["seq"], "time": hit["time"], "path": hit["path"],
                  "budget": "", "spent": hit["spent"], "import": False}
    if not ledger:
        if out.note is None:
            out.note = (f"{what}: a new project from the same respondents, or that project with its whole ledger "
                        "deleted; those releases count against this file's budget")
        return
    what += ", but none of those ledgers' releases or budget"
    if unsealed and not upgraded:
        out.problems.append(f"{what}, and no seal: the history of those releases was rewritten outside dpdesk "
                            "(whatever project id, data SHA-256 or column names the file now carries)")
        return
    who = ("the file says its ledger was made by a dpdesk before ledgers were sealed, which this computer cannot "
           "check" if unsealed else f"it carries the seal of another computer (key id {foreign}), which this "
           "computer cannot check")
    out.rollback = (f"{what}; {who}: either a project of its own made from the same respondents, or that ledger "
                    "rewritten outside dpdesk")
    out.kind, out.confirmable = "shared", True


def _compare_budgets(conn, chain: list[str], budgets, mine, confirmed, out: Verdict) -> None:
    """The budget rows must extend those of the latest state this computer sealed in this history."""
    states = _states(conn, chain)
    if not states or out.problems:
        return
    seqs = {h: i + 1 for i, h in enumerate(chain)}
    latest = max(states, key=lambda s: (seqs[s["head"]], s["budgets"]))
    count = latest["budgets"]
    if len(budgets) >= count and budgets_digest(budgets[:count]) == latest["digest"]:
        return
    ours = any(s["digest"] == budgets_digest(budgets) for s in states)
    if mine and ours:  # an older state this computer sealed: from before the budget was lowered
        if not confirmed and out.rollback is None:
            out.later = _later(latest, "head")
            out.rollback = (f"its privacy budget is the one from before this computer lowered it to "
                            f"{latest['budget']} {_where(latest)}")
            out.confirmable, out.kind = True, "budget"
        return
    out.problems.append(f"the budget rows are not the ones this computer sealed at release #{latest['seq']} "
                        f"{_where(latest)} (a lowered budget removed, or a budget changed outside dpdesk)")


def _root_state(conn, budgets):
    """The furthest state with releases this computer sealed under the same first budget row, or None."""
    if not budgets:
        return None
    return conn.execute("SELECT * FROM states WHERE budget_root = ? AND seq > 0 ORDER BY seq DESC LIMIT 1",
                        (budgets_digest(budgets[:1]),)).fetchone()


def _compare_empty(later, mine: bool, confirmed: bool, out: Verdict) -> None:
    """No releases, but the budget's first row is that of a history with releases sealed here: a copy
    made before the first release (a project of its own, if this computer's seal holds over it), or
    a ledger whose every release was deleted."""
    if later is None or confirmed:
        return
    out.later = _later(later, "head")
    if mine:
        out.note = (f"a copy made before the first release of the project in {later['path']}, which has releases "
                    "since: a project of its own, spending from the budget of the same respondents")
        return
    out.rollback = (f"its ledger has no releases, but this computer sealed release #{later['seq']} under the same "
                    f"privacy budget {_where(later)}, and the seal it put on this file is gone: its releases were "
                    "deleted")
