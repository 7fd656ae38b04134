"""A linked source read by Spark: the aggregation runs on a cluster (``local[2]`` on this machine).

Optional: ``pip install "dpdesk[spark]"`` and Java 17 or later (:mod:`.engines` says what is
missing, in one line, before anything starts). One SparkSession per process and master is
shared by every source (starting one takes 20-40 s); each source registers its files as a
temporary view under a name made here, and every query passes the user's values as named
parameters (``spark.sql(text, args=...)``), never pasted into SQL.

Production: a ``spark://host:7077`` or ``yarn`` master runs the job on the cluster's
executors, which read the files themselves: the source must be a path they see (``hdfs://``,
``s3a://``, or a shared mount at the same path). :func:`check_master` tries the standalone
master's port before starting (an unreachable master is one line, not a minute of retries),
and YARN needs ``HADOOP_CONF_DIR`` or ``YARN_CONF_DIR``. The JVM is its own process: its
memory is Spark's (``spark.driver.memory``), not dpdesk's.

:meth:`SparkSource.cancel` cancels the source's job group (``SparkContext.cancelJobGroup``)
from any thread; the running query then raises :class:`~.source.Cancelled`.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from typing import Callable

from dpdesk.errors import DataError
from dpdesk.project.linked import fingerprint as fp
from dpdesk.project.linked import query as q
from dpdesk.project.linked.source import (Aggregates, CancelToken, Cancelled, Column, EngineError, FileStat,
                                          Fingerprint, Link, Query, Schema)

__all__ = ["SparkSource", "SPARK_INSTALL", "session", "check_master", "remote_quick", "stop_sessions"]

SPARK_INSTALL = ('Spark is not installed. Add it with: pip install "dpdesk[spark]" (in the environment dpdesk runs '
                 'in; it is not part of the installers), and Java 17 or later (Debian/Ubuntu: sudo apt-get install '
                 'openjdk-17-jre-headless). Or link with the DuckDB engine, which runs on this machine.')
_SESSIONS: dict = {}
_LOCK = threading.Lock()
_NUMBER = ("tinyint", "smallint", "int", "bigint", "float", "double", "decimal", "byte", "short", "long", "integer")


def kind_of(spark_type: str) -> str:
    t = spark_type.lower()
    if t.startswith(_NUMBER):
        return "number"
    if t == "boolean":
        return "boolean"
    return "text"


def check_master(master: str, timeout: float = 5.0) -> None:
    """Refuse, in one line, a standalone master that does not answer, or YARN without its configuration."""
    if master.startswith("spark://"):
        for hostport in master[len("spark://"):].split(","):
            host, _, port = hostport.partition(":")
            try:
                with socket.create_connection((host, int(port or 7077)), timeout=timeout):
                    return
            except (OSError, ValueError):
                continue
        raise EngineError(f"The Spark master {master} does not answer (nothing listens at that address, or a "
                          "firewall is in the way). Check the URL (spark://host:7077) and that the cluster is up. "
                          "Nothing was linked or spent.")
    if master == "yarn" and not (os.environ.get("HADOOP_CONF_DIR") or os.environ.get("YARN_CONF_DIR")):
        raise EngineError("A yarn master needs the cluster's configuration: set HADOOP_CONF_DIR (or YARN_CONF_DIR) "
                          "to the folder holding yarn-site.xml, then link again. Nothing was linked or spent.")


def session(master: str):
    """The process's SparkSession for ``master`` (made once; 20-40 s the first time)."""
    with _LOCK:
        spark = _SESSIONS.get(master)
        if spark is not None:
            return spark
        check_master(master)
        try:
            import warnings

            with warnings.catch_warnings():  # pyspark's notice about pandas 3 (dpdesk hands it no pandas)
                warnings.simplefilter("ignore", FutureWarning)
                from pyspark.sql import SparkSession
        except ImportError:
            raise EngineError(SPARK_INSTALL) from None
        try:
            spark = (SparkSession.builder.master(master).appName("dpdesk")
                     .config("spark.ui.enabled", "false")
                     .config("spark.ui.showConsoleProgress", "false")
                     .config("spark.sql.shuffle.partitions", os.environ.get("DPDESK_SPARK_PARTITIONS", "8"))
                     .config("spark.sql.ansi.enabled", "false")
                     .config("spark.driver.memory", os.environ.get("DPDESK_SPARK_MEMORY", "1g"))
                     .getOrCreate())
        except Exception as exc:  # noqa: BLE001 - py4j and Spark raise many kinds; one line says which
            raise EngineError(f"Spark could not start with master {master}: {_first_line(exc)}. Check the master "
                              "and Java 17 (java -version). Nothing was linked or spent.") from None
        spark.sparkContext.setLogLevel("ERROR")
        _SESSIONS[master] = spark
        return spark


