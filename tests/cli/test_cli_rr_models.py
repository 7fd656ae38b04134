"""``dpdesk regress --model multilevel|linear`` and ``dpdesk correlate`` on simulated answers with known effects.

The printed numbers are the Python API's (``rr.logistic(random_intercept=)``, ``rr.linear``,
``rr.correlation``) on the same rows; the true effects are recovered within 4 standard errors
(a 1-in-15,000 miss for a normal estimate, and the seed is fixed).
"""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from scipy.special import expit

from dpdesk.cli import main
from dpdesk.mechanisms import rr
from tests.helpers.cli import run

N, SCHOOLS = 800, 25
FORCED = dict(p_truth=0.7, p_yes=0.15, p_no=0.15)
TRUE = {"age": -0.3, "sd": 0.8, "cheat_effect": 2.0, "x_effect": 0.5, "sigma": 1.0}


def _simulate():
    rng = np.random.default_rng(20261207)
    school = rng.integers(0, SCHOOLS, N)
    u = rng.normal(0, TRUE["sd"], SCHOOLS)
    age = rng.normal(0, 1, N).round(3)
    cheat = rng.random(N) < expit(-0.5 + TRUE["age"] * age + u[school])
    drugs = rng.random(N) < np.where(cheat, 0.6, 0.2)  # goes with cheating: a positive correlation

    def randomize(state):
        draw = rng.random(N)
        return np.where(draw < FORCED["p_truth"], state, draw < FORCED["p_truth"] + FORCED["p_yes"])

    score = 1.0 + TRUE["cheat_effect"] * cheat + TRUE["x_effect"] * age + rng.normal(0, TRUE["sigma"], N)
    rows = []
    for i in range(N):
        rows.append({"id": i + 1, "school": f"S{school[i]:02d}", "age": age[i], "score": round(float(score[i]), 4)})
    cheat_rr, drugs_rr = randomize(cheat), randomize(drugs)
    for i, row in enumerate(rows):
        row["cheat"] = "Yes" if cheat_rr[i] else "No"
        row["drugs"] = "Yes" if drugs_rr[i] else "No"
        row["sld"] = "Yes" if rng.random() < 0.5 else "No"
        row["group"] = 1 + (i % 2)
        row["faculty"] = ("Arts", "Law", "Science")[i % 3]
        row["true_cheat"], row["true_drugs"] = int(cheat[i]), int(drugs[i])  # the truth, to check against
    rows[5]["school"] = ""  # one row without a cluster: left out of the multilevel model and counted
    rows[7]["score"] = ""   # one without an outcome: left out of the linear model
    return rows


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cli_rr_models")
    rows = _simulate()
    data = folder / "sim.csv"
    with open(data, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    path = folder / "sim.dpdesk"
    forced = [a for k, v in FORCED.items() for a in ("--param", f"{k}={v}")]
    for args in (["new", path], ["import", path, data],
                 ["item", path, "cheat", "--design", "forced", *forced, "--column", "cheat", "--codes", "yes=Yes",
                  "--codes", "no=No"],
                 ["item", path, "drugs", "--design", "forced", *forced, "--column", "drugs", "--codes", "yes=Yes",
                  "--codes", "no=No"],
                 ["item", path, "liars", "--design", "sld", "--param", "p1=0.3", "--param", "p2=0.7", "--column",
                  "sld", "--codes", "yes=Yes", "--codes", "no=No", "--group-column", "group", "--group-codes", "1=1",
                  "--group-codes", "2=2"]):
        assert main([str(a) for a in args]) == 0
    return path, rows


def _arrays(rows, keep):
    rows = [r for r in rows if keep(r)]
    yes = lambda key: np.array([r[key] == "Yes" for r in rows], int)  # noqa: E731
    return rows, yes


def _strict(text):
    def refuse(name):
        raise AssertionError(f"{name} in the JSON")
    return json.loads(text, parse_constant=refuse)


def test_multilevel_prints_the_random_intercept_and_equals_the_python_fit(study, capsys):
    path, rows = study
    code, out, err = run(capsys, "regress", path, "cheat", "--model", "multilevel", "--cluster", "school",
                         "--predictors", "age")
    assert code == 0 and err == ""
    assert out.startswith("Multilevel logistic regression of cheat")
    header = next(line for line in out.splitlines() if line.startswith("Term"))
    assert header.split() == ["Term", "b", "SE", "z", "p", "OR", "95%", "CI", "(OR)"]  # Wald only, no LR columns
    assert "Random intercept (school): SD " in out and f"{SCHOOLS} clusters" in out
    assert "marginal log-likelihood (Laplace approximation) = " in out
    assert f"{N - 1:,} of {N:,} rows were used; 1 no value of school." in out

    code, out, _ = run(capsys, "regress", path, "cheat", "--model", "multilevel", "--cluster", "school",
                       "--predictors", "age", "--json")
    record = _strict(out)["fit"]
    used, yes = _arrays(rows, lambda r: r["school"] != "")
    X = np.column_stack([np.ones(len(used)), [float(r["age"]) for r in used]])
    fit = rr.logistic(rr.design("forced", **FORCED), yes("cheat"), X, names=["(Intercept)", "age"],
                      random_intercept=[r["school"] for r in used])
    got = {c["term"]: c for c in record["coefficients"]}
    for c in fit.coefficients:
        assert got[c.name]["b"] == pytest.approx(c.estimate, rel=1e-9)
        assert got[c.name]["se"] == pytest.approx(c.se, rel=1e-9)
    assert record["random_sd"]["estimate"] == pytest.approx(fit.random_sd[0], rel=1e-9)
    assert record["n_clusters"] == SCHOOLS and record["loglik"] == pytest.approx(fit.loglik, rel=1e-12)
    age = fit.coefficient("age")
    assert abs(age.estimate - TRUE["age"]) < 4 * age.se
    assert abs(fit.random_sd[0] - TRUE["sd"]) < 4 * fit.random_sd[1]


def test_multilevel_quadrature_points_reach_the_fit(study, capsys):
    path, _ = study
    code, out, _ = run(capsys, "regress", path, "cheat", "--model", "multilevel", "--cluster", "school",
                       "--predictors", "age", "--nagq", "5")
    assert code == 0 and "adaptive Gauss-Hermite quadrature, 5 points" in out


def test_linear_prints_sigma_and_prevalence_and_equals_the_python_fit(study, capsys):
    path, rows = study
    code, out, err = run(capsys, "regress", path, "--model", "linear", "--outcome", "score", "--rr", "cheat",
                         "--predictors", "age")
    assert code == 0 and err == ""
    assert out.startswith("Linear regression of score on randomized-response items")
    assert "Residual SD sigma = " in out and "Prevalence of cheat: " in out and "%" in out
    assert f"{N - 1:,} of {N:,} rows were used; 1 no value of score." in out

    code, out, _ = run(capsys, "regress", path, "--model", "linear", "--outcome", "score", "--rr", "cheat",
                       "--predictors", "age", "--json")
    record = _strict(out)
    used, yes = _arrays(rows, lambda r: r["score"] != "")
    X = np.column_stack([np.ones(len(used)), [float(r["age"]) for r in used]])
    fit = rr.linear([float(r["score"]) for r in used], X, {"cheat": (rr.design("forced", **FORCED), yes("cheat"))},
                    names=["(Intercept)", "age"])
    got = {c["term"]: c for c in record["coefficients"]}
    assert list(got) == ["(Intercept)", "age", "cheat"]
    for c in fit.coefficients:
        assert got[c.name]["b"] == pytest.approx(c.estimate, rel=1e-7)
        assert got[c.name]["se"] == pytest.approx(c.se, rel=1e-5)
    assert record["sigma"]["estimate"] == pytest.approx(fit.sigma, rel=1e-7)
    assert record["prevalence"]["cheat"]["estimate"] == pytest.approx(fit.prevalence["cheat"][0], rel=1e-7)
    effect = fit.coefficient("cheat")
    assert abs(effect.estimate - TRUE["cheat_effect"]) < 4 * effect.se
    assert abs(fit.coefficient("age").estimate - TRUE["x_effect"]) < 4 * fit.coefficient("age").se


def test_correlate_prints_the_tables_and_equals_the_python_result(study, capsys):
    path, rows = study
    code, out, err = run(capsys, "correlate", path, "cheat", "drugs", "age", "--bootstrap", "50", "--seed", "7")
    assert code == 0 and err == ""
    assert "Variables: cheat (rr item), drugs (rr item), age (column)" in out
    for title in ("r ", "SE ", "p "):
        assert any(line.startswith(title) and line.split()[1:] == ["cheat", "drugs", "age"]
                   for line in out.splitlines())
    assert "50 bootstrap resamples (seed 7)" in out

    code, out, _ = run(capsys, "correlate", path, "cheat", "drugs", "age", "--bootstrap", "50", "--seed", "7",
                       "--json")
    record = _strict(out)  # the diagonal's SE and p are null, never NaN
    assert record["se"][0][0] is None and record["p_value"][1][1] is None
    _, yes = _arrays(rows, lambda r: True)
    design = rr.design("forced", **FORCED)
    ages = np.array([float(r["age"]) for r in rows])
    res = rr.correlation({"cheat": (design, yes("cheat")), "drugs": (design, yes("drugs")), "age": ages},
                         bootstrap=50, rng=7)
    assert np.allclose(np.array(record["r"], float), res.r, rtol=1e-12)
    assert np.allclose(np.array(record["se"], float), res.se, rtol=1e-12, equal_nan=True)
    # the correlation of the true states (P(drugs | cheat) 0.6 against 0.2) is recovered from the randomized answers
    truth = np.corrcoef([r["true_cheat"] for r in rows], [r["true_drugs"] for r in rows])[0, 1]
    assert truth > 0.3 and abs(record["r"][0][1] - truth) < 4 * record["se"][0][1]


@pytest.mark.parametrize("command, args, message", [
    ("regress", ["cheat", "--model", "multilevel", "--predictors", "age"], "needs the column of clusters"),
    ("regress", ["cheat", "--model", "multilevel", "--cluster", "schol", "--predictors", "age"],
     "no column 'schol' to use as the cluster"),
    ("regress", ["liars", "--model", "multilevel", "--cluster", "school", "--predictors", "age"],
     "a multilevel model needs a one-group yes/no design"),
    ("regress", ["cheat", "--model", "multilevel", "--cluster", "school", "--predictors", "age", "--nagq", "40"],
     "--nagq 40 must be a whole number from 1"),
    ("regress", ["cheat", "--cluster", "school", "--predictors", "age"], "--cluster belongs to --model multilevel"),
    ("regress", ["--model", "linear", "--outcome", "faculty", "--rr", "cheat"],
     "Column 'faculty' is not numeric (it has values such as 'Arts')"),
    ("regress", ["--model", "linear", "--outcome", "scor", "--rr", "cheat"], "no column 'scor'"),
    ("regress", ["--model", "linear", "--outcome", "score", "--rr", "nothing"], "no item 'nothing'"),
    ("regress", ["--model", "linear", "--rr", "cheat"], "needs the numeric column to explain: --outcome"),
    ("regress", ["cheat", "--model", "linear", "--outcome", "score"], "with --rr cheat"),
    ("correlate", ["cheat", "nothing"], "'nothing' is neither an item of the project"),
    ("correlate", ["cheat", "faculty"], "Column 'faculty' is not numeric"),
    ("correlate", ["cheat"], "at least two"),
    ("correlate", ["cheat", "age", "--bootstrap", "-1"], "--bootstrap -1 must be 0"),
    ("correlate", ["cheat", "age", "--bootstrap", "1000000000"], "a number of resamples up to 100,000"),
    ("correlate", ["cheat", "age", "--seed", "-1"], "--seed -1: give a whole number of at least 0"),
])
def test_errors_are_one_line(study, capsys, command, args, message):
    code, out, err = run(capsys, command, study[0], *args)
    assert code == 1 and out == ""
    assert err.startswith(f"dpdesk {command}: ") and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """The project the guide's pages build: ``dpdesk demo demo`` (its items carry their question text)."""
    folder = tmp_path_factory.mktemp("cli_rr_example") / "demo"
    assert main(["demo", str(folder)]) == 0
    return folder / "example.dpdesk"


@pytest.mark.parametrize("page, first_line, args", [
    ("multilevel.md", "Multilevel logistic regression of ", ["regress", "exam_cheating", "--model", "multilevel",
                                                             "--cluster", "faculty", "--predictors", "age",
                                                             "exam_stress"]),
    ("linear-rr-predictors.md", "Linear regression of ", ["regress", "--model", "linear", "--outcome", "exam_stress",
                                                           "--rr", "exam_cheating", "--predictors", "age"]),
    ("correlations.md", "Correlations corrected ", ["correlate", "exam_cheating", "exam_stress", "age"]),
])
def test_the_guide_shows_what_the_commands_print(example, capsys, page, first_line, args):
    """The guide's worked examples (a page per model) are the real output on the bundled study."""
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "guide" / page).read_text(encoding="utf-8")
    shown = ("```\n" + first_line + guide.split("```\n" + first_line, 1)[1].split("```", 1)[0])[4:].strip()
    code, out, _ = run(capsys, args[0], example, *args[1:])
    assert code == 0
    assert out.strip() == shown


