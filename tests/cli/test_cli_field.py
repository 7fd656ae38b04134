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


def test_designs_waiting_for_fielding_then_answers_back(tmp_path, capsys):
    """Two-group and multi-select items made without columns are fielded, and the export maps back."""
    from dpdesk.project.analysis.estimates import analyze

    p = tmp_path / "s.dpdesk"
    run(capsys, "new", p)
    assert run(capsys, "item", p, "drugs", "--design", "sld", "--param", "p1=0.25", "--param", "p2=0.75",
               "--question", "Did you use drugs?", "--randomizer", "exact")[0] == 0
    assert run(capsys, "item", p, "news", "--design", "unary", "--param", 'categories=["tv","radio"]',
               "--param", "epsilon=1.0986122886681098", "--question", "Where do you get news?",
               "--randomizer", "exact")[0] == 0
    code, out, err = run(capsys, "field", p, tmp_path / "dict.csv", "--format", "redcap", "--mode", "interview")
    assert code == 0, err
    from dpdesk.project import Project
    from tests.helpers.fielding import redcap_export, simulate

    with Project.open(p) as project:
        rows, counts = simulate(project, n=80)
    (tmp_path / "records.csv").write_text(redcap_export(tmp_path / "dict.csv", rows), encoding="utf-8")
    code, out, err = run(capsys, "import", p, tmp_path / "records.csv")
    assert code == 0, err
    assert "drugs → drugs (the fielded redcap instrument)" in out and "news → news_1" in out
    with Project.open(p) as project:
        results = {r.item: r for r in analyze(project)}
    assert results["drugs"].estimate.counts[0].tolist() == counts["drugs"][0]
    assert [c.tolist() for c in results["news"].estimate.counts] == counts["news"]


def test_an_item_without_a_randomizer_is_refused_in_english_too(tmp_path, capsys):
    """Every language (English as well) says how to draw the randomizer, or the export is refused with a
    suggestion; `dpdesk item --randomizer` keeps one, as the wizard does, and every language then names it."""
    p = tmp_path / "s.dpdesk"
    run(capsys, "new", p)
    run(capsys, "item", p, "cheat", "--design", "forced", "--param", "p_truth=0.5", "--param", "p_yes=0.25",
        "--param", "p_no=0.25", "--question", "Did you cheat?")
    code, _, err = run(capsys, "field", p, tmp_path / "t", "--format", "qualtrics-txt")
    assert code == 1 and "English instructions for 'cheat' do not say how to draw the randomizer" in err
    assert "--randomizer" in err and "coin the respondent tosses at home" in err and "Traceback" not in err
    assert not list(tmp_path.glob("t*"))
    code, out, err = run(capsys, "item", p, "cheat", "--randomizer", "coins")
    assert code == 0, err
    assert "Toss 2 coins" in out
    with Project.open(p) as project:
        assert project.item("cheat").design_record["randomizer"] == {
            "kind": "coins", "tosses": 2, "truth": ["H"], "yes": ["TH"], "no": ["TT"]}
        from dpdesk.project import languages as L

        L.set_text(project, "cheat", "de", question="Haben Sie geschummelt?")
    code, _, err = run(capsys, "field", p, tmp_path / "t", "--format", "qualtrics-txt", "--language", "en",
                       "--language", "de")
    assert code == 0, err
    assert "Toss 2 coins privately" in (tmp_path / "t.txt").read_text(encoding="utf-8")
    assert "Werfen Sie unbeobachtet nacheinander 2 Münzen" in (tmp_path / "t_de.txt").read_text(encoding="utf-8")


def test_item_randomizer_kinds(tmp_path, capsys):
    p = tmp_path / "s.dpdesk"
    run(capsys, "new", p)
    code, _, err = run(capsys, "item", p, "die", "--design", "forced", "--param", "p_truth=0.6666666666666666",
                       "--param", "p_yes=0.16666666666666666", "--param", "p_no=0.16666666666666666",
                       "--randomizer", "die")
    assert code == 0, err
    code, _, err = run(capsys, "item", p, "deck", "--design", "forced", "--param", "p_truth=0.7",
                       "--param", "p_yes=0.2", "--param", "p_no=0.1", "--randomizer", "cards")
    assert code == 0, err
    code, _, err = run(capsys, "item", p, "w", "--design", "warner", "--param", "p=0.75", "--randomizer", "exact")
    assert code == 0, err
    with Project.open(p) as project:
        assert project.item("die").design_record["randomizer"] == {"kind": "die", "sides": 6, "truth": [1, 2, 3, 4],
                                                                   "yes": [5], "no": [6]}
        assert project.item("deck").design_record["randomizer"] == {"kind": "cards", "truth": 7, "yes": 2, "no": 1}
        assert project.item("w").design_record["randomizer"] == {"kind": "exact"}
    code, _, err = run(capsys, "item", p, "coin", "--design", "forced", "--param", "p_truth=0.7",
                       "--param", "p_yes=0.2", "--param", "p_no=0.1", "--randomizer", "coins")
    assert code == 1 and "No number of fair coins" in err and "use --randomizer die, cards or exact" in err
    code, _, err = run(capsys, "item", p, "w2", "--design", "warner", "--param", "p=0.75", "--randomizer", "die")
    assert code == 1 and "forced response only" in err and "--randomizer exact" in err
    code, _, err = run(capsys, "item", p, "cw", "--design", "crosswise", "--param", "p=0.25", "--randomizer", "exact")
    assert code == 1 and "needs no randomizer" in err


def test_ecwm_both_versions_from_the_command_line(tmp_path, capsys):
    """`dpdesk item --question-b2` and `dpdesk text --question-b2`: the extended crosswise model's version 2,
    fielded with the version the platform draws; a card per version; refused in words for other designs."""
    from tests.helpers.pdftext import page_count

    p = tmp_path / "s.dpdesk"
    run(capsys, "new", p)
    code, out, err = run(capsys, "item", p, "cheat", "--design", "ecwm", "--param", "p=0.25", "--question", "Q?",
                         "--question-b", "Born in Jan-Mar?", "--question-b2", "Born in Apr-Dec?")
    assert code == 0, err
    code, out, _ = run(capsys, "text", p, "cheat", "--language", "fr")
    assert "not yet written in this language: question, question B, question B of version 2 (give --question / " \
        "--question-b / --question-b2)" in out
    code, out, err = run(capsys, "text", p, "cheat", "--language", "de", "--question", "F?", "--question-b",
                         "Jan-Mär?", "--question-b2", "Apr-Dez?", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert (shown["question_b"], shown["question_b2"]) == ("Jan-Mär?", "Apr-Dez?")
    code, _, err = run(capsys, "text", p, "cheat", "--card", tmp_path / "cards.pdf")
    assert code == 0, err
    assert page_count((tmp_path / "cards.pdf").read_bytes()) == 2
    code, _, err = run(capsys, "field", p, tmp_path / "form", "--format", "xlsform", "--language", "en",
                       "--language", "de")
    assert code == 0, err
    with Project.open(p) as project:
        assert item_text(project, "cheat", "question_b2") == "Born in Apr-Dec?"
        fields = {f["role"]: f["name"] for f in instruments(project)[0].items["cheat"]["fields"]}
        assert fields["group"] == "cheat_version"
    code, _, err = run(capsys, "item", p, "x", "--design", "crosswise", "--param", "p=0.25", "--question-b2", "B?")
    assert code == 1 and "--question-b2 is version 2's question B of the extended crosswise model" in err
