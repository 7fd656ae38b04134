"""What a reviewer needs: fingerprint, mappings and import options in the metadata, the
reproducibility script checking the counts against the data, subgroup warnings, unary counts."""

from __future__ import annotations

import contextlib
import io
import runpy
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from dpdesk.project.analysis.estimates import analyze, results_bundle, subgroup_warnings
from dpdesk.project.export.model import metadata_rows
from dpdesk.project.export.results import export_results
from dpdesk.project.people.fingerprint import canonical_value, data_fingerprint
from dpdesk.project.reading.importing import import_file
from dpdesk.project.mapping.unary import unary_codes, unary_counts
from tests.helpers.cli import run

FORCED = rr.design("forced", p_truth=0.5, p_yes=0.25, p_no=0.25)


def _frame(n=120, seed=3):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"resp_id": np.arange(n), "q": rng.choice(["Yes", "No", "Maybe"], n, p=[0.45, 0.5, 0.05]),
                         "sex": rng.choice(["f", "m"], n)})


# ----------------------------------------------------------------------------- fingerprint

def test_fingerprint_ignores_order_blank_rows_and_format(tmp_path):
    f = _frame()
    fp = data_fingerprint(f, ["q", "sex"])
    shuffled = f.sample(frac=1, random_state=1)
    blank = pd.concat([f, pd.DataFrame({"resp_id": [None], "q": [None], "sex": [""]})], ignore_index=True)
    assert data_fingerprint(shuffled, ["sex", "q"]) == fp
    assert data_fingerprint(blank, ["q", "sex"]) == fp
    f.to_csv(tmp_path / "a.csv", index=False)
    f.to_excel(tmp_path / "a.xlsx", index=False)
    from dpdesk.project import read_table

    for path in ("a.csv", "a.xlsx"):
        assert data_fingerprint(read_table(tmp_path / path).frame, ["q", "sex"]) == fp, path
    changed = f.copy()
    changed.loc[0, "q"] = "Maybe" if f.loc[0, "q"] != "Maybe" else "No"
    assert data_fingerprint(changed, ["q", "sex"]) != fp
    assert data_fingerprint(f.iloc[1:], ["q", "sex"]) != fp  # a respondent fewer


def test_canonical_values():
    assert canonical_value(1) == canonical_value(1.0) == canonical_value("1") == canonical_value(np.int64(1)) == "1"
    assert canonical_value(True) == canonical_value("True") == "true"
    assert canonical_value(None) == canonical_value(float("nan")) == canonical_value("  ") == canonical_value(pd.NA) == ""
    assert canonical_value(" Yes ") == "Yes" and canonical_value(0.1) == "0.1"


def _reference_fingerprint(frame, columns):
    """The definition, row by row (the module computes it per distinct value)."""
    import hashlib
    import json

    names = sorted(columns)
    rows = []
    for values in zip(*(frame[c].astype(object).tolist() for c in names)):
        row = [canonical_value(v) for v in values]
        if any(row):
            rows.append(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
    digest = hashlib.sha256(json.dumps(["dpdesk-fingerprint-1", names], ensure_ascii=False).encode())
    for row in sorted(rows):
        digest.update(b"\n" + row.encode())
    return digest.hexdigest()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True),
                                    st.text(max_size=4)),
                          st.sampled_from(["a", "é", None, ""])), max_size=25))
