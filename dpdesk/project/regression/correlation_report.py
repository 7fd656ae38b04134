"""Corrected correlations as a report: what the app shows, the project saves, the report and the workbook get.

:class:`CorrelationSpec` is what the researcher chose (RR items and numeric columns, the
bootstrap resamples and their seed); :func:`correlation_report` computes it
(:func:`.rr_models.correlations`, RRreg's RRcor: Fox & Tracy's correction of the
point-biserial and phi correlations for the randomization) and returns a
:class:`CorrelationReport`: the matrices of r, bootstrap SE and p (None where undefined), the
APA matrix (lower triangle, r without a leading zero, stars), the plain text and the note.
It saves with the project (:func:`save_correlation`, :func:`saved_correlations`) and writes
to .csv or .xlsx (:func:`write_correlation`).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

#: ``Project.analyses()`` options of saved correlations carry this ``analysis`` value.
ANALYSIS = "correlation"
SHEET = "Correlations"


@dataclass
class CorrelationSpec:
    """The variables (RR items or numeric columns, at least two), the bootstrap and its seed, the dataset."""

    names: list[str]
    bootstrap: int = 1000
    seed: int | None = None
    dataset: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"analysis": ANALYSIS, **asdict(self)}

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> "CorrelationSpec":
        known = set(cls.__dataclass_fields__)
        spec = cls(**{k: v for k, v in dict(record).items() if k in known})
        if not isinstance(spec.names, list) or not all(isinstance(n, str) for n in spec.names):
            raise TypeError("names must be a list of text")
        return spec


@dataclass
class CorrelationReport:
    """One correlation analysis as numbers and text (see the module docstring)."""

    spec: CorrelationSpec
    title: str
    names: list[str]                 # the items' and columns' names (codes)
    labels: list[str]                # as output names them (an item's short label, a column's label)
    kinds: list[str]                 # "rr item" or "column", per name
    r: list[list[float | None]]      # corrected correlations (1 on the diagonal)
    se: list[list[float | None]]     # bootstrap SEs (None without a bootstrap)
    p_value: list[list[float | None]]
    header: list[str]                # the APA matrix's column heads: "Variable", "1", "2", ...
    cells: list[list[str]]           # its rows: "1. Label", then r with stars below the diagonal, "—" on it
    pairs: list[dict]                # one row per pair: the workbook's full-precision rows
    text: str                        # the whole result as plain text (as ``dpdesk correlate`` prints it)
    note: str
    n: int = 0
    fit: dict = field(default_factory=dict)  # ``CorrelationResult.to_dict()``: everything, for the record

    def to_dict(self) -> dict[str, Any]:
        out = _finite(asdict(self))
        out["spec"] = self.spec.to_dict()
        return out

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> "CorrelationReport":
        record = dict(record)
        record["spec"] = CorrelationSpec.from_dict(record["spec"])
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in record.items() if k in known})

    @property
    def outcome(self) -> str:
        """The variables in one phrase, for captions."""
        return ", ".join(self.labels)


def _finite(value):
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return _finite(value.item())
    return value


def _number(x) -> float | None:
    return float(x) if x is not None and math.isfinite(float(x)) else None


def numbered(words) -> str:
    """``1``, ``1 and 2``, ``1, 2 and 3``."""
    words = list(words)
    return ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + (words[-1] if words else "")


#: A list of names longer than this goes into a title as its number of variables.
TITLE_NAMES = 80


def short_list(labels) -> str:
    """``: a, b, c`` when the labels are short enough for a title, else `` (5 variables)``."""
    text = ", ".join(labels)
    return f": {text}" if len(text) <= TITLE_NAMES else f" ({len(labels)} variables)"


def r_cell(r: float | None) -> str:
    """A correlation as APA writes it: two decimals, no leading zero (``.45``, ``-.12``); "n/a" when undefined."""
    if r is None:
        return "n/a"
    text = f"{r:.2f}"
    return text.replace("0.", ".", 1) if text.startswith(("0.", "-0.")) else text


def stars(p: float | None, resamples: int) -> str:
    """``*`` p < .05, ``**`` p < .01, ``***`` p < .001, from a bootstrap p-value of ``resamples`` resamples.

    A bootstrap p of 0 only says p < 2 / B (no resample crossed 0), so its stars are those of
    2 / B: with 1,000 resamples at most ``**``.
    """
    if p is None or not resamples:
        return ""
    bound = max(p, 2 / resamples)
    return "***" if bound < 0.001 else "**" if bound < 0.01 else "*" if bound < 0.05 else ""


def report_of(result, spec: CorrelationSpec, labels: dict[str, str] | None = None) -> CorrelationReport:
    """The report of a ``rr_models.CorrelationResult``; ``labels``: name -> how output names it."""
    from dpdesk.project.regression.rr_text import correlation_text

    f = result.fit
    names = list(f.names)
    labels = labels or {}
    shown = [labels.get(n) or n for n in names]
    k = len(names)
    grid = lambda m: [[_number(m[i][j]) for j in range(k)] for i in range(k)]  # noqa: E731
    r, se, p = grid(f.r), grid(f.se), grid(f.p_value)
    for i in range(k):
        r[i][i] = 1.0
    B = int(f.bootstrap)
    header = ["Variable"] + [str(j + 1) for j in range(k - 1)]
    cells = []
    for i in range(k):
        row = [f"{i + 1}. {shown[i]}"]
        for j in range(k - 1):
            row.append("—" if i == j else (r_cell(r[i][j]) + stars(p[i][j], B) if j < i else ""))
        cells.append(row)
    pairs = []
    for i in range(k):
        for j in range(i + 1, k):
            pairs.append({"variable 1": shown[i], "variable 2": shown[j], "name 1": names[i], "name 2": names[j],
                          "r": r[i][j], "SE (bootstrap)": se[i][j], "p (bootstrap)": p[i][j]})
    kinds = [result.kinds[n] for n in names]
    rr_numbers = [str(i + 1) for i, kd in enumerate(kinds) if kd == "rr item"]
    seed = 0 if spec.seed is None else spec.seed
    boot = (f"SEs and p-values from {B:,} bootstrap resamples (seed {seed}): p is twice the share of resamples on "
            f"the far side of 0, so below 2/{B:,} it is only known to be small. * p < .05. ** p < .01. "
            f"*** p < .001." if B else "No bootstrap was asked for: no SEs or p-values.")
    which = (f"the randomized-response item{'s' * (len(rr_numbers) > 1)} ({numbered(rr_numbers)}) are corrected for "
             f"the randomization (Fox & Tracy, 1984; as RRreg's RRcor): they estimate the correlation with the true "
             f"answer" if rr_numbers else "no randomized-response item: these are ordinary Pearson correlations")
    note = f"Note. N = {result.n_used:,}. Correlations with {which}. {boot}"
    if f.notes:  # a variable that does not vary: its correlations are blank, and the note says why
        note += " " + " ".join(f.notes)
    title = "Correlations corrected for the randomization" + short_list(shown)
    spec = CorrelationSpec(list(names), B, spec.seed, spec.dataset or result.dataset)
    report = CorrelationReport(spec, title, names, shown, kinds, r, se, p, header, cells, pairs,
                               correlation_text(result), note, result.n_used, result.to_dict())
    return CorrelationReport.from_dict(report.to_dict())  # the same values as a saved one reads back


def project_labels(project, names, dataset: str | None) -> dict[str, str]:
    """How output names each variable: an item by its short label or question, a column by its label."""
    from dpdesk.project.study.labels import Labels, item_label

    items = {it.name: it for it in project.items()}
    try:
        from dpdesk.project.study.active import dataset_named

        labels = Labels.from_stored(project.column_labels(dataset_named(project, dataset).name))
    except Exception:  # noqa: BLE001 - no dataset (any more): the names as they are
        labels = Labels()
    return {n: (item_label(items[n], project.item_labels()) if n in items else labels.column(n)) for n in names}


def correlation_report(project, spec: CorrelationSpec, progress=None) -> CorrelationReport:
    """Compute ``spec`` on the project's data and return the report (errors as ``DpdeskError``).

    ``progress(fraction, text)`` (the app's worker) follows the bootstrap resamples; raising in it (Cancel)
    stops them.
    """
    from dpdesk.project.regression.rr_models import correlations

    # the fraction passes unchanged: the bar shows the share of resamples its text counts ("900 of 1,000": 90%)
    result = correlations(project, spec.names, bootstrap=spec.bootstrap, seed=spec.seed, dataset=spec.dataset,
                          progress=progress)
    return report_of(result, spec, project_labels(project, result.fit.names, result.dataset))


def save_correlation(project, report: CorrelationReport) -> int:
    """Save the report with the project's analyses (of no single item)."""
    return project.save_analysis(None, report.spec.to_dict(), report.to_dict())


def saved_correlations(project) -> list[CorrelationReport]:
    """The project's saved correlation analyses, oldest first (those that no longer read are skipped)."""
    out = []
    for a in project.analyses():
        if isinstance(a.options, dict) and a.options.get("analysis") == ANALYSIS and isinstance(a.results, dict):
            try:
                out.append(CorrelationReport.from_dict(a.results))
            except (KeyError, TypeError, ValueError):  # written by another version: leave it out, never guess
                continue
    return out


def latest_correlations(project) -> list[CorrelationReport]:
    """The latest saved report of each set of variables and options, oldest first."""
    latest: dict[str, CorrelationReport] = {}
    for report in saved_correlations(project):
        key = repr(sorted(report.spec.to_dict().items()))
        latest.pop(key, None)
        latest[key] = report
    return list(latest.values())


def correlation_rows(report: CorrelationReport) -> list[dict]:
    """The workbook's rows: one per pair, full precision."""
    return [dict(row) for row in report.pairs]


def correlation_metadata(report: CorrelationReport) -> dict[str, Any]:
    spec, fit = report.spec, report.fit or {}
    left = "; ".join(f"{k:,} without {c}" for c, k in (fit.get("excluded") or {}).items()) or "none"
    return {
        "variables": [f"{n} ({kd})" for n, kd in zip(report.names, report.kinds)],
        "method": "correlations corrected for the randomization (Fox & Tracy 1984, Social Science Research 13:188-197; "
                  "as RRreg's RRcor, Heck & Moshagen 2018, Journal of Statistical Software 85(2))",
        "dataset": spec.dataset,
        "rows used": f"{fit.get('n_used', report.n):,} of {fit.get('n_rows', report.n):,}",
        "rows left out": left,
        "bootstrap resamples": spec.bootstrap,
        "seed": 0 if spec.seed is None else spec.seed,
    }


def write_correlation(report: CorrelationReport, path, project_file=None) -> list:
    """Write the report to ``path`` (.xlsx: the pairs, the APA matrix and the metadata; .csv: the pairs, with
    ``<stem>_correlations_apa.csv`` and ``<stem>_metadata.csv`` beside it) and ``<stem>_reproduce.py``, which
    recomputes the correlations from the project file (``project_file``, or the path given to it), atomically.
    Returns the files written."""
    from pathlib import Path

    from dpdesk.project.export.model import ExportError, ResultsBundle
    from dpdesk.project.export.results import export_results

    path = Path(path)
    if path.suffix.lower() not in (".csv", ".xlsx"):
        raise ExportError(f"Cannot write the correlations to {path.name!r}: choose a name ending in .xlsx or .csv.")
    bundle = ResultsBundle(tables={}, metadata={}, repro=[], readme=README,
                           project_file=None if project_file is None else str(project_file))
    add_correlation(bundle, report)
    return export_results(bundle, path)


README = [
    "Correlations that involve randomized-response items, corrected for the randomization (Fox & Tracy, 1984; as "
    "RRreg's RRcor): each estimates the correlation with the respondents' true answers, which nobody saw.",
    "The first table has one row per pair of variables: r, its bootstrap SE and p (full precision; empty where a "
    "number is undefined). The APA table is the matrix as a paper shows it: r without a leading zero below the "
    "diagonal, * p < .05, ** p < .01, *** p < .001.",
    "Text that begins with =, +, - or @ is written with a leading apostrophe (') so that a spreadsheet program never "
    "runs it as a formula.",
    "The Metadata sheet (or the _metadata file) records the variables, the rows used and left out, and the "
    "bootstrap's resamples and seed: the same variables, resamples and seed give the same numbers again (in the "
    "app's Regression view, Correlations tab, or with dpdesk correlate), and the file ending in _reproduce.py beside these results recomputes them from the project file and "
    "checks them (run it with python, the project file's path as its argument).",
]


def add_correlation(bundle, report: CorrelationReport, index: int | None = None):
    """Add the report's sheets (pairs, APA matrix) and metadata to a results ``bundle`` (in place; returned)."""
    suffix = "" if index is None else f" {index}"
    bundle.tables[SHEET + suffix] = correlation_rows(report)
    bundle.tables[f"{SHEET}{suffix} (APA)"] = [dict(zip(report.header, row)) for row in report.cells]
    bundle.metadata["correlations" + suffix] = correlation_metadata(report)
    bundle.correlations = list(bundle.correlations or []) + [correlation_repro(report)]
    return bundle


def correlation_repro(report: CorrelationReport) -> dict[str, Any]:
    """What the reproducibility script recomputes (``rr_models.correlations``) and the r and SE it must find."""
    spec = report.spec
    return {"names": list(report.names), "bootstrap": spec.bootstrap, "seed": spec.seed, "dataset": spec.dataset,
            "r": report.r, "se": report.se}
