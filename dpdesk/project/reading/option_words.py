"""Where a researcher sets an import option: the import window, the command line, Python.

Messages about a file end with these words (``choose("delimiter")``), so each reader of a
message finds the setting in the tool they use.
"""

from __future__ import annotations

#: option -> (the import window's label, the command line's flag)
_OPTIONS = {
    "delimiter": ("Delimiter", "--delimiter"),
    "encoding": ("Encoding", "--encoding"),
    "decimal": ("Decimal mark", "--decimal"),
    "sheet": ("Sheet", "--sheet"),
    "header_rows": ("Header rows", "--header-rows"),
    "kind": ("The file is", "--counts"),
}


def choose(option: str, example: str = "...") -> str:
    """'choose it under Delimiter in the import window (command line: --delimiter; Python: delimiter='...')'."""
    label, flag = _OPTIONS[option]
    return (f"choose it under {label} in the import window (command line: {flag}; "
            f"Python: {option}='{example}')")
