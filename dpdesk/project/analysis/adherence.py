"""The extended crosswise model's non-adherence test and its two versions, in words.

An ECWM item (Heck, Hoffmann & Moshagen 2018) asks the crosswise question in two random groups
with complementary versions of question B. If every respondent follows the instructions, both
versions estimate the same prevalence; the test compares them:

* unweighted: the likelihood-ratio test of one prevalence against one per version,
  ``G^2`` on 1 df (``rr.estimate``'s ``.fit``);
* with a survey design: the design-based Wald test of ``pi_1 = pi_2`` on the linearized
  covariance, ``F(1, df)`` on the design degrees of freedom (``rr.survey_estimate``'s
  ``.adherence``; :mod:`dpdesk.mechanisms.rr.survey.ecwm`).

Each version's prevalence is that version's crosswise estimate with its own interval
(``rr.estimate`` of ``ecwm_version``; with a design, the version's domain). With "Subgroups by",
each subgroup gets the same test of its own answers (:func:`subgroup_adherence`: the subgroup's
likelihood-ratio test, or the Wald F test of its domain). The Results view, the command line, the
workbook and the report all read :func:`adherence` and :func:`subgroup_adherence`; nothing here
computes a statistic of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dpdesk.errors import DpdeskError
from dpdesk.mechanisms import rr
from dpdesk.mechanisms.rr.design import ecwm_version
from dpdesk.mechanisms.rr.estimate import ci_method_key
from dpdesk.project.number_style import NumberStyle

#: the level at which the test's rejection is shown as a warning
ALPHA = 0.05
#: the results table of the tests (workbook sheet, command line, JSON)
TABLE = "Non-adherence (ECWM)"
CITATION = "Heck, Hoffmann & Moshagen, 2018"


@dataclass(frozen=True)
class Version:
    """One version of question B: its 'yes' share, and the prevalence its respondents give."""

    version: int
    b_share: float
    n: int
    estimate: float
    se: float
    ci: tuple[float, float]


@dataclass(frozen=True)
class Adherence:
    """The non-adherence test of one ECWM item and the two versions' prevalences."""

    item: str  # what a reader calls the item (its label)
    statistic: str  # "G²" (likelihood ratio) or "F" (design-based Wald)
    value: float
    df: tuple[int, ...]  # (1,) or (1, design df)
    p_value: float
    versions: tuple[Version, Version]
    confidence: float
    key: str = ""  # the item's short name

    @property
    def design_based(self) -> bool:
        return self.statistic == "F"

    @property
    def rejects(self) -> bool:
        return math.isfinite(self.p_value) and self.p_value < ALPHA

    def statistic_text(self) -> str:
        """``G² = 0.42, df = 1, p = .52`` or ``F(1, 32) = 0.85, p = .36`` (APA)."""
        p = NumberStyle.p_in_text(self.p_value)
        if self.design_based:
            return f"F({self.df[0]}, {self.df[1]}) = {NumberStyle.number(self.value)}, {p}"
        return f"G² = {NumberStyle.number(self.value)}, df = {self.df[0]}, {p}"

    def sentence(self) -> str:
        """The test in words: the versions agree, or (a rejection at 5%) they disagree and what that means."""
        if not (math.isfinite(self.value) and math.isfinite(self.p_value)):
            return ("The two versions could not be compared (the non-adherence test has no value: too few "
                    "answers in a version, or answers all alike).")
        if self.rejects:
            return (f"The two versions disagree ({self.statistic_text()}): some respondents may not follow the "
                    f"instructions, and the prevalence assumes that they all do ({CITATION}). Report both "
                    f"versions' estimates and read the prevalence with caution.")
        return f"Respondents seem to follow the instructions: the two versions agree ({self.statistic_text()})."

    def versions_sentence(self, style: NumberStyle | None = None) -> str:
        """``Version 1 (question B 'yes' for 25%): 32.9% (95% CI 20.1% to 47.3%); version 2 (75%): ...``."""
        style = style or NumberStyle()
        conf = f"{100 * self.confidence:g}%"
        parts = []
        for v in self.versions:
            b = f"question B 'yes' for {100 * v.b_share:g}%" if v.version == 1 else f"{100 * v.b_share:g}%"
            parts.append(f"{'Version' if v.version == 1 else 'version'} {v.version} ({b}; n = {v.n:,}): "
                         f"{style.share_in_text(v.estimate)} ({conf} CI "
                         f"{style.interval_in_text(*v.ci)})")
        return "; ".join(parts) + "."

    def method_text(self) -> str:
        """How the test was made, for the methods paragraph and the notes."""
        if self.design_based:
            return ("a design-based Wald test of equal prevalence in the two versions, with the Taylor-linearized "
                    f"covariance of the versions' estimates, referred to F(1, {self.df[1]}) on the design degrees "
                    "of freedom (Lumley, 2010)")
        return ("the likelihood-ratio test of one prevalence common to both versions against a separate "
                f"prevalence per version, on 1 degree of freedom ({CITATION})")

    def rows(self, keys: bool = False) -> list[dict]:
        """Table rows: one per version, then the test (plain values: the Results view, CLI, workbook).

        ``keys=True`` (machine-readable output) adds the item's short name and, on the test's row,
        whether it rejects at 5% and the sentence."""
        out = [{"item": self.item, "part": f"version {v.version} (B 'yes' {100 * v.b_share:g}%)", "n": v.n,
                "estimate": _f(v.estimate), "SE": _f(v.se), "CI low": _f(v.ci[0]), "CI high": _f(v.ci[1]),
                "test": None, "p-value": None}
               for v in self.versions]
        out.append({"item": self.item, "part": "non-adherence test", "n": sum(v.n for v in self.versions),
                    "estimate": None, "SE": None, "CI low": None, "CI high": None,
                    "test": self.statistic_text().rsplit(", p", 1)[0], "p-value": _f(self.p_value)})
        if keys:
            out = [{"name": self.key, **row} for row in out]
            out[-1].update(statistic=self.statistic, value=_f(self.value), df=self.df[0],
                           df_denominator=self.df[1] if self.design_based else None, rejects=self.rejects,
                           sentence=self.sentence())
        return out

    def to_dict(self) -> dict:
        """JSON-able (None for a missing number)."""
        return {"statistic": self.statistic, "value": _f(self.value), "df": list(self.df),
                "p_value": _f(self.p_value), "rejects": self.rejects, "alpha": ALPHA, "method": self.method_text(),
                "sentence": self.sentence(),
                "versions": [{"version": v.version, "b_share": v.b_share, "n": v.n, "estimate": _f(v.estimate),
                              "se": _f(v.se), "ci": [_f(v.ci[0]), _f(v.ci[1])]} for v in self.versions]}


