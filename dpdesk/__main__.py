"""Entry point: ``dpdesk`` opens the app; ``dpdesk COMMAND ...`` runs the command line.

``dpdesk PROJECT.dpdesk`` (what a file manager runs on a double-click, through the desktop
entry's ``Exec=dpdesk %f``) opens the app with that project, as does any existing file that
is not a command's name.
"""

import sys
from pathlib import Path


def _is_project_argument(arg: str) -> bool:
    """Whether ``arg`` names a file to open in the app rather than a command."""
    if arg.startswith("-"):
        return False
    if arg.lower().endswith(".dpdesk"):
        return True
    if not Path(arg).is_file():
        return False
    from dpdesk.cli import build_parser  # only for an existing file that might share a command's name

    commands = next((a.choices for a in build_parser()._actions if getattr(a, "choices", None)), {})
    return arg not in commands


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    opens_project = bool(argv) and _is_project_argument(argv[0])
    if not opens_project and (argv and not argv[0].startswith("-") or any(a in ("-h", "--help", "--version") for a in argv[:1])):
        from dpdesk.cli import main as cli_main

        return cli_main(argv)
    if "--selftest" in argv:
        from dpdesk.gui.shell.selftest import selftest

        return selftest()
    from dpdesk.gui.shell.app import run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
