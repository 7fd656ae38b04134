"""Bad input files: each raises DataError naming the file and a fix, never another exception.

Small bad files are committed in tests/data/bad/ (made by tests/data/make_fixtures.py); the
big ones (100,000 columns, a 10 MB cell, a zip bomb) are written here at test time.
"""

from __future__ import annotations

import pathlib
import re
import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpdesk.errors import DataError
from dpdesk.project import read_table
from tests.helpers.paths import DATA

BAD = DATA / "bad"
FIX = re.compile(r"\b(save|export|rename|fix|pass|choose|add|remove|check|open|split|give|use|unzip)\b",
                 re.IGNORECASE)
OVERRIDES = {"counts_negative.csv": {"kind": "counts"}, "counts_fraction.csv": {"kind": "counts"}}
COMMITTED = sorted(p.name for p in BAD.iterdir() if p.is_file())


def assert_useful(path: pathlib.Path, **overrides) -> str:
    """read_table raises DataError (nothing else) whose message names the file and a fix."""
    try:
        read_table(path, **overrides)
    except DataError as exc:
        message = str(exc)
    else:  # pragma: no cover - the failure message
        pytest.fail(f"{path.name} was read without error")
    assert path.name in message, message
    assert FIX.search(message), f"no fix in: {message}"
    assert "Traceback" not in message
    return message


def test_corpus_has_at_least_30_files():
    assert len(COMMITTED) + len(GENERATED) >= 30


@pytest.mark.parametrize("name", COMMITTED)
def test_committed_bad_file(name):
    assert_useful(BAD / name, **OVERRIDES.get(name, {}))


EXPECTED = {
    "empty.csv": "empty",
    "header_only.csv": "no data rows",
    "ragged_rows.csv": "row 3",
    "extra_field_first_row.csv": "row 2",
    "mixed_encodings.csv": "mixes encodings",
    "nul_bytes.csv": "line 3",
    "unclosed_quote.csv": "never closed",
    "duplicate_columns.csv": "columns 2, 4",
    "only_identifiers.csv": "direct identifier",
    "truncated.sav": "truncated",
    "zip_of_text.xlsx": "not an Excel workbook",
    "old_excel.xls": ".xls",
    "counts_negative.csv": "row 3",
    "encrypted.xlsx": "password",
}


@pytest.mark.parametrize("name, words", sorted(EXPECTED.items()))
def test_message_says_what_and_where(name, words):
    assert words in assert_useful(BAD / name, **OVERRIDES.get(name, {}))


# --- generated at test time (not committed: too big) ---------------------------------------

def _wide_header(path):
    path.write_text(",".join(f"c{i}" for i in range(100_000)) + "\n" + ",".join("1" * 100_000) + "\n")


def _huge_cell(path):
    with open(path, "w") as out:
        out.write('q1,comment\n1,"')
        out.write("x" * (10 << 20))
        out.write('"\n2,ok\n')


def _zip_bomb(path):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member:
            block = b"\0" * (1 << 20)
            for _ in range(64):
                member.write(block)


def _bad_utf16(path):
    path.write_bytes(b"\xff\xfe" + "q1,q2\n1,2\n".encode("utf-16-le") + b"\x00\xd8")  # lone surrogate


def _forced_bad_encoding(path):
    path.write_bytes("q1\nZürich\n".encode("utf-8"))


GENERATED = {
    "wide_header.csv": (_wide_header, {}, "16,384"),
    "huge_cell.csv": (_huge_cell, {}, "characters"),
    "zip_bomb.xlsx": (_zip_bomb, {}, "zip bomb"),
    "bad_utf16.csv": (_bad_utf16, {}, "utf-16"),
    "forced_ascii.csv": (_forced_bad_encoding, {"encoding": "ascii"}, "ascii"),
}


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_bad_file(tmp_path, name):
    make, overrides, words = GENERATED[name]
    path = tmp_path / name
    make(path)
    assert words in assert_useful(path, **overrides)


