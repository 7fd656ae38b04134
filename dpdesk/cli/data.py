"""Commands for projects, data and estimates: new, import, item, estimate, export, demo."""

from __future__ import annotations

import json
import math
import shutil
import sys
from dataclasses import replace
from pathlib import Path

from dpdesk.cli.style import parse_style
from dpdesk.cli.survey import add_design_options, design_from_args
from dpdesk.errors import DataError, DesignError


def register(sub) -> None:
    p = sub.add_parser("new", help="create a new project file", description="Create a new, empty .dpdesk project.")
    p.add_argument("project", help="path of the new .dpdesk file")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("recover", help="recover a project left with an unfinished change into a copy",
                       description="A project sent or left with a rollback journal beside it (PROJECT-journal) is "
                       "never changed on open. This copies the file and its journal to COPY, lets SQLite roll the "
                       "copy back, and checks it; the original stays as it is.")
    p.add_argument("project")
    p.add_argument("copy", help="path of the new, recovered .dpdesk file")
    p.set_defaults(func=cmd_recover)

    p = sub.add_parser("import", help="import a data file into a project",
                       description="Import CSV/TSV, Excel, SPSS, Stata, survey-platform exports or a counts table. "
                       "Direct identifiers (e-mail, IP address, names, ...) are left out unless kept explicitly.")
    p.add_argument("project")
    p.add_argument("file")
    p.add_argument("--name", help="dataset name (default: the file name)")
    placing = p.add_mutually_exclusive_group()
    placing.add_argument("--replace", action="store_true",
                         help="replace the active dataset (a corrected export of the same respondents)")
    placing.add_argument("--use", action="store_true",
                         help="keep it beside the other data and make it the active dataset")
    p.add_argument("--sheet", help="Excel sheet to read")
    p.add_argument("--encoding", help="text encoding, e.g. utf-8 or cp1252 (default: detected)")
    p.add_argument("--delimiter", help="field separator, e.g. ';' (default: detected)")
    p.add_argument("--decimal", help="decimal mark, '.' or ',' (default: detected)")
    p.add_argument("--header-rows", type=int, help="number of header rows (default: detected)")
    p.add_argument("--platform", help="survey platform (qualtrics, surveymonkey, limesurvey, redcap)")
    p.add_argument("--counts", action="store_true", help="the file is an aggregated counts table")
    p.add_argument("--keep-identifiers", action="store_true", help="keep columns detected as direct identifiers")
    p.add_argument("--json", action="store_true", help="print the import report as JSON")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("datasets", help="list the project's datasets, or choose the active one",
                       description="Every analysis, release and extract uses the active dataset.")
    p.add_argument("project")
    p.add_argument("--use", metavar="NAME", help="make the dataset NAME the active one")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_datasets)

    p = sub.add_parser("item", help="add a randomized-response item, or map an item in a dataset",
                       description="Add an RR item: its design and parameters, the column holding its answers and "
                       "the codes of each response. Example: dpdesk item P.dpdesk cheating --design forced "
                       "--param p_truth=0.5 --param p_yes=0.25 --param p_no=0.25 --column q7 "
                       "--codes yes=Yes,Ja,1 --codes no=No,Nein,0. Without --design, map an existing item in "
                       "a dataset, leaving its design alone: dpdesk item P.dpdesk cheating --dataset wave2 "
                       "--column Q7_w2 --codes yes=1 --codes no=2")
    p.add_argument("project")
    p.add_argument("name", help="item name")
    p.add_argument("--design", help="design name (warner, forced, crosswise, sld, ..., or dice_sum: forced response "
                   "with dice added up); leave it out to map an "
                   "existing item")
    p.add_argument("--dataset", help="the dataset this mapping is for (default: the active one)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a design parameter (repeat); values are numbers (0.25 or 1/6) or JSON lists")
    p.add_argument("--column", help="the data column with the item's answers")
    p.add_argument("--codes", action="append", default=[], metavar="RESPONSE=CODE,CODE",
                   help="codes of one response (repeat for each response)")
    p.add_argument("--group-column", help="column holding the randomization group (two-group designs)")
    p.add_argument("--group-codes", action="append", default=[], metavar="GROUP=CODE,CODE",
                   help="codes of one group (repeat: 1=... and 2=...)")
    p.add_argument("--option-column", action="append", default=[], metavar="OPTION=COLUMN",
                   help="unary (multi-select) items: the 0/1 tick column of one option (repeat for each option)")
    p.add_argument("--missing-codes", nargs="+", metavar="CODE",
                   help="codes counted as missing answers in this dataset (e.g. 98 99), instead of the file's "
                   "own user-missing codes")
    p.add_argument("--question", default="", help="the question text")
    p.add_argument("--label", help="a short label for tables and plots (default: the question)")
    p.add_argument("--force", action="store_true",
                   help="add the item even though its design protects no one (every answer reveals the truth)")
    p.add_argument("--question-b", default="", metavar="TEXT",
                   help="two-question designs (crosswise, triangular, unrelated question): the harmless "
                   "question B, as respondents read it")
    p.add_argument("--randomizer", choices=("exact", "coins", "die", "cards"),
                   help="the randomizer respondents hold, so every language's instructions say how to draw it: "
                   "exact (any private randomizer with the design's probabilities, e.g. a random-number app), or "
                   "for forced response the fewest coins, a die or a deck of cards giving them exactly. With "
                   "--design for a new item; alone, for an existing item")
    p.set_defaults(func=cmd_item)

    p = sub.add_parser("label", help="label a column (or an item) with words readers recognise",
                       description="Give a data column a label (its question) and value labels, or an item a "
                       "short label. Output (tables, plots, reports, workbooks) shows labels; the column's name "
                       "stays its identifier. Example: dpdesk label P.dpdesk Q3 \"Gender\" --value 1=Female "
                       "--value 2=Male. Without TEXT it shows the labels.")
    p.add_argument("project")
    p.add_argument("column", help="the column's name (or the item's name, with --item)")
    p.add_argument("text", nargs="?", help="the label (\"\" removes the researcher's label)")
    p.add_argument("--value", action="append", default=[], metavar="CODE=TEXT",
                   help="a value label (repeat for each code); replaces the column's value labels")
    p.add_argument("--item", action="store_true", help="COLUMN names an item: set its short label")
    p.add_argument("--dataset", help="dataset name (default: the active one)")
    p.set_defaults(func=cmd_label)

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


