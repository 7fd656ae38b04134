"""Disclosure checks (dpdesk.mechanisms.disclosure) against hand-computed examples."""

import math

import numpy as np
import pytest

from dpdesk.errors import DataError
from dpdesk.mechanisms import disclosure as dc

X = [0.8, 0.05, 0.05, 0.05, 0.05]
Y = [0.05, 0.8, 0.05, 0.05, 0.05]
Z = [0.05, 0.05, 0.05, 0.05, 0.8]


def test_seed_emd_example_unnormalised_and_normalised():
    # move 0.75 from 1 to 2: work 0.75; move it from 1 to 5: 4 steps, work 3
    assert dc.emd_ordered(X, Y, normalise=False) == pytest.approx(0.75)
    assert dc.emd_ordered(X, Z, normalise=False) == pytest.approx(3.0)
    assert dc.emd_ordered(X, Y) == pytest.approx(0.75 / 4)
    assert dc.emd_ordered(X, Z) == pytest.approx(3.0 / 4)
    # the equal distance cannot tell Y from Z
    assert dc.emd_equal(X, Y) == pytest.approx(0.75) == dc.emd_equal(X, Z)


def test_emd_rejects_non_distributions():
    with pytest.raises(DataError, match="sum to 1"):
        dc.emd_ordered([0.5, 0.6], [0.5, 0.5])
    with pytest.raises(DataError, match="same number"):
        dc.emd_equal([1.0], [0.5, 0.5])


def table():
    # age band, sex -> classes {(0,0): rows 0-2, (0,1): rows 3-4, (1,0): row 5}
    age = np.array([0, 0, 0, 0, 0, 1])
    sex = np.array([0, 0, 0, 1, 1, 0])
    return age, sex


def test_classes_k_and_prosecutor_risk_by_hand():
    classes = dc.equivalence_classes(table())
    assert sorted(classes.sizes.tolist()) == [1, 2, 3]
    assert classes.record_sizes.tolist() == [3, 3, 3, 2, 2, 1]
    k = dc.k_anonymity(classes, k=2)
    assert k.smallest == 1 and k.n_classes == 3 and k.n_at_risk == 1 and k.at_risk.tolist() == [0, 0, 0, 0, 0, 1]
    assert k.share_at_risk == pytest.approx(1 / 6)
    assert k.risk.tolist() == pytest.approx([1 / 3] * 3 + [1 / 2] * 2 + [1])
    assert k.highest_risk == 1 and k.average_risk == pytest.approx(3 / 6) and k.n_unique == 1
    assert dc.k_anonymity(classes, k=3).n_at_risk == 3


def test_missing_codes_are_a_value_of_their_own_and_many_columns_do_not_overflow():
    classes = dc.equivalence_classes([np.array([-1, -1, 0, 0])])
    assert sorted(classes.sizes.tolist()) == [2, 2]
    rng = np.random.default_rng(1)
    cols = [rng.integers(0, 1_000_000, 500) for _ in range(8)]  # 10^48 combinations: repacked
    cols.append(np.zeros(500, dtype=np.int64))
    classes = dc.equivalence_classes(cols)
    assert classes.n_classes == 500
    same = [np.r_[c, c] for c in cols]
    assert dc.k_anonymity(dc.equivalence_classes(same), 2).smallest == 2


def test_bad_inputs_get_clear_messages():
    with pytest.raises(DataError, match="No quasi-identifiers"):
        dc.equivalence_classes([])
    with pytest.raises(DataError, match="integer codes"):
        dc.equivalence_classes([np.array(["a", "b"])])
    with pytest.raises(DataError, match="has 2 values; the others have 3"):
        dc.equivalence_classes([np.arange(3), np.arange(2)])
    for bad in (1, 2.5, "x"):
        with pytest.raises(DataError, match="at least 2"):
            dc.check_k(bad)
    empty = dc.equivalence_classes([np.zeros(0, dtype=np.int64)])
    assert dc.k_anonymity(empty, 2).n_records == 0


def test_homogeneity_attack_passes_k_anonymity_and_fails_l_diversity():
    # two classes of 4; in the first every record has the same diagnosis
    qi = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    diagnosis = np.array([2, 2, 2, 2, 0, 1, 2, 1])
    classes = dc.equivalence_classes([qi])
    assert dc.k_anonymity(classes, k=4).passes
    ldiv = dc.l_diversity(classes, diagnosis, l=2)
    assert not ldiv.passes and ldiv.at_risk.tolist() == [1] * 4 + [0] * 4
    assert ldiv.distinct.tolist() == [1, 3] and ldiv.smallest_distinct == 1
    # entropy l of (1/4, 1/2, 1/4): exp(1.5 log 2) = 2^1.5
    assert ldiv.entropy_l[1] == pytest.approx(2 ** 1.5) and ldiv.entropy_l[0] == pytest.approx(1)
    assert dc.l_diversity(classes, diagnosis, l=3, entropy=True).at_risk.sum() == 8  # 2.83 < 3
    assert dc.l_diversity(classes, diagnosis, l=2, entropy=True).at_risk.sum() == 4


