"""Which kind of file is this? Decided from its first bytes, with the extension as a hint.

Signatures: SPSS system files start with ``$FL2`` (``$FL3`` when compressed, .zsav);
Stata 117+ files with ``<stata_dta>``, older ones (113-115) with the format byte 0x71-0x73
then a byte-order byte 1 or 2; Excel .xlsx is a zip (``PK\\x03\\x04``) holding
``xl/workbook.xml``; legacy Excel .xls is an OLE2 compound file (``D0 CF 11 E0``); an SPSS
portable file (.por) is text in 80-character lines whose 200-byte splash and 256-byte
character table are followed by the tag ``SPSSPORT``; a SAS transport file (.xpt, XPORT
version 5 or 8) starts with the text ``HEADER RECORD*******LIBRARY HEADER RECORD`` (``LIBV8``).
Anything else is treated as delimited text and checked as such.
"""

from __future__ import annotations

import os

from dpdesk.errors import DataError

FORMATS = ("csv", "xlsx", "sav", "dta", "por", "xpt")
_EXTENSIONS = {".csv": "csv", ".tsv": "csv", ".txt": "csv", ".tab": "csv", ".dat": "csv",
               ".xlsx": "xlsx", ".xlsm": "xlsx", ".sav": "sav", ".zsav": "sav", ".dta": "dta",
               ".por": "por", ".xpt": "xpt"}
_FOREIGN = {
    b"%PDF": "a PDF document",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"\x1f\x8b": "a gzip-compressed file",
    b"BZh": "a bzip2-compressed file",
    b"7z\xbc\xaf": "a 7-Zip archive",
    b"Rar!": "a RAR archive",
    b"PAR1": "a Parquet file",
    b"SQLite format 3": "an SQLite database",
    b"\x7fELF": "a program (ELF executable)",
    b"MZ": "a Windows program",
    b"{\\rtf": "an RTF document",
}
_TEXTUAL = (b"%PDF", b"SQLite format 3", b"{\\rtf", b"PAR1")


def detect_format(path: str, forced: str | None = None) -> str:
    """Return ``"csv"``, ``"xlsx"``, ``"sav"``, ``"dta"``, ``"por"`` or ``"xpt"``, or raise :class:`DataError`."""
    name = os.path.basename(path)
    if forced is not None:
        if forced not in FORMATS:
            raise DataError(f"{name}: unknown format {forced!r}. Use one of {', '.join(FORMATS)}.")
        return forced
    with open(path, "rb") as handle:
        head = handle.read(64)
    if head.startswith((b"$FL2", b"$FL3")):
        return "sav"
    if head.startswith(b"<stata_dta>") or (len(head) > 2 and head[0] in (0x71, 0x72, 0x73)
                                            and head[1] in (1, 2) and head[2] == 1):
        return "dta"
    if _portable(path):
        return "por"
    if head.startswith(b"HEADER RECORD*******LIB"):
        return "xpt"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "xlsx"  # read_excel checks that the zip really is a workbook
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        with open(path, "rb") as handle:
            start = handle.read(1 << 20)
        if "EncryptionInfo".encode("utf-16-le") in start:
            raise DataError(f"{name}: this workbook is protected with a password (encrypted), so "
                            f"it cannot be read. Open it in Excel, remove the password (File > "
                            f"Info > Protect Workbook), save it and import it again.")
        raise DataError(f"{name}: this is an old Excel 97-2003 (.xls) workbook, which dpdesk does "
                        f"not read. Open it in Excel or LibreOffice and save it as .xlsx or CSV.")
    lowered = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if lowered.startswith((b"<!doctype html", b"<html", b"<?xml", b"<table")):
        what = "an XML file (perhaps an Excel 2003 XML sheet)" if lowered.startswith(b"<?xml") else "a web page (HTML)"
        raise DataError(f"{name}: this is {what}, not a data file, even if its name says otherwise. "
                        f"Open it in Excel or LibreOffice and save it as .xlsx or CSV.")
    for magic, what in _FOREIGN.items():
        if head.startswith(magic) and (magic in _TEXTUAL or not _looks_like_text(head)):
            raise DataError(f"{name}: this is {what}, not a data file. Export the survey data as "
                            f"CSV, .xlsx, .sav or .dta and choose that file.")
    ext = os.path.splitext(name)[1].lower()
    if _EXTENSIONS.get(ext) == "por":
        raise DataError(f"{name}: the name says SPSS portable (.por) but the file does not start as "
                        f"one (no 'SPSSPORT' tag after its first 456 characters); it may be damaged "
                        f"or renamed. Save the data from SPSS as .sav and import that.")
    if _EXTENSIONS.get(ext) in ("xlsx", "sav", "dta"):
        what = {"xlsx": "an Excel workbook", "sav": "an SPSS file", "dta": "a Stata file"}[_EXTENSIONS[ext]]
        if not _looks_like_text(head):
            raise DataError(f"{name}: the name says {what} but the contents are not one (the file "
                            f"may be damaged or renamed). Export the data again, or save it as CSV.")
    return "csv"


def _portable(path: str) -> bool:
    """An SPSS portable file: ``SPSSPORT`` after the splash and the character table."""
    with open(path, "rb") as handle:
        start = handle.read(1024).replace(b"\r", b"").replace(b"\n", b"")
    return b"SPSSPORT" in start[440:480]


def _looks_like_text(head: bytes) -> bool:
    if head.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:
            return False
    return b"\x00" not in head


def extension_warning(path: str, fmt: str) -> str | None:
    """A warning when the file's extension names another format than its contents."""
    ext = os.path.splitext(path)[1].lower()
    expected = _EXTENSIONS.get(ext)
    if expected is None or expected == fmt:
        return None
    return (f"The file name ends in {ext} but the contents are {fmt.upper()}; it was read as "
            f"{fmt.upper()}. Rename the file to avoid confusion.")
