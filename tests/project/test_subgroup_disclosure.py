"""Exact subgroup counts versus central DP: the warning, the protected-column settings, leaving out
small groups in the analysis, the CLI (estimate/export --by, protect, share) and the export."""

from __future__ import annotations

import csv
import json

import numpy as np
import pandas as pd
import pytest

from dpdesk.mechanisms import rr
from dpdesk.project import Project, ledger
from dpdesk.project.analysis.estimates import analyze, results_bundle
from dpdesk.project.sharing.column_protection import (
    DEFAULT_MIN_GROUP,
    protected_columns,
    protection,
    save_sharing_settings,
    set_protected_columns,
    sharing_settings,
)
from dpdesk.project.sharing.subgroup_disclosure import (
    NoisyRelease,
    check_results,
    group_sizes,
    releases_using,
    subgroup_warning,
)
from tests.helpers.cli import run

SIZES = {"north": 150, "south": 120, "east": 26, "west": 2}


def survey() -> pd.DataFrame:
    rng = np.random.default_rng(11)
    region = [g for g, n in SIZES.items() for _ in range(n)]
    n = len(region)
    return pd.DataFrame({"region": region, "answer": rng.choice([1, 2], n), "age": rng.integers(18, 70, n)})


@pytest.fixture
def path(tmp_path):
    path = tmp_path / "survey.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("wave 1", survey(), source={"name": "w1.csv", "sha256": "f" * 64, "size": 1})
        p.add_item("cheating", rr.design("warner", p=0.7), column="answer", codes={"yes": [1], "no": [2]})
    return path


class Entry:
    def __init__(self, seq, request, description=None):
        self.seq, self.request, self.description = seq, request, description


# ----------------------------------------------------------------------------- the pure check


def test_no_warning_for_a_column_neither_released_nor_protected():
    entries = [Entry(1, {"statistic": "histogram", "columns": ["age"]})]
    assert subgroup_warning("region", SIZES, entries=entries) is None
    assert subgroup_warning(None, SIZES, protected=["region"]) is None


def test_a_release_of_the_column_or_by_it_warns_and_names_small_groups():
    entries = [Entry(1, {"statistic": "histogram", "columns": ["region"]}, "histogram of region"),
               Entry(2, {"statistic": "mean", "columns": ["age"], "by": "region"}, "mean of age by region"),
               Entry(3, {"statistic": "count", "columns": []})]
    assert releases_using(entries, "region") == (NoisyRelease(1, "histogram of region"),
                                                 NoisyRelease(2, "mean of age by region"))
    w = subgroup_warning("region", SIZES, entries=entries, threshold=5)
    assert w.small_groups == {"west": 2} and w.protected_because is None
    assert "noisy (central DP) releases" in w.message and "#1 histogram of region" in w.message
    assert "west (n = 2)" in w.message and "smaller than 5" in w.message
    assert subgroup_warning("region", SIZES, entries=entries, threshold=30).small_groups == {"east": 26, "west": 2}


def test_a_protected_column_warns_even_without_small_groups():
    w = subgroup_warning("region", {"north": 150}, protected={"region": "marked as protected in the project"})
    assert w.releases == () and w.small_groups == {}
    assert "is protected (marked as protected in the project)" in w.message
    assert "every group's exact n is still shown" in w.message


# ----------------------------------------------------------------------------- settings


def test_protected_columns_and_sharing_settings_persist_in_the_project(path):
    with Project.open(path) as p:
        assert protected_columns(p) == [] and protection(p).min_group == DEFAULT_MIN_GROUP
        set_protected_columns(p, ["region", "region", "age"])
        save_sharing_settings(p, k=7, quasi=["age", "sex"], sensitive=["answer"])
    with Project.open(path) as p:
        assert protected_columns(p) == ["region", "age"]
        assert sharing_settings(p).k == 7
        settings = protection(p)
    assert settings.min_group == 7
    assert settings.reasons == {"region": "marked as protected in the project",
                                "age": "marked as protected in the project",
                                "sex": "a quasi-identifier of the shared extract",
                                "answer": "a sensitive column of the shared extract"}


def test_unreadable_settings_count_as_not_set(path):
    with Project.open(path) as p:
        with p.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES ('protected_columns', 'not json')")
            conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES ('sharing_settings', '[1]')")
        assert protected_columns(p) == [] and sharing_settings(p).k is None


