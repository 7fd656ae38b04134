"""The document's inline markup as runs of text, for the writers that are not HTML (Word, LaTeX).

The output document's paragraphs and notes carry a small, fixed subset of HTML (``<i>``,
``<b>``, ``<sup>``, ``<code>`` and character entities), made by dpdesk itself with every
researcher's text escaped. :func:`runs` splits such a fragment into :class:`Run` s, each
with its formatting; any other tag is dropped and its text kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser

FORMATS = {"i": "italic", "em": "italic", "b": "bold", "strong": "bold", "sup": "superscript", "code": "code"}


@dataclass(frozen=True)
class Run:
    text: str
    italic: bool = False
    bold: bool = False
    superscript: bool = False
    code: bool = False


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.out: list[Run] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag in FORMATS:
            self.open.append(FORMATS[tag])

    def handle_endtag(self, tag) -> None:
        if tag in FORMATS and FORMATS[tag] in self.open:
            self.open.reverse()
            self.open.remove(FORMATS[tag])
            self.open.reverse()

    def handle_data(self, data) -> None:
        if data:
            self.out.append(Run(data, **{f: True for f in set(self.open)}))


def runs(fragment: str) -> list[Run]:
    """``"<i>Note.</i> p &lt; .05"`` -> ``[Run("Note.", italic=True), Run(" p < .05")]``."""
    parser = _Parser()
    parser.feed(str(fragment))
    parser.close()
    return parser.out

