"""The command line writes in any terminal encoding (cp1252 Windows consoles, ASCII pipes, C locale).

dpdesk's messages use a few characters that such encodings lack (ε, δ, ±, ∞, ≈, —, …). Where the
stream's encoding cannot write one, it is written in words or ASCII instead (ε -> "epsilon",
± -> "+/-"), and anything else unencodable becomes "?": never a UnicodeEncodeError.
"""

from __future__ import annotations

import codecs
import sys

ERRORS = "dpdesk-words"

#: What an unencodable character is written as; anything not listed becomes "?".
WORDS = {
    "\u03b5": "epsilon", "\u03b4": "delta", "\u03c1": "rho", "\u03c3": "sigma", "\u00b1": "+/-",
    "\u221e": "infinity", "\u2248": "~", "\u2014": "-", "\u2013": "-", "\u2026": "...",
    "\u2212": "-", "\u00d7": "x", "\u2192": "->", "\u2713": "ok", "\u2264": "<=", "\u2265": ">=",
    "\u00a0": " ", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
}


def _in_words(error: UnicodeError):
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start:error.end]
    encoding = error.encoding
    out = []
    for char in text:
        word = WORDS.get(char, "?")
        try:
            word.encode(encoding)
        except (UnicodeEncodeError, LookupError):
            word = "?"
        out.append(word)
    return "".join(out), error.end


codecs.register_error(ERRORS, _in_words)


def make_streams_safe(streams=None) -> None:
    """Reconfigure stdout and stderr to write unencodable characters in words (see module doc)."""
    for stream in streams if streams is not None else (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        encoding = getattr(stream, "encoding", None) or "ascii"
        if reconfigure is None:
            continue
        try:
            "\u03b5\u03b4\u00b1\u221e\u2026".encode(encoding)
        except UnicodeEncodeError:
            reconfigure(errors=ERRORS)
        except LookupError:
            reconfigure(encoding="utf-8", errors=ERRORS)
