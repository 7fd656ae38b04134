"""``dpdesk share``: check how identifiable the data is and write a safer extract.

See docs/guide/sharing.md. The stored data is never changed; the extract is a new file
with a disclosure report beside it (or as a second sheet of an .xlsx file).
"""

from __future__ import annotations

import argparse
import sys

from dpdesk.cli import json_out
from dpdesk.errors import DataError

HELP = """\
Checks k-anonymity over the quasi-identifiers (and l-diversity and t-closeness of the
sensitive columns), applies the remedies you ask for in this order -- --generalize,
--drop, --suppress-cells, --suppress-records, --pseudonymize -- rerunning the checks
after each, and writes the extract (.csv, .xlsx or .sav) with a disclosure report.
Without OUT it only prints the checks. Direct identifiers are left out unless
pseudonymised. Randomized-response columns are protected at the source and not
checked as sensitive unless --include-rr.

Rules for --generalize COLUMN=RULE: bands:10 | bands:18,30,45,65 | top:90 | bottom:16 |
month | year | rare:10 | prefix:3.

Pseudonyms (FF1 format-preserving encryption, NIST SP 800-38G) keep the format: the
same value gives the same pseudonym under the same key and --context, digits stay
digits. Values that do not fit (under a million possible values, e.g. fewer than 6
digits, or stray characters) stop the command with their rows (or are
left blank with --invalid blank); they are never passed through. Cautions: the format
(length, alphabet) is visible, equal values stay equal, and timestamps and other
metadata are not encrypted. The key is never written into the project or the extract;
keep the key file apart from the data.

Example: dpdesk share survey.dpdesk --quasi age sex region --sensitive drug_use --k 5
         --generalize age=bands:10 --suppress-records --pseudonymize student_no
         --new-key ~/keys/survey.key shared.csv"""


class _Intermixed(argparse.ArgumentParser):
    """Options and the positional OUT in any order (``dpdesk share P --k 5 OUT``)."""

    _inner = False

    def parse_known_args(self, args=None, namespace=None):
        if self._inner:
            return super().parse_known_args(args, namespace)
        self._inner = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._inner = False


