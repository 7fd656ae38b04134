"""The methods paragraph's sentence on the respondents' languages and their review (TRAPD)."""

from __future__ import annotations

from typing import Callable

from dpdesk.mechanisms.rr.wording.text import ENGLISH_NAMES
from dpdesk.project.languages.texts import review_summary, source_language


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def languages_sentence(project, cite: Callable[..., str]) -> str:
    """"The instructions were provided in English, German and French (written in English; the others
    from dpdesk's templates and the research team's edits); the German version was reviewed by the
    research team, the French version was not (TRAPD; Harkness, 2003)." Empty with one language."""
    summary = review_summary(project)
    if len(summary) < 2:
        return ""
    source = source_language(project)
    others = [lang for lang in summary if lang != source]
    name = ENGLISH_NAMES.get
    done = [name(lang) for lang in others if summary[lang][0] == summary[lang][1]]
    partly = [f"{name(lang)} ({summary[lang][0]} of {summary[lang][1]} items)" for lang in others
              if 0 < summary[lang][0] < summary[lang][1]]
    not_yet = [name(lang) for lang in others if summary[lang][0] == 0]
    review = []
    if done:
        review.append(f"the {_and(done)} version{'s were' if len(done) > 1 else ' was'} reviewed by the research "
                      "team")
    if partly:
        review.append(f"the {_and(partly)} version{'s were' if len(partly) > 1 else ' was'} reviewed in part")
    if not_yet:
        review.append(f"the {_and(not_yet)} version{'s were' if len(not_yet) > 1 else ' was'} not reviewed")
    return (f"The respondent instructions were provided in {_and([name(lang) for lang in summary])}, written in "
            f"{name(source)} and translated from dpdesk's templates with the research team's edits; "
            f"{'; '.join(review)} (TRAPD: translation, review, adjudication, pretest, documentation; "
            f"{cite('harkness2003')}).")
