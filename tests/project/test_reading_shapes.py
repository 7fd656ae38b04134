"""Files that imported wrongly before issue 13 ("Files that import wrongly today").

Each shape has a small fixture in tests/data/ (written by tests/data/make_fixtures.py): a
stale ``<dimension>``, blank lines above the header, a stray cell at XFD1048576 (left out
with a warning), malformed xlsx XML, Stata extended missing values, CR-only line ends, a workbook with its parts at
the zip root, and an SPSS portable file. Every refusal is a DataError in words, and
``dpdesk import`` never prints a traceback.
"""

from __future__ import annotations

import math
import time

import openpyxl
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpdesk.errors import DataError
from dpdesk.project import Project, read_table
from dpdesk.project.analysis.estimates import stored_table
from dpdesk.project.reading import excel

from tests.helpers.cli import run
from tests.helpers.paths import DATA


def test_rows_beyond_a_stale_dimension_are_read():
    declared = openpyxl.load_workbook(DATA / "stale_dimension.xlsx", read_only=True)["Data"].max_row
    assert declared == 3  # the fixture's <dimension> claims 2 data rows
    expected = pd.read_excel(DATA / "stale_dimension.xlsx")  # pandas resets the dimension
    table = read_table(DATA / "stale_dimension.xlsx")
    assert len(table.frame) == len(expected) == 32
    assert table.frame["q1"].tolist() == expected["q1"].tolist()


@pytest.mark.parametrize("name, skipped", [("blank_line_above.csv", 1), ("skip_lines.csv", 3)])
def test_blank_lines_above_the_header_are_skipped(name, skipped):
    table = read_table(DATA / name)
    frame = table.frame
    assert table.report.first_data_row == skipped + 2
    assert f"Skipped {skipped} blank line(s) above the header." in table.report.warnings
    if name == "skip_lines.csv":  # csvkit's shape: the header is not a respondent
        assert list(frame.columns) == ["text", "date", "integer", "boolean", "float"]
        assert frame["text"].tolist()[0] == "Chicago Reader" and len(frame) == 4
        assert frame["integer"].dtype.kind in "iu" or str(frame["integer"].dtype).startswith("Int")
        assert frame["boolean"].tolist()[:3] == [True, True, False]
    else:
        assert list(frame.columns) == ["id", "q1", "q2"] and len(frame) == 32
        assert frame["id"].tolist() == list(range(1, 33))  # numbers, not text under a 'Subject'


def test_a_qualtrics_export_below_a_blank_line_keeps_its_three_header_rows():
    plain = read_table(DATA / "qualtrics.csv")
    table = read_table(DATA / "qualtrics_blank_line.csv")
    assert table.report.platform == "qualtrics" and table.report.header_rows == 3
    assert table.report.first_data_row == plain.report.first_data_row + 1
    pd.testing.assert_frame_equal(table.frame.reset_index(drop=True), plain.frame.reset_index(drop=True))
    assert not any("ImportId" in str(v) for v in table.frame.astype(str).to_numpy().ravel())


def test_a_stray_cell_at_xfd1048576_is_left_out_at_once_with_a_warning_naming_it():
    start = time.perf_counter()
    table = read_table(DATA / "far_cell.xlsx")
    assert time.perf_counter() - start < 20
    assert list(table.frame.columns) == ["id", "q1", "q2"] and len(table.frame) == 5
    assert any("XFD1048576" in w and "left out" in w for w in table.report.warnings)


def test_values_spanning_more_than_the_cell_limit_are_refused_naming_sheet_and_cell(tmp_path):
    import xlsxwriter

    path = tmp_path / "wide_and_long.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Data")
    sheet.write_row(0, 0, ["id", "q1"])
    sheet.write_string(0, 16_383, "note")  # in the header row: not a lone stray
    sheet.write_row(1, 0, [1, 0])
    sheet.write_number(1_048_575, 0, 2)  # in column A: not a lone stray either
    book.close()
    start = time.perf_counter()
    with pytest.raises(DataError) as info:
        read_table(path)
    assert time.perf_counter() - start < 20
    message = str(info.value)
    assert "wide_and_long.xlsx" in message and "sheet 'Data'" in message and "A1048576" in message
    assert f"{excel.MAX_CELLS:,}" in message


def test_a_sparse_sheet_is_read_by_the_cells_that_exist(tmp_path):
    import xlsxwriter

    path = tmp_path / "sparse.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Data")
    sheet.write_row(0, 0, ["id", "q1"])
    sheet.write_row(1, 0, [1, 0])
    sheet.write_row(40_000, 0, [2, 1])  # a long gap of empty rows: blank rows, not a long read
    book.close()
    start = time.perf_counter()
    table = read_table(path)
    assert time.perf_counter() - start < 20
    assert table.frame["id"].tolist() == [1, 2] and table.report.dropped_rows[:1] == [3]


def test_malformed_xlsx_xml_is_a_data_error_naming_file_and_part():
    with pytest.raises(DataError) as info:
        read_table(DATA / "malformed_xml.xlsx")
    message = str(info.value)
    assert "malformed_xml.xlsx" in message and "xl/worksheets/sheet1.xml" in message
    assert "malformed" in message and "save it again" in message


