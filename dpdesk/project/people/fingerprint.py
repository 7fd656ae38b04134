"""A fingerprint of the respondents in a dataset, independent of row order and file format.

``data_fingerprint(frame, columns)`` is the SHA-256 of the sorted, normalised rows of the
named columns (default: all), so the same answers give the same fingerprint whether they
arrive as CSV or Excel, in another row order, or with blank rows added:

* each value becomes a canonical text: blanks (None, NaN, NaT, empty or white-space text)
  are ``""``; booleans and the texts "true"/"false" are ``true``/``false``; numbers, and
  texts that read as a finite number, are the shortest ``repr`` of the float, with whole
  numbers written without a fraction (``1``, ``1.0`` and ``"1"`` are all ``1``); dates and
  times are ISO 8601; other text is NFC-normalised with surrounding white space removed
  (letter case is kept);
* a row whose values are all blank is left out;
* the rows (as JSON arrays, columns in sorted name order) are sorted and hashed after a
  header naming the fingerprint version and the columns; duplicate rows count.

What it cannot recognise: a changed answer, an added or removed respondent, a renamed
column or recoded values (other codes for the same answers) all give another fingerprint.
The signature's name-free sketch (:mod:`dpdesk.project.people.sketch`) recognises the same
people under renamed columns and a few rows deleted, added or changed.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import re
import unicodedata
from datetime import date, datetime
from typing import Any, Iterable

VERSION = "dpdesk-fingerprint-1"


def canonical_value(value: Any, number=None) -> str:
    """The normalised text of one cell (see the module docstring); ``number`` writes a finite or infinite float
    (default: :func:`_number`)."""
    number = number or _number
    if value is None:
        return ""
    if isinstance(value, (bool,)) or type(value).__name__ == "bool_":
        return "true" if bool(value) else "false"
    if isinstance(value, numbers.Number):
        x = float(value)
        if math.isnan(x):
            return ""
        return number(x)
    if isinstance(value, (datetime, date)) or hasattr(value, "isoformat"):
        try:
            import pandas as pd

            if value is pd.NaT:
                return ""
        except ImportError:  # pragma: no cover
            pass
        return value.isoformat()
    try:
        import pandas as pd

        if value is pd.NA:
            return ""
    except ImportError:  # pragma: no cover
        pass
    text = unicodedata.normalize("NFC", str(value)).strip()
    if number is not _number:
        return _people_string(text)
    if text.casefold() in ("true", "false"):
        return text.casefold()
    if text and len(text) < 40:
        try:
            x = float(text)
        except ValueError:
            return text
        if math.isfinite(x):
            return _number(x)
    return text


def _number(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x.is_integer() and abs(x) < 2 ** 63:
        return str(int(x))
    return repr(x)


#: A text read as a number by :func:`people_text` (and by the engines' SQL, :mod:`dpdesk.project.linked.people_sql`).
NUMBER_TEXT = r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
_NUMBER_RE = re.compile(NUMBER_TEXT)


def people_text(value: Any) -> str:
    """The text of one cell that the people hash (:mod:`dpdesk.project.people.sketch`, version 3) hashes.

    As :func:`canonical_value` (blanks ``""``, booleans and the texts true/false ``true``/``false``, whole
    numbers below 2^63 as integers, so ``1``, ``1.0`` and ``"1"`` agree; dates ISO 8601; text NFC with
    white space stripped), but chosen so that SQL computes the same text (:mod:`dpdesk.project.linked.people_sql`):
    any other finite number is written exactly as ``[-]Mp<e>``, its binary significand M (an integer below 2^53)
    and exponent (x = M 2^(e-52)), not as the shortest decimal, which Java and Python write differently; a text
    is read as a number only when it is a plain decimal (:data:`NUMBER_TEXT`, under 40 characters)."""
    return canonical_value(value, _people_number)


def _people_number(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x.is_integer() and abs(x) < 2 ** 63:
        return str(int(x))
    m, e = math.frexp(abs(x))
    return f"{'-' if x < 0 else ''}{int(m * 2 ** 53)}p{e - 1}"


def _people_string(text: str) -> str:
    if text.lower() in ("true", "false"):
        return text.lower()
    if len(text) < 40 and _NUMBER_RE.fullmatch(text):
        x = float(text)
        if math.isfinite(x):
            return _people_number(x)
    return text


def _column_texts(series, people: bool = False):
    """(canonical text of each distinct value, index of each row's value into it); with ``people``:
    (canonical texts, people texts (:func:`people_text`), index)."""
    import numpy as np
    import pandas as pd

    if series.dtype == object:  # mixed values: keyed by type too, so True and 1 stay apart
        fns = (canonical_value, people_text) if people else (canonical_value,)
        cache: dict = {}
        values: list = []
        index = np.empty(len(series), dtype=np.int64)
        for i, value in enumerate(series.tolist()):
            try:
                key = (type(value), value)
                j = cache.get(key)
            except TypeError:  # unhashable: no cache
                key, j = None, None
            if j is None:
                j = len(values)
                values.append(value)
                if key is not None:
                    cache[key] = j
            index[i] = j
        lists = [[fn(v) for v in values] for fn in fns]
    else:
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
        numbers = uniques.to_numpy() if people and _plain_numbers(series.dtype) else None
        uniques = uniques.tolist()
        lists = [[canonical_value(v) for v in uniques] + [""]]  # the last slot: missing (code -1)
        if people:
            lists.append(_people_of_numbers(numbers, lists[0]) if numbers is not None else
                         [people_text(v) for v in uniques] + [""])
        index = np.where(codes < 0, len(lists[0]) - 1, codes)
    return (*lists, index)


def _plain_numbers(dtype) -> bool:
    import numpy as np

    return isinstance(dtype, np.dtype) and dtype.kind in "iuf"


def _people_of_numbers(values, canonical: list[str]) -> list[str]:
    """:func:`people_text` of distinct numbers (a numpy int or float array), from their canonical texts: equal to them
    for blanks, infinities and whole numbers below 2^63; the binary form (numpy's frexp) for the others."""
    import numpy as np

    x = values.astype(np.float64)
    out = list(canonical)
    with np.errstate(invalid="ignore"):
        other = np.isfinite(x) & ~((x == np.floor(x)) & (np.abs(x) < 2.0 ** 63))
    idx = np.nonzero(other)[0]
    if len(idx):
        m, e = np.frexp(np.abs(x[idx]))
        significand = (m * 2.0 ** 53).astype(np.int64)
        for i, mm, ee, neg in zip(idx.tolist(), significand.tolist(), (e - 1).tolist(), (x[idx] < 0).tolist()):
            out[i] = f"{'-' if neg else ''}{mm}p{ee}"
    return out


def canonical_rows(frame, columns: Iterable[str] | None = None) -> tuple[list[str], list[str]]:
    """(the sorted column names, the sorted non-blank rows as JSON text) of ``columns`` of ``frame``.

    Each distinct value is normalised once, so a million rows take about a second.
    """
    import numpy as np

    names = sorted(str(c) for c in (frame.columns if columns is None else columns))
    lookup = {str(c): c for c in frame.columns}
    missing = [n for n in names if n not in lookup]
    if missing:
        from dpdesk.errors import DataError

        raise DataError(f"Cannot fingerprint the data: there is no column {missing[0]!r}.")
    blank = np.ones(len(frame), dtype=bool)
    parts = []
    for n in names:
        texts, index = _column_texts(frame[lookup[n]])
        encoded = np.array([json.dumps(t, ensure_ascii=False) for t in texts], dtype=object)
        empty = np.array([t == "" for t in texts], dtype=bool)
        blank &= empty[index]
        parts.append(encoded[index])
    rows: list[str] = []
    if parts:
        joined = parts[0].copy()
        for part in parts[1:]:
            joined = joined + "," + part
        # the same text as json.dumps(row, ensure_ascii=False, separators=(",", ":"))
        rows = sorted(("[" + joined[~blank] + "]").tolist())
    return names, rows


def data_fingerprint(frame, columns: Iterable[str] | None = None) -> str:
    """SHA-256 (hex) over the sorted, normalised, non-blank rows of ``columns`` of ``frame``."""
    names, rows = canonical_rows(frame, columns)
    return _digest(names, rows)


def _digest(names: list[str], rows: list[str]) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps([VERSION, names], ensure_ascii=False).encode("utf-8"))
    if rows:
        digest.update(("\n" + "\n".join(rows)).encode("utf-8"))
    return digest.hexdigest()


#: Rows kept in a sketch: the estimated overlap of two datasets is within about
#: 1/sqrt(SKETCH_SIZE) (6%) of the truth (Broder 1997; Cohen & Kaplan 2007, bottom-k sketches).
SKETCH_SIZE = 256


def respondents_signature(frame) -> dict:
    """What recognises these respondents again: ``fingerprint``, ``rows``, ``distinct`` and ``sketch``.

    Every non-blank row gets a 64-bit hash built from its normalised values (the same
    normalisation as :func:`data_fingerprint`; each distinct value hashed once with BLAKE2b,
    the columns mixed in sorted name order and finished with SplitMix64's mixer, all in
    numpy), so a million rows take well under a second. ``fingerprint`` is the SHA-256 of
    the sorted row hashes (order- and format-independent, duplicates counted); ``sketch``
    the :data:`SKETCH_SIZE` smallest distinct row hashes, so a subset, a superset or a
    corrected copy of the data is recognised by :func:`overlap` without keeping any row.
    ``people`` is the name-free sketch of :mod:`dpdesk.project.people.sketch` (renamed or
    reordered columns leave it as it was).
    """
    import numpy as np

    from dpdesk.project.people import sketch

    names = sorted(str(c) for c in frame.columns)
    lookup = {str(c): c for c in frame.columns}
    n = len(frame)
    rows = np.zeros(n, dtype=np.uint64)
    blank = np.ones(n, dtype=bool)
    prime = np.uint64(0x100000001B3)
    unnamed, unnamed_v2 = [], []
    with np.errstate(over="ignore"):
        for name in names:
            texts, people_texts, index = _column_texts(frame[lookup[name]], people=True)
            values = np.array([_hash64(f"{name}\x1f{t}") for t in texts], dtype=np.uint64)
            empty = np.array([t == "" for t in texts], dtype=bool)
            blank &= empty[index]
            rows = (rows ^ values[index]) * prime
            unnamed.append((sketch.value_hashes(people_texts), index))
            unnamed_v2.append((sketch.value_hashes_v2(texts), index))
        rows = sketch.mix(rows[~blank])
    ordered = np.sort(rows)
    distinct = np.unique(ordered)
    digest = hashlib.sha256(json.dumps([VERSION, "rows", names]).encode("utf-8"))
    digest.update(ordered.astype(">u8").tobytes())
    return {"version": VERSION, "fingerprint": digest.hexdigest(), "rows": int(len(ordered)),
            "distinct": int(len(distinct)), "sketch": [format(int(h), "016x") for h in distinct[:SKETCH_SIZE]],
            "people": _people(sketch.row_hashes_from(unnamed, n, blank)),
            "people_v2": _people(sketch.row_hashes_from(unnamed_v2, n, blank), 2)}


def _people(hashes, version: int | None = None) -> dict:
    """The ``people`` sketch of a dataset's row hashes (all its non-blank rows, duplicates included)."""
    import numpy as np

    from dpdesk.project.people import sketch

    version = version or sketch.VERSION
    distinct = np.unique(hashes)
    fp = None
    if version >= 3:
        fp = sketch.rows_digest(len(hashes), int(hashes.sum(dtype=np.uint64)) if len(hashes) else 0,
                                int(np.bitwise_xor.reduce(hashes)) if len(hashes) else 0)
    return sketch.people_of_hashes([int(h) for h in distinct[:sketch.K]], int(len(hashes)), int(len(distinct)),
                                   fp=fp, version=version)


def _hash64(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def overlap(a: dict, b: dict) -> float:
    """Estimated share of the smaller dataset's distinct rows that are also in the other (0..1).

    Signatures with a name-free ``people`` sketch on both sides (this version's) are compared by
    :func:`dpdesk.project.people.sketch.same_people` (renamed columns, a few rows deleted, added or
    changed are still the same people). Older signatures: from the named bottom-k sketches, the k
    smallest hashes of the union estimate the Jaccard index J; the intersection is
    J (|A| + |B|) / (1 + J).
    """
    if a.get("fingerprint") == b.get("fingerprint"):
        return 1.0
    pb = b.get("people")
    if isinstance(a.get("people"), dict) and isinstance(pb, dict):
        from dpdesk.project.people.sketch import same_people, sketch_for

        pa = sketch_for(a, pb.get("v"))  # the same version (an old register's version 2 with an import's)
        if pa is None and isinstance(b.get("people_v2"), dict):
            pa, pb = sketch_for(a, 2), b["people_v2"]
        if pa is not None:
            return same_people(pa, pb)
    sa, sb = set(a.get("sketch") or ()), set(b.get("sketch") or ())
    if not sa or not sb:
        return 0.0
    k = min(SKETCH_SIZE, len(sa | sb))
    union = sorted(sa | sb, key=lambda h: int(h, 16))[:k]
    jaccard = sum(1 for h in union if h in sa and h in sb) / k
    na, nb = int(a.get("distinct") or len(sa)), int(b.get("distinct") or len(sb))
    both = jaccard * (na + nb) / (1 + jaccard)
    return min(1.0, both / max(1, min(na, nb)))


def people_of_chunks(chunks) -> dict:
    """The name-free ``people`` sketch of data read in chunks (DataFrames with the same columns, e.g. from
    a database cursor), in bounded memory: each chunk's row hashes go into a
    :class:`dpdesk.project.people.sketch.PeopleSketch`; the number of distinct rows is estimated. Equal,
    up to that estimate, to ``respondents_signature(whole)["people"]``."""
    import numpy as np

    from dpdesk.project.people import sketch

    out = sketch.PeopleSketch()
    for frame in chunks:
        n = len(frame)
        blank = np.ones(n, dtype=bool)
        columns = []
        for name in frame.columns:
            _texts, texts, index = _column_texts(frame[name], people=True)
            blank &= np.array([t == "" for t in texts], dtype=bool)[index]
            columns.append((sketch.value_hashes(texts), index))
        out.add(sketch.row_hashes_from(columns, n, blank))
    return out.result()
