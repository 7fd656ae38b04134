"""Who the people in a dataset are, without the column names: a bottom-k sketch of row hashes.

A rewrite that renames a column, deletes or adds a few respondents, or changes a few answers
must not make the same people look new (issue 28). So each non-blank row gets a 64-bit hash
that leaves the column names out and does not depend on the order of the columns:

    row hash = mix( sum over the row's non-blank cells of MD5-64(people text of the value) mod 2^64 )

(MD5-64: the first 8 bytes of the MD5 digest of the UTF-8 text, read little-endian; the people text
is :func:`dpdesk.project.people.fingerprint.people_text`; ``mix`` is SplitMix64's finaliser,
Steele, Lea & Flood 2014). Version 3 chose MD5 and that text (issue 31) because DuckDB and Spark
compute both natively: a linked source's row hashes are computed in its engine, in SQL, and equal
an imported copy's (:mod:`dpdesk.project.linked.people`). MD5 serves as a uniform hash here, not
as a defence against a chosen collision. Version 2 (BLAKE2b-64, each value mixed; a number's text
its shortest ``repr``) is still computed for imported data, so sketches a register kept from
version 2 keep protecting their people (:func:`sketch_for`). The sum is a hash of the row's multiset of
values: a renamed or reordered column, or a column added or dropped that is blank in every row,
leaves every row hash as it was. A changed answer changes that one row's hash; a deleted or
added respondent removes or adds one hash.

The **sketch** keeps the :data:`K` smallest distinct row hashes (a bottom-k sketch, Cohen &
Kaplan 2007; Broder 1997 for the min-hash idea). Hashes are uniform, so the rows of a dataset
whose hashes fall below a threshold are a uniform random sample of its distinct rows, and the
sketch is a function of the row hashes alone: it can be computed by streaming, chunk by chunk,
in bounded memory (:class:`PeopleSketch`), from hashes a database returns.

**Containment** of B's people in A (:func:`containment`): let t be the smaller of the two
sketches' largest hash (or no limit for a sketch that holds every row); the hashes of A and of
B up to t are all in the sketches, so the share of B's hashes up to t that are also A's
estimates |A ∩ B| / |B| with standard error about sqrt(c (1 - c) / m), m the number of B's
hashes up to t (m = K = 256: at most 0.031). :func:`same_people` takes the larger of the two
directions (a subset or a superset of the people is the same people).

**The threshold.** One edit moves the containment of the edited file in the released data by
at most 1/n (n rows): a changed answer takes one row out of the common part, a deleted
respondent none (what is left is still contained), an added one adds a row to the file alone
(the released people are still all in it). :data:`SAME_PEOPLE` = 0.5: a file is the same people
as a release while at least half of the smaller of the two is in the other. To fall below it a
rewrite must change (a cell of) more than half of the released rows, or drop or add a column
that is not blank, or recode a value in more than half of the rows (every such row changes);
with K = 256 a containment of 0.6 or more is still found with probability above 0.999
(0.1 is 3.2 standard errors) for a file and a release of similar size. A file much smaller than
the release is compared on about K x smaller / larger rows: a part under about 1/50 of the
released rows may find none in common (exp(-256/50) < 0.6%), and is then not recognised.

**Rows that do not tell people apart.** When few distinct rows exist (a few yes/no answers),
two unrelated surveys share most of their rows by chance. The sketch is compared only when at
least one side is *identifying*: its distinct rows are at least :data:`IDENTIFYING` (0.9) of its
rows. Otherwise only the exact fingerprint recognises the data: since version 3 a sketch also
carries ``fp``, a name-free digest of all its rows' hashes (the count, their sum and their XOR
mod 2^64: order-free, one pass in an engine), so the very same rows are recognised whatever the
columns are called and whether they are imported or linked.
"""

from __future__ import annotations

import hashlib
import json
from typing import Iterable

