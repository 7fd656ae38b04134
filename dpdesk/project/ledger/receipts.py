"""A receipt of the ledger's head, for a data protection officer to keep elsewhere.

A key on the researcher's own computer cannot stop its owner from rewriting their own
ledger (they can read the key, edit, seal again and update the register). What can: a copy
of the ledger's head kept by someone else. After a release, :func:`receipt` gives a short
text (and a QR code of its ``Code:`` line) naming the history::

    dpdesk-receipt:2:<releases>:<SHA-256 of the last release>:<budget rows>:<their SHA-256>:<key id>:<seal MAC>

The hash of release n covers every release before it (each row hashes the one before,
:func:`dpdesk.project.ledger.chain.row_hash`), so :func:`verify_receipt` later checks that a
file still holds that very history: release n has that hash, and the chain up to it
recomputes. The budget rows (their number, and the SHA-256 of the canonical JSON of each
row's id, epsilon, delta, time and dataset, :func:`dpdesk.project.ledger.history.budgets_digest`;
the last of them is the budget in force) are named too, so a lowered budget deleted after
the receipt is found, and every budget row added after it must lower the budget (a row that
raises it, inserted with the triggers dropped, is named). Releases, and budgets lowered, after
the receipt are fine; any change
to the releases or budget rows it names, by anyone, with or without a key, is found. Codes
of the first version (``dpdesk-receipt:1:``, without the budget) are still read, and their
check says that the budget is not covered.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from dpdesk.errors import BudgetError, DataError, ProjectError
from dpdesk.project.ledger import chain, history
from dpdesk.project.ledger.text import epsilon_text

__all__ = ["Receipt", "ReceiptCheck", "receipt", "verify_receipt", "parse", "PREFIX"]

PREFIX = "dpdesk-receipt:2:"
_CODE = re.compile(r"dpdesk-receipt:1:(\d{1,9}):([0-9a-f]{64}):([0-9a-f]{0,64}|-):([0-9a-f]{0,64}|-)")
_CODE2 = re.compile(r"dpdesk-receipt:2:(\d{1,9}):([0-9a-f]{64}):(\d{1,9}):([0-9a-f]{64}):([0-9a-f]{0,64}|-):"
                    r"([0-9a-f]{0,64}|-)")


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
    budgets: int = 0
    budgets_sha256: str = history.budgets_digest([])

    @property
    def code(self) -> str:
        return (f"{PREFIX}{self.releases}:{self.head}:{self.budgets}:{self.budgets_sha256}:{self.key_id or '-'}:"
                f"{self.mac or '-'}")

    @property
    def text(self) -> str:
        return "\n".join([
            "dpdesk ledger receipt",
            f"Project: {self.project}",
            f"Project id: {self.project_id}",
            f"Releases: {self.releases}",
            f"Head (SHA-256 of release #{self.releases}): {self.head}",
            f"Privacy budget spent: {self.spent}",
            f"Budget rows: {self.budgets} (SHA-256 {self.budgets_sha256}; the last is the budget in force)",
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
    if status is not None and status.copies:  # the same people's spending in copies of this project
        spent = (f"{status.spent_here_text} here and {status.copies_text} in copies on this computer "
                 f"({status.spent_text} together) of {status.total_text}")
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")
    rows = [list(r) for r in check.budgets]
    return Receipt(Path(project.path).name, check.project_id, check.releases, check.head,
                   check.sealed_by or "", check.mac or "", spent, now, len(rows), history.budgets_digest(rows))


def parse(text: str) -> tuple[int, str, int | None, str | None]:
    """(releases, head, budget rows, their SHA-256) named by a receipt's text or code (the budget is
    None for a code of the first version); DataError if there is none."""
    found = _CODE2.search(str(text))
    if found is not None:
        return int(found.group(1)), found.group(2), int(found.group(3)), found.group(4)
    found = _CODE.search(str(text))
    if found is None:
        raise DataError("This is not a dpdesk ledger receipt: no line 'Code: dpdesk-receipt:1:…' was found in "
                          "it. Give the receipt's text file (a QR image can be read with any QR reader, and its "
                          "text given instead).")
    return int(found.group(1)), found.group(2), None, None


def _first_not_lowering(budgets, count: int) -> str | None:
    """The first budget row after the receipt's ``count`` that does not lower the budget in force
    before it (epsilon and delta each at most, one of them less, for the whole project), in words."""
    if not count:
        return None
    before = budgets[count - 1]
    for row in budgets[count:]:
        try:
            eps, delta = Fraction(row[1]), Fraction(row[2] or 0)
            eps0, delta0 = Fraction(before[1]), Fraction(before[2] or 0)
        except (ValueError, ZeroDivisionError, TypeError):
            return f"budget row {row[0]} ({row[1]!r}, {row[2]!r}) is not an exact fraction"
        lowers = row[4] is None and eps <= eps0 and delta <= delta0 and (eps < eps0 or delta < delta0)
        if not lowers:
            shown = epsilon_text(eps, delta, up=False)
            was = epsilon_text(eps0, delta0, up=False)
            how = "is for one dataset" if row[4] is not None else ("does not lower it" if (eps, delta) == (
                eps0, delta0) else "raises it")
            return (f"budget row {row[0]} ({shown}, set {row[3]}), added after it, {how} (the budget before it "
                    f"was {was})")
        before = row
    return None


def verify_receipt(project, text: str) -> ReceiptCheck:
    """Check that the project still holds the history ``text`` (a receipt) names: its releases and,
    for a receipt of the second version, its budget rows (the file's first rows recompute to the
    receipt's SHA-256; rows added since are budgets lowered after it)."""
    n, head, count, digest = parse(text)
    with project.transaction() as conn:
        rows = conn.execute("SELECT * FROM releases WHERE seq <= ? ORDER BY seq", (n,)).fetchall()
        total = conn.execute("SELECT count(*) FROM releases").fetchone()[0]
        budgets = history.budget_rows(conn)
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
    if count is not None and (len(budgets) < count or history.budgets_digest(budgets[:count]) != digest):
        return ReceiptCheck(False, f"{where} and {count} budget row(s) with SHA-256 {digest}, but the budget rows of "
                            f"{project.path} ({len(budgets)} now) do not recompute to it: a budget was deleted or "
                            "changed after the receipt was made (the budget in force the receipt names may be gone).",
                            total)
    raised = _first_not_lowering(budgets, count) if count is not None else None
    if raised is not None:
        return ReceiptCheck(False, f"{where} and {count} budget row(s) with SHA-256 {digest}; {project.path} still "
                            f"holds them, but {raised}: every budget row after a receipt must lower the budget, so "
                            "the budget was raised outside dpdesk after the receipt was made.", total)
    later = f"; {total - n} release(s) were made after it" if total > n else ""
    if count is not None and len(budgets) > count:
        later += f"; the budget was lowered {len(budgets) - count} time(s) since"
    budget = (" and its budget rows" if count is not None else
              " (this receipt is of the first version, which does not name the budget: make a new one)")
    return ReceiptCheck(True, f"{where}: {project.path} still holds that history{budget}{later}.", total)
