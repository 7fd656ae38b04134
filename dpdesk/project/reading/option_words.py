"""Where a researcher sets an import option: the import window, the command line, Python.

Messages about a file end with these words (``choose("delimiter")``), so each reader of a
message finds the setting in the tool they use.
"""

from __future__ import annotations

#: option -> (the import window's label, the command line's option in words: messages reach the app too, whose
#: text never shows a command-line flag)
_OPTIONS = {
    "delimiter": ("Delimiter", "the delimiter option"),
    "encoding": ("Encoding", "the encoding option"),
    "decimal": ("Decimal mark", "the decimal option"),
    "sheet": ("Sheet", "the sheet option"),
    "header_rows": ("Header rows", "the header-rows option"),
    "kind": ("The file is", "the counts option"),
}


def choose(option: str, example: str = "...") -> str:
    """'choose it under Delimiter in the import window (command line: the delimiter option; Python: delimiter='...')'."""
    label, flag = _OPTIONS[option]
    return (f"choose it under {label} in the import window (command line: {flag}; "
            f"Python: {option}='{example}')")
