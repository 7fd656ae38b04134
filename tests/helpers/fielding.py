"""Projects with one item of every design, in parameters a respondent's own randomizer gives exactly."""

from __future__ import annotations

import math

from dpdesk.mechanisms import rr
from tests.helpers.designs import EXAMPLES

#: EXAMPLES, with the epsilon-calibrated designs at an epsilon a coin realises (keep 1/2, 1/4).
FIELDABLE = dict(EXAMPLES, krr=dict(categories=["a", "b", "c"], epsilon=math.log(2)),
                 unary=dict(categories=["a", "b", "c"], epsilon=math.log(3), variant="oue"))


def fielding_project(path, names=None):
    """A project at ``path`` with one item per design (no data columns: designs waiting for fielding)."""
    from dpdesk.project import Project

    project = Project.create(path)
    for name in names or rr.DESIGN_NAMES:
        project.add_item(name, rr.design(name, **FIELDABLE[name]), question=f"Have you ever done thing {name}?")
    return project
