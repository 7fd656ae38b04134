"""550 mutants of valid data files (tests/helpers/mutants.py): each one gives a table or a
refusal in words that names the damage, never the catch-all "could not be read (BadZipFile...)".
Before issue 21, 166 of these 550 got the catch-all (all damaged .xlsx zips)."""

from __future__ import annotations

import pytest

from dpdesk.errors import DataError
from dpdesk.project import read_table

from tests.helpers.cli import run
from tests.helpers.mutants import generic, mutants


def test_every_mutant_reads_or_is_refused_naming_the_damage(tmp_path):
    answers = {"table": 0, "words": 0}
    catch_all = []
    for name, data in mutants():
        path = tmp_path / name
        path.write_bytes(data)
        try:
            read_table(path)
            answers["table"] += 1
        except DataError as exc:
            answers["words"] += 1
            if generic(str(exc)):
                catch_all.append(str(exc))
        path.unlink()
    assert sum(answers.values()) == 550
    assert catch_all == []


@pytest.mark.parametrize("damage, words", [
    ("crc", "no longer match their checksum"),
    ("deflate", "are corrupted and cannot be unpacked"),
    ("shifted", "table of contents"),
    ("cut", "cut short"),
])
def test_a_damaged_workbook_is_explained_in_words_by_the_command_line(tmp_path, capsys, damage, words):
    import zipfile

    from tests.helpers.paths import DATA

    data = bytearray((DATA / "survey.xlsx").read_bytes())
    with zipfile.ZipFile(DATA / "survey.xlsx") as archive:
        sheet = archive.getinfo("xl/worksheets/sheet1.xml")
    start = sheet.header_offset + 30 + len(sheet.filename.encode()) + len(sheet.extra)
    if damage == "crc":  # the stored checksum changed (both copies): the bytes no longer match it
        data = bytes(data).replace(sheet.CRC.to_bytes(4, "little"), (sheet.CRC ^ 0xFF).to_bytes(4, "little"))
    elif damage == "deflate":
        data[start:start + 8] = b"\xff" * 8
        data = bytes(data)
    elif damage == "shifted":  # bytes lost before a part: the directory points to the wrong places
        data = bytes(data[:start - 40] + data[start - 30:])
    else:
        data = bytes(data[: len(data) * 2 // 3])
    path = tmp_path / f"{damage}.xlsx"
    path.write_bytes(data)
    with pytest.raises(DataError) as info:
        read_table(path)
    assert words in str(info.value) and not generic(str(info.value))
    project = tmp_path / "t.dpdesk"
    run(capsys, "new", project)
    code, out, err = run(capsys, "import", project, path)
    assert code != 0 and words in out + err and "Traceback" not in out + err
