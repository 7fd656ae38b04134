"""``dpdesk regress``: regressions with randomized-response items: logistic (an RR outcome), multilevel
logistic (with a random intercept per cluster, as RRmixed) and linear (RR items as predictors, as RRlin)."""

from __future__ import annotations


from dpdesk.cli import json_out
from dpdesk.cli.style import parse_style
from dpdesk.cli.survey import add_design_options, design_from_args
from dpdesk.errors import DataError


def register(sub) -> None:
    p = sub.add_parser(
        "regress", help="regression with RR items: logistic, multilevel or linear (--model)",
        description="Which respondents are more likely to have the sensitive attribute? Fits a logistic "
        "regression in which the randomized answers stand in for the true ones (van den Hout, van der Heijden & "
        "Gilchrist 2007; as RRreg's RRlog). Example: dpdesk regress P.dpdesk exam_cheating --predictors age "
        "exam_stress faculty --ref faculty=Arts --center age. --model multilevel --cluster school adds a random "
        "intercept per school (as RRreg's RRmixed); --model linear --outcome gpa --rr exam_cheating explains a "
        "numeric column by the RR items' true states (as RRreg's RRlin).")
    p.add_argument("project")
    p.add_argument("item", nargs="?", help="the yes/no RR item to explain (logistic and multilevel models)")
    p.add_argument("--model", choices=("logistic", "multilevel", "linear"), default="logistic",
                   help="logistic (default): the item on the covariates; multilevel: the same with a random "
                   "intercept per --cluster; linear: the numeric --outcome on the --rr items and the covariates")
    p.add_argument("--cluster", metavar="COLUMN", help="multilevel: the column naming each respondent's cluster "
                   "(school, firm, country)")
    p.add_argument("--nagq", type=int, default=1, metavar="K", help="multilevel: quadrature points, 1 (the Laplace "
                   "approximation, default, as glmer) to 25 (adaptive Gauss-Hermite)")
    p.add_argument("--outcome", metavar="COLUMN", help="linear: the numeric column to explain")
    p.add_argument("--rr", action="append", default=[], metavar="ITEM",
                   help="linear: a yes/no RR item (mapped in the dataset) as a predictor (repeat; up to 6)")
    p.add_argument("--predictors", nargs="+", default=[], metavar="COLUMN",
                   help="data columns: numeric ones as they are, others as categories (required for logistic and "
                   "multilevel models; optional covariates for linear)")
    p.add_argument("--ref", action="append", default=[], metavar="COLUMN=LEVEL",
                   help="reference level of a categorical predictor, by its label or code (repeat; default: its "
                   "largest level, or a value-labelled column's lowest code)")
    p.add_argument("--interaction", action="append", default=[], metavar="A:B",
                   help="an interaction of two predictors (repeat)")
    p.add_argument("--center", nargs="+", default=[], metavar="COLUMN", help="numeric predictors to centre at their mean")
    p.add_argument("--categorical", nargs="+", default=[], metavar="COLUMN",
                   help="numeric-looking predictors to treat as categories (e.g. a year coded 1-5)")
    p.add_argument("--numeric", nargs="+", default=[], metavar="COLUMN",
                   help="value-labelled columns to use as numbers (a column whose every code has a value label, "
                   "such as SPSS's 1 = Female, 2 = Male, enters as categories against its lowest code by default)")
    p.add_argument("--direct", metavar="COLUMN",
                   help="the same question asked directly (a comparison group, answers Yes/No or 1/0): rows without "
                   "a randomized answer enter with their direct answer, taken at face value (RRreg's group 0)")
    p.add_argument("--confidence", type=float, default=0.95, help="confidence level (default 0.95)")
    p.add_argument("--dataset", help="dataset name (default: the latest import)")
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument("--style", default="percent:1", metavar="UNIT:DECIMALS",
                   help="number style of the shares (average prevalence), as for report: percent:1 (default), "
                        "proportion:3, ...")
    p.add_argument("--export", metavar="FILE", help="also write the regression to FILE (.xlsx: its own sheets, "
                   "or .csv) with a reproducibility script that refits it and checks the coefficients")
    p.add_argument("--no-save", action="store_true", help="do not save the fit with the project's analyses")
    add_design_options(p)
    p.set_defaults(func=cmd_regress)


