"""Every frame read_table can return is stored in a project and read back equal (issue 13, item 1).

Hypothesis builds frames column by column from the dtypes the readers produce (booleans,
nullable booleans, int8..int64 and unsigned, nullable integers, floats with NaN and
infinities, categories with unused levels, text with empty strings, dates, datetimes with
and without a time zone, durations, mixed object columns) and checks that
``Project.add_dataset`` then ``Project.dataset_frame`` gives the same frame, dtypes and
categories included. SPSS and Stata files with value labels, user-missing codes and Stata's
tagged missing values (.a-.z) go through read_table and the project and keep their labels
and missing codes. A value that cannot be stored exactly is a DataError naming the column
and the row, and nothing is stored.
"""

from __future__ import annotations

import datetime as dt
import decimal
import itertools
import math
import sqlite3

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpdesk.errors import DataError
from dpdesk.project import Project, read_table
from dpdesk.project.analysis.estimates import stored_table
from dpdesk.project.mapping.code_matching import _key

from tests.helpers.paths import FIXTURES

_names = itertools.count()
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8)
floats = st.floats(allow_nan=True, allow_infinity=True)
stamps = st.datetimes(min_value=dt.datetime(1678, 1, 1), max_value=dt.datetime(2261, 12, 31))
dates = st.dates(min_value=dt.date(1, 1, 1))


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    with Project.create(tmp_path_factory.mktemp("roundtrip") / "p.dpdesk") as p:
        yield p


def round_trip(project, frame):
    name = f"d{next(_names)}"
    project.add_dataset(name, frame)
    try:
        return project.dataset_frame(name)
    finally:
        project.remove_dataset(name)


def _nullable(values, draw_mask):
    return [None if m else v for v, m in zip(values, draw_mask)]


@st.composite
def column(draw, n: int):
    """One column of ``n`` values, of a dtype some reader returns."""
    mask = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    kind = draw(st.sampled_from([
        "bool", "boolean", "int", "uint", "Int", "float", "Float64", "category", "str", "text",
        "datetime", "datetime_tz", "object_dates", "object_datetimes", "object_times",
        "timedelta", "mixed",
    ]))
    if kind == "bool":
        return pd.Series(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    if kind == "boolean":
        return pd.Series(_nullable(draw(st.lists(st.booleans(), min_size=n, max_size=n)), mask), dtype="boolean")
    if kind in ("int", "uint", "Int"):
        prefix = "u" if kind == "uint" else ""
        width = draw(st.sampled_from([8, 16, 32, 64]))
        dtype = np.dtype(f"{prefix}int{width}")
        info = np.iinfo(dtype)
        values = draw(st.lists(st.integers(int(info.min), int(info.max)), min_size=n, max_size=n))
        if kind == "Int":
            nullable = draw(st.sampled_from(["Int", "UInt"]))
            if nullable == "UInt":
                values = [abs(v) for v in values]
                return pd.Series(_nullable(values, mask), dtype=f"UInt{width}")
            return pd.Series(_nullable(values, mask), dtype=f"Int{width}")
        return pd.Series(np.array(values, dtype=object).astype(dtype) if n else np.array([], dtype=dtype))
    if kind == "float":
        dtype = draw(st.sampled_from(["float64", "float32"]))
        values = draw(st.lists(st.floats(width=32 if dtype == "float32" else 64), min_size=n, max_size=n))
        return pd.Series(np.array([math.nan if m else v for v, m in zip(values, mask)], dtype=dtype))
    if kind == "Float64":
        values = draw(st.lists(st.floats(allow_nan=False), min_size=n, max_size=n))
        return pd.Series(_nullable(values, mask), dtype="Float64")
    if kind == "category":
        levels = draw(st.one_of(
            st.lists(texts, min_size=1, max_size=6, unique=True),
            st.lists(st.integers(-300, 300), min_size=1, max_size=6, unique=True),
            st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=6,
                     unique_by=lambda x: x + 0.0),
            st.just([False, True]),
            st.lists(stamps, min_size=1, max_size=4, unique=True).map(lambda v: [pd.Timestamp(x) for x in v]),
        ))
        unused = draw(st.integers(0, len(levels) - 1))  # the last levels may be unused
        picks = draw(st.lists(st.integers(0, len(levels) - 1 - unused), min_size=n, max_size=n))
        codes = np.array([-1 if m else p for p, m in zip(picks, mask)], dtype=np.int64)
        ordered = draw(st.booleans())
        categories = pd.Index(levels, dtype=object).infer_objects()
        if categories.dtype == object and all(isinstance(v, str) for v in levels):
            categories = categories.astype(draw(st.sampled_from(["object", "str"])))
        return pd.Series(pd.Categorical.from_codes(codes, categories=categories, ordered=ordered))
    if kind in ("str", "text"):
        values = _nullable(draw(st.lists(st.one_of(st.just(""), texts), min_size=n, max_size=n)), mask)
        if kind == "str":
            return pd.Series(values, dtype=draw(st.sampled_from(["str", "string"])))
        marker = draw(st.sampled_from([None, math.nan]))
        return pd.Series([marker if v is None else v for v in values], dtype=object)
    if kind in ("datetime", "datetime_tz"):
        unit = draw(st.sampled_from(["s", "ms", "us", "ns"]))
        values = pd.Series(pd.to_datetime(_nullable(draw(st.lists(stamps, min_size=n, max_size=n)), mask)),
                           dtype="datetime64[ns]").astype(f"datetime64[{unit}]")
        if kind == "datetime_tz":
            zone = draw(st.sampled_from(["UTC", "Europe/Berlin", "America/New_York"]))
            values = values.dt.tz_localize("UTC").dt.tz_convert(zone)
        return values
    if kind == "object_dates":
        return pd.Series(_nullable(draw(st.lists(dates, min_size=n, max_size=n)), mask), dtype=object)
    if kind == "object_datetimes":
        return pd.Series(_nullable(draw(st.lists(st.datetimes(), min_size=n, max_size=n)), mask), dtype=object)
    if kind == "object_times":
        return pd.Series(_nullable(draw(st.lists(st.times(), min_size=n, max_size=n)), mask), dtype=object)
    if kind == "timedelta":
        values = draw(st.lists(st.integers(-(10 ** 15), 10 ** 15), min_size=n, max_size=n))
        return pd.Series(pd.to_timedelta(_nullable(values, mask), unit="us"))
    mixed = st.one_of(st.none(), st.just(math.nan), st.booleans(), st.integers(), floats, texts,
                      st.binary(max_size=4), dates, st.datetimes(), st.times(),
                      st.timedeltas(), st.decimals(allow_nan=False, allow_infinity=False),
                      stamps.map(pd.Timestamp))
    return pd.Series(draw(st.lists(mixed, min_size=n, max_size=n)), dtype=object)


