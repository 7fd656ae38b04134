"""A methods paragraph generated from the project, with its references in APA style.

For each item: the design and the randomizer in words with its probabilities, the local
epsilon and what it means, the respondents analysed and left out, the estimator and the
interval with citations. Each privacy release of the ledger adds its mechanism,
epsilon/delta and how the releases were composed (the accountant). Only the works the
text cites are listed. The researcher edits the text before copying it.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from dpdesk.project.report.design_words import design_key, design_words, item_randomizer
from dpdesk.project.report.ecwm import methods_paragraph
from dpdesk.project.number_style import NumberStyle
from dpdesk.project.report.references import CI_KEYS, cite, reference_list
from dpdesk.project.analysis.result_tables import BY_DATASET

MECHANISMS = {"laplace": ("the discrete Laplace (geometric) mechanism", "dwork2006"),
              "gaussian": ("the discrete Gaussian mechanism", "canonne2020"),
              "exponential": ("the exponential mechanism", "dwork2006")}
CI_WORDS = {"default": "boundary-calibrated likelihood-ratio intervals (Feldman–Cousins construction), never "
                       "narrower than the exact Clopper–Pearson bound at 0 or n",
            "wald": "Wald intervals (estimate ± z·SE, cut to [0, 1])",
            "bootstrap": "percentile bootstrap intervals"}


@dataclass
class Methods:
    paragraphs: list[str]
    keys: list[str] = field(default_factory=list)  # cited references, in order of citation

    @property
    def references(self) -> list[str]:
        return reference_list(self.keys)

    def text(self) -> str:
        """Plain text: the paragraphs, then "References" and the list (italics dropped)."""
        refs = [_plain(r) for r in self.references]
        return "\n\n".join(self.paragraphs + (["References", "\n".join(refs)] if refs else [])) + "\n"

    def html(self) -> str:
        body = "".join(f"<p>{html.escape(p, quote=False)}</p>" for p in self.paragraphs)
        if self.keys:
            body += "<h3>References</h3>" + "".join(
                f"<p style='margin-left: 24px; text-indent: -24px;'>{r.replace('&', '&amp;')}</p>"
                for r in self.references)
        return body


def _plain(text: str) -> str:
    return text.replace("<i>", "").replace("</i>", "")


def _eps_sentence(eps: float) -> str:
    if math.isinf(eps):
        return ("Some recorded answers are possible for one true answer only, so the design gives no local "
                "differential privacy guarantee (ε = ∞).")
    return (f"The design gives local differential privacy with ε = {eps:.2f}: whatever a respondent's true answer, "
            f"any recorded answer is at most {NumberStyle.ratio_in_text(math.exp(eps))} as likely under one "
            "true answer as under another (the exponential of ε).")


def methods(project, results, *, ci: str = "default", confidence: float = 0.95, dataset: str | None = None) -> Methods:
    """The methods paragraph of ``results`` (from ``analysis.analyze``) and the project's releases."""
    keys: list[str] = []

    def c(*ks: str) -> str:
        keys.extend(k for k in ks if k)
        return cite(*ks)

    items = {it.name: it for it in project.items()} if project is not None else {}
    paragraphs = []
    for r in results:
        it = items.get(r.item)
        question = f"“{r.question}”" if r.question else f"'{r.item}'"
        words = design_words(r.design, getattr(it, "instructions", None), item_randomizer(it))
        key = design_key(r.design)
        if key:
            keys.append(key)
        parts = [f"The question {question} ({r.item}) was asked with randomized response. Design: {words}."]
        if r.design.groups == 2 and r.design.name != "ecwm":  # the ECWM's own paragraph follows (report.ecwm)
            parts.append("Respondents were assigned at random to one of two groups with different randomization "
                         "probabilities, which lets the model separate the prevalence from non-compliance.")
        parts.append(_eps_sentence(float(r.design.epsilon)))
        m = r.mapping
        if m is not None:
            total = m.n_used + m.n_excluded
            reasons = m.left_out()
            why = ", ".join(f"{n:,} {reason}" for reason, n in reasons.items())
            left = f"; {m.n_excluded:,} were left out ({why})" if m.n_excluded else "; none was left out"
            parts.append(f"Of {total:,} respondents in the data, {m.n_used:,} answered and were analysed{left}.")
        if r.estimate is None:
            parts.append(f"No estimate could be computed ({r.error}).")
        paragraphs.append(" ".join(parts))
    survey = next((r for r in results if getattr(r, "survey", None) is not None), None)
    if survey is not None:
        paragraphs.append(_survey_paragraph(results, survey, confidence, c, _column_labels(project, dataset)))
    elif any(r.estimate is not None for r in results):
        paragraphs.append(f"Prevalences (and the shares of categories) were estimated by maximum likelihood from the "
                          f"counts of each recorded answer and each design's response matrix, as in RRreg "
                          f"({c('heck2018')}), with {100 * confidence:g}% {CI_WORDS.get(ci, ci)} "
                          f"({c(*CI_KEYS.get(ci, ()))}).")
    ecwm = methods_paragraph(results, c)  # the extended crosswise model: its test and what it assumes
    if ecwm:
        paragraphs.append(ecwm)
    by = next((r.by for r in results if r.by), None)
    by_label = next((r.by_label or r.by for r in results if r.by), None)  # "dataset" when datasets are compared
    groups = "datasets" if by == BY_DATASET else "groups"
    adjust = next((r.adjust for r in results if r.by and getattr(r, "adjust", "none") != "none"), None)
    adjusted = {"holm": f" p-values of the pairwise differences were adjusted for the number of comparisons "
                        f"with Holm's step-down method ({c('holm1979')}).",
                "bonferroni": " p-values of the pairwise differences were adjusted for the number of "
                              "comparisons with the Bonferroni method."}.get(adjust, "") if by else ""
    waves = by == BY_DATASET and any(getattr(r, "wave_note", "") for r in results)
    if waves:
        weighted = next(r.wave_note for r in results if getattr(r, "wave_note", ""))
        paragraphs.append(f"Estimates were also computed for {_each_group(results, by_label)} as independent "
                          f"samples, each under its own survey design (unit weights for a dataset without one). "
                          f"Differences between datasets have the standard error √(SE₁² + SE₂²), Newcombe-type "
                          f"(MOVER) intervals ({c('newcombe1998')}) and t tests on Welch–Satterthwaite degrees of "
                          f"freedom from the datasets' design degrees of freedom ({c('satterthwaite1946')}); the "
                          f"equality of all datasets was tested with a Wald F test.{adjusted} Weighting: "
                          f"{weighted.split(': ', 1)[1].split('. Differences')[0]}.")
    elif by and survey is not None:
        paragraphs.append(f"Estimates were also computed for {_each_group(results, by_label)} as domains of the "
                          f"whole sample design (never a subset of it); differences between {groups} use their "
                          f"design-based covariance, and the equality of all {groups} was tested with a design-based "
                          f"Wald F test.{adjusted}")
    elif by:
        paragraphs.append(f"Estimates were also computed separately for {_each_group(results, by_label)}; "
                          f"differences between {groups} have Newcombe-type (MOVER) intervals ({c('newcombe1998')}) "
                          f"and the equality of all {groups} was tested with a likelihood-ratio test.{adjusted}")
    if project is not None:
        from dpdesk.project.languages.methods import languages_sentence

        languages = languages_sentence(project, c)
        if languages:
            paragraphs.append(languages)
    if project is not None:
        from dpdesk.project.report.regression import regression_paragraphs

        paragraphs += regression_paragraphs(project, c)
    paragraphs += _release_paragraphs(project, c)
    if project is not None:
        shared = _pseudonym_sentence(project, c)
        if shared:
            paragraphs.append(shared)
    return Methods(paragraphs, list(dict.fromkeys(keys)))


