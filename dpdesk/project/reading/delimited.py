"""Delimited text (CSV, TSV, European ``;`` CSV) into a data frame, with progress.

Steps: check the encoding of every byte (:mod:`read_encoding`), sniff the delimiter among
``,`` ``;`` tab ``|`` from the first records (the one giving the same number of fields on
every record wins), sniff a decimal comma (``1,5`` under a ``;`` delimiter, as European
Excel writes), read the header rows and recognise the platform (:mod:`read_platforms`),
then parse with pandas' C parser reading through a byte counter that reports progress and
lets the callback cancel between blocks. Blanks are missing; ``NA``, ``None`` and the like
stay text (they may be real answers).
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import os
import re
import warnings

from dpdesk.errors import DataError
from dpdesk.project.reading.option_words import choose

MAX_COLUMNS = 16_384  # Excel's limit; more is a wrong delimiter or a transposed file
DELIMITERS = (",", ";", "\t", "|")
_SAMPLE = 1 << 18
_DECIMAL_COMMA = re.compile(r"^-?\d+,\d+$")
_DECIMAL_POINT = re.compile(r"^-?\d+\.\d+$")
_FIELDS = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_EOF_QUOTE = re.compile(r"EOF inside string starting at row (\d+)")
_SEP_HINT = re.compile(r"\A\ufeff?sep=(.)(?:\r\n|\r|\n)", re.IGNORECASE)
_BLANK_LINES = re.compile(r"\A\ufeff?(?:[ \t,;|]*(?:\r\n|\r|\n))*")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SPELLED = {"\\t": "\t", "tab": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}
_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


def read_text(path: str, report, overrides: dict, progress):
    """Read a delimited text file; fill ``report``; return the frame and the file's SHA-256."""
    from dpdesk.project.reading import encoding, platforms

    name = os.path.basename(path)
    encoding, notes, sha256 = encoding.detect_encoding(path, overrides.get("encoding"),
                                                    lambda f: progress(0.15 * f))
    report.encoding = encoding
    report.warnings.extend(notes)
    sample, complete = _sample(path, encoding)
    if not sample.strip():
        raise DataError(f"{name}: the file holds only blank lines or spaces, no data. Export the "
                        f"data again and check that the export finished.")
    blank = _BLANK_LINES.match(sample)  # empty lines (or only delimiters) above the header
    skipped = len(_LINE_BREAK.findall(blank.group(0)))
    offset = _byte_length(blank.group(0), encoding)
    if skipped:
        report.warnings.append(f"Skipped {skipped} blank line(s) above the header.")
    sample = sample[blank.end():]
    hint = _SEP_HINT.match(sample)  # Excel's "sep=;" first line names the delimiter
    if hint:
        sample = sample[hint.end():]
    lines = sample
    sample = _unix(sample)  # classic Mac (CR-only) lines too
    delimiter = overrides.get("delimiter")
    delimiter = _SPELLED.get(str(delimiter).lower(), delimiter) if delimiter else None
    delimiter = delimiter or (hint.group(1) if hint else None) or sniff_delimiter(sample, complete, path)
    if len(delimiter) != 1 or delimiter in '"\r\n':
        raise DataError(f"{name}: delimiter {delimiter!r} cannot be used; give one character such "
                        f"as ',' ';' '\\t' or '|'.")
    report.delimiter = delimiter
    rows = _first_records(sample, complete, delimiter, name)
    title = 0 if hint or overrides.get("header_rows") is not None else _title_lines(rows, lines)
    if title:
        report.warnings.append(f"Skipped {len(_LINE_BREAK.findall(title))} line(s) above the header that look "
                               f"like a title ({_short(rows[0])}). To read the top line as the header instead, "
                               f"set the header rows to 1 (or more): {choose('header_rows', '1')}.")
        rows = _first_records(_unix(lines[len(title):]), complete, delimiter, name)
        skipped += len(_LINE_BREAK.findall(title))
        offset = None if offset is None else offset + _byte_length(title, encoding)
    width = max(len(r) for r in rows)
    if width > MAX_COLUMNS:
        raise DataError(f"{name}: the first rows have {width:,} columns; dpdesk reads at most {MAX_COLUMNS:,} "
                        f"(as Excel). Check the delimiter (found {_NAMES.get(delimiter, delimiter)}"
                        f"), or if the file is transposed (one respondent per column), transpose it.")
    decimal = overrides.get("decimal") or sniff_decimal(rows[1:], delimiter)
    if decimal not in (".", ","):
        raise DataError(f"{name}: the decimal mark {decimal!r} is neither a point nor a comma, so numbers "
                        f"cannot be read. Say which it is: {choose('decimal', '.')}.")
    if decimal == delimiter:
        raise DataError(f"{name}: the decimal mark and the delimiter are both {decimal!r}, so values and "
                        f"numbers cannot be told apart. A European CSV has ';' between values and ',' in "
                        f"numbers: set the delimiter ({choose('delimiter', ';')}) or the decimal mark "
                        f"({choose('decimal', '.')}).")
    report.decimal = decimal
    lay = platforms.layout(rows, overrides.get("platform"), overrides.get("header_rows"))
    if lay.platform is None and overrides.get("header_rows") is None:
        from dpdesk.project.reading import header_rows

        block = header_rows.group_row(rows, 0, skipped + (1 if hint else 0) + 1)  # group names above the names
        if block is not None:
            lay = header_rows.apply(block, lay)
    if overrides.get("header_rows") is None and lay.platform is None and lay.header_rows == 1:
        from dpdesk.project.reading import headerless

        reason = headerless.likely_no_header(rows)
        if reason:
            lay.warnings.append(headerless.warning(reason, skipped + (1 if hint else 0) + 1))
    text_columns = _text_columns(rows[lay.header_rows:], decimal)
    above = lay.header_rows + (1 if hint else 0)  # the "sep=" line is one more row above the data
    named = len(rows[lay.header_rows - 1]) if lay.header_rows else None  # fields of the (last) header row
    frame = _parse(path, encoding, delimiter, decimal, above, name, progress, text_columns, (skipped, offset), named)
    frame = _booleans(frame)
    return name_columns(frame, lay, report, name, skipped=skipped + (1 if hint else 0)), sha256


