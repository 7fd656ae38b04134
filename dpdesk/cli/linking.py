"""``dpdesk import PROJECT SOURCE --link``: link a dataset too big to copy, and relink or verify it.

See docs/guide/linked-data.md. The options are added to the ``import`` command
(:func:`add_arguments`); ``dpdesk datasets`` shows linked datasets with their engine and source
(:func:`dataset_fields`) and checks one's files with ``--verify NAME`` (:func:`verify`).
"""

from __future__ import annotations

import json
import sys

from dpdesk.errors import DataError


def add_arguments(p) -> None:
    g = p.add_argument_group("linking a dataset too big to copy (docs: Data too big for one machine)")
    g.add_argument("--link", action="store_true",
                   help="link FILE (a Parquet or CSV file, a folder or a glob of them) without copying its rows; "
                   "releases aggregate it where it is")
    g.add_argument("--engine", choices=["duckdb", "spark"], default=None,
                   help="duckdb: on this machine, out of core (default); spark: on a Spark cluster "
                   "(pip install \"dpdesk[spark]\", Java 17+)")
    g.add_argument("--spark-master", metavar="URL",
                   help="Spark master: local[2] (default), spark://host:7077 or yarn (a cluster needs paths it "
                   "can see: hdfs://, s3a://)")
    g.add_argument("--relink", metavar="NAME",
                   help="record the linked dataset NAME's source as it is now, after it changed (written in the "
                   "ledger; the budget is unchanged); FILE may give its new place")
    g.add_argument("--types", nargs="+", metavar="COLUMN=TYPE",
                   help="a linked CSV's column types (DuckDB's: BIGINT, DOUBLE, VARCHAR, ...), instead of "
                   "detecting them from the whole file")
    g.add_argument("--quick", action="store_true",
                   help="skip the content fingerprint (reading every byte): only file sizes and times are recorded")


def _options(args) -> dict:
    opts = {k: getattr(args, k) for k in ("encoding", "delimiter", "decimal") if getattr(args, k, None) is not None}
    if args.types:
        types = {}
        for item in args.types:
            col, sep, typ = item.partition("=")
            if not sep or not col or not typ:
                raise DataError(f"--types takes COLUMN=TYPE pairs such as age=BIGINT; got {item!r}.")
            types[col] = typ.strip().upper()
        opts["types"] = types
    return opts


def _check_flags(args) -> None:
    if not (args.link or args.relink):
        for flag, value in (("--engine", args.engine), ("--spark-master", args.spark_master),
                            ("--types", args.types), ("--quick", args.quick)):
            if value:
                raise DataError(f"{flag} is for linking (--link); add --link to link FILE without copying it.")
    for flag, value in (("--sheet", args.sheet), ("--header-rows", args.header_rows), ("--platform", args.platform),
                        ("--counts", args.counts), ("--replace", args.replace),
                        ("--keep-identifiers", args.keep_identifiers)):
        if value and (args.link or args.relink):
            raise DataError(f"{flag} is for imports; a linked source is Parquet or CSV with a header row. Leave "
                            f"{flag} out, or import the file instead of linking it.")


def _progress(args):
    if args.json:
        return None
    last = {"text": None}

    def say(text, done=0, total=0):
        if text != last["text"]:
            last["text"] = text
            print(f"  {text}...", file=sys.stderr)

    return say


def cmd_link(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.linked import store

    _check_flags(args)
    with Project.open(args.project) as project:
        if args.relink:
            from dpdesk.project.ledger.relinks import relink

            entry = relink(project, args.relink, args.file if args.file not in (None, "", "-") else None,
                           progress=_progress(args), content=not args.quick)
            ds = next(d for d in project.datasets() if d.name == args.relink)
            out = dataset_fields(ds) | {"ledger_seq": entry.seq, "changes": entry.result.get("changes")}
            if args.json:
                print(json.dumps(out, indent=2, ensure_ascii=False))
                return 0
            print(f"Relinked {ds.name!r}: {store.describe(ds)}.")
            for change in entry.result.get("changes") or ():
                print(f"  {change}")
            print(f"Recorded in the ledger as #{entry.seq}; the privacy budget is unchanged.")
            return 0
        engine = args.engine or "duckdb"
        ds = store.link_dataset(project, args.file, name=args.name, engine=engine, master=args.spark_master,
                                options=_options(args), use=args.use, progress=_progress(args),
                                content=not args.quick)
    out = dataset_fields(ds)
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    print(f"Linked {ds.name!r} (not copied): {store.describe(ds)}, {len(ds.columns)} columns.")
    for name, reason in store.schema_of(ds).excluded:
        print(f"Left out the column {name!r}: a direct identifier ({reason}), as an import leaves it out.")
    fp = store.fingerprint_of(ds)
    print(f"  fingerprint {'of the content' if fp.content else 'of the files (sizes and times)'}: "
          f"{(fp.content or fp.quick)[:16]}...; checked before every release.")
    print(f"  release from it with: dpdesk release {args.project} --dataset {ds.name} ...")
    return 0


def dataset_fields(ds) -> dict:
    """The fields ``dpdesk datasets --json`` adds for a linked dataset (empty for an imported one)."""
    from dpdesk.project.linked import store

    if not store.is_linked(ds):
        return {}
    link, fp = store.link_of(ds), store.fingerprint_of(ds)
    return {"name": ds.name, "rows": ds.n_rows, "columns": len(ds.columns), "linked": True, "engine": link.engine,
            "spark_master": link.master, "source": link.source, "format": link.format, "files": len(fp.files),
            "bytes": sum(f.size for f in fp.files), "fingerprint": fp.content or fp.quick,
            "fingerprint_kind": "content" if fp.content else "files",
            "excluded_columns": [{"column": n, "reason": f"direct identifier: {r}"}
                                 for n, r in store.schema_of(ds).excluded]}


def verify(project, name: str) -> list[str]:
    """Check a linked source's files against the recorded fingerprint, reading every byte when it has one."""
    from dpdesk.project.linked import store
    from dpdesk.project.study.active import dataset_named

    ds = dataset_named(project, name)
    found = store.changes(project, name)
    if found:
        return found
    fp = store.fingerprint_of(ds)
    if fp.content:
        source = store.open_source(project, name)
        try:
            now = source.content_fingerprint()
        finally:
            source.close()
        if now.content != fp.content:
            return ["the content differs from the linked one (the files were rewritten with the same sizes and "
                    "times)"]
    return []
