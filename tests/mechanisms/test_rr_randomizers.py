"""Randomizer helpers: exact probabilities that feed rr.design."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dpdesk.errors import DesignError
from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr import randomizers as R


def test_forced_from_die_matches_spec_example():
    p = R.forced_from_die(truth=[1, 2, 3, 4], yes=[5], no=[6])
    assert p == {"p_truth": 4 / 6, "p_yes": 1 / 6, "p_no": 1 / 6}
    assert p.exact == {"p_truth": Fraction(2, 3), "p_yes": Fraction(1, 6), "p_no": Fraction(1, 6)}
    assert p.design == "forced" and "die" in p.description
    d = rr.design(p.design, **p)
    assert d.matrix[1].tolist() == pytest.approx([1 / 6, 5 / 6])
    assert p.build().params == d.params


def test_die_by_counts_and_other_sides():
    assert R.die(4, 1, 1) == R.forced_from_die()
    assert R.die([1, 2, 3, 4, 5, 6, 7], [8, 9], [10], sides=10).exact["p_truth"] == Fraction(7, 10)
    with pytest.raises(DesignError, match="two instructions"):
        R.die([1, 2, 3, 4], [4], [5, 6])
    with pytest.raises(DesignError, match="no instruction"):
        R.die([1, 2, 3], [5], [6])
    with pytest.raises(DesignError, match="add up"):
        R.die(3, 1, 1)
    with pytest.raises(DesignError, match="not on"):
        R.die([1, 2, 3, 4], [5], [7])


def test_coins():
    p = R.coins()
    assert p.exact == {"p_truth": Fraction(1, 2), "p_yes": Fraction(1, 4), "p_no": Fraction(1, 4)}
    three = R.coins(3, truth=["H", "TH"], yes=["TTH"], no=["TTT"])
    assert three.exact == {"p_truth": Fraction(3, 4), "p_yes": Fraction(1, 8), "p_no": Fraction(1, 8)}
    rr.design("forced", **three)
    with pytest.raises(DesignError, match="no instruction"):
        R.coins(2, truth=["H"], yes=["TH"], no=[])
    with pytest.raises(DesignError, match="two instructions"):
        R.coins(2, truth=["H"], yes=["T"], no=["TT"])


def test_cards():
    p = R.cards(truth=40, yes=10, no=10)
    assert p.exact == {"p_truth": Fraction(2, 3), "p_yes": Fraction(1, 6), "p_no": Fraction(1, 6)}
    assert "60" in p.description
    k = R.kuk_cards((8, 2), (2, 8))
    assert k == {"p1": 0.8, "p2": 0.2} and k.design == "kuk"
    rr.design(k.design, **k)
    with pytest.raises(DesignError):
        R.cards(0, 5, 5)
    with pytest.raises(DesignError):
        R.kuk_cards((0, 0), (1, 1))


def test_birth_month_shares_of_365_2425_day_year():
    q1 = R.birth_month([1, 2, 3])
    assert q1.exact == (31 + Fraction(28 * 400 + 97, 400) + 31) / Fraction(146097, 400)
    assert float(q1) == pytest.approx((31 + 28.2425 + 31) / 365.2425)
    assert "not uniform" in q1.description
    assert R.birth_month(range(1, 13)).exact == 1
    assert R.birth_month(["march", "Jan", "February"]) == q1
    rr.design("crosswise", p=q1)
    with pytest.raises(DesignError, match="Month"):
        R.birth_month([13])


def test_birthday_range():
    assert R.birthday_range((1, 1), (12, 31)).exact == 1
    jan = R.birthday_range((1, 1), (1, 31))
    assert jan.exact == Fraction(31 * 400, 146097)
    wrap = R.birthday_range("12-01", "01-31")
    assert wrap.exact == Fraction(62 * 400, 146097)
    feb = R.birthday_range((2, 1), (2, 29))
    assert feb.exact == R.birth_month([2]).exact
    assert "seasons" in feb.description or "season" in feb.description
    with pytest.raises(DesignError):
        R.birthday_range((2, 30), (3, 1))
    with pytest.raises(DesignError):
        R.birthday_range("March", (3, 1))


def test_die_says_what_to_do_on_each_face():
    p = rr.randomizers.die([1, 2, 3, 4], [5], [6])
    assert p.respondent.endswith("If it shows 1, 2, 3 or 4, answer the question truthfully. If it shows 5, "
                                 "answer 'yes'. If it shows 6, answer 'no'.")
    assert "1, 2, 3 or 4" in rr.randomizers.die(4, 1, 1).respondent  # counts only: faces in order


def test_multi_category_die_is_refused_when_faces_cannot_split_and_the_nearest_is_offered():
    from fractions import Fraction

    from dpdesk.errors import DesignError

    with pytest.raises(DesignError, match="cannot give each of the 4 categories") as err:
        rr.randomizers.forced_multi_die(4, ["a", "b", "c", "d"], sides=6)  # 2 faces for 4 x 8.3%
    assert "Nearest achievable: a 12-sided die: 8 faces for the true answer (66.7%)" in str(err.value)
    near = rr.randomizers.nearest_forced_multi_die(Fraction(2, 3), 4, sides=6)
    assert (near.sides, near.truth, near.each) == (12, 8, 1) and near.p_each == Fraction(1, 12)
    assert rr.randomizers.nearest_forced_multi_die(Fraction(1, 2), 3, sides=6) == (6, 3, 1)  # same die first
    p = rr.randomizers.forced_multi_die(8, ["a", "b", "c", "d"], sides=12)
    d = p.build()
    assert d.name == "forced_multi" and d.params["p_truth"] == pytest.approx(2 / 3)
    assert p.exact["p_forced"] == [Fraction(1, 12)] * 4
    assert "If it shows 1 to 8, give your true answer. If it shows 9, answer 'a'." in p.respondent
    assert "If it shows 12, answer 'd'." in p.respondent


def test_birth_month_asks_the_question_and_keeps_the_note_for_the_researcher():
    p = rr.randomizers.birth_month([1, 2, 3])
    assert p.question == "Is your mother's birthday in January, February or March?"
    assert "national birth statistics" in p.description and "0.2471" not in p.question


# ----------------------------------------------------------------------------- dice added up


def test_two_dice_classic_forced_design_is_exact():
    from fractions import Fraction

    from dpdesk.mechanisms.rr import randomizers

    p = randomizers.dice_sum(dice=2, sides=6, yes=[2, 3, 4], no=[11, 12])
    assert p.exact == {"p_truth": Fraction(27, 36), "p_yes": Fraction(6, 36), "p_no": Fraction(3, 36)}
    assert p.design == "forced" and p.build().name == "forced"
    assert "Roll both dice" in p.respondent and "add them up" in p.respondent
    assert "If the total is 2, 3 or 4, answer 'yes'" in p.respondent
    assert "27 of 36 rolls" in p.description
    assert p.randomizer == {"kind": "dice_sum", "dice": 2, "sides": 6, "yes": [2, 3, 4], "no": [11, 12]}


def test_dice_sum_ways_match_brute_force_for_any_dice_and_sides():
    import itertools
    from collections import Counter

    from dpdesk.mechanisms.rr import randomizers

    for dice, sides in ((1, 6), (2, 6), (3, 4), (2, 10), (4, 3)):
        brute = Counter(sum(r) for r in itertools.product(range(1, sides + 1), repeat=dice))
        assert randomizers.dice_sum_ways(dice, sides) == dict(brute)
    p = randomizers.dice_sum(3, 6, yes=[3, 4, 5], no=[18])
    assert p.exact["p_yes"] == Fraction(1 + 3 + 6, 216) and p.exact["p_no"] == Fraction(1, 216)
    assert sum(p.exact.values()) == 1


@pytest.mark.parametrize("kwargs,words", [
    ({"yes": [1]}, "cannot add up to 1: the totals run from 2 to 12"),
    ({"yes": [2], "no": [2]}, "The total 2 is given two instructions"),
    ({"yes": list(range(2, 8)), "no": list(range(8, 13))}, "No total asks for the truth"),
    ({"dice": 0}, "number of dice is 0"),
    ({"sides": 101}, "number of sides is 101"),
    ({"yes": [2], "truth": [3, 4]}, "The total 5 has no instruction"),
])
def test_dice_sum_refuses_impossible_totals_in_words(kwargs, words):
    from dpdesk.errors import DesignError
    from dpdesk.mechanisms.rr import randomizers

    with pytest.raises(DesignError, match=words):
        randomizers.dice_sum(**kwargs)


def test_a_design_that_protects_no_one_is_recognised():
    from dpdesk.mechanisms import rr

    assert rr.design("forced", p_truth=1, p_yes=0, p_no=0).protects_no_one
    assert not rr.design("forced", p_truth=0.9, p_yes=0.1, p_no=0).protects_no_one  # 'yes' still protected
    assert not rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25).protects_no_one
    assert rr.design("warner", p=1).protects_no_one


def test_messages_say_what_went_wrong_in_words():
    from dpdesk.errors import DesignError
    from dpdesk.mechanisms import rr
    from dpdesk.mechanisms.rr import randomizers

    with pytest.raises(DesignError) as err:
        rr.design("forced", p_truth=0.6667, p_yes=0.1667, p_no=0.1667)
    text = str(err.value)
    assert "p_truth" not in text and "add up to 1.0001" in text and "2/3" in text
    with pytest.raises(DesignError) as err:
        randomizers.die(4, 0, 0)
    assert "add up to 4, but the die has 6 sides" in str(err.value) and "[4, 0, 0]" not in str(err.value)

