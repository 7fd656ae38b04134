"""Result tables as rows of plain values: estimates, subgroups, differences, tests.

Every cell is None, a number or text, never an array: a design with categories (forced
response with several categories, k-ary RR, unary multi-select) gets one row per category
(per subgroup, per difference), so the same rows go to the Results view, Copy table, the
workbook, CSV, JSON and the command line.
"""

from __future__ import annotations

import math
from typing import Any

#: What ``analysis.analyze(by_dataset=True)`` results give as their ``by``: the datasets are the subgroups.
BY_DATASET = "dataset"

COLUMNS = ("item", "design", "n", "excluded", "estimate", "SE", "CI low", "CI high", "CI method", "confidence",
           "local epsilon", "design effect", "effective n", "note")
#: Columns only present when some row fills them: "note" (SLD t not identified, the survey design), and the
#: design effect and effective n of design-based estimates (a dataset with a survey design).
OPTIONAL = ("design effect", "effective n", "note")


def _f(x: Any) -> float | None:
    """A plain float (None for a missing value)."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def design_label(d) -> str:
    """The design in words: ``Forced response: truthful with probability 3/4, 'yes' 1/6, 'no' 1/12``."""
    from dpdesk.project.design_text import design_in_words

    return design_in_words(d)


def _categories(r) -> list[str]:
    return [str(c) for c in r.design.categories]


def estimate_rows(results: list) -> list[dict]:
    """The main table: one row per item (one per category for multi-category items)."""
    rows = []

    def add(**values):
        rows.append({c: values.get(c) for c in COLUMNS})

    for r in results:
        e = r.estimate
        base = {"item": r.item, "design": design_label(r.design), "local epsilon": float(r.design.epsilon)}
        if e is None:
            add(**base, **{"CI method": r.error})
            continue
        excluded = r.mapping.n_unmatched + r.mapping.n_missing if r.mapping else 0
        common = {**base, "n": int(e.n), "excluded": int(excluded), "CI method": e.ci_method,
                  "confidence": float(e.confidence)}
        notes = " ".join(getattr(e, "notes", ()) or ()) or None
        survey = getattr(r, "survey", None)
        if r.design.is_binary:
            design = {} if survey is None else {"design effect": _f(survey.deff), "effective n": _f(survey.n_effective)}
            add(**common, estimate=_f(e.prevalence), SE=_f(e.se), **{"CI low": _f(e.ci[0]), "CI high": _f(e.ci[1])},
                note=notes if survey is not None else None, **design)
            for name, (value, se) in e.extra.items():
                note = notes if (name == "t" and _f(value) is None) else None
                add(**{**common, "item": f"{r.item} [{name}]"}, estimate=_f(value), SE=_f(se), note=note)
        else:
            for j, cat in enumerate(_categories(r)):
                design = {} if survey is None else {"design effect": _f(survey.deff[j]),
                                                    "effective n": _f(survey.n_effective[j])}
                add(**{**common, "item": f"{r.item}: {cat}"}, estimate=_f(e.frequencies[j]), SE=_f(e.se[j]),
                    **{"CI low": _f(e.ci[j][0]), "CI high": _f(e.ci[j][1])},
                    note=notes if j == 0 and survey is not None else None, **design)
    for column in OPTIONAL:  # the column only when some row fills it
        if not any(row[column] is not None for row in rows):
            for row in rows:
                del row[column]
    return rows


def by_heading(by: str) -> str:
    """The heading of the subgroups' column: the column's name, or "Dataset" when the datasets are compared."""
    return "Dataset" if by == BY_DATASET else by


def subgroup_rows(results: list) -> list[dict]:
    """One row per item, subgroup (and category), then the differences between subgroups.

    Items with categories add a "category" column; a difference row's subgroup reads
    "a - b" and its estimate is the difference, with its SE, MOVER interval and p-value.
    """
    multi = any(r.subgroups is not None and not r.design.is_binary for r in results)
    rows = []

    def add(item, subgroup, category, n, est, se, lo, hi, p):
        row = {"item": item, "subgroup": subgroup}
        if multi:
            row["category"] = category
        row.update({"n": n, "estimate": _f(est), "SE": _f(se), "CI low": _f(lo), "CI high": _f(hi),
                    "p-value": _f(p)})
        rows.append(row)

    for r in results:
        if r.subgroups is None:
            continue
        cats = _categories(r)
        for label, e in r.subgroups.estimates.items():
            if r.design.is_binary:
                add(r.item, str(label), None, int(e.n), e.prevalence, e.se, e.ci[0], e.ci[1], None)
            else:
                for j, cat in enumerate(cats):
                    add(r.item, str(label), cat, int(e.n), e.frequencies[j], e.se[j], e.ci[j][0], e.ci[j][1], None)
        for diff in r.subgroups.differences.values():
            name = f"{diff.a} - {diff.b}"
            if r.design.is_binary:
                add(r.item, name, None, None, diff.difference, diff.se, diff.ci[0], diff.ci[1], diff.p_value)
            else:
                for j, cat in enumerate(cats):
                    add(r.item, name, cat, None, diff.difference[j], diff.se[j], diff.ci[j][0], diff.ci[j][1],
                        diff.p_value[j])
    return rows


def subgroup_test_rows(results: list) -> list[dict]:
    """The tests that every subgroup has the same prevalence (or distribution), one row each.

    Items with categories: the test of the whole distribution ("all categories"), then one
    test per category.
    """
    rows = []
    for r in results:
        t = r.subgroups.test if r.subgroups is not None else None
        if t is None:
            continue
        tests = [t, *t.by_category]
        for test in tests:
            pooled = test.pooled if isinstance(test.pooled, (int, float)) else None
            rows.append({"item": r.item, "category": test.category or ("all categories" if test.by_category or not
                                                                        r.design.is_binary else None),
                         "test": test.method, "statistic": _f(test.statistic), "df": int(test.df),
                         "p-value": _f(test.p_value), "pooled estimate": _f(pooled)})
    if not any(row["category"] for row in rows):  # yes/no items only: no category column
        for row in rows:
            del row["category"]
    return rows


def subgroup_test_sentences(results: list, by: str | None) -> list[str]:
    """One line per item: the overall subgroup test in words."""
    out = []
    for r in results:
        t = r.subgroups.test if r.subgroups is not None else None
        if t is None:
            continue
        what = ("prevalence" if r.design.is_binary else "share ticking each option" if r.design.model == "unary"
                else "distribution over the categories")
        stat = "n/a" if not math.isfinite(t.statistic) else f"{t.statistic:.2f}"
        p = "n/a" if not math.isfinite(t.p_value) else f"{t.p_value:.3g}"
        out.append(f"{r.item}: test that every {by} has the same {what}: {t.method}, statistic {stat} on "
                   f"{t.df} df, p = {p}.")
    return out