# ----------------------------------------------------------------------------- commands


def cmd_new(args) -> int:
    from dpdesk.project import Project

    Project.create(args.project).close()
    print(f"Created {args.project}")
    return 0


def cmd_recover(args) -> int:
    from dpdesk.project import Project, ledger

    copy = Project.recover_copy(args.project, args.copy)
    with Project.open(copy) as project:
        check = ledger.verify_ledger(project)
    print(f"Recovered {args.project} into {copy}: the unfinished change was rolled back in the copy; the original "
          f"and its journal are unchanged. {check.headline}")
    return 0


def _import_overrides(args) -> dict:
    keys = ("sheet", "encoding", "delimiter", "decimal", "header_rows", "platform")
    overrides = {k: getattr(args, k) for k in keys if getattr(args, k) is not None}
    if args.counts:
        overrides["kind"] = "counts"
    if args.keep_identifiers:
        overrides["keep_identifiers"] = True
    return overrides


from dpdesk.project.reading.importing import import_file  # noqa: E402 - shared with the app's import dialog


def cmd_import(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.active import active_dataset

    with Project.open(args.project) as project:
        before = active_dataset(project)
        table = import_file(project, args.file, name=args.name, replace=args.replace, use=args.use,
                            **_import_overrides(args))
        now = active_dataset(project)
    r = table.report
    if args.json:
        print(json.dumps({**table.to_dict(), "mapped automatically": table.auto_mapped}, indent=2, default=str))
        return 0
    print(f"Imported {table.source.name}: {r.n_rows} rows, {r.n_columns} columns ({r.format}"
          f"{', ' + r.platform if r.platform else ''}, encoding {r.encoding or 'n/a'}, "
          f"delimiter {r.delimiter!r}, decimal {r.decimal!r}, {r.header_rows} header row(s)).")
    for ex in r.excluded_columns:
        print(f"  left out column {ex['column']!r}: {ex['reason']}")
    for w in r.warnings:
        print(f"  note: {w}")
    for line in table.auto_mapped:
        print(f"  mapped automatically: {line}")
    if args.replace and before is not None:
        print(f"It replaces the data of {now.name!r}, which stays the active dataset. The project's privacy "
              "budget is unchanged: it covers these respondents whatever file they arrive in.")
    elif before is not None and now.name == before.name:
        print(f"Kept beside the other data; analyses and releases still use {now.name!r}. To use the new data: "
              "dpdesk datasets PROJECT --use NAME (or import with --use).")
    elif before is not None:
        print(f"Analyses and releases now use {now.name!r}.")
    return 0


def cmd_datasets(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.active import active_dataset, set_active_dataset

    with Project.open(args.project) as project:
        if args.use:
            set_active_dataset(project, args.use)
        active = active_dataset(project)
        sets = project.datasets()
        items = project.items()
    rows = [{"name": d.name, "rows": d.n_rows, "columns": len(d.columns), "file": d.source_name,
             "imported": d.imported_at, "active": active is not None and d.id == active.id,
             "items mapped": [it.name for it in items if d.name in it.mappings]} for d in sets]
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print("No data yet. Import a file with: dpdesk import PROJECT FILE")
    for r in rows:
        mapped = f"; {len(r['items mapped'])} of {len(items)} items mapped" if items else ""
        print(f"{'*' if r['active'] else ' '} {r['name']}: {r['rows']} rows, {r['columns']} columns"
              f"{' from ' + r['file'] if r['file'] else ''}, imported {r['imported']}{mapped}")
    if rows:
        print(f"* active: analyses, releases and extracts use {active.name!r}.")
    return 0


def _param_value(text: str):
    """A number, a JSON list or a fraction as people write a die's chances (``1/6`` -> 0.1666...)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    import re
    from fractions import Fraction

    if re.fullmatch(r"\s*\d+\s*/\s*[1-9]\d*\s*", text):
        return float(Fraction(text.replace(" ", "")))
    return text


def _pairs(values, what: str) -> dict:
    out = {}
    for v in values:
        if "=" not in v:
            raise DataError(f"{what} {v!r} must look like NAME=VALUE (for codes: yes=Yes,Ja,1).")
        key, _, rest = v.partition("=")
        out[key.strip()] = rest
    return out


def _codes(values, what: str) -> dict | None:
    pairs = _pairs(values, what)
    if not pairs:
        return None
    return {k: [_param_value(c.strip()) if c.strip().lstrip("-").isdigit() else c.strip() for c in v.split(",")]
            for k, v in pairs.items()}


DICE_PARAMS = ("dice", "sides", "yes", "no", "truth")


def _dice_sum(params: dict):
    """``--design dice_sum --param dice=2 --param sides=6 --param yes=[2,3,4] --param no=[11,12]``."""
    from dpdesk.mechanisms import rr

    unknown = [k for k in params if k not in DICE_PARAMS]
    if unknown:
        raise DesignError(f"Dice added up take --param {', '.join(DICE_PARAMS)}, not {unknown[0]!r}; for example "
                          f"--param dice=2 --param sides=6 --param yes=[2,3,4] --param no=[11,12].")
    return rr.randomizers.dice_sum(**params)


NO_PRIVACY = ("This design protects no one: every answer it allows reveals the respondent's true answer, "
              "exactly as if the question were asked directly.")


def cmd_item(args) -> int:
    from dpdesk.mechanisms import rr
    from dpdesk.project import Project

    if args.design is None and args.label is not None and not (args.column or args.codes or args.option_column):
        with Project.open(args.project) as project:  # only the short label of an existing item
            project.set_item_label(args.name, args.label)
        print(f"Output calls {args.name!r} {args.label!r} now." if args.label else
              f"Output calls {args.name!r} by its question now.")
        return 0
    if args.design is None and args.randomizer and not (args.column or args.codes or args.option_column):
        return _set_randomizer(args)
    if args.design is None:
        return _map_item(args)
    from dpdesk.project.fielding.texts import TWO_QUESTIONS

    params = {k: _param_value(v) for k, v in _pairs(args.param, "--param").items()}
    stored = d = _dice_sum(params) if args.design == "dice_sum" else rr.design(args.design, **params)
    if args.design == "dice_sum":  # forced response with dice added up: the dice are kept with the design
        d = stored.build()
    if d.protects_no_one and not args.force:
        raise DesignError(NO_PRIVACY + " Change the parameters so that some outcomes force an answer, or add "
                          "--force to add the item anyway.")
    if args.randomizer:
        from dpdesk.project.fielding.devices import device_for

        if args.design == "dice_sum":
            raise DesignError("--design dice_sum keeps its dice already: leave out --randomizer.")
        stored = {**d.to_dict(), "randomizer": device_for(d, args.randomizer, args.name)}  # as the wizard keeps it
    column, codes, group_codes = _mapping_args(args, d)
    if args.question_b.strip() and d.name not in TWO_QUESTIONS:
        raise DesignError(f"--question-b is for the two-question designs ({', '.join(TWO_QUESTIONS)}); "
                          f"{d.name!r} asks one question.")
    with Project.open(args.project) as project:
        if codes and args.column and not args.option_column:
            _check_codes_against_data(project, d, args.column, codes, args.dataset)
        with project.transaction():
            project.add_item(args.name, stored, column=column, codes=codes, group_column=args.group_column,
                             group_codes=group_codes, question=args.question, dataset=args.dataset)
            if args.question_b.strip():
                from dpdesk.project.fielding.store import set_item_text

                set_item_text(project, args.name, "question_b", args.question_b)
        if args.missing_codes and column and codes and project.datasets():
            project.update_item(args.name, dataset=args.dataset, missing_codes=_missing_codes(args))
        if args.label:
            project.set_item_label(args.name, args.label)
        item = project.item(args.name, args.dataset)
    eps = d.epsilon
    print(f"Added item {args.name!r}: {d.summary}; local epsilon {'infinite' if math.isinf(eps) else f'{eps:.3f}'}.")
    if column is None:
        print(f"No data column yet: field it with `dpdesk field {args.project} OUT --format FORMAT`, and the "
              "answers you import map themselves.")
    if column and item.dataset is not None and not item.mapped:
        print(f"  note: the dataset {item.dataset!r} has no column {column!r}, so the item is not mapped there; "
              f"an import with that column maps it by itself (or: dpdesk item PROJECT {args.name} --dataset DS "
              "--column ... --codes ...).")
    return 0


def _set_randomizer(args) -> int:
    """``dpdesk item PROJECT NAME --randomizer KIND``: keep a randomizer with an existing item's design."""
    from dpdesk.mechanisms.rr.wording_languages import randomizer_sentence
    from dpdesk.project import Project
    from dpdesk.project.fielding.devices import device_for

    if args.param or args.question or args.question_b:
        raise DesignError("--param, --question and --question-b belong to a new item (with --design).")
    with Project.open(args.project) as project:
        item = project.item(args.name)
        record = device_for(item.design, args.randomizer, args.name)
        stored = dict(item.design_record or item.design.to_dict())
        kept = stored.get("randomizer") if isinstance(stored.get("randomizer"), dict) else {}
        if kept.get("birthday_months"):  # question B's birthday months stay (every language writes them)
            record = {**record, "birthday_months": kept["birthday_months"]}
        project.update_item(args.name, design={**stored, "randomizer": record})
    print(f"{args.name!r} keeps its randomizer now; respondents read: {randomizer_sentence(record)}")
    return 0


def _map_item(args) -> int:
    """``dpdesk item PROJECT NAME --dataset DS --column ... --codes ...``: map an existing item, design untouched."""
    from dpdesk.project import Project
    from dpdesk.project.active import dataset_named
    from dpdesk.project.analysis import item_counts, stored_table

    if args.param or args.question or args.question_b or args.randomizer:
        raise DesignError("--param, --question, --question-b and --randomizer belong to a new item (with --design); "
                          "--randomizer alone keeps one with an existing item. To change an item's "
                          "design, edit it in the app's Design view.")
    with Project.open(args.project) as project:
        names = [it.name for it in project.items()]
        if args.name not in names:
            raise DesignError(f"The project has no item named {args.name!r} (it has: "
                              f"{', '.join(map(repr, names)) or 'none'}). To add it, give --design.")
        ds = dataset_named(project, args.dataset)
        item = project.item(args.name, ds.name)
        column, codes, group_codes = _mapping_args(args, item.design)
        if not column or not codes:
            raise DesignError(f"Give the column and the codes of {args.name!r} in {ds.name!r}: --column COLUMN "
                              f"--codes RESPONSE=CODE,CODE (one --codes per response).")
        mapping = {"column": column, "codes": codes, "group_column": args.group_column, "group_codes": group_codes,
                   "missing_codes": _missing_codes(args)}
        counted = item_counts(replace(item, **mapping), stored_table(project, ds.name))  # refuses a wrong column
        project.set_mapping(args.name, ds.name, **mapping)
    print(f"Mapped {args.name!r} in {ds.name!r} to the column {column!r}: {counted.n_used:,} answers used"
          + (f"; {counted.left_out_text()}" if counted.left_out_text() else "") + ". Its design is unchanged.")
    for problem in counted.problems:
        print(f"  note: {problem}")
    return 0


def _missing_codes(args) -> list | None:
    if not args.missing_codes:
        return None
    return [_param_value(c) if c.lstrip("-").isdigit() else c for c in args.missing_codes]


def _mapping_args(args, d):
    """The column, codes and group codes given with ``--column``/``--codes``/... for design ``d``."""
    codes = _codes(args.codes, "--codes")
    column = args.column
    if args.option_column:
        from dpdesk.project.mapping.unary import unary_codes

        if d.model != "unary":
            raise DesignError(f"--option-column is for unary (multi-select) items; {d.name!r} is not one.")
        columns = _pairs(args.option_column, "--option-column")
        missing = [c for c in d.categories if c not in columns]
        if missing:
            raise DesignError(f"--option-column gives no column for option(s) {missing}. Add "
                              f"--option-column {missing[0]}=COLUMN.")
        codes = unary_codes(columns)
        column = column or columns[d.categories[0]]
    elif codes is not None:
        from dpdesk.project.mapping.answer_labels import rename_keys

        codes = rename_keys(d, codes)  # --codes same=1 means the crosswise response "yes"
        missing = [r for r in d.responses if r not in codes]
        if missing and d.model != "unary":
            words = ", ".join(f"{r} ({d.label(r)!r})" if d.label(r).casefold() != r.casefold() else r
                              for r in d.responses)
            raise DesignError(f"--codes gives no codes for response(s) {missing} of the {d.name!r} design "
                              f"(responses: {words}). Add --codes {d.label(missing[0], short=True)}=CODE,...")
    group_codes = _codes(args.group_codes, "--group-codes")
    if d.groups == 2 and args.column and (not args.group_column or not group_codes):
        raise DesignError(f"The {d.name!r} design has two groups: give --group-column and --group-codes 1=... "
                          f"--group-codes 2=...")
    return column, codes, group_codes


def cmd_label(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.active import dataset_named
    from dpdesk.project.analysis import stored_table
    from dpdesk.project.labels import labels_of, parse_value_labels

    with Project.open(args.project) as project:
        if args.item:
            if args.text is not None:
                project.set_item_label(args.column, args.text)
            item = project.item(args.column)
            short = project.item_labels().get(item.name)
            print(f"{item.name}: {short or '(no short label; output uses its question)'}")
            return 0
        ds = dataset_named(project, args.dataset)
        table = stored_table(project, ds.name)
        if args.column not in table.frame.columns:
            raise DataError(f"The dataset {ds.name!r} has no column {args.column!r}; its columns are "
                            f"{', '.join(map(str, list(table.frame.columns)[:20]))}.")
        values = None
        if args.value:  # each CODE=TEXT, the code typed as the column holds it
            values = {}
            for text in args.value:
                values.update(parse_value_labels(text, table.frame[args.column], args.column))
        if args.text is not None or values is not None:
            project.set_column_label(ds.name, args.column, **({} if args.text is None else {"label": args.text}),
                                     **({} if values is None else {"value_labels": values}))
            table = stored_table(project, ds.name)
        labels = labels_of(table)
    print(labels.choice(args.column))
    for code, text in (labels.values.get(args.column) or {}).items():
        print(f"  {code} = {text}")
    return 0


def _check_codes_against_data(project, d, column: str, codes: dict, dataset: str | None = None) -> None:
    """Refuse codes that contradict the dataset's value labels (nothing is stored)."""
    from dpdesk.project.analysis import stored_table
    from dpdesk.project.mapping.answer_labels import check

    if not project.datasets():
        return
    table = stored_table(project, dataset)
    if column in table.frame.columns:
        check(d, codes, table.report.value_labels.get(column, {}), column, f"{table.source.name}: ")


def _run_analysis(args):
    from dpdesk.project import Project
    from dpdesk.project.analysis import analyze, results_bundle, stored_table, subgroup_warnings
    from dpdesk.project.subgroup_disclosure import check_results

    if args.min_group_size is not None and args.min_group_size < 1:
        raise DataError(f"--min-group-size must be at least 1 (got {args.min_group_size}).")
    with Project.open(args.project) as project:
        shown = (subgroup_warnings(stored_table(project, args.dataset), args.by, left_out_below=args.min_group_size)
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
    from dpdesk.project.column_protection import protected_columns, protection, set_protected_columns

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
    from dpdesk.project.report.number_style import NumberStyle

    if not rows:
        return
    cols = [c for c in rows[0] if c not in ("design", "CI method", "confidence", "note", "test")]
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


def cmd_estimate(args) -> int:
    style = parse_style(args.style)
    results, bundle = _run_analysis(args)
    failed = [r for r in results if r.estimate is None]
    if args.json:
        print(json.dumps(bundle.to_dict()["tables"], indent=2, default=str))
    else:
        for name, rows in bundle.tables.items():
            print(f"\n{name}")
            print_table(rows, style)
        print()
        from dpdesk.project.result_tables import missing_note, subgroup_adjust_note, subgroup_test_sentences

        by = next((r.by for r in results if r.by), None)
        for line in (missing_note(results), subgroup_adjust_note(results), *subgroup_test_sentences(results, by)):
            if line:
                print(line)
        from dpdesk.project.report.document import sentence

        for r in results:
            print(sentence(r, style))  # the report's sentence, in the same number style
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
    """Build the example project in ``outdir`` and export its results; return the paths."""
    from dpdesk.project import Project, export_results
    from dpdesk.project.analysis import analyze, results_bundle
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