def stop_sessions() -> None:
    """Stop every session this process started (tests; the app at exit)."""
    with _LOCK:
        for spark in _SESSIONS.values():
            try:
                spark.stop()
            except Exception:  # noqa: BLE001
                pass
        _SESSIONS.clear()


class SparkSource:
    """One linked source read by Spark (see the module docstring)."""

    engine = "spark"
    dialect = q.SPARK

    def __init__(self, link: Link):
        self.link = link
        self.master = link.master or "local[2]"
        self.remote = fp.is_remote(link.source)
        self.files = None if self.remote else fp.resolve(link.source)
        self.spark = session(self.master)
        self.view = f"dpdesk_src_{uuid.uuid4().hex}"
        self.group = f"dpdesk-{uuid.uuid4().hex}"
        self._df = None
        self._running = threading.Event()

    def _frame(self):
        if self._df is None:
            paths = [self.link.source] if self.remote else [str(f) for f in self.files]
            reader = self.spark.read
            try:
                if self.link.format == "parquet":
                    df = reader.parquet(*paths)
                else:
                    opts = self.link.options or {}
                    df = reader.csv(paths, header=True, sep=opts.get("delimiter") or ",",
                                    encoding=opts.get("encoding") or "UTF-8", inferSchema=not opts.get("types"),
                                    schema=_ddl(opts.get("types")), enforceSchema=False)
            except Exception as exc:  # noqa: BLE001
                raise DataError(f"Spark could not read the linked source {self.link.source}: {_first_line(exc)}. "
                                "Nothing was spent.") from None
            df.createOrReplaceTempView(self.view)
            self._df = df
        return self._df

    def _run(self, text: str, params: dict, cancel: CancelToken | None):
        self._frame()
        self._running.set()  # before the token is looked at: a cancel from now on reaches the job
        if cancel is not None:
            try:
                cancel.check()
            except Cancelled:
                self._running.clear()
                raise
            cancel.on_cancel(self.cancel)
        sc = self.spark.sparkContext
        sc.setJobGroup(self.group, "dpdesk release", interruptOnCancel=True)
        try:
            rows = [tuple(r) for r in self.spark.sql(text.format(source=self.view), args=params or None).collect()]
        except Exception as exc:  # noqa: BLE001 - a cancelled job, or Spark's own error, in one line
            if cancel is not None and cancel.cancelled:
                raise Cancelled("Cancelled: Spark's job was stopped. Nothing was released and no budget was "
                                "spent.") from None
            raise DataError(f"Spark could not aggregate the linked source {self.link.source}: {_first_line(exc)}. "
                            "Nothing was spent.") from None
        finally:
            self._running.clear()
            sc.setLocalProperty("spark.jobGroup.id", None)
        if cancel is not None:
            cancel.check()  # cancelled while its last job finished: nothing is used
        return rows

    def schema(self) -> Schema:
        fields = self._frame().schema.fields
        return Schema(tuple(Column(f.name, f.dataType.simpleString(), kind_of(f.dataType.simpleString()))
                            for f in fields))

    def row_count(self, cancel: CancelToken | None = None) -> int:
        return int(self._run("SELECT count(*) FROM {source}", {}, cancel)[0][0])

    def quick_fingerprint(self) -> Fingerprint:
        return remote_quick(self.link) if self.remote else fp.quick(self.link.source, self.files)

    def content_fingerprint(self, cancel: CancelToken | None = None,
                            progress: Callable[[int, int], None] | None = None) -> Fingerprint:
        if self.remote:
            return remote_quick(self.link, checksums=True)
        return fp.content(self.link.source, self.files, check=None if cancel is None else cancel.check,
                          progress=progress)

    def aggregate(self, query: Query, cancel: CancelToken | None = None) -> Aggregates:
        start = time.perf_counter()
        names = self.schema().names if query.contributions is not None else []
        text, params, axes = q.sql(query, "{source}", q.SPARK, names)
        rows = self._run(text.replace("{", "{{").replace("}", "}}").replace("{{source}}", "{source}"), params,
                         cancel)
        out = q.assemble(query, axes, rows, self.engine)
        return Aggregates(**out, engine=self.engine, seconds=time.perf_counter() - start)

    def sample(self, n: int = 100, cancel: CancelToken | None = None) -> list[dict]:
        n = max(0, min(int(n), 10_000))
        if not n:
            return []
        total = max(1, self.row_count(cancel))
        frac = min(1.0, 3.0 * n / total)
        df = self._frame()
        rows = df.sample(withReplacement=False, fraction=frac).limit(n).collect()
        return [r.asDict() for r in rows]

    def respondents(self, cancel: CancelToken | None = None, k: int | None = None, columns=None) -> dict:
        from dpdesk.project.linked import people

        return people.signature(self, cancel, k, columns)

    def run_sql(self, text: str, params: dict, cancel: CancelToken | None = None):
        return self._run(text, params, cancel)

    def cancel(self) -> None:
        """Cancel the job group now, and again while the query runs: a job submitted just after the first
        cancel (Spark plans before it submits) is cancelled too."""
        def keep_cancelling():
            while True:
                try:
                    self.spark.sparkContext.cancelJobGroup(self.group)
                except Exception:  # noqa: BLE001 - a stopped session has nothing to cancel
                    return
                if not self._running.is_set():
                    return
                time.sleep(0.25)

        threading.Thread(target=keep_cancelling, name="dpdesk-spark-cancel", daemon=True).start()

    def close(self) -> None:
        try:
            self.spark.catalog.dropTempView(self.view)
        except Exception:  # noqa: BLE001
            pass


