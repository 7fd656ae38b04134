"""The respondents' signature of a linked source, computed in its engine in bounded memory.

The register of respondents (:mod:`dpdesk.project.people.respondents`) recognises the same
people arriving in another file by a signature: row count, distinct rows and a bottom-k
sketch of 64-bit row hashes (Broder 1997; Cohen & Kaplan 2007). For a linked source it is
computed where the data are, with bounded memory whatever the size:

* each non-blank row's hash is the engine's own 64-bit hash of the row's values, in the
  columns' sorted name order, names left out (DuckDB ``hash(...)``, Spark ``xxhash64(...)``);
* ``rows``: ``count(*)``; ``distinct``: HyperLogLog's ``approx_count_distinct`` (about 2%
  relative error, a few kilobytes of state);
* ``sketch``: the :data:`SKETCH_SIZE` smallest distinct hashes, by ``ORDER BY h LIMIT m``
  (a top-m heap), repeated above the last one found while duplicates fill it;
* ``fingerprint``: SHA-256 of (rows, the XOR and the sum mod 2^64 of all row hashes): order
  independent, computed in one pass.

The hashes differ between engines and from an imported copy's (:mod:`dpdesk.project.people.fingerprint`),
so the register recognises a linked source again when it is linked again, not as an import:
:func:`signature` is the one function to change when both definitions are matched.
"""

from __future__ import annotations

import hashlib
import json

__all__ = ["signature", "SKETCH_SIZE", "VERSION"]

SKETCH_SIZE = 256
VERSION = "dpdesk-linked-respondents-1"


def _hash_expr(source, names: list[str]) -> tuple[str, str]:
    d = source.dialect
    cols = [d.quote(n) for n in sorted(names)]
    h = f"xxhash64({', '.join(cols)})" if d.name == "spark" else f"hash({', '.join(cols)})"
    blank = " AND ".join(f"{c} IS NULL" for c in cols)
    return h, f"NOT ({blank})"


def signature(source, cancel=None, k: int | None = None) -> dict:
    """``{"version", "fingerprint", "rows", "distinct", "sketch"}`` of the source, computed in its engine."""
    k = k or SKETCH_SIZE
    names = source.schema().names
    h, nonblank = _hash_expr(source, names)
    d = source.dialect
    duck = d.name == "duckdb"
    mod = "CAST(sum(CAST(h AS HUGEINT)) % 18446744073709551616 AS VARCHAR)" if duck else \
        "CAST(pmod(sum(CAST(h AS DECIMAL(38, 0))), CAST('18446744073709551616' AS DECIMAL(38, 0))) AS STRING)"
    xor = "bit_xor(h)"
    smallest = f", min(h, {int(4 * k)})" if duck else ""  # DuckDB: the bottom of the sketch in the same pass
    rows = source.run_sql(f"SELECT count(*), approx_count_distinct(h), {xor}, {mod}{smallest} FROM "
                          f"(SELECT {h} AS h FROM {{source}} WHERE {nonblank}) AS t", {}, cancel)
    n, distinct, x, s = rows[0][:4]
    if duck:
        found = [int(v) for v in (rows[0][4] or ())]
        seen = set(found)
        # duplicates took places among the 4k smallest: look above the largest for more
        last = max(found) if len(seen) < k and len(found) == 4 * k else None
        more = last is not None
    else:
        seen, last, more = set(), None, True
    while more and len(seen) < k:
        params, cond = {}, ""
        if last is not None:
            params["last"] = last
            cond = f" AND {h} > {d.param}last"
        got = [int(v) for (v,) in source.run_sql(f"SELECT h FROM (SELECT {h} AS h FROM {{source}} WHERE {nonblank}"
                                                 f"{cond}) AS t ORDER BY h LIMIT {int(4 * k)}", params, cancel)]
        seen.update(got)
        more = len(got) == 4 * k
        last = got[-1] if got else last
    sketch = sorted(seen)[:k]
    digest = hashlib.sha256(json.dumps([VERSION, int(n), str(x), str(s)]).encode("utf-8")).hexdigest()
    return {"version": VERSION, "fingerprint": digest, "rows": int(n), "distinct": min(int(n), int(distinct or 0)),
            "sketch": [format(v & (2**64 - 1), "016x") for v in sketch], "engine": source.engine}
