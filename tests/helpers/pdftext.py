"""Read the text back from a PDF written by QPdfWriter (for tests and the self-test).

Qt writes text as glyph ids (``<0001> Tj``) of subset fonts, each with a ``/ToUnicode``
CMap. This small reader maps them back to text: enough to check that a card says what
it should, without a PDF library. Words are joined by spaces in drawing order.
"""

from __future__ import annotations

import re
import zlib

_OBJ = re.compile(rb"(\d+) 0 obj(.*?)endobj", re.S)
_STREAM = re.compile(rb"stream\r?\n(.*?)\r?\nendstream", re.S)


def _objects(data: bytes) -> dict[int, bytes]:
    return {int(m.group(1)): m.group(2) for m in _OBJ.finditer(data)}


def _stream(obj: bytes, objs: dict[int, bytes] | None = None) -> bytes:
    """The object's stream, decompressed; its /Length (direct or an object of its own) says where it ends,
    since compressed data may itself end in a carriage return."""
    m = _STREAM.search(obj)
    if not m:
        return b""
    raw = m.group(1)
    head = obj.split(b"stream", 1)[0]
    length = re.search(rb"/Length\s+(\d+)(\s+0\s+R)?", head)
    if length:
        n = length.group(1) if not length.group(2) else (objs or {}).get(int(length.group(1)), b"").strip()
        if n.isdigit():
            raw = obj[m.start(1):m.start(1) + int(n)]
    if b"/FlateDecode" in head:
        try:
            return zlib.decompress(raw)
        except zlib.error:
            return b""
    return raw


def _cmap(text: bytes) -> dict[int, str]:
    out: dict[int, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", text, re.S):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[int(src, 16)] = bytes.fromhex(dst.decode()).decode("utf-16-be", "replace")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", text, re.S):
        for lo, hi, rest in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(\[[^\]]*\]|<[0-9A-Fa-f]+>)", block):
            lo_i, hi_i = int(lo, 16), int(hi, 16)
            if rest.startswith(b"["):
                for k, dst in enumerate(re.findall(rb"<([0-9A-Fa-f]+)>", rest)):
                    out[lo_i + k] = bytes.fromhex(dst.decode()).decode("utf-16-be", "replace")
            else:
                start = int(rest[1:-1], 16)
                for k in range(hi_i - lo_i + 1):
                    out[lo_i + k] = chr(start + k)
    return out


def page_count(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", data))


def _fonts(objs: dict[int, bytes]) -> dict[bytes, dict[int, str]]:
    fonts: dict[bytes, dict[int, str]] = {}
    for obj in objs.values():
        for name, ref in re.findall(rb"/(F\d+)\s+(\d+)\s+0\s+R", obj):
            font = objs.get(int(ref), b"")
            m = re.search(rb"/ToUnicode\s+(\d+)\s+0\s+R", font)
            if m:
                fonts[name] = _cmap(_stream(objs.get(int(m.group(1)), b""), objs))
    return fonts


def _words(content: bytes, fonts: dict[bytes, dict[int, str]]) -> list[str]:
    words: list[str] = []
    current: dict[int, str] = {}
    line: list[str] = []
    for token in re.finditer(rb"/(F\d+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f]+)>\s*Tj|ET", content):
        if token.group(1):
            current = fonts.get(token.group(1), {})
        elif token.group(2):
            hexs = token.group(2).decode()
            line.append("".join(current.get(int(hexs[i:i + 4], 16), "?") for i in range(0, len(hexs), 4)))
        else:
            words.append("".join(line))
            line = []
    words.append("".join(line))
    return words


def _joined(words: list[str]) -> str:
    return " ".join(" ".join(w.split()) for w in words if w.strip())


def pdf_text(data: bytes) -> str:
    """The text drawn on all pages, as one string (glyphs mapped through each font's CMap)."""
    objs = _objects(data)
    fonts = _fonts(objs)
    words: list[str] = []
    for obj in objs.values():
        content = _stream(obj, objs)
        if b" Tf" not in content:
            continue
        words += _words(content, fonts)
    return _joined(words)


def page_texts(data: bytes) -> list[str]:
    """The text of each page, in page order (the ``/Kids`` of the page tree), as :func:`pdf_text` writes it."""
    objs = _objects(data)
    fonts = _fonts(objs)
    order: list[int] = []

    def walk(number: int) -> None:
        obj = objs.get(number, b"")
        kids = re.search(rb"/Kids\s*\[([^\]]*)\]", obj)
        if re.search(rb"/Type\s*/Pages", obj) and kids:
            for ref in re.findall(rb"(\d+)\s+0\s+R", kids.group(1)):
                walk(int(ref))
        elif re.search(rb"/Type\s*/Page(?![a-z])", obj):
            order.append(number)

    root = next((n for n, o in objs.items() if re.search(rb"/Type\s*/Pages", o)
                 and not re.search(rb"/Parent", o)), None)
    if root is not None:
        walk(root)
    out = []
    for number in order:
        page = objs[number]
        m = re.search(rb"/Contents\s*(\[[^\]]*\]|\d+\s+0\s+R)", page)
        refs = re.findall(rb"(\d+)\s+0\s+R", m.group(1)) if m else []
        words: list[str] = []
        for ref in refs:
            words += _words(_stream(objs.get(int(ref), b""), objs), fonts)
        out.append(_joined(words))
    return out
