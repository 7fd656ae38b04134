#!/bin/sh
# Install (as root) or name (otherwise) the Debian packages Qt needs for a real display.
# Fonts matter even offscreen: without any, Qt draws every glyph as an empty box.
# "readback" (make test): the tools the suite reads the reports back with, as a reader would: pdfLaTeX on a
# basic TeX (no lmodern), poppler's pdftotext and pdftoppm, LibreOffice for the Word file. About 1-3 min of
# apt in CI, once; without them those tests skip. Never for make run. Java 17 (openjdk-17-jre-headless) too,
# when no Java 17 or later is there, for the Spark tests of linked data.
PKGS="libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxcb-image0 libxcb-render-util0 libxcb-xkb1 libxkbcommon-x11-0 libegl1 libgl1 libfontconfig1 libdbus-1-3 fonts-dejavu-core"
WHAT="Qt system libraries"
java_major() {
  command -v java >/dev/null 2>&1 || { echo 0; return; }
  java -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n 1
}
if [ "${1:-}" = "readback" ]; then
  PKGS="texlive-latex-base texlive-latex-recommended poppler-utils libreoffice-writer-nogui"
  WHAT="report read-back tools"
  # Spark (the linked-data tests on local[2], pip install "dpdesk[spark]") needs Java 17 or later
  major=$(java_major)
  if [ -z "$major" ] || [ "$major" -lt 17 ] 2>/dev/null; then
    PKGS="$PKGS openjdk-17-jre-headless"
    WHAT="report read-back tools and Java 17 for Spark"
  fi
fi
command -v dpkg-query >/dev/null 2>&1 || exit 0
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing $WHAT:$missing"
  (apt-get install -y -qq --no-install-recommends $missing >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends $missing >/dev/null; }) \
    || echo "Could not install:$missing (dpdesk still runs offscreen; read-back tests skip without them)"
else
  echo "Missing $WHAT:$missing"
  echo "Install them with:  sudo apt-get install$missing"
fi
exit 0
