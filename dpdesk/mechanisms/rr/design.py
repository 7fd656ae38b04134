"""Randomized-response designs as response matrices.

A design is a matrix ``P[r, s] = P(recorded response r | true state s)``, one per group for
two-group designs. Everything else (estimation, standard errors, intervals, the local-DP
epsilon, power, simulation) is written once over these matrices.

Parameter meanings follow RRreg (Heck & Moshagen 2018, JSS 85(2); ``RRreg::getPW``) where
RRreg has the design, with explicit names. The matrices here equal RRreg's, with rows in
the order of :attr:`Design.responses` and columns in the order of :attr:`Design.states`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dpdesk.errors import DesignError

from dpdesk.mechanisms.rr.epsilon import log_ratio, matrix_epsilon, unary_multiselect_epsilon  # noqa: F401
from dpdesk.mechanisms.rr.wording import english as wording

TOL = 1e-9

#: How the latent states map to the reported parameters (see ``estimate``).
MODELS = ("prevalence", "sld", "cdm", "unrelated_unknown", "categorical", "unary")


@dataclass(frozen=True, eq=False)
class Design:
    """A randomized-response design: its matrices, parameters and plain description.

    ``responses``: recorded response labels in count order (binary designs are
    ``("no", "yes")``: index 1 is the recorded "yes"/1). ``states``: the latent states
    (matrix columns). ``matrices``: one ``len(responses) x len(states)`` column-stochastic
    matrix per group. ``model`` names how states map to parameters; ``privacy_states`` are
    the columns compared for the local epsilon (the true states of a respondent who
    follows the instructions: cheaters and liars are behaviour, not states).

    Unary designs (multi-select items) randomize every tick box alike: ``responses`` and
    ``categories`` are the options and ``matrix`` is the 2 x 2 matrix of one box
    (reported tick | true tick).

    ``response_labels`` are the respondent's words for the same responses, in the same
    order: ``response_labels[i]`` is what the card prints for the recorded response
    ``responses[i]`` (row ``i`` of the matrices, count ``i``). ``short_labels[i]`` is the
    short form for tables. ``responses`` stay the stable keys of counts, stored mappings
    and files; the labels are words only and never change an index. For crosswise,
    ``responses == ("no", "yes")`` with labels ("The answers are different", "Both answers
    are the same"): the recorded "yes" means *same*, so mapping a code for "different" to
    "yes" would invert the estimate. Triangular: "yes" = "At least one yes"; Kuk: "Red
    card" (one draw) or "k red cards"; yes/no designs: "Yes"/"No"; category designs: the
    categories. See ``wording.answer_labels``.
    """

    name: str
    params: dict[str, Any]
    responses: tuple[str, ...]
    states: tuple[str, ...]
    matrices: tuple[np.ndarray, ...]
    model: str
    privacy_states: tuple[int, ...]
    categories: tuple[str, ...] = ()
    summary: str = ""
    _instructions: str = field(default="", repr=False)
    response_labels: tuple[str, ...] = ()
    short_labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.response_labels or not self.short_labels:
            pairs = wording.answer_labels(self.name, self.params, self.responses)
            object.__setattr__(self, "response_labels", tuple(p[0] for p in pairs))
            object.__setattr__(self, "short_labels", tuple(p[1] for p in pairs))
        if not len(self.response_labels) == len(self.short_labels) == len(self.responses):
            raise DesignError(f"Design {self.name!r} has {len(self.responses)} responses but "
                              f"{len(self.response_labels)} labels.")

    def label(self, response: str, *, short: bool = False) -> str:
        """The respondent's words for the recorded ``response`` (a key of ``responses``)."""
        labels = self.short_labels if short else self.response_labels
        try:
            return labels[self.responses.index(str(response))]
        except ValueError:
            return str(response)

    def answer_words(self) -> dict[str, set[str]]:
        """Per response key, the words (labels, translations, and the card's labels in every
        language dpdesk writes) a file's codes may use for it."""
        from dpdesk.mechanisms.rr.wording import labels_in_every_language

        everywhere = labels_in_every_language(self)
        return {r: wording.answer_words(lab, short, r) | everywhere[r]
                for r, lab, short in zip(self.responses, self.response_labels, self.short_labels)}

    @property
    def matrix(self) -> np.ndarray:
        """The (first group's) response matrix, responses x states."""
        return self.matrices[0]

    @property
    def groups(self) -> int:
        """Number of randomization groups (2 for SLD, CDM and unrelated-unknown)."""
        return len(self.matrices)

    @property
    def parameters(self) -> tuple[str, ...]:
        """Names of the estimated parameters, prevalence first."""
        return {
            "prevalence": ("prevalence",),
            "sld": ("prevalence", "t"),
            "cdm": ("prevalence", "beta", "gamma"),
            "unrelated_unknown": ("prevalence", "pi_uq"),
        }.get(self.model, self.categories)

    @property
    def is_binary(self) -> bool:
        return self.model not in ("categorical", "unary")

    @property
    def epsilon(self) -> float:
        """The local-DP epsilon implied by the matrices.

        ``max`` over groups and responses of ``ln(max_s P[r,s] / min_s P[r,s])`` over the
        privacy states; ``math.inf`` where a response is possible for one state and
        impossible for another. For ``unary`` designs (one bit per category) it is the
        epsilon for a change of one single-choice answer (two bits); see
        :func:`unary_multiselect_epsilon` for multi-select answers.
        """
        if self.model == "unary":
            bit = self.matrix
            up = max(log_ratio(bit[b, 1], bit[b, 0]) for b in range(2))
            down = max(log_ratio(bit[b, 0], bit[b, 1]) for b in range(2))
            return up + down
        return max(matrix_epsilon(m[:, list(self.privacy_states)]) for m in self.matrices)

    @property
    def protects_no_one(self) -> bool:
        """True when every answer a respondent can give reveals their true state: each possible
        response is impossible for some privacy state (its local epsilon is infinite), as in
        forced response where every outcome says "answer truthfully"."""
        for m in self.matrices:
            sub = m if self.model == "unary" else m[:, list(self.privacy_states)]
            if any(row.max() > 0 and row.min() > 0 for row in sub):
                return False
        return True

    def describe(self) -> str:
        """What the respondent does, in plain words."""
        return self._instructions

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able record: name, params, responses, states, matrices, epsilon, description."""
        eps = self.epsilon
        return {
            "name": self.name,
            "params": dict(self.params),
            "responses": list(self.responses),
            "response_labels": list(self.response_labels),
            "short_labels": list(self.short_labels),
            "states": list(self.states),
            "matrices": [m.tolist() for m in self.matrices],
            "epsilon": None if math.isinf(eps) else eps,
            "description": self.describe(),
            "summary": self.summary,
        }

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> "Design":
        """Rebuild a design from :meth:`to_dict`; the stored matrices must match."""
        d = design(record["name"], **record["params"])
        stored = record.get("matrices")
        if stored is not None:
            if len(stored) != d.groups or any(
                np.asarray(s).shape != m.shape or not np.allclose(np.asarray(s, float), m, atol=1e-12)
                for s, m in zip(stored, d.matrices)
            ):
                raise DesignError(
                    f"The stored matrices of design {record['name']!r} do not match its parameters "
                    f"{record['params']}; the record was edited or is damaged. Re-create the item's design."
                )
        return d

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"rr.design({self.name!r}, {args})"


# --------------------------------------------------------------------------- checks


#: What each parameter is, in a researcher's words (messages name it so, not by its code).
PARAM_WORDS = {
    "p": "the design's probability", "p_truth": "the chance to answer truthfully",
    "p_yes": "the chance to just say 'yes'", "p_no": "the chance to just say 'no'",
    "p_sensitive": "the chance to answer the sensitive question",
    "q": "the share of people who answer 'yes' to the harmless question",
    "p1": "group 1's probability", "p2": "group 2's probability",
}


def _words(name: str) -> str:
    if name.startswith("p_forced["):
        return f"the chance of forced answer {int(name[9:-1]) + 1}"
    return PARAM_WORDS.get(name, name)


def _prob(name: str, value: Any, *, low_open: bool = False, high_open: bool = False) -> float:
    lo = "above 0" if low_open else "from 0"
    hi = "below 1" if high_open else "to 1"
    what = _words(name)
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise DesignError(f"{what.capitalize()} is {value!r}, which is not a number. Give a probability {lo} {hi}, "
                          f"such as 0.25.") from None
    if not math.isfinite(x) or x < 0 or x > 1 or (low_open and x <= 0) or (high_open and x >= 1):
        raise DesignError(f"{what.capitalize()} is {value!r}, but it must be a probability {lo} {hi}. "
                          f"Change it to a number in that range.")
    return x


def _distinct(n1: str, v1: float, n2: str, v2: float, why: str) -> None:
    if abs(v1 - v2) < 1e-6:
        raise DesignError(
            f"Both get the same probability ({v1:g}), but they must differ: {why} "
            f"Choose probabilities at least 0.1 apart for a useful design."
        )


def _categories(categories: Any) -> tuple[str, ...]:
    if isinstance(categories, int) and not isinstance(categories, bool):
        if categories < 2:
            raise DesignError(f"There are {categories} categories, but a question with categories needs at least 2.")
        return tuple(str(i) for i in range(categories))
    try:
        cats = tuple(str(c) for c in categories)
    except TypeError:
        raise DesignError(
            f"The categories must be a list of their labels, such as ['never', 'once', 'often'], or their number; "
            f"got {categories!r}."
        ) from None
    if len(cats) < 2:
        raise DesignError(f"A question with categories needs at least 2 of them; got {list(cats)}.")
    if len(set(cats)) != len(cats):
        raise DesignError(f"The categories {list(cats)} have repeated labels, so answers could not be told "
                          f"apart. Give each category its own label.")
    return cats


def _epsilon_param(value: Any) -> float:
    try:
        eps = float(value)
    except (TypeError, ValueError):
        raise DesignError(f"The privacy level (epsilon) must be a positive number such as 1 or 2, not {value!r}.") \
            from None
    if not (eps > 0 and math.isfinite(eps)):
        raise DesignError(f"The privacy level (epsilon) is {value!r}, but it must be a positive number, for "
                          f"example 1 or 2 (smaller is more private).")
    return eps


# --------------------------------------------------------------------------- designs

YES_NO = ("no", "yes")
ABSENT_PRESENT = ("non-carrier", "carrier")


def _binary(name, params, lam0, lam1, summary, instructions, *, states=ABSENT_PRESENT) -> Design:
    """A one-group yes/no design with ``P(yes | state 0) = lam0``, ``P(yes | state 1) = lam1``."""
    m = np.array([[1 - lam0, 1 - lam1], [lam0, lam1]], dtype=float)
    if abs(lam1 - lam0) < 1e-9:
        raise DesignError(
            f"With these probabilities a 'yes' is just as likely whatever the truth ({lam0:g} either way), so the "
            f"answers say nothing about the question. Change the probabilities."
        )
    return Design(name, params, YES_NO, states, (m,), "prevalence", (0, 1), (), summary, instructions)


def _warner(p):
    p = _prob("p", p)
    if abs(p - 0.5) < 1e-9:
        raise DesignError(
            "With a chance of 0.5 of getting the statement 'I have the attribute', a 'yes' is equally likely "
            "whatever the truth, so the answers cannot be told apart (the design is unidentifiable). Choose a "
            "chance away from 1/2, for example 0.7 or 0.3."
        )
    return _binary("warner", {"p": p}, 1 - p, p, "Warner (1965) mirrored question", wording.warner(p))


def _forced(p_truth, p_yes, p_no):
    t, y, n = _prob("p_truth", p_truth, low_open=True), _prob("p_yes", p_yes), _prob("p_no", p_no)
    if abs(t + y + n - 1) > TOL:
        raise DesignError(
            f"The chances to answer truthfully ({t:g}), to just say 'yes' ({y:g}) and to just say 'no' ({n:g}) "
            f"add up to {t + y + n:.6g}, but each respondent does exactly one of the three, so they must add up "
            f"to 1. Change one of them; for thirds and sixths type fractions such as 2/3 and 1/6. For example, "
            f"two coins give 1/2 truthfully, 1/4 'yes' and 1/4 'no'."
        )
    return _binary("forced", {"p_truth": t, "p_yes": y, "p_no": n}, y, t + y,
                   "Forced response (Boruch 1971)", wording.forced(t, y, n))


def _unrelated(p_sensitive, q):
    p, q = _prob("p_sensitive", p_sensitive, low_open=True), _prob("q", q)
    return _binary("unrelated", {"p_sensitive": p, "q": q}, (1 - p) * q, p + (1 - p) * q,
                   "Unrelated question, known prevalence (Greenberg et al. 1969)", wording.unrelated(p, q))


def _crosswise(p):
    p = _prob("p", p)
    if abs(p - 0.5) < 1e-9:
        raise DesignError(
            "A harmless question that half of people answer 'yes' (0.5) makes 'same' and 'different' equally "
            "likely whatever the truth, so the answers cannot be told apart (the design is unidentifiable). "
            "Choose a harmless question whose 'yes' share is far from 1/2, for example a birthday in January to "
            "March (about 0.25)."
        )
    # recorded 1 = "both yes or both no"
    return _binary("crosswise", {"p": p}, 1 - p, p, "Crosswise model (Yu, Tian & Tang 2008)", wording.crosswise(p))


def _ecwm(p):
    """Extended crosswise model (Heck, Hoffmann & Moshagen 2018, Behav Res Methods 50, 1895-1905).

    Two random groups answer the crosswise question with complementary versions of question B:
    version 1's B has prevalence ``p``, version 2's ``1 - p`` ("mother's birthday in Jan-Mar" and
    "... in Apr-Dec"). A "same" answer in group g has probability
    ``lambda_g = pi p_g + (1 - pi)(1 - p_g)`` with ``p_1 = p``, ``p_2 = 1 - p``: one prevalence pi for
    both groups when everyone follows the instructions, which the likelihood-ratio test of
    :func:`rr.estimate` checks against a separate pi per group (non-adherence).
    """
    p = _prob("p", p)
    if abs(p - 0.5) < 1e-9:
        raise DesignError(
            "With a harmless question that half of people answer 'yes' (0.5), 'same' and 'different' are equally "
            "likely whatever the truth, and the two versions of question B are the same question: the answers "
            "cannot be told apart. Choose a question B whose 'yes' share is far from 1/2, for example a "
            "mother's birthday in January to March (about 0.25; version 2 then asks April to December)."
        )
    mats = tuple(np.array([[pg, 1 - pg], [1 - pg, pg]], dtype=float) for pg in (p, 1 - p))
    return Design("ecwm", {"p": p}, YES_NO, ABSENT_PRESENT, mats, "prevalence", (0, 1), (),
                  "Extended crosswise model (Heck, Hoffmann & Moshagen 2018)", wording.ecwm(p))


def ecwm_version(d: Design, version: int) -> Design:
    """The crosswise design one version's respondents answer (version 1: B's share p; 2: 1 - p).

    Each respondent of an ECWM item reads a plain crosswise card with their version's question B;
    cards, instructions and platform fields of a version are those of this design.
    """
    if d.name != "ecwm" or version not in (1, 2):
        raise DesignError(f"Versions 1 and 2 belong to the extended crosswise design, not to {d.name!r} "
                          f"(version {version!r}).")
    p = d.params["p"]
    return _crosswise(p if version == 1 else 1 - p)


def _triangular(p):
    p = _prob("p", p, high_open=True)
    # recorded 1 = "at least one yes"
    return _binary("triangular", {"p": p}, p, 1.0, "Triangular model (Yu, Tian & Tang 2008)", wording.triangular(p))


def _mangat(p):
    p = _prob("p", p, low_open=True)
    return _binary("mangat", {"p": p}, 1 - p, 1.0, "Mangat (1994)", wording.mangat(p))


def _kuk(p1, p2, draws=1):
    p1, p2 = _prob("p1", p1), _prob("p2", p2)
    _distinct("p1", p1, "p2", p2, "carriers and non-carriers must draw from decks with different shares of red cards.")
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws < 1:
        raise DesignError(f"Parameter draws = {draws!r} must be a whole number of cards, at least 1.")
    draws = int(draws)
    # the binomial pmf C(draws, k) p^k (1 - p)^(draws - k) of k red cards, written out: the wizard builds
    # every design on the GUI thread, and scipy.stats (binom.pmf gives the same) takes a second to load
    def pmf(p: float) -> np.ndarray:
        return np.array([math.comb(draws, k) * p ** k * (1 - p) ** (draws - k) for k in range(draws + 1)])

    m = np.column_stack([pmf(p2), pmf(p1)])
    m /= m.sum(axis=0, keepdims=True)
    responses = YES_NO if draws == 1 else tuple(f"{i} red" for i in range(draws + 1))
    return Design("kuk", {"p1": p1, "p2": p2, "draws": draws}, responses, ABSENT_PRESENT, (m,), "prevalence",
                  (0, 1), (), "Kuk (1990) card design", wording.kuk(p1, p2, draws))


def _two_group(name, params, lam, states, model, privacy, summary, instructions):
    mats = []
    for row in lam:
        row = np.asarray(row, dtype=float)
        mats.append(np.vstack([1 - row, row]))
    return Design(name, params, YES_NO, states, tuple(mats), model, privacy, (), summary, instructions)


def _sld(p1, p2):
    p1, p2 = _prob("p1", p1), _prob("p2", p2)
    _distinct("p1", p1, "p2", p2, "the stochastic lie detector needs two groups with different randomization "
              "probabilities to separate lying from prevalence.")
    states = ("non-carrier", "honest carrier", "lying carrier")
    # RRreg getPW("SLD"): P(yes | non-carrier) = 1 - p_g, honest carriers always yes, liars always no.
    lam = [[1 - p, 1.0, 0.0] for p in (p1, p2)]
    return _two_group("sld", {"p1": p1, "p2": p2}, lam, states, "sld", (0, 1),
                      "Stochastic lie detector (Moshagen, Musch & Erdfelder 2012)", wording.sld(p1, p2))


def _cdm(p1, p2):
    p1, p2 = _prob("p1", p1), _prob("p2", p2)
    _distinct("p1", p1, "p2", p2, "the cheating detection model needs two groups with different probabilities "
              "of a forced 'yes'.")
    states = ("honest non-carrier", "carrier", "cheater")
    # RRreg getPW("CDM"): carriers say yes, honest non-carriers yes with p_g, cheaters always no.
    lam = [[p, 1.0, 0.0] for p in (p1, p2)]
    return _two_group("cdm", {"p1": p1, "p2": p2}, lam, states, "cdm", (0, 1),
                      "Cheating detection model (Clark & Desharnais 1998)", wording.cdm(p1, p2))


def _unrelated_unknown(p1, p2):
    p1, p2 = _prob("p1", p1), _prob("p2", p2)
    _distinct("p1", p1, "p2", p2, "with an unknown innocuous prevalence the two groups must answer the "
              "sensitive question with different probabilities.")
    # states: (sensitive, innocuous) answers; P(yes | s, u) = p_g s + (1 - p_g) u (RRreg UQTunknown)
    states = ("no / no", "no / yes", "yes / no", "yes / yes")
    lam = [[0.0, 1 - p, p, 1.0] for p in (p1, p2)]
    return _two_group("unrelated_unknown", {"p1": p1, "p2": p2}, lam, states, "unrelated_unknown",
                      (0, 1, 2, 3), "Unrelated question, unknown prevalence (Greenberg et al. 1969)",
                      wording.unrelated_unknown(p1, p2))


def _forced_multi(p_truth, p_forced, categories=None):
    t = _prob("p_truth", p_truth, low_open=True)
    try:
        forced = [float(x) for x in p_forced]
    except TypeError:
        raise DesignError("Parameter p_forced must be a list with one probability per category.") from None
    for i, f in enumerate(forced):
        _prob(f"p_forced[{i}]", f)
    cats = _categories(categories if categories is not None else len(forced))
    if len(cats) != len(forced):
        raise DesignError(f"Parameter p_forced has {len(forced)} probabilities but there are {len(cats)} categories.")
    if abs(t + sum(forced) - 1) > TOL:
        raise DesignError(f"The chance to give the true answer ({t:g}) and the chances of the forced answers "
                          f"({', '.join(f'{f:g}' for f in forced)}) add up to {t + sum(forced):.6g}, but each "
                          f"respondent does exactly one of these, so they must add up to 1. Change them so they do.")
    k = len(cats)
    m = t * np.eye(k) + np.array(forced)[:, None] * np.ones((1, k))
    params = {"p_truth": t, "p_forced": forced, "categories": list(cats)}
    return Design("forced_multi", params, cats, cats, (m,), "categorical", tuple(range(k)), cats,
                  "Forced response with several categories", wording.forced_multi(t, forced, cats))


def _krr(categories, epsilon):
    cats, eps = _categories(categories), _epsilon_param(epsilon)
    k = len(cats)
    e = math.exp(eps)
    keep, other = e / (e + k - 1), 1 / (e + k - 1)
    m = np.full((k, k), other) + np.eye(k) * (keep - other)
    params = {"categories": list(cats), "epsilon": eps}
    return Design("krr", params, cats, cats, (m,), "categorical", tuple(range(k)), cats,
                  "Generalized (k-ary) randomized response (Kairouz et al. 2016)", wording.krr(cats, keep))


def _unary(categories, epsilon, variant="oue"):
    cats, eps = _categories(categories), _epsilon_param(epsilon)
    variant = str(variant).lower()
    if variant == "sue":  # basic RAPPOR (Erlingsson et al. 2014): each bit kept with e^(eps/2)/(1+e^(eps/2))
        p = math.exp(eps / 2) / (1 + math.exp(eps / 2))
        q = 1 - p
    elif variant == "oue":  # optimized unary encoding (Wang et al. 2017)
        p, q = 0.5, 1 / (math.exp(eps) + 1)
    else:
        raise DesignError(f"Parameter variant = {variant!r} must be 'sue' (basic RAPPOR) or 'oue' (optimized).")
    bit = np.array([[1 - q, 1 - p], [q, p]])  # P(reported bit | true bit)
    params = {"categories": list(cats), "epsilon": eps, "variant": variant}
    return Design("unary", params, cats, ("not ticked", "ticked"), (bit,), "unary", (0, 1), cats,
                  f"Unary encoding ({variant.upper()}) for multi-select items", wording.unary(cats, p, q))


def _custom(matrix, responses=None, states=None):
    try:
        m = np.array(matrix, dtype=float)
    except (TypeError, ValueError):
        raise DesignError("Parameter matrix must be a table of probabilities (rows: responses, columns: states).") from None
    if m.ndim != 2 or m.shape[0] < 2 or m.shape[1] < 2:
        raise DesignError(f"Parameter matrix must have at least 2 rows and 2 columns; its shape is {m.shape}.")
    if not np.all(np.isfinite(m)) or m.min() < 0 or m.max() > 1:
        raise DesignError("Every entry of parameter matrix must be a probability from 0 to 1.")
    sums = m.sum(axis=0)
    bad = [j for j, s in enumerate(sums) if abs(s - 1) > 1e-9]
    if bad:
        raise DesignError(
            f"Each column of parameter matrix (one true state) must sum to 1; column {bad[0] + 1} sums to "
            f"{sums[bad[0]]:g}."
        )
    if np.linalg.matrix_rank(m, tol=1e-9) < m.shape[1]:
        raise DesignError(
            "Parameter matrix does not identify the states: some true states give the same (or combined) "
            "response probabilities. Make the columns linearly independent."
        )
    r, s = m.shape
    resp = tuple(str(x) for x in responses) if responses is not None else (YES_NO if r == 2 else tuple(str(i) for i in range(r)))
    sts = tuple(str(x) for x in states) if states is not None else (ABSENT_PRESENT if s == 2 else tuple(str(i) for i in range(s)))
    if len(resp) != r or len(sts) != s:
        raise DesignError(f"Parameter matrix is {r} x {s} but {len(resp)} responses and {len(sts)} states were named.")
    params: dict[str, Any] = {"matrix": m.tolist()}
    if responses is not None:
        params["responses"] = list(resp)
    if states is not None:
        params["states"] = list(sts)
    model = "prevalence" if s == 2 else "categorical"
    cats = () if s == 2 else sts
    return Design("custom", params, resp, sts, (m,), model, tuple(range(s)), cats,
                  "Custom misclassification matrix", wording.custom(m, resp, sts))


_BUILDERS = {
    "warner": _warner,
    "forced": _forced,
    "forced_multi": _forced_multi,
    "unrelated": _unrelated,
    "unrelated_unknown": _unrelated_unknown,
    "crosswise": _crosswise,
    "ecwm": _ecwm,
    "triangular": _triangular,
    "kuk": _kuk,
    "mangat": _mangat,
    "sld": _sld,
    "cdm": _cdm,
    "krr": _krr,
    "unary": _unary,
    "custom": _custom,
}

DESIGN_NAMES = tuple(_BUILDERS)

#: Each design name in a researcher's words, for the message when a name is not known.
DESIGN_WORDS = {
    "warner": "Warner's design: a spinner picks the question or its opposite",
    "forced": "forced response: a coin or a die says answer truthfully, say 'yes' or say 'no'",
    "dice_sum": "forced response with two (or more) dice added up, as rr.randomizers.dice_sum(dice=2, sides=6, "
                "yes=[2, 3, 4], no=[11, 12]) gives it (command line: the design dice_sum)",
    "forced_multi": "forced response for a question with several answers",
    "unrelated": "unrelated question: a harmless second question whose 'yes' share is known",
    "unrelated_unknown": "unrelated question whose harmless 'yes' share is not known (two groups)",
    "crosswise": "crosswise model: 'are both answers the same?' with a harmless question",
    "ecwm": "extended crosswise model: crosswise in two groups with complementary versions of question B, which "
            "also tests whether respondents follow the instructions",
    "triangular": "triangular model: 'yes' to at least one of two questions",
    "kuk": "Kuk's design: respondents draw from two decks of red and black cards",
    "mangat": "Mangat's design: carriers always say 'yes', others follow a randomizer",
    "sld": "stochastic lie detector (two groups): also estimates how many carriers answer honestly",
    "cdm": "cheating detection (two groups): also estimates how many say 'no' whatever the truth",
    "krr": "randomized response among several answers (k-ary, a privacy level epsilon)",
    "unary": "unary encoding (RAPPOR-style) of several answers",
    "custom": "your own response matrix",
}


def design(name: str, **params: Any) -> Design:
    """Build a design by name with RRreg's parameter meanings (see the table in docs/guide/python.md).

    Raises :class:`~dpdesk.errors.DesignError` naming the parameter, why it is invalid
    and what would be valid.
    """
    builder = _BUILDERS.get(str(name).lower())
    if builder is None:
        known = "; ".join(f"{key} ({words})" for key, words in DESIGN_WORDS.items())
        raise DesignError(f"There is no design called {name!r}. Give one of these names: {known}.")
    import inspect

    sig = inspect.signature(builder)
    unknown = [k for k in params if k not in sig.parameters]
    if unknown:
        raise DesignError(
            f"Design {name!r} has no parameter {unknown[0]!r}; its parameters are {', '.join(sig.parameters)}."
        )
    missing = [k for k, p in sig.parameters.items() if p.default is inspect.Parameter.empty and k not in params]
    if missing:
        raise DesignError(f"Design {name!r} needs parameter {missing[0]!r} ({', '.join(sig.parameters)}).")
    return builder(**params)
