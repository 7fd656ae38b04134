"""Errors in plain words: a dialog for every DpdeskError and an excepthook for the rest.

A :class:`~dpdesk.errors.DpdeskError` already says what is wrong, where and how to fix
it, so its message is shown as it is. Any other exception is a bug in dpdesk: the dialog
says so in plain words, and the expandable details hold the program's location
(files, lines, functions) and the exception's type, never its message, which could
quote survey data.
"""

from __future__ import annotations

import sys
import traceback
from types import TracebackType

from PySide6.QtWidgets import QApplication, QWidget  # QMessageBox where a box is made (start-up time)

from dpdesk import __version__
from dpdesk.errors import BudgetError, DataError, DesignError, DpdeskError, EstimationError, ProjectError, app_words

TITLES = {
    ProjectError: "The project file could not be used",
    DataError: "The data could not be read as asked",
    DesignError: "This design is not possible",
    EstimationError: "These numbers cannot be estimated",
    BudgetError: "The privacy budget does not allow this",
}

BUG_TEXT = (
    "This is a mistake in dpdesk, not in your work. Your project is saved after every change, "
    "so nothing was lost.\n\n"
    "You can carry on. If it happens again, please report it with the details below "
    "(they show where in the program it happened, not your data)."
)


def title_for(exc: BaseException) -> str:
    for cls, title in TITLES.items():
        if isinstance(exc, cls):
            return title
    return "dpdesk cannot do this" if isinstance(exc, DpdeskError) else "Something went wrong"


def safe_details(exc: BaseException) -> str:
    """Where the error happened (frames and exception type), without its message."""
    tb = traceback.extract_tb(exc.__traceback__)
    lines = [f"dpdesk {__version__}, Python {sys.version.split()[0]}",
             f"{type(exc).__module__}.{type(exc).__qualname__} (its message is left out: it may quote data)"]
    lines += [f'  File "{f.filename}", line {f.lineno}, in {f.name}' for f in tb]
    return "\n".join(lines)


def error_box(exc: BaseException, parent: QWidget | None = None) -> QMessageBox:
    """The (not yet shown) dialog for ``exc``."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(parent)
    box.setObjectName("errorDialog")
    box.setIcon(QMessageBox.Icon.Warning if isinstance(exc, DpdeskError) else QMessageBox.Icon.Critical)
    box.setWindowTitle("dpdesk")
    box.setText(f"<b>{title_for(exc)}</b>")
    if isinstance(exc, DpdeskError) and getattr(exc, "details", None):  # a summary, and its details apart
        box.setInformativeText(str(getattr(exc, "summary", exc)))
        box.setDetailedText(str(exc.details))
    elif isinstance(exc, DpdeskError):
        box.setInformativeText(app_words(exc))
    else:
        box.setInformativeText(BUG_TEXT)
        box.setDetailedText(safe_details(exc))
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    box.setAccessibleName("Error message")
    box.setAccessibleDescription(title_for(exc))
    return box


def show_error(exc: BaseException, parent: QWidget | None = None) -> QMessageBox:
    """Show ``exc`` in a window-modal dialog (does not block: tests and workers go on)."""
    box = error_box(exc, parent)
    box.setModal(True)
    box.open()
    return box


def show_message(parent: QWidget | None, title: str, text: str) -> QMessageBox:
    """A warning in words that needs no decision (window-modal, does not block)."""
    from PySide6.QtWidgets import QMessageBox

    box = QMessageBox(QMessageBox.Icon.Warning, "dpdesk", f"<b>{title}</b>", QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("messageDialog")
    box.setInformativeText(text)
    box.setModal(True)
    box.open()
    return box


_shown: list[QMessageBox] = []


def excepthook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    """``sys.excepthook`` for the app: a dialog instead of a crash (Ctrl+C still quits)."""
    if issubclass(exc_type, KeyboardInterrupt):
        sys.__excepthook__(exc_type, exc, tb)
        return
    if exc.__traceback__ is None:
        exc = exc.with_traceback(tb)
    print(safe_details(exc), file=sys.stderr)
    if QApplication.instance() is None:
        return
    parent = QApplication.activeWindow()
    box = show_error(exc, parent)
    _shown.append(box)
    box.finished.connect(_forget)


def _forget() -> None:
    _shown[:] = [b for b in _shown if b.isVisible()]


def install_excepthook() -> None:
    sys.excepthook = excepthook