@pytest.mark.parametrize("overrides, words", [
    ({"sheet": "Nope"}, "no sheet"),
    ({"header_rows": -1}, "header_rows"),
    ({"platform": "typeform"}, "platform"),
    ({"kind": "rows"}, "kind"),
    ({"encoding": "klingon"}, "encoding"),
    ({"delimiter": ";;"}, "delimiter"),
    ({"format": "parquet"}, "format"),
    ({"decimal": ","}, "both"),
    ({"decimal": "x"}, "decimal"),
])
def test_bad_overrides(overrides, words):
    path = BAD.parent / ("survey.xlsx" if "sheet" in overrides else "coded.csv")
    assert words in assert_useful(path, **overrides)


def test_directory_is_refused(tmp_path):
    with pytest.raises(DataError, match="folder"):
        read_table(tmp_path)


# --- fuzzing: any bytes give a Table or a DataError -----------------------------------------

_FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _only_table_or_data_error(path, data: bytes, **overrides):
    path.write_bytes(data)
    try:
        table = read_table(path, **overrides)
    except DataError as exc:
        assert path.name in str(exc)
    else:
        assert table.frame.shape[0] > 0


@_FUZZ
@given(st.binary(max_size=400))
def test_fuzz_random_bytes(tmp_path, data):
    _only_table_or_data_error(tmp_path / "fuzz.csv", data)


_CELL = st.text(alphabet=list('ab1 ,;|\t"\n\r.-é€\\'), max_size=6) | st.sampled_from(["", "NA", "1,5"])


@_FUZZ
@given(st.lists(st.lists(_CELL, min_size=1, max_size=5), min_size=1, max_size=8),
       st.sampled_from([",", ";", "\t", "|"]), st.sampled_from(["utf-8", "utf-8-sig", "cp1252", "utf-16"]))
def test_fuzz_csv_like_text(tmp_path, rows, delimiter, encoding):
    text = "\n".join(delimiter.join(row) for row in rows)
    _only_table_or_data_error(tmp_path / "fuzz.csv", text.encode(encoding, errors="replace"))


@_FUZZ
@given(st.text(max_size=300))
def test_fuzz_any_text_with_header_rows(tmp_path, text):
    _only_table_or_data_error(tmp_path / "fuzz.txt", text.encode("utf-8", "surrogatepass"), header_rows=2)


def test_committed_corpus_is_small():
    """The committed corpus is small (the big files are generated)."""
    assert sum((BAD / n).stat().st_size for n in COMMITTED) < 200_000


def _cells(frame):
    import pandas as pd

    def norm(v):
        if v is None or (not isinstance(v, str) and pd.isna(v)):
            return None
        try:
            return float(v)
        except (TypeError, ValueError):
            return str(v)

    return [[norm(v) for v in row] for row in frame.astype(object).itertuples(index=False)]


_PIECE_CELL = st.text(alphabet=list('ab1,"\n'), max_size=4) | st.sampled_from(["", "2", "1.5", "x"])


@_FUZZ
@given(st.lists(st.lists(_PIECE_CELL, min_size=3, max_size=3), min_size=2, max_size=40))
def test_fuzz_piecewise_parse_agrees_with_serial(tmp_path, rows):
    from dpdesk.project.reading import chunks

    def quote(cell):
        return '"' + cell.replace('"', '""') + '"' if any(c in cell for c in ',"\n') else cell

    text = "a,b,c\n" + "".join(",".join(quote(c) for c in row) + "\n" for row in rows)
    path = tmp_path / "pieces.csv"
    path.write_text(text)
    outcomes = []
    for small in (False, True):
        saved = chunks.MIN_BYTES, chunks.PIECE, chunks.workers
        if small:
            chunks.MIN_BYTES, chunks.PIECE, chunks.workers = 1, 16, (lambda: 2)
        try:
            outcomes.append(_cells(read_table(path).frame))
        except DataError as exc:
            outcomes.append(str(exc))
        finally:
            chunks.MIN_BYTES, chunks.PIECE, chunks.workers = saved
    assert outcomes[0] == outcomes[1]