def _references(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        column, sep, level = pair.partition("=")
        if not sep or not column.strip() or not level.strip():
            raise DataError(f"--ref {pair!r} must be COLUMN=LEVEL, for example --ref faculty=Arts.")
        out[column.strip()] = level.strip()
    return out


def _check_model_options(args) -> None:
    """Options that belong to another model are refused in words, never silently ignored."""
    linear = args.model == "linear"
    if linear and args.item:
        raise DataError(f"--model linear takes the RR items as predictors with --rr {args.item}, not as the item to "
                        f"explain; give the numeric column to explain with --outcome COLUMN.")
    if not linear and not args.item:
        raise DataError(f"Name the RR item to explain: dpdesk regress PROJECT ITEM --model {args.model} ...")
    if not linear and (args.outcome or args.rr):
        raise DataError("--outcome and --rr belong to --model linear.")
    if linear and not args.outcome:
        raise DataError("--model linear needs the numeric column to explain: --outcome COLUMN.")
    if linear and not args.rr:
        raise DataError("--model linear needs at least one RR item as a predictor: --rr ITEM.")
    if args.model == "logistic" and not args.predictors:  # a multilevel model may have the intercept alone
        raise DataError("Give the predictors: --predictors COLUMN [COLUMN ...].")
    if args.model == "multilevel" and not args.cluster:
        raise DataError("--model multilevel needs the column of clusters: --cluster COLUMN.")
    if args.model != "multilevel" and args.cluster:
        raise DataError("--cluster belongs to --model multilevel (a random intercept per cluster); for a survey's "
                        "primary sampling units use --clusters.")
    if args.model == "multilevel" and not 1 <= args.nagq <= 25:
        raise DataError(f"--nagq {args.nagq} must be a whole number from 1 (Laplace) to 25.")
    if args.model != "logistic" and args.direct:
        raise DataError(f"--direct does not cover --model {args.model} (directly asked answers enter a logistic model "
                        f"only); leave it out.")


def _spec(args, dataset: str):
    """The model as the project saves it (``RegressionSpec``), from the options."""
    from dpdesk.project.regression.report import RegressionSpec

    linear = args.model == "linear"
    return RegressionSpec("" if linear else args.item, list(args.predictors), _references(args.ref),
                          list(args.interaction), list(args.center), list(args.categorical), args.confidence, dataset,
                          numeric=list(args.numeric), model=args.model,
                          cluster=args.cluster if args.model == "multilevel" else None,
                          nagq=args.nagq if args.model == "multilevel" else 1,
                          outcome=args.outcome if linear else None, rr_items=list(dict.fromkeys(args.rr)))


def _save_and_export(project, args, report) -> list:
    """Save the report with the project's analyses (unless --no-save) and write --export; the files written."""
    from dpdesk.project.regression.report import save_report

    if not args.no_save:
        save_report(project, report)
    if not args.export:
        return []
    from dpdesk.project.export.results import export_results
    from dpdesk.project.regression.export import regression_bundle

    return export_results(regression_bundle(project, report), args.export)


def _linear(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.regression.report import linear_report
    from dpdesk.project.regression.rr_models import linear_regression
    from dpdesk.project.regression.rr_text import linear_text

    style = parse_style(args.style)
    with Project.open(args.project) as project:
        result = linear_regression(project, args.outcome, args.rr, args.predictors, reference=_references(args.ref),
                                   interactions=args.interaction, center=args.center, categorical=args.categorical,
                                   numeric=args.numeric, confidence=args.confidence, dataset=args.dataset,
                                   survey=design_from_args(args))
        written = _save_and_export(project, args, linear_report(project, result, _spec(args, result.dataset)))
    print(json_out.dumps(result.to_dict(), indent=2) if args.json else linear_text(result, style))
    _wrote(written)
    return 0


def _wrote(paths) -> None:
    import sys

    for path in paths:
        print(f"wrote {path}", file=sys.stderr)


def cmd_regress(args) -> int:
    _check_model_options(args)
    if args.model == "linear":
        return _linear(args)
    from dpdesk.project import Project
    from dpdesk.project.regression import regress
    from dpdesk.project.regression.report import labelled_report, text_labels
    from dpdesk.project.regression.text import report_text

    style = parse_style(args.style)
    written = []
    with Project.open(args.project) as project:
        result = regress(project, args.item, args.predictors, reference=_references(args.ref),
                         interactions=args.interaction, center=args.center, categorical=args.categorical,
                         numeric=args.numeric, confidence=args.confidence, dataset=args.dataset, direct_column=args.direct,
                         survey=design_from_args(args), cluster=args.cluster, nagq=args.nagq)
        if args.direct is None:  # the saved report and the export refit exactly this model
            written = _save_and_export(project, args, labelled_report(project, result, _spec(args, result.dataset)))
        elif args.export:
            raise DataError("--export does not yet cover a model with --direct; export it without --direct.")
        # in the columns' labels and the item's short label or question (codes in the last line)
        text = with_flags(report_text(result, *text_labels(project, result), style=style))
    if args.json:
        print(json_out.dumps(result.to_dict(), indent=2))
    else:
        print(text)
    _wrote(written)
    return 0


def with_flags(text: str) -> str:
    """The report's hint in this tool's words: "(command line: the numeric option with sex)" becomes
    "(command line: --numeric sex)" (the shared text names no flag: the app shows it too)."""
    import re

    return re.sub(r"\(command line: the numeric option with ([^)]*)\)", r"(command line: --numeric \1)", text)
