"""One privacy budget per project (issue 13): it follows the respondents, not the file's bytes."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction

import numpy as np
import pandas as pd

from dpdesk.mechanisms import accounting
from dpdesk.mechanisms.central.request import canonical_json
from dpdesk.project import Project, ledger
from dpdesk.project.file import schema
from dpdesk.project.ledger import chain
from tests.helpers.hostile import edit_outside
from tests.helpers.cli import run


def _survey(n=100, seed=5) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"region": rng.choice(["north", "south"], n), "age": rng.integers(18, 80, n)})


def test_reimport_with_a_trailing_blank_line_keeps_the_spending(tmp_path, capsys):
    """The issue's reproduction: the full epsilon was spent twice on the same 100 people."""
    csv = tmp_path / "survey.csv"
    _survey().to_csv(csv, index=False)
    project = tmp_path / "p.dpdesk"
    assert run(capsys, "new", project)[0] == 0
    assert run(capsys, "import", project, csv)[0] == 0
    assert run(capsys, "budget", project, "--set", "1")[0] == 0
    assert run(capsys, "release", project, "--stat", "count", "--epsilon", "1")[0] == 0
    csv.write_text(csv.read_text() + "\n")  # the same respondents, other bytes
    code, out, _ = run(capsys, "import", project, csv, "--replace")
    assert code == 0 and "budget is unchanged" in out
    code, out, err = run(capsys, "budget", project, "--set", "1")
    assert code == 0 and "left   ε = 0" in out and "covers everyone in every dataset" in out
    code, out, err = run(capsys, "release", project, "--stat", "count", "--epsilon", "1")
    assert code == 1 and "refused" in err
    with Project.open(project) as p:
        assert len(ledger.ledger(p)) == 1 and ledger.budget_status(p).spent_epsilon == 1


def _v2_file(path, budgets, releases):
    """A schema-v2 project: one budget row per dataset SHA, hash-chained releases of Laplace events."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    with conn:
        for statement in schema._statements(schema.V1_DDL):
            conn.execute(statement)
        schema.MIGRATIONS[0](conn)
        conn.executemany("INSERT INTO app(key, value) VALUES (?, ?)",
                         [("magic", schema.MAGIC), ("created_by", "dpdesk 0.1.0"), ("created_at", "2026-01-01")])
        ids = {}
        for sha, eps, delta in budgets:
            cur = conn.execute("INSERT INTO budget(epsilon, delta, dataset_sha256) VALUES (?, ?, ?)", (eps, delta, sha))
            ids[sha] = (cur.lastrowid, eps, delta)
        prev = chain.GENESIS
        for seq, (sha, epsilon) in enumerate(releases, start=1):
            bid, eps, delta = ids[sha]
            event = accounting.Laplace(1 / Fraction(epsilon), Fraction(1), True)
            fields = {"seq": seq, "time": "2026-01-01T00:00:00.000Z", "app_version": "0.1.0", "dataset_sha256": sha,
                      "request": canonical_json({"statistic": "count", "epsilon": epsilon, "n": seq}),
                      "mechanism": "discrete_laplace",
                      "noise_params": canonical_json({"dataset": sha[:4], "events": [accounting.to_record(event)]}),
                      "cost": canonical_json({"epsilon": epsilon, "delta": delta,
                                              "budget": {"id": bid, "epsilon": eps, "delta": delta}}),
                      "result": canonical_json({"values": 10}), "prev_hash": prev}
            fields["hash"] = prev = chain.row_hash(fields)
            conn.execute(f"INSERT INTO releases({', '.join(fields)}) VALUES ({', '.join('?' * len(fields))})",
                         tuple(fields.values()))
        conn.execute("INSERT INTO app(key, value) VALUES (?, ?)", (chain.HEAD_KEY, f"{len(releases)}:{prev}"))
        conn.execute(f"PRAGMA application_id = {schema.APPLICATION_ID}")
        conn.execute("PRAGMA user_version = 2")
    conn.close()


def test_v2_budgets_migrate_to_the_smallest_with_every_release_spent(tmp_path):
    path = tmp_path / "old.dpdesk"
    a, b = "a" * 64, "b" * 64
    _v2_file(path, budgets=[(a, "3", "1/1000000"), (b, "1", "1/100000000")],
             releases=[(a, "1/2"), (b, "1/4"), (a, "1/10")])
    with Project.open(path) as p:
        status = ledger.budget_status(p)
        assert (status.total_epsilon, status.total_delta) == (1, Fraction(1, 10**8))
        events = [accounting.Laplace(Fraction(k), Fraction(1), True) for k in (2, 4, 10)]
        assert status.spent_epsilon == accounting.epsilon(events, Fraction(1, 10**8))
        assert status.releases == 3 and status.spent_epsilon <= Fraction(17, 20)
        assert ledger.verify_ledger(p).ok, ledger.verify_ledger(p).problems
        ledger.lower_budget(p, "0.9")  # still append-only, still lowered only
        rows = [(r["epsilon"], r["dataset_sha256"]) for r in p.budget_rows()]
        assert rows == [("3", a), ("1", b), ("1", None), ("9/10", None)]
    assert (tmp_path / "old.dpdesk.v2.bak").exists()


def test_a_budget_for_one_dataset_after_the_project_budget_is_found(tmp_path):
    path = tmp_path / "p.dpdesk"
    with Project.create(path) as p:
        ledger.set_budget(p, 1)
    edit_outside(path, "DROP TRIGGER budget_never_raised",  # (edit_outside puts the trigger back)
                 f"INSERT INTO budget(epsilon, delta, dataset_sha256) VALUES ('1', '0', '{'c' * 64}')")
    with Project.open(path) as p:
        check = ledger.verify_ledger(p)
        assert not check.ok and any("raises the budget" in x for x in check.problems)


def test_the_budget_json_names_the_project_not_a_dataset(tmp_path, capsys):
    project = tmp_path / "p.dpdesk"
    run(capsys, "new", project)
    code, out, _ = run(capsys, "budget", project, "--set", "2", "--json")
    assert code == 0 and json.loads(out)["total_epsilon"] == "2"


def test_a_second_import_is_kept_beside_and_changes_nothing_until_chosen(tmp_path, capsys):
    csv = tmp_path / "wave1.csv"
    _survey().to_csv(csv, index=False)
    other = tmp_path / "wave2.csv"
    _survey(40, seed=9).to_csv(other, index=False)
    project = tmp_path / "p.dpdesk"
    run(capsys, "new", project)
    run(capsys, "import", project, csv)
    code, out, _ = run(capsys, "import", project, other)
    assert code == 0 and "still use 'wave1.csv'" in out
    code, out, _ = run(capsys, "datasets", project, "--json")
    assert [(d["name"], d["active"]) for d in json.loads(out)] == [("wave1.csv", True), ("wave2.csv", False)]
    code, out, _ = run(capsys, "datasets", project, "--use", "wave2.csv")
    assert code == 0 and "use 'wave2.csv'" in out
    with Project.open(project) as p:
        from dpdesk.project.analysis.estimates import stored_table

        assert len(stored_table(p).frame) == 40
    code, _, err = run(capsys, "datasets", project, "--use", "nope")
    assert code == 1 and "no dataset named 'nope'" in err
