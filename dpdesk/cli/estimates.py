"""Commands for estimates: estimate, export, protect, demo (and the options they share)."""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path

from dpdesk.cli import json_out
from dpdesk.cli.style import parse_style
from dpdesk.cli.survey import add_design_options, design_from_args
from dpdesk.errors import DataError


def register(sub) -> None:
    p = sub.add_parser("estimate", help="estimate every item of a project",
                       description="Estimate the prevalence of every RR item from the latest imported data.")
    _analysis_options(p)
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    _style_option(p)
    p.set_defaults(func=cmd_estimate)


    p = sub.add_parser("export", help="export the results to .xlsx or .csv",
                       description="Write the estimates (and subgroup tables) to an Excel workbook or CSV files, "
                       "with a Metadata and a Readme sheet and a reproducibility script beside them.")
    _analysis_options(p)
    p.add_argument("out", help="OUT.xlsx or OUT.csv")
    _style_option(p, "the workbook shows shares in percent with percent:N (the values stay proportions)")
    p.set_defaults(func=cmd_export)


    p = sub.add_parser("protect", help="mark columns as protected (warns before exact subgroup counts)",
                       description="Mark data columns as protected. Estimating or exporting by subgroups of a "
                       "protected column (or of one with noisy releases in the ledger) warns that the exact "
                       "subgroup counts undercut the protection and offers --min-group-size. Without COLUMNs it "
                       "lists the protected columns.")
    p.add_argument("project")
    p.add_argument("columns", nargs="*", metavar="COLUMN", help="columns to mark (added to those marked)")
    p.add_argument("--clear", action="store_true", help="remove every mark first")
    p.set_defaults(func=cmd_protect)


    p = sub.add_parser("demo", help="build the example project headless and export its results",
                       description="Build the bundled example project (a student survey), estimate its items by "
                       "faculty and export the results.")
    p.add_argument("outdir", nargs="?", default="dpdesk-demo", help="output folder (default: ./dpdesk-demo)")
    p.set_defaults(func=cmd_demo)



def study_options(p) -> None:
    """The project and what to estimate: subgroups, intervals, dataset (estimate, export, report, methods)."""
    p.add_argument("project")
    by = p.add_mutually_exclusive_group()
    by.add_argument("--by", help="also estimate by subgroups of this column")
    by.add_argument("--by-dataset", action="store_true",
                    help="compare the datasets each item is mapped in (wave 1 against wave 2)")
    p.add_argument("--ci", default="default", choices=["default", "wald", "bootstrap"], help="interval method")
    p.add_argument("--confidence", type=float, default=0.95, help="confidence level (default 0.95)")
    p.add_argument("--dataset", help="dataset name (default: the active one)")



def _analysis_options(p) -> None:
    study_options(p)
    p.add_argument("--strict", action="store_true",
                   help="stop at answers that match no code, instead of leaving them out (missing answers: "
                   "blanks and user-missing codes, are always left out and reported)")
    p.add_argument("--min-group-size", type=int, metavar="N",
                   help="leave out subgroups with fewer than N answers (their estimates and exact counts)")
    p.add_argument("--adjust", default="holm", choices=["holm", "bonferroni", "none"],
                   help="adjust the p-values of the pairwise subgroup differences for many comparisons "
                   "(default: holm; the unadjusted p-values are kept beside them)")
    add_design_options(p)



def _run_analysis(args):
    from dpdesk.project import Project
    from dpdesk.project.analysis.estimates import analyze, results_bundle, stored_table, subgroup_warnings
    from dpdesk.project.sharing.subgroup_disclosure import check_results

    if args.min_group_size is not None and args.min_group_size < 1:
        raise DataError(f"--min-group-size must be at least 1 (got {args.min_group_size}).")
    with Project.open(args.project) as project:
        shown = (subgroup_warnings(stored_table(project, args.dataset, [args.by]), args.by, left_out_below=args.min_group_size)
                 if args.by else [])
        for warning in shown:  # before computing: too many subgroups, or subgroups too small
            print(f"warning: {warning}", file=sys.stderr)
        results = analyze(project, dataset=args.dataset, by=args.by, ci=args.ci, confidence=args.confidence,
                          exclude=not args.strict, min_group_size=args.min_group_size,
                          by_dataset=getattr(args, "by_dataset", False), adjust=args.adjust,
                          survey=design_from_args(args))
        _warn_subgroups(check_results(project, results, threshold=args.min_group_size))
        for warning in dict.fromkeys(w for r in results for w in r.warnings if w not in shown):
            print(f"warning: {warning}", file=sys.stderr)
        bundle = results_bundle(project, results, dataset=args.dataset, ci=args.ci, confidence=args.confidence)
        for r in results:
            if r.estimate is not None:
                options = {"by": args.by, "ci": args.ci, "confidence": args.confidence}
                if r.sample_design is not None:
                    options["survey_design"] = r.sample_design.to_dict()
                project.save_analysis(r.item, options,
                                      r.survey.to_dict() if r.survey is not None else r.estimate.to_dict())
    return results, bundle



