"""Column roles, checks on data frames, remedies with undo, and the exported extract."""

import numpy as np
import pandas as pd
import pytest

from dpdesk.errors import DataError
from dpdesk.project.sharing.writing import export_extract, report_rows
from dpdesk.project.sharing.extract import Extract
from dpdesk.project.sharing.checks import IDENTIFIER, OTHER, QUASI, SENSITIVE, ShareOptions, check, default_roles

KEY = "EF4359D8D580AA4F7F036D6F04FC6A94"


def survey(n=400, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "student_no": [f"{20240000 + i}" for i in range(n)],
        "email": [f"p{i}@uni.example.org" for i in range(n)],
        "age": rng.integers(18, 70, n),
        "sex": rng.choice(["f", "m"], n),
        "region": rng.choice(["north", "south", "east", "west", "islands"], n, p=[.3, .3, .2, .19, .01]),
        "visit": pd.Timestamp("2024-01-01") + pd.to_timedelta(rng.integers(0, 365, n), "D"),
        "q_drugs": rng.choice([1, 2], n),
        "satisfaction": rng.integers(1, 6, n),
        "comment": rng.choice(["ok", "fine", ""], n),
    })


def test_default_roles_from_names_content_types_and_rr_items():
    roles = default_roles(survey(), protected=["q_drugs"])
    role = {c: r.role for c, r in roles.items()}
    assert role["student_no"] == IDENTIFIER and "record key" in roles["student_no"].reason
    assert role["email"] == IDENTIFIER
    assert role["age"] == role["sex"] == role["region"] == role["visit"] == QUASI
    assert role["q_drugs"] == SENSITIVE and roles["q_drugs"].protected
    assert role["satisfaction"] == role["comment"] == OTHER


def test_check_reports_k_l_t_and_skips_randomized_response_columns():
    frame = survey()
    opts = ShareOptions(quasi=["age", "sex"], sensitive=["q_drugs", "satisfaction"], k=3, t=0.3,
                        protected=["q_drugs"])
    res = check(frame, opts)
    assert res.skipped == ["q_drugs"] and [s.column for s in res.sensitive] == ["satisfaction"]
    sizes = frame.groupby(["age", "sex"]).size()
    assert res.k.smallest == sizes.min() and res.k.n_classes == len(sizes)
    assert res.k.n_at_risk == int(sizes[sizes < 3].sum())
    summary = dict(res.summary())
    assert "q_drugs: not checked" in summary and "protected at the source" in summary["q_drugs: not checked"]
    insisted = check(frame, ShareOptions(quasi=["age", "sex"], sensitive=["q_drugs"], protected=["q_drugs"],
                                         include_protected=True))
    assert [s.column for s in insisted.sensitive] == ["q_drugs"]


def test_check_bad_inputs_have_clear_messages():
    frame = survey()
    with pytest.raises(DataError, match="no records"):
        check(frame.iloc[:0], ShareOptions(quasi=["age"]))
    with pytest.raises(DataError, match="No quasi-identifiers"):
        check(frame, ShareOptions(quasi=[]))
    with pytest.raises(DataError, match="no quasi-identifier column 'agee'"):
        check(frame, ShareOptions(quasi=["agee"]))
    with pytest.raises(DataError, match="both quasi-identifier and sensitive"):
        check(frame, ShareOptions(quasi=["age"], sensitive=["age"]))
    with pytest.raises(DataError, match="Every column is marked a direct identifier"):
        Extract(frame[["student_no", "email"]], ShareOptions(quasi=[]), identifiers=["student_no", "email"])


