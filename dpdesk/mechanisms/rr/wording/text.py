"""The renderer: a design's respondent text in one language, from that language's templates."""

from __future__ import annotations

import importlib
from types import ModuleType

from dpdesk.errors import DesignError

from dpdesk.mechanisms.rr.wording import english as wording

#: Language code -> the language's own name, in the order the app offers them.
LANGUAGES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "nl": "Nederlands",
             "it": "Italiano", "pt": "Português"}

#: The languages' names in English (for the methods paragraph, which is written in English).
ENGLISH_NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "nl": "Dutch", "it": "Italian",
                 "pt": "Portuguese"}

#: Designs where the respondent considers two questions: the sensitive one (A) and a harmless one (B).
TWO_QUESTIONS = ("crosswise", "ecwm", "triangular", "unrelated", "unrelated_unknown")


def check_language(language: str) -> str:
    """``language`` if dpdesk has templates for it, else a :class:`DesignError` naming those it has."""
    if language not in LANGUAGES:
        raise DesignError(f"dpdesk has no respondent text in language {language!r}. Languages with templates: "
                          f"{', '.join(f'{k} ({v})' for k, v in LANGUAGES.items())}.")
    return language


def language_name(language: str) -> str:
    """``"Deutsch (de)"``."""
    return f"{LANGUAGES.get(language, language)} ({language})"


def _module(language: str) -> ModuleType:
    return importlib.import_module(f"dpdesk.mechanisms.rr.wording.{check_language(language)}")


class _Pct(str):
    """A percentage as text; a format spec (``{p:del}`` in Italian) asks the language for an article."""

    articles: dict = {}

    def __format__(self, spec: str) -> str:
        return self.articles[spec](str(self)) if spec else str(self)


def pct(p: float, language: str = "en") -> str:
    """0.25 -> '25%' (en), '25 %' (de, fr, es); 1/3 -> '33.3%' (en), '33,3 %' (de)."""
    text = wording.pct(p)
    if language == "en":
        return text
    mod = _module(language)
    return mod.PERCENT.format(text[:-1].replace(".", mod.DECIMAL))


def phrase(key: str, language: str = "en", **values) -> str:
    """One template sentence of ``language`` (``"how"``, ``"nobody"``, ``"die"``, ...), filled in."""
    mod = _module(language)
    return mod.T[key].format(**values)


def _fill(mod: ModuleType, key: str, language: str, **values) -> str:
    cls = type("_P", (_Pct,), {"articles": getattr(mod, "ARTICLES", {})})
    shown = {k: cls(pct(v, language)) if isinstance(v, float) else v for k, v in values.items()}
    return mod.T[key].format(**shown)


# --------------------------------------------------------------------------- answer labels


def answer_labels(design, language: str = "en") -> tuple[tuple[str, str], ...]:
    """(card label, short label) for each of ``design.responses``, in ``language``.

    English is ``Design.response_labels`` / ``short_labels``. Category designs keep the
    researcher's category names (translate them with the item's text in that language).
    """
    if language == "en":
        return tuple(zip(design.response_labels, design.short_labels))
    mod = _module(language)
    lab = mod.LABELS
    if design.name in ("crosswise", "ecwm"):
        return lab["different"], lab["same"]
    if design.name == "triangular":
        return lab["both_no"], lab["at_least"]
    if design.name == "kuk":
        draws = int(design.params.get("draws", 1))
        if draws == 1:
            return lab["black"], lab["red"]
        return tuple((lab["red_one" if k in mod.SINGULAR else "red_many"].format(k=k),
                      lab["red_short"][0 if k in mod.SINGULAR else 1].format(k=k)) for k in range(draws + 1))
    if tuple(design.responses) == ("no", "yes") and design.model != "unary":
        return lab["no"], lab["yes"]
    words = getattr(mod, "WORDS", {})
    return tuple((words.get(r, r), words.get(r, r)) for r in design.responses) if design.name == "custom" \
        else tuple(zip(design.response_labels, design.short_labels))


