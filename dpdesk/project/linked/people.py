"""The respondents' signature of a linked source, computed in its engine in bounded memory.

The register of respondents (:mod:`dpdesk.project.people.respondents`) recognises the same
people arriving in another file by a signature: row count, distinct rows and a bottom-k
sketch of 64-bit row hashes (Broder 1997; Cohen & Kaplan 2007). For a linked source it is
computed where the data are, with bounded memory whatever the size, from the **same row hash
as an imported copy's** (:mod:`dpdesk.project.people.sketch`, version 3; its SQL in
:mod:`.people_sql`), so DuckDB, Spark and an import of the same rows (another format, a renamed
column, a subset) give one sketch and are charged one budget:

* ``rows``: ``count(*)`` of the non-blank rows; ``distinct``: HyperLogLog's
  ``approx_count_distinct`` of the hashes (about 2% relative error, a few kilobytes of state);
* ``people.sketch``: the :data:`SKETCH_SIZE` smallest distinct hashes, by DuckDB's ``min(h, n)``
  in the same pass, or ``ORDER BY h LIMIT n`` (a top-n heap, never a collect of the rows),
  repeated above the last one found while duplicates fill it;
* ``people.fp`` and ``fingerprint``: :func:`dpdesk.project.people.sketch.rows_digest` of the count,
  the sum and the XOR mod 2^64 of all row hashes: order-free, one pass, equal to an import's.

Cost: one scan of every column (MD5 per cell, integer arithmetic per row), plus a second scan
only when more than 4 x SKETCH_SIZE rows share the smallest hashes; memory: DuckDB's and Spark's
aggregation state (a heap of 4 x SKETCH_SIZE hashes, a HyperLogLog), whatever the rows.
"""

from __future__ import annotations

from dpdesk.project.linked.people_sql import rows_sql
from dpdesk.project.people import sketch as people_sketch

__all__ = ["signature", "SKETCH_SIZE", "VERSION", "current"]

SKETCH_SIZE = people_sketch.K
VERSION = "dpdesk-linked-respondents-2"


def current(sig) -> bool:
    """Whether a recorded signature is of this definition (else it is computed again, :func:`signature`)."""
    return (isinstance(sig, dict) and sig.get("version") == VERSION and isinstance(sig.get("people"), dict)
            and int(sig["people"].get("v") or 0) == people_sketch.VERSION)


def signature(source, cancel=None, k: int | None = None, columns=None) -> dict:
    """``{"version", "fingerprint", "rows", "distinct", "people", "engine"}`` of the source, computed in its engine
    over ``columns`` (default: every column; linking leaves out the direct identifiers, as an import does)."""
    k = k or SKETCH_SIZE
    d = source.dialect
    duck = d.name == "duckdb"
    hashed, params = rows_sql(d, source.schema().columns if columns is None else columns)
    if duck:
        total = f"CAST(sum(CAST(h AS HUGEINT)) % CAST('{2 ** 64}' AS HUGEINT) AS VARCHAR)"
        xor = "CAST(bit_xor(h) AS VARCHAR)"
        smallest = f", min(h, {int(4 * k)})"  # the bottom of the sketch in the same pass
    else:
        total = f"CAST(pmod(sum(CAST(h AS DECIMAL(38, 0))), {2 ** 64}BD) AS STRING)"
        signed = f"CAST(CASE WHEN h >= {2 ** 63}BD THEN h - {2 ** 64}BD ELSE h END AS BIGINT)"
        xor = f"CAST(bit_xor({signed}) AS STRING)"
        smallest = ""
    rows = source.run_sql(f"SELECT count(*), approx_count_distinct(h), {total}, {xor}{smallest} "
                          f"FROM ({hashed}) AS t", dict(params), cancel)
    n, distinct, s, x = rows[0][:4]
    if duck:
        found = [int(v) for v in (rows[0][4] or ())]
        seen = set(found)
        # duplicates took places among the 4k smallest: look above the largest for more
        last = max(found) if len(seen) < k and len(found) == 4 * k else None
        more = last is not None
    else:
        seen, last, more = set(), None, True
    while more and len(seen) < k:
        extra, cond = dict(params), ""
        if last is not None:
            extra["last"] = str(last)
            cond = f" WHERE h > CAST({d.param}last AS {'UBIGINT' if duck else 'DECIMAL(20, 0)'})"
        got = [int(v) for (v,) in source.run_sql(f"SELECT h FROM ({hashed}) AS t{cond} ORDER BY h LIMIT {int(4 * k)}",
                                                 extra, cancel)]
        seen.update(got)
        more = len(got) == 4 * k
        last = got[-1] if got else last
    n = int(n or 0)
    x = int(x or 0) % 2 ** 64
    fp = people_sketch.rows_digest(n, int(s or 0), x)
    low = sorted(seen)[:k]
    people = people_sketch.people_of_hashes(low, n, min(n, max(len(low), int(distinct or 0))), k=k, fp=fp)
    return {"version": VERSION, "fingerprint": fp, "rows": n, "distinct": people["distinct"], "sketch": [],
            "people": people, "engine": source.engine}
