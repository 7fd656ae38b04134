"""Find the text encoding of a delimited file and check every byte of it once.

Order of tries: a byte-order mark (UTF-8, UTF-16, UTF-32) decides; otherwise the whole file
must decode as UTF-8; otherwise Windows-1252 (what Excel on Windows writes as "CSV") is used
with a warning. A file that mixes valid UTF-8 letters with bytes that are not UTF-8 is
refused: no single encoding reads it right. NUL bytes and other control characters mark a
binary or damaged file and are refused with the line where they occur.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re

from dpdesk.errors import DataError
from dpdesk.project.reading.option_words import choose

BLOCK = 1 << 18
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_NUL = "\x00"
_CONTROL = re.compile("[\x00-\x08\x0e-\x1f]")
_ENCODING_FIX = ("Open the file in a text editor or Excel and save it as 'CSV UTF-8', or pass "
                 "encoding='...' with the right encoding")


def detect_encoding(path: str, forced: str | None, progress=None) -> tuple[str, list[str], str]:
    """Return ``(encoding, warnings, sha256)`` after checking that the whole file decodes.

    The SHA-256 of the file's bytes is computed in the same pass (one read of the file).
    """
    name = os.path.basename(path)
    warnings: list[str] = []
    if forced is not None:
        try:
            codecs.lookup(forced)
        except LookupError:
            raise DataError(f"{name}: unknown encoding {forced!r}. Use e.g. 'utf-8', 'utf-16' or "
                            f"'cp1252'.") from None
        return forced, warnings, _check(path, forced, progress)
    with open(path, "rb") as handle:
        head = handle.read(4)
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding, warnings, _check(path, encoding, progress)
    _refuse_binary(path)
    try:
        return "utf-8", warnings, _check(path, "utf-8", progress)
    except _Undecodable as first:
        _refuse_mixed(path, first)
        try:
            digest = _check(path, "cp1252", None)
        except _Undecodable as second:
            raise DataError(f"{name}: line {second.line} holds bytes that are neither UTF-8 nor "
                            f"Windows-1252 text ({second.snippet}); the file may be binary or "
                            f"damaged. {_ENCODING_FIX}.") from None
        warnings.append(f"The file is not UTF-8 (first at line {first.line}); it was read as "
                        f"Windows-1252 (Western European). If accented letters look wrong, save "
                        f"the file as 'CSV UTF-8', or name its encoding: {choose('encoding', 'utf-8')}.")
        return "cp1252", warnings, digest


def _refuse_binary(path: str) -> None:
    """Refuse a file whose start is full of NUL or control bytes (an image, a program ...)."""
    with open(path, "rb") as handle:
        head = handle.read(8192)
    control = sum(head.count(bytes([b])) for b in range(32) if b not in (9, 10, 12, 13))
    if b"\x00" in head or control > max(4, len(head) // 100):
        line = head[: max(0, head.find(b"\x00"))].count(b"\n") + 1 if b"\x00" in head else 1
        what = f"line {line} contains a NUL byte (\\x00)" if b"\x00" in head else "the start is full of control characters"
        raise DataError(f"{os.path.basename(path)}: {what}, so this is not a plain text data file "
                        f"(binary, damaged, or UTF-16 without a byte-order mark). Export the data "
                        f"again as CSV (UTF-8), .xlsx, .sav or .dta.")


class _Undecodable(Exception):
    def __init__(self, line: int, snippet: str):
        super().__init__(line, snippet)
        self.line = line
        self.snippet = snippet


def _check(path: str, encoding: str, progress) -> str:
    """Decode the whole file block by block; refuse NUL and control bytes; return its SHA-256."""
    name = os.path.basename(path)
    decoder = codecs.getincrementaldecoder(encoding)()
    size = max(1, os.path.getsize(path))
    lines, done = 1, 0
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while True:
            block = handle.read(BLOCK)
            digest.update(block)
            final = not block
            try:
                text = decoder.decode(block, final=final)
            except UnicodeDecodeError as exc:
                line = lines + block[:max(0, exc.start)].count(b"\n")
                if encoding != "utf-8" and encoding != "cp1252":
                    raise DataError(f"{name}: line {line} "
                                    f"is not valid {encoding} (bytes {_hex(block, exc.start)}). "
                                    f"{_ENCODING_FIX}.") from None
                raise _Undecodable(line, _hex(block, exc.start)) from None
            nul = text.find(_NUL)
            binary = done == 0 and len(_CONTROL.findall(text[:4096])) > max(8, len(text[:4096]) // 20)
            if nul >= 0 or binary:
                line = lines + text.count("\n", 0, max(nul, 0))
                what = f"line {line} contains a NUL byte (\\x00)" if nul >= 0 else "the start is full of control characters"
                raise DataError(f"{name}: {what}, so this is not a plain text "
                                f"data file (binary, damaged, or UTF-16 without a byte-order mark). "
                                f"Export the data again as CSV (UTF-8), .xlsx, .sav or .dta.")
            lines += text.count("\n")
            done += len(block)
            if progress is not None:
                progress(done / size)
            if final:
                return digest.hexdigest()


def _hex(block: bytes, start: int) -> str:
    start = max(0, start)
    return " ".join(f"{b:02X}" for b in block[start:start + 4])


def _refuse_mixed(path: str, failure: _Undecodable) -> None:
    """Refuse a file with both well-formed UTF-8 letters and bytes that are not UTF-8."""
    name = os.path.basename(path)
    utf8_line = None
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if raw.isascii():
                continue
            text = raw.decode("utf-8", errors="replace")
            if any(ord(c) > 127 and c != "\ufffd" for c in text):
                utf8_line = number
                break
    if utf8_line is not None:
        raise DataError(f"{name}: the file mixes encodings: line {utf8_line} has UTF-8 letters but "
                        f"line {failure.line} has bytes that are not UTF-8 ({failure.snippet}). "
                        f"Pieces were probably pasted together from different programs. Open it "
                        f"in a text editor, fix the accented letters and save it as 'CSV UTF-8'.")
