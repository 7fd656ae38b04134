"""What a respondent reads for one item, in one language: the text every exporter fields.

:func:`respondent_text` is the one place an exporter gets words from. English is the text
dpdesk generates here (the design's wording, its response labels, the item's question,
question B and edited instructions); every other language comes from
:func:`dpdesk.project.languages.platform_text` (dpdesk's templates and the researcher's
words in that language). Codes are the numbers the platforms store: the answer options are
numbered 1, 2, ... in the order the card prints them (``Yes`` / ``Both answers are the
same`` first), the groups of a two-group design 1 and 2, a unary option's tick box 1
(ticked) and 2 (not ticked).
"""

from __future__ import annotations

from dataclasses import dataclass

from dpdesk.errors import DesignError
from dpdesk.mechanisms.rr.wording import LANGUAGES  # noqa: F401 - the languages dpdesk writes
from dpdesk.project.languages.platform import NO_RANDOMIZER, how_to_draw
from dpdesk.project.languages.versions import VERSIONED, b_line, split_card, version_design

#: Designs where the respondent considers two questions: the sensitive one (A) and a harmless one (B).
TWO_QUESTIONS = ("crosswise", "ecwm", "triangular", "unrelated", "unrelated_unknown")
#: What XLSForm and the app call a language (``label::German (de)``).
LANGUAGE_NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "nl": "Dutch",
                  "it": "Italian", "pt": "Portuguese"}

WHY_PRIVATE = (
    "Why your answer is private: the survey never sees your coin, die or birthday, only the answer "
    "you tick, and that answer can come from the randomizer instead of the truth. Nobody, not the "
    "researchers and not the survey website, can tell from it what is true for you."
)
OWN_RANDOMIZER = (
    "Use your own randomizer, out of sight of anyone else (for example a coin you toss or a die you "
    "roll at home); never use one on this website, and never type its result here."
)
#: Interviews: the interviewer hands the randomizer over and never sees its result.
INTERVIEW_RANDOMIZER = (
    "Use the randomizer the interviewer gives you, out of the interviewer's sight, and never say its "
    "result aloud: only your answer is recorded."
)
#: The crosswise and triangular formats have no randomizer: question B's answer is the secret.
WHY_PRIVATE_TWO = (
    "Why your answer is private: you never say your answer to either question, only whether they are "
    "the same (or whether at least one is 'yes'), and only you know your answer to question B. Nobody, "
    "not the researchers and not the survey, can tell from it what is true for you."
)
WHY_PRIVATE_INTERVIEW = (
    "Why your answer is private: the interviewer never sees your randomizer, only the answer you give, "
    "and that answer can come from the randomizer instead of the truth. Nobody, not the interviewer and "
    "not the researchers, can tell from it what is true for you."
)
MODES = ("online", "interview")
GROUP_QUESTION = "On which day of the month is your birthday?"
GROUP_OPTIONS = ((1, "An odd day (1, 3, 5 ... 31): group 1"), (2, "An even day (2, 4, 6 ... 30): group 2"))
GROUP_NOTE = ("Your group only decides which of the two sets of instructions below you follow; "
              "it says nothing about your answer.")
#: The extended crosswise model: what the answer question says of question B (the version's page asks it),
#: and the name of the recorded version, per language.
B_ABOVE = {"en": "your question B, shown above", "de": "Ihre Frage B (siehe oben)", "fr": "votre question B (ci-dessus)",
           "es": "su pregunta B (arriba)", "nl": "uw vraag B (hierboven)", "it": "la Sua domanda B (qui sopra)",
           "pt": "a sua pergunta B (acima)"}
VERSION_FIELD = {"en": "Version of question B (drawn by the survey platform)",
                 "de": "Version der Frage B (von der Umfrageplattform gezogen)",
                 "fr": "Version de la question B (tirée par la plateforme)",
                 "es": "Versión de la pregunta B (sorteada por la plataforma)",
                 "nl": "Versie van vraag B (getrokken door het platform)",
                 "it": "Versione della domanda B (estratta dalla piattaforma)",
                 "pt": "Versão da pergunta B (sorteada pela plataforma)"}
#: The codes of a unary option's tick box: 1 and 2, as every platform numbers two choices (a
#: Qualtrics export without recode values gives the choice number, which then is the code).
TICKED, NOT_TICKED = 1, 2


@dataclass(frozen=True)
class RespondentText:
    """One item's respondent text in one language, with the codes the platform stores.

    ``options``: ``(code, label)`` of each answer, in card order; ``responses``: the design's
    response key of each option (same order). Two-group designs have ``group_question`` and
    ``group_options``; unary designs have ``tick_options`` (``(category, label)``: one tick
    box each, answered ``tick_labels``, coded ``TICKED`` and ``NOT_TICKED``) instead of ``options``.
    """

    language: str
    question: str
    question_b: str
    instructions: str
    options: tuple[tuple[int, str], ...] = ()
    responses: tuple[str, ...] = ()
    group_question: str = ""
    group_options: tuple[tuple[int, str], ...] = ()
    tick_options: tuple[tuple[str, str], ...] = ()
    why_private: str = WHY_PRIVATE
    missing: tuple[str, ...] = ()  # what the researcher must still write before fielding
    tick_labels: tuple[str, str] = ("Ticked", "Not ticked")  # a unary option's two answers
    #: The extended crosswise model: ``(question B, instructions)`` of version 1 and of version 2. Each
    #: respondent reads one version, drawn by the platform and recorded (the version is their group);
    #: ``question_b`` and ``instructions`` are version 1's.
    versions: tuple[tuple[str, str], ...] = ()

    @property
    def full_instructions(self) -> str:
        """The instructions as the online page shows them (with why the answer is private)."""
        return "\n\n".join(p for p in (self.instructions, self.why_private) if p)

    def version_instructions(self, version: int) -> str:
        """One version's page text: its instructions, its question B, why the answer is private."""
        b, body = self.versions[version - 1]
        return "\n\n".join(p for p in (body, f"B: {b}", self.why_private) if p)


