"""``dpdesk correlate``: correlations of RR items and numeric columns, corrected for the randomization (RRcor)."""

from __future__ import annotations

from dpdesk.cli import json_out

from dpdesk.errors import DataError


def register(sub) -> None:
    p = sub.add_parser(
        "correlate", help="correlations of RR items and numeric columns, corrected for the randomization",
        description="How strongly do the true answers to sensitive questions go together, and with other "
        "variables? Each NAME is a yes/no RR item of the project or a numeric column of the data; the correlations "
        "are corrected for the randomization (Fox & Tracy 1984; as RRreg's RRcor), with bootstrap SEs and "
        "p-values. Example: dpdesk correlate P.dpdesk exam_cheating drugs age --bootstrap 1000 --seed 7")
    p.add_argument("project")
    p.add_argument("names", nargs="+", metavar="NAME", help="RR items or numeric columns (at least two)")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples for the SEs and p-values (default 1000; 0: none)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the resamples (default 0: the same "
                   "numbers on every run)")
    p.add_argument("--dataset", help="dataset name (default: the active one)")
    p.add_argument("--json", action="store_true", help="print the result as JSON (null where there is no number)")
    p.add_argument("--export", metavar="FILE", help="also write the correlations to FILE: .xlsx (the pairs with r, "
                   "bootstrap SE and p, the APA matrix, the metadata) or .csv (the pairs, with the matrix and the "
                   "metadata in files beside it)")
    p.add_argument("--no-save", action="store_true", help="do not save the correlations with the project's analyses "
                   "(saved ones appear in the report and its methods text)")
    p.set_defaults(func=cmd_correlate)


def cmd_correlate(args) -> int:
    import sys

    from dpdesk.project import Project
    from dpdesk.project.regression.correlation_report import (CorrelationSpec, project_labels, report_of,
                                                             save_correlation, write_correlation)
    from dpdesk.project.regression.rr_models import correlations
    from dpdesk.project.regression.rr_text import correlation_text

    if len(set(args.names)) < 2:
        raise DataError("Give at least two different names to correlate: RR items or numeric columns.")
    if args.seed < 0:
        raise DataError(f"--seed {args.seed}: give a whole number of at least 0, for example --seed 7.")
    if args.export and not args.export.lower().endswith((".csv", ".xlsx")):
        raise DataError(f"--export {args.export}: choose a file name ending in .xlsx or .csv.")
    written = []
    with Project.open(args.project) as project:
        result = correlations(project, args.names, bootstrap=args.bootstrap, seed=args.seed, dataset=args.dataset)
        report = report_of(result, CorrelationSpec(list(args.names), args.bootstrap, args.seed, result.dataset),
                           project_labels(project, result.fit.names, result.dataset))
        if not args.no_save:
            save_correlation(project, report)
        if args.export:
            written = write_correlation(report, args.export, project.path)
    print(json_out.dumps(result.to_dict(), indent=2) if args.json else correlation_text(result))
    for path in written:
        print(f"wrote {path}", file=sys.stderr)
    return 0
