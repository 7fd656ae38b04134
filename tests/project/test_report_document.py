"""The output document: number style, APA tables with notes, HTML and TSV at the shown precision."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project.analysis.estimates import analyze
from dpdesk.project.report.design_words import design_words, prob
from dpdesk.project.report.document import build_document
from dpdesk.project.number_style import NumberStyle
from dpdesk.project.report.render import document_html, table_clipboard_html, table_tsv

FORCED = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)
MULTI = rr.design("forced_multi", p_truth=0.7, p_forced=[0.1, 0.1, 0.1], categories=["none", "some", "a lot"])


def test_number_style_apa():
    s = NumberStyle()
    assert (s.share(0.38256), s.share_in_text(0.27), s.interval(0.173, 0.37)) == ("38.3", "27.0%", "[17.3, 37.0]")
    p3 = NumberStyle("proportion", 3)
    assert (p3.share(0.38256), p3.share(-0.05), p3.share(1.0)) == (".383", "-.050", "1.000")
    assert NumberStyle.p(0.0000) == "< .001" and NumberStyle.p(0.0123) == ".012" and NumberStyle.p(1) == "> .999"
    assert NumberStyle.p_in_text(0.0004) == "p < .001" and NumberStyle.p_in_text(0.5) == "p = .500"
    assert NumberStyle.number(1.0986) == "1.10" and NumberStyle.number(float("inf")) == "∞"
    assert NumberStyle("percent", 2).share(-0.00001) == "0.00"  # never "-0.00"
    assert NumberStyle.from_text("proportion:2") == NumberStyle("proportion", 2)
    assert NumberStyle.from_text("garbage") == NumberStyle()
    with pytest.raises(ValueError):
        NumberStyle("percent", 4)


@given(st.floats(-1, 1), st.sampled_from(["percent", "proportion"]), st.integers(1, 3))
def test_shown_value_is_the_value_rounded(x, unit, decimals):
    s = NumberStyle(unit, decimals)
    shown = float(s.share(x))
    scale = 100 if unit == "percent" else 1
    assert abs(shown - scale * x) <= 0.5 * 10 ** -decimals + 1e-12


def test_design_in_words():
    assert design_words(FORCED, "Toss a coin twice") == (
        "Forced response with a coin (Boruch, 1971): truthful with probability 1/2, 'yes' 1/4, 'no' 1/4")
    assert prob(1 / 6) == "1/6" and prob(0.2470755730781604) == "24.7%"
    cw = design_words(rr.design("crosswise", p=0.2470755730781604))
    assert "Yu, Tian & Tang, 2008" in cw and "24.7%" in cw and "0.247075" not in cw


@pytest.fixture
def project(tmp_path):
    rng = np.random.default_rng(7)
    n = 300
    frame = pd.DataFrame({"q": rng.choice(["Yes", "No", "Maybe", None], n, p=[0.4, 0.5, 0.05, 0.05]),
                          "m": rng.choice(["none", "some", "a lot"], n),
                          "sex": rng.choice(["f", "m"], n)})
    with Project.create(tmp_path / "p.dpdesk") as p:
        p.add_dataset("survey", frame, source={"name": "survey.csv"})
        p.add_item("cheat", FORCED, column="q", codes={"no": ["No"], "yes": ["Yes"]},
                   question="In the last year, have you cheated in an exam, or helped someone else to cheat?")
        p.add_item("drink", MULTI, column="m", codes={c: [c] for c in MULTI.categories}, question="How much?")
        yield p


def test_document_tables_notes_and_precision(project):
    results = analyze(project, by="sex")
    doc = build_document(project, results)
    est = doc.table("estimates")
    assert [c.label for c in est.columns] == ["Item", "n", "Estimate", "SE", "95% CI", "ε"]
    first = est.rows[0].cells
    e = results[0].estimate
    assert first[0].text.startswith("In the last year, have you cheated") and first[0].text.endswith("…")
    assert first[2].text == f"{100 * e.prevalence:.1f}" and first[2].value == pytest.approx(e.prevalence)
    assert [r.cells[0].text for r in est.rows if r.indent] == ["none", "some", "a lot"]  # categories indented
    notes = " ".join(est.notes)
    assert "truthful with probability 1/2, 'yes' 1/4, 'no' 1/4" in notes
    assert "Feldman &amp; Cousins, 1998" in notes
    assert "answers used; " in notes and "left out: " in notes and "blank" in notes
    assert "fingerprint SHA-256" in notes and "survey.csv" in notes
    keys = [t.key for t in doc.tables()]
    assert "subgroups:cheat" in keys and "comparisons:cheat" in keys and "comparisons:drink" in keys
    comp = doc.table("comparisons:cheat")
    assert comp.rows[0].cells[0].text == "f − m" and comp.rows[0].cells[3].text[:1] in ".<>"
    assert "likelihood ratio, <i>G</i>²(1) = " in comp.notes[0]  # the likelihood ratio G², not χ²
    assert "We estimate that" in doc.sections[0].paragraphs[0] and "(cheat)" in doc.sections[0].paragraphs[0]
    assert [t.number for t in doc.tables()] == list(range(1, len(keys) + 1))


def test_html_and_tsv_at_the_shown_precision(project):
    results = analyze(project)
    doc = build_document(project, results, style=NumberStyle("proportion", 3))
    est = doc.table("estimates")
    tsv = table_tsv(est)
    e = results[0].estimate
    assert f"{e.prevalence:.3f}"[1:] in tsv and repr(float(e.prevalence)) not in tsv
    full = table_tsv(est, full=True)
    assert repr(float(e.prevalence)) in full and "95% CI low\t95% CI high" in full
    page = document_html(doc, cover=True)
    assert page.count("<table class='apa'") == 1 and "<th class='num' align='right'" in page
    assert "<i>n</i>" in page and "<i>SE</i>" in page and "border-left" not in page  # horizontal rules only
    assert "Data fingerprint (SHA-256)" in page
    assert "<table" in table_clipboard_html(est) and repr(float(e.prevalence)) in table_clipboard_html(est, full=True)


def test_a_test_with_p_below_001_keeps_its_p_in_html_and_in_word_runs():
    """The walk found '..., χ²(3) = 17.15, p' : the '<' of 'p < .001' was read as markup and swallowed."""
    from types import SimpleNamespace

    from dpdesk.project.report.document import test_text
    from dpdesk.project.report.inline import runs

    text = test_text(SimpleNamespace(df=3, statistic=17.15, p_value=0.0007))
    assert text.endswith("<i>p</i> &lt; .001")
    assert "".join(r.text for r in runs(text)).endswith("p < .001")
