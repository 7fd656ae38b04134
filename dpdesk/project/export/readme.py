"""The default "Readme" of an export: what the numbers mean, in plain words.

Only the columns present in the exported tables are explained. The wording follows the
usual presentation of randomized response (Warner 1965, JASA 60:63-69; Blair, Imai &
Zhou 2015, JASA 110:1304-1319) and of local differential privacy (Wang et al. 2017,
USENIX Security, "Locally differentially private protocols for frequency estimation").
"""

from __future__ import annotations

from typing import Any

from dpdesk.project.export.model import ResultsBundle, table_columns

INTRO = (
    "In a randomized-response survey each respondent answered through a chance device "
    "(a coin, dice, cards, a birthday) that sometimes changed or replaced the recorded "
    "answer. Nobody, not even the researcher, can tell from one recorded answer what "
    "the respondent's true answer was. Because the chances of the device are known, "
    "the share of people with the sensitive attribute can still be estimated for the "
    "whole group; the estimate is less precise than with direct questions, and the "
    "confidence interval shows how much less."
)

GLOSSARY = {
    "item": "item: the survey question (the sensitive attribute) the row is about.",
    "design": "design: the randomization scheme the respondents used, with its chances.",
    "subgroup": "subgroup: the part of the sample the row describes (for example one "
    "faculty); rows labelled as a difference compare two subgroups.",
    "n": "n: the number of respondents whose randomized answers were used.",
    "excluded": "excluded: the number of rows left out: missing answers (blank, or a code the "
    "file marks as missing, such as Refused or Don't know) and answers that match no code of "
    "the design; they are not part of n. The Metadata lists them by reason.",
    "estimate": "estimate: the estimated share of people with the attribute, as a "
    "proportion between 0 and 1 (0.1234 means 12.34 %). In a difference row it is the "
    "first subgroup's share minus the second's.",
    "se": "SE: the standard error of the estimate, the typical size of its sampling error. "
    "It includes the extra uncertainty added by the randomization.",
    "ci low": "CI low / CI high: the confidence interval. At the stated confidence (for "
    "example 95 %), intervals made this way contain the true share in that proportion of "
    "surveys. A wide interval means the data say little about the true share.",
    "ci method": "CI method: how the confidence interval was computed (for example Wald, "
    "Wilson-type or bootstrap); the methods differ most for small samples or shares near "
    "0 or 1.",
    "confidence": "confidence: the confidence level of the interval (95 % = 0.95).",
    "part": "part (the Non-adherence (ECWM) sheet): version 1 or 2 of an extended crosswise item (in the "
    "whole sample; in the sheet 'Non-adherence (ECWM) by ...', in each subgroup), named by "
    "the share of 'yes' to its question B, with the prevalence its respondents give; or the non-adherence "
    "test, which asks whether both versions give the same prevalence, as they do when every respondent "
    "follows the instructions (a small p-value: some may not).",
    "test": "test: the test that gave the p-value, or its statistic with its degrees of freedom (G², χ² or F).",
    "local epsilon": "local epsilon: the privacy guarantee of the randomization for one "
    "respondent (local differential privacy). A recorded answer can change the odds that "
    "a respondent has the attribute by at most a factor e^epsilon; smaller is more "
    "private. Infinite (∞) means some recorded answer can reveal the true answer.",
}


def default_readme(bundle: Any) -> list[str]:
    """Paragraphs explaining the exported tables and each column they contain."""
    columns: list[str] = []
    tables = list(getattr(bundle, "tables", {}) or {})

    for table in getattr(bundle, "tables", {}).values():
        for column in table_columns(table):
            if column.strip().lower() not in columns:
                columns.append(column.strip().lower())
    lines = [INTRO]
    if tables:
        lines.append(
            "The results are in "
            + ("one table" if len(tables) == 1 else f"{len(tables)} tables")
            + "; the first is the main table of estimates. Every row is one estimate."
        )
    if "ci high" in columns and "ci low" not in columns:
        columns.append("ci low")
    lines += [GLOSSARY[c] for c in GLOSSARY if c in columns]
    lines.append(
        "Numbers are shown rounded (estimates and SE to 4 decimals) but stored at full "
        "precision. Empty cells are missing values; ∞ means infinite."
    )
    lines.append(
        "Text that begins with =, +, - or @ is written with a leading apostrophe (') so "
        "that a spreadsheet program never runs it as a formula."
    )
    lines.append(
        "The Metadata sheet (or the _metadata file) records the dpdesk version, the input "
        "file and its SHA-256, the import options (header rows, platform, encoding), a "
        "fingerprint of the analysed answers (independent of row order and file format), "
        "each item's codes and which answers were left out and why, each design in words, "
        "the interval method with its source, and the privacy budget. When a file ending in "
        "_reproduce.py is beside these results, it counts the answers again from the project "
        "file, checks them against the exported counts, and recomputes every estimate with "
        "the dpdesk Python library: run it with python."
    )
    return lines


def readme_paragraphs(bundle: ResultsBundle) -> list[str]:
    if bundle.readme is not None:
        return [str(p) for p in bundle.readme]
    return default_readme(bundle)
