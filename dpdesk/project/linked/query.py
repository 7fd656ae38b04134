"""From a release request to the exact aggregation an engine runs, checked against the schema first.

:func:`query_for` turns a normalised release request (its keys already typed to the columns)
into a :class:`~.source.Query`, refusing a column missing from the recorded schema or a sum of
a text column before any engine runs. :func:`sql` writes that query for an engine's SQL
dialect (DuckDB's, Spark's), with every value the user typed passed as a parameter and every
column name quoted, never pasted. The aggregates match what the same release computes on an
imported dataset, exactly:

* keys match a number column as numbers (``CAST(x AS DOUBLE) = key``), other columns as the
  engine's text of the value (booleans as ``True``/``False``); missing values and values
  outside the declared keys or bins fall in no cell;
* bins are ``[e_i, e_{i+1})``, the last one closed, non-finite values in none;
* sums and means put each finite value on the grid ``clip(round_half_even(x / r), floor(lo / r),
  ceil(hi / r))`` (:mod:`dpdesk.mechanisms.central.numeric`) and sum the integers; missing and
  non-finite values are left out of the sum and the count;
* a quantile counts the finite values below, at and between the declared candidates (2K + 1
  cells), from which Smith's scores are exact (:mod:`dpdesk.mechanisms.central.exact`).

Contributions (:class:`~.source.Contributions`): with an identifier column and at most k rows
per person, the rows are first truncated in the engine (Tumult Analytics' and OpenDP's
"truncate to k rows per identifier" step):

    ROW_NUMBER() OVER (PARTITION BY id ORDER BY hash(salt, row's values)) <= k

with a secret 63-bit salt drawn per release from the CSPRNG, so the kept rows cannot be
predicted; rows without an identifier are one person together. Each released number then
moves by at most k times its one-row sensitivity, and the noise is scaled to that.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from dpdesk.errors import DataError
from dpdesk.mechanisms.central.typed_keys import numeric_keys
from dpdesk.project.linked.source import Contributions, Query, Schema

_FLOATS = ("FLOAT", "DOUBLE", "REAL", "FLOAT4", "FLOAT8", "DOUBLETYPE", "FLOATTYPE")

__all__ = ["query_for", "sql", "Dialect", "DUCKDB", "SPARK", "cells_to_index"]


def _fix(name):
    return (f"Link the source again if it gained {name!r} (Relink… in Tabulate; on the command line: dpdesk "
            "import PROJECT SOURCE with the link and relink options), or release a column it has.")


def _axis(schema: Schema, column: str, keys, bins, dataset: str) -> tuple:
    col = schema.column(column, dataset=dataset, fix=_fix(column))
    if bins is not None:
        if col.kind != "number":
            raise DataError(f"Bins need a numeric column; {column!r} in the linked dataset {dataset!r} holds "
                            f"{col.type} values. Declare its categories as keys instead. Nothing was spent.")
        return ("bins", column, tuple(float(Fraction(e)) for e in bins))
    return ("keys", column, col.kind, tuple(keys))


def query_for(spec: Mapping, schema: Schema, dataset: str, contributions: tuple | None = None) -> Query:
    """The engine's query for a normalised release request whose keys are typed (:func:`typed_keys`)."""
    stat = spec["statistic"]
    by = None
    if spec.get("by"):
        by = _axis(schema, spec["by"], spec["by_keys"], None, dataset)
    contrib = None
    if contributions is not None:
        identifier, k = contributions
        schema.column(identifier, dataset=dataset, fix=_fix(identifier))
        contrib = Contributions(identifier, int(k), secrets.randbits(63))
    if stat == "count":
        present = None
        if spec["columns"]:
            col = schema.column(spec["columns"][0], dataset=dataset, fix=_fix(spec["columns"][0]))
            present = (col.name, col.type.upper() in _FLOATS)
        return Query("count", by=by, present=present, contributions=contrib)
    if stat in ("histogram", "crosstab"):
        axes = tuple(_axis(schema, c, k, b, dataset) for c, k, b in zip(spec["columns"], spec["keys"], spec["bins"]))
        return Query(stat, axes=axes, by=by, contributions=contrib)
    value = spec["columns"][0]
    col = schema.column(value, dataset=dataset, fix=_fix(value))
    if col.kind != "number":
        raise DataError(f"A {stat} needs a numeric column; {value!r} in the linked dataset {dataset!r} holds "
                        f"{col.type} values. Nothing was released and no budget was spent.")
    if stat in ("sum", "mean"):
        lo, hi, r = (Fraction(b) for b in (*spec["bounds"], spec["resolution"]))
        return Query("sum", by=by, value=value, grid=(float(r), math.floor(lo / r), math.ceil(hi / r)),
                     contributions=contrib)
    from dpdesk.mechanisms.central.request import median_candidates

    cands = tuple(float(c) for c in median_candidates(spec))
    return Query("ranks", by=by, value=value, candidates=cands, contributions=contrib)


