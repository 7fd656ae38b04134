"""Exact subgroup counts versus central DP: the warning before they are shown or exported.

The randomized-response results list every subgroup with its exact ``n`` from the data
("west: n = 2"). Randomized response protects each *answer*, not the size of a group. When
the subgroup column is also released with central DP (a noisy histogram of ``region`` in
the ledger), the exact sizes are the very counts the noise hides, so publishing them
undoes that protection; and a small group's exact size with its estimate can single out
the few people in it. The same holds for a column the researcher marked as protected, or
that was a quasi-identifier or sensitive column of a shared extract
(:mod:`dpdesk.project.sharing.column_protection`).

:func:`subgroup_warning` is the pure check: given the subgroup column, the group sizes,
the ledger's releases and the protected columns, it returns a :class:`SubgroupWarning`
(or None). Leaving out groups smaller than a threshold (``analyze(min_group_size=N)``)
limits the small-group risk; it does not make the remaining exact counts noisy.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from dpdesk.project.sharing.column_protection import DEFAULT_MIN_GROUP

__all__ = ["NoisyRelease", "SubgroupWarning", "releases_using", "subgroup_warning", "group_sizes", "check_results"]


@dataclass(frozen=True)
class NoisyRelease:
    """A ledger release that used the column: its sequence number and description."""

    seq: int
    description: str


@dataclass(frozen=True)
class SubgroupWarning:
    """Why exact subgroup counts by ``column`` undercut the project's protection, and the offer."""

    column: str
    releases: tuple[NoisyRelease, ...] = ()
    protected_because: str | None = None
    threshold: int = DEFAULT_MIN_GROUP
    small_groups: dict[str, int] = field(default_factory=dict)  # shown groups with n < threshold
    left_out: dict[str, int] = field(default_factory=dict)  # groups already left out (n < threshold)
    label: str | None = None  # what output calls the column (its label)

    @property
    def reason(self) -> str:
        parts = []
        if self.releases:
            listed = "; ".join(f"#{r.seq} {r.description}" for r in self.releases[:3])
            more = f" and {len(self.releases) - 3} more" if len(self.releases) > 3 else ""
            parts.append(f"has noisy (central DP) releases in the ledger ({listed}{more})")
        if self.protected_because:
            parts.append(f"is protected ({self.protected_because})")
        return " and ".join(parts)

    @property
    def headline(self) -> str:
        """One line: what and why."""
        name = f"{self.label} (column {self.column!r})" if self.label and self.label != self.column else \
            repr(self.column)
        return (f"Subgroups by {name} show exact counts (n), but {self.column!r} {self.reason}: "
                "the exact n of each group undercuts that protection.")

    @property
    def groups_text(self) -> str:
        """The small groups (or those left out), in words."""
        if self.small_groups:
            groups = ", ".join(f"{g} (n = {n})" for g, n in list(self.small_groups.items())[:5])
            more = f" and {len(self.small_groups) - 5} more" if len(self.small_groups) > 5 else ""
            return f"{len(self.small_groups)} group(s) have fewer than {self.threshold} respondents: {groups}{more}."
        if self.left_out:
            return (f"{len(self.left_out)} group(s) with fewer than {self.threshold} respondents are left out; "
                    "the other groups' exact n are still shown.")
        return f"No group has fewer than {self.threshold} respondents, but every group's exact n is still shown."

    @property
    def offer(self) -> str:
        """The small groups and what can be done about them."""
        tail = f" You can leave out groups smaller than {self.threshold}." if self.small_groups else ""
        return self.groups_text + tail

    @property
    def message(self) -> str:
        return f"{self.headline} {self.offer}"


def _columns_of(request: Mapping[str, Any]) -> set[str]:
    columns = request.get("columns", request.get("column")) or []
    if isinstance(columns, str):
        columns = [columns]
    used = {str(c) for c in columns}
    if request.get("by") is not None:
        used.add(str(request["by"]))
    return used


def _field(entry, name: str):
    return entry.get(name) if isinstance(entry, Mapping) else getattr(entry, name, None)


def _description(request: Mapping[str, Any]) -> str:
    from dpdesk.mechanisms.central.request import describe

    try:
        return describe(request)
    except Exception:  # noqa: BLE001 - an odd stored request still counts; it is only named less well
        return str(request.get("statistic", "release"))


def releases_using(entries: Iterable[Any], column: str) -> tuple[NoisyRelease, ...]:
    """The ledger entries whose request used ``column`` (as a column or as ``by``).

    An entry is a :class:`~dpdesk.project.ledger.releases.LedgerEntry` or a row of
    ``Project.ledger_rows()`` (``seq``, ``request`` and optionally ``description``).
    """
    out = []
    for entry in entries:
        request = _field(entry, "request")
        if not isinstance(request, Mapping):
            continue
        if str(column) in _columns_of(request):
            description = _field(entry, "description") or _description(request)
            out.append(NoisyRelease(int(_field(entry, "seq")), str(description)))
    return tuple(out)


def subgroup_warning(column: str | None, sizes: Mapping[str, int], *, entries: Iterable[Any] = (),
                     protected: Mapping[str, str] | Iterable[str] = (), threshold: int = DEFAULT_MIN_GROUP,
                     left_out: Mapping[str, int] | None = None) -> SubgroupWarning | None:
    """The warning for subgroups by ``column`` (None when the column is neither released nor protected).

    ``sizes`` maps each shown group to its exact n; ``entries`` are the ledger's releases;
    ``protected`` is a list of columns or a mapping column -> reason; groups with
    ``n < threshold`` are reported as small; ``left_out`` lists the groups already left out.
    """
    if column is None:
        return None
    column = str(column)
    reasons = dict(protected) if isinstance(protected, Mapping) else {str(c): "marked as protected" for c in protected}
    releases = releases_using(entries, column)
    because = reasons.get(column)
    if not releases and because is None:
        return None
    threshold = max(1, int(threshold))
    small = {str(g): int(n) for g, n in sizes.items() if int(n) < threshold}
    return SubgroupWarning(column, releases, because, threshold, small, dict(left_out or {}))


def group_sizes(results: Iterable[Any]) -> tuple[dict[str, int], dict[str, int]]:
    """(shown, left out): each subgroup's smallest exact n over the items of ``analyze`` results."""
    shown: dict[str, int] = {}
    left: dict[str, int] = {}
    for r in results:
        subgroups = getattr(r, "subgroups", None)
        for label, estimate in (getattr(subgroups, "estimates", None) or {}).items():
            shown[str(label)] = min(int(estimate.n), shown.get(str(label), int(estimate.n)))
        for label, n in (getattr(r, "left_out_groups", None) or {}).items():
            left[str(label)] = min(int(n), left.get(str(label), int(n)))
    return shown, left


def check_results(project, results: list, *, threshold: int | None = None) -> SubgroupWarning | None:
    """:func:`subgroup_warning` for ``analyze`` results, with the project's ledger and protection.

    Every release in the project counts, whatever dataset it was drawn from: the budget
    protects people, and the same people may be in another dataset of the project.
    """
    from dpdesk.project.sharing.column_protection import protection

    by = next((r.by for r in results if getattr(r, "by", None)), None)
    if by is None:
        return None
    settings = protection(project)
    shown, left = group_sizes(results)
    warning = subgroup_warning(by, shown, entries=project.ledger_rows(), protected=settings.reasons,
                               threshold=settings.min_group if threshold is None else threshold, left_out=left)
    label = next((r.by_label for r in results if getattr(r, "by_label", None)), None)
    return None if warning is None else replace(warning, label=label)
