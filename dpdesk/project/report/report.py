"""The report: a cover, the output document and the methods paragraph, as one HTML page.

``report_html(project)`` analyses the project (as the Results view does, with the same
options) and returns the page; ``write_report_html(project, path)`` writes it. The PDF is
the same HTML laid out by Qt (``dpdesk.printing``); plots are not part of the report yet.
"""

from __future__ import annotations

import os
from pathlib import Path

from dpdesk.project.report.document import build_document
from dpdesk.project.report.methods import methods
from dpdesk.project.report.number_style import DEFAULT, NumberStyle
from dpdesk.project.report.render import document_html


def report_parts(project, *, by: str | None = None, ci: str = "default", confidence: float = 0.95,
                 style: NumberStyle = DEFAULT, direct: list[dict] | None = None, results=None,
                 dataset: str | None = None):
    """``(document, methods)`` of the project; ``results`` are computed when not given."""
    if results is None:
        from dpdesk.project.analysis import analyze

        results = analyze(project, by=by, ci=ci, confidence=confidence, dataset=dataset)
    name = Path(str(getattr(project, "path", "project"))).stem
    doc = build_document(project, results, style=style, direct=direct, ci=ci, confidence=confidence,
                         dataset=dataset, title=f"Results of {name}")
    return doc, methods(project, results, ci=ci, confidence=confidence, dataset=dataset)


def report_html(project, **options) -> str:
    """The whole report as one HTML page (cover, sections, methods with references)."""
    doc, m = report_parts(project, **options)
    return html_of(doc, m)


def html_of(doc, m) -> str:
    return document_html(doc, cover=True, extra="<h2 style='page-break-before: always;'>Methods</h2>" + m.html())


def write_report_html(project, path: str | os.PathLike, **options) -> Path:
    """Write the report to ``path`` (UTF-8 HTML), atomically."""
    path = Path(path)
    text = report_html(project, **options)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path
