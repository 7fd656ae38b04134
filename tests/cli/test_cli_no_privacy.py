"""The command line refuses a design that protects no one, unless --force says to go on."""

from tests.helpers.cli import run


def test_item_that_protects_no_one_needs_force(tmp_path, capsys):
    path = tmp_path / "survey.dpdesk"
    assert run(capsys, "new", path)[0] == 0
    args = ("item", path, "direct", "--design", "forced", "--param", "p_truth=1", "--param", "p_yes=0",
            "--param", "p_no=0")
    code, out, err = run(capsys, *args)
    assert code != 0 and "protects no one" in err and "--force" in err and "Traceback" not in err
    code, out, _ = run(capsys, *args, "--force")
    assert code == 0 and "Added item 'direct'" in out
