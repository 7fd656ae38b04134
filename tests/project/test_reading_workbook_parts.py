"""Malformed parts inside an .xlsx (issue 28): each member of the zip truncated, emptied, replaced
by junk or left out. Every one reads or is refused with a one-line DataError naming the file; none
escapes as a traceback. The regression: a truncated xl/workbook.xml let lxml's XMLSyntaxError (a
SyntaxError, which openpyxl raises when lxml is installed) escape from ``dpdesk import``."""

from __future__ import annotations

import zipfile

import pytest

from dpdesk.errors import DataError
from dpdesk.project import read_table
from dpdesk.project.reading.table import list_sheets

from tests.helpers.cli import run
from tests.helpers.paths import DATA

SOURCES = ("survey.xlsx", "qualtrics.xlsx", "root_parts.xlsx")


def _members(source: str) -> dict[str, bytes]:
    with zipfile.ZipFile(DATA / source) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def _damaged(members: dict[str, bytes], target: str, how: str) -> bytes:
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            if name == target:
                if how == "missing":
                    continue
                data = {"half": data[: len(data) // 2], "third": data[: len(data) // 3], "empty": b"",
                        "junk": b"\x00\xff<<not xml" * 7, "tail": data[:-9],
                        "doubled": data + data}[how]
            archive.writestr(name, data)
    return buffer.getvalue()


DAMAGE = ("half", "third", "empty", "junk", "tail", "doubled", "missing")


@pytest.mark.parametrize("source", SOURCES)
def test_every_damaged_part_reads_or_is_refused_in_one_line(tmp_path, source):
    members = _members(source)
    answers = {"table": 0, "refused": 0}
    for target in members:
        for how in DAMAGE:
            path = tmp_path / f"{how}.xlsx"
            path.write_bytes(_damaged(members, target, how))
            for attempt in (read_table, list_sheets):
                try:
                    attempt(path)
                    answers["table"] += 1
                except DataError as exc:  # anything else fails the test with its traceback
                    message = str(exc)
                    assert path.name in message and "\n" not in message, (target, how, message)
                    assert "could not be read (" not in message, (target, how, message)  # not the catch-all
                    answers["refused"] += 1
    assert answers["refused"] >= len(members) * 2  # the parts openpyxl parses are refused, by name


@pytest.mark.parametrize("how", ["half", "tail", "junk"])
def test_a_truncated_workbook_xml_is_one_line_from_dpdesk_import(tmp_path, capsys, how):
    path = tmp_path / "wave2.xlsx"
    path.write_bytes(_damaged(_members("survey.xlsx"), "xl/workbook.xml", how))
    with pytest.raises(DataError, match=r"wave2\.xlsx: the workbook is damaged: the XML of its part xl/workbook\.xml"):
        read_table(path)
    project = tmp_path / "t.dpdesk"
    run(capsys, "new", project)
    code, out, err = run(capsys, "import", project, path)
    assert code != 0 and "Traceback" not in out + err
    lines = [line for line in (out + err).splitlines() if line.strip()]
    assert len(lines) == 1 and "xl/workbook.xml" in lines[0] and "wave2.xlsx" in lines[0]


def test_a_real_syntax_error_is_still_not_hidden_as_bad_input():
    """Only XML parsers' errors become DataErrors; a SyntaxError in dpdesk's own code stays a bug."""
    from dpdesk.project.reading.excel import is_xml_error

    assert not is_xml_error(SyntaxError("invalid syntax"))
    from lxml import etree

    with pytest.raises(etree.XMLSyntaxError) as info:
        etree.fromstring(b"<a><b></a>")
    assert is_xml_error(info.value)
