"""The row labels of the forest and odds-ratio plots never overlap, however long the terms are: each row is as
tall as its longest wrapped label needs (``dpdesk.plotting.figure_height``), in the app and in every report."""

from __future__ import annotations

import pytest

TERMS = ["age", "region: East (vs North)", "region: South (vs North)",
         *[f"employment: {e} (vs employed full time)" for e in
           ("employed part time", "self-employed", "unemployed", "retired", "in education or training")],
         "age × employment: self-employed (vs employed full time)"]


def _boxes(figure):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    return [t.get_window_extent(renderer) for t in figure.axes[0].get_yticklabels() if t.get_text()]


@pytest.mark.parametrize("n", [3, len(TERMS)])
def test_odds_ratio_labels_never_overlap(n):
    from dpdesk.plotting import draw

    rows = [{"term": t, "OR": 1.2, "CI low": 0.6, "CI high": 2.4} for t in TERMS[:n]]
    boxes = _boxes(draw("odds_ratios", rows))
    assert len(boxes) == n
    assert not any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))


def test_forest_labels_never_overlap():
    from dpdesk.plotting import draw

    items = [f"In the past twelve months, have you {verb} something you should not have…: {region}"
             for verb in ("taken", "said", "done") for region in ("North", "South", "East", "West")]
    rows = [{"item": i, "kind": "randomized response", "estimate": 0.2, "CI low": 0.1, "CI high": 0.3}
            for i in items]
    boxes = _boxes(draw("forest", rows))
    assert len(boxes) == len(items)
    assert not any(a.overlaps(b) for a, b in zip(boxes, boxes[1:]))
