"""``dpdesk text``: an item's respondent text in a language: show, write, review, print the card."""

from __future__ import annotations

from pathlib import Path

from dpdesk.cli import json_out


def register(sub) -> None:
    p = sub.add_parser(
        "text", help="show or edit an item's respondent text in a language, mark it reviewed, print its card",
        description="An item's respondent text (question, question B, instructions, answer options, card) in one "
        "language. Without edits it is shown; languages other than the one you wrote in are marked 'check with a "
        "native speaker before fielding' until --reviewed. Example: dpdesk text P.dpdesk cheating --language de "
        "--question 'Haben Sie ...?' --reviewed --by 'A. Müller' --card karte.pdf")
    p.add_argument("project")
    p.add_argument("item", help="item name")
    p.add_argument("--language", "-l", default=None, metavar="CODE",
                   help="en, de, fr, es, nl, it or pt (default: the language the items are written in)")
    p.add_argument("--question", help="the question in this language")
    p.add_argument("--question-b", help="the harmless question B (crosswise, triangular, unrelated question; "
                   "the extended crosswise model's version 1)")
    p.add_argument("--question-b2", help="the extended crosswise model: version 2's question B, whose share of "
                   "'yes' is the complement of version 1's")
    p.add_argument("--instructions", help="how to answer, in this language (replaces the generated sentences)")
    p.add_argument("--card-text", metavar="FILE", help="a UTF-8 text file with the whole card text in this language")
    p.add_argument("--options", nargs="+", metavar="LABEL",
                   help="the answer labels in this language, in the order the card prints them")
    p.add_argument("--generated", nargs="+", metavar="PART",
                   choices=("question", "question_b", "question_b2", "instructions", "card", "options"),
                   help="go back to dpdesk's generated text for these parts")
    review = p.add_mutually_exclusive_group()
    review.add_argument("--reviewed", action="store_true", help="mark this language's text as reviewed")
    review.add_argument("--not-reviewed", action="store_true", help="mark it as not reviewed")
    p.add_argument("--by", default="", help="who reviewed it (with --reviewed)")
    p.add_argument("--remove", action="store_true", help="stop fielding the item in this language")
    p.add_argument("--card", metavar="PDF", help="write the printable card in this language (and any --also)")
    p.add_argument("--also", nargs="+", default=[], metavar="CODE", help="more languages on the card, one page each")
    p.add_argument("--source", action="store_true",
                   help="say the items' own question and instructions are written in --language")
    p.add_argument("--json", action="store_true", help="print the text as JSON")
    p.set_defaults(func=cmd_text)


def cmd_text(args) -> int:
    from dpdesk.errors import DataError
    from dpdesk.project import Project
    from dpdesk.project import languages as L

    with Project.open(args.project) as project:
        language = args.language or L.source_language(project)
        if args.source:
            L.set_source_language(project, language)
        if args.remove:
            L.remove_language(project, args.item, language)
            print(f"{args.item!r} is no longer fielded in {language}.")
            return 0
        parts = {"question": args.question, "question_b": args.question_b, "question_b2": args.question_b2,
                 "instructions": args.instructions,
                 "options": args.options}
        if args.card_text:
            try:
                parts["card"] = Path(args.card_text).read_text(encoding="utf-8-sig")
            except UnicodeDecodeError as exc:
                raise DataError(f"{args.card_text} is not UTF-8 text (byte {exc.start}). Save it as UTF-8.") from None
        for part in args.generated or ():
            parts[part] = ""
        parts = {k: v for k, v in parts.items() if v is not None}
        reviewed = True if args.reviewed else False if args.not_reviewed else None
        if parts or reviewed is not None:
            text = L.set_text(project, args.item, language, reviewed=reviewed, reviewed_by=args.by, **parts)
        else:
            text = L.respondent_text_in(project, args.item, language)
        others = [L.respondent_text_in(project, args.item, lang) for lang in args.also]
        item = project.item(args.item)
    if args.card:
        from dpdesk.printing import write_cards
        from dpdesk.project.languages.cards import version_cards
        from dpdesk.project.languages.versions import VERSIONED

        pages = [page for t in [text] + others for page in (version_cards(item, t, t.language)
                 if item.design.name in VERSIONED else [(t.title, t.card)])]  # ECWM: a card per version
        path = write_cards(pages, args.card)
        print(f"Card written to {path} ({', '.join(t.language_name for t in [text] + others)}).")
    if args.json:
        print(json_out.dumps({"item": text.item, "language": text.language, "question": text.question,
                          "question_b": text.question_b, **({"question_b2": text.question_b2}
                                                            if text.question_b2 else {}),
                          "instructions": text.instructions,
                          "options": dict(zip(text.responses, text.options)), "card": text.card,
                          "reviewed": text.reviewed, "reviewed_by": text.reviewed_by,
                          "needs_review": text.needs_review, "untranslated": list(text.untranslated)},
                         ensure_ascii=False, indent=2))
    elif not args.card or parts:
        _print(text)
    return 0


def _print(text) -> None:
    from dpdesk.project.languages import CHECK_NOTE

    state = ("the language it was written in" if text.source
             else f"reviewed{' by ' + text.reviewed_by if text.reviewed_by else ''}" if text.reviewed
             else CHECK_NOTE)
    print(f"{text.item} in {text.language_name}: {state}.")
    if text.untranslated:
        words = {"question": "question", "question_b": "question B", "question_b2": "question B of version 2"}
        options = {"question": "--question", "question_b": "--question-b", "question_b2": "--question-b2"}
        print(f"  not yet written in this language: {', '.join(words.get(p, p) for p in text.untranslated)} "
              f"(give {' / '.join(options.get(p, p) for p in text.untranslated)}).")
    print()
    print(text.card)
