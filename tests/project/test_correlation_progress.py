"""The correlation bootstrap's progress: the bar's fraction is the share of resamples its text counts."""

import re

import pytest

from dpdesk.project import Project
from dpdesk.project.regression import CorrelationSpec
from dpdesk.project.regression.correlation_report import correlation_report


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    from dpdesk.gui.shell.example_project import build_example

    return build_example(None, tmp_path_factory.mktemp("corr_progress") / "example.dpdesk")


def test_bar_and_text_agree(example):
    seen = []
    with Project.open(example) as project:
        correlation_report(project, CorrelationSpec(["exam_cheating", "age"], bootstrap=1000, seed=3),
                           progress=lambda fraction, text: seen.append((fraction, text)))
    counted = [(f, re.search(r"([\d,]+) of ([\d,]+)", t)) for f, t in seen]
    counted = [(f, int(m[1].replace(",", "")) / int(m[2].replace(",", ""))) for f, m in counted if m]
    assert len(counted) >= 50
    for fraction, share in counted:  # as the view shows them: a whole percent on the bar
        assert round(100 * fraction) == round(100 * share)
    assert any(round(100 * share) == 90 for _, share in counted)