def _pseudonym_sentence(project, c) -> str:
    """The identifiers the last shared extract pseudonymised, and how (FF1, NIST SP 800-38G)."""
    from dpdesk.project.sharing.column_protection import sharing_settings

    pairs = sharing_settings(project).pseudonymised
    if not pairs:
        return ""
    columns = ", ".join(column for column, _ in pairs)
    methods = sorted({method for _, method in pairs})
    how = " and ".join(m + (" (since withdrawn by NIST)" if m == "FF3-1" else "") for m in methods)
    many = len(pairs) > 1
    return (f"In the shared extract of the data, the direct identifier{'s' if many else ''} {columns} "
            f"{'were' if many else 'was'} replaced by pseudonyms made with {how} format-preserving encryption "
            f"({c('dworkin2016')}) under a secret AES key held by the research team: equal values keep equal "
            f"pseudonyms, and only the key's holder can reverse them.")


def _each_group(results, by: str) -> str:
    """The subgroups in words: "each group of gender", or "each dataset (wave 1, wave 2)" when the datasets
    are compared."""
    if by != BY_DATASET:
        return f"each group of {by}"
    names = dict.fromkeys(str(g) for r in results if r.subgroups is not None for g in r.subgroups.estimates)
    return "each dataset" + (f" ({', '.join(names)})" if names else "")