def card_order(design) -> list[int]:
    """Indices of ``design.responses`` in the order the card prints them ("Yes" first)."""
    order = list(range(len(design.responses)))
    if design.is_binary and list(design.responses) == ["no", "yes"]:
        order.reverse()
    return order


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise DesignError(f"dpdesk has no respondent text in language {language!r} yet; "
                          f"available: {', '.join(LANGUAGES)}. Field the instrument in English.")
    return language


def respondent_text(project, item_name: str, language: str = "en", mode: str = "online") -> RespondentText:
    """The respondent text of item ``item_name`` of ``project`` in ``language``.

    ``mode`` is ``"online"`` (respondents fill it in themselves) or ``"interview"`` (an
    interviewer reads it and hands over the randomizer); it changes who must never see the
    randomizer.
    """
    from dpdesk.project.fielding.store import item_text

    check_language(language)
    if mode not in MODES:
        raise DesignError(f"Unknown mode {mode!r}: use one of {', '.join(MODES)}.")
    if language != "en":
        from dpdesk.project.languages import platform_text

        return RespondentText(language, **platform_text(project, item_name, language, mode))
    item = project.item(item_name)
    return text_of(item, item_text(project, item_name, "question_b", language), language, mode,
                   item_text(project, item_name, "question_b2", language))


def text_of(item, question_b: str = "", language: str = "en", mode: str = "online",
            question_b2: str = "") -> RespondentText:
    """:func:`respondent_text` for an item record and its question B (``question_b2``: version 2's, ECWM)."""
    d = item.design
    missing = []
    question = (item.question or "").strip()
    if not question:
        missing.append("question")
        question = f"[write the question of item {item.name} here]"
    b = ""
    if d.name in TWO_QUESTIONS:
        b = question_b.strip() or _question_b_from(item.instructions)
        if not b:
            missing.append("question B (the harmless question)" if d.name not in VERSIONED
                           else "question B of version 1 (the harmless question)")
            b = _b_placeholder(d)
    randomizer = INTERVIEW_RANDOMIZER if mode == "interview" else OWN_RANDOMIZER
    instructions = _instructions(item, d, randomizer)
    versions = ()
    if d.name in VERSIONED:  # each version: a crosswise card with its own question B
        halves = split_card(item.instructions)
        b2 = question_b2.strip() or b_line(halves[1])
        if not b2:
            missing.append("question B of version 2 (the harmless question)")
            b2 = _b_placeholder(version_design(d, 2))
        versions = tuple((qb, _instructions(item, version_design(d, v), randomizer, half))
                         for v, qb, half in ((1, b, halves[0]), (2, b2, halves[1])))
        instructions = versions[0][1]
    why = (WHY_PRIVATE_TWO if d.name in ("crosswise", "ecwm", "triangular")
           else WHY_PRIVATE_INTERVIEW if mode == "interview" else WHY_PRIVATE)
    extra = {"missing": tuple(missing), "versions": versions}
    if d.model == "unary":
        return RespondentText(language, question, b, instructions,
                              tick_options=tuple((c, c) for c in d.categories), why_private=why, **extra)
    order = card_order(d)
    options = tuple((i + 1, d.response_labels[j]) for i, j in enumerate(order))
    responses = tuple(d.responses[j] for j in order)
    if d.groups == 2 and not versions:  # the extended crosswise model's group is its version: no question
        return RespondentText(language, question, b, instructions, options, responses,
                              GROUP_QUESTION, GROUP_OPTIONS, why_private=why, **extra)
    return RespondentText(language, question, b, instructions, options, responses, why_private=why, **extra)


def _question_b_from(instructions: str) -> str:
    return next((line[2:].strip() for line in (instructions or "").splitlines() if line.startswith("B:")), "")


def _b_placeholder(design) -> str:
    share = design.params.get("p", design.params.get("q"))
    about = f" that about {100 * share:.0f}% of people answer 'yes'" if isinstance(share, float) else ""
    return f"[write the harmless question{about} here]"


def _instructions(item, design, randomizer: str, card: str | None = None) -> str:
    """The researcher's edited instructions (``card``, else the item's) without the question and answer
    lines, else the design's."""
    edited = [p.strip() for p in (item.instructions if card is None else card or "").split("\n\n") if p.strip()]
    kept = [p for p in edited if not p.startswith(("A:", "Answer (tick", "Options (tick", "Nobody, including"))
            and p != (item.question or "").strip()]
    kept = [p[len("How to answer: "):] if p.startswith("How to answer: ") else p for p in kept]
    body = "\n\n".join(kept) if kept else design.describe()
    if design.groups == 2:
        body = f"{GROUP_NOTE}\n\n{body}"
    if design.name in NO_RANDOMIZER:
        return body  # no randomizer: question B's answer is the respondent's secret
    if not kept:  # the researcher's own words say how to draw; else the kept randomizer must (refused without one)
        body = f"{body}\n\n{how_to_draw(item, 'en')}"
    return f"{body}\n\n{randomizer}"


def language_name(language: str) -> str:
    """``"English (en)"``: how XLSForm and the app name a language."""
    return f"{LANGUAGE_NAMES.get(language, language)} ({language})"
