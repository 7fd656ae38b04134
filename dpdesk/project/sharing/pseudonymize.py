"""Pseudonyms for identifier columns by format-preserving encryption (FF1).

FF1 (NIST SP 800-38G; :mod:`dpdesk.project.sharing.fpe`) encrypts a string of digits into
another string of digits of the same length, and likewise over the alphabets 0-9a-z, 0-9A-Z
and 0-9a-zA-Z. Under one key and one *context* (the tweak: the context's UTF-8 bytes), the
same value always gets the same pseudonym, so pseudonymised tables still join, and the key's
holder can decrypt (:func:`reveal`). dpdesk made FF3-1 pseudonyms before FF3-1 was withdrawn
(SP 800-38G Rev. 1, second public draft, February 2025); :func:`reveal` with
``method="FF3-1"`` still decrypts them, with a note that the method is withdrawn.

Rules kept here:

* The key is read from a file the researcher keeps (hex, 128, 192 or 256 bits) and is
  never written into the project, an export or a report. :func:`generate_key` writes a
  new 256-bit key from ``secrets`` to a file readable by its owner only.
* Values that do not fit the format (characters outside the alphabet, or a domain below
  FF1's minimum of 10^6 values: fewer than ``min_length(radix)`` characters, e.g. 6 digits,
  or more than :data:`fpe.MAX_LENGTH`) are reported by row and never passed through in clear,
  padded or changed silently: the whole column is refused (:class:`PseudonymError`) unless
  ``invalid="blank"`` asks for them to be left blank, which the disclosure report then
  states. (Padding a short value would make a pseudonym that no longer decrypts to the
  value, and would link every padded value to its length.)
* Blank cells stay blank.

Cautions (also in the help): a pseudonym keeps the value's length and alphabet (a
format leak), equal values give equal pseudonyms (counts and links survive), and
metadata such as timestamps are not encrypted and can re-identify by themselves.
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
import string
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dpdesk.errors import in_app
from dpdesk.project.sharing import fpe
from dpdesk.project.sharing.fpe import (  # noqa: F401 - the public names of pseudonyms
    ALPHABETS,
    FF1,
    FF3_1,
    WITHDRAWN_NOTE,
    PseudonymError,
    ff1_decrypt,
    ff1_encrypt,
)

DEFAULT_CONTEXT = "dpdesk"
METHOD = FF1  # what new pseudonyms are made with
METHODS = (FF1, FF3_1)


class WithdrawnMethod(UserWarning):
    """Pseudonyms made with a method NIST has withdrawn (FF3-1) were decrypted."""


def length_bounds(radix: int, method: str = FF1) -> tuple[int, int]:
    """The lengths a value may have at ``radix``.

    FF1: at least ``fpe.min_length(radix)`` (``radix**n >= 10^6``, exact integers), at most
    :data:`fpe.MAX_LENGTH`. FF3-1 (old pseudonyms): ``radix**min >= 10^6`` and at most
    ``2 floor(96 / log2 radix)``.
    """
    if method == FF3_1:
        return math.ceil(6 / math.log10(radix) - 1e-12), 2 * math.floor(96 / math.log2(radix))
    return fpe.min_length(radix), fpe.MAX_LENGTH


def generate_key(path) -> Path:
    """Write a new random 256-bit key (hex) to ``path`` (owner-only permissions); never overwrites."""
    path = Path(path)
    if not path.parent.is_dir():
        raise PseudonymError(f"Cannot write the key to {path}: the folder {path.parent} does not exist.")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        from dpdesk.errors import in_app

        head = (f"The key file {path} already exists; dpdesk never overwrites a key (the pseudonyms made with it "
                "could no longer be reproduced). ")
        raise in_app(PseudonymError(head + "Use it with --key-file, or choose another name."),
                     head + "Choose it with Key…, or choose another name.") from None
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(secrets.token_hex(32) + "\n")
    return path


def read_key(path) -> str:
    """The hex key in the file ``path`` (32, 48 or 64 hex digits); messages never show the key."""
    path = Path(path)
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        head = f"The key file {path} does not exist. "
        raise in_app(PseudonymError(head + f"Create one with --new-key {path}."),
                     head + "Create one with New key…, or choose another with Key….") from None
    except UnicodeDecodeError:
        raise PseudonymError(f"The key file {path} is not a hex key (it has non-ASCII bytes).") from None
    if len(text) not in (32, 48, 64) or any(c not in string.hexdigits for c in text):
        head = (f"The key file {path} must hold one AES key as 32, 48 or 64 hex digits (it holds {len(text)} "
                f"characters). ")
        raise in_app(PseudonymError(head + "Create a new key with --new-key."), head + "Create a new key with New key….")
    return text


def ff1_tweak(context: str) -> bytes:
    """The FF1 tweak of a context text: its UTF-8 bytes (public, like the context; any FF1 program can use it)."""
    return str(context).encode("utf-8")


def tweak_for(context: str) -> str:
    """The 56-bit FF3-1 tweak (14 hex digits) of a context, as older dpdesk made it: the first 7 bytes of
    the SHA-256 of ``"dpdesk pseudonym:" + context`` (to decrypt old pseudonyms)."""
    return hashlib.sha256(f"dpdesk pseudonym:{context}".encode("utf-8")).hexdigest()[:14]


@dataclass
class Problem:
    """A value that cannot be pseudonymised: its row label and what is wrong (never the value)."""

    row: object
    reason: str


def _text(value) -> str | None:
    """A cell as text (None when blank); whole floats become integers (123456.0 -> '123456')."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (float, np.floating)):
        return str(int(value)) if float(value).is_integer() else str(value)
    text = str(value)
    return text if text.strip() else None


