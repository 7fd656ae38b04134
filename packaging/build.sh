#!/bin/sh
# Build the frozen one-folder app (dist/dpdesk) and, on Linux, the .deb and the portable .tar.gz (make package).
#   PY=.venv/bin/python sh packaging/build.sh
# PyInstaller is a build-only tool: installed into the build environment through the lock
# (constraints.txt), never a runtime dependency.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PY=${PY:-.venv/bin/python}
"$PY" -c "import PyInstaller" 2>/dev/null || "$PY" -m pip install --quiet -c constraints.txt pyinstaller
QT_QPA_PLATFORM=offscreen "$PY" packaging/render_icons.py build/icons
# Third-party licences of the installed libraries, for the bundle (packaging/dpdesk.spec) and the About dialog.
"$PY" packaging/collect_licences.py build/licences
start=$(date +%s)
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/dpdesk.spec
# Again with the bundle at hand: adds the Debian copyright files of the system libraries it carries.
"$PY" packaging/collect_licences.py dist/dpdesk/_internal/dpdesk/resources/licences --bundle dist/dpdesk/_internal
echo "PyInstaller: dist/dpdesk in $(( $(date +%s) - start )) s, $(du -sh dist/dpdesk | cut -f1)"
# The frozen app must pass its own self-test before it is packaged.
QT_QPA_PLATFORM=offscreen DPDESK_SETTINGS_DIR="$ROOT/build/selftest-settings" dist/dpdesk/dpdesk --selftest
# --selftest draws no DP noise: release one noisy count so OpenDP's library (loaded with ctypes) is checked too.
rm -rf build/smoke
dist/dpdesk/dpdesk demo build/smoke >/dev/null
dist/dpdesk/dpdesk budget build/smoke/example.dpdesk --set 1 >/dev/null
dist/dpdesk/dpdesk release build/smoke/example.dpdesk --stat count --epsilon 0.1 > build/smoke/release.txt
head -n 2 build/smoke/release.txt
# Linked data: DuckDB's module is carried xz-compressed (rthooks/unpack_modules.py): link a Parquet file and
# release from it, so the frozen app's engine is checked too.
"$PY" -c "import duckdb, sys; duckdb.connect().execute(\"COPY (SELECT (i % 5)::INTEGER AS region FROM range(1000) t(i)) TO '\" + sys.argv[1] + \"' (FORMAT parquet)\")" build/smoke/linked.parquet
dist/dpdesk/dpdesk import build/smoke/example.dpdesk build/smoke/linked.parquet --link --name linked >/dev/null
dist/dpdesk/dpdesk release build/smoke/example.dpdesk --dataset linked --stat histogram --columns region --keys 0 1 2 3 4 \
  --epsilon 0.1 > build/smoke/linked.txt
head -n 1 build/smoke/linked.txt
if [ "$(uname -s)" = Linux ]; then
  PY="$PY" sh packaging/linux/make_portable.sh
  if command -v dpkg-deb >/dev/null 2>&1; then
    PY="$PY" sh packaging/linux/make_deb.sh
  fi
fi
