"""Clipboard formats: TSV and HTML tables that paste into Excel or Word at full precision."""

from __future__ import annotations

import csv
from html.parser import HTMLParser

import pytest

from dpdesk.project.export.results import table_to_html, table_to_tsv

ROWS = [
    {"item": "Q1", "n": 412, "estimate": 0.1234567890123, "SE": 1 / 3, "CI low": -0.5, "note": "a\tb\nc \"q\""},
    {"item": "007", "n": 7, "estimate": 1e-17, "SE": None, "CI low": float("inf"), "note": "=1+1"},
]


class Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.tags, self._in = [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self._in = tag
            self.rows[-1].append((tag, "", dict(attrs)))

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._in = None

    def handle_data(self, data):
        if self._in:
            tag, text, attrs = self.rows[-1][-1]
            self.rows[-1][-1] = (tag, text + data, attrs)


def test_tsv_full_precision_and_quoting():
    tsv = table_to_tsv(ROWS)
    assert tsv.endswith("\r\n")
    rows = list(csv.reader(tsv.splitlines(keepends=True), delimiter="\t"))
    assert rows[0] == list(ROWS[0])
    assert rows[1][:5] == ["Q1", "412", "0.1234567890123", repr(1 / 3), "-0.5"]
    assert float(rows[1][3]) == 1 / 3
    assert rows[1][5] == 'a\tb\nc "q"'  # quoted like Excel's own copy
    assert rows[2] == ["007", "7", "1e-17", "", "∞", "'=1+1"]


def test_tsv_accepts_a_dataframe_with_numpy_numbers():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"estimate": [0.1234567890123, 2 / 3], "n": [1, 2]})
    assert table_to_tsv(df) == f"estimate\tn\r\n0.1234567890123\t1\r\n{2 / 3!r}\t2\r\n"


def test_html_is_a_real_table_with_headers_and_full_precision():
    markup = table_to_html(ROWS)
    parser = Cells()
    parser.feed(markup)
    assert markup.startswith("<table>") and markup.endswith("</table>")
    assert {"table", "thead", "tbody", "tr", "th", "td"} <= set(parser.tags)
    header, first, second = parser.rows
    assert [t for t, _, _ in header] == ["th"] * 6 and [x for _, x, _ in header] == list(ROWS[0])
    assert [x for _, x, _ in first][:5] == ["Q1", "412", "0.1234567890123", repr(1 / 3), "-0.5"]
    assert first[5][1] == 'a\tb\nc "q"'
    assert [x for _, x, _ in second] == ["007", "7", "1e-17", "", "∞", "'=1+1"]
    assert "mso-number-format" in second[0][2]["style"]  # "007" stays text in Excel
    assert "style" not in first[2][2]  # numbers stay numbers


def test_empty_table():
    assert table_to_tsv([]) == ""
    assert table_to_html([]) == "<table><thead><tr></tr></thead><tbody></tbody></table>"
