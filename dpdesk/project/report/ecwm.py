"""The extended crosswise model in the output document and the methods text.

For each ECWM item (Heck, Hoffmann & Moshagen 2018): a table of the two versions' prevalences
and the non-adherence test, the test in words (a warning when it rejects at 5%), and a
methods paragraph saying how the design works, how the test was made and what the estimate
assumes: versions assigned at random, question B's prevalence known and independent of the
sensitive attribute, and every respondent following the instructions. With subgroups, a table of
each subgroup's test, and a warning for each subgroup where it rejects. The numbers come from
:mod:`dpdesk.project.analysis.adherence`.
"""

from __future__ import annotations

import html
import math

from dpdesk.project.analysis.adherence import Adherence, adherence_tests, subgroup_adherence
from dpdesk.project.number_style import NumberStyle
from dpdesk.project.report.model import Cell, Column, Row, Section, Table

TITLE = "Non-adherence (extended crosswise model)"
WARNING = "Warning."


def _e(text) -> str:
    return html.escape(str(text), quote=False)


def _share(style: NumberStyle, x) -> Cell:
    return Cell(style.share(x), None if x is None or not math.isfinite(float(x)) else float(x))


def _test_cell(a: Adherence) -> Cell:
    """``G²(1) = 2.97`` or ``F(1, 597) = 8.26``, in a column kept whole (a statistic is never wrapped)."""
    df = ", ".join(str(d) for d in a.df)
    return Cell(f"{a.statistic}({df}) = {NumberStyle.number(a.value)}", float(a.value))


def paragraph(a: Adherence, style: NumberStyle) -> str:
    """The test and both versions in words (HTML), led by "Warning." when the test rejects."""
    lead = f"<b>{WARNING}</b> " if a.rejects else ""
    return f"{lead}<i>{_e(a.item)}</i>: {_e(a.sentence())} {_e(a.versions_sentence(style))}"


def adherence_table(tests: list[Adherence], style: NumberStyle, confidence: float) -> Table:
    conf = f"{100 * confidence:g}%"
    cols = [Column("Item", numeric=False), Column("n", italic=True), Column("Estimate", suffix=style.unit_label),
            Column("SE", italic=True, suffix=style.unit_label), Column(f"{conf} CI"),
            Column("Test"), Column("p", italic=True)]
    rows = []
    for a in tests:
        rows.append(Row([Cell(a.item), Cell(""), Cell(""), Cell(""), Cell(""), _test_cell(a),
                         Cell(NumberStyle.p(a.p_value), float(a.p_value))], heading=True))
        for v in a.versions:
            rows.append(Row([Cell(f"Version {v.version}"),
                             Cell(NumberStyle.count(v.n), v.n), _share(style, v.estimate), _share(style, v.se),
                             Cell(style.interval(*v.ci), v.ci), Cell(""), Cell("")], indent=1))
    shares = "; ".join(dict.fromkeys(
        f"{_e(a.item)}: version 1 {100 * a.versions[0].b_share:g}%, version 2 {100 * a.versions[1].b_share:g}%"
        for a in tests))
    notes = ["<i>Note.</i> Extended crosswise model (Heck, Hoffmann &amp; Moshagen, 2018): each version is the "
             "crosswise question with its own question B, whose share of 'yes' is known (" + shares + "); "
             "Estimate: the prevalence the respondents of that version give. Test: whether both versions give the "
             "same prevalence, as they do when every respondent follows the instructions."]
    methods = dict.fromkeys(a.method_text() for a in tests)
    notes += [f"{_e(m[0].upper() + m[1:])}." for m in methods]
    return Table("ecwm", "Prevalence in each version of question B and the non-adherence test", cols, rows, notes)


def subgroup_paragraphs(result, tests: list[tuple[str, Adherence]]) -> list[str]:
    """Each subgroup whose test rejects, as a warning; else one sentence that every subgroup agrees."""
    by = _e(result.by_label or result.by or "subgroup")
    item = _e(tests[0][1].item)
    rejected = [(g, a) for g, a in tests if a.rejects]
    if not rejected:
        return [f"<i>{item}</i>: within each subgroup of {by}, too, the two versions agree (the test in each "
                f"subgroup is in the table below)."]
    return [f"<b>{WARNING}</b> <i>{item}</i>, {by} = {_e(g)}: {_e(a.sentence())}" for g, a in rejected]


