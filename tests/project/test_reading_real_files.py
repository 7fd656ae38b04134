"""Files that real users have and that failed before issue 21 (section 3), through the API and
``dpdesk import``/``dpdesk share``: Stata daily dates, SPSS dates beyond the year 9999, a
workbook with one stray cell at XFD3000, Stata's missing values ``.a``-``.z`` in a shared
extract, SAS transport files, rows shorter than the header, and a title line above the header.
The fixtures are written by tests/data/make_fixtures.py (``real_files``).
"""

from __future__ import annotations

import datetime as dt
import time
import tracemalloc

import pandas as pd
import pyreadstat
import pytest

from dpdesk.errors import DataError
from dpdesk.project import Project, read_table
from dpdesk.project.analysis.estimates import stored_table

from tests.helpers.cli import run
from tests.helpers.paths import DATA


def _stored(tmp_path, table):
    with Project.create(tmp_path / "p.dpdesk") as p:
        p.add_dataset("d", table.frame, report=table.report.to_dict())
        return stored_table(p, "d")


def _cli_import(tmp_path, capsys, path, *options):
    project = tmp_path / "cli.dpdesk"
    assert run(capsys, "new", project)[0] == 0
    code, out, err = run(capsys, "import", project, path, *options)
    assert code == 0, out + err
    assert "Traceback" not in out + err
    with Project.open(project) as p:
        return p.dataset_frame(p.datasets()[0].name), out


# ----------------------------------------------------------------------------- Stata dates

def test_stata_daily_dates_and_date_times_read_and_store_exactly(tmp_path, capsys):
    table = read_table(DATA / "stata_dates.dta")
    frame = table.frame
    assert frame["mydate"].tolist()[:4] == [dt.date(2018, 5, 6), dt.date(1880, 5, 6), dt.date(1960, 1, 1),
                                            dt.date(1583, 1, 1)]
    assert pd.isna(frame["mydate"].iloc[4])
    assert frame["dtime"].iloc[0] == pd.Timestamp("2018-05-06 10:10:10") and pd.isna(frame["dtime"].iloc[4])
    assert frame["dtime"].iloc[3] == pd.Timestamp("1583-01-01")
    assert table.report.value_labels["mylabl"] == {1: "Male", 2: "Female"}
    back = _stored(tmp_path, table)
    pd.testing.assert_frame_equal(back.frame, frame)
    stored, _out = _cli_import(tmp_path, capsys, DATA / "stata_dates.dta")
    pd.testing.assert_frame_equal(stored, frame, check_names=False)


def test_stata_missing_values_in_a_date_column_are_blanks_with_a_warning(tmp_path):
    path = tmp_path / "dates_tagged.dta"
    pyreadstat.write_dta(pd.DataFrame({"seen": pd.Series([dt.date(2020, 1, 2), "a", None, dt.date(2021, 5, 6)],
                                                         dtype=object),
                                       "q1": [1.0, 2.0, 1.0, 2.0]}), path, missing_user_values={"seen": ["a"]})
    table = read_table(path)
    assert table.frame["seen"].tolist()[0] == dt.date(2020, 1, 2) and pd.isna(table.frame["seen"].iloc[1])
    assert any("'seen'" in w and ".a" in w and "blanks" in w for w in table.report.warnings)


# ----------------------------------------------------------------------------- SPSS far dates

def test_an_spss_date_beyond_the_year_9999_keeps_its_column_as_numbers_naming_column_and_row(tmp_path, capsys):
    table = read_table(DATA / "far_date.sav")
    frame = table.frame
    assert frame["interview"].tolist()[:3] == [13_000_000_000.0, 13_000_086_400.0, 1e16]  # exactly as stored
    born = frame["born"].tolist()
    spss_day = (dt.datetime(1582, 10, 14) + dt.timedelta(seconds=12_000_000_000)).date()
    assert born[0] == spss_day and pd.isna(born[2])  # the other date column still reads as dates
    warning = next(w for w in table.report.warnings if "interview" in w)
    assert "row 3" in warning and "1e+16" in warning and "DATE11" in warning and "SPSS" in warning
    pd.testing.assert_frame_equal(_stored(tmp_path, table).frame, frame)
    _stored_frame, out = _cli_import(tmp_path, capsys, DATA / "far_date.sav")
    assert "'interview'" in out and "row 3" in out


