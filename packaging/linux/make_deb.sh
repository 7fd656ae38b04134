#!/bin/sh
# Build dist/dpdesk_<version>_<arch>.deb from the PyInstaller bundle in dist/dpdesk (make package).
#   bundle      /usr/lib/dpdesk           (dist/dpdesk as built; not /opt: a package that ships /opt/...
#                                          owns /opt, and removing it deletes /opt where nothing else is there)
#   launcher    /usr/bin/dpdesk           (runs /usr/lib/dpdesk/dpdesk with the same arguments)
#   licences    /usr/share/doc/dpdesk/copyright (Debian's machine-readable format: every bundled library's
#                                          licence texts, from packaging/collect_licences.py) and
#               /usr/share/doc/dpdesk/system/PKG.copyright (Debian packages of bundled system libraries)
#   desktop     /usr/share/applications/dpdesk.desktop      (Exec=dpdesk %f)
#   MIME type   /usr/share/mime/packages/dpdesk.xml         (*.dpdesk -> application/x-dpdesk-project)
#   icons       /usr/share/icons/hicolor/*/{apps,mimetypes}/
# The desktop, MIME and icon caches are refreshed by dpkg triggers of desktop-file-utils,
# shared-mime-info and hicolor-icon-theme, so the package needs no maintainer scripts.
# Depends (control.in): the bundle carries glib, fontconfig, freetype, D-Bus and the X11 client
# libraries itself and needs only libc, libGL/libEGL and libxcb from the system (check_depends.py
# checks that); the Qt xcb libraries and fonts are listed too so that the system's Qt setup is whole.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
BUNDLE=$ROOT/dist/dpdesk
ICONS=$ROOT/build/icons
[ -x "$BUNDLE/dpdesk" ] || { echo "no bundle at $BUNDLE: run the PyInstaller step first (make package)" >&2; exit 1; }
[ -f "$ICONS/dpdesk-256.png" ] || QT_QPA_PLATFORM=offscreen "$PY" "$HERE/../render_icons.py" "$ICONS"

VERSION=$("$PY" -c "import dpdesk; print(dpdesk.__version__)")
ARCH=$(dpkg --print-architecture)
TREE=$ROOT/build/deb/dpdesk_${VERSION}_${ARCH}
rm -rf "$TREE"
mkdir -p "$TREE/DEBIAN" "$TREE/usr/lib" "$TREE/usr/bin" "$TREE/usr/share/applications" \
         "$TREE/usr/share/mime/packages" "$TREE/usr/share/doc/dpdesk"
cp -a "$BUNDLE" "$TREE/usr/lib/dpdesk"
chmod -R u=rwX,go=rX "$TREE/usr/lib/dpdesk"

cat > "$TREE/usr/bin/dpdesk" <<'SH'
#!/bin/sh
exec /usr/lib/dpdesk/dpdesk "$@"
SH
chmod 755 "$TREE/usr/bin/dpdesk"
install -m 644 "$HERE/dpdesk.desktop" "$TREE/usr/share/applications/dpdesk.desktop"
install -m 644 "$HERE/dpdesk-mime.xml" "$TREE/usr/share/mime/packages/dpdesk.xml"
LICENCES=$TREE/usr/lib/dpdesk/_internal/dpdesk/resources/licences
[ -f "$LICENCES/index.json" ] || { echo "no licences in the bundle ($LICENCES): run packaging/build.sh" >&2; exit 1; }
"$PY" "$HERE/debian_copyright.py" "$LICENCES" "$TREE/usr/share/doc/dpdesk/copyright" --prefix usr/lib/dpdesk/_internal
if [ -d "$LICENCES/system" ]; then
  cp -a "$LICENCES/system" "$TREE/usr/share/doc/dpdesk/system"
fi
chmod -R u=rwX,go=rX "$TREE/usr/share/doc/dpdesk"
for size in 16 24 32 48 64 128 256 512; do
  for kind in apps mimetypes; do
    mkdir -p "$TREE/usr/share/icons/hicolor/${size}x${size}/$kind"
  done
  install -m 644 "$ICONS/dpdesk-$size.png" "$TREE/usr/share/icons/hicolor/${size}x${size}/apps/dpdesk.png"
  install -m 644 "$ICONS/dpdesk-$size.png" \
    "$TREE/usr/share/icons/hicolor/${size}x${size}/mimetypes/application-x-dpdesk-project.png"
done
mkdir -p "$TREE/usr/share/icons/hicolor/scalable/apps" "$TREE/usr/share/icons/hicolor/scalable/mimetypes"
install -m 644 "$ROOT/dpdesk/resources/icons/dpdesk.svg" "$TREE/usr/share/icons/hicolor/scalable/apps/dpdesk.svg"
install -m 644 "$ROOT/dpdesk/resources/icons/dpdesk.svg" "$TREE/usr/share/icons/hicolor/scalable/mimetypes/application-x-dpdesk-project.svg"

if command -v desktop-file-validate >/dev/null 2>&1; then
  desktop-file-validate "$TREE/usr/share/applications/dpdesk.desktop"
fi
SIZE=$(du -sk --exclude=DEBIAN "$TREE" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@INSTALLED_SIZE@/$SIZE/" \
  "$HERE/control.in" > "$TREE/DEBIAN/control"
# Every system library the bundle links to must come from a package in Depends.
"$PY" "$HERE/check_depends.py" "$TREE/usr/lib/dpdesk" "$TREE/DEBIAN/control"

OUT=$ROOT/dist/dpdesk_${VERSION}_${ARCH}.deb
rm -f "$OUT"
# xz -9 on both cores (DEB_COMPRESSOR=zstd DEB_ZLEVEL=9 for a quick local build): DuckDB's module took the
# zstd -9 .deb from 140 to 164 MB; xz -6 made it 140.3 MB, xz -9 (a 64 MiB window, about 0.7 GB of memory per
# thread) 138.1 MB on the same tree, in about 9 minutes of one core here (zstd -9: 30 s; PITFALLS.md). The two
# libraries already xz-compressed in the bundle (OpenDP's, DuckDB's) gain nothing.
COMPRESSOR=${DEB_COMPRESSOR:-xz}
dpkg-deb -Z"$COMPRESSOR" -z"${DEB_ZLEVEL:-9}" --threads-max=2 \
  --root-owner-group --build "$TREE" "$OUT" >/dev/null
echo "built $OUT ($(du -h "$OUT" | cut -f1), installed size $((SIZE / 1024)) MiB)"
