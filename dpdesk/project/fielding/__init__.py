"""Field a project's items where researchers field surveys: Qualtrics, LimeSurvey, REDCap, ODK/Kobo.

:func:`export_instrument` writes the items as an instrument the platform imports (a QSF or
Advanced TXT file for Qualtrics, LimeSurvey's tab-separated structure, a REDCap data
dictionary, an XLSForm), with a README beside it on switching off the platform's own data
that could undo the protection, and records in the project what was exported.
The words come from one function per language (:func:`texts.respondent_text`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dpdesk.errors import DesignError

FORMATS = ("qsf", "qualtrics-txt", "limesurvey", "redcap", "xlsform")
#: How the app and the guide name each format.
FORMAT_NAMES = {"qsf": "Qualtrics survey file (.qsf)", "qualtrics-txt": "Qualtrics Advanced TXT (.txt)",
                "limesurvey": "LimeSurvey survey structure (.txt)", "redcap": "REDCap data dictionary (.csv)",
                "xlsform": "XLSForm for ODK / KoboToolbox (.xlsx)"}


@dataclass(frozen=True)
class Exported:
    """What :func:`export_instrument` wrote: the files (the instrument first, then the README)."""

    files: tuple[Path, ...]
    instrument_id: int | None
    items: tuple[str, ...]


def format_module(fmt: str):
    from importlib import import_module

    if fmt not in FORMATS:
        raise DesignError(f"Unknown format {fmt!r}. Use one of: {', '.join(FORMATS)}.")
    return import_module(f"dpdesk.project.fielding.{fmt.replace('-', '_')}")


def export_instrument(project, out, format: str, languages=("en",), items=None, *, mode: str = "online",
                      provider=None, record: bool = True) -> Exported:
    """Write ``project``'s items (all, or those named) as a ``format`` instrument at ``out``.

    ``mode``: ``"online"`` (respondents fill it in) or ``"interview"`` (an interviewer reads it
    from a tablet or laptop); either way the randomizer stays with the respondent.
    Raises :class:`DesignError` for a design the platform would have to randomize (with
    a suggestion), an unknown format or language. Further languages go in the same file where
    the format allows, else in ``<out>_<lang>.<ext>``. ``record=False`` leaves the project as
    it was (nothing remembered).
    """
    from dpdesk.project.fielding import instrument
    from dpdesk.project.fielding.privacy import forbidden_constructs, readme
    from dpdesk.project.fielding.store import record_instrument
    from dpdesk.project.fielding.texts import respondent_text

    module = format_module(format)
    languages = list(dict.fromkeys(languages or ("en",)))
    plans = instrument.plan(project, languages, items, provider or respondent_text, module.namer, mode)
    title = Path(project.path).stem if getattr(project, "path", None) else "dpdesk survey"
    rendered = module.render(plans, languages, title)
    copy = {suffix: (module.as_text(plans, languages, title) if isinstance(data, bytes) else data)
            for suffix, data in rendered.items()}
    # The platform may draw one thing only: an extended crosswise item's version (dpdesk's own construct,
    # never the answer). Everything else, the researcher's words included, is checked without it.
    checked = instrument.without_draws(plans)
    for data in module.render(checked, languages, title).values():
        text = module.as_text(checked, languages, title) if isinstance(data, bytes) else data
        found = forbidden_constructs(format, text)
        if found:  # a researcher's own words asking for a platform draw: never exported
            raise DesignError(f"The instrument would contain {found[0]!r}, a platform draw that could store the "
                              f"randomization. Remove it from the item's question or instructions.")
    out = Path(out)
    stem = out.with_suffix("") if out.suffix.lower() == module.EXTENSION else out
    files = []
    for suffix, data in rendered.items():
        files.append(_write(Path(f"{stem}{suffix}"), data))
    files.append(_write(Path(f"{stem}-README.txt"), readme(format, plans)))
    extra = getattr(module, "extra", None)
    recorded = instrument.recorded_items(plans, extra(plans) if extra else None)
    instrument_id = record_instrument(project, format, languages, recorded, copy, mode) if record else None
    return Exported(tuple(files), instrument_id, tuple(p.item for p in plans))


def _write(path: Path, data) -> Path:
    """Write atomically: a temporary file beside ``path``, then renamed over it."""
    tmp = path.with_name(f".{path.name}.tmp")
    if isinstance(data, bytes):
        tmp.write_bytes(data)
    else:
        tmp.write_text(data, encoding="utf-8", newline="")
    os.replace(tmp, path)
    return path
