"""A whole study in one project: three items (two yes/no, one with three answers), subgroups,
a saved regression and two noisy releases (a cross-tab and a mean) -- the report's test case.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd

from dpdesk.mechanisms import rr

FORCED = rr.design("forced", p_truth=0.75, p_yes=1 / 6, p_no=1 / 12)
CROSSWISE = rr.design("crosswise", p=0.25)
MULTI = rr.design("forced_multi", p_truth=0.7, p_forced=[0.1, 0.1, 0.1], categories=["never", "once", "often"])
BY = "gender"


def make_study(path: str | Path, *, seed: int = 5) -> Path:
    """Create the study project at ``path`` (fixed seed) and return its path."""
    from dpdesk.project import Project, ledger
    from dpdesk.project.regression.report import RegressionSpec, fit_report, save_report

    rng = np.random.default_rng(seed)
    n = 900
    age = rng.integers(17, 41, n)
    faculty = rng.choice(["Arts", "Law", "Science"], n)
    truth = rng.random(n) < 1 / (1 + np.exp(-(-1.0 - 0.08 * (age - 25))))
    forced = np.where(rng.random(n) < 0.75, truth, rng.random(n) < 2 / 3)
    frame = pd.DataFrame({
        "cheat": np.where(forced, "Yes", "No"),
        "plag": rng.choice(["same", "different"], n, p=[0.35, 0.65]),
        "late": rng.choice(["never", "once", "often"], n, p=[0.5, 0.3, 0.2]),
        "gender": rng.choice(["female", "male"], n),
        "faculty": faculty,
        "age": age,
    })
    for column in ("gender", "faculty"):  # as the importer keeps them: categories, offered for subgroups
        frame[column] = frame[column].astype("category")
    path = Path(path)
    with Project.create(path) as p:
        sha = hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()
        p.add_dataset("survey", frame, source={"name": "survey.csv", "sha256": sha})
        p.add_item("cheating", FORCED, column="cheat", codes={"no": ["No"], "yes": ["Yes"]},
                   question="In the last year, have you cheated in an exam?", instructions="Roll a die.")
        p.add_item("plagiarism", CROSSWISE, column="plag", codes={"no": ["different"], "yes": ["same"]},
                   question="Have you handed in copied work?")
        p.add_item("lateness", MULTI, column="late", codes={c: [c] for c in MULTI.categories},
                   question="How often did you hand in work late?")
        save_report(p, fit_report(p, RegressionSpec("cheating", ["age", "faculty"], {"faculty": "Arts"})))
        ledger.set_budget(p, 4, "1e-6")
        ledger.release(p, {"statistic": "crosstab", "columns": ["gender", "faculty"],
                           "keys": [["female", "male"], ["Arts", "Law", "Science"]], "epsilon": "0.2"})
        ledger.release(p, {"statistic": "mean", "columns": ["age"], "bounds": [17, 40], "resolution": "0.01",
                           "epsilon": "1"})
    return path