def test_a_stata_date_beyond_the_year_9999_is_named_too(tmp_path):
    path = tmp_path / "far.dta"
    pyreadstat.write_dta(pd.DataFrame({"q1": [1.0, 2.0, 1.0], "seen": [0.0, 1e9, None], "at": [1e3, 2e3, 3e18],
                                       "ok": [0.0, 1.0, 2.0]}),
                         path, variable_format={"seen": "%td", "at": "%tc", "ok": "%td"})
    table = read_table(path)
    assert table.frame["seen"].tolist()[:2] == [0, 1_000_000_000] and table.frame["at"].iloc[2] == 3e18
    assert table.frame["ok"].tolist() == [dt.date(1960, 1, 1), dt.date(1960, 1, 2), dt.date(1960, 1, 3)]
    warnings = " ".join(table.report.warnings)
    assert "'seen' has the date format %td, but row 2 holds 1e+09" in warnings
    assert "'at' has the date format %tc, but row 3 holds 3e+18" in warnings


# ----------------------------------------------------------------------------- a stray far cell

def test_a_stray_cell_at_xfd3000_is_read_in_little_time_and_memory_with_a_warning(tmp_path, capsys):
    start = time.perf_counter()
    table = read_table(DATA / "stray_cell.xlsx")
    assert time.perf_counter() - start < 10  # was 13-40 s (about 0.3 s now, on a busy machine more)
    tracemalloc.start()
    read_table(DATA / "stray_cell.xlsx")
    _size, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 50 << 20  # was about 3 GB (1.5 MB now)
    assert list(table.frame.columns) == ["id", "q1", "q2"] and table.frame["id"].tolist() == [1, 2, 3, 4, 5]
    assert [w for w in table.report.warnings if "XFD3000" in w and "'x'" in w and "A1:C6" in w]
    stored, out = _cli_import(tmp_path, capsys, DATA / "stray_cell.xlsx")
    assert "XFD3000" in out and list(stored.columns) == ["id", "q1", "q2"]


def test_a_lone_value_next_to_the_table_is_data_not_a_stray(tmp_path):
    import xlsxwriter

    path = tmp_path / "next_to.xlsx"
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Data")
    for r, row in enumerate([["id", "q1"], [1, 0], [2, 1]]):
        sheet.write_row(r, 0, row)
    sheet.write_number(3, 2, 7)  # C4: the next row and the next column
    book.close()
    table = read_table(path)
    assert "column_3" in table.frame.columns and table.frame["column_3"].tolist()[-1] == 7
    assert not [w for w in table.report.warnings if "stray" in w]


# ----------------------------------------------------------------------------- Stata .a-.z shared

def test_stata_missing_values_are_blanks_in_a_shared_extract_and_counted_in_its_report(tmp_path, capsys):
    project = tmp_path / "share.dpdesk"
    assert run(capsys, "new", project)[0] == 0
    assert run(capsys, "import", project, DATA / "tagged_missing.dta")[0] == 0
    out_file = tmp_path / "extract.csv"
    code, out, err = run(capsys, "share", project, out_file, "--quasi", "grp", "--sensitive", "q1", "--k", "2")
    assert code == 0, out + err
    text = out_file.read_text(encoding="utf-8")
    assert "e+307" not in text and "8990660123939097" not in text
    shared = pd.read_csv(out_file)
    assert shared["q1"].isna().sum() == 4 and shared["q1"].dropna().tolist() == [1, 2, 5, 3, 4, 1]
    report = (tmp_path / "extract.disclosure-report.txt").read_text(encoding="utf-8")
    assert "q1: 3 Stata missing value(s) written as blanks: .a = Refused (2), .b (1)" in report
    sav = tmp_path / "extract.sav"
    assert run(capsys, "share", project, sav, "--quasi", "grp", "--sensitive", "q1", "--k", "2")[0] == 0
    back, meta = pyreadstat.read_sav(sav)
    assert back["q1"].isna().sum() == 4 and back["q1"].max() == 5
    assert all(k < 1e300 for k in meta.variable_value_labels.get("q1", {}))


# ----------------------------------------------------------------------------- SAS transport

@pytest.mark.parametrize("version", [5, 8])
def test_sas_transport_files_are_read_with_labels_and_dates(tmp_path, capsys, version):
    path = DATA / "survey.xpt"
    if version == 8:
        path = tmp_path / "survey8.xpt"
        frame, meta = pyreadstat.read_xport(DATA / "survey.xpt")
        pyreadstat.write_xport(frame, path, file_format_version=8, column_labels=meta.column_labels)
    table = read_table(path)
    assert table.report.format == "xpt"
    assert table.frame["RR1"].tolist() == [1, 0, 1, 0]
    assert table.frame["VISIT"].tolist()[0] == dt.date(2020, 1, 2) and pd.isna(table.frame["VISIT"].iloc[2])
    assert table.report.variable_labels["RR1"] == "Answer by the spinner"
    stored, out = _cli_import(tmp_path, capsys, path)
    assert "xpt" in out and stored["RR1"].tolist() == [1, 0, 1, 0]


