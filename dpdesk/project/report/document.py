"""From analysis results to the output document: estimates, subgroups, direct questions.

``build_document(project, results, style=...)`` turns :func:`dpdesk.project.analysis.estimates.analyze`
results (and optionally the comparisons with direct questions) into sections of APA
tables with notes: the design in words, the interval method with its citation, how many
answers were left out and why, and the data set with its fingerprint. The numbers are
formatted once here in the chosen :class:`NumberStyle`; each cell keeps its full value.
"""

from __future__ import annotations

import datetime as _dt
import html
import math
from pathlib import Path
from typing import Any

from dpdesk import __version__
from dpdesk.project.analysis import review
from dpdesk.project.study import labels
from dpdesk.project.study.labels import MISSING
from dpdesk.project.report.design_words import design_words, item_randomizer
from dpdesk.project.report.ecwm import adherence_section
from dpdesk.project.report.model import Cell, Column, Document, Row, Section, Table
from dpdesk.project.number_style import DEFAULT, NumberStyle
from dpdesk.project.report.references import CI_KEYS, cite
from dpdesk.project.analysis.result_tables import adjusted_p_values, by_heading, every_group, subgroup_adjust_note

EXTRA_NAMES = {"t": "honest carriers (t)", "beta": "honest non-carriers (β)", "gamma": "cheaters (γ)",
               "pi_uq": "innocuous prevalence"}


def short_text(item) -> str:
    """The question's first words (up to :data:`dpdesk.project.study.labels.SHORT` characters), else the item's name."""
    q = (getattr(item, "question", "") or "").strip()
    if not q:
        return item.name if hasattr(item, "name") else str(item)
    return labels.short_text(q)


def _e(text) -> str:
    return html.escape(str(text), quote=False)


def _num(style: NumberStyle, x) -> Cell:
    return Cell(style.share(x), None if x is None else float(x))


def _ci(style: NumberStyle, lo, hi) -> Cell:
    return Cell(style.interval(lo, hi), (None if lo is None else float(lo), None if hi is None else float(hi)))


def _eps(x) -> Cell:
    return Cell(NumberStyle.number(x), float(x))


def _conf(confidence: float) -> str:
    return f"{100 * confidence:g}%"


def item_label(r, items: dict) -> str:
    """The researcher's short label, else the question's first words, else the item's name."""
    it = items.get(r.item)
    label = getattr(r, "label", "") or r.item
    if it is not None and label == ((getattr(it, "question", "") or "").strip() or it.name):
        return short_text(it)
    return label


def sentence(r, style: NumberStyle = DEFAULT) -> str:
    """The item's plain-language sentence in ``style`` (one per item, with its CI, naming the question)."""
    e = r.estimate
    if e is None:
        return r.sentence()
    conf = _conf(e.confidence)
    if not r.design.is_binary:
        parts = ", ".join(f"'{c}' {style.share_in_text(f)} ({conf} CI {style.interval_in_text(lo, hi)})"
                          for c, f, (lo, hi) in zip(r.design.categories, e.frequencies, e.ci))
        about = f" to: {r.question}" if r.question else ""
        return f"We estimate the shares of the answers{about} ({r.item}) as {parts}."
    lo, hi = e.ci
    about = (f"would truthfully answer 'yes' to: {r.question} ({r.item})" if r.question
             else f"have '{r.item}'")
    return (f"We estimate that {style.share_in_text(e.prevalence)} ({conf} CI {style.interval_in_text(lo, hi)}) "
            f"of respondents {about}")


def _left_out_text(r) -> str | None:
    """``"cheating: 600 answers used; 7 left out: 5 blank, 2 user-missing code (Refused)."``"""
    return r.left_out_sentence() or None


