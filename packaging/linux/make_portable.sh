#!/bin/sh
# Build dist/dpdesk-<version>-linux-<arch>.tar.gz from the PyInstaller bundle in dist/dpdesk (make package):
# the one-folder app for machines where the user is not root. Unpack it anywhere, then
#   dpdesk-<version>/dpdesk                      start the app (or the command line: dpdesk --help)
#   dpdesk-<version>/install-desktop-entry       add dpdesk to your own menu and open *.dpdesk with it
#   dpdesk-<version>/install-desktop-entry --remove
# Layout: dpdesk (launcher), lib/ (the bundle), share/ (desktop file, MIME type, icons), LICENSE,
# THIRD-PARTY-LICENCES (the Debian-format copyright file), README.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
BUNDLE=$ROOT/dist/dpdesk
ICONS=$ROOT/build/icons
[ -x "$BUNDLE/dpdesk" ] || { echo "no bundle at $BUNDLE: run the PyInstaller step first (make package)" >&2; exit 1; }
[ -f "$ICONS/dpdesk-256.png" ] || QT_QPA_PLATFORM=offscreen "$PY" "$HERE/../render_icons.py" "$ICONS"
VERSION=$("$PY" -c "import dpdesk; print(dpdesk.__version__)")
ARCH=$(uname -m)
NAME=dpdesk-$VERSION
STAGE=$ROOT/build/portable/$NAME
rm -rf "$ROOT/build/portable" && mkdir -p "$STAGE/share/icons" "$STAGE/share/mime"
cp -a "$BUNDLE" "$STAGE/lib"
chmod -R u=rwX,go=rX "$STAGE/lib"

cat > "$STAGE/dpdesk" <<'SH'
#!/bin/sh
# dpdesk, portable: runs the bundle beside this script, wherever the folder was unpacked.
HERE=$(dirname "$(readlink -f "$0")")
exec "$HERE/lib/dpdesk" "$@"
SH
chmod 755 "$STAGE/dpdesk"
install -m 755 "$HERE/install-desktop-entry.sh" "$STAGE/install-desktop-entry"
install -m 644 "$HERE/dpdesk.desktop" "$STAGE/share/dpdesk.desktop"
install -m 644 "$HERE/dpdesk-mime.xml" "$STAGE/share/mime/dpdesk.xml"
for size in 16 24 32 48 64 128 256 512; do
  install -m 644 "$ICONS/dpdesk-$size.png" "$STAGE/share/icons/dpdesk-$size.png"
done
install -m 644 "$ROOT/dpdesk/resources/icons/dpdesk.svg" "$STAGE/share/icons/dpdesk.svg"
install -m 644 "$ROOT/LICENSE" "$STAGE/LICENSE"
"$PY" "$HERE/debian_copyright.py" "$STAGE/lib/_internal/dpdesk/resources/licences" "$STAGE/THIRD-PARTY-LICENCES" \
  --prefix lib/_internal >/dev/null
cat > "$STAGE/README" <<TXT
dpdesk $VERSION, portable build for Linux ($ARCH, glibc 2.36 or newer). No root needed.

  ./dpdesk                          start dpdesk
  ./dpdesk --selftest               check this copy
  ./install-desktop-entry           add dpdesk to your applications menu and open .dpdesk files
                                    with it (files go to ~/.local/share; nothing outside your home)
  ./install-desktop-entry --remove  take them away again

Move the folder first if you want it elsewhere (the menu entry points to where it was when you
ran install-desktop-entry; run it again after a move). Qt needs a few system libraries for a
window: sudo apt-get install libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libegl1 libgl1
(most desktops have them). Licences: LICENSE (dpdesk, MIT) and THIRD-PARTY-LICENCES.
TXT
OUT=$ROOT/dist/$NAME-linux-$ARCH.tar.gz
rm -f "$OUT"
# gzip -6 through tar: portable to any tar; a few seconds slower than zstd, about the .deb's size
tar -C "$ROOT/build/portable" --owner=0 --group=0 --numeric-owner -czf "$OUT" "$NAME"
echo "built $OUT ($(du -h "$OUT" | cut -f1))"