def subgroup_table(by: list[tuple[object, list[tuple[str, Adherence]]]], style: NumberStyle) -> Table:
    """Per item, each subgroup's two versions and its non-adherence test (one row per subgroup)."""
    label = by[0][0].by_label or by[0][0].by or "subgroup"
    cols = [Column("Subgroup", numeric=False), Column("n", italic=True),
            Column("Version 1", suffix=style.unit_label), Column("Version 2", suffix=style.unit_label),
            Column("Test"), Column("p", italic=True)]
    rows = []
    for result, tests in by:
        rows.append(Row([Cell(tests[0][1].item)] + [Cell("") for _ in cols[1:]], heading=True))
        for group, a in tests:
            v1, v2 = a.versions
            rows.append(Row([Cell(group), Cell(NumberStyle.count(v1.n + v2.n), v1.n + v2.n),
                             _share(style, v1.estimate), _share(style, v2.estimate), _test_cell(a),
                             Cell(NumberStyle.p(a.p_value), float(a.p_value))], indent=1))
    methods = dict.fromkeys(a.method_text() for _, tests in by for _, a in tests)
    notes = [f"<i>Note.</i> The non-adherence test within each subgroup of {_e(label)}, on that subgroup's "
             "answers only: " + "; ".join(_e(m) for m in methods) + ". Version 1 and 2: the prevalence the "
             "subgroup's respondents of that version give."]
    return Table("ecwm_by", f"Non-adherence test in each subgroup of {label}", cols, rows, notes)


def adherence_section(results, style: NumberStyle, confidence: float) -> Section | None:
    """The document's ECWM section, or None when no ECWM item has an estimate. With subgroups, each
    subgroup's test too (:func:`subgroup_adherence`)."""
    tests = adherence_tests(results)
    if not tests:
        return None
    paragraphs = [paragraph(a, style) for a in tests]
    tables = [adherence_table(tests, style, confidence)]
    by = [(r, subs) for r, subs in ((r, subgroup_adherence(r)) for r in results) if subs]
    if by:
        paragraphs += [p for r, subs in by for p in subgroup_paragraphs(r, subs)]
        tables.append(subgroup_table(by, style))
    return Section("ecwm", TITLE, paragraphs, tables)


def methods_paragraph(results, c) -> str | None:
    """The methods text for the ECWM items (APA citations through ``c``), or None without one."""
    tests = adherence_tests(results)
    if not tests:
        return None
    names = ", ".join(f"“{a.item}”" for a in tests)
    test = tests[0]
    survey = test.design_based
    how = ("a design-based Wald test of equal prevalence in the two versions, using the Taylor-linearized "
           f"covariance of the versions' estimates and referred to an F distribution on the design degrees of "
           f"freedom ({c('lumley2010', 'korn1990')})" if survey else
           f"the likelihood-ratio test of one prevalence for both versions against a separate prevalence per "
           f"version, on 1 degree of freedom ({c('heck2018ecwm')})")
    results_text = "; ".join(f"{a.key or a.item}, {a.statistic_text()}" for a in tests)
    by = next((r.by_label or r.by for r in results if subgroup_adherence(r)), None)
    if by:  # "Subgroups by": each subgroup's own test, with the domain's design-based test when weighted
        results_text += (f". The same test was made within each subgroup of {by}, on that subgroup's answers"
                         + (" (as a domain of the sample)" if survey else ""))
    return (f"{'The items' if len(tests) > 1 else 'The item'} {names} used the extended crosswise model "
            f"({c('heck2018ecwm')}), an extension of the crosswise model ({c('yu2008')}): respondents were "
            f"assigned at random to one of two versions, whose non-sensitive questions B have complementary "
            f"prevalences (p and 1 − p), and answered whether their answers to the sensitive question and to B "
            f"were the same or different. The prevalence was estimated for both versions together; whether "
            f"respondents followed the instructions was tested by comparing the two versions' estimates with "
            f"{how}. Test results: {results_text}. The estimate assumes that the versions were assigned at random, that the "
            f"prevalence of question B is known and independent of the sensitive attribute, and that every "
            f"respondent followed the instructions; a significant test (p < .05) suggests that some did not, "
            f"and a non-significant one does not prove that all did (the test detects a systematic preference "
            f"for one answer, not random answering).")
