"""The two versions of an extended crosswise (ECWM) item: question B with complementary prevalences.

An ECWM item (Heck, Hoffmann & Moshagen 2018, Behav Res Methods 50, 1895-1905) is a crosswise
question asked in two random groups, the *versions*: version 1's question B has a 'yes' share
p (e.g. "Is your mother's birthday in January, February or March?"), version 2's the
complementary share 1 - p ("... in April to December?"). Each respondent reads a plain
crosswise card with their version's question B (:func:`version_design`); the version is their
group. Comparing the versions is the check that respondents follow the instructions.

The item's card holds both versions, each headed by a marker line (``--- Version 2 ---``, the
word in the card's language); :func:`split_card` reads them back, and the "B:" line of each
half is that version's question B. Version 2's question B is stored as the text part
``question_b2`` (version 1's as ``question_b``, as for crosswise).
"""

from __future__ import annotations

import re

#: "Version" in each language dpdesk writes (the researcher's and interviewer's marker, and
#: a paper card's title).
VERSION_WORD = {"en": "Version", "de": "Version", "fr": "Version", "es": "Versión", "nl": "Versie",
                "it": "Versione", "pt": "Versão"}
#: The designs whose question B comes in two versions.
VERSIONED = ("ecwm",)
_MARKER = re.compile(r"^\s*-{2,}\s*\w+\s+([12])\s*-{2,}\s*$", re.MULTILINE)


def marker(version: int, language: str = "en") -> str:
    """``--- Version 2 ---``: the line that heads one version's card."""
    return f"--- {VERSION_WORD.get(language, 'Version')} {version} ---"


def version_title(title: str, version: int, language: str = "en") -> str:
    """A paper card's title for one version: ``"Please read before you answer (Version 2)"``."""
    return f"{title} ({VERSION_WORD.get(language, 'Version')} {version})"


def card(question: str, design, question_b: str, question_b2: str, language: str = "en") -> str:
    """Both versions' cards, each a crosswise card with its own question B (placeholders where blank)."""
    from dpdesk.mechanisms.rr.wording import card_text

    halves = []
    for v, b in ((1, question_b), (2, question_b2)):
        halves.append(f"{marker(v, language)}\n" + card_text(question, version_design(design, v), "", b, language))
    return "\n\n".join(halves)


def version_design(design, version: int):
    """The crosswise design version ``version`` (1 or 2) of an ECWM ``design`` answers."""
    from dpdesk.mechanisms.rr.design import ecwm_version

    return ecwm_version(design, version)


def split_card(text: str) -> tuple[str, str]:
    """``(version 1's card, version 2's card)`` of a two-version card, marker lines removed.

    A text without a version-2 marker is version 1's card only (``""`` for version 2, which is
    then written from the design)."""
    text = text or ""
    found = list(_MARKER.finditer(text))
    second = next((m for m in found if m.group(1) == "2"), None)
    first_part, second_part = (text, "") if second is None else (text[:second.start()], text[second.end():])
    first_part = _MARKER.sub("", first_part)
    return first_part.strip(), _MARKER.sub("", second_part).strip()


def b_line(card_text: str) -> str:
    """The question after a card's first ``B:`` line (``""`` for none)."""
    return next((line[2:].strip() for line in (card_text or "").splitlines() if line.startswith("B:")), "")


def questions_b(card_text: str) -> tuple[str, str]:
    """Question B of version 1 and of version 2 as the two-version card asks them."""
    one, two = split_card(card_text)
    return b_line(one), b_line(two)


def complement_months(months) -> list[int]:
    """The birth months version 2 asks about: the months version 1 does not."""
    chosen = {int(m) for m in months or ()}
    return [m for m in range(1, 13) if m not in chosen]
