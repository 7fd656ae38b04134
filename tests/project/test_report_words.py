"""The report says what it did, in words a reader expects: the note under the subgroup grid names the test
that produced its p (the design-based Wald F with a survey design, the likelihood ratio without), the item's
short label names it in every table, and the methods text has no formula notation (no "e^ε", no
"H^-1 V H^-1")."""

from __future__ import annotations

import re

import pytest

from dpdesk.project import Project
from tests.helpers.wide_study import BY, LABELS, make_wide_study


@pytest.fixture(scope="module", params=[True, False], ids=["design", "simple"])
def parts(request, tmp_path_factory):
    from dpdesk.project.report.report import report_parts

    path = make_wide_study(tmp_path_factory.mktemp("words") / "wide.dpdesk", design=request.param)
    with Project.open(path, read_only=True) as p:
        return request.param, report_parts(p, by=BY)


def test_the_grid_names_the_test_that_gave_its_p(parts):
    design, (doc, _methods, _figures) = parts
    grid = doc.table("subgroup-grid")
    note = " ".join(grid.notes)
    comparisons = [" ".join(t.notes) for t in doc.tables() if t.key.startswith("comparisons:")]
    if design:
        assert "design-based Wald <i>F</i> test, <i>F</i>(4, " in note and "likelihood-ratio" not in note
        df = re.search(r"<i>F</i>\(4, (\d+)\)", note).group(1)
        assert all(f"<i>F</i>(4, {df})" in c for c in comparisons)  # the same test as under each item's table
    else:
        assert "likelihood-ratio test, <i>G</i>²(4)" in note and "Wald" not in note
        assert all("<i>G</i>²(4)" in c for c in comparisons)


def test_the_short_label_names_the_item_in_every_table(parts):
    _design, (doc, _methods, figures) = parts
    for item, label in LABELS.items():
        grid_names = [row.cells[0].text for row in doc.table("subgroup-grid").rows]
        estimate_names = [row.cells[0].text for row in doc.table("estimates").rows]
        assert label in grid_names and label in estimate_names
        assert label in doc.table(f"subgroups:{item}").title and label in doc.table(f"comparisons:{item}").title
        regression = [t for t in doc.tables() if t.key.startswith("regression")]
        assert regression and all(label in t.title for t in regression)  # the regression's outcome is "tax"


def test_methods_and_notes_in_words(parts):
    design, (doc, methods, _figures) = parts
    text = " ".join(methods.paragraphs) + " ".join(n for t in doc.tables() for n in t.notes)
    for notation in ("e^ε", "e<sup>", "H^-1", "H⁻¹", "V H"):
        assert notation not in text
    assert "10.00 times as likely" in text  # ε = 2.30 of the forced-response design, as a factor
    if design:
        assert "sandwich estimator" in text
