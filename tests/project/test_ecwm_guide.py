"""The guide's ECWM worked example (docs/guide/ecwm.md) is what dpdesk computes: its Python snippet writes
the data of tests/helpers/ecwm.py, and every test result and version estimate it quotes is recomputed."""

import os
import re
from pathlib import Path

import pandas as pd
import pytest

from dpdesk.project.analysis.adherence import adherence
from dpdesk.project.analysis.estimates import analyze
from dpdesk.project.file.store import Project
from dpdesk.project.number_style import NumberStyle
from tests.helpers.ecwm import ecwm_frame, ecwm_project

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "ecwm.md"


@pytest.fixture(scope="module")
def text():
    return GUIDE.read_text(encoding="utf-8")


def test_the_snippet_writes_the_example_data(text, tmp_path):
    snippet = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(snippet, "ecwm.md", "exec"), {})
    finally:
        os.chdir(here)
    for name, na in (("ecwm-example.csv", 0.0), ("ecwm-nonadherent.csv", 0.15)):
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / name), ecwm_frame(n=800, seed=3, non_adherent=na),
                                      check_dtype=False)


@pytest.mark.parametrize("na, weighted", [(0.0, False), (0.0, True), (0.15, False)])
def test_the_quoted_numbers_are_computed(text, tmp_path, na, weighted):
    path = ecwm_project(tmp_path / "g.dpdesk", ecwm_frame(n=800, seed=3, non_adherent=na), weighted=weighted)
    with Project.open(path) as project:
        (res,) = analyze(project)
    a = adherence(res)
    style = NumberStyle()
    assert a.statistic_text() in " ".join(text.split())  # wrapped lines read as one
    for v in a.versions:
        assert style.share_in_text(v.estimate) in text
    assert style.share_in_text(res.estimate.prevalence) in text
    if not weighted:
        lo, hi = a.versions[0].ci
        assert f"{style.share(v.estimate)}%" in text and f"{style.share(lo)}%    {style.share(hi)}%" in text