@st.composite
def frames(draw):
    n = draw(st.integers(0, 12))
    columns = draw(st.lists(column(n), min_size=0, max_size=5))
    frame = pd.DataFrame({f"col {i}": c.reset_index(drop=True) for i, c in enumerate(columns)},
                         index=pd.RangeIndex(n))
    if draw(st.booleans()) and n:  # the importer's row labels after dropping blank rows
        frame.index = pd.Index(sorted(draw(st.lists(st.integers(0, 10 ** 6), min_size=n, max_size=n,
                                                    unique=True))))
    return frame


def assert_same(back, frame):
    pd.testing.assert_frame_equal(back, frame, check_exact=True, check_index_type=True,
                                  check_column_type=False, check_categorical=True)
    for name in frame.columns:  # assert_frame_equal does not compare an object column's types
        if frame[name].dtype == object:
            for a, b in zip(back[name].tolist(), frame[name].tolist()):
                assert type(a) is type(b), (name, a, b)
        if isinstance(frame[name].dtype, pd.CategoricalDtype):
            assert back[name].cat.categories.dtype == frame[name].cat.categories.dtype


@SETTINGS
@given(frame=frames())
def test_every_frame_comes_back_equal(project, frame):
    assert_same(round_trip(project, frame), frame)


def test_booleans_survive_a_csv_import(project, tmp_path):
    """The reported bug: True/False (and Qualtrics' Finished) read back as blanks."""
    path = tmp_path / "tf.csv"
    path.write_text("id,flag,Finished\n1,True,TRUE\n2,False,FALSE\n3,True,TRUE\n4,,TRUE\n")
    table = read_table(path)
    back = round_trip(project, table.frame)
    assert back["flag"].tolist()[:3] == [True, False, True] and pd.isna(back["flag"].iloc[3])
    assert back["Finished"].tolist() == [True, False, True, True]
    assert_same(back, table.frame)


def test_booleans_of_an_old_project_come_back(tmp_path):
    """Files written before the fix kept the 0/1 with a [false, true] category list: read them right."""
    path = tmp_path / "old.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("d", pd.DataFrame({"flag": pd.Categorical([True, False, None])}))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE dataset_columns SET categories = '[false, true]'")
    conn.commit()
    conn.close()
    with Project.open(path) as p:
        assert p.dataset_frame("d")["flag"].tolist()[:2] == [True, False]


