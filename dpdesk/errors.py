"""Typed errors whose messages say what is wrong, where, and how to fix it.

The GUI shows any :class:`DpdeskError` in a dialog in plain words; the command line
prints its message on one line and exits non-zero. Messages never contain survey data
beyond the one offending value needed to find the problem.
"""


class DpdeskError(Exception):
    """Base class of every error meant to be shown to a user."""


class DesignError(DpdeskError, ValueError):
    """An impossible randomized-response design or parameter."""


class EstimationError(DpdeskError, ValueError):
    """Counts that cannot be estimated from (wrong length, negative, empty)."""


class DataError(DpdeskError, ValueError):
    """A data file or a mapping that cannot be read as asked."""


class ProjectError(DpdeskError):
    """A project file that cannot be opened or changed."""


class BudgetError(DpdeskError):
    """A release refused by the privacy budget or the ledger."""
