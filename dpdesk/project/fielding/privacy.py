"""The privacy rules of online fielding: the randomization stays with the respondent.

Allowed: the respondent's own coin, die, cards or birthday, the crosswise and triangular
formats (no randomizer at all), a number they pick. Never: a draw by the platform whose
outcome is stored (a Qualtrics randomizer or embedded data tied to the item, "Evenly
Present", LimeSurvey's ``rand()``, XLSForm's ``random()`` and ``once()``). A design whose
probabilities no home randomizer gives exactly (an epsilon-calibrated k-ary or unary design
with irrational probabilities) would need the platform to draw, so it is refused.
"""

from __future__ import annotations

import re
from fractions import Fraction

from dpdesk.errors import DesignError

#: The largest number of equally likely outcomes a home randomizer has (a deck of 52 cards,
#: two dice, a birth month, coins): every probability the respondent draws is k/n with n <= 100.
MAX_OUTCOMES = 100

SUGGESTION = ("Choose probabilities that a randomizer the respondent holds gives exactly (a coin the "
              "respondent tosses at home, a die, a birth month), or the crosswise design, which needs no "
              "randomizer at all.")

#: Constructs that would let a platform draw (and store) the randomization, per format.
FORBIDDEN = {
    "qsf": (r'"Type"\s*:\s*"Randomizer"', r'"EmbeddedData"', r"EvenPresentation", r'"Randomization"',
            r"\$\{rand:", r"\$\{e://"),
    "qualtrics-txt": (r"\[\[Randomiz", r"\[\[EmbeddedData", r"\$\{rand:", r"\$\{e://"),
    "limesurvey": (r"\brand\s*\(", r"\bmt_rand\s*\(", r"random_group"),
    "redcap": (r"\brand\s*\(", r"@RANDOM"),
    "xlsform": (r"\brandom\s*\(", r"\bonce\s*\(", r"randomize\s*=", r"\bdigest\s*\("),
}


def forbidden_constructs(fmt: str, text: str) -> list[str]:
    """The forbidden constructs of format ``fmt`` found in ``text`` (empty when it is clean)."""
    return [p for p in FORBIDDEN.get(fmt, ()) + _ALL if re.search(p, text, re.I)]


_ALL = (r"\brandom\s*\(", r"\brand\s*\(")


def drawn_probabilities(design) -> list[float]:
    """The probabilities the respondent's randomizer must give for ``design``."""
    p = design.params
    name = design.name
    if name in ("crosswise", "ecwm", "triangular"):
        return []  # question B's answer is the respondent's own secret: nothing is drawn
    if name == "unrelated":
        return [p["p_sensitive"]]
    if name in ("warner", "mangat"):
        return [p["p"]]
    if name == "forced":
        return [p["p_truth"], p["p_yes"], p["p_no"]]
    if name == "forced_multi":
        return [p["p_truth"], *p["p_forced"]]
    if name in ("kuk", "sld", "cdm", "unrelated_unknown"):
        return [p["p1"], p["p2"]]
    return [float(x) for m in design.matrices for x in m.ravel()]  # krr, unary, custom


def home_fraction(x: float) -> Fraction | None:
    """``x`` as k/n with n <= MAX_OUTCOMES when it is exactly that, else ``None``."""
    f = Fraction(x).limit_denominator(MAX_OUTCOMES)
    return f if abs(float(f) - x) < 1e-9 else None


def check_online(design, item_name: str) -> None:
    """Refuse a design whose randomizer the platform would have to draw (:class:`DesignError`)."""
    bad = [x for x in drawn_probabilities(design) if home_fraction(float(x)) is None]
    if bad:
        from dpdesk.mechanisms.rr.wording.english import pct

        raise DesignError(
            f"Item {item_name!r} cannot be fielded online: its design asks the respondent to answer with "
            f"probability {pct(float(bad[0]))}, which no coin, die or deck of cards gives exactly, so the "
            f"survey platform would have to draw it and could store the draw. {SUGGESTION}")


README = """How to field this instrument without undoing the respondents' privacy

The randomization stays with the respondent: a coin, a die or a birthday they use at home, or the
crosswise / triangular question. This instrument never lets the platform draw a random number.
Keep it that way when you edit the survey:

1. Do not add a randomizer, "Evenly Present", embedded data or a random-number function
   (LimeSurvey's rand, XLSForm's random and once) to these questions, and do not show the
   questions to respondents in a randomly drawn version.
2. Switch off per-question timing on the randomized-response page (Qualtrics: no Timing question on
   the page, and no page-timing paradata; LimeSurvey: Settings > Notifications & data > "Save timings"
   off; REDCap and ODK/Kobo: no start/end timestamps per question). How long someone took can reveal
   whether they followed the randomizer.
3. Switch off "Prevent ballot box stuffing" (Qualtrics) and similar cookies or IP tracking
   (LimeSurvey: "Anonymized responses" on, "Save IP address" off), so an answer cannot be tied to a
   device or a person.
4. Two-group designs record the group the respondent chose from their birthday as its own question;
   keep it: the estimate needs it.
5. Export the answers with the field names (not renamed) and import the file into dpdesk: the items
   map themselves.
"""

#: The extended crosswise model: the one thing the platform draws, per format (``{v}``: the version field).
VERSION_DRAW = {
    "qsf": "The survey flow draws it: embedded data {v}, then a randomizer (evenly present, 1 of 2) setting it to "
           "1 or 2. Keep both at the top of the flow.",
    "qualtrics-txt": "This TXT format cannot hold a survey flow, so add the draw after importing: in Survey flow, "
                     "add Embedded data {v} at the top, then a Randomizer (randomly present 1 of the elements, "
                     "evenly present) holding two Embedded data elements that set {v} to 1 and to 2. Give the text "
                     "{v}_intro... of version 1 the display logic '{v} is equal to 1' and that of version 2 "
                     "'{v} is equal to 2'. (The .qsf file has all of this already.)",
    "limesurvey": "The hidden equation question {v} draws it once (rand(1,2)) and keeps it; each version's text is "
                  "shown only to that version.",
    "redcap": "REDCap draws nothing by itself: enable the randomization module (Project Setup), choose the field "
              "{v} as the randomization field, upload the allocation table written beside this dictionary "
              "(-allocation.csv), and randomize each record when the survey starts (REDCap's automatic "
              "randomization or a real-time randomization module). Each version's text shows by branching logic.",
    "xlsform": "The calculate field {v} draws it once per form (once(random())); each version's note is relevant "
               "only to that version.",
}


def readme(fmt: str, plans=()) -> str:
    """The README beside an export: :data:`README`, and for extended crosswise items how the platform
    draws each respondent's version of question B (the only draw it may make)."""
    names = [f.name for p in plans for f in p.fields if f.kind == "draw"]
    if not names:
        return README
    text = VERSION_DRAW[fmt].format(v=names[0]) + (
        f" The same for {', '.join(names[1:])}." if len(names) > 1 else "")
    first = README.replace("questions to respondents in a randomly drawn version.",
                           "questions to respondents in a randomly drawn version (but see 6).").replace(
        "This instrument never lets the platform draw a random number.",
        "This instrument lets the platform draw one thing only: the version of question B (see 6).")
    return first + f"""
6. Extended crosswise items show each respondent one of two versions of question B, and the
   platform draws the version. This draw is safe: the version says nothing about the answer, and
   it must be recorded, because the estimate needs it (the version is the respondent's group).
   {text}
   Never let the platform draw anything else.
"""
