"""Designs: matrices (as RRreg's getPW), local epsilon, descriptions and parameter checks."""

import math

import numpy as np
import pytest

from dpdesk.errors import DesignError, DpdeskError
from dpdesk.mechanisms import rr
from tests.helpers.designs import EXAMPLES


def yes(d, g=0):
    """P(recorded yes | state) per state of group g."""
    return d.matrices[g][1]


def test_every_design_is_column_stochastic_and_described():
    examples = EXAMPLES  # one example of each design (tests/helpers/designs.py)
    assert set(examples) == set(rr.DESIGN_NAMES)
    for name, params in examples.items():
        d = rr.design(name, **params)
        for m in d.matrices:
            # unary: one 2 x 2 matrix for every tick box (reported | true), shared by all categories
            rows = 2 if name == "unary" else len(d.responses)
            assert m.shape == (rows, len(d.states))
            np.testing.assert_allclose(m.sum(axis=0), 1.0, atol=1e-12)
            assert np.all(m >= 0)
        assert len(d.describe()) > 40, name
        assert d.groups == (2 if name in ("sld", "cdm", "unrelated_unknown", "ecwm") else 1)
        again = rr.Design.from_dict(d.to_dict())
        for a, b in zip(again.matrices, d.matrices):
            np.testing.assert_array_equal(a, b)


def test_binary_designs_match_rrreg_getpw():
    # P(yes | non-carrier), P(yes | carrier), from RRreg's getPW
    p = 0.7
    np.testing.assert_allclose(yes(rr.design("warner", p=p)), [1 - p, p])
    np.testing.assert_allclose(yes(rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)), [0.25, 0.75])
    np.testing.assert_allclose(yes(rr.design("unrelated", p_sensitive=0.7, q=0.3)), [0.3 * 0.3, 0.7 + 0.3 * 0.3])
    np.testing.assert_allclose(yes(rr.design("crosswise", p=0.25)), [0.75, 0.25])
    np.testing.assert_allclose(yes(rr.design("triangular", p=0.25)), [0.25, 1.0])
    np.testing.assert_allclose(yes(rr.design("mangat", p=0.8)), [0.2, 1.0])
    np.testing.assert_allclose(yes(rr.design("kuk", p1=0.7, p2=0.3)), [0.3, 0.7])
    assert rr.design("warner", p=0.7).responses == ("no", "yes")


def test_kuk_with_several_draws_is_binomial():
    d = rr.design("kuk", p1=0.6, p2=0.2, draws=2)
    np.testing.assert_allclose(d.matrix[:, 1], [0.16, 0.48, 0.36])
    np.testing.assert_allclose(d.matrix[:, 0], [0.64, 0.32, 0.04])


def test_two_group_designs_match_rrreg():
    sld = rr.design("sld", p1=0.3, p2=0.7)
    np.testing.assert_allclose(yes(sld, 0), [0.7, 1.0, 0.0])
    np.testing.assert_allclose(yes(sld, 1), [0.3, 1.0, 0.0])
    cdm = rr.design("cdm", p1=0.3, p2=0.7)
    np.testing.assert_allclose(yes(cdm, 0), [0.3, 1.0, 0.0])
    uq = rr.design("unrelated_unknown", p1=0.3, p2=0.7)
    np.testing.assert_allclose(yes(uq, 1), [0.0, 0.3, 0.7, 1.0])
    assert sld.parameters == ("prevalence", "t")
    assert cdm.parameters == ("prevalence", "beta", "gamma")
    assert uq.parameters == ("prevalence", "pi_uq")


def test_multi_category_matrices():
    fm = rr.design("forced_multi", p_truth=0.7, p_forced=[0.1, 0.05, 0.15])
    np.testing.assert_allclose(fm.matrix[:, 0], [0.8, 0.05, 0.15])
    k = rr.design("krr", categories=4, epsilon=math.log(3))
    np.testing.assert_allclose(np.diag(k.matrix), 3 / 6)
    np.testing.assert_allclose(k.matrix[1, 0], 1 / 6)
    assert k.categories == ("0", "1", "2", "3")


@pytest.mark.parametrize("p", [0.6, 0.7, 0.9, 0.2])
def test_epsilon_of_warner_and_crosswise(p):
    expected = abs(math.log(p / (1 - p)))
    assert rr.design("warner", p=p).epsilon == pytest.approx(expected)
    assert rr.design("crosswise", p=p).epsilon == pytest.approx(expected)


def test_epsilon_closed_forms():
    assert rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25).epsilon == pytest.approx(math.log(3))
    p, q = 0.7, 0.3
    unrelated = max(math.log((p + (1 - p) * q) / ((1 - p) * q)), math.log((1 - (1 - p) * q) / ((1 - p) * (1 - q))))
    assert rr.design("unrelated", p_sensitive=p, q=q).epsilon == pytest.approx(unrelated)
    assert rr.design("krr", categories=5, epsilon=1.3).epsilon == pytest.approx(1.3)
    assert rr.design("unary", categories=5, epsilon=1.3, variant="sue").epsilon == pytest.approx(1.3)
    assert rr.design("unary", categories=5, epsilon=1.3, variant="oue").epsilon == pytest.approx(1.3)
    sue = rr.design("unary", categories=5, epsilon=1.3, variant="sue")
    assert rr.unary_multiselect_epsilon(sue) == pytest.approx(5 * 1.3 / 2)
    # forced response with only a forced "yes": a "no" comes only from non-carriers
    assert rr.design("forced", p_truth=0.8, p_yes=0.2, p_no=0.0).epsilon == math.inf


