"""dpdesk item: a design that protects no one needs --force; dice added up keep their dice."""

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


def test_item_with_two_dice_keeps_the_dice(tmp_path, capsys):
    from dpdesk.project import Project

    path = tmp_path / "dice.dpdesk"
    assert run(capsys, "new", path)[0] == 0
    code, out, err = run(capsys, "item", path, "cheating", "--design", "dice_sum", "--param", "dice=2",
                         "--param", "sides=6", "--param", "yes=[2,3,4]", "--param", "no=[11,12]")
    assert code == 0, err
    with Project.open(path) as project:
        record = project.item("cheating").design_record
    assert record["name"] == "forced" and record["randomizer"]["yes"] == [2, 3, 4]
    code, _, err = run(capsys, "item", path, "other", "--design", "dice_sum", "--param", "faces=6")
    assert code != 0 and "not 'faces'" in err and "Traceback" not in err
