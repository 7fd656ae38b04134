#!/bin/sh
# make test-package: install the built .deb, run the installed app, open a project the way a
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

echo "== install $DEB"
$SUDO apt-get install -y -qq "./$DEB"
test -x /opt/dpdesk/dpdesk && test -x /usr/bin/dpdesk
echo "installed size: $(du -sh /opt/dpdesk | cut -f1)"

echo "== self-test, offscreen"
QT_QPA_PLATFORM=offscreen /usr/bin/dpdesk --selftest
echo "== self-test, X11 (Xvfb, xcb platform)"
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x800x24" /usr/bin/dpdesk --selftest

echo "== command line: dpdesk demo"
/usr/bin/dpdesk demo "$TMP/demo" >/dev/null
test -s "$TMP/demo/example.dpdesk"
echo "== command line: a noisy count (OpenDP's samplers)"
/usr/bin/dpdesk budget "$TMP/demo/example.dpdesk" --set 1 >/dev/null
/usr/bin/dpdesk release "$TMP/demo/example.dpdesk" --stat count --epsilon 0.1 > "$TMP/release.txt"
head -n 2 "$TMP/release.txt"

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
test -s /usr/share/icons/hicolor/256x256/apps/dpdesk.png && test -s /usr/share/icons/hicolor/scalable/apps/dpdesk.svg

echo "== remove"
$SUDO apt-get remove -y -qq dpdesk
test ! -e /opt/dpdesk && test ! -e /usr/bin/dpdesk
echo "test-package passed"
