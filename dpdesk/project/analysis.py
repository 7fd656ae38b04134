"""From a project to estimates: count each item's answers, estimate, tabulate, bundle.

This is the path the app and the command line share: the project layer aggregates the
data (``mapping``), the mechanisms estimate from counts (``dpdesk.mechanisms.rr``), and
the results become tables for display and export (``export.ResultsBundle``).
"""

from __future__ import annotations

import datetime as _dt
import math
from dataclasses import dataclass, field
from typing import Any

from dpdesk import __version__
from dpdesk.errors import DataError, DpdeskError
from dpdesk.mechanisms import rr
from dpdesk.project.active import dataset_named
from dpdesk.project.export.model import ReproItem, ResultsBundle
from dpdesk.project.mapping import MappingReport, counts_by, map_item
from dpdesk.project.reading.table import ImportReport, Source, Table


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
    min_group_size: int | None = None  # groups with fewer answers used were left out
    left_out_groups: dict = field(default_factory=dict)  # subgroup label -> n, left out as too small

    def sentence(self) -> str:
        """One plain sentence: "We estimate that 23% (95% CI 17% to 29%) of respondents ..."."""
        e = self.estimate
        if e is None:
            return f"{self.item}: no estimate ({self.error})."
        if not self.design.is_binary:
            parts = ", ".join(f"{c} {_pct(f)}" for c, f in zip(self.design.categories, e.frequencies))
            return f"We estimate the shares for {self.item!r} as {parts}."
        lo, hi = e.ci
        about = f"would truthfully answer 'yes' to: {self.question}" if self.question else f"have '{self.item}'"
        return f"We estimate that {_pct(e.prevalence)} ({_pct(e.confidence)} CI {_pct(lo)} to {_pct(hi)}) {about}"


def _pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%".replace(".0%", "%")


def stored_table(project, dataset: str | None = None) -> Table:
    """The named (default: the active) imported dataset as a :class:`Table`."""
    ds = dataset_named(project, dataset)
    known = set(ImportReport.__dataclass_fields__)
    report = ImportReport(**{k: v for k, v in (ds.report or {}).items() if k in known})
    src = ds.source or {}
    source = Source(src.get("name", ds.name), src.get("path", ""), int(src.get("size") or 0), src.get("sha256", ""))
    return Table(project.dataset_frame(ds.name), report, source)


def item_counts(item, table: Table, *, exclude: bool = True) -> MappingReport:
    """Count an item's responses in ``table`` by its stored column and codes."""
    d = rr.Design.from_dict(item.design_record)
    if not item.column or not item.codes:
        raise DataError(f"Item {item.name!r} has no column or codes yet: map it to a column of the data first.")
    return map_item(table, item.column, item.codes, responses=_responses(d, item.codes),
                    group_column=item.group_column, group_codes=item.group_codes, exclude=exclude)


def _responses(d: rr.Design, codes: dict) -> tuple:
    wanted = tuple(d.responses)
    return wanted if set(wanted) <= set(codes) else tuple(codes)


def analyze(project, *, dataset: str | None = None, by: str | None = None, ci: str = "default",
            confidence: float = 0.95, exclude: bool = True, items: list[str] | None = None,
            min_group_size: int | None = None) -> list[ItemResult]:
    """Estimate every item (or the named ones) of the project, optionally by subgroup ``by``.

    With ``exclude=True`` answers matching no code and missing answers are left out and
    reported (``ItemResult.mapping``); with ``exclude=False`` they stop the item with a
    message listing the rows. With ``min_group_size=N`` subgroups with fewer than N
    answers used are left out of the subgroup estimates, differences and counts
    (``ItemResult.left_out_groups``; see :mod:`dpdesk.project.subgroup_disclosure`).
    """
    if min_group_size is not None and (isinstance(min_group_size, bool) or not isinstance(min_group_size, int)
                                       or min_group_size < 1):
        raise DataError(f"The smallest group size must be a whole number of at least 1 (got {min_group_size!r}).")
    table = stored_table(project, dataset)
    results = []
    for item in project.items():
        if items is not None and item.name not in items:
            continue
        d = rr.Design.from_dict(item.design_record)
        try:
            mapping = item_counts(item, table, exclude=exclude)
            mapping.raise_for_problems()
            est = rr.estimate(d, _counts_of(d, mapping), confidence=confidence, ci=ci)
        except DpdeskError as exc:
            results.append(ItemResult(item.name, item.question, d, None, None, error=str(exc)))
            continue
        res = ItemResult(item.name, item.question, d, mapping, est, by=by)
        if by is not None:
            per = counts_by(table, item.column, item.codes, by, responses=_responses(d, item.codes),
                            group_column=item.group_column, group_codes=item.group_codes, exclude=True)
            used = {str(k): m for k, m in per.items() if k is not None and m.n_used > 0}
            if min_group_size is not None:
                res.min_group_size = min_group_size
                res.left_out_groups = {k: m.n_used for k, m in used.items() if m.n_used < min_group_size}
                used = {k: m for k, m in used.items() if k not in res.left_out_groups}
            res.subgroup_counts = {k: _counts_of(d, m) for k, m in used.items()}
            try:
                if not used and res.left_out_groups:
                    raise DataError(f"every group has fewer than {min_group_size} answers; none is shown")
                res.subgroups = rr.estimate_by(d, res.subgroup_counts, confidence=confidence, ci=ci)
            except DpdeskError as exc:
                res.error = f"subgroups by {by!r}: {exc}"
        results.append(res)
    return results


