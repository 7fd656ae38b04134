#!/bin/sh
# make test-package: check the built .deb (no /opt, licences), install it, run the installed app
# (offscreen, X11, Wayland fallback, cp1252/ASCII terminals), open a project the way a
# double-click does, then remove the package. Needs root (or sudo) and apt-get; Xvfb is
# installed if missing (xvfb, xauth).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
DEB=$(ls -t dist/dpdesk_*.deb 2>/dev/null | head -n1)
[ -n "$DEB" ] || { echo "no dist/dpdesk_*.deb: run make package first" >&2; exit 1; }
command -v xvfb-run >/dev/null 2>&1 || $SUDO apt-get install -y -qq --no-install-recommends xvfb xauth
TMP=$(mktemp -d)
export DPDESK_SETTINGS_DIR="$TMP/settings"  # never the user's real settings
cleanup() { rm -rf "$TMP"; }
trap cleanup EXIT

echo "== the package owns no shared top-level folder (/opt, /etc, /var...)"
if dpkg-deb -c "$DEB" | awk '{print $6}' | grep -E '^\./(opt|etc|var|srv|home|usr/local)/' ; then
  echo "the .deb ships files outside /usr: removing it could delete a folder other software uses" >&2; exit 1
fi
OPT_BEFORE=$(test -d /opt && echo yes || echo no)

echo "== licences: /usr/share/doc/dpdesk/copyright in Debian's machine-readable format"
dpkg-deb --fsys-tarfile "$DEB" | tar -xO ./usr/share/doc/dpdesk/copyright > "$TMP/copyright"
head -n 1 "$TMP/copyright" | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/'
for lib in PySide6_Essentials scipy pandas matplotlib numpy opendp; do
  grep -q "^ $lib [0-9]" "$TMP/copyright" || { echo "copyright lacks $lib" >&2; exit 1; }
done
grep -q "GNU LESSER GENERAL PUBLIC LICENSE" "$TMP/copyright"
grep -q "Redistribution and use in source and binary forms" "$TMP/copyright"
echo "copyright: $(grep -c '^Files:' "$TMP/copyright") Files paragraphs, $(wc -c < "$TMP/copyright") bytes"

echo "== install $DEB"
$SUDO apt-get install -y -qq "./$DEB"
test -x /usr/lib/dpdesk/dpdesk
test -x /usr/bin/dpdesk
echo "installed size: $(du -sh /usr/lib/dpdesk | cut -f1)"

echo "== self-test, offscreen"
QT_QPA_PLATFORM=offscreen /usr/bin/dpdesk --selftest
echo "== self-test, X11 (Xvfb, xcb platform)"
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x800x24" /usr/bin/dpdesk --selftest

echo "== QT_QPA_PLATFORM=wayland: falls back to X11 with a message instead of aborting (Xvfb)"
OUT=$(DPDESK_QUIT_AFTER_SHOW=1 QT_QPA_PLATFORM=wayland xvfb-run -a /usr/bin/dpdesk 2>&1)
echo "$OUT" | grep -q "no Wayland platform plugin" && echo "$OUT" | grep -q "window shown: True" \
  || { echo "QT_QPA_PLATFORM=wayland: $OUT" >&2; exit 1; }


echo "== command line: dpdesk demo"
/usr/bin/dpdesk demo "$TMP/demo" >/dev/null
test -s "$TMP/demo/example.dpdesk"
echo "== command line: a noisy count (OpenDP's samplers)"
/usr/bin/dpdesk budget "$TMP/demo/example.dpdesk" --set 1 >/dev/null
/usr/bin/dpdesk release "$TMP/demo/example.dpdesk" --stat count --epsilon 0.1 > "$TMP/release.txt"
head -n 2 "$TMP/release.txt"
echo "== command line: link a Parquet file and release from it (DuckDB, unpacked on first import)"
"${PY:-$ROOT/.venv/bin/python}" -c "import duckdb, sys; duckdb.connect().execute(\"COPY (SELECT (i % 5)::INTEGER AS region FROM range(1000) t(i)) TO '\" + sys.argv[1] + \"' (FORMAT parquet)\")" "$TMP/linked.parquet"
/usr/bin/dpdesk import "$TMP/demo/example.dpdesk" "$TMP/linked.parquet" --link --name linked >/dev/null
/usr/bin/dpdesk release "$TMP/demo/example.dpdesk" --dataset linked --stat histogram --columns region \
  --keys 0 1 2 3 4 --epsilon 0.1 > "$TMP/linked.txt"
head -n 1 "$TMP/linked.txt"
# The frozen app ignores PYTHONIOENCODING (PyInstaller) and writes UTF-8; these must simply run in
# a C locale and a non-UTF-8 setting (dpdesk.cli.console covers the interpreter's side, tests/cli).
LC_ALL=C PYTHONIOENCODING=cp1252 /usr/bin/dpdesk budget "$TMP/demo/example.dpdesk" >/dev/null
LC_ALL=C PYTHONIOENCODING=ascii /usr/bin/dpdesk release "$TMP/demo/example.dpdesk" --stat count --epsilon 0.1 >/dev/null

echo "== open a .dpdesk through the desktop entry's Exec line (Xvfb)"
DESKTOP=/usr/share/applications/dpdesk.desktop
command -v desktop-file-validate >/dev/null 2>&1 && desktop-file-validate "$DESKTOP"
EXEC=$(sed -n 's/^Exec=//p' "$DESKTOP" | head -n1)
PROJECT="$TMP/demo/example.dpdesk"
CMD=$(printf '%s' "$EXEC" | sed "s|%f|'$PROJECT'|")
OUT=$(DPDESK_QUIT_AFTER_SHOW=1 QT_QPA_PLATFORM=xcb xvfb-run -a sh -c "$CMD")
echo "$OUT"
echo "$OUT" | grep -q "window shown: True; project: $PROJECT" \
  || { echo "the desktop entry did not open $PROJECT" >&2; exit 1; }
if [ -f /usr/share/mime/globs2 ]; then
  grep -q "application/x-dpdesk-project:\*\.dpdesk" /usr/share/mime/globs2 \
    || { echo "the MIME database does not know *.dpdesk" >&2; exit 1; }
  echo "MIME: *.dpdesk -> application/x-dpdesk-project"
fi
if [ -f /usr/share/applications/mimeinfo.cache ]; then
  grep -q "^application/x-dpdesk-project=.*dpdesk.desktop" /usr/share/applications/mimeinfo.cache \
    || { echo "no application is registered for application/x-dpdesk-project" >&2; exit 1; }
  echo "desktop database: application/x-dpdesk-project -> dpdesk.desktop"
fi
test -s /usr/share/icons/hicolor/256x256/apps/dpdesk.png
test -s /usr/share/icons/hicolor/scalable/apps/dpdesk.svg

echo "== remove"
$SUDO apt-get remove -y -qq dpdesk
test ! -e /usr/lib/dpdesk
test ! -e /usr/bin/dpdesk
[ "$OPT_BEFORE" = no ] || test -d /opt || { echo "removing dpdesk deleted /opt" >&2; exit 1; }
echo "test-package passed"
