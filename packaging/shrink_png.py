"""The user guide's screenshots as 256-colour PNGs in the bundle (used by ``dpdesk.spec``).

The guide (dpdesk/resources/guide/) carries 62 screenshots, 6.0 MB of lossless PNG. Screenshots of
the app are flat colours and grey-antialiased text, so a 256-colour palette (median cut, no
dithering) keeps them readable at 2.3 MB: 3.7 MB off the installed size and the .deb. The
repository's copies (docs/screenshots/, the guide's copy checked by tests/packaging/test_guide.py)
and the wheel keep the originals; only the frozen bundle carries these.
"""

from __future__ import annotations

from pathlib import Path


def palette_png(src: Path, target: Path) -> Path:
    """Write ``src`` as a 256-colour PNG to ``target`` (reused while newer than ``src``) and return it."""
    from PIL import Image

    src, target = Path(src), Path(target)
    if not target.exists() or target.stat().st_mtime < src.stat().st_mtime:
        target.parent.mkdir(parents=True, exist_ok=True)
        with Image.open(src) as im:
            small = im.convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        partial = target.with_name(target.name + ".part")
        small.save(partial, "PNG", optimize=True)
        partial.replace(target)
    return target