def _title_lines(rows: list[list[str]], lines: str) -> str:
    """The text of the title lines above the header (:func:`shape.title_rows`), or ``""``."""
    from dpdesk.project.reading.shape import title_rows

    k = title_rows(rows[:25])
    if not k or any("\n" in cell or "\r" in cell for row in rows[:k] for cell in row):
        return ""
    match = re.match(rf"(?:(?:\r\n|\r|\n)*[^\r\n]*(?:\r\n|\r|\n)){{{k}}}(?:\r\n|\r|\n)*", lines)
    return match.group(0) if match else ""


def _unix(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _short(row: list[str], limit: int = 60) -> str:
    text = " ".join(c.strip() for c in row if c.strip())
    return repr(text if len(text) <= limit else text[:limit - 3] + "...")


def _booleans(frame):
    """Text columns of only True/False (any case) as booleans, as pandas 3's parser gives them
    (pandas 2 keeps the words as text)."""
    import pandas as pd

    truth = {"true": True, "false": False}
    for column in frame.columns:
        series = frame[column]
        if not isinstance(series.dtype, pd.CategoricalDtype) or not len(series.cat.categories):
            continue
        words = [c.lower() if isinstance(c, str) else None for c in series.cat.categories]
        if all(w in truth for w in words):
            frame[column] = series.astype(object).map(lambda v: truth.get(v.lower()) if isinstance(v, str) else v
                                                      ).astype("category")
    return frame


def _byte_length(text: str, encoding: str) -> int | None:
    """Bytes of ``text`` at the start of the file (None for UTF-16/32, read from the start)."""
    codec = encoding.replace("_", "-").lower()
    if codec.startswith(("utf-16", "utf-32")):
        return None
    if codec == "utf-8-sig":
        return len(codecs.BOM_UTF8) + len(text.encode("utf-8"))
    return len(text.encode(encoding))


def _sample(path: str, encoding: str) -> tuple[str, bool]:
    """The decoded start of the file: at least 64 lines or 256 KiB, at most 32 MiB."""
    with open(path, "rb") as handle:
        wrapper = io.TextIOWrapper(handle, encoding=encoding, newline="")
        text = wrapper.read(_SAMPLE)
        while text.count("\n") + text.count("\r") < 64 and len(text) < (1 << 25):
            more = wrapper.read(len(text))
            if not more:
                return text, True
            text += more
        complete = not wrapper.read(1)
    return text, complete


def sniff_delimiter(sample: str, complete: bool, path: str = "") -> str:
    """The candidate delimiter giving the same (largest) number of fields on every record."""
    lines = sample.split("\n")
    if not complete and len(lines) > 1:
        lines = lines[:-1]
    text = "\n".join(lines[:200])
    best, best_score = ",", (-1.0, 0)
    for delimiter in DELIMITERS:
        try:
            counts = [len(r) for r in itertools.islice(csv.reader(io.StringIO(text), delimiter=delimiter), 100) if r]
        except csv.Error:
            continue
        if not counts:
            continue
        mode = max(set(counts), key=counts.count)
        share = counts.count(mode) / len(counts)
        score = (share if mode > 1 else 0.0, mode)
        if path.lower().endswith((".tsv", ".tab")) and delimiter == "\t" and mode > 1:
            score = (2.0, mode)
        if score > best_score:
            best, best_score = delimiter, score
    if best_score[0] <= 0 and sample.count("\t") > sample.count(","):
        best = "\t"
    return best


def sniff_decimal(rows: list[list[str]], delimiter: str) -> str:
    """``","`` when numbers like ``1,5`` outnumber ``1.5`` (never with a comma delimiter)."""
    if delimiter == ",":
        return "."
    comma = point = 0
    for row in rows[:200]:
        for cell in row:
            cell = cell.strip()
            comma += bool(_DECIMAL_COMMA.match(cell))
            point += bool(_DECIMAL_POINT.match(cell))
    return "," if comma > point else "."


def _first_records(sample: str, complete: bool, delimiter: str, name: str) -> list[list[str]]:
    from dpdesk.project.reading.shape import MAX_CELL

    if csv.field_size_limit() < MAX_CELL:
        csv.field_size_limit(MAX_CELL)  # the same limit as for cells further down the file
    try:
        rows = list(itertools.islice(csv.reader(io.StringIO(sample), delimiter=delimiter), 60))
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise DataError(f"{name}: a value near the top of the file is longer than "
                            f"{csv.field_size_limit():,} characters, usually a quote (\") that is opened and never closed. "
                            f"Fix the quotes in the file (or save it again from Excel).") from None
        raise DataError(f"{name}: the first rows cannot be split into fields ({exc}). Check the "
                        f"quotes and the delimiter; if the delimiter is wrong, {choose('delimiter', ';')}.") from None
    if not complete and len(rows) > 1:
        rows = rows[:-1]  # the last record of a cut sample may be incomplete
    rows = [r for r in rows if r] or [[]]
    return rows


class _Counter:
    """A binary file that reports the share of bytes read; the callback may cancel.

    pandas' C parser calls ``read`` for blocks of 256 KiB, so progress (and a chance to
    cancel) comes every 256 KiB of the file.
    """

    def __init__(self, handle, size: int, progress):
        self.handle, self.size, self.progress, self.done = handle, max(1, size), progress, 0

    def read(self, size: int = -1) -> bytes:
        data = self.handle.read(size)
        self.done += len(data)
        self.progress(0.15 + 0.75 * self.done / self.size)
        return data

    def readable(self) -> bool:
        return True

    def __iter__(self):
        return iter(self.handle)


class _RawCounter(io.RawIOBase):
    """The same as a raw stream, for encodings pandas decodes through ``io.TextIOWrapper``."""

    def __init__(self, counter: _Counter):
        self.counter = counter

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.counter.read(min(len(buffer), 1 << 18))
        buffer[: len(data)] = data
        return len(data)


def _text_columns(rows: list[list[str]], decimal: str) -> dict:
    """Columns whose sampled values include text: parsed straight into categories (fast, small)."""
    if not rows:
        return {}
    width = len(rows[0])
    text = set()
    for row in rows:
        for j, cell in enumerate(row[:width]):
            if j in text or not cell.strip():
                continue
            try:
                float(cell.replace(decimal, ".") if decimal == "," else cell)
            except ValueError:
                text.add(j)
    return {j: "category" for j in sorted(text)}


def _parse(path, encoding, delimiter, decimal, header_rows, name, progress, dtypes=None, blank=(0, 0),
           named=None, padded=False):
    """The data rows below ``header_rows``; ``blank`` is (lines, bytes) of blank lines above them.

    The blank lines are skipped by their byte length (pandas' ``skiprows`` miscounts empty
    lines in files with CR-only line ends), unless the encoding is UTF-16/32. ``named``: the
    header's number of fields. pandas expects every row to have as many fields as the first
    data row; when a later row has more but no more than the header (the first rows left
    their last answers out), the file is parsed again with the header's width, shorter rows
    ending in blanks (``padded``).
    """
    import pandas as pd

    from dpdesk.project.reading import chunks

    options = dict(sep=delimiter, decimal=decimal, keep_default_na=False, na_values=[""],
                   skip_blank_lines=False, engine="c", quotechar='"', doublequote=True,
                   dtype=dtypes or None, names=list(range(named)) if padded else None)
    watched = getattr(progress, "callback", None) is not None
    if chunks.eligible(path, encoding):  # large UTF-8: pieces on threads, less memory
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frame = chunks.parse(path, options, blank[0] + header_rows, progress)
        if frame is not None:
            return frame
    size = os.path.getsize(path)
    lines, offset = blank
    skip, above = header_rows, lines  # above: lines before the stream pandas reads (not in its line numbers)
    if offset is None:
        skip, offset, above = lines + header_rows, 0, 0
    with open(path, "rb") as raw:
        raw.seek(offset)
        if not watched and not offset:
            stream = path  # nobody is watching: let pandas read the path (in parallel if it can)
        elif not watched:
            stream = raw
        else:
            stream = _Counter(raw, size, progress)
            stream.done = offset
            if encoding.replace("_", "-").lower() not in ("utf-8", "utf8", "utf-8-sig"):
                stream = io.BufferedReader(_RawCounter(stream), 1 << 18)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return pd.read_csv(stream, header=None, skiprows=skip, encoding=encoding, **options)
        except pd.errors.EmptyDataError:
            raise DataError(f"{name}: there are no data rows below the {header_rows} header "
                            f"row(s). Export the responses again (check filters); if the header is shorter, "
                            f"{choose('header_rows', '1')}.") from None
        except pd.errors.ParserError as exc:
            fields = _FIELDS.search(str(exc))
            if padded or not fields or not named or int(fields.group(3)) > named:
                raise _parser_error(exc, name, delimiter, named, above) from None
        except UnicodeDecodeError as exc:
            raise DataError(f"{name}: bytes that are not {encoding} ({exc.reason}). Save the file "
                            f"as 'CSV UTF-8', or name its encoding: {choose('encoding', 'cp1252')}.") from None
    return _parse(path, encoding, delimiter, decimal, header_rows, name, progress, dtypes, blank, named, True)


def _parser_error(exc, name: str, delimiter: str, named: int | None = None, above: int = 0) -> DataError:
    """``named``: the header's number of fields; ``above``: lines before what pandas numbered."""
    text = str(exc)
    fields = _FIELDS.search(text)
    if fields:
        want, line, saw = fields.groups()
        line = int(line) + above
        compared = f"the header has {named} names" if named and int(saw) > named else f"the rows above have {want}"
        return DataError(f"{name}: row {line} has {saw} fields but {compared} "
                         f"(delimiter: {_NAMES.get(delimiter, repr(delimiter))}). A value there "
                         f"probably contains the delimiter without quotes, or a quote is "
                         f"unbalanced. Fix row {line}; if the delimiter is wrong, {choose('delimiter', ';')}.")
    eof = _EOF_QUOTE.search(text)
    if eof:
        return DataError(f"{name}: a quoted value starting near row {int(eof.group(1)) + 1} is never "
                         f"closed, so the rest of the file would be one cell. Add the missing "
                         f"quote (\") or remove the stray one.")
    return DataError(f"{name}: the text cannot be split into rows and columns ({' '.join(text.split())[:200]})."
                     f" Check the quotes; if the delimiter is wrong, {choose('delimiter', ';')}.")


def name_columns(frame, lay, report, name: str, skipped: int = 0):
    """Give the parsed columns the header's names; drop empty unnamed columns.

    ``skipped`` blank rows were above the header (they count in the row numbers).
    """
    import pandas as pd

    names = list(lay.names)
    width = frame.shape[1]
    named = lay.header_width if lay.header_width is not None else len(names)
    if width > named:
        extra = frame.iloc[:, named:]
        filled = extra.notna().any(axis=1)
        if filled.any():
            position = int(filled.to_numpy().argmax())
            row = position + skipped + lay.header_rows + 1
            raise DataError(f"{name}: row {row} has {width} fields but the header has "
                            f"{named} names. Add names for the extra columns, or remove "
                            f"the stray delimiter(s) at the end of row {row}.")
    if width > len(names):
        names += [f"column_{i + 1}" for i in range(len(names), width)]
        lay.blank_names.extend(names[len(lay.names):])
    frame.columns = pd.Index(range(width))
    for i in range(width, len(names)):
        frame[i] = float("nan")
    frame.columns = names
    report.header_rows = lay.header_rows
    report.first_data_row = skipped + lay.header_rows + 1
    report.platform = lay.platform
    report.variable_labels.update(lay.labels)
    report.import_ids.update(lay.import_ids)
    report.warnings.extend(lay.warnings)
    blank = [c for c in lay.blank_names if c in frame.columns]
    return _drop_blank(frame, blank, report)


def _drop_blank(frame, blank: list[str], report):
    empty = [c for c in blank if frame[c].isna().all()]
    if empty:
        frame = frame.drop(columns=empty)
        for column in empty:
            report.excluded_columns.append({"column": column, "reason": "no name and no values (blank column)"})
        report.warnings.append(f"Dropped {len(empty)} blank column(s) without a name or values "
                               f"({', '.join(empty[:5])}{' ...' if len(empty) > 5 else ''}).")
    for column in (c for c in blank if c not in empty):
        report.warnings.append(f"A column without a name has values; it is called '{column}'.")
    return frame
