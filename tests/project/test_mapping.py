"""map_item / counts_by / map_counts: counts per response, row numbers of every row not used."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from dpdesk.errors import DataError
from dpdesk.project import ItemMapping, MappingReport, map_item, read_table
from dpdesk.project.mapping import counts_by, map_counts
from tests.helpers.paths import DATA

YES_NO = {"no": ["No", 0, "Nein"], "yes": ["Yes", 1, "Ja"]}


def test_text_and_numbers_case_and_space_insensitive():
    frame = pd.DataFrame({"q": ["Yes", " yes ", "NO", 1, 0.0, "1", "Nein", "ja"]})
    report = map_item(frame, "q", YES_NO)
    assert isinstance(report, MappingReport)
    assert report.responses == ("no", "yes")
    assert report.counts == [3, 5] and report.n_used == 8 and report.ok


def test_order_of_responses_is_respected():
    frame = pd.DataFrame({"q": ["Yes", "No", "Yes"]})
    assert map_item(frame, "q", YES_NO, responses=["yes", "no"]).counts == [2, 1]
    with pytest.raises(DataError, match="exactly once"):
        map_item(frame, "q", YES_NO, responses=["yes"])


def test_unmatched_and_missing_are_listed_with_file_row_numbers():
    table = read_table(DATA / "coded.csv")  # one header row: data row k is file row k + 2
    report = map_item(table, "rr", {"no": [0, "no"], "yes": [1, "yes"]})
    assert not report.ok
    unmatched = {(p.row, p.value) for p in report.unmatched}
    # k % 7 == 5 is "maybe" (k = 5, 12, 19); k % 7 == 6 is 98 (k = 6, 13, 20)
    assert {(7, "maybe"), (14, "maybe"), (21, "maybe")} <= unmatched
    assert report.missing_rows == [6, 13, 20]  # blanks at k = 4, 11, 18
    assert report.counts == [6, 6]
    assert report.n_used + report.n_unmatched + report.n_missing == report.n_rows == 21
    text = " ".join(report.problems)
    assert "coded.csv" in text and "'maybe'" in text and "exclude=True" in text


def test_exclude_drops_problem_rows_but_reports_them():
    table = read_table(DATA / "coded.csv")
    report = map_item(table, "rr", {"no": [0, "no"], "yes": [1, "yes"]}, exclude=True)
    assert report.ok and report.excluded
    assert report.counts == [6, 6]
    assert len(report.unmatched) == 6 and len(report.missing) == 3 and report.n_excluded == 9
    assert all("left out" in w for w in report.warnings)
    assert report.left_out() == {"matches no code": 6, "blank": 3}


def test_raise_for_problems_gives_a_data_error():
    frame = pd.DataFrame({"q": ["Yes", "perhaps"]})
    report = map_item(frame, "q", YES_NO)
    with pytest.raises(DataError, match="row 3"):  # plain frame: one header row assumed
        report.raise_for_problems()


def test_header_rows_are_accounted_for_platform_files():
    table = read_table(DATA / "qualtrics.csv")  # 3 header rows: first respondent on row 4
    report = map_item(table, "Q1", YES_NO)
    assert report.missing_rows == [4 + 7]  # the blank answer of respondent k = 7


def test_user_missing_codes_are_missing_with_their_label():
    table = read_table(DATA / "survey.sav")
    report = map_item(table, "rr1", {"no": [0], "yes": [1]})
    reasons = {p.row: p.reason for p in report.missing}
    assert reasons == {4: "user-missing code (Refused)", 5: "user-missing code (Don't know)", 6: "blank"}
    assert report.unmatched == [] and report.counts == [2, 3]
    # missing by default: left out and reported, never counted, and not a problem to fix
    assert report.ok and report.problems == [] and report.n_excluded == 3
    assert report.left_out_text() == ("3 left out: 1 user-missing code (Refused), "
                                      "1 user-missing code (Don't know), 1 blank")
    assert "left out" in report.warnings[0] and "row 4" in report.warnings[0]


def test_value_labels_work_as_codes():
    table = read_table(DATA / "survey.sav")
    report = map_item(table, "rr1", {"no": ["no"], "yes": ["YES"]}, exclude=True)
    assert report.counts == [2, 3]


def test_two_group_design_gives_a_count_vector_per_group():
    table = read_table(DATA / "survey.sav")
    report = map_item(table, "rr1", {"no": [0], "yes": [1]}, group_column="grp",
                      group_codes={"A": ["Group A"], "B": [2]}, exclude=True)
    assert report.groups == ("A", "B")
    assert report.counts == [[1, 2], [1, 1]]
    assert report.n_used == 5


def test_group_value_that_matches_no_group_is_reported():
    frame = pd.DataFrame({"q": [1, 0, 1], "g": [1, 2, 3]})
    report = map_item(frame, "q", {"no": [0], "yes": [1]}, group_column="g",
                      group_codes={"one": [1], "two": [2]})
    assert not report.ok
    assert [(p.row, p.column, p.value) for p in report.unmatched] == [(4, "g", 3)]


def test_conflicting_or_blank_codes_are_refused():
    frame = pd.DataFrame({"q": [1]})
    with pytest.raises(DataError, match="both"):
        map_item(frame, "q", {"no": [0, "x"], "yes": [1, "X "]})
    with pytest.raises(DataError, match="blank"):
        map_item(frame, "q", {"no": [0, ""], "yes": [1]})
    with pytest.raises(DataError, match="no column"):
        map_item(frame, "nope", YES_NO)
    with pytest.raises(DataError, match="group_codes"):
        map_item(frame, "q", YES_NO, group_column="q")


def test_counts_by_subgroup_including_blank_subgroup():
    frame = pd.DataFrame({"q": [1, 0, 1, 1, 0], "region": ["N", "S", "N", None, "S"]})
    result = counts_by(frame, "q", {"no": [0], "yes": [1]}, by="region")
    assert list(result) == ["N", "S", None]
    assert result["N"].counts == [0, 2] and result["S"].counts == [2, 0]
    assert result[None].counts == [0, 1]
    assert sum(r.n_used for r in result.values()) == len(frame)


def test_counts_table_gives_the_same_report():
    table = read_table(DATA / "counts.csv")
    report = map_counts(table, {"no": ["no"], "yes": ["yes"]}, group_column="group",
                        group_codes={"A": ["A"], "B": ["B"]})
    assert report.counts == [[380, 120], [290, 210]] and report.n_used == 1000
    same = map_item(table, "response", {"no": ["no"], "yes": ["yes"]})
    assert same.counts == [670, 330]


def test_counts_table_unmatched_row_reports_its_count():
    frame = pd.DataFrame({"response": ["yes", "no", "dunno"], "count": [5, 7, 2]})
    report = map_item(frame, "response", {"no": ["no"], "yes": ["yes"]}, weights="count")
    assert report.counts == [7, 5]
    assert report.unmatched[0].count == 2 and report.unmatched[0].row == 4


def test_same_counts_from_rows_and_from_their_aggregate():
    rows = pd.DataFrame({"q": ["yes"] * 7 + ["no"] * 5, "g": ["A", "B"] * 6})
    agg = rows.groupby(["q", "g"]).size().reset_index(name="count")
    codes, groups = {"no": ["no"], "yes": ["yes"]}, {"A": ["A"], "B": ["B"]}
    by_rows = map_item(rows, "q", codes, group_column="g", group_codes=groups)
    by_counts = map_item(agg, "q", codes, group_column="g", group_codes=groups, weights="count")
    assert by_rows.counts == by_counts.counts


def test_item_mapping_round_trips_and_report_is_json():
    mapping = ItemMapping("q", YES_NO, ("yes", "no"))
    again = ItemMapping.from_dict(json.loads(json.dumps(mapping.to_dict())))
    assert again == mapping
    frame = pd.DataFrame({"q": ["Yes", None]})
    data = mapping.apply(frame).to_dict()
    assert json.loads(json.dumps(data))["missing"][0]["row"] == 3


def test_large_column_is_counted_quickly():
    import numpy as np

    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"q": pd.Categorical(rng.choice(["Yes", "No"], size=200_000))})
    report = map_item(frame, "q", YES_NO)
    assert sum(report.counts) == 200_000 and report.ok


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_VALUES = st.one_of(st.none(), st.sampled_from(["Yes", "no", " NO ", "x", "", "1", "0"]),
                    st.integers(-2, 3), st.floats(allow_nan=True, allow_infinity=False, width=32))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(_VALUES, min_size=1, max_size=30), st.booleans())
def test_every_row_is_counted_or_listed(values, exclude):
    frame = pd.DataFrame({"q": pd.array(values, dtype=object)})
    report = map_item(frame, "q", YES_NO, exclude=exclude)
    assert report.n_used + report.n_unmatched + report.n_missing == len(values)
    listed = sorted(report.unmatched_rows + report.missing_rows)
    assert len(set(listed)) == len(listed)
    assert report.ok == (exclude or not report.unmatched)  # missing answers never block
    assert report.n_excluded == report.n_missing + (report.n_unmatched if exclude else 0)
    json.dumps(report.to_dict())
