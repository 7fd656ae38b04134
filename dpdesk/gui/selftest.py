"""``dpdesk --selftest``: build the main window offscreen and exit 0, or say why not."""

from __future__ import annotations

import os
import sys


def selftest() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        from dpdesk.gui.app import make_app
        from dpdesk.gui.main_window import MainWindow
        from dpdesk.mechanisms import rr

        app = make_app([])
        window = MainWindow()
        window.show()
        app.processEvents()
        est = rr.estimate(rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25), [25, 75])
        if abs(est.prevalence - 1.0) > 1e-12:
            raise RuntimeError(f"the coin example gave {est.prevalence}, not 1.0")
        window.close()
        del window
    except Exception as exc:  # the self-test reports every failure in words
        print(f"dpdesk self-test FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print("dpdesk self-test passed")
    return 0
