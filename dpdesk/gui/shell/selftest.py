"""``dpdesk --selftest``: the whole app path, offscreen, in a few seconds; exit 0 or say why not.

It builds the main window, makes the example project (the bundled student survey with its
three items) in a temporary folder and opens it, estimates every item, saves a plot as PNG,
SVG and PDF (matplotlib), writes a PDF instruction card and a Word report, draws noise through
OpenDP, checks FF1 pseudonyms against NIST's sample 1, and releases one noisy count into the ledger and writes its receipt as a QR code. The
installer and CI run it.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path


def _check(condition: bool, reason: str) -> None:
    if not condition:
        raise RuntimeError(reason)


def selftest() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("MPLBACKEND", "Agg")
    with tempfile.TemporaryDirectory(prefix="dpdesk-selftest-") as tmp:
        os.environ["DPDESK_SETTINGS_DIR"] = tmp  # never the user's real settings
        try:
            from dpdesk.gui.shell.app import make_app

            app = make_app([])
            code = _run(app, Path(tmp))
        except Exception as exc:  # the self-test reports every failure in words
            print(f"dpdesk self-test FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
    if code == 0:
        print("dpdesk self-test passed")
    return code


def _run(app, tmp: Path) -> int:
    from dpdesk.gui.shell.main_window import MainWindow

    window = MainWindow()
    try:
        return _exercise(app, window, tmp)
    finally:
        window.close()
        app.processEvents()
        del window


def _exercise(app, window, tmp: Path) -> int:
    from dpdesk.gui.widgets.card import card_title, suggested_instructions, write_card
    from dpdesk.gui.shell.example_project import build_example
    from dpdesk.project.analysis.estimates import analyze

    window.show()
    app.processEvents()
    _check(window.isVisible(), "the main window did not show")
    path = build_example(None, tmp / "example.dpdesk")
    _check(window.open_project(path), f"the example project {path} did not open")
    app.processEvents()
    _check(window.design_view.table.rowCount() == 3, "the example project does not list its 3 items")
    results = analyze(window.project)
    for r in results:
        _check(r.estimate is not None, f"item {r.item!r} was not estimated: {r.error}")
        lo, hi = (r.estimate.ci if r.design.is_binary else (0, 1))
        _check(0 <= lo <= hi <= 1, f"item {r.item!r} has an impossible interval {lo}, {hi}")
    print("\n".join(r.sentence() for r in results))
    png = tmp / "estimates.png"
    _plot(results, png)
    _check(png.stat().st_size > 1000, "the plot was not rendered")
    for drawing, head in (("estimates.svg", b"<?xml"), ("estimates.pdf", b"%PDF")):  # the other backends
        _check(_plot(results, tmp / drawing).read_bytes().startswith(head), f"the plot was not saved as {drawing}")
    item = window.project.items()[0]
    pdf = write_card(tmp / "card.pdf", card_title("", item.question),
                     suggested_instructions(item.question, item.design, ""))
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page(?![s\w])", data))
    _check(data.startswith(b"%PDF") and pages == 1, "the instruction card is not a one-page PDF")
    _check(b"/FontFile" in data, "the instruction card embeds no font (are fonts installed?)")
    _check_word_report(window.project, tmp / "report.docx")
    _check_noise()
    _check_pseudonyms()
    _check_receipt(window.project, tmp / "receipt.png")
    window.close()
    _check(window.project is None, "the project did not close with the window")
    return 0


def _check_word_report(project, path: Path) -> None:
    """Write the report as Word (a frozen build must carry python-docx's templates) and read it back."""
    import docx

    from dpdesk.printing import write_report

    write_report(project, path)
    word = docx.Document(str(path))
    _check(len(word.tables) >= 1 and any(p.text == "Methods" for p in word.paragraphs),
           "the Word report has no table or no Methods section")


def _check_noise() -> None:
    """Draw discrete Laplace noise through OpenDP once (a frozen build must carry its library)."""
    from dpdesk.mechanisms.central import laplace_counts

    noisy = laplace_counts([10, 20, 30], 1.0)
    _check(len(noisy) == 3 and all(float(v).is_integer() for v in noisy), "OpenDP did not return integer noise")


def _check_pseudonyms() -> None:
    """NIST's FF1 sample 1 through dpdesk's FF1 (a frozen build must carry libffx and cryptography's AES), and
    one old FF3-1 pseudonym decrypted (ff3, kept for the key's holder)."""
    from dpdesk.project.sharing import fpe

    key = bytes.fromhex("2B7E151628AED2A6ABF7158809CF4F3C")
    _check(fpe.ff1_encrypt(key, "0123456789", alphabet="digits") == "2433477484",
           "FF1 does not give NIST's sample 1 (pseudonyms would be wrong)")
    _check(fpe.ff3_1_decrypt("2DE79D232DF5585D68CE47882AE256D6", "8901801106", alphabet="digits",
                             tweak_hex="CBD09280979564") == "3992520240", "old FF3-1 pseudonyms no longer decrypt")


def _check_receipt(project, path: Path) -> None:
    """Release one noisy count into the ledger and write its receipt as a QR code (a frozen build
    must carry segno), then check the project against the receipt's text."""
    from dpdesk.project import ledger

    ledger.set_budget(project, 1)
    ledger.release(project, {"statistic": "count", "epsilon": 0.1})
    made = ledger.receipt(project).save(path)
    _check(path.read_bytes().startswith(b"\x89PNG"), "the ledger receipt's QR code is not a PNG image")
    check = ledger.verify_receipt(project, path.with_suffix(".txt").read_text(encoding="utf-8"))
    _check(check.ok, f"the ledger receipt {made.name} does not match its project: {check.message}")


def _plot(results, path: Path) -> Path:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from dpdesk.gui.widgets.plots import save_figure

    fig = Figure(figsize=(5, 2.5))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(111)
    names = [r.item for r in results]
    est = [float(r.estimate.prevalence) for r in results]
    low = [e - float(r.estimate.ci[0]) for e, r in zip(est, results)]
    high = [float(r.estimate.ci[1]) - e for e, r in zip(est, results)]
    ax.errorbar(est, range(len(names)), xerr=[low, high], fmt="o")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    return save_figure(fig, path)