def choose_alphabet(texts) -> str:
    """The smallest of the alphabets that holds every character of ``texts``."""
    chars = set().union(*map(set, texts)) if texts else set()
    for name in ("digits", "upper", "lower", "alnum"):
        if chars <= set(ALPHABETS[name]):
            return name
    return "alnum"


def _problem(text: str, alphabet: str, lo: int, hi: int) -> str | None:
    stray = [(i, ch) for i, ch in enumerate(text) if ch not in alphabet]
    if stray:
        i, ch = stray[0]
        what = "a space" if ch.isspace() else f"the character {ch!r}"
        return f"{what} at position {i + 1} (only {_describe(alphabet)} can be pseudonymised)"
    if not lo <= len(text) <= hi:
        return (f"{len(text)} characters; FF1 needs {lo} to {hi:,} with this alphabet (at least a million "
                f"possible values, NIST SP 800-38G Rev. 1)")
    return None


def _describe(alphabet: str) -> str:
    return {v: k for k, v in {"digits 0-9": ALPHABETS["digits"], "0-9 and a-z": ALPHABETS["lower"],
                              "0-9 and A-Z": ALPHABETS["upper"], "0-9, a-z and A-Z": ALPHABETS["alnum"]}.items()
            }.get(alphabet, "the alphabet's characters")


@dataclass
class Pseudonyms:
    """The pseudonymised column, the alphabet used, the rows left blank (``invalid="blank"``) and the method."""

    values: pd.Series
    alphabet: str
    blanked: list[Problem]
    method: str = METHOD


def pseudonymize(series: pd.Series, key: str, *, alphabet: str = "auto", context: str = DEFAULT_CONTEXT,
                 invalid: str = "raise", column: str | None = None, row_offset: int = 0,
                 tweak: bytes | None = None) -> Pseudonyms:
    """FF1 pseudonyms of ``series`` under the hex ``key`` (see the module docstring).

    ``alphabet`` is ``"digits"``, ``"upper"``, ``"lower"``, ``"alnum"`` or ``"auto"`` (the
    smallest that fits the values). Rows in messages are ``index label + row_offset``
    (pass the import's first data row to get the file's row numbers). The result is text,
    marked with its method (``values.attrs["dpdesk_pseudonyms"]``) so :func:`reveal` knows it.
    ``tweak`` (bytes) overrides the tweak made from ``context`` (for test vectors).
    """
    name = column or str(series.name)
    if invalid not in ("raise", "blank"):
        raise PseudonymError(f"invalid must be 'raise' or 'blank' (got {invalid!r}).")
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    texts = [_text(v) for v in uniques]
    if alphabet == "auto":
        alphabet = choose_alphabet([t for t in texts if t is not None])
    if alphabet not in ALPHABETS:
        raise PseudonymError(f"Unknown alphabet {alphabet!r}; use one of {', '.join(ALPHABETS)} or auto.")
    chars = ALPHABETS[alphabet]
    lo, hi = length_bounds(len(chars))
    out = np.empty(len(uniques) + 1, dtype=object)  # last slot: blank
    out[-1] = None
    bad: dict[int, str] = {}
    cipher = fpe.cipher(_key_bytes(key), chars)
    tweak = ff1_tweak(context) if tweak is None else bytes(tweak)
    for j, text in enumerate(texts):
        if text is None:
            out[j] = None
            continue
        reason = _problem(text, chars, lo, hi)
        if reason:
            bad[j] = reason
            out[j] = None
        else:
            out[j] = cipher.encrypt(text, tweak=tweak)
    problems = []
    if bad:
        where = np.flatnonzero(np.isin(codes, list(bad)))
        labels = series.index[where]
        problems = [Problem(_row(label, row_offset), bad[int(codes[i])]) for i, label in zip(where, labels)]
        if invalid == "raise":
            listed = "; ".join(f"row {p.row}: {p.reason}" for p in problems[:8])
            more = f" (and {len(problems) - 8} more rows)" if len(problems) > 8 else ""
            head = (f"Column {name!r}: {len(problems)} value(s) cannot be pseudonymised and were not passed "
                    f"through: {listed}{more}. Correct them in the data, choose a wider alphabet, or leave them blank")
            raise in_app(PseudonymError(head + " (--invalid blank)."), head + ".")
    mapped = out[np.where(codes < 0, len(uniques), codes)]
    values = pd.Series(mapped, index=series.index, name=series.name, dtype=object)
    values.attrs["dpdesk_pseudonyms"] = {"method": METHOD, "alphabet": alphabet}
    return Pseudonyms(values, alphabet, problems)


