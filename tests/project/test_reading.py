"""read_table on good files: formats, encodings, delimiters, platforms, identifiers, counts."""

from __future__ import annotations

import hashlib
import json

import pytest

from dpdesk.errors import DataError
from dpdesk.project import ImportReport, Table, read_table
from dpdesk.project.reading.table import Cancelled, list_sheets
from tests.helpers.paths import DATA



def test_table_has_frame_report_and_source_with_sha256():
    path = DATA / "coded.csv"
    table = read_table(path)
    assert isinstance(table, Table) and isinstance(table.report, ImportReport)
    assert table.source.name == "coded.csv"
    assert table.source.size == path.stat().st_size
    assert table.source.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert table.report.format == "csv" and table.report.delimiter == ","
    assert list(table.frame.columns) == ["id", "rr", "group", "region"]
    json.dumps(table.report.to_dict())
    json.dumps(table.to_dict())


def test_report_to_dict_is_json_with_value_labels_and_missing_codes():
    table = read_table(DATA / "survey.sav")
    text = json.dumps(table.report.to_dict())
    assert "Refused" in text and "shoplifted" in text


@pytest.mark.parametrize("name, encoding, delimiter, decimal", [
    ("bom.csv", "utf-8-sig", ",", "."),
    ("european.csv", "cp1252", ";", ","),
    ("utf16_tab.txt", "utf-16", "\t", "."),
    ("pipe.csv", "utf-8", "|", "."),
])
def test_encoding_delimiter_and_decimal_are_sniffed(name, encoding, delimiter, decimal):
    report = read_table(DATA / name).report
    assert (report.encoding, report.delimiter, report.decimal) == (encoding, delimiter, decimal)


def test_utf8_bom_is_not_part_of_the_first_name():
    assert list(read_table(DATA / "bom.csv").frame.columns) == ["q1", "q2"]


def test_cp1252_fallback_warns_and_decodes_umlauts():
    table = read_table(DATA / "european.csv")
    assert any("Windows-1252" in w for w in table.report.warnings)
    assert "München" in set(table.frame["Ort"].astype(str))
    assert table.frame["Gewicht"].tolist() == [1.5, 0.75, 2.25, 1.0]


def test_utf16_text_keeps_accents():
    frame = read_table(DATA / "utf16_tab.txt").frame
    assert "ça va" in set(frame["comment"].dropna().astype(str))


def test_quoted_fields_and_blank_trailing_columns_are_dropped_and_reported():
    table = read_table(DATA / "quoted.csv")
    assert list(table.frame.columns) == ["q1", "comment", "score"]
    assert list(table.frame["comment"].astype(str)) == ["Hello, world", "two\nlines", 'She said "no"']
    dropped = [e["column"] for e in table.report.excluded_columns]
    assert dropped == ["column_4", "column_5"]
    assert any("blank column" in w for w in table.report.warnings)


def test_overrides_win_over_sniffing():
    table = read_table(DATA / "european.csv", encoding="cp1252", delimiter=";", decimal=".")
    assert table.report.decimal == "."
    assert table.report.warnings == []


def test_unknown_override_is_a_data_error():
    with pytest.raises(DataError, match="unknown option"):
        read_table(DATA / "coded.csv", delimter=";")


def test_missing_file_is_a_data_error(tmp_path):
    with pytest.raises(DataError, match="no such file"):
        read_table(tmp_path / "nope.csv")


def test_na_text_stays_an_answer_and_blank_is_missing(tmp_path):
    path = tmp_path / "na.csv"
    path.write_text("q1,q2\nNone,1\nNA,\n")
    frame = read_table(path).frame
    assert list(frame["q1"].astype(str)) == ["None", "NA"]
    assert frame["q2"].isna().tolist() == [False, True]


def test_blank_rows_are_skipped_with_their_row_numbers(tmp_path):
    path = tmp_path / "gaps.csv"
    path.write_text("a,b\n1,2\n,\n3,4\n\n5,6\n")
    table = read_table(path)
    assert table.report.dropped_rows == [3, 5]
    assert table.frame["a"].tolist() == [1, 3, 5]
    assert list(table.frame.index) == [0, 2, 4]  # index + first_data_row = file row


def test_coded_answers_are_stored_compactly():
    frame = read_table(DATA / "redcap_raw.csv").frame
    assert str(frame["rr_answer"].dtype) == "int8"
    assert str(read_table(DATA / "coded.csv").frame["region"].dtype) == "category"
    assert str(read_table(DATA / "survey.sav").frame["rr1"].dtype) == "Int8"