def test_fingerprint_matches_its_definition(rows):
    f = pd.DataFrame(rows, columns=["x", "y"], dtype=object)
    assert data_fingerprint(f, ["x", "y"]) == _reference_fingerprint(f, ["x", "y"])
    typed = pd.DataFrame({"n": pd.array([1, None, 3], dtype="Int64"), "c": pd.Categorical(["a", None, "a"])})
    assert data_fingerprint(typed) == _reference_fingerprint(typed, ["n", "c"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", None]), st.integers(0, 3)), min_size=1, max_size=30),
       st.randoms())
def test_fingerprint_is_a_function_of_the_multiset_of_rows(rows, random):
    f = pd.DataFrame(rows, columns=["x", "y"])
    g = f.sample(frac=1, random_state=random.randint(0, 1000))
    assert data_fingerprint(f) == data_fingerprint(g)


# ----------------------------------------------------------------------------- project path

@pytest.fixture()
def project(tmp_path):
    csv = tmp_path / "survey.csv"
    _frame().to_csv(csv, index=False)
    with Project.create(tmp_path / "p.dpdesk") as p:
        import_file(p, csv, header_rows=1)
        p.add_item("cheat", FORCED, column="q", codes={"no": ["No"], "yes": ["Yes"]})
    return tmp_path / "p.dpdesk"


def test_metadata_names_mapping_left_out_codes_import_options_interval_and_fingerprint(project):
    with Project.open(project) as p:
        results = analyze(p)
        meta = dict(metadata_rows(results_bundle(p, results)))
        frame = p.dataset_frame("survey.csv")
    assert meta["item mappings / cheat / codes / Yes"] == "'Yes'"
    maybe = int((frame["q"] == "Maybe").sum())
    assert meta["item mappings / cheat / left out / 'Maybe' in q: matches no code"] == maybe
    assert meta["item mappings / cheat / respondents counted"] == 120 - maybe
    assert meta["import options / header rows"] == 1 and meta["import options / encoding"]
    assert meta["import options / set by the researcher / header_rows"] == 1
    assert meta["CI method"].startswith("boundary-calibrated likelihood ratio") and "default" != meta["CI method"]
    assert "Clopper & Pearson" in meta["CI method citation"]
    assert meta["data fingerprint (SHA-256)"] == data_fingerprint(frame, ["q"])


def _run_script(script, *argv):
    out = io.StringIO()
    old = sys.argv
    sys.argv = [str(script), *map(str, argv)]
    try:
        with contextlib.redirect_stdout(out):
            try:
                runpy.run_path(str(script), run_name="__main__")
                code = 0
            except SystemExit as exc:
                code = exc.code
    finally:
        sys.argv = old
    return code, out.getvalue()


def test_script_rebuilds_counts_from_the_data_and_notices_a_change(project, tmp_path):
    with Project.open(project) as p:
        bundle = results_bundle(p, analyze(p, by="sex"), ci="default")
    written = export_results(bundle, tmp_path / "out.xlsx")
    script = written[-1]
    code, printed = _run_script(script)
    assert code == 0 and "agree with the exported counts" in printed, printed
    assert "CI method citation: Feldman & Cousins" in printed
    namespace = runpy.run_path(str(script))  # not as __main__: only the constants
    review = namespace["REVIEW"]
    assert review["import options"]["header rows"] == 1 and review["item mappings"]["cheat"]["codes / No"] == "'No'"
    assert any("matches no code" in k for k in review["item mappings"]["cheat"]["left out"])
    assert len(namespace["FINGERPRINT"]) == 64 and namespace["FINGERPRINT_COLUMNS"] == ["q"]
    # the stored data changed after the export (another dataset replaces it): the script says so
    other = _frame(seed=4)
    with Project.open(project) as p:
        p.remove_dataset("survey.csv")
        p.add_dataset("survey.csv", other, source={"name": "survey.csv"})
    code, printed = _run_script(script)
    assert code == 1 and "MISMATCH" in printed and "fingerprint" in printed, printed
    # without the project file it still recomputes the estimates from the exported counts
    code, printed = _run_script(script, tmp_path / "nowhere.dpdesk")
    assert code == 0 and "not found" in printed and "cheat" in printed


# ----------------------------------------------------------------------------- subgroups

def test_subgroup_warnings_for_an_identifier_and_small_groups(project, capsys):
    with Project.open(project) as p:
        warnings = subgroup_warnings(p, "resp_id")
        assert len(warnings) == 2 and "120 different values" in warnings[0] and "fewer than 5" in warnings[1]
        assert subgroup_warnings(p, "sex") == []
        (r,) = analyze(p, by="resp_id")
        assert any("different values" in w for w in r.warnings)
        (r,) = analyze(p, by="sex")
        assert r.warnings == []
    code, out, err = run(capsys, "estimate", project, "--by", "resp_id")
    assert code == 0 and err.index("warning: The column resp_id has 120 different values") == 0


def test_unary_counts_from_tick_columns():
    f = pd.DataFrame({"t_a": [1, 0, 1, None, 1, "x?"], "t_b": [0, 0, 1, 1, 1, 0], "other": range(6)})
    report = unary_counts(f, unary_codes({"a": "t_a", "b": "t_b"}), ["a", "b"])
    assert report.counts == [[1, 3], [2, 2]] and report.n_used == 4
    assert report.n_missing == 1 and report.n_unmatched == 1
    est = rr.estimate(rr.design("unary", categories=["a", "b"], epsilon=2.0), report.counts)
    assert est.frequencies.shape == (2,)


def test_subgroup_sizes_of_a_counts_table_are_respondents():
    from dpdesk.project.reading.table import ImportReport, Source, Table

    f = pd.DataFrame({"response": ["yes", "no", "yes", "no"], "g": ["a", "a", "b", "b"], "count": [100, 200, 2, 1]})
    table = Table(f, ImportReport(kind="counts", count_column="count"), Source("c.csv", "", 0, ""))
    (warning,) = subgroup_warnings(table, "g")
    assert "b (3)" in warning and "a (" not in warning


def test_sld_at_zero_prevalence_reports_t_as_not_available_with_a_note(tmp_path):
    from dpdesk.project.analysis.estimates import ItemResult, estimate_rows

    sld = rr.design("sld", p1=0.3, p2=0.7)
    e = rr.estimate(sld, [[30, 70], [70, 30]])
    rows = estimate_rows([ItemResult("drugs", "", sld, None, e)])
    t_row = next(r for r in rows if r["item"] == "drugs [t]")
    assert t_row["estimate"] is None and t_row["SE"] is None and "not identified" in t_row["note"]
    ok = estimate_rows([ItemResult("drugs", "", sld, None, rr.estimate(sld, [[40, 60], [50, 50]]))])
    assert "note" not in ok[0]
