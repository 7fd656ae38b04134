"""The command line: every analysis of the app, without it."""

from __future__ import annotations

import argparse
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
    parser.add_subparsers(dest="command", metavar="COMMAND")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return args.func(args)
    except DpdeskError as exc:
        print(f"dpdesk: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
