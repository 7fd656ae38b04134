"""The randomizer a respondent holds for an item made on the command line (``dpdesk item --randomizer``).

The wizard keeps the device with the design (``design_record["randomizer"]``), so every
language's instructions say how to draw it. :func:`device_for` gives the same record for a
design made with ``--design``/``--param``: ``exact`` (any private randomizer with the design's
probabilities, e.g. a random-number app, as the wizard keeps for exact probabilities) for any
design that draws, or, for forced response, the fewest fair coins, the smallest usual die (4,
6, 8, 10, 12 or 20 sides) or the smallest deck (at most 100 cards) whose outcomes give
(p_truth, p_yes, p_no) exactly: with ``n`` equally likely outcomes, ``k = p * n`` of them per
instruction, truth first (the wizard's order).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from dpdesk.errors import DesignError, in_app

#: What ``dpdesk item --randomizer`` accepts.
KINDS = ("exact", "coins", "die", "cards")
DIE_SIDES = (6, 4, 8, 10, 12, 20)
FORCED = ("p_truth", "p_yes", "p_no")


def _counts(design, outcomes: int) -> list[int] | None:
    """``k`` per instruction when every forced-response probability is ``k / outcomes`` exactly."""
    out = []
    for key in FORCED:
        f = Fraction(float(design.params[key])).limit_denominator(1000) * outcomes
        if f.denominator != 1 or abs(float(f) / outcomes - float(design.params[key])) > 1e-9:
            return None
        out.append(int(f))
    return out


def _prefixes(outcomes: list[str]) -> list[str]:
    """The shortest coin patterns covering exactly ``outcomes`` (``HH``, ``HT`` -> ``H``), as the wizard writes them."""
    out = set(outcomes)
    merged = True
    while merged:
        merged = False
        for o in sorted(out, key=len, reverse=True):
            if o and o.endswith("H") and o[:-1] + "T" in out and o[:-1]:
                out -= {o, o[:-1] + "T"}
                out.add(o[:-1])
                merged = True
                break
    return sorted(out, key=lambda o: (len(o), o))


def device_for(design, kind: str, item_name: str) -> dict:
    """The randomizer record of ``kind`` for ``design`` (:class:`DesignError` in words when none fits)."""
    from dpdesk.mechanisms import rr
    from dpdesk.project.languages.platform import NO_RANDOMIZER

    if kind not in KINDS:
        raise DesignError(f"Unknown randomizer {kind!r}: use one of {', '.join(KINDS)}.")
    if design.name in NO_RANDOMIZER:
        head = f"The {design.name} design needs no randomizer (question B's answer is the respondent's secret): "
        raise in_app(DesignError(head + f"leave out --randomizer for {item_name!r}."),
                     head + "choose none in the design wizard (Design view, Edit…).")
    if kind == "exact":
        return {"kind": "exact"}
    if design.name != "forced":
        head = (f"A coin, die or deck of cards is kept for forced response only; {item_name!r} uses the "
                f"{design.name} design. ")
        raise in_app(DesignError(head + "Give --randomizer exact (any private randomizer with the design's "
                                 "probabilities, such as a random-number app), or choose the device in the design "
                                 "wizard (Design view, Edit…)."),
                     head + "Choose the device in the design wizard (Design view, Edit…): any private randomizer "
                     "with the design's probabilities, such as a random-number app.")
    p = [design.params[k] for k in FORCED]
    from dpdesk.mechanisms.rr.wording.english import pct

    shown = ", ".join(pct(float(x)) for x in p)
    if kind == "coins":
        for tosses in range(1, 7):
            counts = _counts(design, 2 ** tosses)
            if counts:
                outcomes = ["".join(o) for o in itertools.product("HT", repeat=tosses)]
                t, y, _ = counts
                return rr.randomizers.coins(tosses, truth=_prefixes(outcomes[:t]), yes=_prefixes(outcomes[t:t + y]),
                                            no=_prefixes(outcomes[t + y:])).randomizer
        head = f"No number of fair coins (1 to 6) gives the probabilities of {item_name!r} ({shown}) exactly: "
        raise in_app(DesignError(head + "use --randomizer die, cards or exact."),
                     head + "choose a die, cards or any exact randomizer in the design wizard.")
    if kind == "die":
        for sides in DIE_SIDES:
            counts = _counts(design, sides)
            if counts:
                return rr.randomizers.die(*counts, sides=sides).randomizer
        head = (f"No usual die ({', '.join(map(str, sorted(DIE_SIDES)))} sides) gives the probabilities of "
                f"{item_name!r} ({shown}) exactly: ")
        raise in_app(DesignError(head + "use --randomizer cards or exact."),
                     head + "choose cards or any exact randomizer in the design wizard.")
    for deck in range(2, 101):
        counts = _counts(design, deck)
        if counts:
            return rr.randomizers.cards(*counts).randomizer
    head = f"No deck of at most 100 cards gives the probabilities of {item_name!r} ({shown}) exactly: "
    raise in_app(DesignError(head + "use --randomizer exact."),
                 head + "choose an exact randomizer (such as a random-number app) in the design wizard.")
