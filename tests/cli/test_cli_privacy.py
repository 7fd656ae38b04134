"""The command line of noisy tabulation: budget, release, ledger."""

import json

import numpy as np
import pandas as pd
import pytest

from tests.helpers.cli import run
from tests.helpers.hostile import edit_outside
from dpdesk.project import Project




@pytest.fixture
def project(tmp_path):
    path = tmp_path / "survey.dpdesk"
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"region": pd.Categorical(rng.choice(["north", "south"], 200)),
                          "age": rng.integers(18, 90, 200), "gender": rng.choice(["f", "m"], 200)})
    with Project.create(path) as p:
        p.add_dataset("wave 1", frame, source={"name": "w1.csv", "sha256": "c" * 64, "size": 1})
    return path


def test_budget_set_show_lower_and_raise_refused(project, capsys):
    code, out, _ = run(capsys, "budget", project)
    assert code == 0 and "No privacy budget" in out
    code, out, _ = run(capsys, "budget", project, "--set", "1", "--delta", "1e-6")
    assert code == 0 and "total  ε = 1, δ = 10⁻⁶" in out and "left   ε = 1" in out
    code, out, _ = run(capsys, "budget", project, "--set", "0.5")
    assert code == 0 and "total  ε = 0.5, δ = 10⁻⁶" in out
    code, _, err = run(capsys, "budget", project, "--set", "2")
    assert code == 1 and "never raised" in err and err.count("\n") == 1
    code, out, _ = run(capsys, "budget", project, "--json")
    assert code == 0 and json.loads(out)["total_epsilon"] == "1/2"


def test_release_prints_the_result_its_half_width_and_cost(project, capsys):
    run(capsys, "budget", project, "--set", "1")
    code, out, _ = run(capsys, "release", project, "--stat", "histogram", "--columns", "region",
                       "--keys", "north", "south", "--epsilon", "0.1")
    assert code == 0
    assert "histogram of region" in out and "north" in out and "+- " in out and "probability 95%" in out
    assert "Cost: ε = 0.1 (discrete laplace noise)" in out and "spent ε = 0.1 of ε = 1; left ε = 0.9" in out
    code, out, _ = run(capsys, "release", project, "--stat", "histogram", "--columns", "region",
                       "--keys", "north", "south", "--epsilon", "0.1")
    assert code == 0 and "at no cost" in out and "left ε = 0.9" in out
    code, out, _ = run(capsys, "release", project, "--stat", "crosstab", "--columns", "gender", "age",
                       "--keys", "f", "m", "--bins", "18", "40", "90", "--accuracy", "60", "--json")
    entry = json.loads(out)
    assert code == 0 and entry["result"]["keys"] == [["f", "m"], ["[18, 40)", "[40, 90]"]]
    assert entry["result"]["half_width"]["simultaneous"] <= 60
    code, out, _ = run(capsys, "release", project, "--stat", "mean", "--columns", "age", "--bounds", "18", "90",
                       "--by", "gender", "--by-keys", "f", "m", "--epsilon", "0.2")
    assert code == 0 and "mean of age in [18, 90] by gender" in out
    code, out, _ = run(capsys, "release", project, "--stat", "median", "--columns", "age", "--bounds", "0", "100",
                       "--epsilon", "0.1", "--preview")
    assert code == 0 and "Preview (no noise drawn): costs ε = 0.1" in out


def test_refused_release_exits_non_zero_and_spends_nothing(project, capsys):
    run(capsys, "budget", project, "--set", "0.5")
    code, out, err = run(capsys, "release", project, "--stat", "count", "--epsilon", "0.6")
    assert code == 1 and out == ""
    assert "refused" in err and "costing ε = 0.6" in err and "remaining: ε = 0.5" in err
    code, out, _ = run(capsys, "release", project, "--stat", "count", "--epsilon", "0.6", "--preview")
    assert code == 1 and "refused" in out
    code, out, _ = run(capsys, "budget", project)
    assert "spent  ε = 0 in 0 release(s)" in out
    code, _, err = run(capsys, "release", project, "--stat", "sum", "--columns", "age", "--epsilon", "0.1")
    assert code == 1 and "bounds" in err


def test_ledger_lists_releases_and_says_when_edited(project, capsys):
    code, out, _ = run(capsys, "ledger", project)
    assert code == 0 and "No releases yet" in out
    run(capsys, "budget", project, "--set", "1")
    run(capsys, "release", project, "--stat", "count", "--epsilon", "0.1")
    run(capsys, "release", project, "--stat", "count", "--by", "region", "--by-keys", "north", "south",
        "--epsilon", "0.1")
    code, out, _ = run(capsys, "ledger", project)
    assert code == 0 and "#1" in out and "#2  " in out and "count by region" in out and "ε = 0.1  ->" in out
    assert "Ledger intact: 2 release(s)" in out
    code, out, _ = run(capsys, "ledger", project, "--json")
    assert json.loads(out)["intact"] and len(json.loads(out)["releases"]) == 2
    edit_outside(project, "DROP TRIGGER releases_no_update",  # (edit_outside puts the trigger back)
                 "UPDATE releases SET cost = replace(cost, '1/10', '1/1000') WHERE seq = 2")
    code, out, _ = run(capsys, "ledger", project)
    assert code == 1 and "WARNING" in out and "edited outside dpdesk" in out
    code, _, err = run(capsys, "release", project, "--stat", "count", "--epsilon", "0.01")
    assert code == 1 and "no more releases" in err
    code, out, _ = run(capsys, "budget", project)
    assert "WARNING" in out