__all__ = ["K", "SAME_PEOPLE", "SHARED_FEW", "IDENTIFYING", "VERSION", "value_hashes", "value_hashes_v2",
           "row_hashes_from", "rows_digest", "PeopleSketch", "people_of_hashes", "containment", "same_people",
           "identifying", "sketch_for", "same_people_of"]

VERSION = 3
#: Older versions a signature may still carry (as ``people_v2``) to be compared with old sketches.
LEGACY = (2,)
#: Hashes kept in a sketch (its estimates are within about 1/sqrt(K) = 6% of the truth).
K = 256
#: A file holds the same people as a release when at least this share of the smaller is in the other.
SAME_PEOPLE = 0.5
#: Below SAME_PEOPLE, a share of at least this much is still said (a warning, nothing charged).
SHARED_FEW = 0.02
#: A sketch is compared only if one side's distinct rows are at least this share of its rows.
IDENTIFYING = 0.9

_MAX = float(2 ** 64)


def _hash64(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def md5_64(text: str) -> int:
    """The first 8 bytes of MD5(UTF-8 text), little-endian: DuckDB's ``md5_number(text)`` mod 2^64 (its fastest
    form), and in Spark the first 16 hex digits of ``md5(text)`` read byte by byte from the eighth."""
    return int.from_bytes(hashlib.md5(text.encode("utf-8"), usedforsecurity=False).digest()[:8], "little")


def mix(x):
    """SplitMix64's finaliser (Steele, Lea & Flood 2014) on a numpy uint64 array."""
    import numpy as np

    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def value_hashes(texts: list[str]):
    """The uint64 hash (version 3: MD5-64) of each people text, no column name in it (a blank is 0)."""
    import numpy as np

    return np.array([md5_64(t) if t != "" else 0 for t in texts], dtype=np.uint64)


def value_hashes_v2(texts: list[str]):
    """Version 2's value hashes (mixed BLAKE2b-64 of each canonical text; a blank is 0)."""
    import numpy as np

    raw = np.array([_hash64(t) if t != "" else 0 for t in texts], dtype=np.uint64)
    return np.where(raw == 0, np.uint64(0), mix(raw))


def rows_digest(count: int, total: int, xor: int, version: int = VERSION) -> str:
    """The name-free digest of a dataset's rows: SHA-256 of (version, the number of non-blank rows, the sum and
    the XOR of their row hashes mod 2^64). Independent of order, column names and engine."""
    text = json.dumps([f"dpdesk-people-{version}", int(count), str(int(total) % 2 ** 64), str(int(xor))])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def row_hashes_from(columns: Iterable[tuple], n: int, blank=None):
    """Name-free row hashes from per-column ``(value hashes, index of each row's value)`` pairs.

    ``blank``: a boolean array of rows to leave out (all cells blank). Columns may come in any
    order: the row hash is a sum, then mixed."""
    import numpy as np

    total = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for values, index in columns:
            total = total + values[index]
    out = mix(total)
    return out if blank is None else out[~blank]


class PeopleSketch:
    """A bottom-k sketch built by streaming: :meth:`add` chunks of row hashes (uint64 arrays, or
    lists of ints), then :meth:`result`. Memory: at most ``k`` hashes and two counters."""

    def __init__(self, k: int = K):
        self.k = int(k)
        self.rows = 0
        self._low = None  # the k smallest distinct hashes so far, sorted
        self._sum = 0
        self._xor = 0

    def add(self, hashes) -> None:
        import numpy as np

        chunk = np.asarray(hashes, dtype=np.uint64)
        self.rows += int(chunk.size)
        if chunk.size:
            self._sum = (self._sum + int(chunk.sum(dtype=np.uint64))) % 2 ** 64
            self._xor ^= int(np.bitwise_xor.reduce(chunk))
        both = chunk if self._low is None else np.concatenate([self._low, chunk])
        self._low = np.unique(both)[: self.k]

    def result(self, distinct: int | None = None) -> dict:
        """The sketch as stored (JSON-ready). ``distinct``: the exact number of distinct rows if known
        (else estimated from the sketch: (k - 1) / (largest kept hash / 2^64), Bar-Yossef et al. 2002)."""
        low = [] if self._low is None else [int(h) for h in self._low]
        return people_of_hashes(low, self.rows, distinct, k=self.k, fp=rows_digest(self.rows, self._sum, self._xor))


def people_of_hashes(smallest: list[int], rows: int, distinct: int | None = None, *, k: int = K,
                     fp: str | None = None, version: int = VERSION) -> dict:
    """The ``people`` part of a signature from aggregates a database can return: the ``k`` smallest
    distinct row hashes (ints in [0, 2^64)), the number of non-blank rows and, if known, of distinct rows;
    ``fp``: :func:`rows_digest` of all the rows, when known."""
    low = sorted(set(int(h) for h in smallest))[:k]
    full = len(low) < k
    if distinct is None:
        distinct = len(low) if full else int(round((k - 1) / ((low[-1] + 1) / _MAX)))
    out = {"v": version, "k": k, "rows": int(rows), "distinct": int(distinct), "full": bool(full),
           "sketch": [format(h, "016x") for h in low]}
    if fp:
        out["fp"] = str(fp)
    return out


def _parts(p: dict) -> tuple[list[int], bool]:
    hashes = sorted(int(h, 16) for h in p.get("sketch") or ())
    full = bool(p.get("full")) or len(hashes) < int(p.get("k") or K)
    return hashes, full


def containment(a: dict, b: dict) -> tuple[float, float]:
    """(share of B's distinct rows in A, share of A's in B), estimated from two ``people`` sketches."""
    ha, full_a = _parts(a)
    hb, full_b = _parts(b)
    if not ha or not hb:
        return 0.0, 0.0
    limits = [h[-1] for h, full in ((ha, full_a), (hb, full_b)) if not full]
    top = min(limits) if limits else None
    sa = {h for h in ha if top is None or h <= top}
    sb = {h for h in hb if top is None or h <= top}
    common = len(sa & sb)
    return (common / len(sb) if sb else 0.0), (common / len(sa) if sa else 0.0)


def identifying(p: dict) -> bool:
    """Whether the rows of this sketch tell people apart (distinct rows >= IDENTIFYING of the rows)."""
    rows = int(p.get("rows") or 0)
    return rows > 0 and int(p.get("distinct") or 0) >= IDENTIFYING * rows


def same_people(a: dict, b: dict) -> float:
    """The larger containment of two ``people`` sketches of one version (1 for the very same rows, by ``fp``), or
    0 when neither side's rows tell people apart, or the versions differ (see :func:`same_people_of`)."""
    if int(a.get("v") or 0) != int(b.get("v") or 0):
        return 0.0
    if a.get("fp") and a.get("fp") == b.get("fp"):
        return 1.0
    if not (identifying(a) or identifying(b)):
        return 0.0
    return max(containment(a, b))


def sketch_for(sig: dict, version) -> dict | None:
    """The ``people`` sketch of version ``version`` that the signature ``sig`` carries (``people``, or a legacy
    ``people_v2``), or None."""
    for key in ("people", *(f"people_v{v}" for v in LEGACY)):
        p = sig.get(key) if isinstance(sig, dict) else None
        if isinstance(p, dict) and int(p.get("v") or 0) == int(version or 0):
            return p
    return None


def same_people_of(sig: dict, theirs: dict) -> float:
    """:func:`same_people` of a signature and a stored ``people`` sketch of any version: compared with the
    signature's sketch of the same version (a register's version-2 sketch with an import's ``people_v2``), 0 when
    it has none (a linked source has no version-2 sketch: those never had a name-free one)."""
    shares = [0.0]
    for kept in (theirs, *(theirs.get(f"people_v{v}") for v in LEGACY)):  # an upgraded entry keeps its older one
        mine = sketch_for(sig, kept.get("v")) if isinstance(kept, dict) else None
        if mine is not None:
            shares.append(same_people(mine, kept))
    return max(shares)
