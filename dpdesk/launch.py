"""What ``make run`` starts: the app where there is a display, the headless demo where not."""

from __future__ import annotations

import os
import sys


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or sys.platform in ("win32", "darwin")


def main() -> int:
    if has_display() or os.environ.get("QT_QPA_PLATFORM"):
        from dpdesk.__main__ import main as app_main

        return app_main([])
    print("No display found (DISPLAY and WAYLAND_DISPLAY are unset): running the example headless.")
    from dpdesk.cli import main as cli_main

    return cli_main(["demo", "out/demo"])


if __name__ == "__main__":
    sys.exit(main())
