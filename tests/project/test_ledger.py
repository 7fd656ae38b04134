"""The privacy budget and the release ledger: budgets, releases, replays, refusals, tampering."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import BudgetError, DataError
from dpdesk.mechanisms import accounting
from dpdesk.project import Project, ledger
from dpdesk.project.ledger.text import delta_text, epsilon_text, number_text
from dpdesk.mechanisms.central.request import RequestError, normalize
from dpdesk.mechanisms.central.spec import release_spec

SHA = "ab" * 32
KEYS = ["north", "south", "east"]
HIST = {"statistic": "histogram", "columns": ["region"], "keys": KEYS, "epsilon": "0.1"}


def frame(n=300, seed=7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "region": pd.Categorical(rng.choice(KEYS, n)),
        "age": rng.integers(18, 90, n),
        "income": rng.normal(3000, 800, n).round(2),
        "group": rng.choice([1, 2], n),
    })


@pytest.fixture
def project(tmp_path):
    p = Project.create(tmp_path / "dp.dpdesk")
    p.add_dataset("wave 1", frame(), source={"name": "w1.csv", "sha256": SHA, "size": 10})
    yield p
    p.close()


def spent(p) -> Fraction:
    return ledger.budget_status(p).spent_epsilon


# ---------------------------------------------------------------- budgets


def test_no_budget_means_no_release_and_no_status(project):
    assert ledger.budget_status(project) is None
    with pytest.raises(BudgetError, match="No privacy budget is set.*--set"):
        ledger.release(project, HIST)
    assert project.ledger_rows() == []


def test_budget_lowered_never_raised_and_set_only_once(project):
    s = ledger.set_budget(project, 2, "1e-6")
    assert (s.total_epsilon, s.total_delta) == (2, Fraction(1, 10**6)) and s.total_text == "ε = 2, δ = 10⁻⁶"
    assert ledger.set_budget(project, 2, "1e-6").total_epsilon == 2  # the same again: nothing changes
    with pytest.raises(BudgetError, match="set once.*lowered"):
        ledger.set_budget(project, 1)
    assert ledger.lower_budget(project, "1.5").total_epsilon == Fraction(3, 2)  # delta kept
    assert ledger.budget_status(project).total_delta == Fraction(1, 10**6)
    with pytest.raises(BudgetError, match="lowered, never raised.*ε = 1.5"):
        ledger.lower_budget(project, 1.6)
    with pytest.raises(BudgetError, match="never raised"):
        ledger.lower_budget(project, 1, delta="1e-5")
    assert [r["epsilon"] for r in project.budget_rows()] == ["2", "3/2"]


def test_reimport_of_the_same_data_keeps_the_budget_and_its_spending(project):
    ledger.set_budget(project, 1)
    ledger.release(project, HIST)
    project.add_dataset("wave 1 again", frame(), source={"name": "copy.csv", "sha256": SHA, "size": 10})
    s = ledger.budget_status(project)  # the latest import
    assert s.dataset == "wave 1 again" and s.spent_epsilon == Fraction(1, 10) and s.releases == 1
    with pytest.raises(BudgetError, match="already has a privacy budget"):
        ledger.set_budget(project, 5)
    again = ledger.release(project, HIST)  # same data, same request: the stored release, free
    assert again.replayed and ledger.budget_status(project).spent_epsilon == Fraction(1, 10)


def test_data_without_a_file_is_keyed_by_its_rows(project):
    project.add_dataset("pasted", frame(50, seed=1))
    project.add_dataset("pasted again", frame(50, seed=1))
    project.add_dataset("other", frame(50, seed=2))
    shas = [ledger.dataset_sha256(project, d) for d in project.datasets()[1:]]
    assert shas[0] == shas[1] != shas[2] and len(shas[0]) == 64


def test_one_budget_covers_every_dataset_of_the_project(project):
    """Issue 13: the budget follows the respondents, not the file's bytes."""
    ledger.set_budget(project, 1)
    ledger.release(project, dict(HIST, epsilon="0.6"))
    # the same respondents again, in a file that differs by a trailing blank line
    project.add_dataset("wave 1 (corrected)", frame(), source={"name": "w1.csv", "sha256": "cd" * 32, "size": 11})
    status = ledger.budget_status(project)
    assert status.dataset == "wave 1 (corrected)" and status.spent_epsilon == Fraction(3, 5)
    assert ledger.set_budget(project, 1, dataset="wave 1 (corrected)").spent_epsilon == Fraction(3, 5)  # no reset
    with pytest.raises(BudgetError, match="already has a privacy budget"):
        ledger.set_budget(project, 2)
    with pytest.raises(ledger.BudgetExceeded, match="0.4"):
        ledger.release(project, dict(HIST, epsilon="0.6"))
    ledger.release(project, dict(HIST, epsilon="0.4"))
    project.add_dataset("a subset", frame().head(100))
    project.remove_dataset("wave 1")
    project.remove_dataset("wave 1 (corrected)")
    assert ledger.budget_status(project).remaining_epsilon == 0  # removing data gives nothing back
    with pytest.raises(ledger.BudgetExceeded):
        ledger.release(project, dict(HIST, epsilon="0.01"))


