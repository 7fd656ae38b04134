"""Entry point: ``dpdesk`` opens the app; ``dpdesk COMMAND ...`` runs the command line."""

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-") or any(a in ("-h", "--help", "--version") for a in argv[:1]):
        from dpdesk.cli import main as cli_main

        return cli_main(argv)
    from dpdesk.gui.app import run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
