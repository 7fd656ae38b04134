"""Header rows that read wrong (issue 28, part 4), each written as the misreading it stops:

* merged group headers above the real header made the group row the header and the real header a
  respondent (41 rows instead of 40); so did a header merged down two rows;
* a CSV (or sheet) without a header row made its first respondent the header without a word.

And the other side: every ordinary fixture still reads with its header, unflagged.
"""

from __future__ import annotations

import pathlib
import random

import pytest

from dpdesk.errors import DataError
from dpdesk.project import read_table

from tests.helpers.cli import run

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _answers(k: int, rng) -> list:
    return [k + 1, rng.randint(18, 80), rng.randint(1, 5), rng.randint(1, 5), rng.randint(1, 5)]


def _book(path, header, n=40, merges=(), start=1, tool="xlsxwriter"):
    """A workbook: header rows (lists), ``merges`` as (range, value), then n respondents."""
    rng = random.Random(28)
    if tool == "openpyxl":
        import openpyxl

        wb = openpyxl.Workbook()
        ws = wb.active
        for _ in range(start):
            pass
        for r, row in enumerate(header, start=1):
            for c, value in enumerate(row, start=1):
                if value is not None:
                    ws.cell(r, c, value)
        for ref, value in merges:
            ws[ref.split(":")[0]] = value
            ws.merge_cells(ref)
        for k in range(n):
            ws.append(_answers(k, rng))
        wb.save(path)
        return path
    import xlsxwriter

    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Data")
    for r, row in enumerate(header):
        for c, value in enumerate(row):
            if value is not None:
                sheet.write(r, c, value)
    for ref, value in merges:
        sheet.merge_range(ref, value)
    for k in range(n):
        sheet.write_row(len(header) + k, 0, _answers(k, rng))
    book.close()
    return path


@pytest.mark.parametrize("tool", ["xlsxwriter", "openpyxl"])
def test_merged_group_headers_above_the_real_header_are_not_the_header(tmp_path, tool):
    path = _book(tmp_path / "grouped.xlsx", [[None] * 5, ["id", "age", "q1", "q2", "q3"]],
                 merges=[("A1:B1", "Demographics"), ("C1:E1", "Attitudes")], tool=tool)
    table = read_table(path)
    assert len(table.frame) == 40  # not 41: the real header is not a respondent
    assert list(table.frame.columns) == ["id", "age", "q1", "q2", "q3"]
    assert table.frame["id"].tolist() == list(range(1, 41))
    r = table.report
    assert r.header_rows == 2 and r.first_data_row == 3
    assert r.variable_labels["q2"] == "Attitudes: q2" and r.variable_labels["age"] == "Demographics: age"
    said = [w for w in r.warnings if "header spans rows 1-2" in w]
    assert said and "taken from row 2" in said[0] and "A1:B1" in said[0] and "header rows" in said[0]


def test_a_header_merged_down_two_rows_is_one_header(tmp_path):
    path = _book(tmp_path / "vertical.xlsx", [[None, None, None, None, None], [None, None, "q1", "q2", "q3"]],
                 merges=[("A1:A2", "id"), ("B1:B2", "age"), ("C1:E1", "Attitudes")])
    table = read_table(path)
    assert len(table.frame) == 40 and list(table.frame.columns) == ["id", "age", "q1", "q2", "q3"]
    assert table.frame["id"].tolist() == list(range(1, 41)) and table.report.first_data_row == 3
    assert "age" not in table.report.variable_labels and table.report.variable_labels["q1"] == "Attitudes: q1"


def test_merged_headers_below_a_title_and_blank_rows(tmp_path):
    path = _book(tmp_path / "titled.xlsx", [["Survey of study habits 2025"], [None] * 5, [None] * 5,
                                            ["id", "age", "q1", "q2", "q3"]],
                 merges=[("A3:B3", "Demographics"), ("C3:E3", "Attitudes")])
    table = read_table(path)
    assert len(table.frame) == 40 and list(table.frame.columns) == ["id", "age", "q1", "q2", "q3"]
    assert table.report.first_data_row == 5
    assert any("header spans rows 3-4" in w and "taken from row 4" in w for w in table.report.warnings)