def test_a_budget_can_be_set_before_any_data(tmp_path):
    with Project.create(tmp_path / "empty.dpdesk") as p:
        status = ledger.set_budget(p, 2, "1e-6")
        assert status.total_epsilon == 2 and status.dataset == "" and status.releases == 0


def test_budget_text_never_rounds_in_the_users_favour():
    third = Fraction(1, 3)
    assert number_text(third, up=True) == "0.333334" and number_text(third, up=False) == "0.333333"
    assert number_text(Fraction(3, 10), up=True) == "0.3"  # exact values are shown exactly
    assert epsilon_text(Fraction(1), Fraction(1, 10**6)) == "ε = 1, δ = 10⁻⁶"
    # an accountant's epsilon at a delta: three significant digits, spent rounded up and left rounded down
    assert epsilon_text(Fraction("0.1999985"), Fraction(1, 10**6), up=True) == "ε = 0.2, δ = 10⁻⁶"
    assert epsilon_text(Fraction("2.8000015"), up=False) == "ε = 2.8"
    assert epsilon_text(Fraction("0.0499999"), up=False) == "ε = 0.0499"  # never "0.05" left
    assert epsilon_text(Fraction("0.2000001"), up=True) == "ε = 0.201"  # never "0.2" spent
    assert delta_text(Fraction("2.5e-7")) == "2.5 × 10⁻⁷" and delta_text(Fraction("1.01e-6")) == "1.1 × 10⁻⁶"


# ---------------------------------------------------------------- releases


def test_ten_releases_at_a_tenth_spend_exactly_one_then_refuse(project):
    ledger.set_budget(project, 1)
    for k in range(10):
        e = ledger.release(project, dict(HIST, keys=KEYS[: 1 + k % 3], confidence=0.9 + k / 1000))
        assert e.epsilon == Fraction(1, 10) and not e.replayed
    s = ledger.budget_status(project)
    assert s.spent_epsilon == 1 and s.remaining_epsilon == 0 and s.remaining_text == "ε = 0"
    rows = len(project.ledger_rows())
    with pytest.raises(ledger.BudgetExceeded) as err:
        ledger.release(project, {"statistic": "count", "epsilon": "0.01"})
    msg = str(err.value)
    assert "no noise was drawn" in msg and "costing ε = 0.01" in msg and "spent: ε = 1" in msg
    assert "remaining: ε = 0" in msg
    assert len(project.ledger_rows()) == rows and spent(project) == 1  # refused: nothing written