def test_a_bootstrap_p_value_of_zero_is_printed_as_below_its_resolution():
    """With no resample across 0 the p-value is 0 in the arithmetic, but only < 2/B is known."""
    from dpdesk.project.regression.rr_text import _bootstrap_p

    assert _bootstrap_p(0.0, 20) == "< .100" and _bootstrap_p(0.0, 1000) == "< .002"
    assert _bootstrap_p(0.0, 5000) == "< .001" and _bootstrap_p(0.014, 1000) == ".014"


def test_multilevel_with_the_intercept_alone_needs_no_predictors(study, capsys):
    """``y ~ 1 + (1|school)``: no --predictors for --model multilevel; the numbers are the API's."""
    path, rows = study
    code, out, err = run(capsys, "regress", path, "cheat", "--model", "multilevel", "--cluster", "school",
                         "--no-save")
    assert code == 0 and err == ""
    assert "Predictors: none (the intercept alone)" in out and "Random intercept (school): SD " in out
    code, out, _ = run(capsys, "regress", path, "cheat", "--model", "multilevel", "--cluster", "school",
                       "--no-save", "--json")
    record = _strict(out)["fit"]
    used, yes = _arrays(rows, lambda r: r["school"] != "")
    fit = rr.logistic(rr.design("forced", **FORCED), yes("cheat"), np.ones((len(used), 1)), names=["(Intercept)"],
                      random_intercept=[r["school"] for r in used])
    (c,) = record["coefficients"]
    assert c["term"] == "(Intercept)" and c["b"] == pytest.approx(fit.coefficients[0].estimate, rel=1e-9)
    assert record["random_sd"]["estimate"] == pytest.approx(fit.random_sd[0], rel=1e-9)
    # saved, it reaches the report's methods in words
    code, _, _ = run(capsys, "regress", path, "cheat", "--model", "multilevel", "--cluster", "school")
    html = path.with_name("intercept_only.html")
    code, _, _ = run(capsys, "report", path, html)
    assert code == 0 and "25 clusters), with the intercept alone (no predictors), as RRreg" in html.read_text()
    # a plain logistic model still needs its predictors
    code, _, err = run(capsys, "regress", path, "cheat")
    assert code != 0 and "Give the predictors: --predictors" in err
