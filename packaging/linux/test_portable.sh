#!/bin/sh
# make test-package: the portable archive, as a user without root would use it. Unpack it into a
# folder whose name has a space, run its launcher (offscreen, X11 under Xvfb, the Wayland fallback),
# draw one noisy count, install the desktop entry into a private XDG_DATA_HOME, open a .dpdesk
# through that entry's Exec line, remove the entry. Xvfb is installed if missing (xvfb, xauth).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
TAR=$(ls -t dist/dpdesk-*-linux-*.tar.gz 2>/dev/null | head -n1)
[ -n "$TAR" ] || { echo "no dist/dpdesk-*-linux-*.tar.gz: run make package first" >&2; exit 1; }
command -v xvfb-run >/dev/null 2>&1 || $SUDO apt-get install -y -qq --no-install-recommends xvfb xauth
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export DPDESK_SETTINGS_DIR="$TMP/settings" XDG_DATA_HOME="$TMP/data home"

echo "== unpack $TAR (as a user, into a folder with a space)"
mkdir -p "$TMP/my apps"
tar -C "$TMP/my apps" -xzf "$TAR"
APP=$(ls -d "$TMP/my apps"/dpdesk-*)
# one check a line: under set -e a failing test inside an && list would not stop the script
test -x "$APP/dpdesk"
test -x "$APP/install-desktop-entry"
test -s "$APP/THIRD-PARTY-LICENCES"
test -s "$APP/LICENSE"
head -n 1 "$APP/THIRD-PARTY-LICENCES" | grep -q copyright-format
test -s "$APP/lib/_internal/dpdesk/resources/licences/index.json"
echo "unpacked: $(du -sh "$APP" | cut -f1)"

echo "== self-test, offscreen and X11 (Xvfb), through the launcher and through a link to it"
QT_QPA_PLATFORM=offscreen "$APP/dpdesk" --selftest
ln -s "$APP/dpdesk" "$TMP/dpdesk-link"
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x800x24" "$TMP/dpdesk-link" --selftest

echo "== QT_QPA_PLATFORM=wayland falls back to X11 with a message"
OUT=$(DPDESK_QUIT_AFTER_SHOW=1 QT_QPA_PLATFORM=wayland xvfb-run -a "$APP/dpdesk" 2>&1)
echo "$OUT" | grep -q "no Wayland platform plugin" && echo "$OUT" | grep -q "window shown: True" \
  || { echo "QT_QPA_PLATFORM=wayland: $OUT" >&2; exit 1; }

echo "== command line: a noisy count (OpenDP's samplers), in a C locale"
"$APP/dpdesk" demo "$TMP/demo" >/dev/null
"$APP/dpdesk" budget "$TMP/demo/example.dpdesk" --set 1 >/dev/null
LC_ALL=C PYTHONIOENCODING=cp1252 "$APP/dpdesk" release "$TMP/demo/example.dpdesk" --stat count --epsilon 0.1 > "$TMP/release.txt"
head -n 2 "$TMP/release.txt"

echo "== desktop entry for this user"
"$APP/install-desktop-entry"
DESKTOP="$XDG_DATA_HOME/applications/dpdesk.desktop"
test -s "$DESKTOP"
test -s "$XDG_DATA_HOME/mime/packages/dpdesk.xml"
test -s "$XDG_DATA_HOME/icons/hicolor/256x256/apps/dpdesk.png"
command -v desktop-file-validate >/dev/null 2>&1 && desktop-file-validate "$DESKTOP"
grep -q "^Exec=\"$APP/dpdesk\" %f$" "$DESKTOP" || { echo "Exec line: $(grep ^Exec "$DESKTOP")" >&2; exit 1; }
if command -v update-mime-database >/dev/null 2>&1; then
  grep -q "application/x-dpdesk-project:\*\.dpdesk" "$XDG_DATA_HOME/mime/globs2"
  echo "MIME (user database): *.dpdesk -> application/x-dpdesk-project"
fi

echo "== open a .dpdesk through the entry's Exec line (Xvfb)"
EXEC=$(sed -n 's/^Exec=//p' "$DESKTOP" | head -n1)
PROJECT="$TMP/demo/example.dpdesk"
CMD=$(printf '%s' "$EXEC" | sed "s|%f|'$PROJECT'|")
OUT=$(DPDESK_QUIT_AFTER_SHOW=1 QT_QPA_PLATFORM=xcb xvfb-run -a sh -c "$CMD")
echo "$OUT"
echo "$OUT" | grep -q "window shown: True; project: $PROJECT" \
  || { echo "the desktop entry did not open $PROJECT" >&2; exit 1; }

echo "== remove the desktop entry"
"$APP/install-desktop-entry" --remove
test ! -e "$DESKTOP"
test ! -e "$XDG_DATA_HOME/mime/packages/dpdesk.xml"
test ! -e "$XDG_DATA_HOME/icons/hicolor/256x256/apps/dpdesk.png"
echo "test-portable passed"