# --- platforms -------------------------------------------------------------------------

def test_qualtrics_three_header_rows():
    table = read_table(DATA / "qualtrics.csv")
    report = table.report
    assert report.platform == "qualtrics" and report.header_rows == 3 and report.first_data_row == 4
    assert report.variable_labels["Q1"].startswith("Toss a coin")
    assert len(table.frame) == 12
    excluded = {e["column"] for e in report.excluded_columns}
    assert {"IPAddress", "ResponseId", "RecipientEmail", "LocationLatitude", "LocationLongitude",
            "RecipientFirstName", "RecipientLastName"} <= excluded
    assert "Q1" in table.frame.columns


def test_qualtrics_legacy_two_header_rows_labels_name_identifiers():
    table = read_table(DATA / "qualtrics_legacy.csv")
    assert (table.report.platform, table.report.header_rows) == ("qualtrics", 2)
    assert table.report.variable_labels["Q1"].startswith("Did you cheat")
    excluded = {e["column"] for e in table.report.excluded_columns}
    assert {"V1", "V3", "V5", "V6"} <= excluded  # ResponseID, Name, EmailAddress, IPAddress


def test_qualtrics_xlsx_is_recognised_too():
    table = read_table(DATA / "qualtrics.xlsx")
    assert (table.report.platform, table.report.header_rows) == ("qualtrics", 3)
    assert table.frame["Q1"].astype(str).tolist() == ["Yes", "No"] * 3


def test_surveymonkey_two_header_rows_and_option_columns():
    table = read_table(DATA / "surveymonkey.csv")
    report = table.report
    assert (report.platform, report.header_rows) == ("surveymonkey", 2)
    assert report.variable_labels["Q1"].startswith("Roll the die")
    assert report.variable_labels["Q2_2"] == "Which of these do you own? - Bicycle"
    assert {"Respondent ID", "IP Address", "Email Address", "First Name", "Last Name"} <= {
        e["column"] for e in report.excluded_columns}
    assert len(table.frame) == 10


def test_limesurvey_by_column_names():
    table = read_table(DATA / "limesurvey.csv")
    assert table.report.platform == "limesurvey"
    assert "ipaddr" not in table.frame.columns and "RR1" in table.frame.columns


@pytest.mark.parametrize("name", ["redcap_raw.csv", "redcap_labels.csv"])
def test_redcap_raw_and_labelled(name):
    table = read_table(DATA / name)
    assert table.report.platform == "redcap"
    assert "Complete?" not in table.frame.columns  # duplicates were told apart


def test_platform_can_be_forced_off():
    table = read_table(DATA / "qualtrics.csv", platform="none", keep_identifiers=True)
    assert table.report.header_rows == 1 and table.report.platform is None


# --- spreadsheets and statistics files --------------------------------------------------

def test_xlsx_sheets_listed_and_chosen():
    assert list_sheets(DATA / "survey.xlsx") == ["Responses", "Notes"]
    first = read_table(DATA / "survey.xlsx")
    assert first.report.sheet == "Responses" and any("2 sheets" in w for w in first.report.warnings)
    notes = read_table(DATA / "survey.xlsx", sheet="Notes")
    assert list(notes.frame.columns) == ["note"]
    assert read_table(DATA / "survey.xlsx", sheet=1).report.sheet == "Notes"
    with pytest.raises(DataError, match="Responses"):
        read_table(DATA / "survey.xlsx", sheet="Data")


def test_sav_keeps_user_missing_codes_distinct_from_blank():
    table = read_table(DATA / "survey.sav")
    column = table.frame["rr1"]
    assert column.tolist()[:5] == [1, 0, 1, 98, 99]
    assert column.isna().tolist()[5]
    assert table.report.missing_values["rr1"] == [98.0, 99.0]
    assert table.report.value_labels["rr1"][98.0] == "Refused"
    assert table.report.variable_labels["rr1"].startswith("Have you ever shoplifted")
    assert table.report.first_data_row == 1


def test_dta_value_and_variable_labels():
    table = read_table(DATA / "survey.dta")
    assert table.report.format == "dta"
    assert table.report.value_labels["rr1"] == {0: "No", 1: "Yes"}
    assert table.report.variable_labels["rr1"] == "Answer"