def test_release_records_everything_and_replay_is_free(project):
    ledger.set_budget(project, 1)
    e = ledger.release(project, HIST)
    assert e.seq == 1 and e.mechanism == "discrete_laplace" and e.dataset == "wave 1"
    assert e.request == normalize(HIST) and e.cost["epsilon"] == "1/10" and e.cost["delta"] == "0"
    assert e.noise_params["events"] == [{"type": "laplace", "scale": "10", "sensitivity": "1",
                                             "discrete": True}]
    assert e.result["keys"] == [KEYS] and len(e.values) == 3 and all(float(v).is_integer() for v in e.values)
    assert e.half_width == e.result["half_width"]["simultaneous"] > e.result["half_width"]["per_cell"] > 0
    assert e.app_version and e.time.endswith("Z") and len(e.hash) == 64
    # asked again, written differently (numbers as text, one column as a string): the same entry
    again = ledger.release(project, {"statistic": "histogram", "column": "region", "keys": KEYS, "epsilon": 0.1})
    assert again.replayed and again.values == e.values and again.seq == e.seq
    assert spent(project) == Fraction(1, 10) and len(ledger.ledger(project)) == 1


def test_statistics_of_each_kind(project):
    ledger.set_budget(project, 10, "1e-6")
    f = frame()
    cases = [
        ({"statistic": "count", "scale": 1000, "confidence": "0.999999999"}, len(f), 1),
        ({"statistic": "count", "by": "group", "by_keys": ["1", "2"], "scale": 1000}, None, 2),
        ({"statistic": "histogram", "columns": ["age"], "bins": [18, 50, 90], "scale": 1000}, None, 2),
        ({"statistic": "crosstab", "columns": ["region", "age"], "keys": [KEYS, None],
          "bins": [None, [18, 40, 90]], "accuracy": 200}, None, 6),
        ({"statistic": "sum", "columns": ["income"], "bounds": [0, 10000], "resolution": 0.01, "epsilon": 0.5}, None, 1),
        ({"statistic": "mean", "columns": ["age"], "bounds": [18, 90], "epsilon": 1}, None, 1),
        ({"statistic": "median", "columns": ["age"], "bounds": [0, 100], "epsilon": 1}, None, 1),
        ({"statistic": "count", "mechanism": "gaussian", "epsilon": 0.5, "confidence": "0.999999999"}, len(f), 1),
    ]
    for req, exact, cells in cases:
        e = ledger.release(project, req)
        values = np.asarray(e.values, dtype=float)
        assert values.size == cells, req
        if exact is not None:  # within the half-width at confidence 1 - 1e-9 (fails once in 10^9 runs)
            assert abs(values.item() - exact) <= e.half_width, req
    entries = ledger.ledger(project)
    by_stat = {x.statistic: x for x in entries}
    assert 0 <= by_stat["median"].values <= 100 and 18 <= by_stat["mean"].values <= 90
    assert by_stat["crosstab"].half_width <= 200  # the accuracy target was met
    assert entries[-1].mechanism == "discrete_gaussian" and "rho" in entries[-1].cost
    # delta budget: spending is the PLD composition of every event, below the plain sum
    events = [accounting.from_record(d) for x in entries for d in x.noise_params["events"]]
    s = ledger.budget_status(project)
    assert s.spent_epsilon == accounting.epsilon(events, Fraction(1, 10**6))
    assert s.spent_epsilon <= sum(x.epsilon for x in entries)


def test_gaussian_releases_compose_by_pld(project):
    ledger.set_budget(project, 3, "1e-6")
    costs = []
    for k in range(6):
        e = ledger.release(project, {"statistic": "count", "mechanism": "gaussian", "epsilon": 0.5,
                                     "confidence": f"0.9{k}"})
        costs.append(e.epsilon)
        assert e.epsilon <= Fraction(1, 2)
    s = ledger.budget_status(project)
    # six at 0.5 each would be 3 by plain summation; composed they cost much less
    assert s.spent_epsilon < Fraction(3, 2) and s.remaining_epsilon > Fraction(3, 2)
    with pytest.raises(RequestError, match="no pure-epsilon"):
        release_spec({"statistic": "count", "mechanism": "gaussian", "epsilon": 0.5}, delta=0)


