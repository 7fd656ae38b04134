"""From a project to estimates: count each item's answers, estimate, tabulate, bundle.

This is the path the app and the command line share: the project layer aggregates the
data (``mapping``), the mechanisms estimate from counts (``dpdesk.mechanisms.rr``), and
the results become tables for display and export (``export.ResultsBundle``).
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dpdesk import __version__
from dpdesk.errors import DataError, DpdeskError, app_words
from dpdesk.mechanisms import multiple_testing, rr
from dpdesk.project.analysis import adherence, review
from dpdesk.project.study.active import dataset_named
from dpdesk.project.analysis.direct_questions import DIRECT_CODES, direct_comparison  # noqa: F401 - the Results view's
from dpdesk.project.export.model import ReproItem, ResultsBundle
from dpdesk.project.study.labels import Labels, item_label, labels_of
from dpdesk.project.mapping import MappingReport, counts_by
from dpdesk.project.mapping.item_counts import item_counts  # noqa: F401 - importable from here too
from dpdesk.project.mapping.item_counts import responses as _responses
from dpdesk.project.reading.codes import numeric_codes
from dpdesk.project.reading.table import ImportReport, Source, Table
from dpdesk.project.analysis.result_tables import (  # noqa: F401 - the tables stay importable from here
    BY_DATASET,
    COLUMNS,
    estimate_rows,
    subgroup_rows,
    subgroup_adjust_note,
    subgroup_test_rows,
    subgroup_test_sentences,
)
from dpdesk.project.analysis.survey import result_figures, subgroup_sizes, survey_item, survey_repro, survey_subgroups
from dpdesk.project.study.survey_design import DesignChanges, SurveyDesign, estimator_arguments, survey_design
from dpdesk.project.mapping.unary import is_unary_codes, unary_counts_by

#: What an item without a mapping in the dataset analysed shows instead of an estimate.
NOT_MAPPED = "not mapped in this dataset"

#: "Subgroups by" warns above this many subgroups, or for subgroups with fewer respondents.
MAX_SUBGROUPS = 20
MIN_SUBGROUP_SIZE = 5


@dataclass
class ItemResult:
    """One item's counts (with what was excluded), its estimate and its subgroup estimates."""

    item: str
    question: str
    design: rr.Design
    mapping: MappingReport
    estimate: rr.Estimate | None
    by: str | None = None
    subgroups: Any = None  # rr.SubgroupResult
    subgroup_counts: dict = field(default_factory=dict)  # subgroup label -> counts (as rr.estimate takes)
    error: str | None = None
    not_mapped: bool = False  # the item has no mapping in the dataset analysed (error says so)
    min_group_size: int | None = None  # groups with fewer answers used were left out
    left_out_groups: dict = field(default_factory=dict)  # subgroup label -> n, left out as too small
    warnings: list[str] = field(default_factory=list)  # e.g. too many or too small subgroups
    label: str = ""  # what output calls the item: its short label, else its question, else its name
    by_label: str | None = None  # the label of the "Subgroups by" column
    missing_n: int | None = None  # answers used of respondents with no subgroup value: the "(missing)" row
    adjust: str = multiple_testing.DEFAULT  # the adjustment of the pairwise p-values for many comparisons
    survey: Any = None  # rr.SurveyEstimate, when the dataset has a survey design
    sample_design: Any = None  # the SurveyDesign used (column names), or None
    subgroup_surveys: dict = field(default_factory=dict)  # subgroup label -> rr.SurveyEstimate (its domain)
    wave_note: str = ""  # datasets compared under their designs: which are weighted (analysis.waves)
    error_in_app: str | None = None  # the error in the app's words, when its command-line words name a flag

    def __post_init__(self):
        self.label = self.label or (self.question or "").strip() or self.item
        if self.by is not None and self.by_label is None:
            self.by_label = self.by

    def sentence(self) -> str:
        """One plain sentence: "We estimate that 23% (95% CI 17% to 29%) of respondents ..."."""
        e = self.estimate
        if e is None:
            return f"{self.label}: {self.error}." if self.not_mapped else f"{self.label}: no estimate ({self.error})."
        if not self.design.is_binary:
            parts = ", ".join(f"{c} {_pct(f)}" for c, f in zip(self.design.categories, e.frequencies))
            return f"We estimate the shares for {self.label!r} as {parts}."
        lo, hi = e.ci
        about = f"would truthfully answer 'yes' to: {self.question}" if self.question else f"have '{self.label}'"
        return f"We estimate that {_pct(e.prevalence)} ({_pct(e.confidence)} CI {_pct(lo)} to {_pct(hi)}) {about}"

    def left_out_sentence(self) -> str:
        """``"cheating: 600 answers used; 7 left out: 5 blank, 2 user-missing code (Refused)."``"""
        m = self.mapping
        if m is None or self.estimate is None or not m.n_excluded:
            return ""
        return f"{self.label}: {self.estimate.n:,} answers used; {m.left_out_text()}."


