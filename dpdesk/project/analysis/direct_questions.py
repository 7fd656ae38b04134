"""An item's randomized-response estimate against the same question asked directly (a column of the data).

The direct answers are matched with ``DIRECT_CODES`` (ignoring case); anything else is "not
counted" and reported. Without a survey design the comparison is ``rr.compare_direct`` (the
direct share with Wilson's interval, the two taken as independent); with one it is
``rr.survey_compare_direct``: the weighted direct share and the RR estimate as two means of
the same complex sample, the difference's SE from their joint linearization over the
strata and PSUs. The rows are those the Results view and the report show.
"""

from __future__ import annotations

import numpy as np

from dpdesk.errors import DpdeskError
from dpdesk.mechanisms import rr
from dpdesk.project.mapping import map_item

#: Answers to a direct question (matched ignoring case); anything else is "not counted" (shown).
DIRECT_CODES = {"no": ["no", 0, "false", "nein", "non", "n"], "yes": ["yes", 1, "true", "ja", "oui", "y"]}


def direct_comparison(table, result, column: str, *, confidence: float) -> tuple[dict, dict | None]:
    """(the comparison's row, the direct estimate's row for the forest plot or None) for one item's result.

    ``table``: the dataset the item's ``result`` (``analysis.ItemResult``) was estimated
    in; ``column``: its direct answers. A problem (no such column, a categorical item)
    comes back as ``{"item", "direct column", "problem"}``.
    """
    try:
        m = map_item(table, column, DIRECT_CODES, exclude=True)
        if result.survey is None:
            dc = rr.compare_direct(result.estimate, m.counts[1], m.n_used, confidence=confidence)
        else:
            used = np.asarray(m.rows["used"], bool)
            direct = np.where(used, np.asarray(m.rows["response"], float), np.nan)  # 1: yes, 0: no
            dc = rr.survey_compare_direct(result.survey, direct, used=used)
    except DpdeskError as exc:
        return {"item": result.item, "direct column": column, "problem": str(exc)}, None
    point = {"item": result.item, "kind": "direct question", "n": m.n_used, "estimate": dc.direct,
             "CI low": dc.direct_ci[0], "CI high": dc.direct_ci[1]}
    row = {"item": result.item, "direct column": column, "n direct": m.n_used,
           "not counted": m.n_unmatched + m.n_missing, "RR estimate": dc.rr, "direct estimate": dc.direct,
           "difference (RR - direct)": dc.difference, "SE": dc.se, "CI low": dc.ci[0], "CI high": dc.ci[1],
           "p-value (RR > direct)": dc.p_value}
    if result.survey is not None:
        row["design-based"] = True
    return row, point