@pytest.mark.parametrize("name,params", [
    ("triangular", dict(p=0.25)),
    ("mangat", dict(p=0.8)),
    ("sld", dict(p1=0.3, p2=0.7)),
    ("cdm", dict(p1=0.3, p2=0.7)),
    ("unrelated_unknown", dict(p1=0.3, p2=0.7)),
])
def test_epsilon_is_infinite_where_a_response_is_impossible_for_one_state(name, params):
    assert rr.design(name, **params).epsilon == math.inf


def test_matrix_epsilon_helper():
    assert rr.matrix_epsilon([[0.75, 0.25], [0.25, 0.75]]) == pytest.approx(math.log(3))
    assert rr.matrix_epsilon([[1.0, 0.5], [0.0, 0.5]]) == math.inf
    assert rr.matrix_epsilon(np.eye(2)) == math.inf


@pytest.mark.parametrize("name,params,words", [
    ("warner", dict(p=0.5), "chance of 0.5"),
    ("crosswise", dict(p=0.5), "half of people"),
    ("forced", dict(p_truth=0.5, p_yes=0.3, p_no=0.3), "add up to 1"),
    ("forced", dict(p_truth=0.0, p_yes=0.5, p_no=0.5), "chance to answer truthfully is 0.0"),
    ("warner", dict(p=1.5), "is 1.5, but it must be a probability from 0 to 1"),
    ("warner", dict(p="abc"), "probability"),
    ("warner", dict(p=float("nan")), "is nan"),
    ("warner", dict(q=0.3), "no parameter 'q'"),
    ("forced", dict(p_truth=0.5), "needs parameter"),
    ("kuk", dict(p1=0.5, p2=0.5), "must differ"),
    ("kuk", dict(p1=0.7, p2=0.3, draws=0), "draws"),
    ("kuk", dict(p1=0.7, p2=0.3, draws=1.5), "draws"),
    ("sld", dict(p1=0.4, p2=0.4), "must differ"),
    ("cdm", dict(p1=0.4, p2=0.4), "must differ"),
    ("unrelated_unknown", dict(p1=0.4, p2=0.4), "must differ"),
    ("triangular", dict(p=1.0), "below 1"),
    ("unrelated", dict(p_sensitive=0.0, q=0.3), "sensitive question is 0.0"),
    ("mangat", dict(p=0.0), "above 0"),
    ("krr", dict(categories=1, epsilon=1), "at least 2"),
    ("krr", dict(categories=["a", "a"], epsilon=1), "repeated"),
    ("krr", dict(categories=3, epsilon=-1), "positive"),
    ("unary", dict(categories=3, epsilon=1, variant="xyz"), "variant"),
    ("forced_multi", dict(p_truth=0.7, p_forced=[0.1, 0.1]), "add up to 0.9"),
    ("custom", dict(matrix=[[0.5, 0.5], [0.5, 0.5]]), "identify"),
    ("custom", dict(matrix=[[0.5, 0.2], [0.4, 0.8]]), "sum to 1"),
    ("custom", dict(matrix=[1, 2, 3]), "at least 2 rows"),
    ("nonsense", dict(), "There is no design called"),
])
def test_invalid_parameters_are_refused_in_words(name, params, words):
    with pytest.raises(DesignError) as info:
        rr.design(name, **params)
    assert words in str(info.value)
    assert isinstance(info.value, DpdeskError)


def test_from_dict_refuses_a_tampered_record():
    record = rr.design("warner", p=0.7).to_dict()
    record["matrices"][0][0][0] = 0.5
    with pytest.raises(DesignError, match="do not match"):
        rr.Design.from_dict(record)


def test_descriptions_say_what_the_respondent_does():
    coin = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25).describe()
    assert "50%" in coin and "25%" in coin and "yes" in coin
    assert "red" in rr.design("kuk", p1=0.7, p2=0.3, draws=2).describe()


def test_an_unknown_design_name_lists_every_design_in_words():
    """Every design (and dice_sum, forced response with dice added up) with what it is, not bare names."""
    from dpdesk.errors import DesignError
    from dpdesk.mechanisms.rr.design import DESIGN_NAMES, DESIGN_WORDS

    assert set(DESIGN_NAMES) | {"dice_sum"} == set(DESIGN_WORDS)
    with pytest.raises(DesignError) as err:
        rr.design("two_dice")
    text = str(err.value)
    assert text.startswith("There is no design called 'two_dice'.")
    assert "dice_sum (forced response with two (or more) dice added up" in text
    assert "kuk (Kuk's design: respondents draw from two decks" in text and "cdm (cheating detection" in text
    assert "Known designs" not in text


@pytest.mark.parametrize("draws", [1, 2, 5])
def test_kuk_cards_follow_the_binomial_without_loading_scipy_stats(draws):
    """Kuk's matrix is the binomial pmf of k red cards in ``draws`` (as scipy.stats.binom.pmf, to 1e-15)."""
    from scipy.stats import binom

    m = rr.design("kuk", p1=0.7, p2=0.3, draws=draws).matrices[0]
    k = np.arange(draws + 1)
    assert np.allclose(m, np.column_stack([binom.pmf(k, draws, 0.3), binom.pmf(k, draws, 0.7)]), atol=1e-15)


def test_building_a_kuk_design_does_not_import_scipy_stats():
    import subprocess
    import sys

    code = ("import sys; from dpdesk.mechanisms import rr; rr.design('kuk', p1=0.7, p2=0.3, draws=3); "
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