def typed_keys(spec: Mapping, schema: Schema, dataset: str) -> dict:
    """The request with its keys converted to the columns' kinds (numbers for number columns, text otherwise)."""
    def convert(column, keys):
        if keys is None:
            return None
        kind = schema.column(column, dataset=dataset, fix=_fix(column)).kind
        if kind != "number":
            return [str(k) for k in keys]
        return numeric_keys(keys, column)

    spec = dict(spec)
    if spec["statistic"] in ("histogram", "crosstab"):
        spec["keys"] = [convert(c, k) for c, k in zip(spec["columns"], spec["keys"])]
    if spec.get("by"):
        spec["by_keys"] = convert(spec["by"], spec["by_keys"])
    return spec


# ----------------------------------------------------------------------------- SQL


@dataclass
class Dialect:
    """What differs between the engines' SQL."""

    name: str
    param: str  # "$" (DuckDB) or ":" (Spark)
    round_even: str  # round half to even, to an integer
    row_hash: str  # hash of (salt, values...) as a 64-bit integer
    finite: str  # {x} is a finite double
    text: str  # {x} as text
    double: str = "CAST({x} AS DOUBLE)"
    bigint: str = "CAST({x} AS BIGINT)"

    def quote(self, name: str) -> str:
        if self.name == "spark":
            return "`" + name.replace("`", "``") + "`"
        return '"' + name.replace('"', '""') + '"'


DUCKDB = Dialect("duckdb", "$", "round_even({x}, 0)", "hash({args})", "isfinite({x})", "CAST({x} AS VARCHAR)")
SPARK = Dialect("spark", ":", "bround({x}, 0)", "xxhash64({args})",
                "({x} IS NOT NULL AND NOT isnan({x}) AND abs({x}) != double('infinity'))", "CAST({x} AS STRING)")


