"""A receipt of the ledger's head, for a data protection officer to keep elsewhere.

A key on the researcher's own computer cannot stop its owner from rewriting their own
ledger (they can read the key, edit, seal again and update the register). What can: a copy
of the ledger's head kept by someone else. After a release, :func:`receipt` gives a short
text (and a QR code of its ``Code:`` line) naming the history::

    dpdesk-receipt:1:<releases>:<SHA-256 of the last release>:<key id>:<seal MAC>

The hash of release n covers every release before it (each row hashes the one before,
:func:`dpdesk.project.ledger.chain.row_hash`), so :func:`verify_receipt` later checks that a
file still holds that very history: release n has that hash, and the chain up to it
recomputes. Releases made after the receipt are fine; any change to the releases it names,
by anyone, with or without a key, is found.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from pathlib import Path

from dpdesk.errors import BudgetError, DataError, ProjectError
from dpdesk.project.ledger import chain

__all__ = ["Receipt", "ReceiptCheck", "receipt", "verify_receipt", "parse", "PREFIX"]

PREFIX = "dpdesk-receipt:1:"
_CODE = re.compile(r"dpdesk-receipt:1:(\d{1,9}):([0-9a-f]{64}):([0-9a-f]{0,64}|-):([0-9a-f]{0,64}|-)")


@dataclass(frozen=True)
class Receipt:
    """The head of a ledger, its seal and its spending, as a text and a code for a QR image."""

    project: str
    project_id: str
    releases: int
    head: str
    key_id: str
    mac: str
    spent: str
    time: str

    @property
    def code(self) -> str:
        return f"{PREFIX}{self.releases}:{self.head}:{self.key_id or '-'}:{self.mac or '-'}"

    @property
    def text(self) -> str:
        return "\n".join([
            "dpdesk ledger receipt",
            f"Project: {self.project}",
            f"Project id: {self.project_id}",
            f"Releases: {self.releases}",
            f"Head (SHA-256 of release #{self.releases}): {self.head}",
            f"Privacy budget spent: {self.spent}",
            f"Sealed with key id: {self.key_id or 'none'}",
            f"Seal (HMAC-SHA-256): {self.mac or 'none'}",
            f"Made: {self.time}",
            f"Check it: dpdesk ledger PROJECT --verify-receipt RECEIPT",
            f"Code: {self.code}",
            "",
        ])

    def save(self, path) -> Path:
        """Write the receipt: ``.png`` or ``.svg`` as a QR code of its code, with its text beside it
        (same name, ``.txt``); anything else as text."""
        path = Path(path)
        suffix = path.suffix.lower()
        try:
            if suffix in (".png", ".svg"):
                import segno

                segno.make(self.code, error="m").save(str(path), scale=6 if suffix == ".png" else 4, border=4)
                path.with_suffix(".txt").write_text(self.text, encoding="utf-8")
            else:
                path.write_text(self.text, encoding="utf-8")
        except OSError as exc:
            raise ProjectError(f"Could not write the receipt to {path} ({exc.strerror or exc}). Choose a folder "
                              "you can write to.") from exc
        return path


@dataclass(frozen=True)
class ReceiptCheck:
    """Whether the file still holds the history a receipt names; ``message`` says it in words."""

    ok: bool
    message: str
    releases: int = 0


def receipt(project) -> Receipt:
    """A receipt of the project's ledger as it is now (refused when the ledger is not intact)."""
    from dpdesk.project.ledger.releases import budget_status, verify_ledger

    check = verify_ledger(project)
    if not check.ok:
        raise BudgetError("No receipt can be made: " + check.message(project.path))
    if not check.releases:
        raise BudgetError(f"The project {project.path} has no releases yet, so there is no history to make a "
                          "receipt of. Make one after a release.")
    status = budget_status(project)
    spent = f"{status.spent_text} of {status.total_text}" if status is not None else "no budget set"
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    return Receipt(Path(project.path).name, check.project_id, check.releases, check.head,
                   check.sealed_by or "", check.mac or "", spent, now)


def parse(text: str) -> tuple[int, str]:
    """(releases, head) named by a receipt's text or code; DataError if there is none."""
    found = _CODE.search(str(text))
    if found is None:
        raise DataError("This is not a dpdesk ledger receipt: no line 'Code: dpdesk-receipt:1:…' was found in "
                          "it. Give the receipt's text file (a QR image can be read with any QR reader, and its "
                          "text given instead).")
    return int(found.group(1)), found.group(2)


def verify_receipt(project, text: str) -> ReceiptCheck:
    """Check that the project still holds the history ``text`` (a receipt) names."""
    n, head = parse(text)
    with project.transaction() as conn:
        rows = conn.execute("SELECT * FROM releases WHERE seq <= ? ORDER BY seq", (n,)).fetchall()
        total = conn.execute("SELECT count(*) FROM releases").fetchone()[0]
    where = f"The receipt names release #{n} with SHA-256 {head}"
    if len(rows) < n or n == 0:
        return ReceiptCheck(False, f"{where}, but {project.path} has only {total} release(s): releases it named "
                            "were deleted.", total)
    prev = chain.GENESIS
    for i, row in enumerate(rows, start=1):
        if row["seq"] != i or row["prev_hash"] != prev or chain.row_hash(row) != row["hash"]:
            return ReceiptCheck(False, f"{where}, but release #{row['seq']} of {project.path} does not recompute: "
                                "the history was changed after the receipt was made.", total)
        prev = row["hash"]
    if prev != head:
        return ReceiptCheck(False, f"{where}, but release #{n} of {project.path} has SHA-256 {prev}: the releases "
                            "up to it were rewritten after the receipt was made (whatever seal the file carries).",
                            total)
    later = f"; {total - n} release(s) were made after it" if total > n else ""
    return ReceiptCheck(True, f"{where}: {project.path} still holds that history{later}.", total)
