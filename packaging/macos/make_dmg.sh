#!/bin/sh
# macOS: wrap dist/dpdesk.app (PyInstaller's BUNDLE step in packaging/dpdesk.spec) in a disk image.
#   sh packaging/macos/make_dmg.sh 0.1.0        -> dist/dpdesk-0.1.0.dmg
# The image holds dpdesk.app and a link to /Applications: open it, drag the app across.
# The app is signed ad hoc only (PyInstaller does that); without a Developer ID signature
# and notarisation, the first start is blocked: macOS 14 opens it with right-click > Open,
# macOS 15 only from System Settings > Privacy & Security > Open Anyway (docs/guide/install.md).
# Apple silicon (arm64) only: the workflow builds on macos-14 (docs/guide/install.md says why).
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
# hdiutil create fails now and then on the CI runners with "Resource busy" (a Spotlight or
# XProtect scan holding the staged files): retry a few times, waiting longer each time.
attempt=1
until hdiutil create -volname "dpdesk $VERSION" -srcfolder "$STAGE" -fs HFS+ -format UDZO -ov "$OUT"; do
  if [ "$attempt" -ge 5 ]; then
    echo "hdiutil create failed $attempt times; giving up" >&2
    exit 1
  fi
  echo "hdiutil create failed (attempt $attempt); retrying in $((attempt * 10)) s" >&2
  sleep $((attempt * 10))
  attempt=$((attempt + 1))
  rm -f "$OUT"
done
echo "built $OUT"
