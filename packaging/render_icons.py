"""Render ``dpdesk/resources/icons/dpdesk.svg`` (the icon the app itself uses) to the PNG sizes of the hicolor theme, an .ico and an .icns.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icons.py build/icons

Qt draws the SVG (QSvgRenderer) and writes every format through its image plugins, so the
same script serves the Linux, Windows and macOS builds.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SVG = Path(__file__).resolve().parents[1] / "dpdesk" / "resources" / "icons" / "dpdesk.svg"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def render(size: int):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"{SVG} is not a valid SVG file")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


def main(argv: list[str]) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    out = Path(argv[0] if argv else "build/icons")
    out.mkdir(parents=True, exist_ok=True)
    app = QGuiApplication.instance() or QGuiApplication(["render_icons"])  # noqa: F841 - image plugins need it
    for size in SIZES:
        target = out / f"dpdesk-{size}.png"
        if not render(size).save(str(target), "PNG"):
            raise SystemExit(f"could not write {target}")
    for name, fmt, size in (("dpdesk.ico", "ICO", 256), ("dpdesk.icns", "ICNS", 512)):
        if not render(size).save(str(out / name), fmt):
            print(f"note: Qt has no {fmt} writer here; {name} not written", file=sys.stderr)
    try:  # Windows shows small icons best from an .ico holding every size; Pillow (with matplotlib) writes one
        from PIL import Image

        sizes = [(s, s) for s in SIZES if s <= 256]
        Image.open(out / "dpdesk-256.png").save(out / "dpdesk.ico", sizes=sizes)
    except ImportError:
        pass
    print(f"icons written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