def _pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%".replace(".0%", "%")


def stored_table(project, dataset: str | None = None, columns: list[str] | None = None) -> Table:
    """The named (default: the active) imported dataset as a :class:`Table`.

    A linked dataset (:mod:`dpdesk.project.linked`) is read as a counts table computed in its
    engine, over its items' answer and group columns and ``columns`` (a subgroup column, say).
    """
    ds = dataset_named(project, dataset)
    known = set(ImportReport.__dataclass_fields__)
    report = ImportReport(**{k: v for k, v in (ds.report or {}).items() if k in known})
    labels = Labels.from_stored(project.column_labels(ds.name))  # the project's labels (typed codes)
    report.variable_labels, report.value_labels = labels.columns, labels.values
    src = ds.source or {}
    source = Source(src.get("name") or ds.name, src.get("path") or "", int(src.get("size") or 0),
                    src.get("sha256") or "")  # a dataset added without a file has none of these
    from dpdesk.project.linked.store import is_linked

    if is_linked(ds):  # the engine counts: one row per combination of the items' columns
        from dpdesk.project.linked.counts import COUNT_COLUMN, counts_frame, mapped_columns

        frame = counts_frame(project, ds, mapped_columns(project, ds) + list(columns or ()))
        report.kind, report.count_column = "counts", COUNT_COLUMN
    else:
        frame = project.dataset_frame(ds.name)
    report.value_labels = {  # codes as the import gave them (the file keeps them as text)
        c: numeric_codes(labels or {}, c in frame.columns and getattr(frame[c].dtype, "kind", "O") in "iuf")
        for c, labels in (report.value_labels or {}).items()}
    return Table(frame, report, source)


