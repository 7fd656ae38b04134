"""Read the tables back from each report format: HTML (the APA tables), Word (python-docx), LaTeX."""

from __future__ import annotations

import re
from html.parser import HTMLParser


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None
        self.inside = False

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "table" and "apa" in (dict(attrs).get("class") or ""):
            self.inside = True
            self.tables.append([])
        elif self.inside and tag == "tr":
            self.tables[-1].append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data) -> None:
        if self.cell is not None:
            self.cell.append(data)


def html_tables(page: str) -> list[list[list[str]]]:
    """Every APA table of an HTML page as rows of cell texts (header row first)."""
    parser = _Tables()
    parser.feed(page)
    return parser.tables


def docx_tables(path) -> list[list[list[str]]]:
    import docx

    return [[[" ".join(c.text.split()) for c in row.cells] for row in t.rows] for t in docx.Document(str(path)).tables]


def tex_tables(tex: str) -> list[str]:
    """The body of every booktabs tabular (between \\toprule and \\bottomrule)."""
    return re.findall(r"\\toprule\n(.*?)\\bottomrule", tex, re.S)
