"""Project settings on which columns are protected, kept in the project file's ``app`` table.

Two sources mark a column as protected, and the subgroup check
(:mod:`dpdesk.project.sharing.subgroup_disclosure`) reads both:

* columns the researcher marks explicitly (:func:`set_protected_columns`; ``dpdesk protect``);
* the roles of the last shared extract (:func:`save_sharing_settings`, written by
  ``dpdesk share ... OUT`` and the Share view's export): its quasi-identifiers and
  sensitive columns, and its k.

Settings are JSON values under the keys below; no schema change. The smallest group shown
with its exact size defaults to the sharing k, else :data:`DEFAULT_MIN_GROUP`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Iterable

PROTECTED_KEY = "protected_columns"
SHARING_KEY = "sharing_settings"
#: Smallest subgroup whose exact size is shown when nothing else is set (as the default k of sharing).
DEFAULT_MIN_GROUP = 5


@dataclass(frozen=True)
class SharingSettings:
    """The roles and the k of the last extract shared from the project."""

    k: int | None = None
    quasi: tuple[str, ...] = ()
    sensitive: tuple[str, ...] = ()
    #: (column, method) of the identifiers it pseudonymised ("FF1"; "FF3-1" in no new extract)
    pseudonymised: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Protection:
    """Protected columns with the reason for each, and the smallest group to show."""

    reasons: dict[str, str] = field(default_factory=dict)  # column -> why it is protected
    min_group: int = DEFAULT_MIN_GROUP

    @property
    def columns(self) -> list[str]:
        return list(self.reasons)


def _get(project, key: str):
    row = project.connection.execute("SELECT value FROM app WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    try:
        return json.loads(row[0])
    except (TypeError, ValueError):
        return None  # an unreadable setting counts as not set


def _put(project, key: str, value) -> None:
    with project.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)", (key, json.dumps(value)))


def _names(value) -> list[str]:
    return [str(c) for c in value] if isinstance(value, list) else []


def protected_columns(project) -> list[str]:
    """The columns the researcher marked as protected (in the order marked)."""
    return _names(_get(project, PROTECTED_KEY))


def set_protected_columns(project, columns: Iterable[str]) -> list[str]:
    """Mark exactly ``columns`` as protected (an empty list clears the marks); returns them."""
    names = list(dict.fromkeys(str(c) for c in columns))
    _put(project, PROTECTED_KEY, names)
    return names


def sharing_settings(project) -> SharingSettings:
    value = _get(project, SHARING_KEY)
    if not isinstance(value, dict):
        return SharingSettings()
    k = value.get("k")
    pseudonyms = value.get("pseudonymised")
    pairs = tuple((str(c), str(m)) for c, m in pseudonyms.items() if m in ("FF1", "FF3-1")
                  ) if isinstance(pseudonyms, dict) else ()
    return SharingSettings(k if isinstance(k, int) and not isinstance(k, bool) and k >= 2 else None,
                           tuple(_names(value.get("quasi"))), tuple(_names(value.get("sensitive"))), pairs)


def save_sharing_settings(project, *, k: int, quasi: Iterable[str], sensitive: Iterable[str],
                          pseudonymised: dict[str, str] | None = None) -> None:
    """Remember the k and roles of an extract just shared (the subgroup check uses them), and the method of
    each column it pseudonymised (the methods text names it)."""
    _put(project, SHARING_KEY, {"k": int(k), "quasi": [str(c) for c in quasi],
                                "sensitive": [str(c) for c in sensitive],
                                "pseudonymised": {str(c): str(m) for c, m in (pseudonymised or {}).items()}})


def protection(project) -> Protection:
    """Every protected column with its reason, and the smallest group to show exactly."""
    reasons = {c: "marked as protected in the project" for c in protected_columns(project)}
    share = sharing_settings(project)
    for column in share.quasi:
        reasons.setdefault(column, "a quasi-identifier of the shared extract")
    for column in share.sensitive:
        reasons.setdefault(column, "a sensitive column of the shared extract")
    return Protection(reasons, share.k or DEFAULT_MIN_GROUP)