def test_a_quasi_identifier_with_a_million_distinct_values_is_named():
    n = 1_000_000
    frame = pd.DataFrame({"phone_digits": np.arange(n), "sex": np.tile(["f", "m"], n // 2)})
    res = check(frame, ShareOptions(quasi=["phone_digits", "sex"], k=5))
    assert res.k.smallest == 1 and res.k.share_at_risk == 1.0
    assert any("'phone_digits' has 1000000 distinct values" in w and "identifies almost everyone" in w
               for w in res.warnings)


def test_remedies_rerun_the_checks_record_loss_and_undo():
    frame = survey()
    before = frame.copy()
    ex = Extract(frame, ShareOptions(quasi=["age", "sex", "region", "visit"], k=5), identifiers=["email"])
    start = ex.result.k.n_at_risk
    ex.generalize("visit", "month")
    ex.generalize("age", "bands:18,30,45,60")
    assert ex.frame["age"].cat.categories.tolist() == ["18-29", "30-44", "45-59", "60+"]
    assert ex.loss.share_cells_changed == pytest.approx(0.5)  # two of four quasi-identifiers, every cell
    ex.generalize("visit", "year")
    ex.generalize("region", "rare:10")
    assert "Other" in ex.frame["region"].astype(str).unique()
    after_general = ex.result.k.n_at_risk
    assert after_general < start
    ex.suppress_records()
    assert ex.result.k.passes and ex.loss.records_suppressed == after_general
    assert 0 < ex.loss.entropy_loss < 1
    assert [s.action for s in ex.steps] == ["generalise"] * 4 + ["suppress records"]
    ex.undo()
    assert ex.result.k.n_at_risk == after_general and ex.loss.records_suppressed == 0
    pd.testing.assert_frame_equal(frame, before)  # the stored data is never touched
    assert "email" not in ex.shared_frame().columns and "email" in ex.left_out()


def test_cell_suppression_top_coding_prefix_and_drop():
    frame = survey()
    ex = Extract(frame, ShareOptions(quasi=["age", "sex", "region"], k=5))
    ex.generalize("age", "top:60")
    assert ex.frame["age"].max() == 60 and ex.steps[-1].changed == int((frame["age"] > 60).sum())
    ex.generalize("age", "bottom:20")
    at_risk = ex.result.k.n_at_risk
    ex.suppress_cells("region")
    assert ex.frame["region"].isna().sum() == at_risk and ex.result.k.n_at_risk <= at_risk
    ex.drop("sex")
    assert "sex" not in ex.frame.columns and ex.current_options().quasi == ["age", "region"]
    ex.generalize("age", "prefix:1")
    with pytest.raises(DataError, match="Unknown generalisation rule"):
        ex.generalize("age", "round:5")
    with pytest.raises(DataError, match="needs numbers"):
        ex.generalize("region", "bands:10")
    with pytest.raises(DataError, match="not all dates"):
        ex.generalize("region", "month")
    with pytest.raises(DataError, match="nothing to undo"):
        Extract(frame, ShareOptions(quasi=["age"])).undo()


def test_export_csv_xlsx_sav_with_report_and_no_key(tmp_path):
    frame = survey(200)
    frame["q_drugs"] = frame["q_drugs"].astype(float)
    labels = {"variable_labels": {"q_drugs": "Have you used drugs?"}, "value_labels": {"q_drugs": {"1": "yes", "2": "no"}}}
    ex = Extract(frame, ShareOptions(quasi=["age", "sex"], sensitive=["q_drugs"], protected=["q_drugs"], k=3),
                 identifiers=["student_no", "email"], labels=labels)
    ex.generalize("age", "bands:10")
    ex.suppress_records()
    ex.pseudonymize("student_no", KEY)
    rows = report_rows(ex, source="w1.csv")
    text = "\n".join(f"{a} {b}" for a, b in rows)
    assert KEY not in text and KEY.lower() not in text
    assert "protected at the source" in text and "FF1 format-preserving" in text and "timestamps" in text
    assert "FF3-1" not in text and "methods text" in text and "Dworkin, 2016" in text
    assert "k = 3" in text and "left out (direct identifiers) email" in text

    files = export_extract(ex, tmp_path / "share.csv", source="w1.csv")
    shared = pd.read_csv(files[0], dtype=str, encoding="utf-8-sig")
    assert "email" not in shared.columns and shared["student_no"].str.fullmatch(r"\d{8}").all()
    assert not set(shared["student_no"]) & set(frame["student_no"])
    assert files[1].name == "share.disclosure-report.txt" and "Disclosure report" in files[1].read_text()

    (path,) = export_extract(ex, tmp_path / "share.xlsx")
    sheets = pd.read_excel(path, sheet_name=None)
    assert list(sheets) == ["Data", "Disclosure report"] and len(sheets["Data"]) == len(ex.frame)

    import pyreadstat

    sav, report = export_extract(ex, tmp_path / "share.sav")
    data, meta = pyreadstat.read_sav(str(sav))
    assert meta.column_names_to_labels["q_drugs"] == "Have you used drugs?"
    assert meta.variable_value_labels["q_drugs"] == {1.0: "yes", 2.0: "no"}
    assert set(data["age"].dropna()) <= {"10-19", "20-29", "30-39", "40-49", "50-59", "60-69"}
    assert report.exists()


def test_csv_text_is_made_safe_for_spreadsheets(tmp_path):
    frame = pd.DataFrame({"age": [30, 30, 30], "note": ["=HYPERLINK(1)", "ok", "-2"], "n": [-1.5, 2, 3]})
    ex = Extract(frame, ShareOptions(quasi=["age"], k=2))
    path, _ = export_extract(ex, tmp_path / "x.csv")
    text = path.read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK(1)" in text and "'-2" in text and "-1.5" in text and "'-1.5" not in text


def test_report_names_columns_left_out_at_import():
    ex = Extract(survey(50), ShareOptions(quasi=["age"], k=2))
    rows = report_rows(ex, at_import=[{"column": "IPAddress", "reason": "direct identifier: IP address"}])
    assert ("left out at import", "IPAddress: direct identifier: IP address") in rows


def test_classes_agree_with_pandas_groupby_on_random_data():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(["a", "b", None]), st.integers(0, 3), st.sampled_from([1.5, 2.0])),
                    min_size=1, max_size=60), st.integers(2, 4))
    def prop(records, k):
        frame = pd.DataFrame(records, columns=["x", "y", "z"])
        res = check(frame, ShareOptions(quasi=["x", "y", "z"], k=k))
        sizes = frame.fillna({"x": "<blank>"}).groupby(["x", "y", "z"]).size()
        assert res.k.n_classes == len(sizes) and res.k.smallest == sizes.min()
        assert res.k.n_at_risk == int(sizes[sizes < k].sum())

    prop()