def test_an_unmerged_group_row_is_recognised_too(tmp_path):
    path = _book(tmp_path / "typed_groups.xlsx", [["Demographics", None, "Attitudes", None, None],
                                                  ["id", "age", "q1", "q2", "q3"]])
    table = read_table(path)
    assert len(table.frame) == 40 and list(table.frame.columns) == ["id", "age", "q1", "q2", "q3"]
    assert table.report.variable_labels["q3"] == "Attitudes: q3"
    assert any("taken from row 2" in w for w in table.report.warnings)


def test_a_cell_merged_across_a_one_row_header_does_not_eat_a_respondent(tmp_path):
    """A header name merged over two columns of answers: the row below is a respondent, kept."""
    path = _book(tmp_path / "wide_name.xlsx", [["id", "age", "scores", None, "q3"]], merges=[("C1:D1", "scores")])
    table = read_table(path)
    assert len(table.frame) == 40 and table.frame.iloc[:, 0].tolist() == list(range(1, 41))


def test_a_name_merged_down_into_the_first_respondent_does_not_eat_it(tmp_path):
    path = _book(tmp_path / "odd.xlsx", [["id", "age", "q1", "q2", "q3"]], merges=[("A1:A2", "id")])
    table = read_table(path)
    assert len(table.frame) == 40 and list(table.frame.columns)[1:] == ["age", "q1", "q2", "q3"]


def test_the_users_header_rows_win(tmp_path):
    path = _book(tmp_path / "grouped.xlsx", [[None] * 5, ["id", "age", "q1", "q2", "q3"]],
                 merges=[("A1:B1", "Demographics"), ("C1:E1", "Attitudes")])
    assert len(read_table(path, header_rows=1).frame) == 41
    assert list(read_table(path, header_rows=2).frame.columns) == ["id", "age", "q1", "q2", "q3"]
    assert len(read_table(path, header_rows=0).frame) == 42


def _no_header_csv(tmp_path, n=40):
    rng = random.Random(7)
    rows = [f"{100 + i},{rng.randint(18, 80)},{rng.choice(['North', 'South', 'East'])},{rng.choice(['Yes', 'No'])}"
            for i in range(n)]
    path = tmp_path / "no_header.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_a_csv_without_a_header_row_is_said_and_read_with_no_header(tmp_path):
    path = _no_header_csv(tmp_path)
    table = read_table(path)
    said = [w for w in table.report.warnings if "looks like a respondent" in w]
    assert said and "Row 1" in said[0] and "the no-header option" in said[0] and "header_rows=0" in said[0]
    whole = read_table(path, header_rows=0)
    assert len(whole.frame) == 40 and list(whole.frame.columns) == ["column_1", "column_2", "column_3", "column_4"]
    assert whole.frame["column_1"].tolist()[:2] == [100, 101] and whole.report.first_data_row == 1
    assert not [w for w in whole.report.warnings if "looks like a respondent" in w]


def test_a_sheet_without_a_header_row_is_said_too(tmp_path):
    path = _book(tmp_path / "bare.xlsx", [[1, 34, 2, 5, 3]], n=39)  # the first respondent: all distinct
    table = read_table(path)
    assert any("Row 1, read as the header, looks like a respondent" in w for w in table.report.warnings)
    assert len(read_table(path, header_rows=0).frame) == 40


def test_a_first_respondent_with_repeated_answers_is_refused_with_the_way_out(tmp_path):
    path = _book(tmp_path / "bare.xlsx", [[1, 34, 2, 5, 5]], n=39)
    with pytest.raises(DataError, match="all named '5'.*the no-header option; Python: header_rows=0"):
        read_table(path)
    assert len(read_table(path, header_rows=0).frame) == 40


