"""Result tables as rows of plain values: estimates, subgroups, differences, tests.

Every cell is None, a number or text, never an array: a design with categories (forced
response with several categories, k-ary RR, unary multi-select) gets one row per category
(per subgroup, per difference), so the same rows go to the Results view, Copy table, the
workbook, CSV, JSON and the command line.
"""

from __future__ import annotations

import math
from typing import Any

from dpdesk.mechanisms import multiple_testing
from dpdesk.project.study.labels import MISSING
from dpdesk.project.number_style import NumberStyle

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
    from dpdesk.project.study.design_text import design_in_words

    return design_in_words(d)


def _categories(r) -> list[str]:
    return [str(c) for c in r.design.categories]


def estimate_rows(results: list, keys: bool = False) -> list[dict]:
    """The main table: one row per item (one per category for multi-category items).

    ``keys=True`` (machine-readable output) puts beside the human ``item`` the item's short
    name under ``name`` and the category under ``category`` (None for a yes/no item), so that
    scripts have a stable key."""
    rows = []

    def add(**values):
        row = {c: values.get(c) for c in COLUMNS}
        if keys:
            row = {"name": values.get("key"), "category": values.get("cat"), **row}
        rows.append(row)

    for r in results:
        e = r.estimate
        base = {"item": _name(r), "design": design_label(r.design), "local epsilon": float(r.design.epsilon),
                "key": r.item}
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
            for name, (value, se) in (() if r.design.name == "ecwm" else e.extra.items()):  # ECWM: analysis.adherence
                note = notes if (name == "t" and _f(value) is None) else None
                add(**{**common, "item": f"{_name(r)} [{name}]"}, estimate=_f(value), SE=_f(se), note=note)
        else:
            for j, cat in enumerate(_categories(r)):
                design = {} if survey is None else {"design effect": _f(survey.deff[j]),
                                                    "effective n": _f(survey.n_effective[j])}
                add(**{**common, "item": f"{_name(r)}: {cat}"}, cat=cat, estimate=_f(e.frequencies[j]), SE=_f(e.se[j]),
                    **{"CI low": _f(e.ci[j][0]), "CI high": _f(e.ci[j][1])},
                    note=notes if j == 0 and survey is not None else None, **design)
    for column in OPTIONAL:  # the column only when some row fills it
        if not any(row[column] is not None for row in rows):
            for row in rows:
                del row[column]
    return rows


def _name(r) -> str:
    """What a reader calls the item: its short label or question (``ItemResult.label``)."""
    return getattr(r, "label", "") or r.item


def by_heading(by: str) -> str:
    """The heading of the subgroups' column: the column's label, or "Dataset" when the datasets are compared."""
    return "Dataset" if by == BY_DATASET else by


def subgroup_rows(results: list, keys: bool = False) -> list[dict]:
    """One row per item, subgroup (and category), then the differences between subgroups.

    Items with categories add a "category" column; a difference row's subgroup reads
    "a - b" and its estimate is the difference, with its SE, MOVER interval and p-value, and
    beside it the p-value adjusted for the item's pairwise comparisons (``ItemResult.adjust``:
    Holm by default; the column is named for the method). Respondents with no subgroup value
    get a "(missing)" row with their n and no estimate.
    """
    multi = any(r.subgroups is not None and not r.design.is_binary for r in results)
    adjusted = [multiple_testing.column_name(getattr(r, "adjust", "none")) for r in results if r.subgroups]
    adjusted = next((c for c in adjusted if c), None)
    rows = []

    def add(item, subgroup, category, n, est, se, lo, hi, p, p_adj=None):
        row = {"name": key, "category": category} if keys else {}
        row.update({"item": item, "subgroup": subgroup})
        if multi and not keys:
            row["category"] = category
        row.update({"n": n, "estimate": _f(est), "SE": _f(se), "CI low": _f(lo), "CI high": _f(hi),
                    "p-value": _f(p)})
        if adjusted:
            row[adjusted] = _f(p_adj)
        rows.append(row)

    for r in results:
        if r.subgroups is None:
            continue
        cats = _categories(r)
        name, key = _name(r), r.item
        for label, e in r.subgroups.estimates.items():
            if r.design.is_binary:
                add(name, str(label), None, int(e.n), e.prevalence, e.se, e.ci[0], e.ci[1], None)
            else:
                for j, cat in enumerate(cats):
                    add(name, str(label), cat, int(e.n), e.frequencies[j], e.se[j], e.ci[j][0], e.ci[j][1], None)
        if getattr(r, "missing_n", None):
            add(name, MISSING, None, int(r.missing_n), None, None, None, None, None)
        p_adj = iter(adjusted_p_values(r))
        for diff in r.subgroups.differences.values():
            diff_name = f"{diff.a} - {diff.b}"
            if r.design.is_binary:
                add(name, diff_name, None, None, diff.difference, diff.se, diff.ci[0], diff.ci[1], diff.p_value,
                    next(p_adj))
            else:
                for j, cat in enumerate(cats):
                    add(name, diff_name, cat, None, diff.difference[j], diff.se[j], diff.ci[j][0], diff.ci[j][1],
                        diff.p_value[j], next(p_adj))
    return rows