def analyze(project, *, dataset: str | None = None, by: str | None = None, ci: str = "default",
            confidence: float = 0.95, exclude: bool = True, items: list[str] | None = None,
            min_group_size: int | None = None, by_dataset: bool = False, survey=None,
            adjust: str = multiple_testing.DEFAULT) -> list[ItemResult]:
    """Estimate every item (or the named ones) of the project, optionally by subgroup ``by``.

    ``by_dataset=True`` compares the datasets instead (wave 1 against wave 2): each item is
    estimated in every dataset it is mapped in, and the datasets are its subgroups (their
    differences and the test that all have the same prevalence, as for ``by``).

    Missing answers (blanks, user-missing codes) are always left out and reported
    (``ItemResult.mapping.left_out()``); answers matching no code are left out and reported
    with ``exclude=True``, and stop the item with a message listing the rows with
    ``exclude=False``. A stored mapping that contradicts the file's value labels stops the
    item (see :mod:`dpdesk.project.mapping.answer_labels`). With ``min_group_size=N`` subgroups with
    fewer than N answers used are left out of the subgroup estimates, differences and counts
    (``ItemResult.left_out_groups``; see :mod:`dpdesk.project.sharing.subgroup_disclosure`).

    Subgroups are named by their value labels; respondents with no value in ``by`` (a blank
    or a user-missing code) form no subgroup of their own but are counted
    (``ItemResult.missing_n``, the "(missing)" row). ``adjust`` (``"holm"``, ``"bonferroni"``
    or ``"none"``) is how the pairwise p-values of one item are adjusted in the tables.

    ``survey``: the sample design (:class:`~dpdesk.project.study.survey_design.SurveyDesign`);
    by default the dataset's stored one, ``False`` for none. With a design every estimate
    is design-based (:mod:`dpdesk.project.analysis.survey`; ``ItemResult.survey``).
    """
    adjust = _adjust_method(adjust)
    if min_group_size is not None and (isinstance(min_group_size, bool) or not isinstance(min_group_size, int)
                                       or min_group_size < 1):
        raise DataError(f"The smallest group size must be a whole number of at least 1 (got {min_group_size!r}).")
    if by_dataset:
        return _analyze_by_dataset(project, ci=ci, confidence=confidence, exclude=exclude, items=items,
                                   adjust=adjust, survey=survey)
    dataset = dataset_named(project, dataset).name
    table = stored_table(project, dataset, [by] if by else None)
    design = sample_design(project, dataset, survey)
    args = None
    if design is not None:
        args = estimator_arguments(table.frame, design, table.report.first_data_row, table.report)
    by_warnings = subgroup_warnings(table, by, left_out_below=min_group_size) if by is not None else []
    labels = labels_of(table)
    short = project.item_labels()
    by_label = labels.column(by) if by is not None else None
    results = []
    for item in project.items(dataset):
        if items is not None and item.name not in items:
            continue
        d = rr.Design.from_dict(item.design_record)
        name = item_label(item, short)
        if not item.mapped:
            results.append(ItemResult(item.name, item.question, d, None, None, error=NOT_MAPPED, not_mapped=True,
                                      label=name))
            continue
        try:
            mapping = item_counts(item, table, exclude=exclude)
            mapping.raise_for_problems()
            if design is None:
                est, survey_est = rr.estimate(d, _counts_of(d, mapping), confidence=confidence, ci=ci), None
            else:
                est, survey_est = survey_item(d, mapping, args, design, confidence=confidence, ci=ci)
        except DpdeskError as exc:
            results.append(ItemResult(item.name, item.question, d, None, None, error=str(exc), label=name,
                                      error_in_app=getattr(exc, "in_app", None)))
            continue
        res = ItemResult(item.name, item.question, d, mapping, est, by=by, label=name, by_label=by_label,
                         adjust=adjust, survey=survey_est, sample_design=design)
        if by is not None:
            res.warnings.extend(by_warnings)
            if design is None:
                per, res.missing_n = named_subgroups(subgroup_counts(item, d, table, by), table, by)
                sizes = {k: m.n_used for k, m in per.items() if m.n_used > 0}
            else:
                by_frame, res.missing_n = labelled_by(table, by, mapping)
                sizes = subgroup_sizes(mapping, by_frame, by)
            small = [f"{k} ({n})" for k, n in sizes.items() if n < MIN_SUBGROUP_SIZE]
            if min_group_size is not None:
                res.min_group_size = min_group_size
                res.left_out_groups = {k: n for k, n in sizes.items() if n < min_group_size}
                sizes = {k: n for k, n in sizes.items() if k not in res.left_out_groups}
                small = [x for x in small if x.rsplit(" (", 1)[0] not in res.left_out_groups]
            if small:
                res.warnings.append(f"{name}: {len(small)} subgroup(s) of {by_label} have fewer than "
                                    f"{MIN_SUBGROUP_SIZE} respondents with an answer: {', '.join(small[:10])}"
                                    f"{' ...' if len(small) > 10 else ''}. Their estimates are very uncertain.")
            try:
                if not sizes and res.left_out_groups:
                    raise DataError(f"every group has fewer than {min_group_size} answers; none is shown")
                if design is None:
                    res.subgroup_counts = {k: _counts_of(d, per[k]) for k in sizes}
                    res.subgroups = rr.estimate_by(d, res.subgroup_counts, confidence=confidence, ci=ci)
                else:
                    res.subgroups, res.subgroup_counts, res.subgroup_surveys = survey_subgroups(
                        d, mapping, args, by_frame, by, confidence=confidence, ci=ci,
                        left_out=set(res.left_out_groups))
            except DpdeskError as exc:
                res.error = f"subgroups by {by_label}: {exc}"
                res.error_in_app = f"subgroups by {by_label}: {app_words(exc)}" if getattr(exc, "in_app", None) else None
        results.append(res)
    return results


def _adjust_method(method: str) -> str:
    try:
        return multiple_testing.check_method(method)
    except ValueError as exc:
        raise DataError(str(exc)) from None