def estimates_table(results, items: dict, style: NumberStyle, confidence: float) -> Table:
    cols = [Column("Item", numeric=False), Column("n", italic=True), Column("Estimate", suffix=style.unit_label),
            Column("SE", italic=True, suffix=style.unit_label), Column(f"{_conf(confidence)} CI"),
            Column("ε", italic=True, suffix=" (local)")]
    rows = []
    for r in results:
        e = r.estimate
        label = item_label(r, items)
        if e is None:
            # a short cell (a long message made every other column one character wide); the why is in a note
            why = r.error if getattr(r, "not_mapped", False) else "no estimate (see the note)"
            rows.append(Row([Cell(label), Cell("—"), Cell("—"), Cell("—"), Cell(why), _eps(r.design.epsilon)]))
            continue
        n = Cell(NumberStyle.count(e.n), int(e.n))
        if r.design.is_binary:
            rows.append(Row([Cell(label), n, _num(style, e.prevalence), _num(style, e.se), _ci(style, *e.ci),
                             _eps(r.design.epsilon)]))
            for name, (value, se) in (() if r.design.name == "ecwm" else e.extra.items()):  # ECWM: report.ecwm
                rows.append(Row([Cell(EXTRA_NAMES.get(name, name)), Cell(""), _num(style, value), _num(style, se),
                                 Cell(""), Cell("")], indent=1))
        else:
            rows.append(Row([Cell(label), n, Cell(""), Cell(""), Cell(""), _eps(r.design.epsilon)], heading=True))
            for j, cat in enumerate(r.design.categories):
                rows.append(Row([Cell(str(cat)), Cell(""), _num(style, e.frequencies[j]), _num(style, e.se[j]),
                                 _ci(style, *e.ci[j]), Cell("")], indent=1))
    return Table("estimates", "Estimated prevalence of each item", cols, rows)


def _design_notes(results, items: dict) -> list[str]:
    out = []
    for r in results:
        it = items.get(r.item)
        words = design_words(r.design, getattr(it, "instructions", None), item_randomizer(it))
        out.append(f"<i>{_e(r.item)}</i>: {_e(words)}.")
    return out


def interval_note(ci: str, confidence: float) -> str:
    name = review.interval_metadata(ci)["CI method"].rsplit(" (", 1)[0].split(" (")[0]
    return f"{_conf(confidence)} confidence intervals: {_e(name)} ({_e(cite(*CI_KEYS.get(ci, ())))})."


def epsilon_note(results=()) -> str:
    """What ε (local) means, in words, with the factor of each ε in the table (``ε = 2.30: 10.00 times``)."""
    finite = sorted({float(r.design.epsilon) for r in results if math.isfinite(float(r.design.epsilon))})
    factors = "; ".join(f"ε = {NumberStyle.number(e)}: {NumberStyle.ratio_in_text(math.exp(e))}" for e in finite)
    return ("ε (local) is each design's local differential privacy: whatever a respondent's true answer, a recorded "
            "answer is at most the exponential of ε times as likely under one true answer as under another"
            + (f" ({_e(factors)})" if factors else "") + "; ∞: some answer reveals the truth.")


