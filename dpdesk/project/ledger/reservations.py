"""Budget reserved by a release whose aggregation runs long (a linked dataset's engine job).

A release from a linked dataset does not hold the spending lock while its engine works,
which may take minutes: it reserves its cost, aggregates, then commits or gives the
reservation back:

1. under the spending lock (:func:`dpdesk.project.ledger.turns.spending_lock`) and the file's
   transaction: check the budget counting every live reservation, then write a reservation;
2. aggregate in the engine, holding no lock (other releases on this computer go on, and see
   the reservation as spent);
3. under the lock again: draw the noise, record the release, drop the reservation, commit.

A reservation is a small JSON file in ``<user data folder>/ledger/reservations/`` (the
project's resolved path, its ledger head, the events reserved) on which its holder keeps an
exclusive ``flock`` (``msvcrt`` on Windows) for as long as it lives. The operating system
drops the lock when the process dies, even by SIGKILL: a reservation whose lock can be taken
is dead, spends nothing and is removed. So a kill at any moment spends nothing (before the
commit: the reservation dies with the process) or records everything (the commit wrote the
release and its cost in the same transaction). A reservation counts against the budget of its
own file and of copies of it on this computer (a file whose chain holds the reservation's
ledger head), never against unrelated projects.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path

from dpdesk.errors import ProjectError
from dpdesk.mechanisms import accounting
from dpdesk.project.file.lock import try_lock
from dpdesk.project.ledger import key

__all__ = ["Reservation", "reserve", "live_events"]

FOLDER = "reservations"


def _folder() -> Path | None:
    try:
        folder = key.ledger_folder() / FOLDER
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    except (OSError, ProjectError):
        return None


def _resolved(path) -> str:
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError, TypeError):
        return str(path)


@dataclass
class Reservation:
    """A live reservation; :meth:`give_back` removes it (idempotent)."""

    path: Path | None
    fd: int | None
    events: tuple

    def give_back(self) -> None:
        if self.fd is None:
            return
        try:
            if self.path is not None:
                os.unlink(self.path)  # while still locked, so no reader mistakes it for a dead one
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None

    def __enter__(self) -> "Reservation":
        return self

    def __exit__(self, *exc) -> None:
        self.give_back()


def reserve(project_path, head: str | None, events) -> Reservation:
    """Write and lock a reservation of ``events`` for the file ``project_path`` (whose last release is ``head``).

    A data folder that cannot be written keeps the reservation in memory only (the caller
    still holds the spending lock for the whole release then: see :mod:`.linked_release`).
    """
    folder = _folder()
    events = tuple(events)
    if folder is None:
        return Reservation(None, None, events)
    path = folder / f"{uuid.uuid4().hex}.json"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    if not try_lock(fd):  # pragma: no cover - a new file nobody else can know of
        os.close(fd)
        raise ProjectError("Could not reserve the release's cost (its reservation file is locked). Try again.")
    record = {"project": _resolved(project_path), "head": head, "pid": os.getpid(),
              "events": [accounting.to_record(e) for e in events]}
    os.write(fd, json.dumps(record).encode("utf-8"))
    os.fsync(fd)
    return Reservation(path, fd, events)


def live_events(project_path, chain_hashes, mine: Reservation | None = None) -> list:
    """The events of every live reservation of this file or a copy of it (``chain_hashes``: this file's
    release hashes), except ``mine``; dead reservations (their process is gone) are removed."""
    folder = _folder()
    if folder is None:
        return []
    here, hashes = _resolved(project_path), set(chain_hashes)
    out = []
    for entry in sorted(folder.glob("*.json")):
        if mine is not None and mine.path is not None and entry == mine.path:
            continue
        try:
            fd = os.open(entry, os.O_RDWR)
        except OSError:
            continue
        try:
            if try_lock(fd):  # nobody holds it: its process died before committing or giving it back
                try:
                    os.unlink(entry)
                except OSError:
                    pass
                continue
            try:
                record = json.loads(os.pread(fd, 1 << 20, 0).decode("utf-8"))
            except (OSError, ValueError, UnicodeDecodeError):
                continue
            related = record.get("project") == here or (record.get("head") and record.get("head") in hashes)
            if related:
                out.extend(accounting.from_record(e) for e in record.get("events") or ())
        finally:
            os.close(fd)
    return out
