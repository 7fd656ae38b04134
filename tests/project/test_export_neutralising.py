"""One neutralising writer for every CSV, TSV and xlsx that leaves dpdesk (issue 14, section 7).

Every path -- results CSV/xlsx, clipboard TSV and HTML, the shared extract as CSV/xlsx with
its disclosure report, a released table -- gets the same hostile cells (bare CR, LF, tab,
``@``, formula in a header, white space before a formula, quotes and delimiters) and is read
back with Python's csv module, pandas and openpyxl: the row count is kept, no cell starts
with a formula character unprefixed, numbers stay numbers (-1 stays the number -1; the
text "-1+2" is prefixed).
"""

from __future__ import annotations

import csv
import html.parser
import io

import numpy as np
import openpyxl
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.utils.escape import unescape

from dpdesk.project.export.results import ResultsBundle, export_results, table_to_html, table_to_tsv
from dpdesk.project.export.safe_text import clean_text, is_formula_like, neutralise
from dpdesk.project.export.tables import csv_text, write_csv, write_table, write_xlsx
from dpdesk.project.sharing.checks import ShareOptions
from dpdesk.project.sharing.extract import Extract
from dpdesk.project.sharing.writing import export_extract
from tests.helpers.cli import run

TEXTS = [
    "\r=1+1",                      # the bug: a bare CR split the record, the formula started a row
    "\n=cmd|'/C calc'!A0",
    "=cmd|'/C calc'!A0",
    "  \t =HYPERLINK(\"http://x.example\")",  # white space, then a formula
    "\x01\x02=1+1",                # invisible control characters, then a formula
    "\t=1",
    "@SUM(A1)",
    "-1+2",                        # text, not a number: prefixed
    "+1",
    'say "hi", then go',           # quotes and the delimiter
    "a,b;c\td",
    "line 1\r\nline 2",
    "007",                         # numeric-looking text stays this exact text
    "plain",
]
HEADERS = ["=HYPERLINK(\"http://x.example\",\"n\")", "\r=1", "  @x", "a,b", 'q"uote', "-n"]
NUMBERS = [-1, -1.5, 0, 3.25, -1e-300, 2 ** 53, -7]


def hostile_rows(n: int = 10) -> list[dict]:
    """``n`` respondents: text columns under hostile names, and number columns."""
    rows = []
    for i in range(n):
        rows.append({
            HEADERS[0]: TEXTS[i % len(TEXTS)],
            HEADERS[1]: TEXTS[(i + 3) % len(TEXTS)],
            HEADERS[2]: NUMBERS[i % len(NUMBERS)],
            HEADERS[3]: TEXTS[(i + 7) % len(TEXTS)],
            HEADERS[4]: float(-i) - 0.5,
            HEADERS[5]: -i,
        })
    return rows


def expected(value):
    return neutralise(value) if isinstance(value, str) else value


# ----------------------------------------------------------------------------- readers


def csv_rows(path, delimiter=",") -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.reader(handle, delimiter=delimiter))


def assert_inert_text(cells, numbers_allowed: bool = False) -> None:
    """No text cell is formula-like; in CSV a field may be a plain number (-1 is not a formula)."""
    for cell in cells:
        if isinstance(cell, str) and not (numbers_allowed and number_of(cell) is not None):
            assert not is_formula_like(cell), repr(cell)


def number_of(text: str):
    """The number a CSV field holds (ints as int), or None for text."""
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return None