def subgroup_tables(results, items: dict, style: NumberStyle, confidence: float, by: str) -> list[Table]:
    grid_cols = [Column(by_heading(by), numeric=False), Column("n", italic=True),
                 Column("Estimate", suffix=style.unit_label), Column(f"{_conf(confidence)} CI")]
    comp_cols = [Column("Comparison", numeric=False), Column("Difference", suffix=style.unit_label),
                 Column(f"{_conf(confidence)} CI"), Column("p", italic=True)]
    tables = []
    for r in results:
        if r.subgroups is None:
            continue
        label = item_label(r, items)
        adjusted = getattr(r, "adjust", "none") != "none"
        rows = []
        for group, e in r.subgroups.estimates.items():
            n = Cell(NumberStyle.count(e.n), int(e.n))
            if r.design.is_binary:
                rows.append(Row([Cell(str(group)), n, _num(style, e.prevalence), _ci(style, *e.ci)]))
            else:
                rows.append(Row([Cell(str(group)), n, Cell(""), Cell("")], heading=True))
                for j, cat in enumerate(r.design.categories):
                    rows.append(Row([Cell(str(cat)), Cell(""), _num(style, e.frequencies[j]),
                                     _ci(style, *e.ci[j])], indent=1))
        if getattr(r, "missing_n", None):
            rows.append(Row([Cell(MISSING), Cell(NumberStyle.count(r.missing_n), int(r.missing_n)), Cell("—"),
                             Cell("—")]))
        notes = []
        if getattr(r, "missing_n", None):
            notes.append(f"{MISSING}: {NumberStyle.count(r.missing_n)} respondents who answered have no value for "
                         f"{_e(by)} (blank or a missing code); they are in no group and in no comparison.")
        if r.left_out_groups:
            notes.append(f"{len(r.left_out_groups)} group(s) with fewer than {r.min_group_size} answers are left out.")
        if adjusted:
            method = {"holm": "Holm", "bonferroni": "Bonferroni"}[r.adjust]
            comp_cols = [*comp_cols[:3], Column("p", italic=True, suffix=f" ({method})")]
        tables.append(Table(f"subgroups:{r.item}", f"{label.rstrip('?')}, by {by}", grid_cols, rows, notes))
        comp = []
        p_adj = iter(adjusted_p_values(r))
        for diff in r.subgroups.differences.values():
            name = f"{diff.a} − {diff.b}"
            if r.design.is_binary:
                comp.append(Row([Cell(name), Cell(style.share(diff.difference, signed=True), float(diff.difference)),
                                 _ci(style, *diff.ci), _p(diff.p_value, next(p_adj), adjusted)]))
            else:
                comp.append(Row([Cell(name), Cell(""), Cell(""), Cell("")], heading=True))
                for j, cat in enumerate(r.design.categories):
                    comp.append(Row([Cell(str(cat)), Cell(style.share(diff.difference[j], signed=True),
                                                           float(diff.difference[j])),
                                     _ci(style, *diff.ci[j]), _p(diff.p_value[j], next(p_adj), adjusted)],
                                    indent=1))
        t = r.subgroups.test
        cnotes = []
        if t is not None:
            cnotes.append(f"Test that {_e(every_group(r, by))} has the same "
                          f"{'prevalence' if r.design.is_binary else 'distribution'}: "
                          f"{_e(_method_name(t.method))}, "
                          f"{test_text(t, _test_df(r))}.")
        if getattr(r, "wave_note", ""):
            cnotes.append(_e(r.wave_note))
        note = subgroup_adjust_note([r]).split(";")[0]
        if note and adjusted:
            cnotes.append(_e(f"p: {note[0].lower()}{note[1:]}; unadjusted p-values are in the exported tables."))
        if comp:
            tables.append(Table(f"comparisons:{r.item}", f"Differences between the groups of {by}: {label}",
                                comp_cols, comp, cnotes))
    return tables


def _test_df(r):
    """The denominator df of a design-based F test: the waves' Welch df, or the design's df; None otherwise."""
    df = getattr(r.subgroups, "test_df", None)
    if df is not None:
        return f"{df:.1f}".replace(".0", "") if abs(df - round(df)) < 0.05 else f"{df:.1f}"
    return r.survey.df if getattr(r, "survey", None) is not None else None


def _method_name(method: str) -> str:
    """A test's name without what its statistic then shows: "likelihood-ratio test (G²)" and "design-based Wald
    F test on (k - 1, 32) degrees of freedom" read "likelihood-ratio test", "design-based Wald F test"."""
    import re

    return re.sub(r" on \(k - 1, [\d.]+\) degrees of freedom", "", method.replace(" (G²)", "").replace(" (G^2)", ""))


def _p(raw, adjusted_value, adjusted: bool) -> Cell:
    """The p-value a reader uses: adjusted for the item's many comparisons (or the raw one)."""
    value = _f(adjusted_value if adjusted else raw)
    return Cell(NumberStyle.p(value), value)


