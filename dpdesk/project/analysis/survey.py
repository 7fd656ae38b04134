"""Design-based estimates of an item in a dataset with a survey design (``analysis.analyze``'s other path).

The item's mapping gives each row's response and group (``MappingReport.rows``); the
dataset's design gives the weights, strata, PSUs and population sizes
(``survey_design.estimator_arguments``). Rows whose answer is missing or left out keep
their PSU in the design (``used``), as ``svymean(..., na.rm = TRUE)``; subgroups are domains
of the whole design (``rr.survey_estimate_by``). The results come back in the shapes the
tables, reports and exports take (``SurveyEstimate.as_estimate``,
``SurveyDomains.as_subgroups``), with the sampling sentence in their notes.

``survey_repro`` records what the reproducibility script needs to refit an item's weighted
estimates from the stored rows and design (``analysis.refit_survey``) and the figures it
must find (``figures``).
"""

from __future__ import annotations

import numpy as np

from dpdesk.errors import DataError
from dpdesk.mechanisms import rr
from dpdesk.project.mapping.code_matching import _plain
from dpdesk.project.study.survey_design import SurveyDesign

#: The interval of ``analyze(ci=...)`` used with a survey design.
SURVEY_CI = {"default": "default", "wald": "t"}


def survey_ci(ci: str) -> str:
    if ci not in SURVEY_CI:
        raise DataError("The bootstrap interval is not available with a survey design (resampling respondents "
                        "would ignore the strata and clusters). Use the default interval or Wald (a t interval on "
                        "the design degrees of freedom).")
    return SURVEY_CI[ci]


def _rows(d: rr.Design, mapping) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    rows = mapping.rows
    group = rows["group"] + 1 if rows["group"] is not None else None
    return np.asarray(rows["used"], bool), np.asarray(rows["response"]), group


def _counts(d: rr.Design, z, g, mask):
    if d.model == "unary":  # [not ticked, ticked] per option
        return [[int(np.sum(mask & (z[:, j] == 0))), int(np.sum(mask & (z[:, j] == 1)))] for j in range(z.shape[1])]
    k = len(d.responses)
    if d.groups == 1:
        return np.bincount(z[mask], minlength=k)
    return [np.bincount(z[mask & (g == j)], minlength=k) for j in (1, 2)]


def survey_item(d: rr.Design, mapping, args: dict, design: SurveyDesign, *, confidence: float, ci: str):
    """(``rr.Estimate`` view, ``rr.SurveyEstimate``) of one item over the whole dataset."""
    used, z, g = _rows(d, mapping)
    est = rr.survey_estimate(d, z, used=used, groups=g, population=design.population, confidence=confidence,
                             ci=survey_ci(ci), **args)
    return est.as_estimate(_counts(d, z, g, used)), est


def survey_subgroups(d: rr.Design, mapping, args: dict, frame, by: str, *, confidence: float, ci: str,
                     left_out: set | None = None):
    """(``SubgroupEstimates`` view, its counts per subgroup, ``SurveyDomains``) for the subgroups of ``by``."""
    used, z, g = _rows(d, mapping)
    labels = by_labels(frame, by)
    used = used & (labels != None)  # noqa: E711 - elementwise comparison with None
    if left_out:
        used &= ~np.isin(labels, list(left_out))
    if not used.any():
        raise DataError(f"No subgroup of {by!r} has an answer to estimate from.")
    domains = rr.survey_estimate_by(d, z, labels, used=used, groups=g, confidence=confidence, ci=survey_ci(ci),
                                    levels=_levels(frame[by], set(labels[used])), **args)
    counts = {lab: _counts(d, z, g, used & (labels == lab)) for lab in domains}
    return domains.as_subgroups(counts), counts, domains


def _levels(values, used: set) -> list[str]:
    """The subgroups in the unweighted path's order (``counts_by``: sorted values, 9 before 10)."""
    if hasattr(values, "cat"):  # value labels in their codes' order (analysis.labelled_by)
        return [str(c) for c in values.cat.categories if str(c) in used]
    present = values.dropna().unique().tolist()
    try:
        present = sorted(present)
    except TypeError:
        present = sorted(present, key=str)
    out = [str(_plain(v)) for v in present]
    return list(dict.fromkeys(lab for lab in out if lab in used))


def by_labels(frame, by: str) -> np.ndarray:
    """Each row's subgroup label (as the unweighted path names subgroups), None where blank."""
    values = frame[by]
    blank = values.isna().to_numpy()
    return np.array([None if b else str(_plain(v)) for v, b in zip(values.tolist(), blank)], dtype=object)


def subgroup_sizes(mapping, frame, by: str) -> dict:
    """Answers used per subgroup label (as ``survey_subgroups`` labels them)."""
    labels = by_labels(frame, by)[np.asarray(mapping.rows["used"], bool)]
    keys, sizes = np.unique(labels[labels != None].astype(str), return_counts=True)  # noqa: E711
    return dict(zip(keys.tolist(), sizes.tolist()))


def figures(estimate) -> list[list]:
    """``[category, estimate, SE, CI low, CI high]`` rows of an ``rr.Estimate`` ("" for yes/no; None: no number)."""

    def number(x):
        x = float(x)
        return x if np.isfinite(x) else None

    if estimate.frequencies is None:
        values = [[estimate.prevalence, estimate.se, *estimate.ci]]
        cats = [""]
    else:
        values = [[estimate.frequencies[j], estimate.se[j], *estimate.ci[j]] for j in range(len(estimate.frequencies))]
        cats = [str(c) for c in estimate.design.categories]
    return [[c, *(number(v) for v in row)] for c, row in zip(cats, values)]


def result_figures(result) -> list[list]:
    """``[subgroup, category, estimate, SE, CI low, CI high]`` for an item's result, "(all)" and each subgroup."""
    rows = [["(all)", *row] for row in figures(result.estimate)]
    if result.subgroups is not None and result.by:
        rows += [[str(label), *row] for label, e in result.subgroups.estimates.items() for row in figures(e)]
    return rows


def survey_repro(result, dataset: str, *, confidence: float, ci: str) -> dict:
    """What the script refits (``analysis.refit_survey``) and the exported figures it must find.

    Datasets compared (``by == "dataset"``): the script refits the dataset's own estimate."""
    by = result.by if result.subgroups is not None and result.by != "dataset" else None
    shown = result_figures(result) if by else [["(all)", *row] for row in figures(result.estimate)]
    return {"item": result.item, "dataset": dataset, "survey_design": result.sample_design.to_dict(),
            "by": by, "min_group_size": result.min_group_size if by else None,
            "confidence": float(confidence), "ci": ci, "figures": shown}