# ----------------------------------------------------------------------------- analysis and export


def test_check_results_uses_the_ledger_and_leaving_out_small_groups(path, tmp_path):
    with Project.open(path) as p:
        results = analyze(p, by="region")
        assert check_results(p, results) is None  # nothing released, nothing protected
        ledger.set_budget(p, 1)
        ledger.release(p, {"statistic": "histogram", "columns": ["region"], "keys": list(SIZES), "epsilon": "0.5"})
        w = check_results(p, results)
        assert w.column == "region" and [r.seq for r in w.releases] == [1] and w.small_groups == {"west": 2}
        assert group_sizes(results)[0] == SIZES
        kept = analyze(p, by="region", min_group_size=5)
        assert set(kept[0].subgroups.estimates) == {"north", "south", "east"}
        assert kept[0].left_out_groups == {"west": 2} and "west" not in kept[0].subgroup_counts
        assert not any("west" in key for key in kept[0].subgroups.differences)
        w = check_results(p, kept, threshold=5)
        assert w.small_groups == {} and w.left_out == {"west": 2} and "are left out" in w.offer
        bundle = results_bundle(p, kept)
    rows = bundle.tables["By region"]
    assert not any("west" in str(r["subgroup"]) for r in rows)
    assert "fewer than 5 answers (1 group(s))" in bundle.metadata["subgroups left out"]
    assert all("west" not in item.subgroups for item in bundle.repro)  # nor in the reproducibility script


def test_leaving_out_every_group_is_a_clear_error_on_the_item(path):
    with Project.open(path) as p:
        (result,) = analyze(p, by="region", min_group_size=1000)
        with pytest.raises(Exception, match="whole number"):
            analyze(p, by="region", min_group_size=0)
    assert result.subgroups is None and "every group has fewer than 1000" in result.error


# ----------------------------------------------------------------------------- command line


def test_cli_estimate_warns_before_exact_counts_and_min_group_size_leaves_them_out(path, tmp_path, capsys):
    code, out, err = run(capsys, "estimate", path, "--by", "region")
    assert code == 0 and "show exact counts" not in err and "west" in out  # nothing released or protected yet
    code, out, _ = run(capsys, "protect", path, "region")
    assert code == 0 and "region: marked as protected in the project" in out
    code, out, err = run(capsys, "estimate", path, "--by", "region")
    assert code == 0 and "west" in out
    assert "warning: Subgroups by 'region' show exact counts" in err and "west (n = 2)" in err
    assert "--min-group-size 5" in err
    code, out, err = run(capsys, "estimate", path, "--by", "region", "--min-group-size", "5", "--json")
    tables = json.loads(out)
    assert code == 0 and not any(r["subgroup"] == "west" for r in tables["By region"])
    assert "are left out" in err
    out_csv = tmp_path / "res.csv"
    code, out, err = run(capsys, "export", path, "--by", "region", out_csv)
    assert code == 0 and "warning:" in err
    with open(tmp_path / "res_by_region.csv", encoding="utf-8-sig", newline="") as handle:
        assert any(r[1] == "west" for r in csv.reader(handle))
    code, out, err = run(capsys, "export", path, "--by", "region", "--min-group-size", "5", out_csv)
    with open(tmp_path / "res_by_region.csv", encoding="utf-8-sig", newline="") as handle:
        assert not any(r[1] == "west" for r in csv.reader(handle))
    assert "west" not in (tmp_path / "res_reproduce.py").read_text()
    code, out, _ = run(capsys, "protect", path, "--clear")
    assert code == 0 and "No protected columns." in out
    code, _out, err = run(capsys, "protect", path, "nosuch")
    assert code == 1 and "no column 'nosuch'" in err


def test_cli_share_records_its_roles_for_the_subgroup_check(path, tmp_path, capsys):
    code, _out, err = run(capsys, "share", path, "--quasi", "region", "age", "--sensitive", "--k", "3",
                          "--suppress-records", tmp_path / "shared.csv")
    assert code == 0, err
    code, out, _ = run(capsys, "protect", path)
    assert "region: a quasi-identifier of the shared extract" in out and "smaller than 3" in out
    code, _out, err = run(capsys, "estimate", path, "--by", "region")
    assert "quasi-identifier of the shared extract" in err and "--min-group-size 3" in err
