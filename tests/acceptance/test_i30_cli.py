"""Issue 30 on the command line as a user meets it: the ECWM item of the guide's worked example, fielded
before its two questions B are written, says which command writes them (``dpdesk item`` refuses an
existing item, so its options were the wrong advice)."""

from dpdesk.cli import main
from tests.helpers.cli import run


def test_fielding_an_ecwm_item_without_its_questions_b_names_the_command_that_writes_them(tmp_path, capsys):
    csv = tmp_path / "answers.csv"
    csv.write_text("version,answer\n" + "".join(f"{1 + i % 2},{'same' if i % 3 else 'different'}\n"
                                                  for i in range(40)), encoding="utf-8")
    path = tmp_path / "e.dpdesk"
    for args in (["new", path], ["import", path, csv],
                 ["item", path, "cheat", "--design", "ecwm", "--param", "p=0.25", "--column", "answer", "--codes",
                  "yes=same", "--codes", "no=different", "--group-column", "version", "--group-codes", "1=1",
                  "--group-codes", "2=2", "--question", "Have you ever cheated in an exam?"]):
        assert main([str(a) for a in args]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "field", path, str(tmp_path / "out"), "--format", "xlsform")
    assert code == 1 and "Traceback" not in err
    assert "`dpdesk text PROJECT cheat`, which sets question A and both versions of question B" in err
    code, out, err = run(capsys, "text", path, "cheat", "--question-b", "Is your mother's birthday in January, "
                         "February or March?", "--question-b2", "Is your mother's birthday between April and December?")
    assert code == 0
    code, out, err = run(capsys, "field", path, str(tmp_path / "out"), "--format", "xlsform")
    assert code == 0 and (tmp_path / "out.xlsx").exists()
    readme = (tmp_path / "out-README.txt").read_text(encoding="utf-8")
    assert "never lets the platform draw a random number" not in readme  # it draws the version: said in 6
    assert "draw one thing only: the version of question B" in readme
