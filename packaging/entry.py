"""What the frozen app runs: ``dpdesk.__main__.main`` (PyInstaller needs a script, not an entry point)."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # harmless without worker processes; required with them
    from dpdesk.__main__ import main

    sys.exit(main())