def test_no_header_on_the_command_line(tmp_path, capsys):
    path = _no_header_csv(tmp_path)
    project = tmp_path / "p.dpdesk"
    run(capsys, "new", project)
    code, out, _ = run(capsys, "import", project, path, "--name", "guessed")
    assert code == 0 and "looks like a respondent" in out and "the no-header option" in out
    code, out, _ = run(capsys, "import", project, path, "--name", "whole", "--no-header")
    assert code == 0 and "40 rows" in out and "0 header row(s)" in out
    from dpdesk.project import Project

    with Project.open(project) as p:
        stored = {d.name: d for d in p.datasets()}
    assert stored["whole"].n_rows == 40 and stored["guessed"].n_rows == 39


def _fixtures():
    exts = {".csv", ".tsv", ".txt", ".xlsx", ".sav", ".dta", ".por", ".xpt"}
    for root in (ROOT / "data", ROOT / "fixtures"):
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() in exts and "bad" not in path.relative_to(ROOT).parts:
                yield path


def test_no_ordinary_fixture_is_flagged_or_loses_its_header():
    read = 0
    for path in _fixtures():
        try:
            table = read_table(path)
        except DataError:
            continue  # not a data file dpdesk reads (R output and the like)
        read += 1
        flagged = [w for w in table.report.warnings if "looks like a respondent" in w or "header spans" in w]
        assert not flagged, (path.name, flagged)
    assert read >= 30


def test_a_group_row_above_the_header_of_a_csv(tmp_path):
    rng = random.Random(3)
    lines = ["", "Demographics,,Attitudes,,", "id,age,q1,q2,q3"]
    lines += [",".join(str(v) for v in _answers(k, rng)) for k in range(40)]
    path = tmp_path / "grouped.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = read_table(path)
    assert len(table.frame) == 40 and list(table.frame.columns) == ["id", "age", "q1", "q2", "q3"]
    assert table.report.first_data_row == 4 and table.report.variable_labels["q1"] == "Attitudes: q1"
    assert any("header spans rows 2-3" in w and "taken from row 3" in w for w in table.report.warnings)
    assert len(read_table(path, header_rows=1).frame) == 41  # the user's count wins


def test_a_flood_of_merged_ranges_is_bounded_work(tmp_path):
    """A hostile sheet: thousands of overlapping merged ranges over the first rows, and one merged
    down a million rows. It reads (or is refused) in bounded time, its 40 respondents intact."""
    import time
    import zipfile

    path = _book(tmp_path / "plain.xlsx", [["id", "age", "q1", "q2", "q3"]])
    with zipfile.ZipFile(path) as archive:
        parts = {i.filename: archive.read(i) for i in archive.infolist()}
    def with_merges(refs: list[str]):
        sheet = parts["xl/worksheets/sheet1.xml"].decode()
        merged = "".join(f'<mergeCell ref="{ref}"/>' for ref in refs)
        hostile = tmp_path / "hostile.xlsx"
        with zipfile.ZipFile(hostile, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in parts.items():
                if name == "xl/worksheets/sheet1.xml":
                    data = sheet.replace("</sheetData>", f'</sheetData><mergeCells count="{len(refs)}">{merged}'
                                                         f'</mergeCells>').encode()
                archive.writestr(name, data)
        return hostile

    refs = [f"A{1 + k % 3}:XFD{3 + k % 4}" for k in range(20_000)] + ["A1:A1000000"]
    start = time.perf_counter()
    table = read_table(with_merges(refs))
    assert time.perf_counter() - start < 30
    assert len(table.frame) == 40 and table.frame.iloc[:, 0].tolist() == list(range(1, 41))
    with pytest.raises(DataError, match=r"hostile\.xlsx: sheet 'Data' is damaged: an entry of its XML after row 41"):
        read_table(with_merges(["A3:B2"]))  # a range that ends before it starts: one line, not the catch-all
