"""The active dataset: the one set of data that every analysis, release and extract uses.

A project can hold several imports (waves, a corrected export kept beside the first). One
is active at a time, chosen explicitly with :func:`set_active_dataset` and remembered in
the file (the ``app`` table's ``active_dataset`` row, by dataset id). Until one is chosen,
or after the chosen one was removed, the latest import is active. Results, releases and
extracts name the dataset they came from.
"""

from __future__ import annotations

from dpdesk.errors import DataError

KEY = "active_dataset"  # the app table row; read by Project.active_dataset_id


def active_dataset(project):
    """The active :class:`~dpdesk.project.study.items.Dataset`, or None when the project has no data."""
    chosen = project.active_dataset_id()
    return next((d for d in project.datasets() if d.id == chosen), None)


def set_active_dataset(project, name: str):
    """Make the dataset called ``name`` the active one; returns it."""
    found = next((d for d in project.datasets() if d.name == name), None)
    if found is None:
        raise DataError(f"The project has no dataset named {name!r}; it has "
                        f"{', '.join(repr(d.name) for d in project.datasets()) or 'none'}.")
    with project.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO app(key, value) VALUES (?, ?)", (KEY, str(found.id)))
    return found


def dataset_named(project, name: str | None):
    """The dataset called ``name``, or the active one when ``name`` is None (DataError if none)."""
    if name is None:
        ds = active_dataset(project)
        if ds is None:
            raise DataError(f"The project {project.path} has no data yet. Import a data file first "
                            "(Data > Import in the app, or dpdesk import PROJECT FILE).")
        return ds
    found = next((d for d in project.datasets() if d.name == name), None)
    if found is None:
        known = ", ".join(repr(d.name) for d in project.datasets()[:10]) or "none"
        raise DataError(f"The project {project.path} has no dataset named {name!r} (it has: {known}).")
    return found