def _f(x) -> float | None:
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def adherence(result) -> Adherence | None:
    """The test and the versions of an item result (``analysis.ItemResult``), or None when it is no
    ECWM item or has no estimate. Kept with the result, so that a bootstrap interval of each version is
    computed once (in the worker that built the results) and read again by the views."""
    e = getattr(result, "estimate", None)
    cached = getattr(result, "_adherence", None)
    if cached is not None and cached[0] is e:
        return cached[1]
    out = _adherence(result, e)
    try:
        result._adherence = (e, out)
    except AttributeError:  # a frozen or slotted stand-in: computed each time
        pass
    return out


def _adherence(result, e) -> Adherence | None:
    d = getattr(result, "design", None)
    if e is None or d is None or d.name != "ecwm":
        return None
    label = getattr(result, "label", "") or result.item
    p = float(d.params["p"])
    survey = getattr(result, "survey", None)
    if survey is not None:
        t = survey.adherence
        if t is None:
            return None
        versions = tuple(Version(k, p if k == 1 else 1 - p, n, est, se, tuple(ci))
                         for k, (est, se, ci, n) in enumerate(t.versions, start=1))
        return Adherence(label, "F", float(t.f), (t.df_num, t.df_den), float(t.p_value), versions, e.confidence,
                         result.item)
    if e.fit is None:
        return None
    versions = []
    for k, counts in enumerate(e.counts, start=1):
        try:
            v = rr.estimate(ecwm_version(d, k), counts, confidence=e.confidence, ci=ci_method_key(e.ci_method))
        except DpdeskError:  # a version without answers: no interval of its own
            est, se = e.extra.get(f"pi_group{k}", (math.nan, math.nan))
            versions.append(Version(k, p if k == 1 else 1 - p, int(counts.sum()), est, se, (math.nan, math.nan)))
            continue
        se = e.extra.get(f"pi_group{k}", (math.nan, float(v.se)))[1]  # NaN at 0 or 1, as in rr.estimate's extra
        versions.append(Version(k, p if k == 1 else 1 - p, int(v.n), float(v.prevalence), float(se),
                                (float(v.ci[0]), float(v.ci[1]))))
    return Adherence(label, "G²", float(e.fit.g2), (int(e.fit.df),), float(e.fit.p_value), tuple(versions),
                     e.confidence, result.item)