def _f(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def test_text(t, df_design: int | None = None) -> str:
    """APA: ``<i>χ</i>²(3) = 12.34, <i>p</i> = .006``; a design-based test (``df_design``): ``<i>F</i>(3, 32) = 4.11``."""
    from dpdesk.project.analysis.result_tables import statistic_symbol

    g2 = statistic_symbol(getattr(t, "method", "") or "") == "G²"  # a likelihood ratio is G², as on the command line
    stat = (f"<i>F</i>({t.df}, {df_design})" if df_design is not None else
            f"<i>G</i>²({t.df})" if g2 else f"<i>χ</i>²({t.df})")
    return (f"{stat} = {NumberStyle.number(t.statistic)}, "
            f"{_e(NumberStyle.p_in_text(t.p_value)).replace('p ', '<i>p</i> ', 1)}")  # 'p &lt; .001'


def test_name(r) -> str:
    """The test that gave an item's subgroup p, with its degrees of freedom: ``design-based Wald <i>F</i> test,
    <i>F</i>(3, 32)`` with a survey design (Lumley, 2004), else ``likelihood-ratio test, <i>G</i>²(3)``."""
    from dpdesk.project.analysis.result_tables import statistic_symbol

    t = r.subgroups.test
    survey = getattr(r, "survey", None)
    if survey is not None:
        return f"design-based Wald <i>F</i> test, <i>F</i>({t.df}, {survey.df})"
    symbol = statistic_symbol(getattr(t, "method", "") or "")
    if symbol == "G²":
        return f"likelihood-ratio test, <i>G</i>²({t.df})"
    name = _e((t.method or "test").replace(" (G²)", "").replace(" (G^2)", ""))
    return f"{name}, <i>χ</i>²({t.df})" if symbol == "χ²" else name


def direct_table(direct: list[dict], style: NumberStyle, confidence: float,
                 names: dict[str, str] | None = None) -> Table | None:
    """RR against the question asked directly; ``names``: each item as the other tables name it."""
    rows_in = [d for d in direct if "problem" not in d]
    if not direct:
        return None
    cols = [Column("Item", numeric=False), Column("RR", suffix=style.unit_label), Column("n direct", italic=False),
            Column("Direct", suffix=style.unit_label), Column("Difference", suffix=style.unit_label),
            Column(f"{_conf(confidence)} CI"), Column("p", italic=True)]
    rows = []
    for d in rows_in:
        rows.append(Row([Cell((names or {}).get(d["item"], d["item"])), _num(style, d["RR estimate"]),
                         Cell(NumberStyle.count(d["n direct"]), d["n direct"]), _num(style, d["direct estimate"]),
                         Cell(style.share(d["difference (RR - direct)"], signed=True), d["difference (RR - direct)"]),
                         _ci(style, d["CI low"], d["CI high"]),
                         Cell(NumberStyle.p(d["p-value (RR > direct)"]), d["p-value (RR > direct)"])]))
    asked = "; ".join(f"{_e(d['item'])} in column {_e(d['direct column'])} ({d['not counted']:,} rows without a "
                      f"direct answer)" for d in rows_in)
    notes = [f"<i>Note.</i> Direct: the share answering 'yes' when asked directly: {asked}."] if rows_in else []
    notes.append("p: one-sided test that randomized response gives the higher estimate (fewer evasive answers).")
    if any(d.get("design-based") for d in rows_in):
        notes.append("With the survey design: weighted shares; the difference's standard error is the joint "
                     "Taylor linearization of both estimates over the strata and PSUs (Binder, 1983), and p is "
                     "from a t test on the design degrees of freedom.")
    notes += [f"{_e(d['item'])}: {_e(d['problem'])}" for d in direct if "problem" in d]
    return Table("direct", "Randomized response against asking directly", cols, rows, notes)


def data_note(project, results, dataset: str | None = None, meta: dict | None = None) -> str | None:
    """"Data: survey.csv (dataset 'survey'), fingerprint SHA-256 1a2b3c4d… of 3 columns" (``meta``: the
    :func:`data_metadata` already read, so the data are fingerprinted once)."""
    meta = data_metadata(project, results, dataset) if meta is None else meta
    if not meta:
        return None
    fp = meta.get("fingerprint")
    text = f"Data: {_e(meta['file'])} (data set '{_e(meta['dataset'])}')"
    if fp:
        text += f", fingerprint SHA-256 <code>{fp[:16]}</code>… of the columns {_e(', '.join(meta['columns']))}"
    return text + "."


def data_metadata(project, results, dataset: str | None = None) -> dict[str, Any]:
    if project is None or not project.datasets():
        return {}
    from dpdesk.project.study.active import dataset_named

    ds = dataset_named(project, dataset)
    items = project.items(ds.name)
    columns = review.analysed_columns(items, results)
    fp = review.fingerprint_metadata(project.dataset_frame(ds.name), columns) if columns else {}
    return {"dataset": ds.name, "file": (ds.source or {}).get("name") or ds.name,
            "fingerprint": fp.get("data fingerprint (SHA-256)"), "columns": fp.get("data fingerprint columns", [])}


def build_document(project, results, *, style: NumberStyle = DEFAULT, direct: list[dict] | None = None,
                   ci: str = "default", confidence: float = 0.95, dataset: str | None = None,
                   title: str = "Results") -> Document:
    """The output document of ``results`` (from ``analysis.analyze``) in ``style``."""
    items = {it.name: it for it in project.items(dataset)} if project is not None else {}
    meta = data_metadata(project, results, dataset)
    project_file = Path(str(getattr(project, "path", "") or "")).name  # the file name, never the user's folders
    cover = {"Project": project_file, "Data": meta.get("file", "none"),
             "Data fingerprint (SHA-256)": meta.get("fingerprint") or "n/a",
             "Date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
             "Software": f"dpdesk {__version__}"}
    doc = Document(title, cover)
    est = estimates_table(results, items, style, confidence)
    interval = interval_note(ci, confidence)
    if any(getattr(r, "survey", None) is not None for r in results):
        interval += (" With the survey design they are computed on the effective sample size, with a correction "
                     "for the degrees of freedom of the variance (Korn & Graubard, 1998)" if ci == "default" else
                     " With the survey design they are t intervals on the degrees of freedom of the variance")
        interval += "; standard errors by Taylor linearization (Binder, 1983; Lumley, 2004)."
    est.notes = (["<i>Note.</i> " + " ".join(_design_notes(results, items))] + [interval, epsilon_note(results)]
                 + [_e(t) for t in (_left_out_text(r) for r in results) if t])
    notes = [f"{_e(r.item)}: {_e(n)}" for r in results if r.estimate is not None for n in r.estimate.notes]
    notes += [f"{_e(r.item)}: no estimate ({_e(r.error)})." for r in results
              if r.estimate is None and not getattr(r, "not_mapped", False)]
    est.notes += notes
    fp = data_note(project, results, dataset, meta)
    if fp:
        est.notes.append(fp)
    doc.sections.append(Section("estimates", "Estimates", [_e(sentence(r, style)) for r in results], [est]))
    ecwm = adherence_section(results, style, confidence)
    if ecwm is not None:
        doc.sections.append(ecwm)
    by = next((r.by_label or r.by for r in results if r.by), None)
    if by:
        warnings = list(dict.fromkeys(w for r in results for w in r.warnings))
        doc.sections.append(Section("subgroups", f"Subgroups by {by}", [f"<i>Note.</i> {_e(w)}" for w in warnings],
                                    subgroup_tables(results, items, style, confidence, by)))
    d = direct_table(direct or [], style, confidence, {r.item: item_label(r, items) for r in results})
    if d is not None:
        doc.sections.append(Section("direct", "Comparison with direct questions", [], [d]))
    doc.number_tables()
    return doc