def named_subgroups(per: dict, table: Table, by: str) -> tuple[dict, int | None]:
    """``({value label: counts}, answers used with no subgroup value)`` from :func:`subgroup_counts`.

    A blank and the column's user-missing codes (refused, don't know) are no subgroup: their
    answers used are summed into the "(missing)" count (None when there are none).
    """
    missing_codes = set((getattr(table.report, "missing_values", None) or {}).get(by, []))
    names = labels_of(table).values_of(by, [k for k in per if k is not None and k not in missing_codes])
    missing = [m for k, m in per.items() if k is None or k in missing_codes]
    n_missing = sum(m.n_used for m in missing) if missing else None
    return {names[k]: m for k, m in per.items() if k in names}, n_missing


def labelled_by(table: Table, by: str, mapping) -> tuple[Any, int | None]:
    """``(frame, answers used with no subgroup value)``: the frame with ``by`` holding the groups' value
    labels, blank where the value is blank or a user-missing code (as :func:`named_subgroups` names them)."""
    import numpy as np
    import pandas as pd

    values = table.frame[by]
    missing_codes = set((getattr(table.report, "missing_values", None) or {}).get(by, []))
    codes = [None if pd.isna(v) or v in missing_codes else v for v in values.tolist()]
    present = list(dict.fromkeys(c for c in codes if c is not None))
    try:
        present = sorted(present)
    except TypeError:
        present = sorted(present, key=str)
    names = labels_of(table).values_of(by, present)  # in the codes' order, as the unweighted path
    shown = pd.Series(pd.Categorical([None if c is None else names[c] for c in codes],
                                     categories=list(dict.fromkeys(names.values())), ordered=True),
                      index=values.index)
    n_missing = int((np.asarray(mapping.rows["used"], bool) & shown.isna().to_numpy()).sum())
    return table.frame.assign(**{by: shown}), n_missing or None


def sample_design(project, dataset: str | None, survey=None):
    """The design to use: ``survey`` if given (``False``: none), else the dataset's stored one.

    ``survey`` may be :class:`DesignChanges` (run-time options): applied over the stored design.
    """
    if survey is False:
        return None
    if isinstance(survey, DesignChanges):
        survey = survey.over(survey_design(project, dataset))
    if survey is not None:
        return None if survey.is_empty and survey.population is None else survey
    return survey_design(project, dataset)


def _analyze_by_dataset(project, *, ci: str, confidence: float, exclude: bool, items,
                        adjust: str = multiple_testing.DEFAULT, survey=None) -> list[ItemResult]:
    """Estimates in the active dataset, and each item's datasets compared as its subgroups.

    When a dataset has a survey design, each dataset is estimated under its own design and
    the datasets are compared as independent samples (:mod:`dpdesk.project.analysis.waves`);
    otherwise the counts of each dataset are a group, as for ``by`` (``rr.estimate_by``: each
    dataset's estimate, the differences and the test of equality). Either way the result does
    not depend on which dataset is active. ``survey=False`` ignores every stored design.
    """
    from dpdesk.project.analysis import waves

    names = [ds.name for ds in project.datasets()]
    designs = waves.wave_designs(project, names, survey)
    weighted = any(designs.values())
    results = analyze(project, ci=ci, confidence=confidence, exclude=exclude, items=items,
                      survey=None if weighted else False)
    note = waves.weighting_note(designs, None)
    by_name = {it.name: it for it in project.items()}
    tables: dict[str, Table] = {}
    for res in results:
        res.by = res.by_label = BY_DATASET
        res.adjust = adjust
        item = by_name[res.item]
        mapped = [name for name in names if name in item.mappings]
        if res.estimate is None:
            continue
        if len(mapped) < 2:
            res.warnings.append(f"{item.name} is mapped in one dataset only; map it in another to compare datasets.")
            continue
        try:
            for name in mapped:
                if name not in tables:
                    tables[name] = stored_table(project, name)
            if weighted:
                res.subgroups, res.subgroup_counts = waves.compare_item(
                    item, res.design, mapped, tables, designs, exclude=exclude, confidence=confidence, ci=ci)
                res.wave_note = note
                continue
            for name in mapped:
                counted = item_counts(item.in_dataset(name), tables[name], exclude=exclude)
                counted.raise_for_problems()
                res.subgroup_counts[name] = _counts_of(res.design, counted)
            res.subgroups = rr.estimate_by(res.design, res.subgroup_counts, confidence=confidence, ci=ci)
        except DpdeskError as exc:
            res.error = f"subgroups by dataset: {exc}"
            res.error_in_app = f"subgroups by dataset: {app_words(exc)}" if getattr(exc, "in_app", None) else None
    return results


