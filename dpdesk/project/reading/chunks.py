"""Parse a large UTF-8 text file in byte ranges on a few threads, with progress.

pandas (3.1) parses a large UTF-8 file given by path on several threads, but then it
reports no progress and cannot be cancelled. Here the data part of the file is cut at
line ends into pieces of about 4 MiB, each piece is parsed by ``pandas.read_csv`` on a
thread pool (its C tokenizer runs without the GIL) and made compact at once (small
integers, categories), and progress is reported (and the callback may cancel) as pieces
finish. Columns are joined piece by piece; categories are united (``union_categoricals``).

Whenever a piece fails or the pieces disagree (a quoted value with a line break cut at a
piece boundary, a ragged row, different widths), ``None`` is returned and the caller
parses the file serially, which also gives the exact row of any error.
"""

from __future__ import annotations

import io
import os
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

MIN_BYTES = 8 << 20
PIECE = 4 << 20


def workers() -> int:
    try:
        available = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        available = os.cpu_count() or 1
    return min(4, available)


def eligible(path: str, encoding: str) -> bool:
    return (encoding.lower().replace("_", "-") in ("utf-8", "utf8", "utf-8-sig")
            and os.path.getsize(path) >= MIN_BYTES and workers() > 1)


def data_start(path: str, header_rows: int) -> int | None:
    """Byte offset just after ``header_rows`` records (quotes respected), or ``None``."""
    offset = 0
    with open(path, "rb") as handle:
        if handle.read(3) != b"\xef\xbb\xbf":
            handle.seek(0)
        offset = handle.tell()
        quotes = 0
        done = 0
        while done < header_rows:
            line = handle.readline(1 << 24)
            if not line:
                return None
            offset += len(line)
            quotes += line.count(b'"')
            if quotes % 2 == 0 and line.endswith(b"\n"):
                done += 1
                quotes = 0
    return offset


def boundaries(path: str, start: int, pieces: int) -> list[int]:
    size = os.path.getsize(path)
    cuts = [start]
    with open(path, "rb") as handle:
        for k in range(1, pieces):
            handle.seek(start + (size - start) * k // pieces)
            handle.readline()
            position = handle.tell()
            if cuts[-1] < position < size:
                cuts.append(position)
    cuts.append(size)
    return cuts


def parse(path: str, options: dict, header_rows: int, progress):
    """The frame parsed in pieces, or ``None`` when the serial parser must be used."""
    import pandas as pd

    start = data_start(path, header_rows)
    if start is None:
        return None
    size = os.path.getsize(path)
    cuts = boundaries(path, start, max(2 * workers(), (size - start) // PIECE))
    spans = list(zip(cuts[:-1], cuts[1:]))
    parts: list = [None] * len(spans)
    done = 0
    with ThreadPoolExecutor(workers(), thread_name_prefix="dpdesk-import") as pool:
        pending = {pool.submit(_piece, path, a, b, options): i for i, (a, b) in enumerate(spans)}
        try:
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    i = pending.pop(future)
                    parts[i] = future.result()
                    done += spans[i][1] - spans[i][0]
                    if parts[i] is None:
                        raise _Fallback()
                    progress(0.15 + 0.75 * done / max(1, size - start))  # once per piece
        except _Fallback:
            pool.shutdown(wait=True, cancel_futures=True)
            return None
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    if len({p.shape[1] for p in parts}) != 1:
        return None
    return _join(parts, pd)


class _Fallback(Exception):
    pass


def _piece(path: str, a: int, b: int, options: dict):
    import pandas as pd

    with open(path, "rb") as handle:
        handle.seek(a)
        data = handle.read(b - a)
    from dpdesk.project.reading.shape import compact

    try:
        frame = pd.read_csv(io.BytesIO(data), header=None, encoding="utf-8", **options)
    except Exception:  # noqa: BLE001 - the serial parser reports it with its row
        return None
    del data
    return compact(frame)  # small pieces to join: peak memory stays near the final size


def _join(parts, pd):
    from pandas.api.types import union_categoricals

    columns = {}
    for j in range(parts[0].shape[1]):
        pieces = [p.iloc[:, j] for p in parts]
        if all(isinstance(s.dtype, pd.CategoricalDtype) for s in pieces):
            try:
                columns[j] = pd.Series(union_categoricals(pieces, ignore_order=True))
                continue
            except TypeError:  # categories of different types (e.g. an all-blank piece)
                pieces = [s.astype(object) for s in pieces]
        joined = pd.concat(pieces, ignore_index=True)
        if isinstance(joined.dtype, pd.api.extensions.ExtensionDtype) and joined.dtype.kind == "f":
            joined = joined.astype("float64")  # Int8 + float pieces: plain floats, as serial
        columns[j] = joined
    return pd.DataFrame(columns)