def _warn_subgroups(warning) -> None:
    """Exact subgroup counts of a released or protected column: say so before they are shown."""
    if warning is None:
        return
    import sys

    hint = (f" Add --min-group-size {warning.threshold} to leave them out." if warning.small_groups else "")
    print(f"warning: {warning.headline} {warning.groups_text}{hint}", file=sys.stderr)



def cmd_protect(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.sharing.column_protection import protected_columns, protection, set_protected_columns

    with Project.open(args.project) as project:
        if args.columns or args.clear:
            known = {c for d in project.datasets() for c in d.columns}
            unknown = [c for c in args.columns if known and c not in known]
            if unknown:
                raise DataError(f"The project's data has no column {unknown[0]!r}; its columns are "
                                f"{', '.join(sorted(known)[:20])}.")
            set_protected_columns(project, ([] if args.clear else protected_columns(project)) + list(args.columns))
        settings = protection(project)
    if not settings.reasons:
        print("No protected columns.")
    for column, why in settings.reasons.items():
        print(f"{column}: {why}")
    print(f"Subgroups smaller than {settings.min_group} are offered to be left out.")
    return 0



def _style_option(p, more: str = "") -> None:
    p.add_argument("--style", default="percent:1", metavar="UNIT:DECIMALS",
                   help="number style, as for report: percent:1 (default), percent:2, proportion:3, ..."
                        + (f"; {more}" if more else ""))



def _fmt(x, style=None) -> str:
    """A share in the number style (``25.9%`` or ``.259``); ``-`` for none."""
    from dpdesk.project.number_style import DEFAULT

    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return (style or DEFAULT).share_in_text(x)



def print_table(rows: list[dict], style=None) -> None:
    from dpdesk.project.number_style import NumberStyle

    if not rows:
        return
    cols = [c for c in rows[0] if c not in ("design", "CI method", "confidence", "note", "test")
            or c == "test" and "part" in rows[0]]  # the non-adherence table's test: G² = 0.42, df = 1
    cells = [[c for c in cols]]
    for r in rows:
        line = []
        for c in cols:
            v = r.get(c)
            if c in ("estimate", "SE", "CI low", "CI high", "pooled estimate"):  # the SE in the unit of its estimate
                line.append(_fmt(v, style))
            elif c == "p-value" or c.startswith("p-value ("):
                line.append("-" if v is None else NumberStyle.p(v))  # APA: .923, < .001
            elif c in ("local epsilon", "statistic"):
                line.append("-" if v is None else NumberStyle.number(v))
            elif c == "design effect":  # two decimals, as the Results view
                line.append("-" if v is None or not math.isfinite(v) else NumberStyle.number(v))
            elif c == "effective n":  # a whole number of respondents' worth
                line.append("-" if v is None or not math.isfinite(v) else NumberStyle.count(round(v)))
            else:
                line.append("-" if v is None else str(v))
        cells.append(line)
    widths = [max(len(row[i]) for row in cells) for i in range(len(cols))]
    for k, row in enumerate(cells):
        print("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))))
        if k == 0:
            print("  ".join("-" * w for w in widths))



def _keyed_tables(bundle, results) -> dict:
    """The tables for ``--json``: every row keeps the item's short name (``name``) and the category
    (``category``) beside the human label ``item`` (``result_tables``' ``keys=True``)."""
    from dpdesk.project.analysis.result_tables import estimate_rows, subgroup_rows, subgroup_test_rows

    tables = bundle.to_dict()["tables"]
    from dpdesk.project.analysis.adherence import TABLE, adherence_rows, subgroup_adherence_rows

    keyed = {"Estimates": estimate_rows(results, keys=True), TABLE: adherence_rows(results, keys=True)}
    for name in tables:
        if name.startswith(f"{TABLE} by "):
            keyed[name] = subgroup_adherence_rows(results, keys=True)
        elif name.startswith("By "):
            keyed[name] = subgroup_rows(results, keys=True)
        elif name.startswith("Tests by "):
            keyed[name] = subgroup_test_rows(results, keys=True)
    return {name: keyed.get(name, rows) for name, rows in tables.items()}


def cmd_estimate(args) -> int:
    style = parse_style(args.style)
    results, bundle = _run_analysis(args)
    failed = [r for r in results if r.estimate is None]
    if args.json:
        print(json_out.dumps(_keyed_tables(bundle, results)))
    else:
        for name, rows in bundle.tables.items():
            print(f"\n{name}")
            print_table(rows, style)
        print()
        from dpdesk.project.analysis.result_tables import missing_note, subgroup_adjust_note, subgroup_test_sentences

        by = next((r.by for r in results if r.by), None)
        wave_note = next((r.wave_note for r in results if r.wave_note), "")
        for line in (wave_note, missing_note(results), subgroup_adjust_note(results),
                     *subgroup_test_sentences(results, by)):
            if line:
                print(line)
        from dpdesk.project.analysis.adherence import adherence, subgroup_adherence
        from dpdesk.project.report.document import sentence

        for r in results:
            print(sentence(r, style))  # the report's sentence, in the same number style
            test = adherence(r)  # an ECWM item: its two versions and the non-adherence test
            if test is not None:
                print(f"  {'WARNING: ' if test.rejects else ''}{test.sentence()}")
                print(f"  {test.versions_sentence(style)}")
            for group, sub in subgroup_adherence(r):  # and within each subgroup
                print(f"  {r.by_label} = {group}: {'WARNING: ' if sub.rejects else ''}{sub.sentence()}")
            for note in (r.estimate.notes if r.estimate is not None else ()):
                print(f"  note: {note}")
            if r.left_out_sentence():
                print(f"  ({r.left_out_sentence()})")
    return 1 if failed and len(failed) == len(results) else 0



def cmd_export(args) -> int:
    from dpdesk.project import export_results

    style = parse_style(args.style)
    _results, bundle = _run_analysis(args)
    written = export_results(bundle, args.out, percent=style.percent)
    for path in written if isinstance(written, (list, tuple)) else [args.out]:
        print(f"Wrote {path}")
    return 0



def build_demo(outdir) -> dict:
    from dpdesk.project.reading.importing import import_file

    """Build the example project in ``outdir`` and export its results; return the paths."""
    from dpdesk.project import Project, export_results
    from dpdesk.project.analysis.estimates import analyze, results_bundle
    from dpdesk.project.example import add_example_items, example_folder, write_example

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    csv = example_folder() / "students.csv"
    if not csv.exists():  # an installed copy without the source tree: regenerate (fixed seed)
        csv = write_example(outdir / "example-data")
    path = outdir / "example.dpdesk"
    for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if stale.exists():
            stale.unlink()
    with Project.create(path) as project:
        import_file(project, csv, name="students")
        add_example_items(project)
        results = analyze(project, by="faculty")
        bundle = results_bundle(project, results)
        xlsx = outdir / "example-results.xlsx"
        export_results(bundle, xlsx)
        export_results(bundle, outdir / "example-results.csv", repro=False)
    return {"project": path, "xlsx": xlsx, "results": results, "bundle": bundle}



def cmd_demo(args) -> int:
    out = build_demo(args.outdir)
    print(f"Example project: {out['project']}")
    for name, rows in out["bundle"].tables.items():
        print(f"\n{name}")
        print_table(rows)
    print()
    for r in out["results"]:
        print(r.sentence())
    print(f"\nResults written to {out['xlsx']} (and .csv files and a reproducibility script beside it).")
    folder = Path(out["xlsx"]).parent
    if shutil.which("xdg-open") is None:
        print(f"Open the folder {folder.resolve()} to see them.")
    return 0

