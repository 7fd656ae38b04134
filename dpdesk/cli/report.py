"""``dpdesk report`` and ``dpdesk methods``: the output document and the methods paragraph.

``dpdesk report PROJECT out.pdf|out.docx|out.html|out.tex`` writes the report (the study's
summary, tables with notes, figures, methods with references); the PDF is laid out by Qt
offscreen, the .tex gets its figures beside it. ``dpdesk methods PROJECT``
prints the methods paragraph and its references as plain text.
"""

from __future__ import annotations

from pathlib import Path

from dpdesk.cli.estimates import study_options
from dpdesk.cli.style import parse_style
from dpdesk.cli.survey import add_design_options, design_from_args


def _options(p) -> None:
    study_options(p)
    add_design_options(p)


def register(sub) -> None:
    p = sub.add_parser("report", help="write the whole study as a report (PDF, Word, HTML or LaTeX)",
                       description="Write the whole study (every item, its subgroups, the saved regressions and the "
                                   "noisy releases, with notes, figures and a methods paragraph) to a .pdf, .docx, "
                                   ".html or .tex file.")
    _options(p)
    p.add_argument("out", help="the report file: out.pdf, out.docx, out.html or out.tex (figures beside it)")
    p.add_argument("--style", default="percent:1", metavar="UNIT:DECIMALS",
                   help="number style: percent:1 (default), percent:2, proportion:3, ...")
    p.set_defaults(func=cmd_report)
    m = sub.add_parser("methods", help="print a methods paragraph with references",
                       description="Print a methods paragraph (designs, privacy, respondents, estimator, intervals, "
                                   "releases) and its APA references, to edit and paste into a paper.")
    _options(m)
    m.set_defaults(func=cmd_methods)


def cmd_report(args) -> int:
    from dpdesk.printing import check_suffix, write_report
    from dpdesk.project.file.store import Project

    style = parse_style(args.style)
    out = Path(args.out)
    check_suffix(out)
    with Project.open(args.project) as project:
        write_report(project, out, by=args.by, ci=args.ci, confidence=args.confidence, style=style,
                     dataset=args.dataset, by_dataset=args.by_dataset, survey=design_from_args(args))
    print(f"Wrote {out}")
    return 0


def cmd_methods(args) -> int:
    from dpdesk.project.analysis.estimates import analyze
    from dpdesk.project.file.store import Project
    from dpdesk.project.report.methods import methods

    with Project.open(args.project) as project:
        results = analyze(project, by=args.by, ci=args.ci, confidence=args.confidence, dataset=args.dataset,
                          by_dataset=args.by_dataset, survey=design_from_args(args))
        print(methods(project, results, ci=args.ci, confidence=args.confidence, dataset=args.dataset).text(), end="")
    return 0