def test_stata_extended_missing_values_stay_numeric_and_distinct(tmp_path):
    from dpdesk.project.reading.stata import TAG_CODES

    table = read_table(DATA / "tagged_missing.dta")
    q1 = table.frame["q1"]
    assert pd.api.types.is_float_dtype(q1.dtype)
    a, b = TAG_CODES["a"], TAG_CODES["b"]
    assert q1.tolist()[:5] == [1.0, 2.0, a, 5.0, b] and math.isnan(q1.iloc[5])
    assert table.report.missing_values["q1"] == [a, b]
    assert table.report.value_labels["q1"] == {1: "Never", 5: "Daily", a: "Refused", b: ".b"}
    # a histogram over the answers 1..5 finds the numbers, not text
    assert int(q1.isin([1, 2, 3, 4, 5]).sum()) == 6
    with Project.create(tmp_path / "p.dpdesk") as p:
        p.add_dataset("d", table.frame, report=table.report.to_dict())
        back = stored_table(p, "d")
    pd.testing.assert_frame_equal(back.frame, table.frame)
    assert back.report.missing_values["q1"] == [a, b]


def test_cr_only_line_ends_are_read():
    table = read_table(DATA / "cr_only.csv")
    expected = read_table(DATA / "blank_line_above.csv").frame
    pd.testing.assert_frame_equal(table.frame.reset_index(drop=True), expected.reset_index(drop=True))


def test_a_workbook_with_its_parts_at_the_zip_root_is_read():
    assert openpyxl.load_workbook(DATA / "root_parts.xlsx")["Data"].max_row == 33  # openpyxl reads it
    table = read_table(DATA / "root_parts.xlsx")
    assert len(table.frame) == 32 and list(table.frame.columns) == ["id", "q1", "q2"]


def test_an_spss_portable_file_is_read_with_pyreadstat():
    table = read_table(DATA / "survey.por")
    assert table.report.format == "por"
    assert table.frame["Q1"].tolist() == [1, 0, 1, 1] and table.frame["AGE"].tolist() == [21, 34, 45, 52]


def test_a_damaged_portable_file_is_refused_in_words(tmp_path):
    path = tmp_path / "broken.por"
    data = (DATA / "survey.por").read_bytes()
    path.write_bytes(data[: len(data) // 2 + 20])
    with pytest.raises(DataError, match=r"broken.por.*(portable|SPSS)"):
        read_table(path)


def test_booleans_import_and_read_back(tmp_path, capsys):
    project = tmp_path / "t.dpdesk"
    assert run(capsys, "new", project)[0] == 0
    assert run(capsys, "import", project, DATA / "booleans.csv")[0] == 0
    with Project.open(project) as p:
        frame = p.dataset_frame("booleans.csv")
    assert frame["used"].tolist()[:4] == [True, False, False, True] and pd.isna(frame["used"].iloc[4])
    assert frame["Finished"].tolist() == [True] * 7 + [False] + [True] * 4


@pytest.mark.parametrize("name", ["malformed_xml.xlsx"])
def test_the_command_line_prints_no_traceback(tmp_path, capsys, name):
    project = tmp_path / "t.dpdesk"
    run(capsys, "new", project)
    code, out, err = run(capsys, "import", project, DATA / name)
    assert code != 0
    assert "Traceback" not in out + err and name in out + err


def test_excel_true_false_cells_with_blanks_stay_booleans(tmp_path):
    import xlsxwriter

    path = tmp_path / "flags.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Data")
    for r, row in enumerate([["id", "ok"], [1, True], [2, None], [3, False]]):
        sheet.write_row(r, 0, row)
    book.close()
    frame = read_table(path).frame
    assert frame["ok"].tolist()[0] is True and frame["ok"].tolist()[2] is False  # not 1/0, not "True"
    with Project.create(tmp_path / "p.dpdesk") as p:
        p.add_dataset("d", frame)
        pd.testing.assert_frame_equal(p.dataset_frame("d"), frame)


def test_without_openpyxls_sheet_parser_the_public_rows_give_the_same_table(monkeypatch):
    expected = read_table(DATA / "stale_dimension.xlsx").frame
    monkeypatch.delattr("openpyxl.worksheet._reader.WorkSheetParser")
    pd.testing.assert_frame_equal(read_table(DATA / "stale_dimension.xlsx").frame, expected)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(blank=st.lists(st.sampled_from(["", ",,", " ", ";"]), max_size=4),
       end=st.sampled_from(["\n", "\r\n", "\r"]),
       rows=st.lists(st.tuples(st.integers(0, 99), st.sampled_from(["", "yes", "no"])), min_size=1, max_size=8),
       bom=st.booleans())
def test_any_blank_lines_above_and_any_line_end_read_the_same_rows(tmp_path, blank, end, rows, bom):
    body = end.join(["id,answer"] + [f"{a},{b}" for a, b in rows]) + end
    plain, shifted = tmp_path / "plain.csv", tmp_path / "shifted.csv"
    plain.write_bytes(body.replace(end, "\n").encode())
    shifted.write_bytes((b"\xef\xbb\xbf" if bom else b"") + ("".join(b + end for b in blank) + body).encode())
    expected, table = read_table(plain), read_table(shifted)
    pd.testing.assert_frame_equal(table.frame.reset_index(drop=True), expected.frame.reset_index(drop=True))
    assert table.report.first_data_row == expected.report.first_data_row + len(blank)
