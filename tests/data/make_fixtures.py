"""Write the small import fixtures in tests/data/ and tests/data/bad/ (run once, commit them).

    .venv/bin/python tests/data/make_fixtures.py

Everything is synthetic and deterministic (fixed seeds); the layouts copy the real exports
of each platform. Large bad files (100,000 columns, a 10 MB cell, a zip bomb) are made at
test time by ``tests/test_reading_bad.py`` instead of being committed.
"""

from __future__ import annotations

import gzip
import io
import json
import pathlib
import random
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
BAD = HERE / "bad"


def _write(path: pathlib.Path, text: str, encoding: str = "utf-8") -> None:
    path.write_bytes(text.encode(encoding))


def qualtrics() -> None:
    meta = ["StartDate", "EndDate", "Status", "IPAddress", "Progress", "Duration (in seconds)",
            "Finished", "RecordedDate", "ResponseId", "RecipientLastName", "RecipientFirstName",
            "RecipientEmail", "ExternalReference", "LocationLatitude", "LocationLongitude",
            "DistributionChannel", "UserLanguage"]
    labels = ["Start Date", "End Date", "Response Type", "IP Address", "Progress",
              "Duration (in seconds)", "Finished", "Recorded Date", "Response ID",
              "Recipient Last Name", "Recipient First Name", "Recipient Email",
              "External Data Reference", "Location Latitude", "Location Longitude",
              "Distribution Channel", "User Language"]
    questions = {"Q1": "Toss a coin. If heads, answer Yes. If tails: have you ever used cannabis?",
                 "Q2": "What is your age group?", "Q3": "Region - Selected Choice"}
    ids = ["startDate", "endDate", "status", "ipAddress", "progress", "duration", "finished",
           "recordedDate", "_recordId", "recipientLastName", "recipientFirstName",
           "recipientEmail", "externalDataReference", "locationLatitude", "locationLongitude",
           "distributionChannel", "userLanguage", "QID1", "QID2", "QID3"]
    rng = random.Random(1)
    out = io.StringIO()
    import csv

    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(meta + list(questions))
    w.writerow(labels + list(questions.values()))
    w.writerow([json.dumps({"ImportId": i, "timeZone": "America/Denver"} if "Date" in i else {"ImportId": i},
                           separators=(",", ":")) for i in ids])
    for k in range(12):
        rid = "R_" + "".join(rng.choice("abcdefghijkLMNOPQ0123456789") for _ in range(15))
        answer = ["Yes", "No"][k % 3 == 0] if k != 7 else ""
        w.writerow([f"2024-03-0{1 + k % 9} 10:{k:02d}:00", f"2024-03-0{1 + k % 9} 10:{k + 5:02d}:00",
                    "IP Address", f"10.0.{k}.{k + 1}", "100", str(200 + k), "True",
                    f"2024-03-0{1 + k % 9} 10:{k + 5:02d}:01", rid, "", "", "", "",
                    f"{39.7 + k / 100:.4f}", f"{-104.9 - k / 100:.4f}", "anonymous", "EN", answer,
                    ["18-24", "25-34", "35-44"][k % 3], ["North", "South"][k % 2]])
    _write(HERE / "qualtrics.csv", "\ufeff" + out.getvalue())


def qualtrics_legacy() -> None:
    rows = [
        "V1,V2,V3,V4,V5,V6,V7,V8,V9,V10,Q1,Q2",
        "ResponseID,ResponseSet,Name,ExternalDataReference,EmailAddress,IPAddress,Status,StartDate,"
        "EndDate,Finished,Did you cheat on the exam? (follow the die),Gender",
    ]
    for k in range(8):
        rows.append(f"R_legacy{k:08d}abc,Default Response Set,Anonymous,,,192.168.1.{k},0,"
                    f"2015-05-0{k + 1} 09:00:00,2015-05-0{k + 1} 09:04:00,1,{[1, 2][k % 2]},{[1, 2][k % 3 == 0]}")
    _write(HERE / "qualtrics_legacy.csv", "\r\n".join(rows) + "\r\n")