def subgroup_counts(item, d: rr.Design, table: Table, by: str) -> dict:
    """``{subgroup value: MappingReport}`` for one item (blank subgroup under ``None``)."""
    if d.model == "unary" and is_unary_codes(item.codes):
        return unary_counts_by(table, item.codes, by, d.categories)
    return counts_by(table, item.column, item.codes, by, responses=_responses(d, item.codes),
                     group_column=item.group_column, group_codes=item.group_codes, exclude=True, design=d,
                     missing_codes=getattr(item, "missing_codes", None))


def subgroup_warnings(data, by: str, *, max_levels: int = MAX_SUBGROUPS, min_size: int = MIN_SUBGROUP_SIZE,
                      left_out_below: int | None = None) -> list[str]:
    """Warnings about a "Subgroups by" column: too many levels, or levels with few rows.

    ``data`` is a project (its latest dataset), a :class:`Table` or a DataFrame. Each
    subgroup is estimated separately, so more than ``max_levels`` subgroups (an identifier
    such as ``resp_id``) or subgroups of fewer than ``min_size`` rows give estimates too
    uncertain to report. The app asks before computing; the command line prints these.
    Subgroups smaller than ``left_out_below`` are left out of the results, so they are not
    named (their exact sizes would undo leaving them out).
    """
    if hasattr(data, "datasets"):
        data = stored_table(data)
    frame = getattr(data, "frame", data)
    if by not in frame.columns:
        raise DataError(f"There is no column {by!r} to form subgroups; the columns are "
                        f"{', '.join(map(str, list(frame.columns)[:15]))}.")
    report = getattr(data, "report", None)
    weight = getattr(report, "count_column", None) if getattr(report, "kind", "") == "counts" else None
    if weight and weight in frame.columns and weight != by:  # a counts table: respondents, not rows
        sizes = frame.groupby(by, dropna=True, observed=True)[weight].sum()
    else:
        sizes = frame[by].value_counts(dropna=True)
    labels = labels_of(data)
    label = labels.column(by)
    missing = set((getattr(report, "missing_values", None) or {}).get(by, []))
    sizes = sizes[[k not in missing for k in sizes.index]] if missing else sizes
    out = []
    if len(sizes) > max_levels:
        out.append(f"The column {labels.choice(by)} has {len(sizes):,} different values, so there would be "
                   f"{len(sizes):,} "
                   f"subgroups (more than {max_levels}). Is it an identifier or a continuous variable? "
                   f"Choose a column with a few categories, or group its values first.")
    small = sizes[(sizes < min_size) & (sizes >= (left_out_below or 0))]
    if len(small):
        names = labels.values_of(by, list(small.index))
        shown = ", ".join(f"{names[k]} ({int(v)})" for k, v in list(small.items())[:8])
        out.append(f"{len(small):,} subgroup(s) of {label} have fewer than {min_size} respondents: {shown}"
                   f"{' ...' if len(small) > 8 else ''}. Estimates for so few respondents are too uncertain "
                   f"to report.")
    return out


def _counts_of(d: rr.Design, mapping: MappingReport):
    return mapping.counts if d.groups == 1 else [mapping.counts[i] for i in range(d.groups)]


# ----------------------------------------------------------------------------- bundle


