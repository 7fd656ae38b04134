"""One example of every design in the catalogue, and small simulated survey files for it.

``EXAMPLE_PARAMS`` must name every design of ``rr.DESIGN_NAMES``: a new design without an
example fails the design test matrix (tests/project/test_design_matrix.py) until it gets one.
"""

from __future__ import annotations

import numpy as np

from dpdesk.mechanisms import rr

EXAMPLE_PARAMS = {
    "warner": {"p": 0.7},
    "forced": {"p_truth": 0.5, "p_yes": 0.25, "p_no": 0.25},
    "forced_multi": {"p_truth": 0.7, "p_forced": [0.1, 0.1, 0.1], "categories": ["none", "some", "a lot"]},
    "unrelated": {"p_sensitive": 0.7, "q": 0.3},
    "unrelated_unknown": {"p1": 0.3, "p2": 0.7},
    "crosswise": {"p": 0.25},
    "ecwm": {"p": 0.25},
    "triangular": {"p": 0.25},
    "kuk": {"p1": 0.7, "p2": 0.3, "draws": 3},
    "mangat": {"p": 0.7},
    "sld": {"p1": 0.3, "p2": 0.7},
    "cdm": {"p1": 0.3, "p2": 0.7},
    "krr": {"categories": ["bus", "car", "bike"], "epsilon": 2.0},
    "unary": {"categories": ["tv", "radio", "web"], "epsilon": 2.0},
    "custom": {"matrix": [[0.8, 0.3], [0.2, 0.7]]},
}


def example_design(name: str) -> rr.Design:
    return rr.design(name, **EXAMPLE_PARAMS[name])


def _prevalence(d: rr.Design):
    if d.model == "categorical":
        k = len(d.categories)
        return np.linspace(2, 1, k) / np.linspace(2, 1, k).sum()
    if d.model == "unary":
        return np.linspace(0.5, 0.2, len(d.categories))
    return 0.3


def survey_frame(name: str, n: int = 240, seed: int = 7):
    """A survey file for one item of design ``name``: answers as text codes, a gender column.

    Two-group designs get a ``group`` column (1, 2); unary designs one 0/1 column per
    option (``tick_<option>``). A few blank answers show how they are reported.
    """
    import pandas as pd

    d = example_design(name)
    rng = np.random.default_rng(seed)
    sim = rr.simulate_responses(d, n, _prevalence(d), rng=rng)
    frame = pd.DataFrame({"resp_id": np.arange(1, n + 1)})
    if d.model == "unary":
        for j, cat in enumerate(d.categories):
            frame[f"tick_{cat}"] = sim[:, j]
    elif d.groups == 2:
        frame["answer"] = [d.responses[i] for i in np.concatenate(sim)]
        frame["group"] = np.repeat([1, 2], [len(sim[0]), len(sim[1])])
    else:
        frame["answer"] = [d.responses[i] for i in sim]
    if "answer" in frame:
        frame.loc[[3, 17], "answer"] = None  # two blank answers: missing, left out and listed
    frame["gender"] = rng.choice(["female", "male"], size=n)
    return frame


def item_mapping(name: str) -> dict:
    """``Project.add_item`` keywords mapping the item to :func:`survey_frame`'s columns."""
    from dpdesk.project.mapping.unary import unary_codes

    d = example_design(name)
    if d.model == "unary":
        return {"column": f"tick_{d.categories[0]}",
                "codes": unary_codes({c: f"tick_{c}" for c in d.categories})}
    out = {"column": "answer", "codes": {r: [r] for r in d.responses}}
    if d.groups == 2:
        out.update(group_column="group", group_codes={"1": [1], "2": [2]})
    return out


def combined_survey(names, n: int = 240, seed: int = 7):
    """One survey with an item per design: ``(frame, {design: add_item keywords})``.

    Each design's columns are prefixed with its name (``krr_answer``, ``sld_group``,
    ``unary_tick_tv``); the ``gender`` column is shared.
    """
    import pandas as pd

    from dpdesk.project.mapping.unary import unary_codes

    frames, mappings = [], {}
    gender = None
    for name in names:
        f = survey_frame(name, n, seed)
        gender = f["gender"] if gender is None else gender
        f = f.drop(columns=["resp_id", "gender"]).add_prefix(f"{name}_")
        frames.append(f)
        m = item_mapping(name)
        if "columns" in m["codes"]:
            m["codes"] = unary_codes({c: f"{name}_{col}" for c, col in m["codes"]["columns"].items()})
        m["column"] = f"{name}_{m['column']}"
        if "group_column" in m:
            m["group_column"] = f"{name}_{m['group_column']}"
        mappings[name] = m
    frame = pd.concat(frames, axis=1)
    frame.insert(0, "resp_id", range(1, n + 1))
    frame["gender"] = gender
    return frame, mappings


#: Another example of each design, with more draws and other categories (the card tests).
EXAMPLES = {
    "warner": dict(p=0.7),
    "forced": dict(p_truth=0.5, p_yes=0.25, p_no=0.25),
    "forced_multi": dict(p_truth=0.7, p_forced=[0.1, 0.1, 0.1], categories=["never", "once", "often"]),
    "unrelated": dict(p_sensitive=0.7, q=0.3),
    "unrelated_unknown": dict(p1=0.3, p2=0.7),
    "crosswise": dict(p=0.25),
    "ecwm": dict(p=0.25),
    "triangular": dict(p=0.25),
    "kuk": dict(p1=0.7, p2=0.3, draws=3),
    "mangat": dict(p=0.8),
    "sld": dict(p1=0.3, p2=0.7),
    "cdm": dict(p1=0.3, p2=0.7),
    "krr": dict(categories=["a", "b", "c"], epsilon=1.0),
    "unary": dict(categories=["a", "b", "c"], epsilon=1.0, variant="oue"),
    "custom": dict(matrix=[[0.9, 0.2], [0.1, 0.8]]),
}
