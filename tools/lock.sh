#!/bin/sh
# make lock: write constraints.txt, the versions the suite passed with.
#   make lock                    fresh venv (build/lock-venv), newest versions the floors allow,
#                                PyInstaller (build tool), the whole suite; constraints.txt only if it passes
#   make lock LOCK_VENV=.venv    freeze an existing venv instead, after the suite passes in it
# Everything installs through the lock: make setup/run/test/package and the installers workflow
# (pip install -c constraints.txt ...).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PYTHON=${PYTHON:-python3}
VENV=${LOCK_VENV:-build/lock-venv}
if [ -z "${LOCK_VENV:-}" ]; then
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip setuptools wheel  # setuptools >= 77 builds dpdesk
  "$VENV/bin/python" -m pip install --quiet -e '.[test,spark]' pyinstaller
fi
"$VENV/bin/python" -c "import PyInstaller" 2>/dev/null || "$VENV/bin/python" -m pip install --quiet pyinstaller
echo "== the suite, in $VENV"
QT_QPA_PLATFORM=offscreen MPLBACKEND=Agg "$VENV/bin/python" -m pytest -q
"$VENV/bin/python" -c "import setuptools, sys; sys.exit(int(setuptools.__version__.split('.')[0]) < 77)" \
  || "$VENV/bin/python" -m pip install --quiet --upgrade setuptools wheel
TMP=constraints.txt.tmp
{
  echo "# The tested versions: written by make lock (tools/lock.sh) after the suite passed with them."
  echo "# Python $("$VENV/bin/python" -c 'import platform; print(platform.python_version())'), $(uname -sm), $(date -u +%Y-%m-%d)."
  echo "# Used as pip install -c constraints.txt by make setup/run/test/package and the installers workflow."
  "$VENV/bin/python" -m pip freeze --all --exclude-editable | grep -v -i -e '^dpdesk[=@ ]' -e '^-e ' -e '^#' | LC_ALL=C sort -f
} > "$TMP"
mv "$TMP" constraints.txt
echo "wrote constraints.txt ($(grep -vc '^#' constraints.txt) pins)"
