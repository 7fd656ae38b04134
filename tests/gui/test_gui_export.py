"""Every export from the app, read back: workbook (values, number formats, Metadata), CSV, script,
plots (PNG, SVG, PDF) and "Copy table" (TSV and HTML on the clipboard)."""

from __future__ import annotations

import csv
import subprocess
import sys

import pytest
from PySide6.QtWidgets import QApplication



@pytest.fixture
def results(window, qtbot, tmp_path):
    """The example project open, with results by faculty."""
    from dpdesk.gui.shell.example_project import build_example

    path = build_example(None, tmp_path / "example.dpdesk")
    rv = window.results_view
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        window.open_project(path)
        window.nav.setCurrentRow(2)  # results are computed when the Results view is shown
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        rv.by.setCurrentIndex(rv.by.findData("faculty"))
    return rv.current


def _export(window, qtbot, path, percent=False):
    ev = window.export_view
    ev.percent.setChecked(percent)
    assert ev.xlsx_button.isEnabled()
    with qtbot.waitSignal(ev.jobs.done, timeout=60_000) as done:
        ev.export(path)
    return done.args[0]


def test_workbook_read_back(window, qtbot, tmp_path, results):
    import openpyxl

    written = _export(window, qtbot, tmp_path / "out.xlsx")
    assert [p.name for p in written] == ["out.xlsx", "out_reproduce.py"]
    wb = openpyxl.load_workbook(written[0])
    assert wb.sheetnames == ["Estimates", "By faculty", "Tests by faculty", "Direct questions", "Metadata", "Readme"]
    ws = wb["Estimates"]
    header = [c.value for c in ws[1]]
    for i, row in enumerate(results.estimates, start=2):
        for j, col in enumerate(header):
            cell = ws.cell(i, j + 1)
            if isinstance(row[col], float) and row[col] == float("inf"):
                assert cell.value == "∞"  # the lie detector's local epsilon
            elif isinstance(row[col], float):
                assert cell.value == pytest.approx(row[col], rel=1e-15, abs=0)  # XlsxWriter keeps ~16 digits
        assert ws.cell(i, header.index("estimate") + 1).number_format in ("0.0000", "General")
    est_col = header.index("estimate") + 1
    assert ws.cell(2, est_col).number_format == "0.0000"
    assert ws.cell(2, header.index("n") + 1).number_format == "0"
    sub = wb["By faculty"]
    labels = {sub.cell(r, 2).value for r in range(2, sub.max_row + 1)}
    assert {"Arts", "Law", "Arts - Law"} <= labels
    direct = wb["Direct questions"]
    assert direct.max_row == 4 and direct.cell(2, 2).value == "cheat_direct"
    meta = {r[0]: r[1] for r in wb["Metadata"].iter_rows(min_row=1, values_only=True)}
    sha = window.project.datasets()[0].sha256
    assert meta["input SHA-256"] == sha and meta["CI method"].endswith("(default)") and meta["subgroups by"] == "faculty"
    assert meta["design / exam_cheating"] == "Forced response: truthful with probability 1/2, 'yes' 1/4, 'no' 1/4"
    assert meta["direct-question columns / plagiarism"] == "plag_direct"
    # percentages: the same values, another format
    again = _export(window, qtbot, tmp_path / "pct.xlsx", percent=True)
    ws = openpyxl.load_workbook(again[0])["Estimates"]
    assert ws.cell(2, est_col).number_format == "0.0%" and ws.cell(2, est_col).value == pytest.approx(results.estimates[0]["estimate"], rel=1e-15)


def test_csv_and_reproducibility_script(window, qtbot, tmp_path, results):
    written = _export(window, qtbot, tmp_path / "out.csv")
    names = [p.name for p in written]
    assert names[0] == "out.csv" and "out_metadata.csv" in names and "out_reproduce.py" in names
    with open(written[0], encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["item"] for r in rows] == [r["item"] for r in results.estimates]
    for got, want in zip(rows, results.estimates):
        if want["SE"] is not None:
            assert float(got["SE"]) == want["SE"]  # repr: every digit
    with qtbot.waitSignal(window.export_view.jobs.done, timeout=60_000) as done:
        window.export_view.export(tmp_path / "again.py")
    script = done.args[0][0]
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    first = results.estimates[0]
    assert "exam_cheating" in run.stdout and f"{first['estimate']:.4f}"[:5] in run.stdout


def test_plots_saved_and_tables_copied(window, qtbot, tmp_path, results):
    rv = window.results_view
    magic = {".png": b"\x89PNG", ".svg": b"<?xml", ".pdf": b"%PDF"}
    for suffix, start in magic.items():
        path = rv.forest.save(tmp_path / f"forest{suffix}")
        assert path.read_bytes().startswith(start) and path.stat().st_size > 1000
    assert rv.subgroup_plot.save(tmp_path / "by.svg").read_text().count("<path") > 10
    with pytest.raises(Exception, match=r"\.png, \.svg or \.pdf"):
        rv.forest.save(tmp_path / "forest.gif")
    # Copy table: what is shown (TSV and HTML at the shown precision), or with full precision
    value = results.estimates[0]["estimate"]
    rv.document_view.copy_table("estimates")
    mime = QApplication.clipboard().mimeData()
    lines = mime.text().splitlines()
    first = dict(zip(lines[0].split("\t"), lines[1].split("\t")))
    assert first["Item"].startswith("In the last year") and first["Estimate (%)"] == f"{100 * value:.1f}"
    assert "<table class='apa'" in mime.html() and repr(float(value)) not in mime.text()
    rv.document_view.copy_table("estimates", full=True)
    mime = QApplication.clipboard().mimeData()
    first = dict(zip(*(line.split("\t") for line in mime.text().splitlines()[:2])))
    assert float(first["Estimate (proportion)"]) == value and repr(float(value)) in mime.html()
    rv.forest.copy_button.click()
    text = QApplication.clipboard().mimeData().text()
    assert text.startswith("item\tkind\tn\testimate") and "direct question" in text
    assert f"\t{100 * value:.1f}\t" in text  # the plot's table as shown
    rv.document_view.copy_table("estimates")
    shown = QApplication.clipboard().mimeData().text()
    window.export_view.copy_button.click()  # the Export view copies the estimates as the document shows them
    assert QApplication.clipboard().mimeData().text() == shown and "In the last year" in shown


def test_the_workbook_follows_the_number_style_of_the_preferences(window, qtbot, results, tmp_path):
    """Percent style (the default): the workbook's shares in %, the SE too; proportions chosen in
    Preferences: the workbook in proportions, without a second setting."""
    import openpyxl

    from dpdesk.gui.dialogs.preferences import PreferencesDialog

    ev, rv = window.export_view, window.results_view
    assert ev.percent.isChecked()  # percent:1, the default style
    with qtbot.waitSignal(ev.jobs.done, timeout=60_000):
        ev.export(tmp_path / "pct.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "pct.xlsx")["Estimates"]
    formats = {h.value: c.number_format for h, c in zip(ws[1], ws[2])}
    assert formats["estimate"] == formats["SE"] == "0.0%"
    dialog = PreferencesDialog(window.settings, window)
    dialog.unit.setCurrentIndex(dialog.unit.findData("proportion"))
    dialog.accepted.connect(window._preferences_changed)
    with qtbot.waitSignal(rv.updated, timeout=60_000, check_params_cb=lambda rs: rs is not None):
        dialog.accept()
    assert not ev.percent.isChecked()