def test_keys_match_the_column_type_and_bad_requests_say_what_to_fix(project):
    ledger.set_budget(project, 5)
    e = ledger.release(project, {"statistic": "histogram", "columns": ["group"], "keys": ["1", "2", "3"],
                                 "scale": 1000})
    assert e.result["keys"] == [[1, 2, 3]]
    with pytest.raises(DataError, match="no column 'nope'"):
        ledger.release(project, {"statistic": "histogram", "columns": ["nope"], "keys": ["a"], "epsilon": 1})
    with pytest.raises(DataError, match="holds numbers .codes.. Type the codes"):
        ledger.release(project, {"statistic": "histogram", "columns": ["age"], "keys": ["old"], "epsilon": 1})
    for bad, msg in [({"statistic": "total", "epsilon": 1}, "statistic must be"),
                     ({"statistic": "count"}, "exactly one of epsilon"),
                     ({"statistic": "sum", "columns": ["age"], "epsilon": 1}, "bounds"),
                     ({"statistic": "histogram", "columns": ["age"], "epsilon": 1}, "keys.*or bins"),
                     ({"statistic": "count", "epsilon": 1, "by": "group"}, "by_keys"),
                     ({"statistic": "count", "epsilon": 1, "colour": 1}, "Unknown field")]:
        with pytest.raises(RequestError, match=msg):
            ledger.release(project, bad)
    assert spent(project) == Fraction(1, 1000)


def test_counts_tables_are_refused(project):
    project.add_dataset("counts", frame(10), source={"sha256": "ef" * 32}, options={"kind": "counts"})
    ledger.set_budget(project, 1)
    with pytest.raises(BudgetError, match="counts table"):
        ledger.release(project, {"statistic": "count", "epsilon": 0.1}, dataset="counts")


def test_cancelled_release_spends_nothing(project):
    ledger.set_budget(project, 1)

    def cancel(stage):
        if stage == "noised":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ledger.release(project, HIST, progress=cancel)
    assert project.ledger_rows() == [] and spent(project) == 0
    stages = []
    ledger.release(project, HIST, progress=stages.append)
    assert stages == ["verified", "checked", "noised", "recorded", "committed"]


# ---------------------------------------------------------------- preview and plan


def test_preview_draws_no_noise_and_reads_no_data(project, monkeypatch):
    ledger.set_budget(project, 1)
    from dpdesk.mechanisms.central import noise

    def forbidden(*a, **k):
        raise AssertionError("noise drawn")

    monkeypatch.setattr(noise, "_draw", forbidden)
    monkeypatch.setattr(Project, "dataset_frame", forbidden)
    p = ledger.preview(project, dict(HIST, epsilon=0.25))
    assert p.fits and p.cost_epsilon == Fraction(1, 4) and p.remaining_after == Fraction(3, 4)
    assert p.half_width["per_cell"] < p.half_width["simultaneous"] and p.half_width["cells"] == 3
    assert p.remaining_after_text == "ε = 0.75"
    big = ledger.preview(project, dict(HIST, epsilon=2))
    assert not big.fits and "refused" in big.message
    target = ledger.preview(project, dict(HIST, epsilon=None, accuracy=25, confidence=0.9))
    assert target.half_width["simultaneous"] <= 25
    assert project.ledger_rows() == []


def test_plan_splits_the_remaining_budget(project):
    ledger.set_budget(project, 1)
    ledger.release(project, HIST)
    reqs = [dict(HIST, keys=KEYS[:2]), {"statistic": "mean", "columns": ["age"], "bounds": [18, 90], "epsilon": 1},
            {"statistic": "sum", "columns": ["income"], "bounds": [0, 5000], "epsilon": 1}]
    planned = ledger.plan(project, reqs, [1, 2, 6])
    assert [Fraction(p["epsilon"]) for p in planned] == [Fraction(1, 10), Fraction(2, 10), Fraction(6, 10)]
    for p in planned:
        ledger.release(project, p)
    assert spent(project) == 1


