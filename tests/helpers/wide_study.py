"""A study whose tables are wide: three yes/no items with long questions (one with a short label), four
regions, a complex-sample design (weights, strata, PSUs) and a regression with many terms -- the case
the report's walk found breaking (words broken in the subgroup grid, p wrapped in Word, columns off a
LaTeX page, overlapping labels in the odds-ratio figure).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from dpdesk.mechanisms import rr

QUESTIONS = {
    "drink": "In the past twelve months, have you driven a car after drinking more alcohol than the legal "
             "limit allows?",
    "tax": "In the past twelve months, have you ever failed to declare income to the tax authorities?",
    "steal": "Have you ever taken something from a shop without paying for it, however small?",
}
LABELS = {"tax": "Undeclared income"}
BY = "region"


def make_wide_study(path: str | Path, *, design: bool = True, seed: int = 3) -> Path:
    from dpdesk.project import Project
    from dpdesk.project.regression.report import RegressionSpec, fit_report, save_report
    from dpdesk.project.study.survey_design import SurveyDesign, set_survey_design

    rng = np.random.default_rng(seed)
    n = 1200
    region = rng.choice(["North", "South", "East", "West", "Central"], n)
    frame = pd.DataFrame({
        "region": pd.Categorical(region),
        "psu": [f"{r}-{k}" for r, k in zip(region, rng.integers(0, 9, n))],
        "wt": rng.uniform(0.5, 2.5, n),
        "age": rng.integers(18, 70, n),
        "sex": pd.Categorical(rng.choice(["female", "male"], n)),
        "employment": pd.Categorical(rng.choice(["employed full time", "employed part time", "self-employed",
                                                 "unemployed", "retired"], n)),
    })
    for item in QUESTIONS:
        truth = rng.random(n) < 0.2
        forced = np.where(rng.random(n) < 0.75, truth, rng.random(n) < 2 / 3)
        frame[item] = np.where(forced, "Yes", "No")
    forced_design = rr.design("forced", p_truth=0.75, p_yes=1 / 6, p_no=1 / 12)
    path = Path(path)
    with Project.create(path) as p:
        p.add_dataset("survey", frame, source={"name": "survey.csv", "sha256": "0" * 64})
        for item, question in QUESTIONS.items():
            p.add_item(item, forced_design, column=item, codes={"no": ["No"], "yes": ["Yes"]}, question=question)
        for item, label in LABELS.items():
            p.set_item_label(item, label)
        if design:
            set_survey_design(p, SurveyDesign(weights="wt", strata="region", clusters="psu"))
        save_report(p, fit_report(p, RegressionSpec("tax", ["age", "region", "sex", "employment"],
                                                    {"region": "North", "employment": "employed full time"})))
    return path
