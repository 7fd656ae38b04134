"""The hash chain of the release ledger, its seal, and the check that finds edits and rollbacks.

Each row of ``releases`` carries ``hash = SHA-256(canonical JSON of the row's fields,
prev_hash included)`` and ``prev_hash`` = the previous row's hash (64 zeros for the first).
The JSON columns are hashed as the text stored, so verification never re-serialises.
The ``app`` row ``ledger_head`` = "<number of releases>:<last hash>" is written in the same
transaction, so a deleted last release is found too; the ``ledger_seal`` row (an HMAC of the
head with this installation's key, :mod:`dpdesk.project.ledger.seal`) is written with it.

:func:`check` verifies, read only:

- the structure: releases numbered 1..n without gaps, each ``prev_hash`` the hash before,
  each ``hash`` recomputed, the recorded head, the append-only triggers compared by their
  SQL with the ones this version creates (a no-op trigger of the same name is found), no
  other triggers on the ledger's tables, budgets never raised or changed after use;
- the seal, when it was made with this installation's key: an edit made without the key is
  found even if every hash was recomputed;
- the register of histories (:mod:`dpdesk.project.ledger.history`, found by the releases'
  hashes, whatever project id the file carries): rows, a budget or a seal that disagree
  with what this computer sealed are an edit; a file whose ledger is behind a history this
  computer saw was rolled back (or is a copy), which is not an edit but still stops releases
  until the researcher confirms (:func:`dpdesk.project.ledger.rewind.accept_rollback`), and
  only to a state this computer sealed or saw. A history the register does not know is
  compared by its data (SHA-256, import, respondents' signature) with the data this computer
  released from under a ledger it sealed (an edit without a seal, a stop until confirmed
  under another computer's), then by its project id with the head last seen
  (:mod:`dpdesk.project.ledger.heads`).

A file without a seal of this installation (from another computer, or upgraded from a
dpdesk before seals) is "verified by structure only": consistent, but an edit whose hashes
were recomputed cannot be ruled out.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from dpdesk.mechanisms.central.request import canonical_json
from dpdesk.project.file import schema, schema_check
from dpdesk.project.ledger import heads, history, key, same_people, seal

__all__ = ["GENESIS", "row_hash", "check", "LedgerCheck", "HEAD_KEY", "TRIGGERS", "record_head", "reseal"]

GENESIS = "0" * 64
HEAD_KEY = "ledger_head"
HASHED = ("seq", "time", "app_version", "dataset_sha256", "request", "mechanism", "noise_params",
          "cost", "result", "prev_hash")
TRIGGERS = ("releases_no_update", "releases_no_delete", "budget_no_update", "budget_no_delete",
            "budget_never_raised")
_GUARDED_TABLES = ("releases", "budget", "app")

#: ``LedgerCheck.trust``: sealed with this computer's key / consistent only / nothing to check
KEY, STRUCTURE, NOTHING = "key", "structure", "none"
#: ``app`` row written by the upgrade to schema v4 when the ledger it upgraded had releases and no seal
UNSEALED_AT_UPGRADE = "ledger_unsealed_at_upgrade"


def row_hash(row) -> str:
    """SHA-256 hex of the canonical JSON of the hashed fields (``prev_hash`` included)."""
    payload = canonical_json({k: row[k] for k in HASHED})
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass
class LedgerCheck:
    """Result of :func:`check`.

    ``problems`` say what was edited; ``rollback`` says why the file is behind the head this
    computer last saw (None if it is not). ``ok`` when neither: releases may go on.
    ``trust`` is :data:`KEY` when this installation's seal covers every release, else
    :data:`STRUCTURE` ("verified by structure only"), or :data:`NOTHING` for an empty,
    unsealed ledger. ``trust_text`` says it in words.
    """

    releases: int = 0
    problems: list[str] = field(default_factory=list)
    head: str = GENESIS
    project_id: str = ""
    trust: str = NOTHING
    sealed_to: int = 0           # releases 1..sealed_to are covered by this computer's seal
    verified_from: int = 0       # ... of which those from here on were recorded under it
    sealed_by: str | None = None  # key id of the seal, this computer's or another's
    key_id: str | None = None     # this installation's key id (None: no key yet)
    mac: str | None = None
    rollback: str | None = None
    seen: heads.Head | None = None  # the head last seen of this project id
    behind: heads.Head | None = None  # the later state of this history this computer saw (a rollback)
    rollbacks: list[dict] = field(default_factory=list)
    #: a rollback the researcher may confirm: to a state this computer sealed or saw
    confirmable: bool = False
    #: releases #1..#known are ones this computer sealed or saw (its register of histories)
    known: int = 0
    #: the last release is in a ledger this computer sealed (its register of histories)
    head_sealed: bool = False
    #: said with the verification (e.g. a copy made before the first release), stops nothing
    note: str | None = None
    #: "n:head" of an unsealed ledger when it was upgraded to a sealing schema version (else None)
    unsealed_at_upgrade: str | None = None
    #: the releases as (seq, hash, prev_hash) and the budget rows, for the register of histories
    chain: tuple = field(default=(), repr=False)
    budgets: tuple = field(default=(), repr=False)
    #: the file's data as (kind, value, dataset name) (:func:`history.data_of`)
    data: tuple = field(default=(), repr=False)
    #: what the rollback is: "behind", "budget" or "shared" (see :class:`history.Verdict`)
    rollback_kind: str = ""
    #: the later state this computer saw is in another file (a copy made after releases, or a backup)
    copy: bool = False
    #: data of this file this computer released from under another ledger (history.released_here)
    shared: dict | None = None
    #: the register holds the data of this history (False for states sealed by an older dpdesk)
    data_recorded: bool = True
    #: the file's seal is of this computer's own former key (the register recorded it sealing with it),
    #: which is missing or was replaced: its key id (else None)
    lost_key: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems and self.rollback is None

    @property
    def intact(self) -> bool:
        """No edit found (the file may still be an older copy: see ``rollback``)."""
        return not self.problems

    def __bool__(self) -> bool:
        return self.ok

    @property
    def structure_only(self) -> bool:
        return self.trust == STRUCTURE

    @property
    def trust_text(self) -> str:
        text = self._trust_text
        return f"{text}; {self.note}" if self.note else text

    @property
    def _trust_text(self) -> str:
        if self.trust == NOTHING:
            return "no releases yet, nothing to verify"
        if self.trust == KEY:
            text = "verified with this computer's key"
            rekeyed = next((r for r in self.rollbacks if r.get("kind") == "key"
                            and r.get("releases") == self.verified_from - 1), None)
            if rekeyed is not None and self.verified_from > 1:
                text += (f" (releases #1-#{self.verified_from - 1} were sealed with its former key, id "
                         f"{rekeyed.get('lost_key_id', '?')}, which was lost, and checked against its register when "
                         f"the project was re-keyed on {str(rekeyed.get('time', '?')).replace('T', ' ')})")
            elif self.verified_from > 1:
                text += (f" (releases #1-#{self.verified_from - 1} were checked by structure only when this "
                         "computer took the ledger over from an older dpdesk or another computer)")
            return text
        if self.sealed_to:
            why = (f"this computer's seal covers releases #1-#{self.sealed_to}; the later ones were added by a "
                   "dpdesk without seals")
        elif self.sealed_by and self.sealed_by != self.key_id:
            why = f"sealed on another computer, key id {self.sealed_by}, whose key this computer does not have"
        elif self.unsealed_at_upgrade == f"{self.releases}:{self.head}":
            why = ("not sealed: the file says it was made by a dpdesk before ledgers were sealed, a claim of the "
                   "file itself that this computer cannot check")
        elif self.unsealed_at_upgrade:
            upgraded = self.unsealed_at_upgrade.split(":")[0]
            why = (f"not sealed: the file says releases #1-#{upgraded} were made by a dpdesk before ledgers were "
                   "sealed, but the later ones were added, or the seal removed, outside dpdesk")
        else:
            why = ("not sealed, although its file format is one whose every release dpdesk seals: the seal was "
                   "removed outside dpdesk, or the ledger was written by another program")
        return (f"verified by structure only ({why}; the chain is consistent, but an edit whose hashes were "
                "all recomputed cannot be ruled out here)")

    @property
    def headline(self) -> str:
        """One sentence for a status line: why releases are stopped, or how far the ledger is verified."""
        if self.problems:
            return ("Releases are stopped: the release ledger was edited outside dpdesk. Restore the project "
                    "from a backup made before the edit.")
        if self.rollback and self.rollback_kind == "key":
            return ("Releases are stopped: this computer's ledger key, which sealed this file, is missing or was "
                    "replaced. It is not an edit, and a backup of the project cannot help: restore the key, or "
                    + ("re-key the project, to go on." if self.confirmable else "go on with a copy this computer "
                       "sealed."))
        if self.rollback and not self.confirmable:
            return ("Releases are stopped: this file is behind the ledger this computer last saw, in a state this "
                    "computer never sealed or saw, so it cannot be confirmed here.")
        if self.rollback and self.rollback_kind == "shared":
            return ("Releases are stopped: this file holds data this computer released from under another "
                    "ledger, which it does not recognise. Confirm that it is a project of its own to go on.")
        if self.rollback:
            return ("Releases are stopped: this file is an older copy of the project than this computer last "
                    "saw (its ledger was rolled back). Confirm the rollback to go on.")
        return f"Ledger intact: {self.releases} release(s), {self.trust_text}."

    def message(self, path) -> str:
        if not self.problems and self.rollback and self.rollback_kind == "key":
            text = (f"The project {path} cannot be checked: {self.rollback}. This is not an edit of the project, and "
                    f"restoring the project from a backup cannot help. If you have a backup of your data folder, put "
                    f"its ledger/ledger.key back in {key.key_path().parent}. ")
            if not self.confirmable:
                return text + ("This file cannot be re-keyed here, since this computer never sealed the state it is "
                               "in: go on with a copy this computer sealed, or ask whoever sent this one which "
                               "releases it holds.")
            return text + (f"Otherwise re-key it: dpdesk ledger \"{path}\" --rekey (in Python: "
                           f"ledger.rekey(project); in the app: Re-key this project… on the Releases tab). Its "
                           "releases and budget rows are then checked against this computer's register (what it "
                           "recorded when it sealed them), the re-keying is recorded in the project, and the ledger is "
                           "sealed with this computer's new key; its releases up to now are verified against the "
                           "register from then on, not against the lost key.")
        if not self.problems and self.rollback and not self.confirmable:
            return (f"The project {path} is behind the ledger this computer last saw: {self.rollback}. This "
                    f"computer never sealed or saw the state this file is in, so it cannot be confirmed here and "
                    f"this copy makes no releases. Go on with the copy this computer saw, or ask whoever sent "
                    f"this one which releases it holds.")
        if not self.problems and self.rollback and self.rollback_kind == "shared":
            return (f"The project {path} is not a ledger this computer sealed or saw: {self.rollback}. Releases "
                    f"stop until you confirm, because if it is that ledger rewritten, its spending would be "
                    f"forgotten. If it is a project of its own (made elsewhere, or before ledgers were sealed), "
                    f"confirm with: dpdesk ledger \"{path}\" --accept-rollback (in Python: "
                    f"ledger.accept_rollback(project)); its spending then counts against the same respondents as "
                    f"the releases made here, so keep both within what you promised them.")
        if not self.problems and self.rollback and self.rollback_kind == "budget":
            return (f"The project {path} is an older state of its ledger than this computer last saw: "
                    f"{self.rollback}. It makes no releases until you confirm; confirming keeps the lower budget "
                    f"(the file's budget is lowered back to it). If you restored it on purpose, confirm with: "
                    f"dpdesk ledger \"{path}\" --accept-rollback (in Python: ledger.accept_rollback(project)); the "
                    f"confirmation is recorded in the project.")
        if not self.problems and self.rollback:
            return (f"The project {path} is behind the ledger this computer last saw: {self.rollback}. Releases "
                    f"recorded since then may already be published, and their privacy spending would be "
                    f"forgotten, so this copy makes no releases until you confirm. If you restored it, or made "
                    f"this copy, on purpose, confirm with: dpdesk ledger \"{path}\" --accept-rollback (in "
                    f"Python: ledger.accept_rollback(project)); the confirmation is recorded in the project.")
        shown = "; ".join(self.problems[:3]) + (f"; and {len(self.problems) - 3} more" if len(self.problems) > 3 else "")
        return (f"The release ledger of {path} was edited outside dpdesk ({shown}). The recorded "
                f"privacy spending can no longer be trusted, so this project makes no more releases. "
                f"Restore the project from a backup made before the edit.")

    def to_remember(self, path) -> heads.Head | None:
        """This state as an entry for the register of heads, if it is news to it (else None)."""
        if not self.ok or not self.releases:
            return None
        sealed = self.trust == KEY and self.sealed_to == self.releases
        if self.known == self.releases and (self.head_sealed or not sealed) and (self.data_recorded or not sealed):
            return None  # the register of histories has it already
        return heads.Head(self.project_id, self.releases, self.head, sealed, self.sealed_by, self.mac, str(path),
                          chain=self.chain, budgets=self.budgets if sealed else None,  # this computer's seal holds
                          data=self.data if sealed else ())


def _reference_triggers() -> dict[str, tuple[str, str | None]]:
    """name -> (table, normalised SQL) of the triggers this version of dpdesk creates."""
    made = schema_check.known_schema(schema.SCHEMA_VERSION) or {}
    return {name: (table, normal) for (kind, name), (table, _sql, normal) in made.items() if kind == "trigger"}


def _check_triggers(conn, out: LedgerCheck) -> None:
    reference = _reference_triggers()
    present = {name: (table, schema_check.normalise(sql)) for name, table, sql in
               conn.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")}
    for name in TRIGGERS:
        if name not in present:
            out.problems.append(f"the protecting trigger {name} was removed")
        elif present[name] != reference[name]:
            out.problems.append(f"the protecting trigger {name} was replaced by another one of the same name")
    for name, (table, _sql) in present.items():
        if name not in reference and str(table).lower() in _GUARDED_TABLES:
            out.problems.append(f"a trigger {name!r} that dpdesk does not make was added to the table {table}")


def check(conn: sqlite3.Connection, path: str | Path | None = None, *, respondents=None,
          people=None) -> LedgerCheck:
    """Verify the chain, the head, the triggers, the budgets, the seal and the register (read only).

    ``respondents``: a callable giving the datasets' respondents' fingerprints
    (:func:`dpdesk.project.people.respondents.of_project`), called only when the history is one this
    computer does not recognise and did not seal, so a file holding data released here is found
    even when its recorded SHA-256s and import rows were changed too. ``people``: a callable giving the
    datasets' respondents' signatures (:func:`dpdesk.project.people.respondents.signatures_of`), whose
    name-free sketches find mostly the same people as releases made here, under renamed columns and a few
    rows deleted, added or changed (:mod:`dpdesk.project.ledger.same_people`)."""
    out = LedgerCheck()
    _check_triggers(conn, out)
    prev = GENESIS
    budget_refs = {}
    hashes: list[str] = []
    links: list[tuple] = []
    for row in conn.execute("SELECT * FROM releases ORDER BY seq"):
        out.releases += 1
        seq = row["seq"]
        if seq != out.releases:
            out.problems.append(f"release #{seq} is out of sequence: #{out.releases} was expected "
                                "(releases were deleted or renumbered)")
        if row["prev_hash"] != prev:
            out.problems.append(f"release #{seq} does not follow the release before it "
                                "(a release was deleted, inserted or changed)")
        if row_hash(row) != row["hash"]:
            out.problems.append(f"release #{seq} was changed after it was recorded")
        try:
            ref = json.loads(row["cost"]).get("budget") or {}
            if ref:
                budget_refs[int(ref["id"])] = (ref["epsilon"], ref["delta"], seq)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            out.problems.append(f"release #{seq} has an unreadable cost")
        links.append((row["seq"], row["hash"], row["prev_hash"]))
        prev = row["hash"]
        hashes.append(prev)
    out.head = prev
    out.chain = tuple(links)
    head = conn.execute("SELECT value FROM app WHERE key = ?", (HEAD_KEY,)).fetchone()
    expected = f"{out.releases}:{prev}" if out.releases else None
    if (head[0] if head else None) != expected:
        out.problems.append("the ledger's last release does not match the recorded head "
                            "(a release was deleted or added)")
    _check_budgets(conn, budget_refs, out)
    sc = _check_seal(conn, hashes, out)
    _compare_with_register(conn, hashes, sc, out, path, respondents, people)
    return out


def _check_seal(conn, hashes: list[str], out: LedgerCheck) -> seal.SealCheck:
    out.project_id = seal.project_identity(conn)
    mine = key.load(create=False)
    out.key_id = mine.id if mine else None
    sc = seal.verify(conn, out.project_id, hashes, mine)
    out.problems.extend(sc.problems)
    out.rollbacks = seal.rollbacks(conn)
    if sc.seal is not None:
        out.sealed_by, out.mac = sc.seal.key_id, sc.seal.mac
    if sc.mine:
        out.sealed_to, out.verified_from = sc.sealed_to, sc.verified_from
    if sc.mine and sc.sealed_to == out.releases:
        out.trust = KEY
    elif out.releases or sc.seal is not None:
        out.trust = STRUCTURE
    if sc.seal is not None and not sc.problems and sc.seal.key_id != out.key_id and \
            sc.seal.key_id in heads.own_key_ids():
        out.lost_key = sc.seal.key_id  # this computer's own key, lost: not another computer's seal
    marker = conn.execute("SELECT value FROM app WHERE key = ?", (UNSEALED_AT_UPGRADE,)).fetchone()
    out.unsealed_at_upgrade = str(marker[0]) if marker else None
    return sc


def _confirmed_here(out: LedgerCheck) -> bool:
    """The researcher confirmed going on from this very head (a record under this computer's seal)."""
    return out.trust == KEY and any(r.get("releases") == out.releases and r.get("head") == out.head
                                    for r in out.rollbacks)


def _compare_with_register(conn, hashes: list[str], sc, out: LedgerCheck, path, respondents=None,
                           people=None) -> None:
    """Compare with the histories this computer sealed or saw, then (if it knows none) the project's id."""
    mine = out.trust == KEY
    foreign = out.sealed_by if sc.seal is not None and out.sealed_by != out.key_id and not out.lost_key else None
    budgets, confirmed = history.budget_rows(conn), _confirmed_here(out)
    out.budgets = tuple(tuple(r) for r in budgets)
    data = history.data_of(conn)
    out.data = tuple(history.data_of(conn, released_only=True)) if hashes else ()  # what a sealed state records
    upgraded = out.unsealed_at_upgrade is not None

    def compare(data):
        return heads.read(lambda register: history.compare(
            register, hashes, budgets, mine=mine, foreign=foreign, unsealed=sc.seal is None and not sc.problems,
            confirmed=confirmed, path=None if path is None else str(Path(path)), data=data, upgraded=upgraded),
            history.Verdict())

    verdict = compare(data)
    unknown = (not mine and not verdict.known and not out.problems and not verdict.problems
               and verdict.rollback is None and heads.registry_path_exists())
    if respondents is not None and unknown and (hashes or budgets):
        verdict = compare(data + list(respondents()))  # the rows themselves, whatever the file says of them
    if (people is not None and unknown and verdict.shared is None and not verdict.problems
            and verdict.rollback is None):  # mostly the same people, under renamed columns or changed rows
        delta = budgets[-1][2] if budgets and budgets[-1][2] else 0
        hit = heads.read(lambda register: same_people.found(register, people, delta, exclude=hashes))
        if hit is not None:
            history.compare_people(hit, bool(hashes or budgets), foreign,
                                   sc.seal is None and not sc.problems, upgraded, verdict)
    out.known, out.head_sealed = verdict.known, verdict.head_sealed
    if not out.problems:  # an edit the file's own checks found is reported once, in their words
        out.problems.extend(verdict.problems)
    out.rollback, out.note = verdict.rollback, verdict.note
    out.rollback_kind, out.copy, out.shared = verdict.kind, verdict.copy, verdict.shared
    out.data_recorded = verdict.data_recorded
    if verdict.later:
        out.behind = heads.Head(out.project_id, **verdict.later)
    if (not hashes or not verdict.known) and not verdict.problems:  # the project's id is the only link left
        _compare_with_seen(hashes, out, path, verdict.rollback)
    out.confirmable = out.rollback is not None and (mine or (bool(hashes) and verdict.known == len(hashes))
                                                    or (verdict.kind == "shared" and verdict.confirmable))
    if out.lost_key and not out.problems and out.rollback is None:
        _key_lost(hashes, verdict, out)


def _key_lost(hashes: list[str], verdict, out: LedgerCheck) -> None:
    """The file's seal is this computer's own former key, which is missing or was replaced: not an edit, and
    a backup of the project cannot help. Releases stop until the key is restored, or the file re-keyed
    (:func:`dpdesk.project.ledger.rewind.accept_rollback`), which is allowed only when this computer's
    register holds the file's very state: its last release sealed here, its budget rows extending the ones
    sealed (checked by :func:`history.compare`)."""
    now = (f"which is missing from {key.key_path()}" if out.key_id is None else
           f"which is no longer this computer's key (this computer now seals with key id {out.key_id}: the old "
           "key file was deleted or replaced)")
    out.rollback = (f"its seal was made with this computer's own ledger key (key id {out.lost_key}, recognised from "
                    f"this computer's register), {now}")
    out.rollback_kind = "key"
    out.confirmable = not hashes or (verdict.known == len(hashes) and verdict.head_sealed)
    if not out.confirmable:
        out.rollback += (f"; and this computer's register does not hold the state this file is in (its release "
                         f"#{len(hashes)} is not one this computer sealed)")


def _compare_with_seen(hashes: list[str], out: LedgerCheck, path, found: str | None = None) -> None:
    seen = heads.last_seen(out.project_id)
    out.seen = seen
    if seen is None or found is not None or _confirmed_here(out):
        return
    out.behind = seen
    n = len(hashes)
    where = f"on {seen.time.replace('T', ' ')} in {seen.path}" if seen.path else f"on {seen.time}"
    if seen.path and path is not None and str(Path(path)) != seen.path:
        where += " (another file: a copy of this project)"
    if n < seen.seq:
        out.rollback = (f"its ledger ends at release #{n}, but this computer saw release #{seen.seq} of this "
                        f"project {where}")
    elif seen.seq and hashes[seen.seq - 1] != seen.head:
        if out.trust == KEY:
            pass  # this computer sealed this other history itself (a copy it went on with)
        elif seen.sealed and out.sealed_by is None:
            out.problems.append(f"its releases are not the ones this computer sealed for this project {where}, and "
                                "the seal it put on the ledger is gone: its history was rewritten")
        else:
            out.rollback = (f"its release #{seen.seq} is not the one this computer saw {where}: it is a copy "
                            "whose ledger went another way")
    elif seen.sealed and out.sealed_by is None:
        out.problems.append(f"the seal this computer put on the ledger at release #{seen.seq} was removed")


def record_head(conn: sqlite3.Connection, seq: int, head: str, path, *, new: bool = True) -> heads.Head:
    """Write the head and this installation's seal for release ``seq`` (in the caller's transaction).

    Returns the entry for the register of heads; give it to :func:`heads.remember` after
    the transaction committed (never before: the register must not run ahead of the file).
    """
    if seq:
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)", (HEAD_KEY, f"{seq}:{head}"))
    else:
        conn.execute("DELETE FROM app WHERE key = ?", (HEAD_KEY,))
    # the first release of a file gives it an id of its own: copies made before it are other projects
    made = seal.write(conn, seq, head, key.load(create=True), new=new, fresh_id=new and seq == 1)
    links = tuple(tuple(r) for r in conn.execute("SELECT seq, hash, prev_hash FROM releases ORDER BY seq"))
    return heads.Head(made.project_id, seq, head, True, made.key_id, made.mac, str(path), chain=links,
                      budgets=tuple(tuple(r) for r in history.budget_rows(conn)),
                      data=tuple(history.data_of(conn, released_only=True)) if seq else ())


def reseal(conn: sqlite3.Connection, before: LedgerCheck, path) -> heads.Head | None:
    """Seal the ledger again after a budget was set or lowered (same transaction).

    ``before`` is the check made before the budget row was added. Only a ledger without
    edits is sealed again (a rollback is not laundered by this: the register of heads still
    knows the later head); an edited one keeps its stale seal, so the edit stays visible.
    Returns the entry for the register (remember it after the commit), or None.
    """
    if before.problems or before.rollback_kind in ("shared", "key"):  # never turn an unrecognised history, or
        # one sealed with a lost key before it is re-keyed, into ours
        return None
    return record_head(conn, before.releases, before.head, path, new=False)


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
