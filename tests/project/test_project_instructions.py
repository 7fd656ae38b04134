"""Schema v2: items keep edited respondent instructions; v1 files gain the field on open."""

import shutil

from dpdesk.mechanisms import rr
from dpdesk.project import Project
from tests.helpers.paths import FIXTURES

V1 = FIXTURES / "projects" / "v1.dpdesk"


def test_instructions_round_trip(tmp_path):
    with Project.create(tmp_path / "p.dpdesk") as p:
        p.add_item("q1", rr.design("warner", p=0.7), instructions="Roll the die under the table.")
        assert p.item("q1").instructions == "Roll the die under the table."
        p.update_item("q1", instructions="Toss the coin.")
        assert p.item("q1").instructions == "Toss the coin."
        p.add_item("q2", rr.design("warner", p=0.7))
        assert p.item("q2").instructions == ""


def test_a_v1_file_is_migrated_with_empty_instructions(tmp_path):
    old = tmp_path / "old.dpdesk"
    shutil.copy(V1, old)
    with Project.open(old) as p:
        assert all(item.instructions == "" for item in p.items())
        p.update_item("cannabis", instructions="Use the spinner.")
        assert p.item("cannabis").instructions == "Use the spinner."
    assert (tmp_path / "old.dpdesk.v1.bak").exists()  # the file before migrating is kept