def labels_in_every_language(design) -> dict[str, set[str]]:
    """Per response key, its card label and short label in every language (for matching a
    platform's answer texts, such as "Beide Antworten sind gleich", to the response)."""
    out: dict[str, set[str]] = {r: set() for r in design.responses}
    for language in LANGUAGES:
        for r, (label, short) in zip(design.responses, answer_labels(design, language)):
            out[r].update((label, short))
    return out


def card_order(design) -> list[int]:
    """Indices of ``design.responses`` in the order the card prints them ("Yes" first)."""
    order = list(range(len(design.responses)))
    if design.is_binary and list(design.responses) == ["no", "yes"]:
        order.reverse()
    return order


# --------------------------------------------------------------------------- instructions


def instructions(design, language: str = "en", categories: list[str] | None = None) -> str:
    """What the respondent does, in ``language`` (English: ``design.describe()``).

    ``categories``: the category names in this language (forced response with categories
    quotes them); by default the design's own.
    """
    cats = list(categories) if categories and len(categories) == len(design.categories) else list(design.categories)
    if language == "en":
        if design.name == "forced_multi" and cats != list(design.categories):
            return wording.forced_multi(design.params["p_truth"], design.params["p_forced"], tuple(cats))
        return design.describe()
    mod = _module(language)
    n, p = design.name, design.params
    fill = lambda key, **v: _fill(mod, key, language, **v)  # noqa: E731
    labels = dict(zip(design.responses, (lab for lab, _s in answer_labels(design, language))))
    if n == "warner":
        return fill("warner", p=p["p"], q=1 - p["p"])
    if n == "forced":
        parts = [fill("forced_start"), fill("forced_truth", p=p["p_truth"])]
        if p["p_yes"]:
            parts.append(fill("forced_yes", p=p["p_yes"]))
        if p["p_no"]:
            parts.append(fill("forced_no", p=p["p_no"]))
        return " ".join(parts + [fill("forced_end")])
    if n == "unrelated":
        return fill("unrelated", p=p["p_sensitive"], rest=1 - p["p_sensitive"], q=p["q"])
    if n in ("unrelated_unknown", "sld", "cdm"):
        return fill(n, p1=p["p1"], p2=p["p2"])
    if n == "crosswise":
        return fill("crosswise", p=p["p"], same=labels["yes"], different=labels["no"])
    if n == "ecwm":  # each version reads the crosswise instructions with its own question B
        return " / ".join(fill("crosswise", p=q, same=labels["yes"], different=labels["no"]) for q in (p["p"], 1 - p["p"]))
    if n == "triangular":
        return fill("triangular", p=p["p"], at_least=labels["yes"], both_no=labels["no"])
    if n == "mangat":
        return fill("mangat", p=p["p"], rest=1 - p["p"])
    if n == "kuk":
        draws = int(p.get("draws", 1))
        return fill("kuk", p1=p["p1"], p2=p["p2"],
                    cards=mod.T["kuk_one"] if draws == 1 else mod.T["kuk_many"].format(n=draws),
                    report=mod.T["kuk_colour"] if draws == 1 else mod.T["kuk_count"])
    if n == "forced_multi":
        rest = mod.T.get("list_sep", "; ").join(fill("forced_multi_part", p=float(f), c=c)
                                                for c, f in zip(cats, p["p_forced"]) if f > 0)
        return fill("forced_multi", t=p["p_truth"], rest=rest)
    if n == "krr":
        m = design.matrix
        return fill("krr", keep=float(m[0, 0]), other=float(m[1, 0]))
    if n == "unary":
        bit = design.matrix
        return fill("unary", p=float(bit[1, 1]), q=float(bit[1, 0]))
    if n == "custom":
        words = getattr(mod, "WORDS", {})
        m = design.matrix
        lines = [fill("custom_start")]
        for j, s in enumerate(design.states):
            parts = ", ".join(fill("custom_part", r=words.get(r, r), p=float(m[i, j]))
                              for i, r in enumerate(design.responses) if m[i, j] > 0)
            lines.append(fill("custom_line", s=words.get(s, s), parts=parts))
        return " ".join(lines)
    raise DesignError(f"dpdesk has no {LANGUAGES[language]} instructions for design {n!r} yet.")


