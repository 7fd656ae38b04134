"""The privacy budget and the release ledger (central differential privacy).

Owns the budget, the transaction that releases a noisy statistic (check the budget, compute,
draw, record, commit), the hash chain that finds edits, and budget amounts as text. The
request itself, with its noise and privacy events, is a pure value from
``dpdesk.mechanisms.central``. May use ``file`` and ``items``; never the readers or exports.
"""

from dpdesk.project.ledger.budget import BudgetStatus, budget_status, dataset_sha256, lower_budget, set_budget
from dpdesk.project.ledger.releases import (
    BudgetExceeded,
    LedgerEntry,
    LedgerTamperedError,
    Preview,
    ledger,
    plan,
    preview,
    release,
    verify_ledger,
)

__all__ = [
    "BudgetStatus", "LedgerEntry", "Preview", "LedgerTamperedError", "BudgetExceeded",
    "set_budget", "lower_budget", "budget_status", "release", "ledger", "verify_ledger",
    "preview", "plan", "dataset_sha256",
]
