"""The example project: the bundled student survey, imported with its three items.

Built once (in a worker) into the program's data folder, then opened like any project.
"""

from __future__ import annotations

import os
from pathlib import Path

EXAMPLE_NAME = "Example - student survey.dpdesk"


def build_example(job, path: str | os.PathLike) -> Path:
    """Create the example project at ``path`` from ``resources/examples`` (never overwrites)."""
    from dpdesk.project.example import add_example_items, example_folder, write_example
    from dpdesk.project.reading.table import read_table
    from dpdesk.project.file.store import Project

    path = Path(path)
    csv = example_folder() / "students.csv"
    if not csv.exists():  # an installed copy without the source tree: regenerate (fixed seed)
        csv = write_example(path.parent / "example-data")
    if job is not None:
        job.progress(0.1, "Reading the example survey")
    table = read_table(csv)
    if job is not None:
        job.progress(0.6, "Writing the project")
    tmp = path.with_name(f".{path.stem}.building.dpdesk")
    for stale in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        if stale.exists():
            stale.unlink()
    with Project.create(tmp) as project:
        project.add_dataset("students", table.frame, source=table.source.to_dict(), options={},
                            report=table.report.to_dict())
        add_example_items(project)
    os.replace(tmp, path)
    if job is not None:
        job.progress(1.0, "Example ready")
    return path