def results_bundle(project, results: list[ItemResult], *, dataset: str | None = None, ci: str = "default",
                   confidence: float = 0.95) -> ResultsBundle:
    """Tables, metadata and the reproducibility information for an export."""
    from dpdesk.project.study.design_text import design_in_words

    tables: dict[str, Any] = {"Estimates": estimate_rows(results)}
    ecwm = adherence.adherence_tests(results)
    if ecwm:  # the extended crosswise model: both versions and the non-adherence test
        tables[adherence.TABLE] = [row for a in ecwm for row in a.rows()]
    by = next((r.by for r in results if r.by), None)
    by_label = next((r.by_label for r in results if r.by), None)
    if by:
        tables[f"By {by_label}"] = subgroup_rows(results)
        tests = subgroup_test_rows(results)
        if tests:
            tables[f"Tests by {by_label}"] = tests
        ecwm_by = adherence.subgroup_adherence_rows(results)
        if ecwm_by:  # the extended crosswise model's test in each subgroup
            tables[f"{adherence.TABLE} by {by_label}"] = ecwm_by
    ds = dataset_named(project, dataset) if project.datasets() else None
    source = (ds.source or {}) if ds is not None else {}
    items = project.items(ds.name if ds is not None else None)
    columns = review.analysed_columns(items, results)
    metadata = {
        "app": f"dpdesk {__version__}",
        "exported": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "project": Path(str(project.path)).name,  # the file name, never the folder
        "dataset": ds.name if ds is not None else None,
        "input file": source.get("name"),
        "input SHA-256": source.get("sha256"),
        "import options": review.import_metadata(ds),
    }
    if ds is not None and columns:
        metadata.update(review.fingerprint_metadata(project.dataset_frame(ds.name), columns))
    metadata.update({
        "design": {r.item: design_in_words(r.design) for r in results},  # exact fractions, in words
        "item mappings": review.mapping_metadata(items, results),
        "response labels": {r.item: dict(zip(r.design.responses, r.design.response_labels)) for r in results},
        "answers left out": {r.item: (r.mapping.left_out_text() or "none") for r in results if r.mapping is not None},
        **review.interval_metadata(ci),
        "confidence": confidence,
        "subgroups by": by and (by_label if by_label == by else f"{by_label} (column {by})"),
    })
    if ecwm:
        metadata["non-adherence test (ECWM)"] = {a.item: f"{a.statistic_text()}: {a.method_text()}" for a in ecwm}
    if any(getattr(r, "survey", None) is not None for r in results):  # the design-based interval, not the SRS one
        from dpdesk.mechanisms.rr.survey.estimate import SURVEY_CI as DESIGN_CI
        from dpdesk.project.analysis.survey import survey_ci

        try:
            method = survey_ci(ci)
        except DataError:
            method = "default"
        metadata["CI method"] = f"design-based: {DESIGN_CI[method]} ({ci})"
        metadata["CI method citation"] = (
            "Korn, E. L. & Graubard, B. I. (1998). Confidence intervals for proportions with small expected "
            "number of positive counts estimated from survey data. Survey Methodology 24(2), 193-201; "
            "Binder, D. A. (1983). On the variances of asymptotically normal estimators from complex surveys. "
            "International Statistical Review 51(3), 279-292")
    if ds is not None:  # the codes behind the labels the tables use
        labels = Labels.from_stored(project.column_labels(ds.name))
        used = [*columns, *([by] if by and by != BY_DATASET else [])]
        shown = [c for c in dict.fromkeys(used) if c in labels.columns]
        if shown:
            metadata["column labels"] = {c: labels.columns[c] for c in shown}
        short = project.item_labels()
        metadata["item labels"] = {r.item: r.label for r in results if r.label != r.item or r.item in short}
    if by:
        metadata["subgroups: no value"] = {r.label: r.missing_n or 0 for r in results if r.subgroups is not None}
        metadata["pairwise p-values adjusted"] = subgroup_adjust_note(results) or "no"
        wave_note = next((r.wave_note for r in results if r.wave_note), "")
        if wave_note:
            metadata["datasets compared"] = wave_note
    survey = next((r for r in results if r.survey is not None), None)
    if survey is not None:
        metadata["survey design"] = survey.sample_design.describe(
            Labels.from_stored(project.column_labels(ds.name)).columns if ds is not None else None)
        metadata["sampling"] = survey.survey.describe()
        metadata["reproducibility script"] = ("design-based (weighted) estimates are refitted from the project "
                                              "file's rows and survey design and checked")
    left_out = {g for r in results for g in r.left_out_groups}
    sizes = {r.min_group_size for r in results if r.min_group_size is not None}
    if by and sizes:
        metadata["subgroups left out"] = (f"groups with fewer than {min(sizes)} answers ({len(left_out)} group(s)); "
                                          "their estimates and counts are not in this export")
    notes = list(dict.fromkeys(w for r in results for w in r.warnings))
    if notes:
        metadata["warnings"] = notes
    metadata.update(_budget_metadata(project))
    by_name = {it.name: it for it in items}
    repro, surveys = [], []
    for r in results:
        if r.estimate is not None and r.survey is not None:
            surveys.append(survey_repro(r, ds.name, confidence=confidence, ci=ci))
        if r.estimate is None or r.survey is not None:
            continue
        counts = [c.tolist() for c in r.estimate.counts]  # per group (two-group) or per category (unary)
        if len(counts) == 1:
            counts = counts[0]
        it = by_name.get(r.item)
        mapping = None if it is None else {"column": it.column, "codes": it.codes, "group_column": it.group_column,
                                           "group_codes": it.group_codes}
        by_column = r.by if r.by != BY_DATASET else None  # the script recounts one dataset
        repro.append(ReproItem(r.item, r.design.name, dict(r.design.params), counts,
                               r.subgroup_counts if by_column else {}, confidence, ci, mapping=mapping, by=by_column))
    return ResultsBundle(tables=tables, metadata=metadata, repro=repro, surveys=surveys or None,
                         project_file=str(project.path))