@pytest.mark.parametrize("value, what", [
    ([1, 2], "list"), ({"a": 1}, "dict"), (complex(1, 2), "complex"), ("bad \udc80 text", "str"),
])
def test_a_value_that_cannot_be_stored_is_an_error_naming_column_and_row(project, value, what):
    frame = pd.DataFrame({"ok": [1, 2, 3], "answer": pd.Series(["a", "b", value], dtype=object)})
    frame.attrs["dpdesk_first_row"] = 2
    name = f"bad{next(_names)}"
    with pytest.raises(DataError, match=r"Column 'answer', row 4 of the file.*cannot be stored exactly") as info:
        project.add_dataset(name, frame)
    assert what in str(info.value)
    assert name not in [d.name for d in project.datasets()]


def test_a_huge_unsigned_integer_is_kept_exactly(project):
    frame = pd.DataFrame({"id": np.array([2 ** 64 - 1, 0, 2 ** 63], dtype=np.uint64)})
    assert_same(round_trip(project, frame), frame)


# ------------------------------------------------------------------ SPSS and Stata files

def _labels(report, column):
    return {_key(k): v for k, v in (report.value_labels.get(column) or {}).items()}


def _missing(report, column):
    return sorted(_key(m) if not isinstance(m, dict) else (m["from"], m["to"])
                  for m in report.missing_values.get(column) or [])


def _check_stat_file(project, path):
    table = read_table(path)
    name = f"stat{next(_names)}"
    project.add_dataset(name, table.frame, source=table.source.to_dict(), report=table.report.to_dict())
    try:
        back = stored_table(project, name)
    finally:
        pass
    assert_same(back.frame, table.frame)
    for column in table.frame.columns:
        assert _labels(back.report, column) == _labels(table.report, column)
        assert _missing(back.report, column) == _missing(table.report, column)
    project.remove_dataset(name)
    return table, back


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(codes=st.lists(st.sampled_from([1.0, 2.0, 3.0, 98.0, 99.0, math.nan]), min_size=1, max_size=30),
       text=st.lists(st.sampled_from(["", "yes", "no", "ünïcode"]), min_size=30, max_size=30))
def test_spss_labels_and_user_missing_codes_come_back(project, tmp_path, codes, text):
    import pyreadstat

    n = len(codes)
    frame = pd.DataFrame({"q1": codes, "q2": [c if c == c else 1.0 for c in codes], "note": text[:n]})
    path = tmp_path / "labelled.sav"
    pyreadstat.write_sav(frame, path, variable_value_labels={"q1": {1: "No", 2: "Yes", 98: "Refused", 99: "Don't know"}},
                         missing_ranges={"q1": [98, 99], "q2": [{"lo": 97, "hi": 99}]})
    table, back = _check_stat_file(project, path)
    assert _missing(back.report, "q1") == [98.0, 99.0]
    assert _labels(back.report, "q1")[98.0] == "Refused"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.sampled_from([1.0, 2.0, 5.0, "a", "b", "z", math.nan]), min_size=1, max_size=30))
def test_stata_tagged_missing_values_come_back(project, tmp_path, values):
    import pyreadstat

    values = [1.0] + values  # a number makes pyreadstat write x as a numeric variable
    frame = pd.DataFrame({"x": pd.Series(values, dtype=object), "y": range(len(values))})
    path = tmp_path / "tagged.dta"
    pyreadstat.write_dta(frame, path, missing_user_values={"x": ["a", "b", "z"]},
                         variable_value_labels={"x": {1: "one", "a": "Refused"}})
    table, back = _check_stat_file(project, path)
    x = back.frame["x"]
    assert pd.api.types.is_numeric_dtype(x.dtype)  # numbers stay numbers
    tags = [v for v in values if isinstance(v, str)]
    assert len({float(v) for v in x.dropna() if v > 1e300}) == len(set(tags))  # one code per tag


def test_the_stata_fixture_keeps_numbers_numeric(project):
    _check_stat_file(project, FIXTURES.parent / "data" / "tagged_missing.dta")


def test_decimal_and_dates_in_object_columns(project):
    frame = pd.DataFrame({"m": pd.Series([decimal.Decimal("1.10"), dt.date(2024, 1, 2), True, 1, 1.0, "1",
                                          None, math.nan], dtype=object)})
    assert_same(round_trip(project, frame), frame)
