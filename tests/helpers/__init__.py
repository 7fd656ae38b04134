"""Helpers shared by the tests: folders, GUI fixtures, the CLI runner, a PDF text reader."""
