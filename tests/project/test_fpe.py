"""FF1 (NIST SP 800-38G): NIST's published samples 1-9, round trips over every alphabet dpdesk
offers, the 10^6 domain floor, and old FF3-1 pseudonyms that still decrypt with a note.

The samples are NIST's "FF1samples.pdf" (Computer Security Resource Center, examples for
SP 800-38G): AES-128, -192 and -256, radix 10 with an empty and a 10-byte tweak, radix 36
with an 11-byte tweak.
"""

import random
import warnings

import pandas as pd
import pytest

from dpdesk.project.sharing import fpe
from dpdesk.project.sharing import pseudonymize as pz
from dpdesk.project.sharing.pseudonymize import ff1_decrypt, ff1_encrypt

K128 = "2B7E151628AED2A6ABF7158809CF4F3C"
K192 = K128 + "EF4359D8D580AA4F"
K256 = K192 + "7F036D6F04FC6A94"
T10 = "39383736353433323130"
T11 = "3737373770717273373737"
DIGITS = "0123456789"
BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
NIST_FF1_SAMPLES = [  # (sample, key, radix alphabet, tweak, plaintext, ciphertext)
    (1, K128, DIGITS, "", "0123456789", "2433477484"),
    (2, K128, DIGITS, T10, "0123456789", "6124200773"),
    (3, K128, BASE36, T11, "0123456789abcdefghi", "a9tv40mll9kdu509eum"),
    (4, K192, DIGITS, "", "0123456789", "2830668132"),
    (5, K192, DIGITS, T10, "0123456789", "2496655549"),
    (6, K192, BASE36, T11, "0123456789abcdefghi", "xbj3kv35jrawxv32ysr"),
    (7, K256, DIGITS, "", "0123456789", "6657667009"),
    (8, K256, DIGITS, T10, "0123456789", "1001623463"),
    (9, K256, BASE36, T11, "0123456789abcdefghi", "xs8a0azh2avyalyzuwd"),
]


@pytest.mark.parametrize("sample, key, alphabet, tweak, plain, cipher", NIST_FF1_SAMPLES,
                         ids=[f"sample{s[0]}" for s in NIST_FF1_SAMPLES])
def test_nist_ff1_samples(sample, key, alphabet, tweak, plain, cipher):
    key, tweak = bytes.fromhex(key), bytes.fromhex(tweak)
    assert ff1_encrypt(key, plain, alphabet=alphabet, tweak=tweak) == cipher
    assert ff1_decrypt(key, cipher, alphabet=alphabet, tweak=tweak) == plain


def test_nist_radix_36_samples_through_dpdesks_lower_alphabet_and_pseudonymize():
    """The alphabet named "lower" is NIST's radix 36; pseudonymize uses the same cipher."""
    assert fpe.ALPHABETS["lower"] == BASE36
    for _, key, alphabet, tweak, plain, cipher in NIST_FF1_SAMPLES:
        name = "lower" if alphabet == BASE36 else "digits"
        assert ff1_encrypt(bytes.fromhex(key), plain, alphabet=name, tweak=bytes.fromhex(tweak)) == cipher
        out = pz.pseudonymize(pd.Series([plain]), key, alphabet=name, tweak=bytes.fromhex(tweak))
        assert out.values.tolist() == [cipher] and out.method == "FF1"


@pytest.mark.parametrize("name", sorted(pz.ALPHABETS))
def test_round_trips_over_every_alphabet_dpdesk_offers(name):
    chars = pz.ALPHABETS[name]
    rng = random.Random(28)
    key = bytes(rng.randrange(256) for _ in range(32))
    low = fpe.min_length(len(chars))
    for length in (low, low + 1, 17, 64):
        for _ in range(20):
            text = "".join(rng.choice(chars) for _ in range(length))
            for tweak in (b"", b"dpdesk", bytes(range(40))):
                secret = ff1_encrypt(key, text, alphabet=name, tweak=tweak)
                assert len(secret) == len(text) and set(secret) <= set(chars)
                assert ff1_decrypt(key, secret, alphabet=name, tweak=tweak) == text
                assert ff1_decrypt(key, secret, alphabet=chars, tweak=tweak) == text  # by its characters too


