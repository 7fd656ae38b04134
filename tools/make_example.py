"""Regenerate the bundled example survey (fixed seed) in dpdesk/resources/examples:

    .venv/bin/python tools/make_example.py
"""

from pathlib import Path

from dpdesk.project.example import write_example

if __name__ == "__main__":
    print(write_example(Path(__file__).resolve().parents[1] / "dpdesk" / "resources" / "examples"))
