"""The bundled example: a synthetic but realistic student survey (fixed seed).

About 1,200 students of four faculties. Three quarters answer three sensitive items with
randomized response (a forced-response item on exam cheating, a crosswise item on
plagiarism, a stochastic-lie-detector item on drug use, in two randomization groups); the
other quarter, the comparison group, is asked the same questions directly and, as in real
surveys, under-reports. Demographics: faculty, year, gender, age; and ``exam_stress``, a
1-7 self-rating. Cheating has real covariate effects for the regression to find: the odds
fall by a factor of 0.90 with each year of age and rise by 1.35 per point of exam stress
(``CHEATING_EFFECTS``; stress and who cheats are drawn from a second generator, so every
other column and item is as before).

``tools/make_example.py`` calls :func:`write_example` to regenerate the files in
``dpdesk/resources/examples``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

SEED = 20261136
N_STUDENTS = 1200
FACULTIES = ("Arts", "Science", "Medicine", "Law")

#: The items of the example, as ``dpdesk item`` and ``Project.add_item`` take them.
ITEMS = [
    {
        "name": "exam_cheating",
        "question": "In the last year, have you cheated in an exam?",
        "design": "forced",
        "params": {"p_truth": 0.5, "p_yes": 0.25, "p_no": 0.25},
        "randomizer": "coins",  # first coin heads: the truth; tails, then heads: 'yes'; twice tails: 'no'
        "column": "cheat_rr",
        "codes": {"no": ["No"], "yes": ["Yes"]},
        "direct_column": "cheat_direct",
    },
    {
        "name": "plagiarism",
        "question": "Have you ever handed in work that was partly copied without citing it?",
        "question_b": "Is your mother's birthday in January, February or March?",  # yes for about 1 in 4: p
        "design": "crosswise",
        "params": {"p": 0.25},
        "column": "plag_cw",
        "codes": {"no": ["different"], "yes": ["same"]},
        "direct_column": "plag_direct",
    },
    {
        "name": "drug_use",
        "question": "In the last month, have you used a study drug (such as methylphenidate) without a prescription?",
        "design": "sld",
        "params": {"p1": 0.3, "p2": 0.7},
        "randomizer": "exact",  # any private randomizer with these probabilities (a random-number app)
        "column": "drug_sld",
        "codes": {"no": ["No"], "yes": ["Yes"]},
        "group_column": "sld_group",
        "group_codes": {"1": [1], "2": [2]},
        "direct_column": "drug_direct",
    },
]

_TRUE = {"exam_cheating": {"Arts": 0.22, "Science": 0.28, "Medicine": 0.15, "Law": 0.30},
         "plagiarism": {"Arts": 0.18, "Science": 0.12, "Medicine": 0.08, "Law": 0.14},
         "drug_use": {"Arts": 0.06, "Science": 0.10, "Medicine": 0.14, "Law": 0.09}}
_ADMIT_DIRECTLY = 0.55  # share of carriers who say "yes" when asked directly
#: Odds ratios of exam cheating per year of age (about 22.5) and per point of exam stress (about 4).
CHEATING_EFFECTS = {"age": 0.90, "exam_stress": 1.35}


def make_example(seed: int = SEED):
    """Return the example survey as a pandas DataFrame (one row per student)."""
    import pandas as pd

    from dpdesk.mechanisms import rr

    rng = np.random.default_rng(seed)
    n = N_STUDENTS
    faculty = rng.choice(FACULTIES, size=n, p=[0.3, 0.3, 0.2, 0.2])
    year = rng.integers(1, 6, size=n)
    gender = rng.choice(["female", "male", "diverse"], size=n, p=[0.54, 0.43, 0.03])
    age = 17 + year + rng.integers(0, 6, size=n)
    direct = rng.random(n) < 0.25
    frame = pd.DataFrame({
        "id": np.arange(1, n + 1),
        "email": [f"student{i:04d}@uni.example" for i in range(1, n + 1)],
        "faculty": faculty, "year": year, "gender": gender, "age": age,
        "mode": np.where(direct, "direct", "randomized"),
    })
    sld_group = rng.integers(1, 3, size=n)
    extra = np.random.default_rng(seed + 1)  # own stream for the covariate effects: the rest stays as it was
    stress = extra.integers(1, 8, size=n)
    for item in ITEMS:
        prevalence = np.array([_TRUE[item["name"]][f] for f in faculty])
        if item["name"] == "exam_cheating":
            shift = (np.log(CHEATING_EFFECTS["age"]) * (age - 22.5)
                     + np.log(CHEATING_EFFECTS["exam_stress"]) * (stress - 4))
            prevalence = 1 / (1 + (1 - prevalence) / prevalence * np.exp(-shift))
        draw = rng.random(n)
        truth = (extra.random(n) if item["name"] == "exam_cheating" else draw) < prevalence
        d = rr.design(item["design"], **item["params"])
        group = sld_group - 1 if d.groups == 2 else np.zeros(n, int)
        p_yes = np.array([m[1] for m in d.matrices])  # groups x states
        state = truth.astype(int)  # non-carrier / carrier (SLD: honest carrier)
        said_yes = rng.random(n) < p_yes[group, state]
        labels = item["codes"]
        rr_answer = np.where(said_yes, labels["yes"][0], labels["no"][0])
        frame[item["column"]] = np.where(direct, "", rr_answer)
        admits = truth & (rng.random(n) < _ADMIT_DIRECTLY)
        frame[item["direct_column"]] = np.where(direct, np.where(admits, "Yes", "No"), "")
        if d.groups == 2:
            frame[item["group_column"]] = np.where(direct, 0, sld_group)
    frame["exam_stress"] = stress
    return frame


def write_example(folder: str | Path) -> Path:
    """Write ``students.csv`` and ``items.json`` into ``folder``; return the CSV path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    frame = make_example()
    csv = folder / "students.csv"
    frame.to_csv(csv, index=False)
    (folder / "items.json").write_text(json.dumps(ITEMS, indent=2) + "\n", encoding="utf-8")
    return csv


def add_example_items(project) -> None:
    """Add the example's items (:data:`ITEMS`) to ``project``, with question B of the crosswise item
    and the randomizer respondents hold (as ``dpdesk item --randomizer`` keeps it)."""
    from dpdesk.mechanisms import rr
    from dpdesk.project.fielding.devices import device_for
    from dpdesk.project.fielding.store import set_item_text

    for it in ITEMS:
        d = rr.design(it["design"], **it["params"])
        record = {**d.to_dict(), "randomizer": device_for(d, it["randomizer"], it["name"])} if it.get("randomizer") else d
        project.add_item(it["name"], record, column=it["column"],
                         codes=it["codes"], group_column=it.get("group_column"),
                         group_codes=it.get("group_codes"), question=it["question"])
        if it.get("question_b"):
            set_item_text(project, it["name"], "question_b", it["question_b"])


def example_folder() -> Path:
    """The bundled example files, ``dpdesk/resources/examples`` (:mod:`dpdesk.resources`): in the
    source tree, an installed wheel and a frozen bundle alike."""
    from dpdesk.resources import path

    return path("examples")