def _ddl(types: dict | None) -> str | None:
    if not types:
        return None
    return ", ".join(f"`{str(k).replace('`', '``')}` {_spark_type(v)}" for k, v in types.items())


def _spark_type(duck: str) -> str:
    t = str(duck).upper()
    return {"BIGINT": "BIGINT", "INTEGER": "INT", "DOUBLE": "DOUBLE", "VARCHAR": "STRING", "BOOLEAN": "BOOLEAN",
            "FLOAT": "FLOAT", "DATE": "DATE", "TIMESTAMP": "TIMESTAMP"}.get(t, "STRING")


def remote_quick(link: Link, checksums: bool = False) -> Fingerprint:
    """A cluster path's files, sizes and times (and the file system's checksums), listed by Hadoop's FileSystem."""
    import hashlib
    import json

    spark = session(link.master or "local[2]")
    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    path = jvm.org.apache.hadoop.fs.Path(link.source)
    fs = path.getFileSystem(conf)
    stats = []
    for status in fs.globStatus(path) or []:
        if status.isDirectory():
            it = fs.listFiles(status.getPath(), True)
            while it.hasNext():
                f = it.next()
                name = f.getPath().getName()
                if not name.startswith(("_", ".")):
                    stats.append(FileStat(f.getPath().toString(), int(f.getLen()), int(f.getModificationTime()) * 10**6))
        else:
            stats.append(FileStat(status.getPath().toString(), int(status.getLen()),
                                  int(status.getModificationTime()) * 10**6))
    if not stats:
        raise DataError(f"The source {link.source} matches no file on the cluster. Check the path. Nothing was "
                        "linked.")
    stats.sort(key=lambda s: s.path)
    quick = hashlib.sha256(json.dumps(["dpdesk-linked-1", [s.to_list() for s in stats]]).encode()).hexdigest()
    content = None
    if checksums:
        digest = hashlib.sha256(b"dpdesk-linked-remote-checksums-1\n")
        for s in stats:
            checksum = fs.getFileChecksum(jvm.org.apache.hadoop.fs.Path(s.path))
            digest.update(f"{s.path}\x1f{s.size}\x1f{checksum.toString() if checksum else ''}\n".encode())
        content = digest.hexdigest()
    return Fingerprint(tuple(stats), quick, content)


def _first_line(exc: Exception) -> str:
    text = [line for line in str(exc).strip().splitlines() if line.strip()]
    return text[0][:300] if text else type(exc).__name__
