"""Commands for projects and their data: new, recover, import, datasets, label."""

from __future__ import annotations


from dpdesk.cli import json_out
from dpdesk.errors import DataError


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
    heading = p.add_mutually_exclusive_group()
    heading.add_argument("--header-rows", type=int, help="number of header rows (default: detected)")
    heading.add_argument("--no-header", action="store_true",
                         help="the file has no header row: the first row is a respondent; columns are named "
                              "column_1, column_2, ... (the same as --header-rows 0)")
    p.add_argument("--platform", help="survey platform (qualtrics, surveymonkey, limesurvey, redcap)")
    p.add_argument("--counts", action="store_true", help="the file is an aggregated counts table")
    p.add_argument("--keep-identifiers", action="store_true", help="keep columns detected as direct identifiers")
    p.add_argument("--json", action="store_true", help="print the import report as JSON")
    from dpdesk.cli import linking

    linking.add_arguments(p)
    p.set_defaults(func=cmd_import)


    p = sub.add_parser("datasets", help="list the project's datasets, or choose the active one",
                       description="Every analysis, release and extract uses the active dataset.")
    p.add_argument("project")
    p.add_argument("--use", metavar="NAME", help="make the dataset NAME the active one")
    p.add_argument("--verify", metavar="NAME", help="check a linked dataset's files against its fingerprint "
                   "(reads every byte)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_datasets)


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
    if getattr(args, "no_header", False):
        overrides["header_rows"] = 0
    if args.counts:
        overrides["kind"] = "counts"
    if args.keep_identifiers:
        overrides["keep_identifiers"] = True
    return overrides



from dpdesk.project.reading.importing import import_file  # noqa: E402 - shared with the app's import dialog



def cmd_import(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.study.active import active_dataset

    if args.link or args.relink:
        from dpdesk.cli.linking import cmd_link

        return cmd_link(args)
    from dpdesk.cli.linking import _check_flags

    _check_flags(args)
    with Project.open(args.project) as project:
        before = active_dataset(project)
        table = import_file(project, args.file, name=args.name, replace=args.replace, use=args.use,
                            **_import_overrides(args))
        now = active_dataset(project)
    r = table.report
    if args.json:
        print(json_out.dumps({**table.to_dict(), "mapped automatically": table.auto_mapped}, indent=2, default=str))
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
    from dpdesk.project.study.active import active_dataset, set_active_dataset

    from dpdesk.cli.linking import dataset_fields, verify

    with Project.open(args.project) as project:
        if args.use:
            set_active_dataset(project, args.use)
        if args.verify:
            found = verify(project, args.verify)
            if found:
                raise DataError(f"The linked source of {args.verify!r} changed since it was linked: "
                                f"{'; '.join(found[:5])}. Releases from it are refused until it is restored or "
                                f"relinked (dpdesk import PROJECT SOURCE --link --relink {args.verify}).")
            print(f"{args.verify!r}: the files match the recorded fingerprint.")
            return 0
        active = active_dataset(project)
        sets = project.datasets()
        items = project.items()
    rows = [{"name": d.name, "rows": d.n_rows, "columns": len(d.columns), "file": d.source_name,
             "imported": d.imported_at, "active": active is not None and d.id == active.id,
             "items mapped": [it.name for it in items if d.name in it.mappings]} | dataset_fields(d) for d in sets]
    if args.json:
        print(json_out.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print("No data yet. Import a file with: dpdesk import PROJECT FILE")
    for r in rows:
        mapped = f"; {len(r['items mapped'])} of {len(items)} items mapped" if items else ""
        where = (f" linked with {r['engine']} from {r['source']} ({r['files']} file(s), not copied)" if r.get("linked")
                 else f"{' from ' + r['file'] if r['file'] else ''}, imported {r['imported']}")
        print(f"{'*' if r['active'] else ' '} {r['name']}: {r['rows']} rows, {r['columns']} columns{where}{mapped}")
    if rows:
        print(f"* active: analyses, releases and extracts use {active.name!r}.")
    return 0



def cmd_label(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.study.active import dataset_named
    from dpdesk.project.analysis.estimates import stored_table
    from dpdesk.project.study.labels import labels_of, parse_value_labels

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

