#!/bin/sh
# make test-floors: install exactly the floors of pyproject.toml (tools/floors.py) into a fresh
# .venv-floors and run the whole suite there. Slow (a fresh install, then the suite): run it when
# a floor changes, and raise the floor until it passes.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PYTHON=${PYTHON:-python3}
VENV=${FLOORS_VENV:-.venv-floors}
"$PYTHON" tools/floors.py build/floors.txt >/dev/null
echo "== floors (build/floors.txt):"; grep -v '^#' build/floors.txt | tr '\n' ' '; echo
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# PIP_CONSTRAINT (not only -c) so that the isolated build of dpdesk uses the setuptools floor too.
PIP_CONSTRAINT="$ROOT/build/floors.txt" "$VENV/bin/python" -m pip install --quiet -c build/floors.txt -e '.[test]'
echo "== installed:"; "$VENV/bin/python" -m pip freeze --exclude-editable | tr '\n' ' '; echo
QT_QPA_PLATFORM=offscreen MPLBACKEND=Agg "$VENV/bin/python" -m pytest -q -p no:randomly "$@"