def test_contents_decide_over_extension(tmp_path):
    path = tmp_path / "really_text.xlsx"
    path.write_text("q1,q2\n1,2\n")
    table = read_table(path)
    assert table.report.format == "csv"
    assert any("contents are CSV" in w for w in table.report.warnings)


# --- identifiers -------------------------------------------------------------------------

def test_identifiers_by_name_and_by_content():
    table = read_table(DATA / "named.csv")
    reasons = {e["column"]: e["reason"] for e in table.report.excluded_columns}
    assert set(reasons) == {"first_name", "last_name", "phone", "contact"}
    assert "by content" in reasons["contact"] and "e-mail" in reasons["contact"]
    assert list(table.frame.columns) == ["answer"]


def test_ip_and_phone_by_content(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("a,b,c,d\n10.1.2.3,+49 30 1234567,2024-01-05,Yes\n"
                    "192.168.0.1,+1 (555) 010-9999,2024-01-06,No\n")
    table = read_table(path)
    assert {e["column"] for e in table.report.excluded_columns} == {"a", "b"}
    assert list(table.frame.columns) == ["c", "d"]


def test_keep_identifiers_true_or_list():
    table = read_table(DATA / "named.csv", keep_identifiers=True)
    assert table.report.excluded_columns == [] and table.frame.shape[1] == 5
    assert any("kept" in w for w in table.report.warnings)
    some = read_table(DATA / "named.csv", keep_identifiers=["phone"])
    assert "phone" in some.frame.columns and "first_name" not in some.frame.columns
    with pytest.raises(DataError, match="not have"):
        read_table(DATA / "named.csv", keep_identifiers=["nope"])


def test_question_mentioning_email_is_not_an_identifier(tmp_path):
    path = tmp_path / "q.csv"
    path.write_text("q1,q2\nYes,No\nNo,No\n")
    table = read_table(path, header_rows=1)
    assert table.report.excluded_columns == []


# --- counts tables -------------------------------------------------------------------------

def test_counts_table_detected():
    table = read_table(DATA / "counts.csv")
    report = table.report
    assert report.kind == "counts"
    assert (report.response_column, report.count_column, report.group_columns) == ("response", "count", ["group"])


def test_counts_table_forced_and_refused_when_it_has_no_counts(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("answer,n\nyes,3\nno,4\n")
    assert read_table(path).report.kind == "responses"
    assert read_table(path, kind="counts").report.count_column == "n"
    with pytest.raises(DataError, match="count"):
        read_table(DATA / "coded.csv", kind="counts")


# --- progress and cancellation ---------------------------------------------------------------

@pytest.fixture(scope="module")
def big_csv(tmp_path_factory):
    import numpy as np

    path = tmp_path_factory.mktemp("big") / "big.csv"
    rng = np.random.default_rng(5)
    codes = rng.integers(0, 3, size=(50_000, 6))
    with open(path, "w") as out:
        out.write("q1,q2,q3,q4,q5,group\n")
        np.savetxt(out, codes, fmt="%d", delimiter=",")
    return path


def test_progress_is_reported_in_order_up_to_one(big_csv):
    seen = []
    table = read_table(big_csv, progress=seen.append)
    assert len(table.frame) == 50_000
    assert seen[0] == 0.0 and seen[-1] == 1.0 and len(seen) >= 4
    assert seen == sorted(seen)
    assert all(str(t) == "int8" for t in table.frame.dtypes)


def test_progress_returning_false_cancels(big_csv):
    calls = []

    def stop_half_way(fraction):
        calls.append(fraction)
        return fraction < 0.5

    with pytest.raises(Cancelled):
        read_table(big_csv, progress=stop_half_way)
    assert max(calls) >= 0.5


def test_progress_raising_its_own_error_propagates_unchanged(big_csv):
    class WorkerCancelled(Exception):
        pass

    def cancel(fraction):
        if fraction > 0.2:
            raise WorkerCancelled()

    with pytest.raises(WorkerCancelled):
        read_table(big_csv, progress=cancel)


def test_cancelled_is_a_data_error_too(big_csv):
    with pytest.raises(DataError):
        read_table(big_csv, progress=lambda f: f < 0.5)


def test_large_stat_files_are_read_in_slices_with_progress(monkeypatch):
    from dpdesk.project.reading import spss

    whole = read_table(DATA / "survey.sav").frame
    monkeypatch.setattr(spss, "SLICE", 3)
    seen = []
    sliced = read_table(DATA / "survey.sav", progress=seen.append)
    assert sliced.frame.equals(whole)
    assert len([f for f in seen if 0.05 < f < 0.88]) >= 3
    assert sliced.report.missing_values == {"rr1": [98.0, 99.0]}


def test_report_aliases():
    report = read_table(DATA / "named.csv").report
    assert report.excluded == ["first_name", "last_name", "phone", "contact"]
    assert report.decimal_mark == "." and report.missing_codes == {}


def test_location_pairs_by_content(tmp_path):
    path = tmp_path / "geo.csv"
    path.write_text('where,answer\n"51.5074, -0.1278",Yes\n"48.8566, 2.3522",No\n')
    table = read_table(path)
    assert table.report.excluded == ["where"]
    assert "location" in table.report.excluded_columns[0]["reason"]


def test_sheet_by_position_as_text():
    assert read_table(DATA / "survey.xlsx", sheet="1").report.sheet == "Notes"


def test_dta_user_missing_letters_stay_distinct(tmp_path):
    import pandas as pd
    import pyreadstat

    path = tmp_path / "tagged.dta"
    frame = pd.DataFrame({"q": pd.array([1, 0, "a", 1, "b"], dtype=object)})
    pyreadstat.write_dta(frame, path, missing_user_values={"q": ["a", "b"]},
                         variable_value_labels={"q": {0: "No", 1: "Yes", "a": "Refused"}})
    from dpdesk.project.reading.stata import TAG_CODES

    table = read_table(path)
    a, b = TAG_CODES["a"], TAG_CODES["b"]
    assert table.report.missing_values == {"q": [a, b]}  # distinct missing codes, as SPSS's
    assert table.frame["q"].dtype == "float64" and table.frame["q"].tolist() == [1, 0, a, 1, b]
    assert table.report.value_labels["q"] == {0: "No", 1: "Yes", a: "Refused", b: ".b"}


def test_excel_sep_hint_line_sets_the_delimiter(tmp_path):
    path = tmp_path / "hint.csv"
    path.write_bytes(b"sep=;\r\nq1;w\r\n1;1,5\r\n0;2\r\n")
    table = read_table(path)
    assert (table.report.delimiter, table.report.decimal, table.report.first_data_row) == (";", ",", 3)
    assert list(table.frame.columns) == ["q1", "w"] and table.frame["w"].tolist() == [1.5, 2.0]


def test_with_and_without_progress_give_the_same_table(tmp_path):
    """Over 5 MB pandas may parse a path with threads; the counted stream must agree."""
    path = tmp_path / "six_mb.csv"
    block = "".join(f"{k % 3},{k % 5},,{'North' if k % 2 else 'South'},{k % 7 - 1}\n" for k in range(1000))
    path.write_text("a,b,c,region,d\n" + block * 500 + "1,2,,East,3\n")
    quiet = read_table(path)
    watched = read_table(path, progress=lambda f: None)
    assert quiet.frame.equals(watched.frame)
    assert len(quiet.frame) == 500_001 and str(quiet.frame["a"].dtype) == "int8"
    assert set(quiet.frame["region"].cat.categories) == {"North", "South", "East"}
    assert quiet.frame["c"].isna().all()


def test_header_rows_that_agree_with_the_platform_keep_it():
    table = read_table(DATA / "qualtrics.csv", header_rows=3)
    assert table.report.platform == "qualtrics"
    plain = read_table(DATA / "qualtrics.csv", header_rows=1, keep_identifiers=True)
    assert plain.report.platform is None and plain.report.header_rows == 1


@pytest.mark.parametrize("spelled", ["\t", "\\t", "tab", "TAB"])
def test_tab_delimiter_spellings(spelled):
    assert read_table(DATA / "utf16_tab.txt", delimiter=spelled).report.delimiter == "\t"


def test_one_column_file_keeps_blank_answers_but_not_trailing_blank_lines(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("q1\nYes\n\nNo\n\n\n")
    table = read_table(path)
    assert table.frame["q1"].isna().tolist() == [False, True, False]
    assert table.report.dropped_rows == [5, 6]


@pytest.mark.parametrize("header", ["study_id,age,survey_complete", "pid,redcap_event_name,q1",
                                    "Study ID,Event Name,Answer,Complete?"])
def test_redcap_with_a_custom_record_id(tmp_path, header):
    path = tmp_path / "r.csv"
    path.write_text(header + "\n" + ",".join(["1"] * len(header.split(","))) + "\n")
    assert read_table(path).report.platform == "redcap"


def test_list_sheets_of_a_csv_says_it_has_none():
    with pytest.raises(DataError, match="no sheets"):
        list_sheets(DATA / "coded.csv")


def test_large_workbook_reports_progress_and_can_be_cancelled(tmp_path):
    import datetime

    import xlsxwriter

    path = tmp_path / "big.xlsx"
    book = xlsxwriter.Workbook(path, {"constant_memory": True})
    sheet = book.add_worksheet("Data")
    when = book.add_format({"num_format": "yyyy-mm-dd"})
    sheet.write_row(0, 0, ["q1", "when"])
    for r in range(1, 5_001):
        sheet.write_number(r, 0, r % 2)
        sheet.write_datetime(r, 1, datetime.datetime(2024, 1, 1 + r % 28), when)
    book.close()
    seen = []
    table = read_table(path, progress=seen.append)
    assert len(table.frame) == 5_000 and str(table.frame["q1"].dtype) == "int8"
    assert str(table.frame["when"].dtype).startswith("datetime64")
    assert len([f for f in seen if 0.1 < f < 0.8]) >= 1
    with pytest.raises(Cancelled):
        read_table(path, progress=lambda f: f < 0.2)


@pytest.fixture
def small_pieces(monkeypatch):
    """Make the threaded piece-wise parser run on small files."""
    from dpdesk.project.reading import chunks

    monkeypatch.setattr(chunks, "MIN_BYTES", 1)
    monkeypatch.setattr(chunks, "PIECE", 1 << 12)
    monkeypatch.setattr(chunks, "workers", lambda: 2)


def test_piecewise_parse_agrees_with_serial(tmp_path, monkeypatch):
    from dpdesk.project.reading import chunks

    path = tmp_path / "p.csv"
    rows = "".join(f"{k % 3},{'' if k % 11 == 0 else k % 5},{'abc'[k % 3]},{k / 4}\n" for k in range(6000))
    path.write_text("a,b,c,d\nla,lb,lc,ld\n" + rows)
    serial = read_table(path, header_rows=2)
    monkeypatch.setattr(chunks, "MIN_BYTES", 1)
    monkeypatch.setattr(chunks, "PIECE", 1 << 12)
    monkeypatch.setattr(chunks, "workers", lambda: 2)
    seen = []
    pieces = read_table(path, header_rows=2, progress=seen.append)
    assert pieces.frame.equals(serial.frame) and len(pieces.frame) == 6000
    assert len([f for f in seen if 0.15 < f < 0.9]) > 5
    assert list(pieces.frame["c"].cat.categories) == ["a", "b", "c"]


def test_piecewise_parse_falls_back_for_quoted_line_breaks_and_errors(tmp_path, small_pieces):
    path = tmp_path / "q.csv"
    rows = [f'{k},"line one\nline two {k}"\n' for k in range(3000)]
    path.write_text("id,comment\n" + "".join(rows))
    table = read_table(path, progress=lambda f: None)
    assert len(table.frame) == 3000 and table.frame["comment"].iloc[5] == "line one\nline two 5"
    bad = tmp_path / "r.csv"
    lines = ["1,2"] * 5000
    lines[4000] = "1,2,3"
    bad.write_text("a,b\n" + "\n".join(lines) + "\n")
    with pytest.raises(DataError, match="row 4002"):
        read_table(bad, progress=lambda f: None)
    with pytest.raises(Cancelled):
        read_table(path, progress=lambda f: f < 0.3)


def test_piecewise_parse_with_pieces_of_different_types(tmp_path, monkeypatch):
    from dpdesk.project.reading import chunks

    path = tmp_path / "t.csv"
    first = "".join(f"{k % 3},{k % 4}\n" for k in range(3000))
    second = "".join(f"{k / 8},{'x' if k % 2 else ''}\n" for k in range(3000))
    path.write_text("a,b\n" + first + second)
    serial = read_table(path).frame  # under MIN_BYTES: one parser
    monkeypatch.setattr(chunks, "MIN_BYTES", 1)
    monkeypatch.setattr(chunks, "PIECE", 1 << 12)
    monkeypatch.setattr(chunks, "workers", lambda: 2)
    pieces = read_table(path).frame
    assert str(pieces["a"].dtype) == str(serial["a"].dtype) == "float64"
    assert pieces["a"].tolist() == serial["a"].tolist()
    assert [str(v) for v in pieces["b"]] == [str(v) for v in serial["b"]]