def surveymonkey() -> None:
    top = ["Respondent ID", "Collector ID", "Start Date", "End Date", "IP Address",
           "Email Address", "First Name", "Last Name", "Custom Data 1",
           "Roll the die. If it shows 6 say Yes; otherwise: did you ever evade taxes?",
           "Which of these do you own?", "", "", "Your age group"]
    second = [""] * 9 + ["Response", "Car", "Bicycle", "Other (please specify)", "Response"]
    lines = [",".join(f'"{c}"' if "," in c or ";" in c else c for c in top), ",".join(second)]
    for k in range(10):
        lines.append(f"{11400000000 + k},{400000 + k % 2},03/1{k % 9}/2024 10:00:00 AM,"
                     f"03/1{k % 9}/2024 10:06:00 AM,203.0.113.{k},,,,,{['Yes', 'No'][k % 2]},"
                     f"{'Car' if k % 3 == 0 else ''},{'Bicycle' if k % 2 else ''},,{['18-29', '30-44', '45-60'][k % 3]}")
    _write(HERE / "surveymonkey.csv", "\r\n".join(lines) + "\r\n")


def limesurvey() -> None:
    head = ["id", "submitdate", "lastpage", "startlanguage", "seed", "startdate", "datestamp",
            "ipaddr", "RR1", "AGE", "SEX"]
    lines = [",".join(f'"{h}"' for h in head)]
    for k in range(9):
        cells = [str(k + 1), f"2024-02-0{k + 1} 12:00:00", "2", "de", str(1000 + k),
                 f"2024-02-0{k + 1} 11:55:00", f"2024-02-0{k + 1} 12:00:00", f"198.51.100.{k}",
                 ["Ja", "Nein"][k % 2], str(20 + k), ["M", "F"][k % 2]]
        lines.append(",".join(f'"{c}"' for c in cells))
    _write(HERE / "limesurvey.csv", "\n".join(lines) + "\n")


def redcap() -> None:
    raw = ["record_id,redcap_event_name,rr_answer,age_group,consent_complete,survey_complete"]
    labelled = ["Record ID,Event Name,Coin-flip answer,Age group,Complete?,Complete?"]
    for k in range(8):
        event = ["baseline_arm_1", "followup_arm_1"][k % 2]
        raw.append(f"{k // 2 + 1},{event},{[1, 0][k % 3 == 0]},{k % 3 + 1},2,{[2, 0][k == 5]}")
        labelled.append(f"{k // 2 + 1},{['Baseline', 'Follow-up'][k % 2]},{['Yes', 'No'][k % 3 == 0]},"
                        f"{['18-29', '30-44', '45+'][k % 3]},Complete,{['Complete', 'Incomplete'][k == 5]}")
    _write(HERE / "redcap_raw.csv", "\n".join(raw) + "\n")
    _write(HERE / "redcap_labels.csv", "\n".join(labelled) + "\n")


def plain_text() -> None:
    _write(HERE / "counts.csv", "response,group,count\nyes,A,120\nno,A,380\nyes,B,210\nno,B,290\n")
    _write(HERE / "european.csv", "Antwort;Gewicht;Ort;Alter\nJa;1,5;München;34\nNein;0,75;Köln;51\n"
                                  "Ja;2,25;Düsseldorf;29\nNein;1,0;Straße 5;40\n", "cp1252")
    _write(HERE / "utf16_tab.txt", "answer\tgroup\tcomment\nYes\t1\tça va\nNo\t2\tnaïve\nYes\t1\t\n", "utf-16")
    _write(HERE / "bom.csv", "\ufeffq1,q2\nYes,1\nNo,2\n")
    _write(HERE / "pipe.csv", "q1|q2|q3\n1|2|x\n0|1|y\n1|1|z\n")
    _write(HERE / "quoted.csv", 'q1,comment,score,,\n1,"Hello, world",3,,\n0,"two\nlines",4,,\n'
                                '1,"She said ""no""",5,,\n')
    _write(HERE / "named.csv", "first_name,last_name,phone,contact,answer\n"
                               "Ann,Lee,+44 20 7946 0958,ann@example.org,Yes\n"
                               "Bob,Ray,(555) 123-4567,bob@example.com,No\n"
                               "Cy,Doe,+1 555 010 9999,cy@example.net,Yes\n")
    _write(HERE / "coded.csv", "id,rr,group,region\n" + "".join(
        f"{k + 1},{['1', '0', 'no', ' YES ', '', 'maybe', '98'][k % 7]},{k % 2 + 1},{'NS'[k % 2]}\n"
        for k in range(21)))


