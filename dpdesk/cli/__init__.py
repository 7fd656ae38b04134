"""The command line: every analysis of the app, without it.

``dpdesk COMMAND --help`` describes each command. Errors print one clear line and exit 1.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys

from dpdesk import __version__
from dpdesk.errors import DpdeskError


#: Each command's family (the module under dpdesk/cli/ whose ``register`` adds it), in the order of
#: ``dpdesk --help``. ``main`` registers only the family of the command it runs, so a command does not
#: import every other family's modules (part of the fixed cost of each command);
#: tests/cli/test_cli_parser.py checks this table against what each family registers.
FAMILIES = {
    "datasets": ("new", "recover", "import", "datasets", "label"),
    "items": ("item",),
    "estimates": ("estimate", "export", "protect", "demo"),
    "privacy": ("budget", "release", "ledger"),
    "share": ("share",),
    "regress": ("regress",),
    "correlate": ("correlate",),
    "report": ("report", "methods"),
    "texts": ("text",),
    "field": ("field",),
    "survey": ("design-sample",),
}
COMMANDS = {command: family for family, commands in FAMILIES.items() for command in commands}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or (``command``) of that command's family only."""
    import importlib

    parser = argparse.ArgumentParser(
        prog="dpdesk",
        description="Randomized-response surveys and differentially private tabulations. "
        "Run without a command to open the app.",
    )
    parser.add_argument("--version", action="version", version=f"dpdesk {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    families = [COMMANDS[command]] if command in COMMANDS else list(FAMILIES)
    for family in families:
        importlib.import_module(f"dpdesk.cli.{family}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from dpdesk.cli.console import make_streams_safe

    make_streams_safe()  # any terminal encoding: "epsilon" where the console has no ε (cp1252, ascii)
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv else None)
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
