"""What the Results view's worker computes: the options of one run and the plain rows it gives back.

``analyze_job`` runs in a ``JobRunner`` worker (no Qt objects made here): the project layer computes the
estimates, subgroups and direct-question comparisons (``analysis.analyze``, ``analysis.direct_comparison``),
the report layer builds the document and the methods text, and the result is a ``ResultSet`` of plain rows
that the view (``results_view``) shows on the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    ci: str = "default"
    confidence: float = 0.95
    by: str | None = None
    direct: tuple = ()  # (item, column) pairs
    min_group: int | None = None  # leave out subgroups with fewer answers
    confirmed: bool = False  # the researcher agreed to subgroups despite the warnings
    style: str = "percent:1"  # the number style (NumberStyle.to_text)
    adjust: str = "holm"  # the adjustment of pairwise p-values for many comparisons
    by_dataset: bool = False  # compare the datasets each item is mapped in (wave 1 against wave 2)

    @property
    def by_label(self) -> str | None:
        """What the subgroups are, in words: the column, or "dataset"."""
        return "dataset" if self.by_dataset else self.by


@dataclass
class ResultSet:
    """What one run produced, as plain rows for the tables and plots."""

    options: Options
    results: list
    estimates: list[dict]
    subgroups: list[dict]
    sentences: list[str]
    forest: list[dict]
    direct: list[dict]
    bars: dict[str, list[dict]] = field(default_factory=dict)
    subgroup_plot: list[dict] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)
    subgroup_bars: dict[str, list[dict]] = field(default_factory=dict)  # item -> rows per subgroup and category
    warnings: list[str] = field(default_factory=list)  # about the subgroups; asked before computing
    needs_confirmation: bool = False
    subgroup_warning: object = None  # subgroup_disclosure.SubgroupWarning: exact n of a released column
    document: object = None  # report.model.Document in the options' number style
    methods: object = None  # report.methods.Methods: the methods paragraph and its references
    names: dict[str, str] = field(default_factory=dict)  # item -> what plots call it
    by_label: str | None = None  # the label of the "Subgroups by" column
    dataset: str | None = None  # the dataset analysed (the active one)


def analyze_job(job, project, options: Options) -> ResultSet:
    """Worker: estimates (and subgroups), direct-question comparisons, rows for tables and plots.

    Reads through its own connection, so the window's connection is never held up.
    """
    from dpdesk.project.reading.importing import own_connection

    from dpdesk.gui.shell.prewarm import import_now

    import_now("matplotlib.figure", "matplotlib.backends.backend_qtagg")  # here, not on the GUI thread

    with own_connection(project) as own:
        return _analyze(job, own, options)


def _analyze(job, project, options: Options) -> ResultSet:
    from dpdesk.project.analysis import estimates as analysis
    from dpdesk.project.analysis.adherence import adherence, subgroup_adherence

    if options.by is not None and not options.confirmed:
        warnings = analysis.subgroup_warnings(project, options.by)
        if warnings:  # nothing computed: the view asks first
            return ResultSet(options, [], [], [], [], [], [], warnings=warnings, needs_confirmation=True)
    job.progress(0.05, "Estimating…")
    if options.ci == "bootstrap":  # seconds per item: one item at a time, so Cancel and progress work
        names = [it.name for it in project.items()]
        results = []
        for i, item in enumerate(names):
            job.progress(0.05 + 0.9 * i / max(1, len(names)), f"Bootstrapping {item}…")
            new = analysis.analyze(project, by=options.by, ci="bootstrap", confidence=options.confidence,
                                   items=[item], min_group_size=options.min_group,
                                   by_dataset=options.by_dataset, adjust=options.adjust)
            job.check()
            for r in new:  # an ECWM item's versions, bootstrapped too (in each subgroup): here, item by item
                adherence(r)
                subgroup_adherence(r)
            results += new
    else:
        results = analysis.analyze(project, by=options.by, ci=options.ci, confidence=options.confidence,
                                   min_group_size=options.min_group, by_dataset=options.by_dataset,
                                   adjust=options.adjust)
    job.check()
    for r in results:  # an error in the app's words (never a command-line flag), for everything shown here
        if r.error_in_app:
            r.error = r.error_in_app
    from dpdesk.project.sharing.subgroup_disclosure import check_results

    warning = check_results(project, results, threshold=options.min_group)
    from dpdesk.project.report.figures import figure_rows

    figures = figure_rows(results)
    forest, direct = [], []
    direct_columns = dict(options.direct)
    table = analysis.stored_table(project) if direct_columns else None
    rr_rows = {row["item"]: row for row in figures.forest}
    for r in results:
        shown = figures.names.get(r.item, r.item)
        if shown not in rr_rows:
            continue
        forest.append(rr_rows[shown])
        column = direct_columns.get(r.item)
        if not column:
            continue
        job.check()
        row, point = analysis.direct_comparison(table, r, column, confidence=options.confidence)
        row["item"] = shown  # the item as the tables and plots name it (its label)
        if point is not None:
            forest.append({**point, "item": shown})
        direct.append(row)
    bars, sub_plot, sub_bars = figures.bars, figures.subgroups, figures.subgroup_bars
    tests = analysis.subgroup_test_sentences(results, options.by_label)
    warnings = list(dict.fromkeys(w for r in results for w in r.warnings))
    sentences = [r.sentence() for r in results]
    for r in results:
        for remark in (r.estimate.notes if r.estimate is not None else ()):
            sentences.append(f"{r.label}: {remark}")
        if r.left_out_sentence():
            sentences.append(r.left_out_sentence())
    from dpdesk.project.report.document import build_document
    from dpdesk.project.report.methods import methods
    from dpdesk.project.number_style import NumberStyle

    document = build_document(project, results, style=NumberStyle.from_text(options.style), direct=direct,
                              ci=options.ci, confidence=options.confidence)
    methods_text = methods(project, results, ci=options.ci, confidence=options.confidence)
    job.progress(1.0, "Done")
    return ResultSet(options, results, analysis.estimate_rows(results), analysis.subgroup_rows(results), sentences,
                     forest, direct, bars, sub_plot, tests, sub_bars, warnings, subgroup_warning=warning,
                     document=document, methods=methods_text, names=figures.names, by_label=figures.by,
                     dataset=analysis.dataset_named(project, None).name)
