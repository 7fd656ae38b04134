"""Format-preserving encryption: FF1 for new pseudonyms, FF3-1 only to decrypt old ones.

**FF1** (NIST SP 800-38G, 2016, Algorithms 7 and 8; Dworkin, 2016) is a ten-round Feistel
network over numeral strings of radix ``r``, with AES-CBC-MAC as its round function and a
tweak of any length. The second public draft of SP 800-38G Rev. 1 (February 2025) keeps FF1
only, with a domain of at least 10^6 (``r**n >= 1,000,000`` for a string of ``n``
numerals), and withdraws FF3-1. The cipher itself is ``libffx`` 2 (``ffx.FF1``: FF1 on
``cryptography``'s AES, MIT licence; it passes NIST's FF1 samples 1-9, tested in
``tests/project/test_fpe.py``).

**FF3-1** (the ``ff3`` package) is kept to decrypt pseudonyms that dpdesk made before, for
the key's holder: :func:`ff3_1_decrypt` gives the values with :data:`WITHDRAWN_NOTE`.

Alphabets are given by their characters (``"0123456789"``) or by the name of one dpdesk
offers (:data:`ALPHABETS`: ``digits``, ``lower``, ``upper``, ``alnum``). Every problem is a
:class:`PseudonymError` in words; no message shows a key or a value.
"""

from __future__ import annotations

import string

from dpdesk.errors import DataError

ALPHABETS = {
    "digits": string.digits,
    "lower": string.digits + string.ascii_lowercase,
    "upper": string.digits + string.ascii_uppercase,
    "alnum": string.digits + string.ascii_lowercase + string.ascii_uppercase,
}
MIN_DOMAIN = 1_000_000  # SP 800-38G Rev. 1 (2nd public draft): radix**length >= 10^6
MAX_LENGTH = 1_000  # dpdesk's bound on one value (FF1 allows 2^32 numerals): bounds the work on hostile data
FF1 = "FF1"
FF3_1 = "FF3-1"
WITHDRAWN_NOTE = ("These pseudonyms were made with FF3-1, which NIST withdrew (SP 800-38G Rev. 1, second public "
                  "draft, February 2025: FF1 only). They were decrypted for the key's holder; make new extracts "
                  "with FF1, as dpdesk now does.")


class PseudonymError(DataError):
    """Values that cannot be pseudonymised (listed by row), a bad key, or a bad alphabet."""


def characters(alphabet: str) -> str:
    """The characters of ``alphabet``: one of :data:`ALPHABETS` by name, or the characters themselves."""
    if not isinstance(alphabet, str):
        raise PseudonymError(f"The alphabet must be text (a name such as 'digits', or its characters), "
                             f"not {type(alphabet).__name__}.")
    chars = ALPHABETS.get(alphabet, alphabet)
    if len(chars) < 2 or len(set(chars)) != len(chars):
        raise PseudonymError(f"The alphabet {alphabet[:40]!r} must be one of {', '.join(ALPHABETS)} or at least two "
                             f"different characters, each once.")
    return chars


def min_length(radix: int) -> int:
    """The fewest numerals FF1 takes at ``radix``: ``n >= 2`` and ``radix**n >= 10^6`` (exact integers)."""
    n = 2
    while radix ** n < MIN_DOMAIN:
        n += 1
    return n


def _key(key) -> bytes:
    if isinstance(key, str):
        raise PseudonymError("The key must be bytes (16, 24 or 32 of them, for AES-128, -192 or -256); "
                             "for a hex key write bytes.fromhex(key).")
    if not isinstance(key, (bytes, bytearray)) or len(key) not in (16, 24, 32):
        size = len(key) if isinstance(key, (bytes, bytearray)) else type(key).__name__
        raise PseudonymError(f"The key must be 16, 24 or 32 bytes (AES-128, -192 or -256); it has {size}.")
    return bytes(key)


def _check(text, chars: str) -> None:
    if not isinstance(text, str):
        raise PseudonymError(f"FF1 encrypts text, not {type(text).__name__}.")
    stray = next((i for i, ch in enumerate(text) if ch not in chars), None)
    if stray is not None:
        raise PseudonymError(f"The character at position {stray + 1} is not in the alphabet "
                             f"({len(chars)} characters); choose an alphabet that holds every character.")
    low = min_length(len(chars))
    if not low <= len(text) <= MAX_LENGTH:
        raise PseudonymError(f"A value of {len(text)} characters cannot be encrypted with FF1 over {len(chars)} "
                             f"characters: it needs {low} to {MAX_LENGTH:,} (at least a million possible values, "
                             f"NIST SP 800-38G Rev. 1).")


def cipher(key: bytes, alphabet: str):
    """An FF1 cipher (``libffx``) for ``key`` over ``alphabet`` (name or characters); reuse it for many values."""
    try:
        from ffx import FF1 as _FF1
    except ImportError:
        raise PseudonymError("Pseudonyms need the libffx package (FF1 encryption), which is not installed. "
                             "Install dpdesk again, or: pip install 'libffx>=2.0.1'.") from None
    return _FF1(_key(key), alphabet=characters(alphabet))


def ff1_encrypt(key: bytes, text: str, *, alphabet: str, tweak: bytes = b"") -> str:
    """FF1 encryption of ``text`` (NIST SP 800-38G, Algorithm 7) under the AES ``key`` and ``tweak``.

    The result has the same length over the same alphabet. A value whose domain is below
    10^6, or with characters outside the alphabet, raises :class:`PseudonymError`.
    """
    return _crypt(key, text, alphabet, tweak, encrypt=True)


def ff1_decrypt(key: bytes, text: str, *, alphabet: str, tweak: bytes = b"") -> str:
    """FF1 decryption (NIST SP 800-38G, Algorithm 8): the inverse of :func:`ff1_encrypt`."""
    return _crypt(key, text, alphabet, tweak, encrypt=False)


def _crypt(key, text, alphabet, tweak, *, encrypt: bool) -> str:
    chars = characters(alphabet)
    _check(text, chars)
    if not isinstance(tweak, (bytes, bytearray)):
        raise PseudonymError(f"The tweak must be bytes, not {type(tweak).__name__}.")
    ff1 = cipher(key, chars)
    return ff1.encrypt(text, tweak=bytes(tweak)) if encrypt else ff1.decrypt(text, tweak=bytes(tweak))


def ff3_1_decrypt(key_hex: str, text: str, *, alphabet: str, tweak_hex: str) -> str:
    """Decrypt one FF3-1 pseudonym made by an earlier dpdesk (the ``ff3`` package; withdrawn, see the module)."""
    return ff3_1_cipher(key_hex, alphabet, tweak_hex).decrypt(text)


def ff3_1_cipher(key_hex: str, alphabet: str, tweak_hex: str):
    """The ``ff3`` package's FF3-1 cipher, to decrypt old pseudonyms only."""
    try:
        from ff3 import FF3Cipher
    except ImportError:
        raise PseudonymError("Decrypting old FF3-1 pseudonyms needs the ff3 package, which is not installed: "
                             "pip install 'ff3>=1.0.2'.") from None
    return FF3Cipher.withCustomAlphabet(key_hex, tweak_hex, characters(alphabet))
