"""A REDCap labelled export with one instrument keeps its 'Complete?' column's name (issue 29: it read
"Complete? (1)"); several instruments' columns are numbered in order and said so."""

from __future__ import annotations

from dpdesk.project.reading.table import read_table


def test_one_instrument_keeps_complete(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("Record ID,Coin-flip answer,Complete?\n1,Yes,Complete\n2,No,Incomplete\n")
    table = read_table(path)
    assert table.report.platform == "redcap"
    assert list(table.frame.columns)[-1] == "Complete?"
    assert not any("Complete? (1)" in w for w in table.report.warnings)


def test_two_instruments_are_numbered(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("Record ID,Coin-flip answer,Complete?,Age group,Complete?\n1,Yes,Complete,18-24,Complete\n")
    table = read_table(path)
    assert [c for c in table.frame.columns if str(c).startswith("Complete?")] == ["Complete? (1)", "Complete? (2)"]
