"""``dpdesk release`` and ``dpdesk ledger`` in the data's labels, with a note on respondents in no group.

Issue 20: "count by sex" with keys 1/2/3 became "count by What is your gender?" with Female, Male,
Non-binary; blanks and the user-missing 99 (Refused) are in no cell, and the output says so (their
exact number is not printed: it would not be private).
"""

from __future__ import annotations

import pytest

from dpdesk.cli import main
from tests.helpers.cli import run
from tests.helpers.labelled_study import GENDER, make_labelled_study


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    path = make_labelled_study(tmp_path_factory.mktemp("release_labels"))
    assert main(["budget", str(path), "--set", "2"]) == 0
    return path


def test_release_by_a_labelled_column_speaks_in_labels_and_notes_the_blanks(project, capsys, tmp_path):
    out_file = tmp_path / "r.csv"
    code, out, err = run(capsys, "release", project, "--stat", "count", "--by", "sex", "--by-keys", "1", "2", "3",
                         "--epsilon", "0.1", "--export", out_file)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"count by {GENDER} (dataset ")
    assert [line.split()[0] for line in lines[1:4]] == ["Female", "Male", "Non-binary"]
    assert f"Note: Respondents with no value of {GENDER} (a blank, a missing code such as 99 = refused" in out
    assert "not released, since an exact count would not be private" in out
    assert f"Codes in the data: {GENDER} = sex." in out
    assert "count by sex" not in out
    exported = out_file.read_text(encoding="utf-8")
    assert GENDER in exported.splitlines()[0] and "Female" in exported and f"count by {GENDER}" in exported
    code, out, _ = run(capsys, "ledger", project)
    assert code == 0 and f"count by {GENDER}" in out and "Female " in out


def test_a_histogram_of_a_labelled_column(project, capsys):
    code, out, err = run(capsys, "release", project, "--stat", "histogram", "--columns", "sex", "--keys", "1", "2",
                         "--epsilon", "0.1")
    assert code == 0, err
    assert out.startswith(f"histogram of {GENDER} (dataset ")
    assert [line.split()[0] for line in out.splitlines()[1:3]] == ["Female", "Male"]
    assert f"no value of {GENDER}" in out


def test_the_report_names_releases_in_labels(project, capsys):
    from dpdesk.project import Project
    from dpdesk.project.report.methods import _release_paragraphs
    from dpdesk.project.report.releases import release_section

    assert run(capsys, "release", project, "--stat", "count", "--by", "sex", "--by-keys", "1", "2", "3",
               "--epsilon", "0.1")[0] == 0
    with Project.open(project) as p:
        section = release_section(p)
        methods = " ".join(_release_paragraphs(p, lambda *keys: "cited"))
    table = next(t for t in section.tables if t.title.startswith("Count by"))
    assert table.title == f"Count by {GENDER} (noisy release)"
    assert table.columns[0].label == GENDER
    assert [r.cells[0].text for r in table.rows] == ["Female", "Male", "Non-binary"]
    assert any(f"no value of {GENDER}" in n for n in table.notes)
    assert f"count by {GENDER} was released" in methods and "count by sex" not in methods
