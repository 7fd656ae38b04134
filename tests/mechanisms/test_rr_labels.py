"""Response labels in the respondent's words: same order as ``Design.responses``, stored with the design."""

import pytest

from dpdesk.mechanisms import rr
from tests.helpers.designs import EXAMPLES


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_design_labels_each_response_in_count_order(name):
    d = rr.design(name, **EXAMPLES[name])
    assert len(d.response_labels) == len(d.short_labels) == len(d.responses)
    assert all(label.strip() for label in d.response_labels + d.short_labels)
    record = d.to_dict()
    assert record["response_labels"] == list(d.response_labels)
    again = rr.Design.from_dict(record)
    assert again.response_labels == d.response_labels and again.responses == d.responses
    for r in d.responses:
        assert d.label(r) == d.response_labels[d.responses.index(r)]


def test_crosswise_and_triangular_say_what_the_respondent_ticks():
    cw = rr.design("crosswise", p=0.25)
    assert cw.responses == ("no", "yes")  # the stable count order
    assert cw.label("yes") == "Both answers are the same" and cw.label("no", short=True) == "different"
    assert "Both answers are the same" in cw.describe() and "The answers are different" in cw.describe()
    tri = rr.design("triangular", p=0.25)
    assert tri.label("yes") == "At least one yes" and tri.label("no") == "Both no"
    assert "At least one yes" in tri.describe() and "Both no" in tri.describe()
    # row 1 ("yes") is "same": a non-carrier is "same" when B is "no" (1 - p), a carrier when B is "yes" (p)
    assert list(cw.matrix[1]) == [0.75, 0.25]
    assert list(tri.matrix[1]) == [0.25, 1.0]  # "at least one yes": B yes, or a carrier


def test_kuk_labels_count_red_cards():
    assert rr.design("kuk", p1=0.7, p2=0.3).response_labels == ("Black card", "Red card")
    d = rr.design("kuk", p1=0.7, p2=0.3, draws=2)
    assert d.response_labels == ("0 red cards", "1 red card", "2 red cards")
    assert d.short_labels == d.responses == ("0 red", "1 red", "2 red")


def test_yes_no_designs_and_categories():
    for name in ("forced", "warner", "unrelated", "mangat", "sld", "cdm", "unrelated_unknown"):
        assert rr.design(name, **EXAMPLES[name]).response_labels == ("No", "Yes"), name
    assert rr.design("krr", **EXAMPLES["krr"]).response_labels == ("a", "b", "c")


def test_answer_words_do_not_take_yes_for_a_crosswise_answer():
    words = rr.design("crosswise", p=0.25).answer_words()
    assert "yes" not in {w.casefold() for w in words["yes"]} and "gleich" in words["yes"]
    forced = rr.design("forced", **EXAMPLES["forced"]).answer_words()
    assert {"yes", "Yes", "ja"} <= forced["yes"] and "nein" in forced["no"]
