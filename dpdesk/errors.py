"""Typed errors whose messages say what is wrong, where, and how to fix it.

The GUI shows any :class:`DpdeskError` in a dialog in plain words; the command line
prints its message on one line and exits non-zero. Messages never contain survey data
beyond the one offending value needed to find the problem.
"""


class DpdeskError(Exception):
    """Base class of every error meant to be shown to a user.

    ``in_app`` (optional) is the same message for the desktop app: it names the app's
    buttons and menus instead of command-line flags (the GUI shows it when given).
    """

    in_app: str | None = None


def in_app(exc: DpdeskError, text: str) -> DpdeskError:
    """Give ``exc`` the wording the desktop app shows (see :class:`DpdeskError`); returns it."""
    exc.in_app = text
    return exc


def app_words(exc: BaseException) -> str:
    """What the desktop app shows of ``exc``: its ``in_app`` wording when it has one, else its message.

    Every place in the GUI that shows an error's words goes through here, so that the app never
    shows a command-line flag (``tests/gui/test_no_command_line_in_app.py``)."""
    return getattr(exc, "in_app", None) or str(exc)


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
