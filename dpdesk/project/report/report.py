"""The report: the whole study as one document, and its methods text.

``report_parts(project)`` analyses the project (as the Results view does, with the same
options) and returns ``(document, methods, figures)``: the estimates, the subgroups of every
item, the saved regressions (tables, odds-ratio forest, prevalence curve), the noisy releases
(grids with margins, means with intervals), the fielded text in every language
(:mod:`.fielded`, an appendix), each figure with its caption (:class:`Figure`);
with subgroups, every yes/no item in one grid (:mod:`.subgroup_grid`) before each item's tables.
Every writer takes these same parts: HTML and PDF (``dpdesk.printing``, which also draws
the plots), Word (:mod:`.docx`) and LaTeX (:mod:`.latex`). ``methods.methods`` is the one
methods text of the Methods dialog, the report, ``dpdesk methods`` and the Word file.
"""

from __future__ import annotations

import os
from pathlib import Path

from dpdesk.project.report.document import build_document
from dpdesk.project.report.fielded import fielded_section
from dpdesk.project.report.figures import figure_rows, place_figures, report_figures
from dpdesk.project.report.methods import methods
from dpdesk.project.number_style import DEFAULT, NumberStyle
from dpdesk.project.report.regression import regression_sections
from dpdesk.project.report.releases import release_section
from dpdesk.project.report.subgroup_grid import subgroup_grid
from dpdesk.project.report.render import document_html


def report_parts(project, *, by: str | None = None, ci: str = "default", confidence: float = 0.95,
                 style: NumberStyle = DEFAULT, direct: list[dict] | None = None, results=None,
                 dataset: str | None = None, figures=None, by_dataset: bool = False, survey=None):
    """``(document, methods, figures)`` of the project; ``results`` are computed when not given
    (``by_dataset=True``: the datasets compared, as in ``analysis.analyze``; ``survey``: the
    sample design, default the dataset's stored one).

    ``figures`` (:class:`FigureRows`) defaults to the rows of ``results``; the app passes
    its own, which include the direct-question estimates. The third element lists the
    document's figures in order (each also sits in its section).
    """
    if results is None:
        from dpdesk.project.analysis.estimates import analyze

        results = analyze(project, by=by, ci=ci, confidence=confidence, dataset=dataset, by_dataset=by_dataset,
                          survey=survey)
    name = Path(str(getattr(project, "path", "project"))).stem
    doc = build_document(project, results, style=style, direct=direct, ci=ci, confidence=confidence,
                         dataset=dataset, title=f"Results of {name}")
    if not results:  # a project of noisy releases only: no empty table of estimates
        doc.sections = [s for s in doc.sections if s.key != "estimates"]
    by = next((r.by_label or r.by for r in results if r.by), None)
    subgroups = doc.section("subgroups")
    grid = subgroup_grid(results, {it.name: it for it in project.items()}, style, confidence, by) if by else None
    if subgroups is not None and grid is not None:
        subgroups.tables.insert(0, grid)  # every yes/no item at a glance, then each item's own tables
    place_figures(doc, report_figures(figures if figures is not None else figure_rows(results), by=by,
                                      confidence=confidence))
    doc.sections += regression_sections(project)  # the saved regressions, after the estimates
    releases = release_section(project)
    if releases is not None:
        doc.sections.append(releases)
    fielded = fielded_section(project)
    if fielded is not None:  # the appendix: what respondents saw, in every language
        doc.sections.append(fielded)
    doc.number_tables()
    doc.cover["Contents"] = _contents(doc, results, by)
    return doc, methods(project, results, ci=ci, confidence=confidence, dataset=dataset), doc.figures()


def _contents(doc, results, by) -> str:
    """The study in one line for the first page: "3 items, by gender; 1 regression; 2 noisy releases"."""
    n_reg = sum(s.key.startswith("regression:") for s in doc.sections)
    n_cor = sum(s.key.startswith("correlations:") for s in doc.sections)
    releases = doc.section("releases")
    parts = [f"{len(results)} item{'s' * (len(results) != 1)}" + (f", also by {by}" if by else "")]
    if n_reg:
        parts.append(f"{n_reg} regression{'s' * (n_reg != 1)}")
    if n_cor:
        parts.append(f"{n_cor} correlation table{'s' * (n_cor != 1)}")
    if releases is not None:
        parts.append(f"{len(releases.tables)} noisy release{'s' * (len(releases.tables) != 1)}")
    return "; ".join(parts) + f"; {len(doc.tables())} tables, {len(doc.figures())} figures"


def report_html(project, **options) -> str:
    """The whole report as one HTML page (summary, sections, methods with references), without plots."""
    doc, m, _ = report_parts(project, **options)
    return html_of(doc, m)


def html_of(doc, m, images: dict[str, str] | None = None) -> str:
    """The report page; ``images`` maps a figure key to an ``<img src>`` (a data URL or a resource name)."""
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