def _counts_of(d: rr.Design, mapping: MappingReport):
    return mapping.counts if d.groups == 1 else [mapping.counts[i] for i in range(d.groups)]


# ----------------------------------------------------------------------------- tables


def _design_label(d: rr.Design) -> str:
    return f"{d.name} ({', '.join(f'{k}={v}' for k, v in d.params.items() if k != 'matrix')})"


COLUMNS = ("item", "design", "n", "excluded", "estimate", "SE", "CI low", "CI high", "CI method", "confidence",
           "local epsilon")


def estimate_rows(results: list[ItemResult]) -> list[dict]:
    """The main table: one row per item (one per category for multi-category items)."""
    rows = []

    def add(**values):
        rows.append({c: values.get(c) for c in COLUMNS})

    for r in results:
        e = r.estimate
        base = {"item": r.item, "design": _design_label(r.design), "local epsilon": r.design.epsilon}
        if e is None:
            add(**base, **{"CI method": r.error})
            continue
        excluded = r.mapping.n_unmatched + r.mapping.n_missing if r.mapping else 0
        common = {**base, "n": e.n, "excluded": excluded, "CI method": e.ci_method, "confidence": e.confidence}
        if r.design.is_binary:
            add(**common, estimate=e.prevalence, SE=e.se, **{"CI low": e.ci[0], "CI high": e.ci[1]})
            for name, (value, se) in e.extra.items():
                add(**{**common, "item": f"{r.item} [{name}]"}, estimate=value, SE=se)
        else:
            for j, cat in enumerate(r.design.categories):
                add(**{**common, "item": f"{r.item}: {cat}"}, estimate=float(e.frequencies[j]), SE=float(e.se[j]),
                    **{"CI low": float(e.ci[j][0]), "CI high": float(e.ci[j][1])})
    return rows


def subgroup_rows(results: list[ItemResult]) -> list[dict]:
    """One row per item and subgroup, then the differences between subgroups."""
    rows = []
    for r in results:
        if r.subgroups is None:
            continue
        for label, e in r.subgroups.estimates.items():
            if not r.design.is_binary:
                continue
            rows.append({"item": r.item, "subgroup": label, "n": e.n, "estimate": e.prevalence, "SE": e.se,
                         "CI low": e.ci[0], "CI high": e.ci[1], "p-value": None})
        for diff in r.subgroups.differences.values():
            rows.append({"item": r.item, "subgroup": f"{diff.a} - {diff.b}", "n": None, "estimate": diff.difference,
                         "SE": diff.se, "CI low": diff.ci[0], "CI high": diff.ci[1], "p-value": diff.p_value})
    return rows


def results_bundle(project, results: list[ItemResult], *, dataset: str | None = None, ci: str = "default",
                   confidence: float = 0.95) -> ResultsBundle:
    """Tables, metadata and the reproducibility information for an export."""
    tables: dict[str, Any] = {"Estimates": estimate_rows(results)}
    by = next((r.by for r in results if r.by), None)
    if by:
        tables[f"By {by}"] = subgroup_rows(results)
    ds = dataset_named(project, dataset) if project.datasets() else None  # metadata only: rows not read again
    source = (ds.source or {}) if ds is not None else {}
    options = ds.options if ds is not None else None
    metadata = {
        "app": f"dpdesk {__version__}",
        "exported": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "project": str(project.path),
        "dataset": ds.name if ds is not None else None,
        "input file": source.get("name"),
        "input SHA-256": source.get("sha256"),
        "import options": options,
        "design parameters": {r.item: dict(r.design.params) for r in results},
        "CI method": ci,
        "confidence": confidence,
        "subgroups by": by,
    }
    left_out = {g for r in results for g in r.left_out_groups}
    sizes = {r.min_group_size for r in results if r.min_group_size is not None}
    if by and sizes:
        metadata["subgroups left out"] = (f"groups with fewer than {min(sizes)} answers ({len(left_out)} group(s)); "
                                          "their estimates and counts are not in this export")
    metadata.update(_budget_metadata(project))
    repro = []
    for r in results:
        if r.estimate is None:
            continue
        counts = [c.tolist() for c in r.estimate.counts]  # per group (two-group) or per category (unary)
        if len(counts) == 1:
            counts = counts[0]
        repro.append(ReproItem(r.item, r.design.name, dict(r.design.params), counts, r.subgroup_counts, confidence, ci))
    return ResultsBundle(tables=tables, metadata=metadata, repro=repro)


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
    return {"privacy budget total": status.total_text, "privacy budget spent": status.spent_text,
            "privacy budget left": status.remaining_text}
