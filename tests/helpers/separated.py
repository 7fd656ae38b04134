"""A project whose regression fits with an open-ended interval: one faculty's recorded answers are
(almost) all "yes" -- quasi-separation, so the profile interval of its odds ratio has no upper end."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from dpdesk.mechanisms import rr

DESIGN = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)


def make_separated(folder: str | Path, *, seed: int = 5) -> Path:
    """``folder/sep.dpdesk``: 400 answers, faculty "B" (60 rows) with 43 "yes" (the largest share the design
    can give is 75%, so its prevalence is near 1 and the upper limit of its odds ratio is open)."""
    from dpdesk.project import Project
    from dpdesk.project.reading.importing import import_file

    folder = Path(folder)
    rng = np.random.default_rng(seed)
    n = 400
    faculty = np.where(np.arange(n) < 60, "B", "A")
    yes = np.where(faculty == "B", np.arange(n) < 43, rng.random(n) < 0.45)
    csv = folder / "sep.csv"
    pd.DataFrame({"faculty": faculty, "answer": np.where(yes, "yes", "no")}).to_csv(csv, index=False)
    path = folder / "sep.dpdesk"
    with Project.create(path) as p:
        p.add_item("q", DESIGN, question="Did you?", column="answer", codes={"no": ["no"], "yes": ["yes"]})
        import_file(p, csv)
    return path
