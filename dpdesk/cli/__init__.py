"""The command line: every analysis of the app, without it.

``dpdesk COMMAND --help`` describes each command. Errors print one clear line and exit 1.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys

from dpdesk import __version__
from dpdesk.errors import DpdeskError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dpdesk",
        description="Randomized-response surveys and differentially private tabulations. "
        "Run without a command to open the app.",
    )
    parser.add_argument("--version", action="version", version=f"dpdesk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    from dpdesk.cli import datasets, estimates, items

    for family in (datasets, items, estimates):
        family.register(sub)
    try:
        from dpdesk.cli import privacy
    except ImportError:  # the noisy-tabulation commands are optional until built
        privacy = None
    if privacy is not None:
        privacy.register(sub)
    try:
        from dpdesk.cli import share
    except ImportError:  # the data-sharing commands are optional until built
        share = None
    if share is not None:
        share.register(sub)
    from dpdesk.cli import regress

    regress.register(sub)
    from dpdesk.cli import correlate

    correlate.register(sub)
    from dpdesk.cli import report

    report.register(sub)
    from dpdesk.cli import texts

    texts.register(sub)
    from dpdesk.cli import field

    field.register(sub)
    from dpdesk.cli import survey

    survey.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from dpdesk.cli.console import make_streams_safe

    make_streams_safe()  # any terminal encoding: "epsilon" where the console has no ε (cp1252, ascii)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except DpdeskError as exc:
        print(f"dpdesk {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"dpdesk {args.command}: interrupted; nothing after the last completed step was saved.", file=sys.stderr)
        return 130
    except OSError as exc:
        print(f"dpdesk {args.command}: {exc.strerror or exc} ({exc.filename or 'file'}). "
              "Check the path and its permissions.", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:  # the project layer turns these into ProjectError; never a traceback
        print(f"dpdesk {args.command}: the project file could not be read ({exc}): it is damaged or was "
              "changed outside dpdesk. Restore it from a backup copy.", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
