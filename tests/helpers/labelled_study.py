"""A small SPSS study with labels (issue 20's second wave): ``copy`` asked with forced response in
``essay_fr`` (1 = Yes, 2 = No), and ``sex`` coded 1 = Female, 2 = Male, 3 = Non-binary, 99 = Refused
(user-missing) and some blanks. Made through the command line, as a researcher would.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

QUESTION = "Did you copy in an exam?"
GENDER = "What is your gender?"


def make_labelled_study(folder: Path, *, n: int = 600, seed: int = 20) -> Path:
    """The project at ``folder / "study.dpdesk"`` with the .sav imported and the item mapped."""
    import pyreadstat

    from dpdesk.cli import main

    rng = np.random.default_rng(seed)
    sex = rng.choice([1.0, 2.0, 3.0, 99.0, np.nan], n, p=[0.5, 0.38, 0.07, 0.03, 0.02])
    # true prevalence 30% for codes 1 and 3, 50% for 2: not a straight line across 1, 2, 3
    truth = rng.random(n) < np.where(sex == 2.0, 0.5, 0.3)
    forced = np.where(rng.random(n) < 0.75, truth, rng.random(n) < 2 / 3)
    frame = pd.DataFrame({"essay_fr": np.where(forced, 1.0, 2.0), "sex": sex})
    sav = Path(folder) / "wave2.sav"
    pyreadstat.write_sav(frame, str(sav), column_labels={"essay_fr": QUESTION, "sex": GENDER},
                         variable_value_labels={"essay_fr": {1: "Yes", 2: "No"},
                                                "sex": {1: "Female", 2: "Male", 3: "Non-binary", 99: "Refused"}},
                         missing_ranges={"sex": [99]})
    path = Path(folder) / "study.dpdesk"
    for args in (["new", path], ["import", path, sav],
                 ["item", path, "copy", "--design", "forced", "--param", "p_truth=0.75", "--param", "p_yes=0.1667",
                  "--param", "p_no=0.0833", "--column", "essay_fr", "--codes", "yes=1", "--codes", "no=2",
                  "--question", QUESTION, "--label", "Copying"]):
        assert main([str(a) for a in args]) == 0, args
    return path
