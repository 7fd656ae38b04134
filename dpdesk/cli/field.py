"""``dpdesk field``: export the project's items as an instrument for a survey platform."""

from __future__ import annotations


def register(sub) -> None:
    from dpdesk.project.fielding import FORMATS

    p = sub.add_parser(
        "field", help="export the items for Qualtrics, LimeSurvey, REDCap or ODK/Kobo",
        description="Write the project's items as an instrument a survey platform imports, with a README "
        "on the platform settings that protect the respondents. The project remembers what was exported, "
        "and the platform's answer export maps itself when imported. Designs the platform would have to "
        "randomize are refused.")
    p.add_argument("project")
    p.add_argument("out", help="the file to write (the format's extension is added if missing)")
    p.add_argument("--format", required=True, choices=FORMATS, help="the platform's import format")
    p.add_argument("--language", action="append", default=[], metavar="CODE",
                   help="a language of the respondent text (repeat; default en)")
    p.add_argument("--item", action="append", default=[], metavar="NAME", help="field only this item (repeat)")
    p.add_argument("--mode", choices=("online", "interview"), default="online",
                   help="online (respondents fill it in) or interview (an interviewer reads it); default online")
    p.set_defaults(func=cmd_field)


def cmd_field(args) -> int:
    from dpdesk.project import Project
    from dpdesk.project.fielding import FORMAT_NAMES, export_instrument

    with Project.open(args.project) as project:
        result = export_instrument(project, args.out, args.format, languages=args.language or ("en",),
                                   items=args.item or None, mode=args.mode)
    print(f"Wrote {FORMAT_NAMES[args.format]} with {len(result.items)} item(s): "
          + ", ".join(str(f) for f in result.files))
    print("Read the README before fielding: it says which platform settings to switch off.")
    return 0
