"""The people hash of a row (:mod:`dpdesk.project.people.sketch`, version 3) in DuckDB's and Spark's SQL.

One definition, computed identically by Python (an imported copy), DuckDB and Spark:

    row hash = mix( sum over non-blank cells of MD5-64(people text) mod 2^64 )

where the people text is :func:`dpdesk.project.people.fingerprint.people_text`, built here in SQL
from the column's engine type:

* a number (any integer, decimal or float type) is cast to DOUBLE, as Python's ``float(value)``:
  NaN is blank, ±infinity ``inf``/``-inf``, a whole number below 2^63 its integer text, any other
  ``[-]Mp<e>`` (``e = floor(log2 |x|)``, corrected by one where ``log2`` rounds, and
  ``M = |x| 2^(52-e)``, exact in doubles since the power of two is split in two factors);
* a boolean ``true``/``false``; a date ``YYYY-MM-DD``; a timestamp ``YYYY-MM-DDTHH:MM:SS[.ffffff]``;
* anything else as text: NFC-normalised (DuckDB ``nfc_normalize``; Spark has no normaliser, so
  text stored decomposed, NFD, differs there: the one known difference), stripped of the
  characters Python's ``str.strip()`` strips, ``true``/``false`` in any case lowered, a plain
  decimal (:data:`~dpdesk.project.people.fingerprint.NUMBER_TEXT`, under 40 characters) read
  as a number as above; NULL or empty text is blank;
* MD5-64: the digest's first 8 bytes as an unsigned 64-bit integer, little-endian (DuckDB
  ``md5_number(text)`` mod 2^64, twice as fast as parsing the hex text; Spark ``conv`` of the first
  16 hex digits of ``md5(text)`` taken byte by byte from the eighth), 0 for a blank cell;
* the sum mod 2^64 (DuckDB HUGEINT; Spark DECIMAL(38, 0)) and SplitMix64's finaliser (Steele, Lea &
  Flood 2014): shifts and XOR on 64-bit integers, each multiplication mod 2^64 in 128-bit
  UHUGEINT (DuckDB) or, as Spark has no unsigned 64-bit type, in DECIMAL(38, 0) split into
  32-bit halves: ``x c mod 2^64 = ((hi(x) c mod 2^32) 2^32 + lo(x) c) mod 2^64``.

Known limits, the same in all three: a timestamp read as text from a CSV by one side and as a
timestamp by the other (``2020-01-02 03:04:05`` against ``2020-01-02T03:04:05``); time zones are
not normalised; values of nested types are compared by the engine's text of them.

Cost: per row, one MD5 per non-blank cell and about thirty integer operations, in the engine's
threads, streaming (no state per row is kept): the time is measured by ``benchmarks/linked.py``.
The hash is a column ``h`` of :func:`rows_sql`'s subquery: an unsigned 64-bit integer (DuckDB
UBIGINT, Spark DECIMAL(20, 0)), ordered as the sketch's hashes are.
"""

from __future__ import annotations

import sys

from dpdesk.project.people.fingerprint import NUMBER_TEXT

__all__ = ["rows_sql", "WHITESPACE"]

#: Every character Python's ``str.strip()`` removes (``str.isspace``).
WHITESPACE = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())

_C1, _C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_2_64 = 18446744073709551616
_MASK = f"CAST('{_2_64 - 1}' AS UHUGEINT)"  # x & (2^64 - 1) = x mod 2^64: a 128-bit % is ~100x slower


def _kind(col) -> str:
    """How the column's cells become text: its kind (number, boolean), or for text, a date or timestamp type."""
    if col.kind in ("number", "boolean"):
        return col.kind
    t = col.type.upper()
    return "date" if t == "DATE" else "timestamp" if t.startswith("TIMESTAMP") else "text"