def rebuild_counts(project, item_name: str, mapping: dict, *, dataset: str | None = None, by: str | None = None):
    """Count an item again from the stored data and ``mapping`` (as the export recorded it).

    Returns ``(counts, subgroup counts)`` in the shapes ``rr.estimate`` takes; the
    reproducibility script compares them with the exported counts.
    """
    item = project.item(item_name)
    d = rr.Design.from_dict(item.design_record)
    stand_in = _StandIn(item_name, mapping.get("column"), mapping.get("codes"), mapping.get("group_column"),
                        mapping.get("group_codes"), item.design_record)
    table = stored_table(project, dataset)
    counts = _counts_of(d, item_counts(stand_in, table))
    subgroups = {}
    if by:
        per, _ = named_subgroups(subgroup_counts(stand_in, d, table, by), table, by)
        subgroups = {k: _counts_of(d, m) for k, m in per.items() if m.n_used > 0}
    return counts, subgroups


def refit_survey(project, spec: dict) -> list[list]:
    """Refit an item's weighted estimates as ``survey_repro`` recorded them: its figures, from the stored rows.

    The item is estimated again in ``spec["dataset"]`` with the recorded survey design,
    subgroup column, interval and confidence; the reproducibility script compares the
    figures (``survey_analysis.result_figures``) with the exported ones.
    """
    (res,) = analyze(project, dataset=spec["dataset"], by=spec.get("by"), ci=spec["ci"],
                     confidence=spec["confidence"], items=[spec["item"]], min_group_size=spec.get("min_group_size"),
                     survey=SurveyDesign.from_dict(spec["survey_design"]))
    if res.estimate is None or res.survey is None:
        raise DataError(f"{spec['item']}: the weighted estimate cannot be refitted ({res.error or 'no design'}).")
    if res.error:
        raise DataError(f"{spec['item']}: {res.error}")
    return result_figures(res)


@dataclass
class _StandIn:
    """An item with the mapping the export recorded (which may differ from the current one)."""

    name: str
    column: str | None
    codes: Any
    group_column: str | None
    group_codes: Any
    design_record: dict


def _budget_metadata(project) -> dict:
    """Privacy budget spent and left, where the project has one (the noisy-tabulation ledger)."""
    try:
        from dpdesk.project.ledger.budget import budget_status
    except ImportError:
        return {"privacy budget": "none set (no noisy releases)"}
    try:
        status = budget_status(project)
    except DpdeskError:
        return {"privacy budget": "none set (no noisy releases)"}
    if status is None:
        return {"privacy budget": "none set (no noisy releases)"}
    out = {"privacy budget total": status.total_text, "privacy budget spent": status.spent_text,
           "privacy budget left": status.remaining_text}
    if status.copies:  # spent is this file's together with its copies on this computer (the same people)
        out["privacy budget spent here"] = status.spent_here_text
        out["privacy budget spent in copies on this computer"] = status.copies_text
    return out