@dataclass
class _Builder:
    d: Dialect
    kinds: dict
    params: dict = field(default_factory=dict)

    def p(self, value) -> str:
        name = f"p{len(self.params)}"
        self.params[name] = value
        return f"{self.d.param}{name}"

    def col(self, name: str) -> str:
        return self.d.quote(name)

    def num(self, name: str) -> str:
        return self.d.double.format(x=self.col(name))

    def lit(self, x: float) -> str:
        return f"CAST({self.p(float(x))} AS DOUBLE)"

    def keyed(self, column: str, kind: str) -> str:
        c = self.col(column)
        if kind == "number":
            return self.d.double.format(x=c)
        if kind == "boolean":
            return f"(CASE WHEN {c} THEN 'True' WHEN NOT {c} THEN 'False' END)"
        return self.d.text.format(x=c)

    def axis(self, axis, alias: str) -> tuple[str, str]:
        """(expression giving the cell's value or index, condition on ``alias`` that it is in a declared cell)."""
        if axis[0] == "keys":
            _, column, kind, keys = axis
            e = self.keyed(column, kind)
            values = [float(k) for k in keys] if kind == "number" else [str(k) for k in keys]
            if self.d.name == "duckdb":  # a subquery: DuckDB would push an IN list below the grouping (6-8x slower)
                return e, f"{alias} IN (SELECT unnest({self.p(values)}))"
            marks = ", ".join((f"CAST({self.p(v)} AS DOUBLE)" if kind == "number" else self.p(v)) for v in values)
            return e, f"{alias} IN ({marks})"
        _, column, edges = axis
        x = self.num(column)
        parts = []
        for i in range(len(edges) - 1):
            upper = "<=" if i == len(edges) - 2 else "<"
            parts.append(f"WHEN {x} >= {self.lit(edges[i])} AND {x} {upper} {self.lit(edges[i + 1])} THEN {i}")
        e = f"(CASE WHEN NOT {self.d.finite.format(x=x)} THEN NULL {' '.join(parts)} END)"
        return e, f"{alias} IS NOT NULL"

    def ranks(self, x: str, cands: tuple) -> str:
        """Cell 2j+1 when x equals candidate j, 2j when it lies below candidate j (and above j-1)."""
        def tree(lo: int, hi: int) -> str:
            if lo == hi:
                return str(2 * lo)
            mid = (lo + hi) // 2
            c = self.lit(cands[mid])
            return f"(CASE WHEN {x} < {c} THEN {tree(lo, mid)} WHEN {x} = {c} THEN {2 * mid + 1} " \
                   f"ELSE {tree(mid + 1, hi)} END)"
        return tree(0, len(cands))


def _rows(b: _Builder, q: Query, relation: str, columns: list[str]) -> str:
    """The rows a release reads: all of them, or at most k per person (see the module docstring).

    Only persons with more than k rows go through the window (found by a grouping, which spills to
    disk); the others' rows are kept as they are. The result is the same as the window over every
    row, but a window partitioned by tens of millions of persons ran DuckDB out of its memory limit
    (30 million rows, one each: out of memory at 512 MB), and a grouping does not.
    """
    if q.contributions is None:
        return relation
    c = q.contributions
    args = ", ".join([b.p(int(c.salt))] + [b.col(n) for n in columns])
    order = b.d.row_hash.format(args=args)
    who, k = b.col(c.identifier), int(c.max_rows)
    same = f"__dpdesk_m.__dpdesk_id IS NOT DISTINCT FROM __dpdesk_r.{who}"  # rows without an identifier: one person
    many = f"(SELECT {who} AS __dpdesk_id FROM {relation} GROUP BY {who} HAVING count(*) > {k})"
    light = (f"SELECT *, 0 AS __dpdesk_k FROM {relation} AS __dpdesk_r "
             f"WHERE NOT EXISTS (SELECT 1 FROM {many} AS __dpdesk_m WHERE {same})")
    heavy = (f"SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY {who} ORDER BY {order}) AS __dpdesk_k "
             f"FROM {relation} AS __dpdesk_r WHERE EXISTS (SELECT 1 FROM {many} AS __dpdesk_m WHERE {same})) "
             f"AS __dpdesk_h WHERE __dpdesk_k <= {k}")
    return f"({light} UNION ALL {heavy}) AS __dpdesk_t"