def register(sub) -> None:
    saved = sub._parser_class
    sub._parser_class = _Intermixed
    try:
        p = sub.add_parser("share", help="check disclosure risk and write a safer extract to share",
                           description=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    finally:
        sub._parser_class = saved
    p.add_argument("project")
    p.add_argument("out", nargs="?", metavar="OUT", help="the extract to write (.csv, .xlsx or .sav)")
    p.add_argument("--quasi", nargs="+", metavar="COLUMN",
                   help="quasi-identifiers (default: those proposed by --roles)")
    p.add_argument("--sensitive", nargs="*", metavar="COLUMN", help="sensitive columns (default: proposed)")
    p.add_argument("--identifiers", nargs="*", metavar="COLUMN",
                   help="direct identifiers, left out unless pseudonymised (default: proposed)")
    p.add_argument("--k", default="5", help="k of k-anonymity (default 5)")
    p.add_argument("--l", default="2", help="l of l-diversity (default 2; 0 to skip)")
    p.add_argument("--entropy-l", action="store_true", help="judge l by entropy l instead of distinct values")
    p.add_argument("--t", help="t of t-closeness, 0..1 (default: report the largest t, no threshold)")
    p.add_argument("--nominal", nargs="+", default=[], metavar="COLUMN",
                   help="sensitive columns to compare with the equal (nominal) distance even if numeric")
    p.add_argument("--include-rr", action="store_true",
                   help="also check randomized-response columns as sensitive")
    p.add_argument("--generalize", action="append", default=[], metavar="COLUMN=RULE")
    p.add_argument("--drop", nargs="+", default=[], metavar="COLUMN", help="columns to leave out")
    p.add_argument("--suppress-cells", nargs="+", default=[], metavar="COLUMN",
                   help="blank these quasi-identifiers in records of classes below k")
    p.add_argument("--suppress-records", action="store_true", help="remove the records in classes below k")
    p.add_argument("--pseudonymize", nargs="+", default=[], metavar="COLUMN",
                   help="identifier columns to replace by FF1 pseudonyms (needs --key-file or --new-key)")
    key = p.add_mutually_exclusive_group()
    key.add_argument("--key-file", metavar="F", help="file holding the key (hex)")
    key.add_argument("--new-key", metavar="F", help="make a new random key and write it to F (never overwritten)")
    p.add_argument("--alphabet", default="auto", choices=["auto", "digits", "upper", "lower", "alnum"],
                   help="characters of the pseudonymised values (default: the smallest that fits)")
    p.add_argument("--context", default="dpdesk",
                   help="pseudonym context: the same key and context give the same pseudonyms (default dpdesk)")
    p.add_argument("--invalid", default="raise", choices=["raise", "blank"],
                   help="values that do not fit the format: stop (default) or leave blank and report")
    p.add_argument("--dataset", help="dataset name (default: the latest import)")
    p.add_argument("--roles", action="store_true", help="show the proposed role of every column and stop")
    p.add_argument("--json", action="store_true", help="print the final checks as JSON")
    p.set_defaults(func=cmd_share)


_LISTS = ("quasi", "sensitive", "identifiers", "nominal", "drop", "suppress_cells", "pseudonymize")


def _rescue_out(args, columns) -> None:
    """OUT written last after a list option (``--quasi age sex OUT.csv``) was taken for a column: move it."""
    if args.out is not None:
        return
    for name in _LISTS:
        values = getattr(args, name) or []
        last = values[-1] if values else None
        if last and str(last).lower().endswith((".csv", ".xlsx", ".sav")) and last not in columns:
            args.out = last
            setattr(args, name, values[:-1])
            return


def _rules(items: list[str]) -> list[tuple[str, str]]:
    out = []
    for item in items:
        column, sep, rule = item.partition("=")
        if not sep or not column or not rule:
            raise DataError(f"--generalize {item!r}: write COLUMN=RULE, e.g. age=bands:10 or visit=month.")
        out.append((column, rule))
    return out


def _number(text, what: str, cast):
    try:
        return cast(text)
    except (TypeError, ValueError):
        raise DataError(f"{what} must be a number (got {text!r}).") from None


def cmd_share(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.sharing import pseudonymize as pz
    from dpdesk.project.analysis.estimates import stored_table
    from dpdesk.project.sharing.writing import export_extract, report_rows, report_text
    from dpdesk.project.sharing.extract import Extract, report_labels
    from dpdesk.project.sharing.checks import IDENTIFIER, QUASI, SENSITIVE, ShareOptions, default_roles, rr_columns

    with Project.open(args.project) as project:
        table = stored_table(project, args.dataset)
        protected = rr_columns(project)
    frame, report = table.frame, table.report
    _rescue_out(args, set(map(str, frame.columns)))
    roles = default_roles(frame, report, protected)
    if args.roles:
        for excluded in report.excluded_columns:
            print(f"{excluded['column']:<24} left out at import ({excluded['reason']})")
        for r in roles.values():
            print(f"{r.column:<24} {r.role:<17} {r.reason}")
        return 0
    pick = lambda role: [c for c, r in roles.items() if r.role == role]  # noqa: E731
    quasi = args.quasi if args.quasi is not None else pick(QUASI)
    if not quasi:
        raise DataError("No quasi-identifiers were given or recognised. Name them with --quasi (the columns an "
                        "outsider could know: age, sex, region, dates); --roles lists the columns.")
    sensitive = args.sensitive if args.sensitive is not None else pick(SENSITIVE)
    identifiers = args.identifiers if args.identifiers is not None else pick(IDENTIFIER)
    identifiers = [c for c in identifiers if c not in quasi and c not in sensitive]
    identifiers = list(dict.fromkeys(identifiers + [c for c in args.pseudonymize if c not in quasi + sensitive]))
    l_value = _number(args.l, "--l", int)
    options = ShareOptions(quasi=list(quasi), sensitive=list(sensitive), k=args.k, l=l_value or None,
                           entropy_l=args.entropy_l, t=None if args.t is None else _number(args.t, "--t", float),
                           ordered={c: False for c in args.nominal}, protected=protected,
                           include_protected=args.include_rr)
    from dpdesk.mechanisms.disclosure import check_k

    options.k = check_k(options.k)
    extract = Extract(frame, options, identifiers=identifiers, labels=report_labels(report))
    if args.pseudonymize and not (args.key_file or args.new_key):
        raise DataError("--pseudonymize needs a key: --key-file F (an existing key) or --new-key F (make one).")
    if (args.key_file or args.new_key) and not args.pseudonymize:
        raise DataError("A key was given but no column to pseudonymise; add --pseudonymize COLUMN.")
    key = None
    if args.pseudonymize:
        key = pz.read_key(args.key_file) if args.key_file else None
    for column, rule in _rules(args.generalize):
        extract.generalize(column, rule)
    for column in args.drop:
        extract.drop(column)
    for column in args.suppress_cells:
        extract.suppress_cells(column)
    if args.suppress_records:
        extract.suppress_records()
    if args.pseudonymize:
        if key is None:  # the new key is made only once every earlier step worked
            key = pz.read_key(pz.generate_key(args.new_key))
            print(f"New key written to {args.new_key}. Keep it apart from the data; it is not stored anywhere else.",
                  file=sys.stderr if args.json else sys.stdout)
        for column in args.pseudonymize:
            extract.pseudonymize(column, key, alphabet=args.alphabet, context=args.context, invalid=args.invalid,
                                 row_offset=report.first_data_row)
    source = table.source.name
    if args.json:
        print(json_out.dumps({"checks": dict(extract.result.summary()), "passes": extract.result.passes,
                          "steps": [s.description for s in extract.steps],
                          "options": options.to_dict()}, indent=2, ensure_ascii=False))
    else:
        print(report_text(report_rows(extract, source=source, dataset=args.dataset,
                                      at_import=report.excluded_columns)), end="")
    if args.out:
        written = export_extract(extract, args.out, source=source, dataset=args.dataset,
                                 at_import=report.excluded_columns)
        from dpdesk.project.sharing.column_protection import save_sharing_settings

        with Project.open(args.project) as project:  # the subgroup check warns about these columns
            save_sharing_settings(project, k=options.k, quasi=options.quasi, sensitive=options.sensitive,
                                  pseudonymised={c: pz.METHOD for c in extract.pseudonymised})
        if not args.json:
            print("Wrote " + " and ".join(str(p) for p in written) + ".")
    return 0
