#!/bin/sh
# make setup (run by make run / make test): a working .venv with dpdesk and its tested versions.
#   sh tools/venv.sh [VENV] [PYTHON] [CONSTRAINTS]
# 1. Checks the prerequisites (Python >= 3.11 with its venv module) and names the apt line that
#    fixes a missing one.
# 2. Checks the existing venv: its Python runs and is the same minor version as PYTHON, pip
#    works, the last install finished (stamp). A broken one is named, removed and rebuilt; it
#    never leaves "No module named pip" for the next run.
# 3. Installs dpdesk with its test tools through the lock (pip install -c constraints.txt) when
#    the stamp is older than pyproject.toml or the lock.
set -u
VENV=${1:-.venv}
PYTHON=${2:-python3}
LOCK=${3:-constraints.txt}
STAMP=$VENV/.installed
PY=$VENV/bin/python
APT_PYTHON="sudo apt-get install python3 python3-venv"

say() { echo "make setup: $*"; }
die() { echo "make setup: $*" >&2; exit 1; }

# -- 1. prerequisites --------------------------------------------------------------------------
command -v "$PYTHON" >/dev/null 2>&1 \
  || die "no '$PYTHON' found. dpdesk needs Python 3.11 or newer. On Debian 12 / Ubuntu 24.04: $APT_PYTHON (elsewhere install Python 3.11+ and run: make PYTHON=python3.12 run)"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
  || die "$PYTHON is Python $("$PYTHON" -c 'import platform; print(platform.python_version())' 2>/dev/null || echo '?'); dpdesk needs 3.11 or newer. On Debian 12 / Ubuntu 24.04: $APT_PYTHON; or point make at a newer one: make PYTHON=python3.12 run"
BASE_VERSION=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
if ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  die "$PYTHON has no venv/ensurepip module (Debian splits it off). Fix: sudo apt-get install python3-venv   (or python$BASE_VERSION-venv)"
fi

# -- 2. is the existing venv healthy? ------------------------------------------------------------
problem=""
if [ -e "$VENV" ]; then
  HOME_OF=$(sed -n 's/^home *= *//p' "$VENV/pyvenv.cfg" 2>/dev/null)
  if [ -L "$PY" ] && [ ! -e "$PY" ]; then
    problem="its Python does not run: $PY points to $(readlink "$PY"), which is gone (made by another Python: ${HOME_OF:-unknown})"
  elif [ ! -x "$PY" ]; then
    problem="$PY is missing (an interrupted venv creation)"
  elif ! VENV_VERSION=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null); then
    problem="its Python does not run (made by another Python: ${HOME_OF:-unknown})"
  elif [ "$VENV_VERSION" != "$BASE_VERSION" ]; then
    problem="it was made by Python $VENV_VERSION, and $PYTHON is $BASE_VERSION"
  elif ! "$PY" -m pip --version >/dev/null 2>&1; then
    if "$PY" -m ensurepip --upgrade >/dev/null 2>&1 && "$PY" -m pip --version >/dev/null 2>&1; then
      say "$VENV had no pip; restored it with ensurepip"
    else
      problem="it has no pip (No module named pip) and ensurepip cannot restore it"
    fi
  fi
  if [ -z "$problem" ] && [ -f "$STAMP" ] && ! "$PY" -c 'import importlib.util as u, sys; sys.exit(any(u.find_spec(m) is None for m in ("dpdesk", "PySide6", "numpy", "scipy", "pandas", "opendp", "pytest")))' >/dev/null 2>&1; then
    rm -f "$STAMP"
    say "$VENV is half-installed (packages missing although the last install finished); reinstalling"
  fi
fi
if [ -n "$problem" ]; then
  say "$VENV is broken: $problem. Removing it and building a new one with $PYTHON ($BASE_VERSION)."
  rm -rf "$VENV"
fi
if [ ! -e "$VENV" ]; then
  say "creating $VENV with $PYTHON ($BASE_VERSION)"
  "$PYTHON" -m venv "$VENV" || { rm -rf "$VENV"; die "could not create $VENV. On Debian/Ubuntu: sudo apt-get install python3-venv"; }
  "$PY" -m pip --version >/dev/null 2>&1 || { rm -rf "$VENV"; die "$VENV has no pip: sudo apt-get install python3-venv (then run make again)"; }
fi

[ -n "${DPDESK_VENV_CHECK_ONLY:-}" ] && exit 0  # tests: the checks and the rebuild, no install

# -- 3. install through the lock --------------------------------------------------------------------
if [ -f "$STAMP" ] && [ "$STAMP" -nt pyproject.toml ] && { [ ! -f "$LOCK" ] || [ "$STAMP" -nt "$LOCK" ]; }; then
  exit 0
fi
rm -f "$STAMP"  # written again only when the install finished
if [ -f "$LOCK" ]; then
  say "installing dpdesk and its tested versions ($LOCK) into $VENV"
  LOCK_ARGS="-c $LOCK"
else
  say "no $LOCK: installing the newest versions the floors allow (make lock writes one)"
  LOCK_ARGS=""
fi
# shellcheck disable=SC2086
"$PY" -m pip install --quiet $LOCK_ARGS --upgrade pip \
  && "$PY" -m pip install --quiet $LOCK_ARGS -e '.[test,spark]' \
  || die "pip install failed (above). Nothing was marked installed; run make again to retry, or make clean to start afresh."
touch "$STAMP"