def test_l_diversity_leaves_missing_values_out():
    classes = dc.equivalence_classes([np.array([0, 0, 1, 1])])
    ldiv = dc.l_diversity(classes, np.array([-1, -1, 0, 1]), l=2)
    assert ldiv.distinct.tolist() == [0, 2] and math.isnan(ldiv.entropy_l[0])
    assert ldiv.passes and ldiv.smallest_distinct == 2


def test_t_closeness_per_class_matches_the_pairwise_emd():
    # file: values 0..4; class A all at 0, class B spread
    qi = np.array([0] * 4 + [1] * 6)
    s = np.array([0, 0, 0, 0, 0, 1, 2, 3, 4, 4])
    classes = dc.equivalence_classes([qi])
    q = np.bincount(s, minlength=5) / 10
    pa = np.bincount(s[:4], minlength=5) / 4
    pb = np.bincount(s[4:], minlength=5) / 6
    ordered = dc.t_closeness(classes, s, ordered=True, t=0.3)
    assert ordered.distance.tolist() == pytest.approx([dc.emd_ordered(pa, q), dc.emd_ordered(pb, q)])
    nominal = dc.t_closeness(classes, s, ordered=False)
    assert nominal.distance.tolist() == pytest.approx([dc.emd_equal(pa, q), dc.emd_equal(pb, q)])
    assert ordered.largest == pytest.approx(dc.emd_ordered(pa, q))
    assert ordered.at_risk.tolist() == [ordered.distance[0] > 0.3] * 4 + [ordered.distance[1] > 0.3] * 6
    with pytest.raises(DataError, match="between 0 and 1"):
        dc.t_closeness(classes, s, ordered=True, t=3)


def test_t_closeness_equals_the_pairwise_emd_for_many_classes_and_values():
    rng = np.random.default_rng(5)
    qi = rng.integers(0, 40, 3000)
    s = rng.integers(0, 300, 3000) ** 2 % 251  # many values, uneven, some absent from classes
    _, ranks = np.unique(s, return_inverse=True)
    classes = dc.equivalence_classes([qi])
    m = ranks.max() + 1
    q = np.bincount(ranks, minlength=m) / ranks.size
    res = dc.t_closeness(classes, ranks, ordered=True)
    for c in range(classes.n_classes):
        p = np.bincount(ranks[classes.labels == c], minlength=m)
        assert res.distance[c] == pytest.approx(dc.emd_ordered(p / p.sum(), q), abs=1e-12)


def test_generalisation_by_hand():
    codes, labels = dc.bands([17, 18, 29, 30, 64, 65, 90, np.nan], [18, 30, 65])
    assert labels == ["< 18", "18-29", "30-64", "65+"]
    assert codes.tolist() == [0, 1, 1, 2, 2, 3, 3, -1]
    assert dc.band_edges([23, 41], 10).tolist() == [20, 30, 40, 50]
    _, labels = dc.bands([0.5, 1.5], [0, 1, 2])
    assert labels == ["< 0", "[0, 1)", "[1, 2)", "2+"]
    top, changed = dc.top_code([10, 95, 100], 90)
    assert top.tolist() == [10, 90, 90] and changed.tolist() == [False, True, True]
    low, changed = dc.bottom_code([10, 20], 16)
    assert low.tolist() == [16, 20] and changed.tolist() == [True, False]
    dates = np.array(["2024-03-15", "2023-12-31", "NaT"], dtype="datetime64[D]")
    assert dc.truncate_dates(dates, "M").astype(str).tolist() == ["2024-03", "2023-12", "NaT"]
    assert dc.truncate_dates(dates, "Y").astype(str).tolist() == ["2024", "2023", "NaT"]
    merged, rare = dc.merge_rare([0, 0, 0, 1, 2, 2, -1], 2, other=9)
    assert merged.tolist() == [0, 0, 0, 9, 2, 2, -1] and rare.tolist() == [1]
    with pytest.raises(DataError, match="text"):
        dc.bands(["a", "b"], [0, 1])
    with pytest.raises(DataError, match="dates"):
        dc.truncate_dates(np.arange(3), "M")


def test_information_loss_and_entropy():
    assert dc.entropy_bits([0, 1, 0, 1]) == pytest.approx(1.0)
    assert dc.entropy_bits([0, 1, -1, -1]) == pytest.approx(0.5)  # blanks carry nothing
    loss = dc.InformationLoss(5, 20, 1, 10, 4.0, 3.0)
    assert loss.share_cells_changed == 0.25 and loss.share_records_suppressed == 0.1
    assert loss.entropy_loss == pytest.approx(0.25)