def _key_bytes(key) -> bytes:
    """The AES key of a hex key (as :func:`read_key` gives it), or the bytes given."""
    if isinstance(key, (bytes, bytearray)):
        return bytes(key)
    try:
        return bytes.fromhex(str(key))
    except ValueError:
        raise PseudonymError("The key must be 32, 48 or 64 hex digits (as a key file holds it).") from None


def _row(label, offset: int):
    return label + offset if isinstance(label, (int, np.integer)) else label


def reveal(series: pd.Series, key: str, *, alphabet: str, context: str = DEFAULT_CONTEXT,
           method: str | None = None) -> pd.Series:
    """Decrypt pseudonyms made by :func:`pseudonymize` (for the key's holder).

    ``method`` is ``"FF1"`` or ``"FF3-1"`` (older extracts: their disclosure report names it);
    it may be left out for the values :func:`pseudonymize` returned, which carry it. FF1 and
    FF3-1 pseudonyms look alike, and decrypting with the wrong one gives wrong values without
    a sign, so dpdesk never guesses. FF3-1 values are decrypted with a
    :class:`WithdrawnMethod` warning (:data:`WITHDRAWN_NOTE`), also in the result's
    ``attrs["dpdesk_note"]``.
    """
    marked = (getattr(series, "attrs", None) or {}).get("dpdesk_pseudonyms", {}).get("method")
    method = method or marked
    if method is None:
        raise PseudonymError("Say which method made these pseudonyms: method='FF1' (dpdesk's extracts from now on) "
                             "or method='FF3-1' (older extracts); the extract's disclosure report names it. "
                             "Decrypting with the wrong one would give wrong values without a sign.")
    folded = str(method).strip().upper().replace("_", "-")
    folded = {"FF31": FF3_1, "FF3": FF3_1}.get(folded.replace("-", ""), folded)
    if folded not in METHODS:
        raise PseudonymError(f"Unknown pseudonym method {method!r}; use 'FF1' or 'FF3-1'.")
    if alphabet not in ALPHABETS:
        raise PseudonymError(f"Unknown alphabet {alphabet!r}; use one of {', '.join(ALPHABETS)}.")
    if folded == FF3_1:
        cipher = fpe.ff3_1_cipher(str(key), alphabet, tweak_for(context))
        crypt = cipher.decrypt
    else:
        cipher, tweak = fpe.cipher(_key_bytes(key), alphabet), ff1_tweak(context)
        crypt = lambda text: cipher.decrypt(text, tweak=tweak)  # noqa: E731
    chars = ALPHABETS[alphabet]
    values = []
    for position, value in enumerate(series):
        text = _text(value)
        if text is not None and (any(c not in chars for c in text) or not fpe.min_length(len(chars)) <= len(text)):
            raise PseudonymError(f"Value {position + 1} is not a pseudonym over {alphabet} (a character outside "
                                 f"the alphabet, or too short); check the alphabet and the column.")
        values.append(None if text is None else crypt(text))
    out = pd.Series(values, index=series.index, name=series.name, dtype=object)
    if folded == FF3_1:
        warnings.warn(WITHDRAWN_NOTE, WithdrawnMethod, stacklevel=2)
        out.attrs["dpdesk_note"] = WITHDRAWN_NOTE
    return out