class _SQL:
    """The few expressions that differ between DuckDB and Spark."""

    def __init__(self, spark: bool):
        self.spark = spark

    def text(self, x):
        return f"CAST({x} AS STRING)" if self.spark else f"CAST({x} AS VARCHAR)"

    def strip(self, x, ws):
        if self.spark:
            return f"trim(BOTH {ws} FROM {x})"
        return f"trim(nfc_normalize({x}), {ws})"

    def date(self, x):
        return f"date_format({x}, 'yyyy-MM-dd')" if self.spark else f"strftime({x}, '%Y-%m-%d')"

    def timestamp(self, x):
        if self.spark:
            return (f"CASE WHEN date_format({x}, 'SSSSSS') = '000000' THEN date_format({x}, \"yyyy-MM-dd'T'HH:mm:ss\") "
                    f"ELSE date_format({x}, \"yyyy-MM-dd'T'HH:mm:ss.SSSSSS\") END")
        return (f"CASE WHEN strftime({x}, '%f') = '000000' THEN strftime({x}, '%Y-%m-%dT%H:%M:%S') "
                f"ELSE strftime({x}, '%Y-%m-%dT%H:%M:%S.%f') END")

    def try_double(self, x):
        return f"try_cast({x} AS DOUBLE)" if self.spark else f"TRY_CAST({x} AS DOUBLE)"

    def matches(self, x, pattern):
        return f"regexp_like({x}, {pattern})" if self.spark else f"regexp_full_match({x}, {pattern})"

    def finite(self, x):
        if self.spark:
            return f"({x} IS NOT NULL AND NOT isnan({x}) AND abs({x}) != double('infinity'))"
        return f"isfinite({x})"

    def md5_64(self, t):
        if self.spark:  # the first 8 bytes of the hex digest, last byte first (little-endian)
            le = ", ".join(f"substr(md5({t}), {15 - 2 * i}, 2)" for i in range(8))
            return f"CASE WHEN {t} = '' THEN 0BD ELSE CAST(conv(concat({le}), 16, 10) AS DECIMAL(20, 0)) END"
        return f"CASE WHEN {t} = '' THEN 0::UBIGINT ELSE CAST(md5_number({t}) & {_MASK} AS UBIGINT) END"

    def int_div2(self, x):
        return f"({x} div 2)" if self.spark else f"({x} // 2)"


def _number_text(s: _SQL, x: str, e: str) -> str:
    """The people text of the double ``x`` (finite or not; NULL/NaN are blank), ``e`` its floor(log2 |x|)."""
    a = f"abs({x})"
    k = f"(52 - {e})"
    k1 = s.int_div2(k)
    significand = f"CAST({a} * pow(2.0, {k1}) * pow(2.0, {k} - {k1}) AS BIGINT)"
    binary = f"concat(CASE WHEN {x} < 0 THEN '-' ELSE '' END, {s.text(significand)}, 'p', {s.text(e)})"
    return (f"CASE WHEN {x} IS NULL OR isnan({x}) THEN '' "
            f"WHEN NOT {s.finite(x)} THEN CASE WHEN {x} > 0 THEN 'inf' ELSE '-inf' END "
            f"WHEN {x} = floor({x}) AND {a} < 9223372036854775808.0 THEN {s.text(f'CAST({x} AS BIGINT)')} "
            f"ELSE {binary} END")


def _log2_floor(s: _SQL, x: str) -> str:
    """floor(log2 |x|) as computed (corrected by :func:`_corrected`), only where the binary form is written: a finite
    x that is not a whole number below 2^63 (NULL elsewhere, so whole numbers cost no logarithm)."""
    e0 = f"CAST(floor(log2(abs({x}))) AS INTEGER)"
    return (f"CASE WHEN {x} IS NULL OR NOT {s.finite(x)} OR ({x} = floor({x}) AND abs({x}) < 9223372036854775808.0) "
            f"THEN NULL ELSE {e0} END")


