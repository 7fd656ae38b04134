"""Pseudonyms (FF1; old FF3-1 ones decrypt): same value same pseudonym, bad values reported, keys.

NIST's FF1 samples are in test_fpe.py."""

import os
import stat

import numpy as np
import pandas as pd
import pytest

from dpdesk.project.sharing import pseudonymize as pz

# NIST ACVP FF3-1 vectors (56-bit tweaks), as published with the ff3 package's tests
# (mysto/python-fpe, ff3_test.py, testVectors_ACVP_AES_FF3_1): AES-128, -192 and -256.
VECTORS = [
    ("digits", "2DE79D232DF5585D68CE47882AE256D6", "CBD09280979564", "3992520240", "8901801106"),
    ("digits", "01C63017111438F7FC8E24EB16C71AB5", "C4E822DCD09F27",
     "60761757463116869318437658042297305934914824457484538562",
     "35637144092473838892796702739628394376915177448290847293"),
    ("digits", "F62EDB777A671075D47563F3A1E9AC797AA706A2D8E02FC8", "493B8451BF6716", "4406616808", "1807744762"),
    ("digits", "1FAA03EFF55A06F8FAB3F1DC57127D493E2F8F5C365540467A3A055BDBE6481D", "4D67130C030445",
     "3679409436", "1735794859"),
]
LETTERS = [  # radix 26 over a-z, through the package directly (not one of dpdesk's alphabets)
    ("718385E6542534604419E83CE387A437", "B6F35084FA90E1", "wfmwlrorcd", "ywowehycyd"),
    ("6187F8BDE99F7DAF9E3EE8A8654308E7E51D31FA88AFFAEB5592041C033B736B", "5820812B3D5DD1", "mkblaoiyfd",
     "ifpyiihvvq"),
]
KEY = "EF4359D8D580AA4F7F036D6F04FC6A94"


@pytest.mark.parametrize("alphabet, key, tweak, plain, cipher", VECTORS)
def test_ff3_1_acvp_vectors_still_decrypt_old_pseudonyms(alphabet, key, tweak, plain, cipher):
    from dpdesk.project.sharing import fpe

    assert fpe.ff3_1_decrypt(key, cipher, alphabet=alphabet, tweak_hex=tweak) == plain
    out = pz.pseudonymize(pd.Series([plain]), key, alphabet=alphabet)
    assert out.method == "FF1" and out.values.tolist() != [cipher]  # new pseudonyms are FF1


@pytest.mark.parametrize("key, tweak, plain, cipher", LETTERS)
def test_ff3_1_acvp_vectors_radix_26(key, tweak, plain, cipher):
    from ff3 import FF3Cipher

    c = FF3Cipher.withCustomAlphabet(key, tweak, "abcdefghijklmnopqrstuvwxyz")
    assert c.encrypt(plain) == cipher and c.decrypt(cipher) == plain


def test_same_value_same_pseudonym_digits_stay_digits_and_reveal():
    ids = pd.Series(["20240017", "20240018", "20240017", None, "00000001"])
    out = pz.pseudonymize(ids, KEY)
    v = out.values.tolist()
    assert out.alphabet == "digits" and v[0] == v[2] and v[0] != v[1] and v[3] is None
    assert all(len(x) == 8 and x.isdigit() for x in (v[0], v[1], v[4]))
    assert v[0] != "20240017"
    again = pz.pseudonymize(pd.Series(["20240017"]), KEY).values.tolist()
    assert again == [v[0]]  # another file, same key and context: tables still join
    assert pz.pseudonymize(pd.Series(["20240017"]), KEY, context="study B").values.tolist() != [v[0]]
    assert pz.reveal(out.values, KEY, alphabet="digits").tolist() == ["20240017", "20240018", "20240017", None,
                                                                       "00000001"]


def test_integer_and_alphanumeric_columns():
    out = pz.pseudonymize(pd.Series([123456, 123456, 654321]), KEY)
    assert out.values.iloc[0] == out.values.iloc[1] and out.values.iloc[0].isdigit()
    keys = pd.Series(["AB12CD", "ZZ99XY"])
    out = pz.pseudonymize(keys, KEY)
    assert out.alphabet == "upper"
    assert all(len(x) == 6 and set(x) <= set(pz.ALPHABETS["upper"]) for x in out.values)
    assert pz.pseudonymize(pd.Series(["Ab12cD"]), KEY).alphabet == "alnum"


def test_bad_values_are_reported_by_row_and_never_passed_through():
    ids = pd.Series(["20240017", "12345", "2024-0018", "20240017"], index=[0, 1, 2, 3])
    with pytest.raises(pz.PseudonymError) as info:
        pz.pseudonymize(ids, KEY, alphabet="digits", column="student", row_offset=2)
    msg = str(info.value)
    assert "row 3: 5 characters; FF1 needs 6 to 1,000" in msg
    assert "row 4: the character '-' at position 5" in msg
    assert "12345" not in msg and "2024-0018" not in msg  # the values themselves are not printed
    out = pz.pseudonymize(ids, KEY, alphabet="digits", invalid="blank", row_offset=2)
    assert out.values.iloc[1] is None and out.values.iloc[2] is None
    assert [p.row for p in out.blanked] == [3, 4]
    assert out.values.iloc[0] == out.values.iloc[3] != "20240017"
    too_long = pd.Series(["1" * 1001])
    with pytest.raises(pz.PseudonymError, match="1001 characters"):
        pz.pseudonymize(too_long, KEY)


def test_length_bounds_follow_ff1_and_old_ff3_1():
    assert pz.length_bounds(10) == (6, 1000)
    assert pz.length_bounds(36) == (4, 1000)
    assert pz.length_bounds(62) == (4, 1000)
    assert pz.length_bounds(10, "FF3-1") == (6, 56)
    assert pz.length_bounds(36, "FF3-1") == (4, 36)
    assert pz.length_bounds(62, "FF3-1") == (4, 32)
    assert pz.pseudonymize(pd.Series(["1" * 80]), KEY).values.str.len().tolist() == [80]  # FF3-1 stopped at 56


def test_keys_are_generated_once_read_back_and_never_shown(tmp_path):
    path = tmp_path / "study.key"
    pz.generate_key(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    key = pz.read_key(path)
    assert len(key) == 64 and int(key, 16) >= 0
    with pytest.raises(pz.PseudonymError, match="never overwrites"):
        pz.generate_key(path)
    assert pz.read_key(path) == key
    bad = tmp_path / "bad.key"
    bad.write_text("not a key at all")
    with pytest.raises(pz.PseudonymError, match="32, 48 or 64 hex digits") as info:
        pz.read_key(bad)
    assert "not a key" not in str(info.value)
    with pytest.raises(pz.PseudonymError, match="does not exist"):
        pz.read_key(tmp_path / "none.key")


def test_many_repeated_values_are_encrypted_once():
    rng = np.random.default_rng(0)
    ids = pd.Series(rng.choice([f"{i:07d}" for i in range(50)], 20_000))
    out = pz.pseudonymize(ids, KEY)
    assert out.values.nunique() == ids.nunique() == 50
