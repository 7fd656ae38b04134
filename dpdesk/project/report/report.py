"""The report: a cover, the output document and the methods paragraph, as one HTML page.

``report_html(project)`` analyses the project (as the Results view does, with the same
options) and returns the page; ``write_report_html(project, path)`` writes it. The PDF is
the same HTML laid out by Qt (``dpdesk.printing``), which also draws the plots
(:func:`report_figures` gives what to draw; SVG in the HTML, PNG in the PDF).
"""

from __future__ import annotations

import os
from pathlib import Path

from dpdesk.project.report.document import build_document
from dpdesk.project.report.figures import figure_rows, figure_specs
from dpdesk.project.report.methods import methods
from dpdesk.project.report.number_style import DEFAULT, NumberStyle
from dpdesk.project.report.regression import regression_sections
from dpdesk.project.report.render import document_html


def report_parts(project, *, by: str | None = None, ci: str = "default", confidence: float = 0.95,
                 style: NumberStyle = DEFAULT, direct: list[dict] | None = None, results=None,
                 dataset: str | None = None, figures=None, by_dataset: bool = False):
    """``(document, methods, figure specs)`` of the project; ``results`` are computed when not given
    (``by_dataset=True``: the datasets compared, as in ``analysis.analyze``).

    ``figures`` (:class:`FigureRows`) defaults to the rows of ``results``; the app passes
    its own, which include the direct-question estimates.
    """
    if results is None:
        from dpdesk.project.analysis import analyze

        results = analyze(project, by=by, ci=ci, confidence=confidence, dataset=dataset, by_dataset=by_dataset)
    name = Path(str(getattr(project, "path", "project"))).stem
    doc = build_document(project, results, style=style, direct=direct, ci=ci, confidence=confidence,
                         dataset=dataset, title=f"Results of {name}")
    doc.sections += regression_sections(project)  # the saved regressions, after the estimates
    doc.number_tables()
    rows = figures if figures is not None else figure_rows(results)
    by = next((r.by_label or r.by for r in results if r.by), None)
    return (doc, methods(project, results, ci=ci, confidence=confidence, dataset=dataset),
            figure_specs(rows, by=by, confidence=confidence))


def report_html(project, **options) -> str:
    """The whole report as one HTML page (cover, sections, methods with references), without plots."""
    doc, m, _ = report_parts(project, **options)
    return html_of(doc, m)


def html_of(doc, m, images: dict[str, str] | None = None) -> str:
    """The report page; ``images`` maps a figure name to an ``<img src>`` (a data URL or a resource name)."""
    return document_html(doc, cover=True, images=images,
                         extra="<h2 style='page-break-before: always;'>Methods</h2>" + m.html())


def write_report_html(project, path: str | os.PathLike, **options) -> Path:
    """Write the report to ``path`` (UTF-8 HTML), atomically."""
    path = Path(path)
    text = report_html(project, **options)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path
