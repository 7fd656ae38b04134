"""Which engines can run here, and opening one for a link.

DuckDB is a dependency of dpdesk (always there). Spark is optional: ``pip install
"dpdesk[spark]"`` adds pyspark, and Spark needs Java 17 or later (Debian:
``apt-get install openjdk-17-jre-headless``). A ``spark://`` or YARN master runs the job on a
cluster, whose executors read the files themselves: the source must be a path they can see
(``hdfs://``, ``s3a://``, or a folder mounted at the same path on every node).
:func:`check_engine` says what is missing in one line before anything starts.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

from dpdesk.project.linked import fingerprint as fpr
from dpdesk.project.linked.source import ENGINES, EngineError, Link

__all__ = ["engine_problem", "check_engine", "open_engine", "java_version"]

_MASTER = re.compile(r"^(local(\[(\d+|\*)\])?|spark://[A-Za-z0-9.\-]+(:\d+)?(,[A-Za-z0-9.\-]+(:\d+)?)*|yarn|"
                     r"k8s://\S+)$")


def java_version() -> int | None:
    """The major version of the Java that Spark would use (JAVA_HOME's, else the PATH's), or None."""
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if not java or not os.path.exists(java):
        return None
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not m:
        return None
    major = int(m.group(1))
    return int(m.group(2) or 0) if major == 1 else major


def _has_pyspark() -> bool:
    import importlib.util

    return importlib.util.find_spec("pyspark") is not None


def engine_problem(engine: str, master: str | None = None) -> str | None:
    """None when ``engine`` can run here, else one line saying what to install."""
    if engine not in ENGINES:
        return f"Unknown engine {engine!r}: use duckdb (this machine) or spark (a cluster)."
    if engine == "duckdb":
        import importlib.util

        return None if importlib.util.find_spec("duckdb") else (
            "DuckDB is not installed: pip install duckdb (dpdesk's installer includes it).")
    if not _has_pyspark():
        from dpdesk.project.linked.spark_source import SPARK_INSTALL

        return SPARK_INSTALL
    v = java_version()
    if v is None:
        return ("Spark needs Java 17 or later, and no Java was found (neither JAVA_HOME nor java on the PATH). "
                "Install it (Debian/Ubuntu: sudo apt-get install openjdk-17-jre-headless), or link with "
                "the DuckDB engine.")
    if v < 17:
        return (f"Spark needs Java 17 or later; this machine's Java is {v}. Install Java 17 (Debian/Ubuntu: "
                "sudo apt-get install openjdk-17-jre-headless) and set JAVA_HOME to it, or link with the DuckDB engine.")
    return None


def check_engine(engine: str, master: str | None, source: str) -> None:
    """Raise :class:`EngineError` in one line when the engine cannot run this link (nothing starts)."""
    problem = engine_problem(engine, master)
    if problem:
        raise EngineError(problem)
    if engine == "duckdb":
        if master:
            raise EngineError("A Spark master is for the Spark engine; DuckDB runs on this machine.")
        if fpr.is_remote(source):
            raise EngineError(f"DuckDB reads files on this machine; {source} is on a cluster's file system. "
                              "Link it with the Spark engine and the cluster's master URL.")
        return
    master = master or "local[2]"
    if not _MASTER.match(master):
        raise EngineError(f"{master!r} is not a Spark master. Use local[2] (this machine), spark://host:7077 "
                          "(a standalone cluster) or yarn.")
    if master.startswith(("spark://", "yarn")):
        from dpdesk.project.linked.spark_source import check_master

        check_master(master)
    if not master.startswith("local") and not fpr.is_remote(source):
        raise EngineError(
            f"The Spark master {master} runs on a cluster, whose executors cannot read {source} on this machine. "
            "Put the data where the cluster sees it (an hdfs or s3a path) and link that path, or link with "
            "the master local[2] (or the DuckDB engine) to read it here.")


def open_engine(link: Link):
    """The engine's :class:`~.source.LinkedSource` for ``link`` (checked first)."""
    check_engine(link.engine, link.master, link.source)
    if link.engine == "duckdb":
        from dpdesk.project.linked.duckdb_source import DuckDBSource

        return DuckDBSource(link)
    from dpdesk.project.linked.spark_source import SparkSource

    return SparkSource(link)