def workbook() -> None:
    import pandas as pd

    with pd.ExcelWriter(HERE / "survey.xlsx", engine="xlsxwriter") as xl:
        pd.DataFrame({"rr_answer": ["Yes", "No", "No", "Yes", None],
                      "group": [1, 2, 1, 2, 1], "age": [23, 35, 41, 29, 52]}).to_excel(
            xl, sheet_name="Responses", index=False)
        pd.DataFrame({"note": ["exported 2024-03-01"]}).to_excel(xl, sheet_name="Notes", index=False)
    import xlsxwriter

    book = xlsxwriter.Workbook(HERE / "qualtrics.xlsx")
    sheet = book.add_worksheet("Sheet0")
    rows = [["StartDate", "EndDate", "ResponseId", "Q1"],
            ["Start Date", "End Date", "Response ID", "Did you ever drive drunk? (coin)"],
            ['{"ImportId":"startDate"}', '{"ImportId":"endDate"}', '{"ImportId":"_recordId"}',
             '{"ImportId":"QID1"}']]
    rows += [[f"2024-01-0{k + 1}", f"2024-01-0{k + 1}", f"R_abcdefghijklm{k:02d}", ["Yes", "No"][k % 2]]
             for k in range(6)]
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            sheet.write_string(r, c, value)
    book.close()


def stats_files() -> None:
    import pandas as pd
    import pyreadstat

    frame = pd.DataFrame({"rr1": [1.0, 0.0, 1.0, 98.0, 99.0, None, 0.0, 1.0],
                          "grp": [1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0],
                          "age": [21.0, 34.0, 45.0, 52.0, 38.0, 27.0, 61.0, 30.0]})
    labels = {"rr1": {0.0: "No", 1.0: "Yes", 98.0: "Refused", 99.0: "Don't know"},
              "grp": {1.0: "Group A", 2.0: "Group B"}}
    pyreadstat.write_sav(frame, HERE / "survey.sav",
                         column_labels=["Have you ever shoplifted? (answer by the spinner)",
                                        "Randomization group", "Age in years"],
                         variable_value_labels=labels, missing_ranges={"rr1": [98.0, 99.0]})
    pyreadstat.write_dta(frame.drop(columns=["rr1"]).assign(rr1=[1, 0, 1, 0, 1, 0, 0, 1]),
                         HERE / "survey.dta", column_labels=["Group", "Age", "Answer"],
                         variable_value_labels={"rr1": {0: "No", 1: "Yes"}})


