#!/bin/sh
# macOS: wrap dist/dpdesk.app (PyInstaller's BUNDLE step in packaging/dpdesk.spec) in a disk image.
#   sh packaging/macos/make_dmg.sh 0.1.0        -> dist/dpdesk-0.1.0.dmg
# The image holds dpdesk.app and a link to /Applications: open it, drag the app across.
# The app is signed ad hoc only (PyInstaller does that); without a Developer ID signature
# and notarisation, the first start needs right-click > Open (see docs/readme/install.md).
set -eu
VERSION=${1:-0.1.0}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
APP=$ROOT/dist/dpdesk.app
[ -d "$APP" ] || { echo "no $APP: run PyInstaller on packaging/dpdesk.spec first" >&2; exit 1; }
STAGE=$ROOT/build/dmg
rm -rf "$STAGE" && mkdir -p "$STAGE"
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
OUT=$ROOT/dist/dpdesk-$VERSION.dmg
rm -f "$OUT"
hdiutil create -volname "dpdesk $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$OUT"
echo "built $OUT"
