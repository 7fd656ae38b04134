"""Physical randomizers (coins, a die, cards, birthdays) turned into design probabilities.

Each helper works in exact fractions and returns something :func:`rr.design` takes:

* :class:`DesignParams` — a ``dict`` of float parameters for a named design (so
  ``rr.design(p.design, **p)`` builds it) that also carries ``exact`` (the same
  parameters as :class:`fractions.Fraction`) and ``description`` (plain words);
* :class:`Probability` — a ``float`` (usable as ``p`` or ``q`` of Warner, crosswise,
  unrelated-question designs) that also carries ``exact`` and ``description``.

>>> forced_from_die(truth=[1, 2, 3, 4], yes=[5], no=[6])
{'p_truth': 0.6666666666666666, 'p_yes': 0.16666666666666666, 'p_no': 0.16666666666666666}
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Iterable, NamedTuple

from dpdesk.errors import DesignError

__all__ = [
    "DesignParams",
    "Probability",
    "birth_month",
    "birthday_range",
    "cards",
    "coins",
    "dice_sum",
    "dice_sum_ways",
    "die",
    "forced_from_die",
    "forced_multi_die",
    "kuk_cards",
    "nearest_forced_multi_die",
]

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
#: Mean Gregorian month lengths: February has 28 + 97/400 days (97 leap years in 400).
MONTH_DAYS = (31, Fraction(28 * 400 + 97, 400), 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
YEAR_DAYS = sum(MONTH_DAYS, Fraction(0))  # 365.2425 = 146097 / 400

SEASONALITY_NOTE = (
    "This assumes birthdays spread evenly over the calendar. Real births are not uniform: they vary "
    "by season and country by a few percent, so the true share differs slightly from the calendar share. "
    "Use national birth statistics if the exact probability matters."
)


class DesignParams(dict):
    """Float design parameters for ``rr.design(design, **params)``, with exact values and words.

    ``description`` is for the researcher (exact probabilities); ``respondent`` says what the
    respondent does on each outcome, for the card (empty where the helper has no such words).
    """

    def __init__(self, design: str, exact: dict[str, Any], description: str, respondent: str = ""):
        super().__init__({k: _floats(v) for k, v in exact.items()})
        self.design = design
        self.exact = dict(exact)
        self.description = description
        self.respondent = respondent
        self.randomizer: dict | None = None  # the device (coins, die, cards, dice_sum), kept with the item

    def build(self):
        """The design itself: ``rr.design(self.design, **self)``."""
        from dpdesk.mechanisms.rr.design import design

        return design(self.design, **self)


def _floats(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_floats(v) for v in value]
    return value if isinstance(value, str) else float(value)


class Probability(float):
    """A probability (a float) with its exact fraction, a plain description for the researcher
    and, for an innocuous question, the ``question`` as respondents read it."""

    exact: Fraction
    description: str
    question: str

    def __new__(cls, exact: Fraction, description: str, question: str = ""):
        obj = super().__new__(cls, float(exact))
        obj.exact = Fraction(exact)
        obj.description = description
        obj.question = question
        return obj


def _fmt(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{x.numerator}/{x.denominator} ({float(x):.4g})"


def _forced(exact_truth: Fraction, exact_yes: Fraction, exact_no: Fraction, device: str,
            respondent: str = "") -> DesignParams:
    text = (f"{device} Probabilities: answer truthfully {_fmt(exact_truth)}, say 'yes' {_fmt(exact_yes)}, "
            f"say 'no' {_fmt(exact_no)}.")
    return DesignParams("forced", {"p_truth": exact_truth, "p_yes": exact_yes, "p_no": exact_no}, text, respondent)


def faces_text(faces) -> str:
    """[1, 2, 3] -> '1, 2 or 3'; [5] -> '5'; [1, 2, 3, 4, 5, 6, 7, 8] -> '1 to 8'."""
    faces = sorted(int(f) for f in faces)
    if len(faces) > 4 and faces == list(range(faces[0], faces[-1] + 1)):
        return f"{faces[0]} to {faces[-1]}"
    shown = [str(f) for f in faces]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


_DIE_DOES = {"truth": "answer the question truthfully", "yes": "answer 'yes'", "no": "answer 'no'"}


# ----------------------------------------------------------------------------- coins


def coins(tosses: int = 2, *, truth: Iterable[str] = ("H",), yes: Iterable[str] = ("TH",),
          no: Iterable[str] = ("TT",)) -> DesignParams:
    """Forced response with fair coins: outcomes are H/T strings, a prefix covers all its endings.

    The default is the classic coin design: first coin heads -> answer truthfully;
    tails -> toss again, heads -> say 'yes', tails -> say 'no': (1/2, 1/4, 1/4). Every
    outcome of ``tosses`` coins must get exactly one instruction.
    """
    if isinstance(tosses, bool) or not isinstance(tosses, int) or not 1 <= tosses <= 10:
        raise DesignError(f"tosses = {tosses!r} must be a whole number of coins from 1 to 10.")
    outcomes = ["".join(o) for o in itertools.product("HT", repeat=tosses)]
    share = {}
    for label, patterns in (("truth", truth), ("yes", yes), ("no", no)):
        patterns = [patterns] if isinstance(patterns, str) else list(patterns)
        for pat in patterns:
            pat = str(pat).upper()
            if not pat or len(pat) > tosses or set(pat) - {"H", "T"}:
                raise DesignError(
                    f"Coin outcome {pat!r} (for {label!r}) must be 1 to {tosses} letters H or T, e.g. 'H' or 'TH'."
                )
            for o in outcomes:
                if o.startswith(pat):
                    if o in share and share[o] != label:
                        raise DesignError(f"Coin outcome {o} is given two instructions: {share[o]!r} and {label!r}.")
                    share[o] = label
    missing = [o for o in outcomes if o not in share]
    if missing:
        raise DesignError(f"Coin outcome {missing[0]} has no instruction; give every outcome truth, yes or no.")
    each = Fraction(1, 2 ** tosses)
    p = {lab: each * sum(1 for v in share.values() if v == lab) for lab in ("truth", "yes", "no")}
    if p["truth"] == 0:
        raise DesignError("No coin outcome asks for the truth; the survey would learn nothing.")
    out = _forced(p["truth"], p["yes"], p["no"], f"Toss {tosses} fair coin{'s' if tosses > 1 else ''}.")
    out.randomizer = {"kind": "coins", "tosses": tosses, **{k: [str(x).upper() for x in ([v] if isinstance(v, str) else v)]
                                                            for k, v in (("truth", truth), ("yes", yes), ("no", no))}}
    return out


# ----------------------------------------------------------------------------- die


def _faces(value: Any, sides: int, label: str) -> list[int]:
    try:
        faces = [int(f) for f in value]
    except (TypeError, ValueError):
        raise DesignError(f"{label} = {value!r} must be a list of die faces, e.g. [5] or [1, 2, 3, 4].") from None
    bad = [f for f in faces if not 1 <= f <= sides]
    if bad:
        raise DesignError(f"Face {bad[0]} (for {label}) is not on a {sides}-sided die (faces 1 to {sides}).")
    return faces


def die(faces_truth: Any, faces_yes: Any, faces_no: Any, sides: int = 6) -> DesignParams:
    """Forced response with a fair die: numbers of faces, or lists of faces, for each instruction.

    ``die(4, 1, 1)`` and ``die([1, 2, 3, 4], [5], [6])`` both give (4/6, 1/6, 1/6). All
    ``sides`` faces must have an instruction (a "roll again" face would change the
    probabilities; leave it out of the design instead).
    """
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 2:
        raise DesignError(f"sides = {sides!r} must be a whole number of faces, at least 2.")
    groups = {"truth": faces_truth, "yes": faces_yes, "no": faces_no}
    if all(isinstance(v, int) and not isinstance(v, bool) for v in groups.values()):
        counts = dict(groups)
        if any(v < 0 for v in counts.values()) or sum(counts.values()) != sides:
            shown = ", ".join(f"{v} for {k}" for k, v in counts.items())
            if any(v < 0 for v in counts.values()):
                raise DesignError(f"The faces given to each instruction ({shown}) include a negative number, but "
                                  f"an instruction can have no fewer than 0 faces. Use 0 or more for each.")
            raise DesignError(
                f"The faces given to each instruction ({shown}) add up to {sum(counts.values())}, but the die has "
                f"{sides} sides and every face needs exactly one instruction. Change the numbers so they add "
                f"up to {sides}."
            )
        words = f"Roll a fair {sides}-sided die."
    else:
        lists = {k: _faces([v] if isinstance(v, int) else v, sides, f"faces_{k}") for k, v in groups.items()}
        seen: dict[int, str] = {}
        for k, faces in lists.items():
            for f in faces:
                if f in seen:
                    raise DesignError(f"Face {f} is given two instructions: {seen[f]!r} and {k!r}.")
                seen[f] = k
        missing = [f for f in range(1, sides + 1) if f not in seen]
        if missing:
            raise DesignError(f"Face {missing[0]} of the {sides}-sided die has no instruction (truth, yes or no).")
        counts = {k: len(v) for k, v in lists.items()}
        parts = [f"{'/'.join(map(str, sorted(lists[k])))} -> {k}" for k in ("truth", "yes", "no") if lists[k]]
        words = f"Roll a fair {sides}-sided die ({'; '.join(parts)})."
    if counts["truth"] == 0:
        raise DesignError("No die face asks for the truth; the survey would learn nothing.")
    if "lists" not in locals():  # counts only: the faces in order, truth first
        start, lists = 1, {}
        for k in ("truth", "yes", "no"):
            lists[k] = list(range(start, start + counts[k]))
            start += counts[k]
    respondent = f"Roll a fair {sides}-sided die privately, where nobody can see it. " + " ".join(
        f"If it shows {faces_text(lists[k])}, {_DIE_DOES[k]}." for k in ("truth", "yes", "no") if lists[k])
    out = _forced(Fraction(counts["truth"], sides), Fraction(counts["yes"], sides), Fraction(counts["no"], sides),
                  words, respondent)
    out.randomizer = {"kind": "die", "sides": sides, **{k: sorted(lists[k]) for k in ("truth", "yes", "no")}}
    return out


def forced_from_die(truth: Any = (1, 2, 3, 4), yes: Any = (5,), no: Any = (6,), sides: int = 6) -> DesignParams:
    """Forced-response parameters from die faces: ``forced_from_die([1, 2, 3, 4], [5], [6])``."""
    return die(truth, yes, no, sides=sides)


def dice_sum_ways(dice: int, sides: int) -> dict[int, int]:
    """In how many of the ``sides ** dice`` equally likely rolls each total comes up.

    The number of ways ``n`` fair dice with faces 1..s add up to ``t`` is the coefficient of
    x^t in (x + x^2 + ... + x^s)^n (de Moivre 1711; Feller 1968, *An Introduction to
    Probability Theory and Its Applications*, vol. 1, ch. XI), computed here exactly by
    convolving the whole-number counts one die at a time. Two dice: 1, 2, 3, 4, 5, 6, 5, 4, 3,
    2, 1 ways for the totals 2 to 12, out of 36.
    """
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for total, count in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + count
        ways = nxt
    return ways


def _number_words(n: int) -> str:
    return {2: "both", 3: "all three", 4: "all four"}.get(n, f"all {n}")


def dice_sum(dice: int = 2, sides: int = 6, *, yes: Iterable[int] = (), no: Iterable[int] = (),
             truth: Iterable[int] | None = None) -> DesignParams:
    """Forced response with several fair dice whose faces are added up.

    Totals in ``yes`` mean "say 'yes'", totals in ``no`` mean "say 'no'", and every other total
    (or the totals in ``truth``, which must then cover the rest) means "answer truthfully".
    The probabilities are exact fractions from :func:`dice_sum_ways`. The classic two-dice
    design (Boruch 1971; Fox & Tracy 1986) is ``dice_sum(2, 6, yes=[2, 3, 4], no=[11, 12])``:
    truthful 27/36, 'yes' 6/36, 'no' 3/36. ``.randomizer`` records the dice for the project.
    """
    for value, label, low, high in ((dice, "number of dice", 1, 10), (sides, "number of sides", 2, 100)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise DesignError(f"The {label} is {value!r}, but it must be a whole number from {low} to {high}.")
    low, high = dice, dice * sides
    groups: dict[str, list[int]] = {}
    for label, totals in (("yes", yes), ("no", no), ("truth", truth)):
        if totals is None:
            continue
        try:
            values = sorted({int(t) for t in ([totals] if isinstance(totals, int) else totals)})
        except (TypeError, ValueError):
            raise DesignError(f"The totals for '{label}' ({totals!r}) must be whole numbers, "
                              f"for example [2, 3, 4].") from None
        bad = [t for t in values if not low <= t <= high]
        if bad:
            raise DesignError(f"{dice} dice with {sides} sides cannot add up to {bad[0]}: the totals run from "
                              f"{low} to {high}. Choose totals in that range.")
        groups[label] = values
    seen: dict[int, str] = {}
    for label, values in groups.items():
        for t in values:
            if t in seen:
                raise DesignError(f"The total {t} is given two instructions, '{seen[t]}' and '{label}'. "
                                  f"Give each total one instruction.")
            seen[t] = label
    rest = [t for t in range(low, high + 1) if t not in seen]
    if truth is None:
        groups["truth"] = rest
    elif rest:
        raise DesignError(f"The total {rest[0]} has no instruction. Say for every total whether to answer "
                          f"truthfully, say 'yes' or say 'no'.")
    if not groups["truth"]:
        raise DesignError("No total asks for the truth, so the survey would learn nothing. "
                          "Leave some totals for answering truthfully.")
    ways = dice_sum_ways(dice, sides)
    outcomes = sides ** dice
    p = {k: Fraction(sum(ways[t] for t in groups.get(k, [])), outcomes) for k in ("truth", "yes", "no")}
    what = f"a fair {sides}-sided die" if dice == 1 else f"{dice} fair {sides}-sided dice and add them up"
    roll = (f"Roll a fair {sides}-sided die privately, where nobody can see it." if dice == 1 else
            f"Roll {_number_words(dice)} dice privately, where nobody can see them, and add them up.")
    shows = "it shows" if dice == 1 else "the total is"
    respondent = roll + " " + " ".join(
        f"If {shows} {faces_text(groups[k])}, {_DIE_DOES[k]}." for k in ("yes", "no", "truth") if groups.get(k))
    shares = "; ".join(f"{faces_text(groups[k])} -> {k} ({sum(ways[t] for t in groups[k])} of {outcomes} rolls)"
                       for k in ("truth", "yes", "no") if groups.get(k))
    words = f"Roll {what} ({shares})."
    out = _forced(p["truth"], p["yes"], p["no"], words, respondent)
    out.randomizer = {"kind": "dice_sum", "dice": dice, "sides": sides, "yes": groups.get("yes", []),
                      "no": groups.get("no", [])}
    return out


#: Dice a respondent can buy: the nearest achievable design is looked for among these.
COMMON_DICE = (4, 6, 8, 10, 12, 20)


class DieLayout(NamedTuple):
    """Forced response with categories on one die: ``truth`` faces, then ``each`` face(s) per category."""

    sides: int
    truth: int
    each: int

    @property
    def p_truth(self) -> Fraction:
        return Fraction(self.truth, self.sides)

    @property
    def p_each(self) -> Fraction:
        return Fraction(self.each, self.sides)

    def describe(self, n_categories: int) -> str:
        return (f"a {self.sides}-sided die: {self.truth} face{'s' if self.truth > 1 else ''} for the true answer "
                f"({_pct(self.p_truth)}) and {self.each} face{'s' if self.each > 1 else ''} for each of the "
                f"{n_categories} categories ({_pct(self.p_each)} each)")


def _pct(x: Fraction) -> str:
    v = 100 * float(x)
    return f"{v:.0f}%" if abs(v - round(v)) < 1e-9 else f"{v:.1f}%"


def nearest_forced_multi_die(p_truth: Any, n_categories: int, sides: int = 6,
                             dice: Iterable[int] = COMMON_DICE) -> DieLayout:
    """The achievable die design nearest to ``p_truth`` for ``n_categories`` equal forced shares.

    On a fair die each category must get the same whole number of faces, so the faces
    left after the truth faces must split evenly: ``(sides - truth) % n_categories == 0``
    with at least one face each. Two faces cannot give 8.3% to each of four categories.
    Candidates are the dice ``dice`` and the die asked for (``sides``); the nearest
    ``truth / sides`` wins, then the die asked for, then the smaller die. A pure function.
    """
    target = Fraction(str(p_truth)) if isinstance(p_truth, float) else Fraction(p_truth)
    k = int(n_categories)
    if k < 2:
        raise DesignError(f"n_categories = {n_categories!r} must be at least 2.")
    best = None
    for s in sorted(set(dice) | {int(sides)}):
        for t in range(1, s):
            if (s - t) % k or s - t < k:
                continue
            key = (abs(Fraction(t, s) - target), s != sides, s)
            if best is None or key < best[0]:
                best = (key, DieLayout(s, t, (s - t) // k))
    if best is None:
        raise DesignError(f"No die up to {max(set(dice) | {int(sides)})} sides can give {k} categories a face each "
                          f"and keep a face for the true answer. Use exact probabilities (a random-number app).")
    return best[1]


def forced_multi_die(truth_faces: int, categories: Iterable[Any], sides: int = 6) -> DesignParams:
    """Forced response with categories on a fair die: faces 1..``truth_faces`` give the true
    answer, the remaining faces are shared equally among the categories, in order.

    Refused (:class:`DesignError`, naming the nearest achievable design from
    :func:`nearest_forced_multi_die`) when the remaining faces do not split evenly.
    """
    cats = [str(c) for c in categories]
    k = len(cats)
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 2:
        raise DesignError(f"sides = {sides!r} must be a whole number of faces, at least 2.")
    if isinstance(truth_faces, bool) or not isinstance(truth_faces, int) or not 1 <= truth_faces < sides:
        raise DesignError(f"truth_faces = {truth_faces!r} must be from 1 to {sides - 1} of the {sides} faces.")
    if k < 2:
        raise DesignError("Give at least two categories.")
    rest = sides - truth_faces
    if rest % k or rest < k:
        near = nearest_forced_multi_die(Fraction(truth_faces, sides), k, sides)
        raise DesignError(
            f"A fair {sides}-sided die cannot give each of the {k} categories the same share: the {rest} "
            f"face{'s' if rest != 1 else ''} left after the {truth_faces} for the true answer "
            f"{'do' if rest != 1 else 'does'} not split into {k} equal parts "
            f"({_pct(Fraction(rest, sides * k))} each would need part of a face). Nearest achievable: "
            f"{near.describe(k)}.")
    each = rest // k
    truth = list(range(1, truth_faces + 1))
    faces = {c: list(range(truth_faces + 1 + i * each, truth_faces + 1 + (i + 1) * each)) for i, c in enumerate(cats)}
    respondent = (f"Roll a fair {sides}-sided die privately, where nobody can see it. If it shows "
                  f"{faces_text(truth)}, give your true answer. "
                  + " ".join(f"If it shows {faces_text(f)}, answer '{c}'." for c, f in faces.items()))
    exact = {"p_truth": Fraction(truth_faces, sides), "p_forced": [Fraction(each, sides)] * k, "categories": cats}
    text = (f"Roll a fair {sides}-sided die. Probabilities: true answer {_fmt(Fraction(truth_faces, sides))}, "
            f"each category {_fmt(Fraction(each, sides))}.")
    out = DesignParams("forced_multi", exact, text, respondent)
    out.randomizer = {"kind": "die", "sides": sides, "truth": truth, "forced": list(faces.values()), "categories": cats}
    return out


# ----------------------------------------------------------------------------- cards


def _card_count(value: Any, label: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DesignError(f"{label} = {value!r} must be a whole number of cards, at least 0.")
    return value


def cards(truth: int, yes: int, no: int) -> DesignParams:
    """Forced response with a shuffled deck: numbers of cards saying 'truth', 'yes', 'no'.

    ``cards(truth=40, yes=10, no=10)`` gives (2/3, 1/6, 1/6). The respondent draws one
    card and puts it back.
    """
    t, y, n = (_card_count(v, k) for v, k in ((truth, "truth"), (yes, "yes"), (no, "no")))
    if t == 0:
        raise DesignError("No card asks for the truth; the survey would learn nothing.")
    total = t + y + n
    respondent = (f"Draw one card privately from the shuffled deck of {total} cards and put it back. "
                  + " ".join(f"If it says '{label}', {does}." for label, count, does in (
                      ("answer truthfully", t, "answer the question truthfully"), ("say yes", y, "answer 'yes'"),
                      ("say no", n, "answer 'no'")) if count))
    out = _forced(Fraction(t, total), Fraction(y, total), Fraction(n, total),
                  f"Draw one card from a deck of {total} ({t} 'answer truthfully', {y} 'say yes', {n} 'say no').",
                  respondent)
    out.randomizer = {"kind": "cards", "truth": t, "yes": y, "no": n}
    return out


def kuk_cards(deck1: tuple[int, int], deck2: tuple[int, int]) -> DesignParams:
    """Kuk's card design from two decks given as (red, black) counts.

    Carriers draw from deck 1, non-carriers from deck 2, and report the colour:
    ``p1`` and ``p2`` are the shares of red cards (RRreg's Kuk parameters).
    """
    shares = []
    for name, deck in (("deck1", deck1), ("deck2", deck2)):
        try:
            red, black = deck
        except (TypeError, ValueError):
            raise DesignError(f"{name} = {deck!r} must be a pair (red cards, black cards), e.g. (8, 2).") from None
        red, black = _card_count(red, f"{name} red"), _card_count(black, f"{name} black")
        if red + black == 0:
            raise DesignError(f"{name} has no cards.")
        shares.append(Fraction(red, red + black))
    text = (f"Carriers draw from deck 1 (red share {_fmt(shares[0])}), non-carriers from deck 2 "
            f"(red share {_fmt(shares[1])}); the respondent names the colour.")
    return DesignParams("kuk", {"p1": shares[0], "p2": shares[1]}, text)


# ----------------------------------------------------------------------------- birthdays


def _month(m: Any) -> int:
    if isinstance(m, str):
        key = m.strip().lower()
        for i, name in enumerate(MONTHS):
            if key in (name.lower(), name.lower()[:3]):
                return i + 1
    if isinstance(m, int) and not isinstance(m, bool) and 1 <= m <= 12:
        return m
    raise DesignError(f"Month {m!r} must be a number 1-12 or a month name such as 'March'.")


def _or_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def birth_month(months: Iterable[Any], whose: str = "your mother's") -> Probability:
    """Share of the year covered by whole birth months (365.2425-day year).

    ``birth_month([1, 2, 3])`` is ``(31 + 28.2425 + 31) / 365.2425 = 0.2471``. A common
    innocuous question for crosswise and unrelated-question designs; ``.question`` asks it
    as respondents read it ("Is your mother's birthday in January, February or March?",
    Jann, Jerke & Krumpal 2012), ``.description`` is the researcher's note (the exact share
    and the seasonality caveat), never for the card.
    """
    ms = sorted({_month(m) for m in ([months] if isinstance(months, (str, int)) else months)})
    if not ms:
        raise DesignError("months is empty; name at least one birth month.")
    share = sum((MONTH_DAYS[m - 1] for m in ms), Fraction(0)) / YEAR_DAYS
    names = ", ".join(MONTHS[m - 1] for m in ms)
    question = f"Is {whose} birthday in {_or_list([MONTHS[m - 1] for m in ms])}?"
    return Probability(share, f"Birthday in {names}: {_fmt(share)} of the year. {SEASONALITY_NOTE}", question)


def _day(value: Any, label: str) -> tuple[int, int]:
    if hasattr(value, "month") and hasattr(value, "day"):  # datetime.date
        value = (int(value.month), int(value.day))
    if isinstance(value, str):
        try:
            m, d = (int(x) for x in value.replace("/", "-").split("-"))
        except ValueError:
            raise DesignError(f"{label} = {value!r} must be 'MM-DD', e.g. '03-21', or a pair (month, day).") from None
    else:
        try:
            m, d = value
        except (TypeError, ValueError):
            raise DesignError(f"{label} = {value!r} must be a pair (month, day) or 'MM-DD'.") from None
        m = _month(m)
    if not (1 <= m <= 12) or not (1 <= d <= (29 if m == 2 else int(MONTH_DAYS[m - 1]))):
        raise DesignError(f"{label} = {value!r} is not a calendar day.")
    return m, d


def _day_weight(m: int, d: int) -> Fraction:
    return Fraction(97, 400) if (m, d) == (2, 29) else Fraction(1)


def birthday_range(start: Any, end: Any) -> Probability:
    """Share of the year from ``start`` to ``end`` inclusive, wrapping over New Year.

    ``start`` and ``end`` are (month, day) pairs, ``'MM-DD'`` strings or dates (the year is
    ignored).

    Days of a 365.2425-day year: every day counts 1 except 29 February, which counts
    97/400. ``birthday_range((12, 1), (1, 31))`` is December and January.
    """
    sm, sd = _day(start, "start")
    em, ed = _day(end, "end")
    days = [(m, d) for m in range(1, 13) for d in range(1, (29 if m == 2 else int(MONTH_DAYS[m - 1])) + 1)]
    i, j = days.index((sm, sd)), days.index((em, ed))
    chosen = days[i:j + 1] if i <= j else days[i:] + days[:j + 1]
    share = sum((_day_weight(m, d) for m, d in chosen), Fraction(0)) / YEAR_DAYS
    text = (f"Birthday from {MONTHS[sm - 1]} {sd} to {MONTHS[em - 1]} {ed}: {_fmt(share)} of the year. "
            f"{SEASONALITY_NOTE}")
    question = f"Is your mother's birthday between {sd} {MONTHS[sm - 1]} and {ed} {MONTHS[em - 1]}?"
    return Probability(share, text, question)
