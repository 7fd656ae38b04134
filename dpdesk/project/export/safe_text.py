"""Text that is safe to put in a spreadsheet, a CSV file, a sheet name or a file name.

Formula injection ("CSV injection", OWASP): a spreadsheet program runs a cell as a
formula when its text begins with ``=``, ``+``, ``-`` or ``@`` (and Excel also after a
leading tab or carriage return), so an item label such as ``=HYPERLINK(...)`` or a DDE
payload ``=cmd|'/C calc'!A0`` coming from a data file could run when the researcher
opens the export. The rule used in every dpdesk export:

* NUL and the other C0 control characters except tab, line feed and carriage return are
  removed (they are invisible and invalid in the XML inside an .xlsx); lone surrogates
  become U+FFFD.
* A text is *formula-like* when it starts with tab, carriage return or line feed, or
  when its first character that is neither white space nor an invisible format
  character (zero-width space, BOM, bidi marks, category Cf) is ``=``, ``+``, ``-`` or
  ``@`` after Unicode NFKC folding -- which also catches the full-width and small forms
  U+FF1D ``＝``, U+FF0B ``＋``, U+FF0D ``－``, U+FF20 ``＠``, U+FE66, U+FE62, U+FE63, U+FE6B.
* A formula-like text gets one leading apostrophe ``'``: Excel and LibreOffice then show
  it as text, and it stays text if the sheet is saved again as CSV.

Numbers are never passed through here: a number -0.5 stays the number -0.5.
"""

from __future__ import annotations

import re
import unicodedata

FORMULA_TRIGGERS = frozenset("=+-@")
_LEADING_ALWAYS = frozenset("\t\r\n")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile("[\ud800-\udfff]")

#: Characters Excel forbids in sheet names.
SHEET_FORBIDDEN = re.compile(r"[\[\]:*?/\\]")
SHEET_MAX = 31
#: Names Excel reserves or that dpdesk uses for its own sheets.
SHEET_RESERVED = ("History",)


def clean_text(text: str) -> str:
    """Remove NUL and other invisible control characters; replace lone surrogates."""
    text = _CONTROL.sub("", str(text))
    return _SURROGATE.sub("\ufffd", text)


def is_formula_like(text: str) -> bool:
    """True when a spreadsheet could read ``text`` as a formula (see module docstring)."""
    if not text:
        return False
    if text[0] in _LEADING_ALWAYS:
        return True
    for ch in text:
        if ch.isspace() or unicodedata.category(ch) == "Cf":
            continue
        return unicodedata.normalize("NFKC", ch)[:1] in FORMULA_TRIGGERS
    return False


def neutralise(text: str) -> str:
    """``text`` cleaned, with a leading ``'`` when it is formula-like.

    >>> neutralise("=1+1"), neutralise("-2+3"), neutralise("Q1 drugs")
    ("'=1+1", "'-2+3", 'Q1 drugs')
    """
    text = clean_text(text)
    return "'" + text if is_formula_like(text) else text


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def excel_sheet_name(name: str, taken: set[str]) -> str:
    """A valid, unique Excel sheet name made from ``name``; adds it to ``taken``.

    Excel's rules: 1 to 31 characters (counted in UTF-16 units), none of ``[]:*?/\\``,
    no apostrophe at the start or end, not "History", unique ignoring case.
    ``taken`` holds the lower-cased names already used.

    A longer name is shortened by one rule: cut after its last whole word that fits (or
    inside a single word longer than the limit) and ended with "…", so a reader sees it was
    shortened; the workbook's Metadata sheet gives the full name.
    """
    base = SHEET_FORBIDDEN.sub("_", clean_text(name))
    base = " ".join(base.split())  # tabs and line breaks are not allowed either
    base = base.strip("'").strip() or "Table"
    if base.lower() in (r.lower() for r in SHEET_RESERVED):
        base += " table"
    candidate, n = _truncate16(base, SHEET_MAX), 1
    while candidate.lower() in taken:
        n += 1
        tail = f" ({n})"
        candidate = _truncate16(base, SHEET_MAX - len(tail)).rstrip("'").rstrip() + tail
    taken.add(candidate.lower())
    return candidate


def _truncate16(text: str, limit: int) -> str:
    """``text`` if it fits ``limit`` UTF-16 units, else its whole words that fit and "…"."""
    if _utf16_len(text) <= limit:
        return text.rstrip("'")
    cut = text
    while _utf16_len(cut) > limit - 1:
        cut = cut[:-1]
    space = cut.rfind(" ")
    if space >= (limit - 1) // 2 and not text[len(cut)].isspace():
        cut = cut[:space]  # the word the limit fell inside is left out whole
    return cut.rstrip(" '-_,;") + "…"


def file_slug(name: str, taken: set[str], fallback: str = "table") -> str:
    """A short lower-case ASCII name usable in a file name (no path separators, no dots).

    ``By faculty`` -> ``by_faculty``; ``../../etc`` -> ``etc``. Unique within ``taken``.
    """
    folded = unicodedata.normalize("NFKD", clean_text(name)).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^A-Za-z0-9]+", "_", folded).strip("_").lower()[:40].strip("_") or fallback
    candidate, n = slug, 1
    while candidate in taken:
        n += 1
        candidate = f"{slug}_{n}"
    taken.add(candidate)
    return candidate
