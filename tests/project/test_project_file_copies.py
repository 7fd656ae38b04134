"""The .dpdesk project file, continued: Save As, backups, shared writers, locks, imports, threads."""

from __future__ import annotations

import os

import pandas as pd
import pytest

from dpdesk.errors import ProjectError
from dpdesk.project import Project
from tests.project.test_project_file import StandIn, _bytes_and_mtime, path, project  # noqa: F401 - fixtures


# ---------------------------------------------------------------- save as


def test_save_as_copies_atomically_and_moves_on(project, path, tmp_path):
    project.add_item("q", StandIn())
    target = tmp_path / "copy.dpdesk"
    target.write_bytes(b"old file to replace")
    project.save_as(target)
    assert project.path == target.resolve()
    project.add_item("only in copy", StandIn())
    project.close()
    with Project.open(path) as old:
        assert [i.name for i in old.items()] == ["q"]
    with Project.open(target) as new:
        assert [i.name for i in new.items()] == ["q", "only in copy"]
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def test_shared_mode_two_processes_write_concurrently(path):
    Project.create(path).close()
    with Project.open(path) as p:
        p.add_item("q", StandIn())
    pids = []
    for worker in range(2):
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                with Project.open(path, shared=True) as p:
                    for k in range(25):
                        with p.transaction() as conn:  # read-then-write, serialised by BEGIN IMMEDIATE
                            n = conn.execute("SELECT count(*) FROM analyses").fetchone()[0]
                            p.save_analysis("q", {"worker": worker, "k": k}, {"seen_before": n})
                code = 0
            finally:
                os._exit(code)
        pids.append(pid)
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    with Project.open(path) as p:
        analyses = p.analyses("q")
        assert len(analyses) == 50
        # each transaction saw every earlier commit: no lost update, no interleaving
        assert [a.results["seen_before"] for a in analyses] == list(range(50))


def test_backup_to_keeps_working_here_and_never_replaces_an_open_project(project, path, tmp_path):
    project.add_item("q", StandIn())
    copy = project.backup_to(tmp_path / "backup.dpdesk")
    project.add_item("after", StandIn())
    assert project.path == path
    with Project.open(copy) as c:
        assert [i.name for i in c.items()] == ["q"]
        with pytest.raises(ProjectError, match="already open"):
            project.backup_to(copy)
    with pytest.raises(ProjectError, match="onto itself"):
        project.backup_to(path)


def test_a_dropped_project_releases_its_lock(path):
    Project.create(path)  # never closed: garbage-collected at once
    with Project.open(path) as p:
        assert not p.closed


def test_stores_what_the_importer_returns(project, tmp_path):
    from dpdesk.project.reading.table import read_table

    csv = tmp_path / "wave.csv"
    csv.write_text("id,q1,grp\n1,yes,A\n2,no,B\n3,,A\n", encoding="utf-8")
    table = read_table(str(csv))
    project.add_dataset("wave", table.frame, source=table.source, options={}, report=table.report)
    (info,) = project.datasets()
    assert info.sha256 == table.source.sha256 and info.size == table.source.size
    assert info.source_name == table.source.name and info.report["n_rows"] == 3
    pd.testing.assert_frame_equal(project.dataset_frame("wave"), table.frame.reset_index(drop=True))


def test_row_index_kept_when_not_the_default(project):
    frame = pd.DataFrame({"q": ["yes", "no", "yes", "no"]}).drop(index=[1])  # labels 0, 2, 3
    project.add_dataset("dropped", frame)
    pd.testing.assert_frame_equal(project.dataset_frame("dropped"), frame)
    named = pd.DataFrame({"q": [1, 2]}, index=pd.Index(["r7", "r9"], name="respondent"))
    project.add_dataset("named", named)
    pd.testing.assert_frame_equal(project.dataset_frame("named"), named)
    assert project.datasets()[1].columns == ["q"]


def test_usable_from_a_worker_thread(project):
    import threading

    errors = []

    def work():
        try:
            with project.transaction():
                project.add_dataset("from worker", pd.DataFrame({"x": [1, 2, 3]}))
                project.add_item("from worker", StandIn())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    names = [i.name for i in project.items()]  # waits for the worker's transaction, never sees half of it
    worker.join()
    assert not errors
    assert names in ([], ["from worker"])
    assert [d.name for d in project.datasets()] == ["from worker"]