def adjusted_p_values(r) -> list:
    """The item's pairwise p-values (every pair, every category, in table order), adjusted as it asks."""
    if r.subgroups is None:
        return []
    raw = []
    for diff in r.subgroups.differences.values():
        raw.extend([diff.p_value] if r.design.is_binary else list(diff.p_value))
    return multiple_testing.adjust([_f(p) for p in raw], getattr(r, "adjust", "none"))


def subgroup_adjust_note(results: list) -> str:
    """``"... adjusted with Holm's step-down method (Holm 1979) for the 24 comparisons of each item; ..."``.

    Each item's table is adjusted on its own (its pairs, for every category). When items have
    different numbers of comparisons (two datasets: 1 for a yes/no item, 3 for an item with
    three answers) the note names them; a single comparison needs no adjustment and is said
    so. "" when nothing is adjusted.
    """
    asked = [r for r in results if r.subgroups is not None and getattr(r, "adjust", "none") != "none"]
    counts = {_name(r): len(adjusted_p_values(r)) for r in asked}
    adjusted = {name: k for name, k in counts.items() if k > 1}
    if not adjusted:
        return ""
    method = next(r.adjust for r in asked)
    cite = {"holm": "Holm's step-down method (Holm 1979)", "bonferroni": "the Bonferroni method"}[method]
    single = [name for name, k in counts.items() if k == 1]
    if len(set(adjusted.values())) == 1 and not single:
        within = f"for the {next(iter(adjusted.values()))} comparisons of each item"
    else:
        within = "within each item (" + "; ".join(f"{k} comparisons of {name}" for name, k in adjusted.items()) + ")"
    alone = ""
    if single:
        one = len(single) == 1
        names = single[0] if one else f"{', '.join(single[:-1])} and {single[-1]}"
        alone = (f"; {names} {'has' if one else 'have'} a single comparison, which needs no "
                 "adjustment")
    return (f"p-values of the pairwise differences are adjusted with {cite} {within}{alone}; the unadjusted "
            f"p-values are in the column \"p-value\".")


def missing_note(results: list) -> str:
    """``"22 respondents with an answer have no value for gender: the (missing) row."``"""
    ns = {_name(r): r.missing_n for r in results if r.subgroups is not None and getattr(r, "missing_n", None)}
    if not ns:
        return ""
    by = next(r.by_label for r in results if r.subgroups is not None)
    counts = sorted(set(ns.values()))
    n = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}"
    return (f"{n} respondents who answered have no value for {by} (blank or a missing code); they are in no "
            f"subgroup and are shown as \"{MISSING}\".")


def subgroup_test_rows(results: list, keys: bool = False) -> list[dict]:
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
        den = getattr(r.subgroups, "test_df", None)  # independent samples (waves): the F test's Welch df
        for test in tests:
            pooled = test.pooled if isinstance(test.pooled, (int, float)) else None
            category = test.category or ("all categories" if test.by_category or not r.design.is_binary else None)
            rows.append({**({"name": r.item} if keys else {}), "item": _name(r), "category": category,
                         "test": test.method, "statistic": _f(test.statistic), "df": int(test.df),
                         **({"denominator df": _f(getattr(r.subgroups, "category_df", {}).get(test.category, den))}
                            if den is not None else {}),
                         "p-value": _f(test.p_value), "pooled estimate": _f(pooled)})
    if not keys and not any(row["category"] for row in rows):  # yes/no items only: no category column
        for row in rows:
            del row["category"]
    return rows


def every_group(r, by: str | None = None) -> str:
    """``"every faculty"`` for a column without a label, ``"every group of What is your gender?"`` with one."""
    label = getattr(r, "by_label", None) or by or r.by
    return f"every {label}" if label == (r.by or by) else f"every group of {label}"


def subgroup_test_sentences(results: list, by: str | None) -> list[str]:
    """One line per item: the overall subgroup test in words."""
    out = []
    for r in results:
        t = r.subgroups.test if r.subgroups is not None else None
        if t is None:
            continue
        what = ("prevalence" if r.design.is_binary else "share ticking each option" if r.design.model == "unary"
                else "distribution over the categories")
        stat = NumberStyle.number(t.statistic) if math.isfinite(t.statistic) else "n/a"
        p = NumberStyle.p_in_text(t.p_value) if math.isfinite(t.p_value) else "p n/a"
        symbol = statistic_symbol(t.method)
        den = getattr(r.subgroups, "test_df", None)  # independent samples: F on (k - 1, Welch df)
        value = (f"F({t.df}, {den:.1f}) = {stat}" if den is not None else
                 f"{symbol}({t.df}) = {stat}" if symbol else f"statistic {stat} on {t.df} df")
        method = t.method.replace(" (G²)", "") if symbol == "G²" else t.method  # never "(G²), G²(1) = ..."
        out.append(f"{_name(r)}: test that {every_group(r, by)} has the same {what}: {method}, {value}, {p}.")
    return out


def statistic_symbol(method: str) -> str | None:
    """The symbol APA writes a test's statistic with: ``G²`` for a likelihood ratio, ``χ²`` for a Wald
    chi-square; None when the method names none (a design-based F has two df: written in words)."""
    if "G²" in method or "G^2" in method:
        return "G²"
    if "chi-square" in method:
        return "χ²"
    return None