def _column_labels(project, dataset: str | None) -> dict:
    """``{column: label}`` of the dataset analysed (none without a project)."""
    if project is None or not project.datasets():
        return {}
    from dpdesk.project.study.active import dataset_named
    from dpdesk.project.study.labels import Labels

    return Labels.from_stored(project.column_labels(dataset_named(project, dataset).name)).columns


def _survey_paragraph(results, first, confidence: float, c, labels: dict | None = None) -> str:
    """How the sample design entered the estimates (weights, strata, PSUs, design effects)."""
    s = first.survey
    what = first.sample_design.describe(labels) if first.sample_design is not None else "its weights"
    deffs = [float(d) for r in results if getattr(r, "survey", None) is not None
             for d in np.atleast_1d(np.asarray(r.survey.deff, float)) if np.isfinite(d)]
    sample = s.sample
    layout = (f"{sample.n_strata} strata and {sample.n_psus} primary sampling units"
              if sample.stratified or sample.clustered else "respondents as the sampling units")
    text = (f"The estimates take the survey design into account ({what}; {layout}). "
            f"{_estimator_sentence(results, c)}, with standard errors by Taylor linearization, PSUs "
            f"taken with replacement within strata ({c('binder1983', 'lumley2004')}), and {100 * confidence:g}% "
            f"intervals computed on the effective sample size with a correction for the degrees of freedom of the "
            f"variance estimate ({c('korn1998', 'satterthwaite1946')}).")
    if s.population is not None:
        text += (f" Means are Horvitz-Thompson estimates with the known population size of "
                 f"{s.population:,.0f}, as in RRTCS ({c('cobo2021')}).")
    if deffs:
        text += (f" Design effects were {min(deffs):.2g}" + (f" to {max(deffs):.2g}" if max(deffs) > min(deffs)
                                                               else "") + ".")
    return text


def _estimator_sentence(results, c) -> str:
    """How the prevalences were estimated, from each result's own estimator (``SurveyEstimate.method``).

    "Prevalences were estimated as weighted means of each respondent's answer transformed by the
    design's response matrix (a, b: by weighted pseudo-maximum likelihood)"; Kuk's card design with
    several cards and a known population size: the mean number of red cards (Kuk 1990).
    """
    methods = {r.item: r.survey.method for r in results if getattr(r, "survey", None) is not None}
    pseudo = [item for item, m in methods.items() if "pseudo-maximum likelihood" in m]
    red = [item for item, m in methods.items() if "mean red card" in m]
    text = ("Prevalences were estimated as weighted means of each respondent's answer transformed by the design's "
            "response matrix")
    if red:
        text += (f" (for Kuk's card design with several cards, {', '.join(red)}: the number of red cards drawn, f, "
                 f"as (f / k - p2) / (p1 - p2); {c('kuk1990')})")
    if pseudo and len(pseudo) == len(methods):
        return "Prevalences were estimated by weighted pseudo-maximum likelihood"
    if pseudo:
        text += f" ({', '.join(pseudo)}: by weighted pseudo-maximum likelihood)"
    return text


def _release_paragraphs(project, c) -> list[str]:
    try:
        from dpdesk.project.ledger import ledger

        entries = ledger(project)
        from dpdesk.project.ledger.release_cells import described, entry_labels, release_cells
    except Exception:  # noqa: BLE001 - no ledger (an old project, no releases): nothing to describe
        return []
    if not entries:
        return []
    out = []
    gaussian = False
    for e in entries:
        kind = str(e.mechanism).removeprefix("discrete_")  # the ledger says "discrete_laplace"
        mech, key = MECHANISMS.get(kind, (f"the {kind.replace('_', ' ')} mechanism", None))
        gaussian |= kind == "gaussian"
        delta = e.cost.get("delta")
        from dpdesk.project.ledger.text import epsilon_text

        # the cost as the ledger, the release notes and the workbook write it (spent: rounded up)
        cost = epsilon_text(Fraction(str(e.epsilon)), Fraction(str(delta)) if kind == "gaussian" and delta else 0,
                            up=True)
        cited = f" ({c(key)})" if key else ""
        out.append(f"A {described(e, entry_labels(project, e))} was released with {mech}{cited} at {cost}: {release_cells(e).noise}.")
    if gaussian:
        comp = ("The privacy loss of all releases was composed with a privacy-loss-distribution accountant "
                f"(dp_accounting; {c('koskela2020')}) over the ledger's events.")
    else:
        comp = ("The privacy loss of all releases was composed by adding their ε exactly (basic composition; "
                f"{c('dwork2006')}).")
    return [f"Counts and statistics of the non-sensitive variables were published with central differential "
            f"privacy ({c('dwork2006')}) from one privacy budget for the project. " + " ".join(out) + " " + comp]
