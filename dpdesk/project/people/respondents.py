"""Respondents seen before: the same people arriving in another file, or in another project.

A project's one budget covers every dataset imported into it, so re-importing the same
people inside a project never resets anything. Across projects it could: a new project
made from the same survey starts with a fresh budget. dpdesk therefore remembers, in a
small registry in the user's data folder (``released_respondents.sqlite``), the
respondents of every dataset a noisy release was made from, by their signature
(:func:`dpdesk.project.people.fingerprint.respondents_signature`: a fingerprint over the sorted,
normalised rows and a sketch of 256 row hashes; no row is stored) with the project, the
dataset and the budget spent. Importing data warns (it never blocks) when the same
respondents, or most of them, were released from before:

- in this project ("the project's budget already covers them"), or
- in another project on this machine ("... released from survey.dpdesk, ε = 0.8 spent").

What it catches: the same rows in another order, with blank rows, in another encoding or
file format, under renamed or reordered columns, with rows added, removed or corrected (the
name-free sketch, :mod:`dpdesk.project.people.sketch`, estimates the share of rows in common;
2% or more warns; from half on, the ledger also charges those releases to the file,
:mod:`dpdesk.project.ledger.copies`). What it cannot catch: data recoded or reworded in most
rows (other codes for the same answers), a column with values added or dropped (every row
changes), data released on another machine, under another user account or by another program,
and a registry the user deleted.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from dpdesk.project.people.fingerprint import overlap, respondents_signature
from dpdesk.project.people.sketch import SHARED_FEW
from dpdesk.project.people.user_data import user_data_folder

REGISTRY = "released_respondents.sqlite"
#: An imported dataset sharing at least this share of its rows with released data warns (a few people in
#: common; from :data:`dpdesk.project.people.sketch.SAME_PEOPLE` on, the releases are charged to it too).
OVERLAP_WARNING = SHARED_FEW
CACHE_KEY = "respondents:{}"  # the app table caches each dataset's signature by its id

_SCHEMA = """CREATE TABLE IF NOT EXISTS released (
    project     TEXT NOT NULL,   -- the project file's absolute path
    dataset     TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    signature   TEXT NOT NULL,   -- JSON: respondents_signature (fingerprint, counts, sketch)
    spent       TEXT NOT NULL,   -- e.g. "ε = 0.8", rounded up
    updated     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (project, fingerprint)
)"""


@dataclass(frozen=True)
class Seen:
    """Released data that an import overlaps: where, how much was spent, how much in common."""

    project: str
    dataset: str
    spent: str
    share: float
    here: bool  # in the project being imported into
    #: the share of the released dataset's respondents that these data hold (None: not estimated)
    of_released: float | None = None

    def message(self) -> str:
        common = "the same respondents" if self.share >= 0.999 else f"about {self.share:.0%} of these respondents"
        if self.share >= 0.999 and self.of_released is not None and self.of_released < 0.999:
            common = f"a part (about {self.of_released:.0%}) of the respondents"
        if self.here:
            return (f"These data hold {common} as the dataset {self.dataset!r} of this project, which noisy "
                    f"releases were made from ({self.spent} spent). The project's one privacy budget already "
                    "covers them: nothing is reset.")
        return (f"These data hold {common} as the dataset {self.dataset!r} of the project {self.project}, "
                f"from which {self.spent} of privacy budget was already spent. A budget protects people, not "
                "files: set this project's budget so that both together stay within what you promised them.")


def _connect() -> sqlite3.Connection:
    conn = sqlite3.connect(user_data_folder() / REGISTRY, timeout=10)
    conn.execute(_SCHEMA)
    return conn


def signature(project, dataset, frame=None) -> dict:
    """The dataset's respondent signature, computed once and kept in the project's app table."""
    key = CACHE_KEY.format(dataset.id)
    with project.transaction() as conn:
        row = conn.execute("SELECT value FROM app WHERE key = ?", (key,)).fetchone()
    if row is not None:
        try:
            cached = json.loads(row[0])
        except ValueError:
            cached = None
        if _current(cached) or (isinstance(cached, dict) and _is_linked(dataset)):
            return cached  # a linked dataset's is brought up to date by its next release (ledger.linked_release)
    sig = respondents_signature(project.dataset_frame(dataset.name) if frame is None else frame)
    with project.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)", (key, json.dumps(sig)))
    return sig


def _current(sig) -> bool:
    """Whether a cached signature carries a name-free sketch of this version (one cached by an older dpdesk is
    computed again from the rows: the register then keeps this version's, which linked sources can match)."""
    from dpdesk.project.people.sketch import VERSION

    return isinstance(sig, dict) and isinstance(sig.get("people"), dict) and sig["people"].get("v") == VERSION


def _is_linked(ds) -> bool:
    opts = ds.options if isinstance(getattr(ds, "options", None), dict) else {}
    return isinstance(opts.get("linked"), dict)


def _of_rows(project) -> list[tuple[str, dict]]:
    """(dataset name, respondents' signature) of each dataset, computed from the rows (never the file's
    cached claim) and kept in memory with the open project while its datasets stay the same."""
    datasets = project.datasets()
    key = tuple((ds.id, ds.name, getattr(ds, "n_rows", None), getattr(ds, "sha256", None)) for ds in datasets)
    kept = getattr(project, "_signatures_of_rows", None)
    if kept is not None and kept[0] == key:
        return list(kept[1])
    out = []
    for ds in datasets:
        try:
            out.append((ds.name, _linked(ds) or respondents_signature(project.dataset_frame(ds.name))))
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    try:
        project._signatures_of_rows = (key, tuple(out))
    except AttributeError:  # a project object that keeps nothing: computed again next time
        pass
    return out


def _linked(ds) -> dict | None:
    """A linked dataset's signature, as its engine computed it when it was linked (dpdesk.project.linked.people).

    Its rows are not in the file: reading them all again at every check would scan the whole source,
    so the recorded signature is used; the source's files are checked against their fingerprint before
    every release from it. None for an imported dataset (its signature is computed from its rows)."""
    opts = ds.options if isinstance(getattr(ds, "options", None), dict) else {}
    report = ds.report if isinstance(getattr(ds, "report", None), dict) else {}
    if not isinstance(opts.get("linked"), dict):
        return None
    sig = (report.get("linked") or {}).get("respondents") if isinstance(report.get("linked"), dict) else None
    if not isinstance(sig, dict) or not isinstance(sig.get("fingerprint"), str):
        raise ValueError("a linked dataset without its respondents' signature")
    return sig


def of_project(project):
    """A callable giving each dataset's respondents as ("respondents", fingerprint, name), computed
    from the rows themselves (the signature cached in the file is the file's claim, which an edit
    can forge), never written (the file may be read only, or from elsewhere), and kept in memory
    with the open project. The ledger's check calls it only for a history this computer does not
    recognise."""
    def compute() -> list[tuple[str, str, str]]:
        return [("respondents", str(sig["fingerprint"]), name) for name, sig in _of_rows(project)]
    return compute


def signatures_of(project):
    """A callable giving the respondents' signature of each dataset of ``project``, computed from the rows
    (as :func:`of_project`, never the file's cached claim) and kept in memory with the project. The
    ledger's count of the spending of copies and of the same people (:mod:`dpdesk.project.ledger.copies`)
    and its check of a history it does not recognise (their name-free sketches) use it."""
    def compute() -> list[dict]:
        return [sig for _name, sig in _of_rows(project)]
    return compute


def remember_release(project, dataset, spent_text: str, frame=None) -> None:
    """After a release: these respondents were released from this project, ``spent_text`` so far."""
    sig = signature(project, dataset, frame)
    with _connect() as conn:
        conn.execute("INSERT OR REPLACE INTO released(project, dataset, fingerprint, signature, spent) "
                     "VALUES (?, ?, ?, ?, ?)",
                     (str(Path(project.path).resolve()), dataset.name, sig["fingerprint"], json.dumps(sig), spent_text))


def seen_before(project, sig: dict) -> list[Seen]:
    """Released data (here or in other projects on this machine) that shares many rows with ``sig``."""
    here = str(Path(project.path).resolve())
    out = []
    with _connect() as conn:
        rows = conn.execute("SELECT project, dataset, signature, spent FROM released ORDER BY updated DESC").fetchall()
    for path, dataset, stored, spent in rows:
        try:
            theirs = json.loads(stored)
            share = overlap(sig, theirs)
            of_released = _of_released(sig, theirs)
        except (ValueError, TypeError, AttributeError):
            continue
        if share >= OVERLAP_WARNING:
            out.append(Seen(path, dataset, spent, share, path == here, of_released))
    return out


def _of_released(sig: dict, theirs: dict) -> float | None:
    """The share of the released data's rows that ``sig``'s data hold (by the name-free sketches), or None."""
    if not isinstance(sig.get("people"), dict) or not isinstance(theirs.get("people"), dict):
        return None
    from dpdesk.project.people.sketch import containment, sketch_for

    released = theirs["people"]
    mine = sketch_for(sig, released.get("v"))
    if mine is None and isinstance(theirs.get("people_v2"), dict):
        mine, released = sketch_for(sig, 2), theirs["people_v2"]
    return None if mine is None else containment(mine, released)[0]


def import_warnings(project, frame) -> tuple[dict, list[str]]:
    """(the signature of ``frame``, a warning per released dataset it overlaps). Never raises
    for a registry that cannot be read: the warning is a courtesy, the budget is the guarantee."""
    sig = respondents_signature(frame)
    try:
        return sig, [s.message() for s in seen_before(project, sig)]
    except (OSError, sqlite3.Error):
        return sig, []