# ----------------------------------------------------------------------------- rows against the header

def test_rows_shorter_than_the_header_end_in_blanks(tmp_path, capsys):
    path = tmp_path / "short.csv"
    path.write_text("q1,q2,q3\n1,2\n3,4\n5,6,7\n8,9\n")
    frame = read_table(path).frame
    assert frame["q3"].tolist()[2] == 7 and frame["q3"].isna().sum() == 3
    stored, _out = _cli_import(tmp_path, capsys, path)
    assert stored["q3"].tolist()[2] == 7


def test_a_row_wider_than_the_header_is_compared_with_the_header(tmp_path, capsys):
    path = tmp_path / "wide.csv"
    path.write_text("q1,q2,q3\n1,2\n3,4\n5,6,7,8\n")
    with pytest.raises(DataError) as info:
        read_table(path)
    message = str(info.value)
    assert "row 4 has 4 fields but the header has 3 names" in message
    project = tmp_path / "t.dpdesk"
    run(capsys, "new", project)
    code, out, err = run(capsys, "import", project, path)
    assert code != 0 and "row 4 has 4 fields but the header has 3 names" in out + err
    blank_above = tmp_path / "blank_above.csv"
    blank_above.write_text("\n\nq1,q2\n1,2\n3,4,5\n")
    with pytest.raises(DataError, match="row 5 has 3 fields but the header has 2 names"):
        read_table(blank_above)


# ----------------------------------------------------------------------------- a title line

@pytest.mark.parametrize("name", ["title_line.csv", "title_line.xlsx"])
def test_a_title_line_above_the_header_is_skipped_and_said(tmp_path, capsys, name):
    table = read_table(DATA / name)
    assert list(table.frame.columns) == ["id", "q1", "q2"] and table.frame["id"].tolist() == [1, 2, 3, 4]
    assert table.report.first_data_row == 3
    assert [w for w in table.report.warnings if "title" in w and "Survey of shoplifting 2024" in w]
    try:  # the user can still read the top line as the header
        as_is = read_table(DATA / name, header_rows=1)
    except DataError as exc:  # in a CSV the title line has one field, the rows below three
        assert "row 2 has 3 fields but the header has 1 names" in str(exc)
    else:
        assert list(as_is.frame.columns)[0] == "Survey of shoplifting 2024 (responses)"
    stored, out = _cli_import(tmp_path, capsys, DATA / name)
    assert "title" in out and list(stored.columns) == ["id", "q1", "q2"]


@pytest.mark.parametrize("text", ["id\n1,2\n3,4\n",  # a header of one name: data, not a title
                                  "Total,,\n1,2,3\n4,5,6\n",  # numbers below: no header there
                                  "q\n1\n2\n3\n"])  # one column
def test_a_one_cell_first_line_without_a_header_below_is_not_a_title(tmp_path, text):
    path = tmp_path / "plain.csv"
    path.write_text(text)
    try:
        table = read_table(path)
    except DataError:
        return
    assert not [w for w in table.report.warnings if "title" in w]


def test_stata_missing_values_through_the_python_api_of_sharing(tmp_path):
    from dpdesk.project.sharing.checks import ShareOptions
    from dpdesk.project.sharing.extract import Extract
    from dpdesk.project.sharing.writing import export_extract, report_rows

    table = _stored(tmp_path, read_table(DATA / "tagged_missing.dta"))  # labels keyed as stored (JSON)
    labels = {"value_labels": table.report.value_labels, "variable_labels": table.report.variable_labels}
    extract = Extract(table.frame, ShareOptions(quasi=["grp"], sensitive=["q1"], k=2), labels=labels)
    assert extract.declared_missing == {"q1": {".a": 2, ".b": 1}}
    assert extract.shared_frame()["q1"].isna().sum() == 4 and extract.shared_frame()["q1"].max() == 5
    assert ("missing values", "q1: 3 Stata missing value(s) written as blanks: .a = Refused (2), .b (1)") \
        in report_rows(extract)
    assert table.frame["q1"].max() > 8e307  # the stored data keep the codes: only the extract blanks them
    written = export_extract(extract, tmp_path / "x.xlsx")
    shared = pd.read_excel(written[0], sheet_name="Data")
    assert shared["q1"].isna().sum() == 4
