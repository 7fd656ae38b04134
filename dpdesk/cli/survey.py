"""``dpdesk design-sample`` and the survey-design options of ``estimate``, ``export``, ``regress``, ``report``.

A dataset's survey design (weight, strata, cluster and population-size columns) is stored
with ``dpdesk design-sample PROJECT --weights wgt --strata region --clusters school``; every
analysis of that dataset then uses it. The same options on an analysis command use a design
for that run only, added to the stored design: each option replaces that part of it and the
rest is kept (``--population 50000`` alone keeps the stored weights, strata and PSUs).
``--no-design`` ignores the stored design: a simple random sample, or only the options given.
"""

from __future__ import annotations

import json

from dpdesk.errors import DataError

LONELY = ("fail", "certainty", "average", "adjust")


def add_design_options(p) -> None:
    """``--weights --strata --clusters --fpc --population --lonely-psu --no-design`` on an analysis command."""
    g = p.add_argument_group("survey design (default: the one stored with the dataset, see design-sample; options "
                             "given here add to it for this run)")
    _columns(g)
    g.add_argument("--no-design", action="store_true",
                   help="ignore the stored survey design: analyse as a simple random sample, or with only the "
                   "design options given")


def _columns(g) -> None:
    g.add_argument("--weights", metavar="COL", help="the column of survey weights")
    g.add_argument("--strata", metavar="COL", help="the column of strata")
    g.add_argument("--clusters", metavar="COL", help="the column of clusters (primary sampling units)")
    g.add_argument("--fpc", metavar="COL", help="the column of each stratum's population size (finite population "
                   "correction)")
    g.add_argument("--population", type=float, metavar="N",
                   help="the known population size: Horvitz-Thompson means (sum of weighted answers / N; "
                   "Kuk's cards: of the mean red card, any number of cards); two-group designs refuse it")
    g.add_argument("--lonely-psu", choices=LONELY, default=None,
                   help="a stratum with one PSU: fail (default), certainty, average or adjust (as R survey)")


def design_from_args(args):
    """The ``survey=`` argument of ``analysis.analyze``: False (none), None (stored) or the options given.

    ``--no-design``: a simple random sample, or only the options given (``--no-design
    --weights w``). Otherwise the options given add to the stored design
    (:class:`DesignChanges`): ``--population 50000`` keeps the stored weights, strata and PSUs.
    """
    from dpdesk.project.study.survey_design import DesignChanges, SurveyDesign

    given = {k: getattr(args, k, None) for k in ("weights", "strata", "clusters", "fpc", "population")}
    given = {k: v for k, v in given.items() if v is not None}
    if getattr(args, "lonely_psu", None) is not None:
        given["lonely_psu"] = args.lonely_psu
    if getattr(args, "no_design", False):
        return SurveyDesign.from_dict(given) if given else False
    if not given:
        return None
    return DesignChanges(tuple(given.items()))


def register(sub) -> None:
    p = sub.add_parser(
        "design-sample", help="store a dataset's survey design (weights, strata, clusters)",
        description="Store the survey design of a dataset: its weight, strata, cluster (PSU) and population-size "
        "columns. Every estimate, subgroup and regression of the dataset is then design-based (weighted, with "
        "Taylor-linearization standard errors). Without options it shows the stored design and the columns "
        "whose names look like a design's. Example: dpdesk design-sample P.dpdesk --weights anweight --strata "
        "stratum --clusters psu")
    p.add_argument("project")
    p.add_argument("--dataset", help="dataset name (default: the active one)")
    _columns(p)
    p.add_argument("--clear", action="store_true", help="remove the stored design")
    p.add_argument("--json", action="store_true", help="print the design as JSON")
    p.set_defaults(func=cmd_design_sample)


def cmd_design_sample(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.study.active import dataset_named
    from dpdesk.project.study.survey_design import (
        SurveyDesign,
        clear_survey_design,
        guess_design,
        set_survey_design,
        survey_design,
    )

    with Project.open(args.project) as project:
        ds = dataset_named(project, args.dataset)
        design = design_from_args(args)
        if design is not None:  # design-sample stores exactly the columns given (it replaces the stored design)
            design = SurveyDesign.from_dict(dict(design.changes))
        if args.clear:
            if design:
                raise DataError("Give either --clear or the design's columns, not both.")
            clear_survey_design(project, ds.name)
            stored = None
        elif design:
            stored = set_survey_design(project, design, ds.name)
        else:
            stored = survey_design(project, ds.name)
        guess = guess_design(ds.columns)
    if args.json:
        print(json.dumps({"dataset": ds.name, "design": None if stored is None else stored.to_dict(),
                          "suggested": guess.to_dict()}, indent=2))
        return 0
    print(f"Dataset {ds.name!r}: {stored.describe() if stored else 'no survey design (a simple random sample)'}.")
    if stored is None and not (guess == SurveyDesign()):
        flags = " ".join(f"--{role} {col}" for role, col in guess.columns().items())
        print(f"Columns that look like a design's (not applied): {guess.describe()}. To use them: "
              f"dpdesk design-sample {args.project} {flags}")
    return 0
