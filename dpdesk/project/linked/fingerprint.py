"""Which files a linked source is, and its fingerprint: what they were when linked.

A source is a file, a folder (every ``*.parquet`` or ``*.csv`` below it, Hive partitions
included) or a glob (``data/part-*.parquet``). Its fingerprint has two parts:

* **quick**: the SHA-256 of the sorted list of (relative path, size in bytes, modification time
  in nanoseconds). Cost: listing the folder or glob and one ``stat`` per file, no data read
  (milliseconds for thousands of files). Checked before every release: a file added, removed,
  or rewritten (its size or time changed) is found, and nothing is spent.
* **content**: the SHA-256 of the files' bytes, in the list's order, each prefixed by its
  relative path and size. Cost: reading every byte once, O(total size), at the disk's speed
  (SHA-256 runs at several hundred MB/s per core, above most disks); computed at link time
  and on request (``dpdesk datasets PROJECT --verify NAME``), never per release.

A file rewritten with the same size and time (a deliberate forgery of the time stamp) passes
the quick check; the content check finds it. Paths on a cluster's file system (``hdfs://``,
``s3a://``) are listed by the Spark engine itself (:mod:`.spark_source`).
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
from pathlib import Path
from typing import Callable

from dpdesk.errors import DataError
from dpdesk.project.linked.source import Fingerprint, FileStat

__all__ = ["resolve", "source_format", "quick", "content", "default_name", "differences", "REMOTE_SCHEMES"]

FORMATS = {".parquet": "parquet", ".parq": "parquet", ".pq": "parquet", ".csv": "csv", ".tsv": "csv", ".txt": "csv"}
REMOTE_SCHEMES = ("hdfs://", "s3://", "s3a://", "gs://", "abfs://", "abfss://", "wasb://", "wasbs://", "dbfs:/")
_GLOB = set("*?[")
_CHUNK = 1 << 20


def is_remote(source: str) -> bool:
    return str(source).startswith(REMOTE_SCHEMES)


def _has_glob(text: str) -> bool:
    return any(ch in _GLOB for ch in text)


def _root(source: str) -> Path:
    """The folder the listed paths are relative to: the file's folder, the folder, or the glob's fixed part."""
    p = Path(source).expanduser()
    if _has_glob(source):
        parts = []
        for part in p.parts:
            if _has_glob(part):
                break
            parts.append(part)
        return Path(*parts) if parts else Path(".")
    return p if p.is_dir() else p.parent


def resolve(source: str) -> list[Path]:
    """The files of ``source``, sorted; a :class:`DataError` in one line when there are none."""
    text = str(source)
    p = Path(text).expanduser()
    if _has_glob(text):
        files = sorted(Path(f) for f in glob.glob(str(p), recursive=True) if Path(f).is_file())
        if not files:
            raise DataError(f"The pattern {text} matches no file. Check the folder and the pattern (for example "
                            "data/*.parquet), then link again. Nothing was linked.")
        return files
    if p.is_dir():
        files = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in FORMATS
                       and not any(part.startswith((".", "_")) for part in f.relative_to(p).parts))
        if not files:
            raise DataError(f"The folder {text} holds no Parquet or CSV file (*.parquet, *.csv). Link the folder "
                            "that holds the data files, or one file. Nothing was linked.")
        return files
    if not p.exists():
        raise DataError(f"The source {text} does not exist. Check the path (a Parquet or CSV file, a folder "
                        "of them, or a pattern such as data/*.parquet). Nothing was linked.")
    if not p.is_file():
        raise DataError(f"The source {text} is not a file or a folder. Link a Parquet or CSV file, a folder "
                        "of them, or a pattern such as data/*.parquet.")
    return [p]


def source_format(files: list[Path], source: str) -> str:
    """``parquet`` or ``csv``, from the files' endings (Parquet's magic bytes decide an unknown ending)."""
    kinds = set()
    for f in files:
        kind = FORMATS.get(f.suffix.lower())
        if kind is None:
            try:
                with open(f, "rb") as fh:
                    kind = "parquet" if fh.read(4) == b"PAR1" else "csv"
            except OSError as exc:
                raise DataError(f"Cannot read {f}: {exc.strerror}. Check its permissions.") from None
        kinds.add(kind)
    if len(kinds) > 1:
        raise DataError(f"The source {source} mixes Parquet and CSV files. Link one format at a time (a pattern "
                        "such as data/*.parquet picks one).")
    return kinds.pop()


def default_name(source: str) -> str:
    """A folder or glob is named after its folder; a file after its name without the ending."""
    text = str(source).rstrip("/\\")
    if is_remote(text):
        text = text.split("://", 1)[-1]
    p = Path(text)
    if _has_glob(text):
        return _root(text).resolve().name or "linked"
    if p.is_dir():
        return p.resolve().name or "linked"
    return p.stem or "linked"


def _stats(source: str, files: list[Path]) -> tuple[FileStat, ...]:
    root = _root(source).resolve()
    out = []
    for f in files:
        st = f.stat()
        r = f.resolve()
        try:
            rel = r.relative_to(root).as_posix()
        except ValueError:
            rel = r.as_posix()
        out.append(FileStat(rel, int(st.st_size), int(st.st_mtime_ns)))
    return tuple(out)


def _digest(stats) -> str:
    text = json.dumps(["dpdesk-linked-1", [s.to_list() for s in stats]], separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def quick(source: str, files: list[Path] | None = None) -> Fingerprint:
    """The files, their sizes and times, and the SHA-256 of that list (no data read)."""
    stats = _stats(source, resolve(source) if files is None else files)
    return Fingerprint(stats, _digest(stats))


def content(source: str, files: list[Path] | None = None, *, check: Callable[[], None] | None = None,
            progress: Callable[[int, int], None] | None = None) -> Fingerprint:
    """:func:`quick` with ``content``: SHA-256 of (relative path, size, bytes) of every file in order."""
    files = resolve(source) if files is None else files
    fp = quick(source, files)
    total, done = sum(s.size for s in fp.files), 0
    digest = hashlib.sha256(b"dpdesk-linked-content-1\n")
    for f, s in zip(files, fp.files):
        digest.update(f"{s.path}\x1f{s.size}\n".encode("utf-8"))
        with open(f, "rb") as fh:
            while True:
                chunk = fh.read(_CHUNK)
                if not chunk:
                    break
                digest.update(chunk)
                done += len(chunk)
                if check is not None:
                    check()
                if progress is not None:
                    progress(done, total)
    return Fingerprint(fp.files, fp.quick, digest.hexdigest())


def differences(before: Fingerprint, now: Fingerprint) -> list[str]:
    """What changed between two fingerprints, in words ("added part-3.parquet", ...)."""
    old = {s.path: s for s in before.files}
    new = {s.path: s for s in now.files}
    out = [f"added {p}" for p in sorted(set(new) - set(old))]
    out += [f"removed {p}" for p in sorted(set(old) - set(new))]
    for p in sorted(set(old) & set(new)):
        a, b = old[p], new[p]
        if a.size != b.size:
            out.append(f"rewritten {p} ({a.size} bytes then, {b.size} now)")
        elif a.mtime_ns != b.mtime_ns:
            out.append(f"rewritten {p} (modified since linking)")
    return out


def folder_of(source: str) -> str:
    return str(_root(source))


def absolute(source: str) -> str:
    """The source as an absolute path (a glob keeps its pattern), so the link survives a change of folder."""
    if is_remote(source):
        return source
    text = os.path.expanduser(str(source))
    return text if os.path.isabs(text) else os.path.join(os.getcwd(), text)
