"""Mutants of valid data files: damaged copies, as interrupted copies, bad disks and careless
edits leave them (issue 21 counted the answers to 550 such files).

:func:`mutants` derives, from each source file and a fixed seed, copies that are truncated,
have bytes flipped, zeroed, deleted or repeated, or (for a zip) one member's bytes changed
in place. Every mutant must get a :class:`~dpdesk.project.reading.table.Table` or a
:class:`~dpdesk.errors.DataError` in words; :func:`generic` tells the catch-all message
("could not be read (SomeError: ...)") that names no damage.
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.helpers.paths import DATA

SOURCES = ("survey.xlsx", "qualtrics.xlsx", "stale_dimension.xlsx", "root_parts.xlsx", "title_line.xlsx",
           "survey.sav", "survey.dta", "tagged_missing.dta", "survey.por", "qualtrics.csv", "european.csv")
KINDS = ("truncate", "flip", "zero", "delete", "repeat")


def _mutate(data: bytes, kind: str, rng: random.Random) -> bytes:
    n = len(data)
    at = rng.randrange(1, n)
    span = rng.randrange(1, max(2, min(64, n - at)))
    if kind == "truncate":
        return data[:at]
    if kind == "flip":
        out = bytearray(data)
        for i in rng.sample(range(n), min(n, rng.randrange(1, 9))):
            out[i] ^= 1 << rng.randrange(8)
        return bytes(out)
    if kind == "zero":
        return data[:at] + bytes(span) + data[at + span:]
    if kind == "delete":
        return data[:at] + data[at + span:]
    return data[:at] + data[at:at + span] * 2 + data[at + span:]


def mutants(per_file: int = 50, seed: int = 21, sources=SOURCES):
    """``(name, bytes)`` of ``per_file`` mutants of each source (550 with the defaults)."""
    rng = random.Random(seed)
    for source in sources:
        data = (DATA / source).read_bytes()
        stem, suffix = Path(source).stem, Path(source).suffix
        for k in range(per_file):
            kind = KINDS[k % len(KINDS)]
            yield f"{stem}-{kind}-{k}{suffix}", _mutate(data, kind, rng)


def generic(message: str) -> bool:
    """Whether a refusal is the catch-all that names no damage."""
    return "could not be read (" in message