def bad_files() -> None:
    BAD.mkdir(exist_ok=True)
    rng = random.Random(7)
    junk = bytes(rng.randrange(256) for _ in range(2048))
    files = {
        "empty.csv": b"",
        "header_only.csv": b"q1,q2,q3\n",
        "whitespace_only.csv": b"  \n\n\t\n   \n",
        "binary_junk.csv": junk,
        "binary_junk.sav": b"\x00\x01junk" + junk,
        "png_named.csv": b"\x89PNG\r\n\x1a\n" + junk[:200],
        "pdf_named.xlsx": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n",
        "gzip_named.csv": gzip.compress(b"q1,q2\n1,2\n", mtime=0),
        "sqlite_named.csv": b"SQLite format 3\x00" + bytes(100),
        "html_named.xls": b"<html><body><table><tr><td>q1</td></tr></table></body></html>\n",
        "old_excel.xls": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(200),
        "encrypted.xlsx": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(300) + "EncryptionInfo".encode("utf-16-le")
                          + bytes(100),
        "ragged_rows.csv": b"q1,q2,q3\n1,2,3\n4,5,6,7,8\n9,10,11\n",
        "extra_field_first_row.csv": b"q1,q2\n1,2,3\n4,5,6\n",
        "mixed_encodings.csv": "q1,city\nYes,Zürich\n".encode() + "No,Genève\n".encode("cp1252"),
        "neither_encoding.csv": b"q1,q2\nYes,\x81\x8d\x90\n",
        "nul_bytes.csv": b"q1,q2\n1,2\n3,\x004\n",
        "utf16_no_bom.csv": "q1,q2\n1,2\n".encode("utf-16-le"),
        "unclosed_quote.csv": b'q1,comment\n1,"fine"\n2,"this quote never closes\n3,ok\n4,ok\n',
        "duplicate_columns.csv": b"id,q1,q2,q1\n1,Yes,2,No\n2,No,1,Yes\n",
        "only_identifiers.csv": b"email,ip_address,full_name\na@b.org,10.0.0.1,Ann Lee\nc@d.org,10.0.0.2,Bo Ray\n",
        "only_delimiters.csv": b",,,\n,,,\n,,,\n",
        "qualtrics_no_data.csv": b'StartDate,EndDate,ResponseId,Q1\nStart Date,End Date,Response ID,Q\n'
                                 b'"{""ImportId"":""startDate""}","{""ImportId"":""endDate""}",'
                                 b'"{""ImportId"":""_recordId""}","{""ImportId"":""QID1""}"\n',
        "sav_magic_junk.sav": b"$FL2@(#) IBM SPSS STATISTICS" + junk[:300],
        "dta_magic_junk.dta": b"<stata_dta><header><release>118</release>" + junk[:300],
        "counts_negative.csv": b"response,count\nyes,10\nno,-3\n",
        "counts_fraction.csv": b"response,count\nyes,10.5\nno,3\n",
    }
    for name, data in files.items():
        (BAD / name).write_bytes(data)
    good_sav = (HERE / "survey.sav").read_bytes()
    (BAD / "truncated.sav").write_bytes(good_sav[: len(good_sav) // 2])
    good_dta = (HERE / "survey.dta").read_bytes()
    (BAD / "truncated.dta").write_bytes(good_dta[: len(good_dta) // 2])
    good_xlsx = (HERE / "survey.xlsx").read_bytes()
    (BAD / "truncated.xlsx").write_bytes(good_xlsx[: len(good_xlsx) // 2])
    for name, members in {"zip_of_text.xlsx": {"notes.txt": "not a workbook"},
                          "docx_named.xlsx": {"[Content_Types].xml": "<Types/>", "word/document.xml": "<w/>"},
                          "ods_named.xlsx": {"mimetype": "application/vnd.oasis.opendocument.spreadsheet",
                                             "content.xml": "<office/>"}}.items():
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for member, text in members.items():
                archive.writestr(zipfile.ZipInfo(member, (2024, 1, 1, 0, 0, 0)), text)
        (BAD / name).write_bytes(buffer.getvalue())
    import xlsxwriter

    book = xlsxwriter.Workbook(BAD / "empty_sheet.xlsx")
    book.add_worksheet("Empty")
    book.close()
    book = xlsxwriter.Workbook(BAD / "header_only.xlsx")
    sheet = book.add_worksheet("Data")
    for c, value in enumerate(["q1", "q2"]):
        sheet.write_string(0, c, value)
    book.close()


def _rezip(source: bytes, rename=lambda name: name, edit=lambda name, data: data) -> bytes:
    """The zip ``source`` with members renamed and edited, with fixed dates (reproducible)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as old, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as new:
        for member in old.infolist():
            data = edit(member.filename, old.read(member))
            new.writestr(zipfile.ZipInfo(rename(member.filename), (2024, 1, 1, 0, 0, 0)), data,
                         zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _book(path: pathlib.Path, rows: list[list], far_cell: bool = False, stray: tuple | None = None) -> bytes:
    import datetime
    import xlsxwriter

    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    book.set_properties({"created": datetime.datetime(2024, 1, 1)})
    sheet = book.add_worksheet("Data")
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            sheet.write(r, c, value)
    if far_cell:
        sheet.write_string(1_048_575, 16_383, "x")  # XFD1048576, Excel's last cell
    if stray:
        sheet.write_string(*stray, "x")
    book.close()
    return _rezip(buffer.getvalue())


def shapes() -> None:
    """Files that imported wrongly before issue 13 (small versions of the real shapes)."""
    import re

    import pandas as pd
    import pyreadstat

    rng = random.Random(13)
    answers = [[k + 1, rng.choice([0, 1]), rng.choice([1, 2, 3])] for k in range(32)]
    table = [["id", "q1", "q2"]] + answers
    # <dimension> says A1:C3 (2 data rows) but the sheet has 32: openpyxl's read-only mode stopped at 2
    stale = _rezip(_book(HERE, table), edit=lambda name, data: re.sub(
        rb'<dimension ref="[^"]+"/>', b'<dimension ref="A1:C3"/>', data) if name.endswith("sheet1.xml") else data)
    (HERE / "stale_dimension.xlsx").write_bytes(stale)
    # the same table with one stray value in XFD1048576 (ran for minutes before)
    (HERE / "far_cell.xlsx").write_bytes(_book(HERE, table[:6], far_cell=True))
    # malformed XML in the sheet: an element that never closes
    (HERE / "malformed_xml.xlsx").write_bytes(_rezip(_book(HERE, table[:6]), edit=lambda name, data: data.replace(
        b"</sheetData>", b"<row r=\"99\"><c r=\"A99\"></sheetData>") if name.endswith("sheet1.xml") else data))
    # the workbook's parts at the root of the zip instead of under xl/ (openpyxl reads it)
    def at_root(name: str) -> str:
        return name[3:] if name.startswith("xl/") else name

    def root_paths(name: str, data: bytes) -> bytes:
        if name in ("[Content_Types].xml", "_rels/.rels"):
            return data.replace(b'PartName="/xl/', b'PartName="/').replace(b'Target="xl/', b'Target="')
        return data
    (HERE / "root_parts.xlsx").write_bytes(_rezip(_book(HERE, table), rename=at_root, edit=root_paths))
    # blank lines above the header
    text = "\n".join(",".join(map(str, row)) for row in table) + "\n"
    _write(HERE / "blank_line_above.csv", "\n" + text)
    _write(HERE / "skip_lines.csv", "\n\n\ntext,date,integer,boolean,float\n"  # csvkit's test_skip_lines.csv
           "Chicago Reader,1971-01-01,40,True,1.0\nChicago Sun-Times,1948-01-01,63,True,1.24\n"
           "Chicago Tribune,1920-01-01,164,False,41800000.01\nRow with blanks,,,,\n")
    qualtrics_text = (HERE / "qualtrics.csv").read_text(encoding="utf-8-sig")
    _write(HERE / "qualtrics_blank_line.csv", "\ufeff\r\n" + qualtrics_text)
    # classic Mac line ends (CR only)
    _write(HERE / "cr_only.csv", text.replace("\n", "\r"))
    # booleans: True/False with a blank, and Qualtrics' Finished
    _write(HERE / "booleans.csv", "id,used,Finished\n" + "".join(
        f"{k + 1},{'' if k == 4 else ['False', 'True'][k % 3 == 0]},{['TRUE', 'FALSE'][k == 7]}\n" for k in range(12)))
    # Stata: a numeric answer with extended missing values .a (refused) and .b (don't know),
    # like haven's tagged-na-double.dta
    frame = pd.DataFrame({"q1": pd.Series([1.0, 2.0, "a", 5.0, "b", None, 3.0, "a", 4.0, 1.0], dtype=object),
                          "grp": [1.0, 2.0] * 5})
    pyreadstat.write_dta(frame, HERE / "tagged_missing.dta", missing_user_values={"q1": ["a", "b"]},
                         variable_value_labels={"q1": {1: "Never", 5: "Daily", "a": "Refused"}},
                         column_labels=["How often? (1-5)", "Group"])
    # SPSS portable file
    pyreadstat.write_por(pd.DataFrame({"Q1": [1.0, 0.0, 1.0, 1.0], "AGE": [21.0, 34.0, 45.0, 52.0]}),
                         HERE / "survey.por")


def real_files() -> None:
    """Small versions of real files that failed before issue 21 ("Files that real users have")."""
    import datetime as dt

    import pandas as pd
    import pyreadstat

    # pyreadstat's own sample.dta: a %td date, a %tc date-time (before 1900 too), labelled codes
    pyreadstat.write_dta(pd.DataFrame({
        "mychar": list("abcde"), "mynum": [1.1, 1.2, -1000.3, -1.4, 1000.3],
        "mydate": [dt.date(2018, 5, 6), dt.date(1880, 5, 6), dt.date(1960, 1, 1), dt.date(1583, 1, 1), None],
        "dtime": [dt.datetime(2018, 5, 6, 10, 10, 10), dt.datetime(1880, 5, 6, 10, 10, 10),
                  dt.datetime(1960, 1, 1), dt.datetime(1583, 1, 1), None],
        "mylabl": [1.0, 2.0, 1.0, 2.0, 1.0], "myord": [1.0, 2.0, 3.0, 1.0, 1.0]}),
        HERE / "stata_dates.dta", variable_value_labels={"mylabl": {1: "Male", 2: "Female"},
                                                         "myord": {1: "low", 2: "medium", 3: "high"}})
    # SPSS: a number with a date format, far beyond the year 9999 (seconds since 1582: 1e16)
    pyreadstat.write_sav(pd.DataFrame({"q1": [1.0, 0.0, 1.0, 1.0],
                                       "interview": [13_000_000_000.0, 13_000_086_400.0, 1e16, None],
                                       "born": [12_000_000_000.0, 12_100_000_000.0, None, 12_200_000_000.0]}),
                         HERE / "far_date.sav", variable_format={"interview": "DATE11", "born": "DATE11"})
    # SAS transport (XPORT version 5, what the FDA and CDC's NHANES publish)
    pyreadstat.write_xport(pd.DataFrame({"SEQN": [1.0, 2.0, 3.0, 4.0], "RR1": [1.0, 0.0, 1.0, 0.0],
                                         "VISIT": [dt.date(2020, 1, 2), dt.date(2020, 2, 3), None,
                                                   dt.date(2021, 3, 4)]}),
                           HERE / "survey.xpt", file_format_version=5, table_name="SURVEY",
                           column_labels=["Respondent sequence number", "Answer by the spinner", "Visit date"])
    # a title line above the header (data.gov CSVs), and the same in a workbook
    rows = [["id", "q1", "q2"], [1, 0, 1], [2, 1, 2], [3, 1, 3], [4, 0, 1]]
    _write(HERE / "title_line.csv", "Survey of shoplifting 2024 (responses)\n"
           + "".join(",".join(map(str, r)) + "\n" for r in rows))
    (HERE / "title_line.xlsx").write_bytes(_book(HERE, [["Survey of shoplifting 2024 (responses)"]] + rows))
    # five data rows and one stray cell at XFD3000 (13-40 s and 3 GB before)
    (HERE / "stray_cell.xlsx").write_bytes(_book(HERE, [["id", "q1", "q2"]] + [[k, k % 2, 1 + k % 3] for k in range(1, 6)],
                                                 stray=(2999, 16_383)))


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["shapes"]:  # only the issue-13 shapes (the others stay byte for byte)
        shapes()
        sys.exit()
    if sys.argv[1:] == ["real"]:  # only the issue-21 files
        real_files()
        sys.exit()
    qualtrics()
    qualtrics_legacy()
    surveymonkey()
    limesurvey()
    redcap()
    plain_text()
    workbook()
    stats_files()
    bad_files()
    shapes()
    real_files()