def sql(q: Query, relation: str, dialect: Dialect, columns: list[str]) -> tuple[str, dict, list]:
    """(statement, parameters, the axes of its GROUP BY columns) for ``q`` over ``relation``.

    ``columns`` are every column of the source (the truncation's hash covers the row's values).
    The statement returns one row per non-empty cell: the axes' values, then the aggregates
    (count; or grid sum and count; or count per rank cell). The rows are grouped first and the
    groups outside the declared keys dropped after: a filter on every row costs DuckDB 6-8 times
    the grouping itself (benchmarks/linked.py), and a grouping of many distinct values spills to
    disk within the engine's memory limit.
    """
    b = _Builder(dialect, {})
    rows = _rows(b, q, relation, columns)
    axes, where, outer = [], [], []
    if q.by is not None:
        axes.append(q.by)
    axes.extend(q.axes)
    exprs = []
    for i, a in enumerate(axes):
        e, cond = b.axis(a, f"a{i}")
        exprs.append(e)
        outer.append(cond)
    if q.statistic == "count":
        agg = "count(*)"
        if q.present is not None:
            name, floating = q.present
            where.append(f"{b.col(name)} IS NOT NULL")
            if floating:  # a float NaN is missing in an imported frame too
                where.append(f"NOT isnan({b.num(name)})")
    elif q.statistic in ("histogram", "crosstab"):
        agg = "count(*)"
    elif q.statistic == "sum":
        r, glo, ghi = q.grid
        x = b.num(q.value)
        where.append(dialect.finite.format(x=x))
        g = dialect.round_even.format(x=f"{x} / {b.lit(r)}")
        g = f"least(greatest({g}, {b.lit(glo)}), {b.lit(ghi)})"
        agg = [f"sum({dialect.bigint.format(x=g)})", "count(*)"]
    else:  # ranks
        x = b.num(q.value)
        where.append(dialect.finite.format(x=x))
        exprs.append(b.ranks(x, q.candidates))
        agg = "count(*)"
    names = [f"a{i}" for i in range(len(exprs))]
    aggs = [f"{a} AS v{j}" for j, a in enumerate([agg] if isinstance(agg, str) else agg)]
    select = ", ".join([f"{e} AS {n}" for e, n in zip(exprs, names)] + aggs)
    group = f" GROUP BY {', '.join(names)}" if exprs else ""
    cond = f" WHERE {' AND '.join(where)}" if where else ""
    inner = f"SELECT {select} FROM {rows}{cond}{group}"
    if not outer:
        return inner, b.params, axes
    shown = ", ".join(names + [f"v{j}" for j in range(len(aggs))])
    return f"SELECT {shown} FROM ({inner}) AS __dpdesk_g WHERE {' AND '.join(outer)}", b.params, axes


def cells_to_index(axis, value) -> int | None:
    """The cell index of an axis value the engine returned (None: in no declared cell)."""
    if value is None:
        return None
    if axis[0] == "bins":
        return int(value)
    _, _, kind, keys = axis
    if kind == "number":
        try:
            x = float(value)
        except (TypeError, ValueError):
            return None
        for i, k in enumerate(keys):
            if float(k) == x:
                return i
        return None
    text = str(value)
    for i, k in enumerate(keys):
        if str(k) == text:
            return i
    return None


def assemble(q: Query, axes: list, rows: list[tuple], engine: str) -> dict[str, Any]:
    """Fill the dense integer arrays of :class:`~.source.Aggregates` from the engine's grouped rows."""
    import numpy as np

    def size(a):
        return len(a[3]) if a[0] == "keys" else len(a[2]) - 1

    shape = [size(a) for a in axes]
    if q.statistic == "ranks":
        shape = shape + [2 * len(q.candidates) + 1]
    n_axes = len(axes)
    if q.statistic == "sum":
        sums = np.zeros(shape or [1], dtype=object)
        counts = np.zeros(shape or [1], dtype=np.int64)
    else:
        cells = np.zeros(shape or [1], dtype=np.int64)
    for row in rows:
        idx = []
        for a, v in zip(axes, row[:n_axes]):
            i = cells_to_index(a, v)
            if i is None:
                break
            idx.append(i)
        else:
            rest = row[n_axes:]
            if q.statistic == "ranks":
                idx.append(int(rest[0]))
                cells[tuple(idx)] += int(rest[1])
            elif q.statistic == "sum":
                key = tuple(idx) or (0,)
                sums[key] += int(rest[0] or 0)
                counts[key] += int(rest[1])
            else:
                cells[tuple(idx) or (0,)] += int(rest[0])
    if q.statistic == "sum":
        return {"sums": sums, "counts": counts}
    if q.statistic == "ranks":
        return {"ranks": cells.reshape(-1, shape[-1]) if axes else cells.reshape(1, -1)}
    return {"cells": cells}
