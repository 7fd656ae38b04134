"""The item command: a randomized-response item's design, randomizer and mapping in a dataset."""

from __future__ import annotations

import json
import math
from dataclasses import replace

from dpdesk.errors import DataError, DesignError


def register(sub) -> None:
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
    p.add_argument("--question-b2", default="", metavar="TEXT",
                   help="the extended crosswise model (--design ecwm): version 2's question B, whose share of 'yes' "
                   "is 1 - p (for example 'Is your mother's birthday between April and December?')")
    p.add_argument("--randomizer", choices=("exact", "coins", "die", "cards"),
                   help="the randomizer respondents hold, so every language's instructions say how to draw it: "
                   "exact (any private randomizer with the design's probabilities, e.g. a random-number app), or "
                   "for forced response the fewest coins, a die or a deck of cards giving them exactly. With "
                   "--design for a new item; alone, for an existing item")
    p.set_defaults(func=cmd_item)



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
    if args.question_b2.strip() and d.name != "ecwm":
        raise DesignError(f"--question-b2 is version 2's question B of the extended crosswise model (--design "
                          f"ecwm); {d.name!r} has one question B.")
    with Project.open(args.project) as project:
        if codes and args.column and not args.option_column:
            _check_codes_against_data(project, d, args.column, codes, args.dataset)
        with project.transaction():
            project.add_item(args.name, stored, column=column, codes=codes, group_column=args.group_column,
                             group_codes=group_codes, question=args.question, dataset=args.dataset)
            if args.question_b.strip():
                from dpdesk.project.fielding.store import set_item_text

                set_item_text(project, args.name, "question_b", args.question_b)
            if args.question_b2.strip():
                from dpdesk.project.fielding.store import set_item_text

                set_item_text(project, args.name, "question_b2", args.question_b2)
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
    from dpdesk.mechanisms.rr.wording import randomizer_sentence
    from dpdesk.project import Project
    from dpdesk.project.fielding.devices import device_for

    if args.param or args.question or args.question_b or args.question_b2:
        raise DesignError("--param, --question and --question-b(2) belong to a new item (with --design).")
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
    from dpdesk.project.study.active import dataset_named
    from dpdesk.project.analysis.estimates import item_counts, stored_table

    if args.param or args.question or args.question_b or args.question_b2 or args.randomizer:
        raise DesignError("--param, --question, --question-b(2) and --randomizer belong to a new item (with --design); "
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



def _check_codes_against_data(project, d, column: str, codes: dict, dataset: str | None = None) -> None:
    """Refuse codes that contradict the dataset's value labels (nothing is stored)."""
    from dpdesk.project.analysis.estimates import stored_table
    from dpdesk.project.mapping.answer_labels import check

    if not project.datasets():
        return
    table = stored_table(project, dataset)
    if column in table.frame.columns:
        check(d, codes, table.report.value_labels.get(column, {}), column, f"{table.source.name}: ")

