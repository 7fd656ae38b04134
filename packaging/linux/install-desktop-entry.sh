#!/bin/sh
# Portable dpdesk: add it to this user's applications menu, and make it open *.dpdesk files.
#   ./install-desktop-entry            install (into ${XDG_DATA_HOME:-~/.local/share})
#   ./install-desktop-entry --remove   remove what install put there
# Writes only under your home: applications/dpdesk.desktop (Exec = this folder's dpdesk launcher),
# mime/packages/dpdesk.xml and icons/hicolor/*/{apps,mimetypes}; then refreshes the desktop and
# MIME databases where their tools are installed (desktop-file-utils, shared-mime-info).
set -eu
HERE=$(dirname "$(readlink -f "$0")")
DATA=${XDG_DATA_HOME:-$HOME/.local/share}
SIZES="16 24 32 48 64 128 256 512"

refresh() {
  command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$DATA/applications" || true
  command -v update-mime-database >/dev/null 2>&1 && update-mime-database "$DATA/mime" >/dev/null 2>&1 || true
  command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$DATA/icons/hicolor" 2>/dev/null || true
}

if [ "${1:-}" = "--remove" ]; then
  rm -f "$DATA/applications/dpdesk.desktop" "$DATA/mime/packages/dpdesk.xml"
  for size in $SIZES; do
    rm -f "$DATA/icons/hicolor/${size}x${size}/apps/dpdesk.png" \
          "$DATA/icons/hicolor/${size}x${size}/mimetypes/application-x-dpdesk-project.png"
  done
  rm -f "$DATA/icons/hicolor/scalable/apps/dpdesk.svg" "$DATA/icons/hicolor/scalable/mimetypes/application-x-dpdesk-project.svg"
  refresh
  echo "dpdesk: removed the menu entry and the .dpdesk file type from $DATA"
  exit 0
fi

mkdir -p "$DATA/applications" "$DATA/mime/packages"
# Exec and TryExec: the absolute path of this folder's launcher, quoted for the desktop-entry spec.
LAUNCHER=$HERE/dpdesk
case $LAUNCHER in
  *[\"\`\$\\%]*) echo "dpdesk: the folder's path ($HERE) has a character a menu entry cannot hold (\" \` \$ \\ %); move it, then run this again" >&2; exit 1;;
  *" "*) QUOTED="\"$LAUNCHER\"";;
  *) QUOTED=$LAUNCHER;;
esac
TMP=$DATA/applications/.dpdesk.desktop.tmp
sed -e "s|^Exec=dpdesk |Exec=$QUOTED |" -e "s|^TryExec=dpdesk$|TryExec=$LAUNCHER|" "$HERE/share/dpdesk.desktop" > "$TMP"
mv "$TMP" "$DATA/applications/dpdesk.desktop"
install -m 644 "$HERE/share/mime/dpdesk.xml" "$DATA/mime/packages/dpdesk.xml"
for size in $SIZES; do
  for kind in apps mimetypes; do mkdir -p "$DATA/icons/hicolor/${size}x${size}/$kind"; done
  install -m 644 "$HERE/share/icons/dpdesk-$size.png" "$DATA/icons/hicolor/${size}x${size}/apps/dpdesk.png"
  install -m 644 "$HERE/share/icons/dpdesk-$size.png" "$DATA/icons/hicolor/${size}x${size}/mimetypes/application-x-dpdesk-project.png"
done
mkdir -p "$DATA/icons/hicolor/scalable/apps" "$DATA/icons/hicolor/scalable/mimetypes"
install -m 644 "$HERE/share/icons/dpdesk.svg" "$DATA/icons/hicolor/scalable/apps/dpdesk.svg"
install -m 644 "$HERE/share/icons/dpdesk.svg" "$DATA/icons/hicolor/scalable/mimetypes/application-x-dpdesk-project.svg"
refresh
echo "dpdesk: added to your applications menu ($DATA/applications/dpdesk.desktop -> $LAUNCHER);"
echo "        .dpdesk files open with it. Undo: $HERE/install-desktop-entry --remove"
