"""A seeded ECWM study for the results, command-line, report and guide tests (and the guide's example).

``ecwm_frame``: n respondents, each randomly shown version 1 (question B 'yes' for p = 0.25) or
version 2 (0.75), true prevalence 0.3; a share ``non_adherent`` answers "different" whatever
the truth (Heck, Hoffmann & Moshagen 2018: a systematic preference the test detects). A weight
column ``w`` (1 to 3) and a stratum column ``region`` serve the weighted study.
"""

from __future__ import annotations

import numpy as np

from dpdesk.mechanisms import rr

P_B = 0.25


def ecwm_frame(n: int = 600, *, prevalence: float = 0.3, non_adherent: float = 0.0, seed: int = 30):
    import pandas as pd

    rng = np.random.default_rng(seed)
    version = rng.integers(1, 3, n)
    state = rng.random(n) < prevalence
    b = rng.random(n) < np.where(version == 1, P_B, 1 - P_B)
    same = state == b
    same &= ~(rng.random(n) < non_adherent)
    return pd.DataFrame({"resp_id": np.arange(1, n + 1), "version": version,
                         "answer": np.where(same, "same", "different"),
                         "region": rng.choice(["north", "south", "east"], n),
                         "w": np.round(rng.uniform(1, 3, n), 2)})


def ecwm_project(path, frame, *, weighted: bool = False, name: str = "cheat", label: str | None = None):
    """A project at ``path`` with ``frame`` imported and one ECWM item mapped (weights and strata if asked;
    ``label``: the item's short label, as the guide's ``--label``)."""
    from dpdesk.project.file.store import Project
    from dpdesk.project.reading.importing import import_file
    from dpdesk.project.study.survey_design import SurveyDesign, set_survey_design

    csv = path.with_suffix(".csv")
    frame.to_csv(csv, index=False)
    with Project.create(path) as project:
        import_file(project, csv)
        project.add_item(name, rr.design("ecwm", p=P_B), question="Have you cheated in an exam?",
                         column="answer", codes={"no": ["different"], "yes": ["same"]},
                         group_column="version", group_codes={"1": [1], "2": [2]})
        if label:
            project.set_item_label(name, label)
        if weighted:
            set_survey_design(project, SurveyDesign(weights="w", strata="region"))
    return path