@dataclass(frozen=True)
class _Subgroup:
    """One subgroup of an item's result, read by :func:`_adherence` as a result of its own."""

    item: str
    label: str
    design: object
    estimate: object
    survey: object


def subgroup_adherence(result) -> list[tuple[str, Adherence]]:
    """``[(subgroup, test)]``: the non-adherence test within each subgroup of an ECWM item estimated by
    subgroup, by the same rule as the whole sample's (:func:`adherence`): the likelihood-ratio test of the
    subgroup's counts (``rr.estimate_by``'s estimate, its ``.fit``), or with a survey design the Wald
    F test of the subgroup's domain (``rr.survey_estimate_by``: weights 0 outside it, every PSU kept, the
    design's degrees of freedom). A weighted subgroup without its domain estimate has no test, never an
    unweighted one. Cached with the result, as :func:`adherence`."""
    subs = getattr(result, "subgroups", None)
    d = getattr(result, "design", None)
    if subs is None or d is None or d.name != "ecwm":
        return []
    cached = getattr(result, "_subgroup_adherence", None)
    if cached is not None and cached[0] is subs:
        return cached[1]
    weighted = getattr(result, "survey", None) is not None
    domains = getattr(result, "subgroup_surveys", None) or {}
    label = getattr(result, "label", "") or result.item
    out = []
    for group, e in subs.estimates.items():
        survey = domains.get(group) if weighted else None
        if weighted and survey is None:
            continue
        a = _adherence(_Subgroup(result.item, label, d, e, survey), e)
        if a is not None:
            out.append((str(group), a))
    try:
        result._subgroup_adherence = (subs, out)
    except AttributeError:
        pass
    return out


def subgroup_adherence_rows(results, keys: bool = False) -> list[dict]:
    """The "Non-adherence (ECWM) by <column>" table: :meth:`Adherence.rows` per subgroup, a ``subgroup``
    column after the item."""
    out = []
    for r in results:
        for group, a in subgroup_adherence(r):
            for row in a.rows(keys):
                head = {k: row.pop(k) for k in ("name", "item") if k in row}
                out.append({**head, "subgroup": group, **row})
    return out


def adherence_tests(results) -> list[Adherence]:
    """The tests of every ECWM item with an estimate, in the results' order."""
    return [a for a in (adherence(r) for r in results) if a is not None]


def adherence_rows(results, keys: bool = False) -> list[dict]:
    """The "Non-adherence (ECWM)" table: both versions and the test of each ECWM item."""
    return [row for a in adherence_tests(results) for row in a.rows(keys)]
