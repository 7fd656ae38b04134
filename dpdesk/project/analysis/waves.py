"""Datasets (waves) compared, each under its own survey design: ``analyze(by_dataset=True)``'s comparison.

Waves are independent samples. When any of them has a survey design, each wave's estimate
and SE come from its own design (``rr.survey_estimate``; a wave with no design is a simple
random sample with unit weights), and the waves are compared with
``rr.survey_compare_independent``: the difference with ``SE = sqrt(se_1^2 + se_2^2)`` and a
t test on Welch-Satterthwaite's degrees of freedom from the two design df (its docstring
gives the formulas and sources). The result is the same whatever dataset is active.

When no wave has a design, the counts of each wave are compared as subgroups
(``rr.estimate_by``: likelihood intervals and the likelihood-ratio test), as before.

``weighting_note`` says which waves are weighted, for every output.
"""

from __future__ import annotations

from dpdesk.errors import DataError
from dpdesk.mechanisms import rr
from dpdesk.project.analysis.survey import survey_item
from dpdesk.project.mapping.item_counts import item_counts
from dpdesk.project.study.survey_design import SurveyDesign, estimator_arguments, survey_design


def wave_designs(project, names: list[str], survey=None) -> dict:
    """``{dataset: SurveyDesign or None}``: each dataset's stored design (``survey=False``: none for any)."""
    if survey is False:
        return dict.fromkeys(names)
    if survey is not None:
        raise DataError("A survey design given for one run applies to one dataset; to compare datasets, store "
                        "each dataset's design (the Data view's survey design, or the design-sample command) "
                        "and compare them with their stored designs.")
    out = {}
    for name in names:
        d = survey_design(project, name)
        out[name] = None if d is None or (d.is_empty and d.population is None) else d
    return out


def weighting_note(designs: dict, labels=None) -> str:
    """``"Datasets compared under their own survey designs: wave1.csv weighted (weight 'w', ...); wave2.csv
    unweighted (a simple random sample)."``; "" when no dataset has a design."""
    if not any(designs.values()):
        return ""
    parts = [f"{name} weighted ({d.describe(labels)})" if d is not None else f"{name} unweighted (a simple "
             "random sample, unit weights)" for name, d in designs.items()]
    return ("Datasets compared as independent samples, each under its own survey design: " + "; ".join(parts)
            + ". Differences have SE = √(SE₁² + SE₂²) and t tests on Welch–Satterthwaite degrees of freedom "
            "from each dataset's design degrees of freedom.")


def compare_item(item, design: rr.Design, mapped: list[str], tables: dict, designs: dict, *, exclude: bool,
                 confidence: float, ci: str):
    """``(SubgroupEstimates, {dataset: counts})`` of one item compared across the datasets it is mapped in."""
    estimates, counts = {}, {}
    for name in mapped:
        table = tables[name]
        counted = item_counts(item.in_dataset(name), table, exclude=exclude)
        counted.raise_for_problems()
        sample = designs[name] or SurveyDesign()
        try:
            args = estimator_arguments(table.frame, sample, table.report.first_data_row, table.report)
        except DataError as exc:
            raise DataError(f"{name}: {exc}") from None
        view, est = survey_item(design, counted, args, sample, confidence=confidence, ci=ci)
        estimates[name] = est
        counts[name] = [c.tolist() for c in view.counts] if design.groups > 1 or design.model == "unary" \
            else view.counts[0].tolist()
    return rr.survey_compare_independent(estimates, counts), counts
