"""Direct identifiers left out of an import, by the rules of :mod:`dpdesk.project.people.identifiers`.

Such columns are dropped unless ``keep_identifiers`` is ``True`` or lists them; the report says
which and why. A column where only a few values look like e-mail addresses or phone numbers
gets a warning (free text where someone left contact details).
"""

from __future__ import annotations

from dpdesk.errors import DataError
from dpdesk.project.people.identifiers import (  # noqa: F401 - the rules live with the people; read here
    SAMPLE, TIME_STAMP_NAMES, _key, by_content, by_name, is_time_stamp_name)


def exclude(frame, report, keep, name: str):
    """Drop identifier columns (unless kept), recording each with its reason in ``report``."""
    keep_all = keep is True
    if isinstance(keep, str):
        keep = [keep]
    kept = set() if keep in (None, False, True) else {str(k) for k in keep}
    unknown = sorted(kept - {str(c) for c in frame.columns})
    if unknown:
        raise DataError(f"{name}: keep_identifiers names {', '.join(unknown)}, which the file does "
                        f"not have. Columns are: {', '.join(map(str, frame.columns[:20]))}.")
    found: dict = {}
    for column in frame.columns:
        kind = by_name(column, report.variable_labels.get(str(column)))
        if kind:
            found[column] = f"{kind} (by column name)"
            continue
        kind, share = by_content(frame[column])
        if kind and share >= 0.5:
            found[column] = f"{kind} (by content: {share:.0%} of values)"
        elif kind in ("e-mail address", "phone number") and share > 0:
            report.warnings.append(f"Column '{column}' has some values that look like a {kind}; "
                                   f"check it before sharing the data.")
    drop = [c for c in found if not keep_all and str(c) not in kept]
    for column, reason in found.items():
        if column in drop:
            report.excluded_columns.append({"column": str(column), "reason": f"direct identifier: {reason}"})
        else:
            report.warnings.append(f"Column '{column}' looks like a direct identifier ({reason}) "
                                   f"and was kept because keep_identifiers asked for it.")
    if drop and len(drop) == frame.shape[1]:
        raise DataError(f"{name}: every column looks like a direct identifier "
                        f"({', '.join(map(str, drop[:6]))}), so nothing is left to analyse. If "
                        f"some are answers, pass keep_identifiers=[...] with their names; "
                        f"otherwise export the survey answers too.")
    if drop:
        report.warnings.append(f"Left out {len(drop)} column(s) with direct identifiers: "
                               f"{', '.join(map(str, drop[:8]))}{' ...' if len(drop) > 8 else ''}. "
                               f"To keep them: tick Keep identifier columns (app), the keep-identifiers option (command line) "
                               f"or keep_identifiers=True (Python).")
        frame = frame.drop(columns=drop)
    return frame
