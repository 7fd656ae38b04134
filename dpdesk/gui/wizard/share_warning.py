"""The randomizer step's warning when question B of a crosswise or ECWM design is answered 'yes' by about
half of people: the answers then carry almost no information (six birth months of twelve, for example).

The cost is the mechanisms' ``planning.sample_size.question_b_cost``: the sample needed for the same
precision grows as 1/(2p - 1)^2. The warning names it against the usual choice, a birthday in January to
March (a share of about 1/4). It warns; it does not refuse (p = 1/2 itself the design refuses).
"""

from __future__ import annotations

#: Warn when question B's 'yes' share is within this of 1/2 (beyond it, the sample needed is at least
#: (1/2)^2 / (1/4)^2 = 4 times that of a share of 1/4).
NEAR_HALF = 0.125
#: The designs whose efficiency falls as question B's share nears 1/2.
DESIGNS = ("crosswise", "ecwm")
REFERENCE = 0.25


def share_warning(design_key: str, share) -> str:
    """The warning in words, or "" when the share is far enough from 1/2 (or the design is another)."""
    if design_key not in DESIGNS or share is None:
        return ""
    p = float(share)
    if abs(p - 0.5) > NEAR_HALF:
        return ""
    from dpdesk.mechanisms.rr.planning.sample_size import question_b_cost

    cost = question_b_cost(p, REFERENCE)
    times = "infinitely many" if cost == float("inf") else f"about {cost:,.0f} times as many" if cost >= 10 \
        else f"about {cost:.1f} times as many"
    test = (" The non-adherence test of the two versions loses its power in the same way."
            if design_key == "ecwm" else "")
    return (f"Question B is answered 'yes' by {100 * p:.1f}% of people, close to one half: a 'same' or "
            f"'different' answer then says almost nothing about the sensitive question. The sample needed for "
            f"the same precision grows as 1/(2p − 1)²: here {times} respondents as with a question B that 25% "
            f"answer 'yes' (a birthday in January, February or March).{test} Choose a share below "
            f"{100 * (0.5 - NEAR_HALF):.1f}% or above {100 * (0.5 + NEAR_HALF):.1f}%, for example three birth "
            f"months; a share further from one half protects a little less (the local epsilon above shows how "
            f"much).")
