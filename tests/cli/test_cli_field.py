"""`dpdesk field` and `dpdesk item --question-b`: a design waiting for its fielding, exported."""

from __future__ import annotations

import json

from dpdesk.project import Project
from dpdesk.project.fielding.store import instruments, item_text
from tests.helpers.cli import run


def test_item_without_column_then_field(tmp_path, capsys):
    p = tmp_path / "s.dpdesk"
    assert run(capsys, "new", p)[0] == 0
    code, out, err = run(capsys, "item", p, "cheat", "--design", "crosswise", "--param", "p=0.25",
                         "--question", "Did you cheat?", "--question-b", "Is your mother's birthday in Jan-Mar?")
    assert code == 0, err
    assert "No data column yet" in out
    code, out, err = run(capsys, "field", p, tmp_path / "cheat.qsf", "--format", "qsf", "--language", "en")
    assert code == 0, err
    survey = json.loads((tmp_path / "cheat.qsf").read_text(encoding="utf-8"))
    texts = [e["Payload"]["QuestionText"] for e in survey["SurveyElements"] if e["Element"] == "SQ"]
    assert any("Jan-Mar" in t for t in texts)
    assert (tmp_path / "cheat-README.txt").exists()
    with Project.open(p) as project:
        assert item_text(project, "cheat", "question_b") == "Is your mother's birthday in Jan-Mar?"
        assert project.item("cheat").column is None
        assert [i.format for i in instruments(project)] == ["qsf"]


def test_question_b_only_for_two_question_designs(tmp_path, capsys):
    p = tmp_path / "s.dpdesk"
    run(capsys, "new", p)
    code, _, err = run(capsys, "item", p, "x", "--design", "warner", "--param", "p=0.75", "--question-b", "B?")
    assert code == 1 and "two-question designs" in err


def test_field_refuses_in_words(tmp_path, capsys):
    p = tmp_path / "s.dpdesk"
    run(capsys, "new", p)
    run(capsys, "item", p, "travel", "--design", "krr", "--param", 'categories=["a","b","c"]', "--param", "epsilon=2")
    code, out, err = run(capsys, "field", p, tmp_path / "t", "--format", "xlsform")
    assert code == 1 and "cannot be fielded online" in err and "Traceback" not in err
    code, _, err = run(capsys, "field", p, tmp_path / "t", "--format", "redcap", "--item", "nope")
    assert code == 1 and "nope" in err
