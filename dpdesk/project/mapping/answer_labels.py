"""Codes matched to the respondent's words, and mappings that contradict the file's labels.

A design's responses have stable keys (``Design.responses``, e.g. ``("no", "yes")``) and
labels in the respondent's words (``Design.response_labels``, e.g. crosswise "The answers
are different" / "Both answers are the same"). A file says what its codes mean by their
text (``"same"``, Qualtrics' choice text) or by value labels (SPSS/Stata ``{1: "same"}``).

* :func:`suggest` picks the response a value stands for from those words (case- and
  space-insensitive, quotes ignored, a few common translations), or ``None``.
* :func:`conflicts` lists codes whose own words name another response than the one they
  are mapped to (a code labelled "same" mapped to "different"): mapping them so would
  invert the estimate without a warning. :func:`check` refuses such a mapping with a
  :class:`~dpdesk.errors.DataError`; the mapping dialog shows the same words before
  anything is stored.

A key of ``yes``/``no`` is a respondent word only for designs whose respondents answer
yes or no: for crosswise a file's "Yes" is ambiguous, so it is neither matched nor
flagged.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from dpdesk.errors import DataError

_SPACE = re.compile(r"\s+")
_QUOTES = str.maketrans("", "", "'\"‘’“”`.!")


def word(value: Any) -> str | None:
    """A value or label as a comparable word: folded case and spaces, no quotes; None if not text."""
    if value is None or isinstance(value, (bool, int, float)):
        return None
    text = _SPACE.sub(" ", str(value).translate(_QUOTES)).strip().casefold()
    if not text:
        return None
    try:
        float(text)
    except ValueError:
        return text
    return None  # a number is a code, not a word


def _words(design) -> dict[str, str]:
    """word -> response key, for the words that name exactly one response."""
    owner: dict[str, set] = {}
    for response, words in design.answer_words().items():
        for w in words:
            key = word(w)
            if key is not None:
                owner.setdefault(key, set()).add(response)
    return {w: next(iter(rs)) for w, rs in owner.items() if len(rs) == 1}


def suggest(design, value: Any, label: str | None = None) -> str | None:
    """The response key that ``value`` (or its value ``label``) names in the respondent's words."""
    words = _words(design)
    for text in (label, value):
        key = word(text)
        if key is not None and key in words:
            return words[key]
    return None


def rename_keys(design, codes: dict) -> dict:
    """``codes`` keyed by response keys; keys given in the respondent's words are translated
    (``{"same": [1], "different": [2]}`` becomes ``{"yes": [1], "no": [2]}`` for crosswise)."""
    words = _words(design)
    out: dict = {}
    for key, values in codes.items():
        response = str(key) if str(key) in design.responses else words.get(word(key) or "", str(key))
        if response in out:
            raise DataError(f"The codes name the response {design.label(response)!r} twice "
                            f"({response!r} and {key!r}). Give each response once.")
        out[response] = values
    return out


class Conflict(NamedTuple):
    """A code mapped to ``mapped`` whose own words (``said``) name ``named``."""

    code: Any
    said: str
    mapped: str
    named: str


def conflicts(design, codes: dict, value_labels: dict | None = None) -> list[Conflict]:
    """Codes whose text or value label names a different response than the one they are mapped to."""
    words = _words(design)
    labels = {}
    for code, label in (value_labels or {}).items():
        labels[_code_key(code)] = label
    found = []
    for response, values in codes.items():
        for code in values if isinstance(values, (list, tuple, set)) else [values]:
            for said in (code, labels.get(_code_key(code))):
                named = words.get(word(said) or "")
                if named is not None and named != str(response):
                    found.append(Conflict(code, str(said), str(response), named))
                    break
    return found


def describe(design, conflict: Conflict) -> str:
    """One conflict in words: what the file says, what the mapping says, how to fix it."""
    shown = f"{conflict.code!r}" if word(conflict.code) == word(conflict.said) else \
        f"{conflict.code!r} (labelled {conflict.said!r} in the file)"
    return (f"the code {shown} is mapped to {design.label(conflict.mapped)!r}, but its words say "
            f"{design.label(conflict.named)!r}")


def check(design, codes: dict, value_labels: dict | None, column: str, where: str = "") -> None:
    """Refuse a mapping that contradicts the file's own words (it would invert the estimate)."""
    found = conflicts(design, codes, value_labels)
    if found:
        parts = "; ".join(describe(design, c) for c in found[:6])
        raise DataError(
            f"{where}item '{column}': {parts}. Mapped like this the estimate would be inverted. "
            f"Map each code to the answer its label names, or, if the file's labels are wrong, "
            f"correct them in the file and import it again.")


def _code_key(code: Any):
    if isinstance(code, bool):
        return float(code)
    if isinstance(code, (int, float)):
        return float(code)
    text = str(code).strip().casefold()
    try:
        return float(text)
    except ValueError:
        return text
