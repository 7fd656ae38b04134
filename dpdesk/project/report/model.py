"""The output document as plain data: sections of paragraphs, APA tables and notes.

Built by :mod:`dpdesk.project.report.document`, written by :mod:`.render` (HTML, TSV) and
shown by the Results view. Every number cell keeps its full-precision value beside the
text shown, so a copy can be "what is shown" or "full precision".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Column:
    """A column header; ``italic`` for statistic symbols (n, SE, p, ε), ``numeric`` right-aligns."""

    label: str
    italic: bool = False
    numeric: bool = True
    suffix: str = ""  # e.g. " (%)", not italic


@dataclass
class Cell:
    text: str
    value: Any = None  # full precision (a float, an int, a (low, high) pair) or None


@dataclass
class Row:
    cells: list[Cell]
    indent: int = 0  # categories under their item, subgroups' categories
    heading: bool = False  # a row naming the item whose rows follow


@dataclass
class Table:
    key: str
    title: str
    columns: list[Column]
    rows: list[Row]
    notes: list[str] = field(default_factory=list)  # "Note." lines under the table (HTML allowed)
    number: int = 0  # "Table 1", set when the document is numbered


@dataclass
class Figure:
    """One figure from one description: the plot (``dpdesk.plotting.render(kind, rows, **options)``) and
    its caption are made together (:mod:`.figures`), so a caption cannot name another plot."""

    key: str  # "forest", "bars:ITEM", "subgroups", "subgroup-bars:ITEM", "odds-ratios:1", "curve:1"
    caption: str
    kind: str
    rows: list = field(default_factory=list)
    options: dict = field(default_factory=dict)
    number: int = 0  # "Figure 1", set when the document is numbered


@dataclass
class Section:
    key: str
    title: str
    paragraphs: list[str] = field(default_factory=list)  # before the tables (HTML allowed)
    tables: list[Table] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)  # after the tables


@dataclass
class Document:
    title: str
    cover: dict[str, str] = field(default_factory=dict)  # project file name, data fingerprint, date, version
    sections: list[Section] = field(default_factory=list)

    def tables(self) -> list[Table]:
        return [t for s in self.sections for t in s.tables]

    def table(self, key: str) -> Table:
        for t in self.tables():
            if t.key == key:
                return t
        raise KeyError(key)

    def figures(self) -> list[Figure]:
        return [f for s in self.sections for f in s.figures]

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)

    def number_tables(self) -> None:
        """Number the tables and the figures in the order they appear."""
        for i, t in enumerate(self.tables(), 1):
            t.number = i
        for i, f in enumerate(self.figures(), 1):
            f.number = i