def question_b_placeholder(design, language: str = "en") -> str:
    """The reminder to write question B, with the share of 'yes' it should have."""
    share = design.params.get("p", design.params.get("q"))
    about = ""
    if isinstance(share, float):
        whole = f"{100 * share:.0f}"
        shown = f"{whole}%" if language == "en" else _module(language).PERCENT.format(whole)
        about = _fill(_module(language), "b_about", language, p=type("_P", (_Pct,), {
            "articles": getattr(_module(language), "ARTICLES", {})})(shown))
    return phrase("b_placeholder", language, about=about)


def card_text(question: str, design, device_text: str = "", question_b: str = "", language: str = "en",
              categories: list[str] | None = None) -> str:
    """The card: the question(s), how to answer, the randomizer, the answer options, why it is private.

    ``categories`` replaces the researcher's category names where a category design is
    fielded in another language. In English this is exactly the wizard's suggested wording.
    """
    if design.name in TWO_QUESTIONS:
        b = question_b.strip() or question_b_placeholder(design, language)
        parts = [f"A: {question.strip()}\nB: {b}"]
    else:
        parts = [question.strip()]
    parts += ["", phrase("how", language) + instructions(design, language, categories)]
    if device_text:
        parts += ["", phrase("randomizer", language) + device_text]
    if design.model == "unary":
        cats = categories or list(design.categories)
        parts += ["", phrase("options_unary", language) + ", ".join(cats)]
    else:
        labels = [lab for lab, _s in answer_labels(design, language)]
        if categories and design.model == "categorical" and len(categories) == len(labels):
            labels = list(categories)
        options = [labels[i] for i in card_order(design)]
        parts += ["", phrase("answer_one", language) + "   ".join(f"[ ] {o}" for o in options)]
    parts += ["", phrase("nobody", language)]
    return "\n".join(parts)


# --------------------------------------------------------------------------- randomizers


def _faces(faces, language: str) -> str:
    faces = sorted(int(f) for f in faces)
    if len(faces) > 4 and faces == list(range(faces[0], faces[-1] + 1)):
        return phrase("to", language, a=faces[0], b=faces[-1])
    shown = [str(f) for f in faces]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + phrase("or", language) + shown[-1]


#: What a die face or a card can tell the respondent: forced response ("truth", "yes", "no") or
#: the unrelated-question design's choice of question ("a": the sensitive one, "b": the harmless one).
OUTCOMES = ("truth", "yes", "no", "a", "b")


def die_text(faces: dict[str, list[int]], sides: int, language: str = "en",
             categories: list[tuple[str, list[int]]] = ()) -> str:
    """A die: ``faces`` = ``{"truth": [1, 2, 3, 4], "yes": [5], "no": [6]}`` (forced response) or
    ``{"a": [1, 2, 3, 4], "b": [5, 6]}`` (which question); ``categories``: ``(name, faces)`` of
    forced response with categories."""
    return " ".join([phrase("die", language, sides=sides)] + [
        phrase("die_if", language, faces=_faces(faces[k], language), does=phrase(f"does_{k}", language))
        for k in OUTCOMES if faces.get(k)] + [
        phrase("die_if", language, faces=_faces(f, language), does=phrase("does_category", language, c=c))
        for c, f in categories if f])


def dice_text(dice: int, sides: int, yes, no, language: str = "en") -> str:
    """Forced response with ``dice`` dice added up: totals in ``yes`` / ``no`` force that answer, the rest truth."""
    low, high = dice, dice * sides
    truth = [t for t in range(low, high + 1) if t not in set(yes) | set(no)]
    return " ".join([phrase("dice", language, n=dice, sides=sides)] + [
        phrase("dice_if", language, faces=_faces(totals, language), does=phrase(f"does_{k}", language))
        for k, totals in (("yes", yes), ("no", no), ("truth", truth)) if totals])


