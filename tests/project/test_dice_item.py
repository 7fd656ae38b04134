"""An item made from two dice keeps its dice: stored, reopened, named in the methods text."""

import pytest

from dpdesk.mechanisms import rr


def test_dice_kept_with_the_item_in_the_project(tmp_path):
    from dpdesk.mechanisms.rr import randomizers
    from dpdesk.project import Project
    from dpdesk.project.report.design_words import design_words, item_randomizer

    with Project.create(tmp_path / "dice.dpdesk") as project:
        project.add_item("cheating", randomizers.dice_sum(2, 6, yes=[2, 3, 4], no=[11, 12]))
    with Project.open(tmp_path / "dice.dpdesk") as project:
        item = project.item("cheating")
        assert item.design_record["params"] == pytest.approx({"p_truth": 0.75, "p_yes": 1 / 6, "p_no": 1 / 12})
        assert item.design_record["randomizer"]["kind"] == "dice_sum"
        words = design_words(rr.Design.from_dict(item.design_record), item.instructions, item_randomizer(item))
    assert "two six-sided dice, added up" in words