def test_plan_with_delta_fits_after_earlier_releases(tmp_path):
    with Project.create(tmp_path / "d.dpdesk") as p:
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, 1, "1e-6")
        ledger.release(p, dict(HIST, epsilon=0.2))
        reqs = [{"statistic": "count", "epsilon": 1, "confidence": f"0.9{k:02d}"} for k in range(20)]
        planned = ledger.plan(p, reqs)
        scales = {Fraction(x["scale"]) for x in planned}
        assert len(scales) == 1 and 20 / scales.pop() > Fraction(8, 10)  # far better than splitting 0.8 evenly
        for x in planned:
            ledger.release(p, x)
        s = ledger.budget_status(p)
        assert s.spent_epsilon <= 1 and s.releases == 21


# ---------------------------------------------------------------- tampering


def _edit(path, *sql):
    """An edit with sqlite3 that puts dpdesk's triggers back (else the schema check refuses the file)."""
    from tests.helpers.hostile import edit_outside

    edit_outside(path, *sql)


def test_an_edited_ledger_is_found_and_stops_releases(tmp_path):
    path = tmp_path / "t.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, 1)
        ledger.release(p, HIST)
        ledger.release(p, {"statistic": "count", "epsilon": 0.1})
        assert ledger.verify_ledger(p).ok and ledger.verify_ledger(p).releases == 2
    _edit(path, "DROP TRIGGER releases_no_update",
          """UPDATE releases SET result = replace(result, '"noisy":', '"noisy":1') WHERE seq = 1""",
          "CREATE TRIGGER releases_no_update BEFORE UPDATE ON releases BEGIN SELECT RAISE(ABORT, 'x'); END")
    with Project.open(path) as p:
        assert not ledger.verify_ledger(p).ok and not p.ledger_check.ok  # found before any release
        check = ledger.verify_ledger(p)
        assert not check.ok and any("release #1 was changed" in x for x in check.problems)
        for request in (HIST, {"statistic": "count", "epsilon": 0.01}):  # neither a replay nor a new one
            with pytest.raises(ledger.LedgerTamperedError, match="edited outside dpdesk.*no more releases"):
                ledger.release(p, request)
        assert not ledger.budget_status(p).ledger_intact and len(ledger.ledger(p)) == 2
        assert not ledger.preview(p, {"statistic": "count", "epsilon": 0.01}).fits


@pytest.mark.parametrize("sql, problem", [
    (("DROP TRIGGER releases_no_delete", "DELETE FROM releases WHERE seq = 2"), "does not match the recorded head"),
    (("DROP TRIGGER releases_no_delete", "DELETE FROM releases WHERE seq = 1"), "does not follow"),
    (("DROP TRIGGER budget_no_update", "UPDATE budget SET epsilon = '5'"), "budget in force"),
    (("DROP TRIGGER budget_never_raised", "INSERT INTO budget(epsilon, delta, dataset_sha256) VALUES ('9', '0', '"
      + SHA + "')"), "raises the budget"),
])
def test_deleted_releases_and_raised_budgets_are_found(tmp_path, sql, problem):
    path = tmp_path / "t.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("d", frame(100), source={"sha256": SHA})
        ledger.set_budget(p, 1)
        ledger.release(p, HIST)
        ledger.release(p, {"statistic": "count", "epsilon": 0.1})
    _edit(path, *sql)
    with Project.open(path) as p:
        problems = ledger.verify_ledger(p).problems
        assert any(problem in x for x in problems), problems
        with pytest.raises(ledger.LedgerTamperedError):
            ledger.release(p, {"statistic": "count", "epsilon": 0.01})


def test_declared_missing_codes_are_missing_in_sums_and_means(tmp_path):
    """SPSS user-missing 99 (refused) is never an age of 99 in a released mean."""
    with Project.create(tmp_path / "m.dpdesk") as p:
        f = pd.DataFrame({"age": [20.0] * 50 + [99.0] * 50})
        p.add_dataset("spss", f, source={"sha256": "99" * 32}, report={"missing_values": {"age": [99.0]}})
        ledger.set_budget(p, 10)
        e = ledger.release(p, {"statistic": "sum", "columns": ["age"], "bounds": [0, 100], "resolution": 1,
                               "epsilon": 5, "confidence": "0.999999999"})
        assert abs(e.values - 1000) <= e.half_width  # 50 x 20; the 99s would add 4950