def check_csv(path, rows: list[dict], delimiter: str = ",") -> None:
    """Row count, header, every text cell neutralised, every number exact -- csv module and pandas."""
    columns = list(rows[0])
    got = csv_rows(path, delimiter)
    assert len(got) == len(rows) + 1  # the header and one line per respondent, no split records
    assert got[0] == [neutralise(c) for c in columns]
    for record, row in zip(got[1:], rows):
        assert len(record) == len(columns)
        for field, value in zip(record, row.values()):
            if isinstance(value, str):
                assert field == neutralise(value) and not is_formula_like(field)
            else:
                assert number_of(field) == value
    assert [r[5] for r in got[1:]] == [str(r[columns[5]]) for r in rows]  # -1 is written as -1
    frame = pd.read_csv(path, sep=delimiter, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    assert frame.shape == (len(rows), len(columns))
    assert list(frame.columns) == [neutralise(c) for c in columns]
    assert_inert_text(frame.to_numpy().ravel(), numbers_allowed=True)
    numbers = pd.read_csv(path, sep=delimiter, encoding="utf-8-sig")
    for col in (2, 4, 5):  # the number columns read as numbers
        assert numbers.iloc[:, col].tolist() == [r[columns[col]] for r in rows]


def check_sheet(ws, rows: list[dict]) -> None:
    """An openpyxl sheet: header and text neutralised, numbers as number cells, no formulas."""
    columns = list(rows[0])
    values = list(ws.iter_rows(values_only=True))
    assert len(values) == len(rows) + 1
    assert [unescape(v) for v in values[0]] == [neutralise(c) for c in columns]
    for cells, row in zip(ws.iter_rows(min_row=2), rows):
        for cell, value in zip(cells, row.values()):
            assert cell.data_type != "f"
            if isinstance(value, str):
                assert cell.data_type == "s" and unescape(cell.value) == neutralise(value)
                assert not is_formula_like(unescape(cell.value))
            else:
                assert cell.data_type == "n" and cell.value == value


# ----------------------------------------------------------------------------- results


def test_results_csv_keeps_rows_and_neutralises_values_and_headers(tmp_path):
    rows = hostile_rows()
    written = export_results(ResultsBundle({"Estimates": rows}, {"=meta": "\r=1"}), tmp_path / "r.csv")
    check_csv(written[0], rows)
    meta = csv_rows(tmp_path / "r_metadata.csv")
    assert ["'=meta", "'\r=1"] in meta
    for record in meta:
        assert_inert_text(record, numbers_allowed=True)


def test_results_xlsx_neutralises_values_and_headers_and_keeps_numbers(tmp_path):
    rows = hostile_rows()
    (path,) = export_results(ResultsBundle({"Estimates": rows}), tmp_path / "r.xlsx", repro=False)
    wb = openpyxl.load_workbook(path)
    check_sheet(wb["Estimates"], rows)
    frame = pd.read_excel(path, sheet_name="Estimates")
    assert frame.shape == (len(rows), len(rows[0]))
    assert frame.iloc[:, 5].tolist() == [-i for i in range(len(rows))]  # -1 stays the number -1


def test_clipboard_tsv_and_html(tmp_path):
    rows = hostile_rows()
    tsv = table_to_tsv(rows)
    (tmp_path / "c.tsv").write_text(tsv, encoding="utf-8", newline="")
    check_csv(tmp_path / "c.tsv", rows, delimiter="\t")

    class Cells(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.cell = [], None

        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                self.rows.append([])
            elif tag in ("td", "th"):
                self.cell = ""

        def handle_endtag(self, tag):
            if tag in ("td", "th"):
                self.rows[-1].append(self.cell)
                self.cell = None

        def handle_data(self, data):
            if self.cell is not None:
                self.cell += data

    parser = Cells()
    parser.feed(table_to_html(rows))
    assert len(parser.rows) == len(rows) + 1
    assert parser.rows[0] == [neutralise(c) for c in rows[0]]
    for cells, row in zip(parser.rows[1:], rows):
        for cell, value in zip(cells, row.values()):
            assert (cell == neutralise(value)) if isinstance(value, str) else number_of(cell) == value


# ----------------------------------------------------------------------------- shared extracts


def extract_of(rows: list[dict]) -> Extract:
    frame = pd.DataFrame(rows)
    return Extract(frame, ShareOptions(quasi=[HEADERS[2]], k=2, l=None))


def test_share_csv_has_one_line_per_respondent_and_a_safe_report(tmp_path):
    rows = hostile_rows(10)
    data, report = export_extract(extract_of(rows), tmp_path / "shared.csv", source="=evil\r=1.csv")
    check_csv(data, rows)
    lines = report.read_text(encoding="utf-8").splitlines()
    assert all(not is_formula_like(line) for line in lines)
    assert any("'=evil\\r=1.csv" in line for line in lines)  # the CR is shown, not a line break
    assert any(line.startswith("quasi-identifiers") and line.endswith("'  @x") for line in lines)  # column name


def test_share_xlsx_data_and_report_sheets(tmp_path):
    rows = hostile_rows(10)
    (path,) = export_extract(extract_of(rows), tmp_path / "shared.xlsx", source="@evil.csv")
    wb = openpyxl.load_workbook(path)
    check_sheet(wb["Data"], rows)
    report = list(wb["Disclosure report"].iter_rows(values_only=True))
    assert report[0] == ("what", "detail") and len(report) > 5
    for record in report:
        assert_inert_text([unescape(v) for v in record if isinstance(v, str)])
    assert ("source", "'@evil.csv") in report
    sheets = pd.read_excel(path, sheet_name=None)
    assert sheets["Data"].shape == (10, len(HEADERS))
    assert sheets["Data"].iloc[:, 5].tolist() == [-i for i in range(10)]


def test_share_xlsx_has_no_unprefixed_formula_text_anywhere(tmp_path):
    """The issue's count: shared.xlsx had 195 text cells starting with =, +, -, @, tab or CR."""
    rng = np.random.default_rng(3)
    n = 200
    frame = pd.DataFrame({"=region": rng.choice(TEXTS, n), "age": rng.integers(18, 70, n),
                          "\tnote": rng.choice(TEXTS, n), "score": rng.normal(0, 1, n)})
    (path,) = export_extract(Extract(frame, ShareOptions(quasi=["age"], k=2, l=None)), tmp_path / "shared.xlsx")
    bad = 0
    wb = openpyxl.load_workbook(path)
    for ws in wb:
        for row in ws.iter_rows():
            for cell in row:
                value = unescape(cell.value) if isinstance(cell.value, str) else cell.value
                bad += isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r")
                assert cell.data_type != "f"
    assert bad == 0
    assert pd.read_excel(path, sheet_name="Data")["score"].tolist() == frame["score"].tolist()  # every digit


def test_cli_share_csv_reads_back_as_ten_rows(tmp_path, capsys):
    """``dpdesk share ... .csv`` wrote "\\r=1+1" unquoted: 10 respondents read back as 21 rows."""
    from dpdesk.project import Project

    project = tmp_path / "p.dpdesk"
    frame = pd.DataFrame({"age": [30] * 10, "comment": ["\r=1+1", "=cmd|'/C calc'!A0"] * 5,
                          "=cmd|'/C calc'!A0": list(range(-5, 5))})
    with Project.create(project) as p:
        p.add_dataset("w", frame, source={"name": "w.csv", "sha256": "d" * 64, "size": 1})
    out = tmp_path / "shared.csv"
    code, _out, err = run(capsys, "share", project, "--quasi", "age", "--sensitive", "--identifiers",
                          "--k", "2", out)
    assert code == 0, err
    rows = csv_rows(out)
    assert len(rows) == 11 and rows[0] == ["age", "comment", "'=cmd|'/C calc'!A0"]
    assert [r[1] for r in rows[1:]] == ["'\r=1+1", "'=cmd|'/C calc'!A0"] * 5
    assert [int(r[2]) for r in rows[1:]] == list(range(-5, 5))
    assert all(not is_formula_like(r[0]) for r in rows)
    assert len(pd.read_csv(out, encoding="utf-8-sig")) == 10


def test_sav_extract_keeps_values_exactly(tmp_path):
    """SPSS does not run cell text: a .sav keeps values and labels as they are."""
    import pyreadstat

    frame = pd.DataFrame({"age": [30, 30], "note": ["=1+1", "ok"]})
    sav, report = export_extract(Extract(frame, ShareOptions(quasi=["age"], k=2, l=None)), tmp_path / "s.sav")
    data, _meta = pyreadstat.read_sav(str(sav))
    assert data["note"].tolist() == ["=1+1", "ok"]
    assert all(not is_formula_like(line) for line in report.read_text(encoding="utf-8").splitlines())


# ----------------------------------------------------------------------------- released tables


def test_released_table_exports_neutralise_keys_and_keep_numbers(tmp_path):
    from dpdesk.project import Project, ledger
    from dpdesk.project.ledger.release_table import export_release, release_table

    keys = ["=cmd|'/C calc'!A0", "\r=1", "north"]
    rng = np.random.default_rng(1)
    with Project.create(tmp_path / "dp.dpdesk") as p:
        p.add_dataset("w", pd.DataFrame({"@region": pd.Categorical(rng.choice(keys, 200))}),
                      source={"name": "w.csv", "sha256": "e" * 64, "size": 1})
        ledger.set_budget(p, 1)
        entry = ledger.release(p, {"statistic": "histogram", "columns": ["@region"], "keys": keys, "epsilon": "0.5"})
    table = release_table(entry)
    assert [r["@region"] for r in table] == keys and all(isinstance(r["released value"], (int, float)) for r in table)
    csv_path = export_release(entry, tmp_path / "release.csv")
    got = csv_rows(csv_path)
    assert len(got) == 4 and got[0][0] == "'@region"
    assert [r[0] for r in got[1:]] == [neutralise(k) for k in keys]
    assert [number_of(r[1]) for r in got[1:]] == [r["released value"] for r in table]
    xlsx_path = export_release(entry, tmp_path / "release.xlsx")
    ws = openpyxl.load_workbook(xlsx_path).active
    values = list(ws.iter_rows(values_only=True))
    assert len(values) == 4 and values[0][0] == "'@region"
    assert [unescape(v[0]) for v in values[1:]] == [neutralise(k) for k in keys]
    assert [v[1] for v in values[1:]] == [r["released value"] for r in table]


# ----------------------------------------------------------------------------- property


_texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_numbers = st.one_of(st.integers(-(2 ** 53), 2 ** 53),
                     st.floats(allow_nan=False, allow_infinity=False, width=64))


@st.composite
def frames(draw):
    n_cols = draw(st.integers(1, 4))
    names = draw(st.lists(_texts, min_size=n_cols, max_size=n_cols))
    kinds = draw(st.lists(st.booleans(), min_size=n_cols, max_size=n_cols))
    n_rows = draw(st.integers(0, 6))
    columns = [[draw(_texts if is_text else _numbers) for _ in range(n_rows)] for is_text in kinds]
    return names, kinds, [list(r) for r in zip(*columns)] if n_rows else []


def unprefixed(written: str, original: str) -> str:
    """``written`` without the one apostrophe the writer adds to formula-like text."""
    cleaned = clean_text(original)
    if is_formula_like(cleaned):
        assert written.startswith("'")
        return written[1:]
    return written


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frames())
def test_property_csv_and_xlsx_round_trip(tmp_path_factory, sample):
    names, kinds, rows = sample
    folder = tmp_path_factory.mktemp("prop")
    # CSV, read with the csv module and with pandas
    path = write_csv(folder / "t.csv", names, rows)
    got = csv_rows(path)
    assert len(got) == len(rows) + 1 and all(len(r) == len(names) for r in got)
    for field, name in zip(got[0], names):
        assert unprefixed(field, name) == clean_text(name) and not is_formula_like(field)
    for record, row in zip(got[1:], rows):
        for field, value, is_text in zip(record, row, kinds):
            if is_text:
                assert unprefixed(field, value) == clean_text(value) and not is_formula_like(field)
            else:
                assert number_of(field) == value  # repr: exact for floats, digits for ints
    if rows:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")  # names may be mangled
        assert frame.shape == (len(rows), len(names))
    # xlsx, read with openpyxl: every number exactly (tables.ExactNumber)
    xlsx = write_xlsx(folder / "t.xlsx", [("T", pd.DataFrame(rows, columns=names, dtype=object))])
    ws = openpyxl.load_workbook(xlsx)["T"]
    header = [("" if v is None else unescape(v)) for v in next(ws.iter_rows(max_row=1, values_only=True))]
    header += [""] * (len(names) - len(header))
    for field, name in zip(header, names):
        assert unprefixed(field, name) == clean_text(name) and not is_formula_like(field)
    values = list(ws.iter_rows(min_row=2, values_only=True))
    assert len(values) == len(rows)
    for record, row, in zip(values, rows):
        record = list(record) + [None] * (len(row) - len(record))
        for cell, value, is_text in zip(record, row, kinds):
            if is_text:
                text = "" if cell is None else unescape(cell)
                assert unprefixed(text, value) == clean_text(value) and not is_formula_like(text)
            else:
                assert not isinstance(cell, str) and cell == value


def test_csv_text_quotes_cr_lf_delimiters_and_quotes():
    text = csv_text([["a\rb", "c\nd", "e,f", 'g"h', "plain", -1]])
    assert text == '"a\rb","c\nd","e,f","g""h",plain,-1\r\n'
    assert list(csv.reader(io.StringIO(text, newline=""))) == [["a\rb", "c\nd", "e,f", 'g"h', "plain", "-1"]]


def test_write_table_refuses_other_suffixes(tmp_path):
    from dpdesk.project.export.model import ExportError

    with pytest.raises(ExportError, match=r"\.csv or \.xlsx"):
        write_table(tmp_path / "t.txt", [{"a": 1}])


def test_extract_dates_bools_and_extreme_numbers(tmp_path):
    """Dates are written as pandas writes them, missing values are empty, every digit of a double kept."""
    frame = pd.DataFrame({"age": [30, 30, 30],
                          "visit": pd.to_datetime(["2024-01-05", None, "2024-03-01"]),
                          "x": [1.7976931348623157e308, 0.1 + 0.2, -5e-324],
                          "k": pd.array([1, None, -3], dtype="Int64"),
                          "b": pd.array([True, None, False], dtype="boolean")})
    extract = Extract(frame, ShareOptions(quasi=["age"], k=2, l=None))
    data, _report = export_extract(extract, tmp_path / "d.csv")
    rows = csv_rows(data)
    assert [r[1] for r in rows[1:]] == ["2024-01-05", "", "2024-03-01"]
    assert [float(r[2]) for r in rows[1:]] == frame["x"].tolist()
    assert [r[3] for r in rows[1:]] == ["1", "", "-3"]
    assert [r[4] for r in rows[1:]] == ["True", "", "False"]  # as pandas' to_csv wrote them
    (book,) = export_extract(extract, tmp_path / "d.xlsx")
    ws = openpyxl.load_workbook(book)["Data"]
    values = list(ws.iter_rows(min_row=2, values_only=True))
    assert [v[1] for v in values] == ["2024-01-05", None, "2024-03-01"]
    assert [v[2] for v in values] == frame["x"].tolist()  # XlsxWriter alone would write inf for the first
    assert [v[3] for v in values] == [1, None, -3]
