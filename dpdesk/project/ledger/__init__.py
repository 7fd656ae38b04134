"""The privacy budget and the release ledger (central differential privacy).

Owns the budget, the transaction that releases a noisy statistic (check the budget, compute,
draw, record, commit), the hash chain and its seal that find edits and rollbacks, and budget amounts as text. The
request itself, with its noise and privacy events, is a pure value from
``dpdesk.mechanisms.central``. May use ``file`` and ``items``; never the readers or exports.
"""

from __future__ import annotations

from dpdesk.lazy import exports

_PUBLIC = {
    **{name: "dpdesk.project.ledger.budget"
       for name in ("BudgetStatus", "budget_status", "dataset_sha256", "lower_budget", "set_budget")},
    **{name: "dpdesk.project.ledger.releases"
       for name in ("BudgetExceeded", "LedgerEntry", "LedgerTamperedError", "Preview", "ledger", "plan",
                    "preview", "release", "shared_spending", "verify_ledger")},
    "LedgerRolledBackError": "dpdesk.project.ledger.heads",
    "accept_rollback": "dpdesk.project.ledger.rewind",
    "rekey": "dpdesk.project.ledger.rewind",
    **{name: "dpdesk.project.ledger.receipts" for name in ("Receipt", "ReceiptCheck", "receipt", "verify_receipt")},
}

__all__ = sorted(_PUBLIC)

__getattr__ = exports(__name__, _PUBLIC)