def randomizer_sentence(record: dict | None, language: str = "en", categories=None) -> str:
    """What the respondent does with the randomizer kept with an item's design, in ``language``.

    ``record`` is ``{"kind": "coins", "tosses", "truth", "yes", "no"}``, ``{"kind": "die", "sides",
    "truth", "yes", "no"}`` (faces), ``{"kind": "cards", "truth", "yes", "no"}`` (counts),
    ``{"kind": "dice_sum", "dice", "sides", "yes", "no"}`` (totals) or ``{"kind": "exact"}``;
    ``""`` for none, or for ``{"kind": "birthday"}``. A die or cards choosing the question of the
    unrelated-question design have ``"a"`` and ``"b"`` (faces or counts) instead of truth/yes/no;
    a die of forced response with categories has ``"forced"``: the faces of each category, named
    ``categories`` (in ``language``; by default the record's ``"categories"``). Any record may
    have ``"birthday_months"``: question B asks for a birthday in those months
    (:func:`birthday_question`).
    """
    kind = (record or {}).get("kind")
    try:
        if kind == "coins":
            return coin_text(int(record["tosses"]), record["truth"], record["yes"], record["no"], language)
        if kind == "die":
            names = list(categories or record.get("categories") or [])
            forced = list(zip(names, record.get("forced") or []))
            if len(forced) != len(record.get("forced") or []):
                return ""
            return die_text({k: record.get(k) or [] for k in OUTCOMES}, int(record["sides"]), language, forced)
        if kind == "cards":
            truth, yes, no, a, b = (int(record.get(k) or 0) for k in OUTCOMES)
            return cards_text(truth, yes, no, language, a, b)
        if kind == "dice_sum":
            return dice_text(int(record["dice"]), int(record["sides"]), record.get("yes") or [],
                             record.get("no") or [], language)
        if kind == "exact":
            return exact_text(language)
    except (KeyError, TypeError, ValueError):
        return ""  # a damaged record: the card goes without the sentence rather than misread it
    return ""


def cards_text(truth: int, yes: int, no: int, language: str = "en", a: int = 0, b: int = 0) -> str:
    """A deck of cards marked with what to do: forced response (``truth``, ``yes``, ``no``) or
    which question to answer (``a`` the sensitive one, ``b`` the harmless one)."""
    counts = dict(zip(OUTCOMES, (truth, yes, no, a, b)))
    return " ".join([phrase("cards", language, total=sum(counts.values()))] + [
        phrase("card_if", language, label=phrase(f"card_{k}", language), does=phrase(f"does_{k}", language))
        for k, count in counts.items() if count])


def coin_text(tosses: int, truth, yes, no, language: str = "en") -> str:
    """Forced response with coins: outcome patterns as H/T strings (a prefix covers its endings)."""
    side = {"H": phrase("heads", language), "T": phrase("tails", language)}
    first = phrase("coin", language) if tosses == 1 else phrase("coins", language, n=tosses)
    out = [first]
    for k, patterns in (("truth", truth), ("yes", yes), ("no", no)):
        patterns = [patterns] if isinstance(patterns, str) else list(patterns)
        for pat in patterns:
            seq = phrase("then", language).join(side[c] for c in str(pat).upper())
            out.append(phrase("coin_all" if len(pat) == tosses else "coin_if", language, seq=seq,
                              does=phrase(f"does_{k}", language)))
    return " ".join(out)


def exact_text(language: str = "en") -> str:
    """Any private randomizer with the design's probabilities (a random-number app)."""
    return phrase("exact", language)


def birthday_question(months, language: str = "en") -> str:
    """The birthday question B: ``birthday_question([1, 2, 3], "de")`` -> 'Hat Ihre Mutter im Januar, ...'."""
    names = _module(language).MONTHS
    ms = [names[int(m) - 1] for m in sorted({int(m) for m in months})]
    joined = ms[0] if len(ms) == 1 else ", ".join(ms[:-1]) + phrase("or", language) + ms[-1]
    return phrase("birthday", language, months=joined)
