"""``dpdesk share`` in process: roles, checks, remedies, pseudonyms and the written extract."""

import json

import numpy as np
import pandas as pd
import pytest

from tests.helpers.cli import run
from dpdesk.mechanisms import rr
from dpdesk.project import Project




@pytest.fixture
def project(tmp_path):
    path = tmp_path / "survey.dpdesk"
    rng = np.random.default_rng(7)
    n = 300
    frame = pd.DataFrame({"student_no": [f"{30000000 + 7 * i}" for i in range(n)],
                          "age": rng.integers(18, 65, n), "sex": rng.choice(["f", "m"], n),
                          "region": rng.choice(["north", "south", "east"], n),
                          "cheated": rng.choice([1, 2], n), "stress": rng.integers(1, 6, n)})
    with Project.create(path) as p:
        p.add_dataset("wave 1", frame, source={"name": "w1.csv", "sha256": "c" * 64, "size": 1})
        p.add_item("cheating", rr.design("warner", p=0.7), column="cheated", codes={"1": "yes", "2": "no"})
    return path


def test_roles_are_proposed(project, capsys):
    code, out, _ = run(capsys, "share", project, "--roles")
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert "identifier" in lines["student_no"] and "quasi-identifier" in lines["age"]
    assert "sensitive" in lines["cheated"] and "protected at the source" in lines["cheated"]


def test_check_only_prints_the_risk_and_skips_rr_columns(project, capsys):
    code, out, _ = run(capsys, "share", project, "--sensitive", "cheated", "stress", "--k", "5", "--t", "0.3")
    assert code == 0
    assert "quasi-identifiers" in out and "age, sex, region" in out
    assert "cheated: randomized-response answers, protected at the source" in out
    assert "stress: largest t (EMD, ordered distance)" in out and "records in classes below k" in out
    code, out, _ = run(capsys, "share", project, "--sensitive", "cheated", "--include-rr", "--json")
    data = json.loads(out)
    assert code == 0 and "cheated: smallest distinct l / entropy l" in data["checks"]


def test_remedies_pseudonyms_and_extract(project, tmp_path, capsys):
    out_file = tmp_path / "shared.csv"
    key = tmp_path / "study.key"
    code, out, err = run(capsys, "share", project, "--quasi", "age", "sex", "region", "--sensitive", "stress",
                         "--k", "5", "--generalize", "age=bands:10", "--suppress-records",
                         "--pseudonymize", "student_no", "--new-key", key, out_file)
    assert code == 0, err
    assert "New key written" in out and key.exists()
    assert "step 1: age: bands" in out and "step 2:" in out and "every record passes the checks" in out
    shared = pd.read_csv(out_file, dtype=str, encoding="utf-8-sig")
    assert shared["student_no"].str.fullmatch(r"\d{8}").all()
    report = (tmp_path / "shared.disclosure-report.txt").read_text()
    assert key.read_text().strip() not in report and "FF1 format-preserving" in report and "FF3-1" not in report
    assert "context 'dpdesk'" in report and "method='FF1'" in report  # what the key's holder needs besides the key
    # the same key again: the same pseudonyms (tables still join)
    again = tmp_path / "again.csv"
    code, _, err = run(capsys, "share", project, "--quasi", "age", "sex", "region", "--generalize",
                       "age=bands:10", "--suppress-records", "--pseudonymize", "student_no", "--key-file", key, again)
    assert code == 0, err
    assert pd.read_csv(again, dtype=str, encoding="utf-8-sig")["student_no"].tolist() == shared["student_no"].tolist()
    with Project.open(project) as p:  # the stored data is unchanged
        assert p.dataset_frame("wave 1")["student_no"].iloc[0] == "30000000"
        clear = p.dataset_frame("wave 1")["student_no"]
    # the key's holder reads the extract back and decrypts it (FF1, as its report says)
    from dpdesk.project.sharing import pseudonymize as pz

    back = pz.reveal(shared["student_no"], pz.read_key(key), alphabet="digits", method="FF1")
    assert set(back) <= set(clear.astype(str)) and len(set(back)) == shared["student_no"].nunique()
    # the methods text names the method and cites the standard
    code, out, err = run(capsys, "methods", project)
    assert code == 0, err
    assert "student_no was replaced by pseudonyms made with FF1 format-preserving encryption" in out
    assert "Dworkin, 2016" in out and "NIST Special Publication 800-38G" in out and "FF3-1" not in out


def test_errors_are_one_line(project, tmp_path, capsys):
    cases = [
        (["--quasi", "agee"], "no quasi-identifier column 'agee'"),
        (["--generalize", "age"], "write COLUMN=RULE"),
        (["--generalize", "age=round:5"], "Unknown generalisation rule"),
        (["--k", "1"], "at least 2"),
        (["--pseudonymize", "student_no"], "needs a key"),
        (["--pseudonymize", "student_no", "--key-file", tmp_path / "none.key"], "does not exist"),
        (["--quasi", "age", "--pseudonymize", "sex", "--new-key", tmp_path / "k2"], "cannot be pseudonymised"),
    ]
    for args, message in cases:
        code, _, err = run(capsys, "share", project, *args)
        assert code == 1 and message in err and err.count("\n") == 1, (args, err)


def test_empty_data_is_refused(tmp_path, capsys):
    path = tmp_path / "empty.dpdesk"
    with Project.create(path) as p:
        p.add_dataset("none", pd.DataFrame({"age": pd.Series([], dtype="int64")}),
                      source={"name": "e.csv", "sha256": "d" * 64, "size": 1})
    code, _, err = run(capsys, "share", path, "--quasi", "age")
    assert code == 1 and "no records" in err
    code, _, err = run(capsys, "share", tmp_path / "missing.dpdesk")
    assert code == 1