def rows_sql(dialect, columns, source: str = "{source}") -> tuple[str, dict]:
    """(a subquery with the column ``h``: the people hash of every non-blank row of ``source``, its parameters).

    ``columns``: the schema's :class:`~dpdesk.project.linked.source.Column` objects (name and engine type);
    every name is quoted by ``dialect``, every constant text a parameter."""
    s = _SQL(dialect.name == "spark")
    params = {"pws": WHITESPACE, "pnum": f"^{NUMBER_TEXT}$" if s.spark else NUMBER_TEXT}
    if not any(_kind(c) == "text" for c in columns):
        params = {}  # DuckDB refuses parameters a statement does not use
    ws, num = f"{dialect.param}pws", f"{dialect.param}pnum"
    lv0, lv1, lv2, lv2b, lv3 = [], [], [], [], []
    for i, col in enumerate(columns):
        c, kind = dialect.quote(col.name), _kind(col)
        v, x, e, t = f"v{i}", f"x{i}", f"e{i}", f"t{i}"
        if kind == "number":
            lv0.append(f"CAST({c} AS DOUBLE) AS {x}, CAST(NULL AS STRING) AS {v}" if s.spark else
                       f"CAST({c} AS DOUBLE) AS {x}, CAST(NULL AS VARCHAR) AS {v}")
            lv1.append(f"{x}, {v}")
        elif kind == "text":
            lv0.append(f"CAST(NULL AS DOUBLE) AS {x}, {s.strip(s.text(c), ws)} AS {v}")
            lv1.append(f"CASE WHEN length({v}) < 40 AND {s.matches(v, num)} THEN {s.try_double(v)} END AS {x}, "
                       f"CASE WHEN lower({v}) IN ('true', 'false') THEN lower({v}) ELSE {v} END AS {v}")
        else:
            text = {"boolean": f"CASE WHEN {c} THEN 'true' WHEN NOT {c} THEN 'false' END",
                    "date": s.date(c), "timestamp": s.timestamp(c)}[kind]
            lv0.append(f"CAST(NULL AS DOUBLE) AS {x}, {text} AS {v}")
            lv1.append(f"{x}, {v}")
        lv2.append(f"{x}, {v}, {_log2_floor(s, x)} AS {e}")
        lv2b.append(f"{x}, {v}, {_corrected(x, e)} AS {e}")
        lv3.append(f"CASE WHEN {v} IS NULL OR {s.finite(x)} THEN {_number_text(s, x, e)} ELSE {v} END AS {t}")
    n = len(columns)
    cells = [s.md5_64(f"t{i}") for i in range(n)]
    nonblank = " OR ".join(f"t{i} <> ''" for i in range(n)) or "FALSE"
    if s.spark:
        total = f"pmod({' + '.join(cells)}, {_2_64}BD)"
    else:
        total = f"CAST(({' + '.join(f'CAST({h} AS UHUGEINT)' for h in cells)}) & {_MASK} AS UBIGINT)"
    inner = f"SELECT {', '.join(lv0)} FROM {source}"
    for level, items in enumerate((lv1, lv2, lv2b, lv3)):
        inner = f"SELECT {', '.join(items)} FROM ({inner}) AS l{level}"
    summed = f"SELECT {total} AS z FROM ({inner}) AS l4 WHERE {nonblank}"
    return _mix(s, summed), params


def _corrected(x: str, e: str) -> str:
    """``e`` = floor(log2 |x|) as computed, moved by one where |x| lies outside [2^e, 2^(e+1))."""
    return (f"CASE WHEN {e} IS NULL THEN NULL ELSE {e} + CASE WHEN abs({x}) < pow(2.0, {e}) THEN -1 "
            f"WHEN abs({x}) >= pow(2.0, {e} + 1) THEN 1 ELSE 0 END END")


def _mix(s: _SQL, summed: str) -> str:
    """SplitMix64's finaliser over the column ``z`` (unsigned 64-bit) of ``summed``: the column ``h``."""
    if not s.spark:
        def mul(z, c):
            return f"CAST((CAST({z} AS UHUGEINT) * CAST('{c}' AS UHUGEINT)) & {_MASK} AS UBIGINT)"
        q = f"SELECT xor(z, z >> 30) AS z FROM ({summed}) AS m0"
        q = f"SELECT {mul('z', _C1)} AS z FROM ({q}) AS m1"
        q = f"SELECT xor(z, z >> 27) AS z FROM ({q}) AS m2"
        q = f"SELECT {mul('z', _C2)} AS z FROM ({q}) AS m3"
        return f"SELECT xor(z, z >> 31) AS h FROM ({q}) AS m4"

    # Spark: z as a signed BIGINT holding the same 64 bits; products in DECIMAL(38, 0) on 32-bit halves
    def signed(u):
        return f"CAST(CASE WHEN {u} >= 9223372036854775808BD THEN {u} - {_2_64}BD ELSE {u} END AS BIGINT)"

    def unsigned(z):
        return f"CAST(CASE WHEN {z} < 0 THEN CAST({z} AS DECIMAL(20, 0)) + {_2_64}BD ELSE {z} END AS DECIMAL(20, 0))"

    def mul(z, c):
        hi = f"CAST(shiftrightunsigned({z}, 32) AS DECIMAL(38, 0))"
        lo = f"CAST(({z} & 4294967295) AS DECIMAL(38, 0))"
        return signed(f"pmod(pmod({hi} * {c}BD, 4294967296BD) * 4294967296BD + {lo} * {c}BD, {_2_64}BD)")
    q = f"SELECT {signed('z')} AS z FROM ({summed}) AS m0"
    q = f"SELECT z ^ shiftrightunsigned(z, 30) AS z FROM ({q}) AS m1"
    q = f"SELECT {mul('z', _C1)} AS z FROM ({q}) AS m2"
    q = f"SELECT z ^ shiftrightunsigned(z, 27) AS z FROM ({q}) AS m3"
    q = f"SELECT {mul('z', _C2)} AS z FROM ({q}) AS m4"
    q = f"SELECT z ^ shiftrightunsigned(z, 31) AS z FROM ({q}) AS m5"
    return f"SELECT {unsigned('z')} AS h FROM ({q}) AS m6"
