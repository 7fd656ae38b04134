"""Fixtures of the GUI tests: a temporary settings folder and a shown main window."""

from tests.helpers.gui import settings_dir, window  # noqa: F401 - fixtures for every GUI test