def test_the_domain_floor_of_a_million_values_is_enforced_not_padded():
    """SP 800-38G Rev. 1: radix**n >= 10^6. A 5-digit value (10^5) is refused, never padded or passed."""
    assert [fpe.min_length(len(pz.ALPHABETS[n])) for n in ("digits", "lower", "upper", "alnum")] == [6, 4, 4, 4]
    key = bytes(16)
    with pytest.raises(pz.PseudonymError, match="at least a million"):
        ff1_encrypt(key, "12345", alphabet="digits")
    with pytest.raises(pz.PseudonymError, match="at least a million"):
        ff1_encrypt(key, "abc", alphabet="lower")  # 36^3 = 46,656
    assert len(ff1_encrypt(key, "123456", alphabet="digits")) == 6
    with pytest.raises(pz.PseudonymError, match="position 3"):
        ff1_encrypt(key, "12-3456", alphabet="digits")
    with pytest.raises(pz.PseudonymError, match="16, 24 or 32 bytes"):
        ff1_encrypt(bytes(15), "123456", alphabet="digits")
    with pytest.raises(pz.PseudonymError, match="bytes.fromhex"):
        ff1_encrypt(K128, "123456", alphabet="digits")


# Pseudonyms made by dpdesk before this change (FF3-1, the ff3 package, tweak_for("dpdesk")).
OLD_KEY = "EF4359D8D580AA4F7F036D6F04FC6A94"


def _old_ff3_1(values, alphabet="digits", context="dpdesk"):
    from ff3 import FF3Cipher

    c = FF3Cipher.withCustomAlphabet(OLD_KEY, pz.tweak_for(context), pz.ALPHABETS[alphabet])
    return [c.encrypt(v) for v in values]


def test_old_ff3_1_extracts_still_decrypt_for_the_key_holder_with_a_note_that_it_is_withdrawn():
    clear = ["20240017", "20240018", "00000001"]
    old = pd.Series(_old_ff3_1(clear) + [None])
    with pytest.warns(pz.WithdrawnMethod, match="withdrew"):
        back = pz.reveal(old, OLD_KEY, alphabet="digits", method="FF3-1")
    assert back.tolist() == clear + [None]
    assert "FF3-1" in back.attrs["dpdesk_note"] and "FF1" in back.attrs["dpdesk_note"]


def test_reveal_never_guesses_the_method_of_values_read_back_from_a_file():
    """An attack on the reader: FF3-1 values decrypted as FF1 would be wrong values, silently."""
    old = pd.Series(_old_ff3_1(["20240017"]))
    with pytest.raises(pz.PseudonymError, match="method='FF1'.*method='FF3-1'"):
        pz.reveal(old, OLD_KEY, alphabet="digits")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # FF1 values decrypt without the withdrawn note
        new = pz.pseudonymize(pd.Series(["20240017"]), OLD_KEY)
        assert pz.reveal(new.values, OLD_KEY, alphabet="digits").tolist() == ["20240017"]  # marked: FF1
        plain = pd.Series(new.values.tolist())  # as read back from a CSV: no mark
        assert pz.reveal(plain, OLD_KEY, alphabet="digits", method="FF1").tolist() == ["20240017"]


def test_new_pseudonyms_are_ff1_not_ff3_1():
    new = pz.pseudonymize(pd.Series(["20240017"]), OLD_KEY)
    assert new.method == "FF1"
    assert new.values.iloc[0] == ff1_encrypt(bytes.fromhex(OLD_KEY), "20240017", alphabet="digits",
                                             tweak=b"dpdesk")
    assert new.values.iloc[0] != _old_ff3_1(["20240017"])[0]


def test_the_methods_text_names_the_method_of_the_shared_extract(tmp_path):
    from dpdesk.project import Project
    from dpdesk.project.report.methods import _pseudonym_sentence
    from dpdesk.project.report.references import cite
    from dpdesk.project.sharing.column_protection import save_sharing_settings, sharing_settings

    with Project.create(tmp_path / "p.dpdesk") as project:
        assert _pseudonym_sentence(project, cite) == ""
        save_sharing_settings(project, k=5, quasi=["age"], sensitive=[], pseudonymised={"student_no": "FF1"})
        assert "with FF1 format-preserving encryption (Dworkin, 2016)" in _pseudonym_sentence(project, cite)
        save_sharing_settings(project, k=5, quasi=["age"], sensitive=[], pseudonymised={"id": "FF3-1"})
        assert "FF3-1 (since withdrawn by NIST)" in _pseudonym_sentence(project, cite)
        save_sharing_settings(project, k=5, quasi=["age"], sensitive=[], pseudonymised={"id": "ROT13"})
        assert sharing_settings(project).pseudonymised == ()  # a setting the file made up is not repeated
