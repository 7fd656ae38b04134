"""Folders the tests read: the repository, the test data files and the project fixtures."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
FIXTURES = ROOT / "tests" / "fixtures"
