"""An instrument as platform-neutral data: per item, the fields a platform shows and stores.

Each item becomes a block of fields: an instruction text, then (two-group designs) the group
question, asked once per respondent however many two-group items share it, then the answer question with dpdesk's codes; a unary (multi-select) item's
instruction text starts with its question, and one tick-box question per option follows. Every exporter writes this plan in its own format, and
:func:`recorded_items` keeps what the import needs to map the answers back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from dpdesk.errors import DesignError
from dpdesk.project.fielding.texts import NOT_TICKED, TICKED, RespondentText, respondent_text

#: ``provider(project, item_name, language, mode=...) -> RespondentText``: where the words come from.
TextProvider = Callable[..., RespondentText]


@dataclass
class Field:
    """One question (or text) on the platform. ``text`` and choice labels are per language."""

    role: str                       # "intro", "group", "answer" or "tick"
    kind: str                       # "text", "single", or "draw": a value the platform draws and records
    text: dict[str, str]
    choices: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    suffix: str = ""                # what the field name adds to the item's base name
    option: str = ""                # unary: the option (category) of this tick box
    name: str = ""                  # set by the format's namer
    #: Shown only when the draw field has this code: ``(draw field, code)`` (an ECWM version's text).
    when: tuple["Field", int] | None = None


@dataclass
class ItemPlan:
    item: str
    design: str
    base: str
    fields: list[Field]
    texts: dict[str, RespondentText]
    responses: tuple[str, ...] = ()
    #: A two-group item after the first with the same group question: that item's group field, asked
    #: once per respondent (the group recorded there is this item's group too); not in ``fields``.
    shared_group: Field | None = None

    def recorded_fields(self) -> list[Field]:
        """The fields the import maps: ``fields``, with the shared group question after the intro."""
        if self.shared_group is None:
            return list(self.fields)
        return [self.fields[0], self.shared_group, *self.fields[1:]]

    def title(self, language: str) -> str:
        """What respondents read as the heading of the item's group or page, in ``language``:
        its question (never the item's short name, which is the researcher's)."""
        return group_title(self.texts[language])


def plan(project, languages=("en",), items=None, provider: TextProvider = respondent_text,
         namer: Callable[[str, str], str] | None = None, mode: str = "online") -> list[ItemPlan]:
    """The fields of each item (all items, or those named), in ``languages`` (first = main).

    ``provider`` gives the words of one item in one language (and refuses a language it has
    no text in); the default is :func:`texts.respondent_text`.
    """
    languages = list(languages or ("en",))
    chosen = project.items() if not items else [project.item(name) for name in items]
    if not chosen:
        raise DesignError("The project has no items to field. Add one with the wizard or `dpdesk item`.")
    namer = namer or redcap_name
    plans, taken, groups = [], set(), {}
    from dpdesk.project.fielding.privacy import check_online

    for item in chosen:
        check_online(item.design, item.name)  # first: a draw no home randomizer gives is the real obstacle
        texts = {lang: provider(project, item.name, lang, mode=mode) for lang in languages}
        found = _problems(item, texts)
        if found:
            raise DesignError(found[0])
        base = _unique(namer(item.name, ""), taken)
        plans.append(_item_plan(item, base, texts, namer, taken, groups))
    return plans


def without_draws(plans: list[ItemPlan]) -> list[ItemPlan]:
    """``plans`` without the fields a platform draws and with every field shown to all (what the
    privacy check reads: a platform draw anywhere else is refused)."""
    from dataclasses import replace

    out = []
    for p in plans:
        fields = [replace(f, when=None) for f in p.fields if f.kind != "draw"]
        out.append(replace(p, fields=fields))
    return out


def problems(project, items=None, mode: str = "online", languages=("en",)) -> list[str]:
    """Why items (all, or those named) cannot be fielded yet in ``languages``, in words (empty when they can)."""
    out = []
    for item in project.items():
        if items is None or item.name in items:
            texts = {}
            for lang in languages or ("en",):
                try:
                    texts[lang] = respondent_text(project, item.name, lang, mode=mode)
                except DesignError as exc:  # e.g. instructions that would not say how to draw the randomizer
                    out.append(str(exc))
            out += _problems(item, texts)
    return out


def _problems(item, texts) -> list[str]:
    from dpdesk.project.fielding.privacy import check_online

    out = []
    try:
        check_online(item.design, item.name)
    except DesignError as exc:
        out.append(str(exc))
    ecwm = getattr(item.design, "name", "") == "ecwm"
    parts = "question A and both versions of question B" if ecwm else "question A and question B"
    for lang, t in texts.items():
        if t.missing:
            out.append(f"Item {item.name!r} cannot be fielded yet: it has no {' and no '.join(t.missing)}"
                       f"{'' if len(texts) == 1 else f' in language {lang!r}'}. Write it in the wizard "
                       f"(Design view, Edit…), or on the command line with `dpdesk text PROJECT {item.name}`, "
                       f"which sets {parts}.")
    return out


def _item_plan(item, base, texts, namer, taken, groups=None) -> ItemPlan:
    """One item's fields. ``groups`` (group question's words -> its field) asks the birthday group
    question once per respondent: a later two-group item with the same words shares that field."""
    main = next(iter(texts.values()))
    per = lambda get: {lang: get(t) for lang, t in texts.items()}  # noqa: E731
    intro = _intro_text if not main.tick_options else _unary_intro  # tick boxes: the question goes first
    fields = [Field("intro", "text", per(intro), suffix="intro")]
    shared = None
    if main.versions:
        fields = _version_fields(per)
    elif main.group_question:
        key = tuple((lang, t.group_question, t.group_options) for lang, t in texts.items())
        shared = None if groups is None else groups.get(key)
        if shared is None:
            group = Field("group", "single", per(lambda t: t.group_question),
                          [(code, per(lambda t, i=i: t.group_options[i][1]))
                           for i, (code, _) in enumerate(main.group_options)], suffix="group")
            fields.append(group)
            if groups is not None:
                groups[key] = group
    if main.tick_options:
        for k, (cat, _) in enumerate(main.tick_options):
            fields.append(Field("tick", "single", per(lambda t, k=k: t.tick_options[k][1]),
                                [(TICKED, per(lambda t: t.tick_labels[0])), (NOT_TICKED, per(lambda t: t.tick_labels[1]))],
                                suffix=str(k + 1), option=cat))
    else:
        fields.append(Field("answer", "single", per(_answer_text),
                            [(code, per(lambda t, i=i: t.options[i][1])) for i, (code, _) in enumerate(main.options)]))
    for f in fields:
        f.name = base if not f.suffix else _unique(namer(base, f.suffix), taken)
    return ItemPlan(item.name, item.design.name, base, fields, texts, main.responses, shared_group=shared)


def _version_fields(per) -> list[Field]:
    """The extended crosswise model: the version the platform draws (recorded: it is the group), then
    each version's page text (its instructions and question B), shown only to that version."""
    from dpdesk.project.fielding.texts import VERSION_FIELD
    from dpdesk.project.languages.versions import VERSION_WORD

    draw = Field("group", "draw", per(lambda t: VERSION_FIELD.get(t.language, VERSION_FIELD["en"])),
                 [(v, per(lambda t, v=v: f"{VERSION_WORD.get(t.language, 'Version')} {v}: {t.versions[v - 1][0]}"))
                  for v in (1, 2)], suffix="version")
    return [draw] + [Field("intro", "text", per(lambda t, v=v: t.version_instructions(v)),
                           suffix="intro" if v == 1 else "intro2", when=(draw, v)) for v in (1, 2)]


def _intro_text(t: RespondentText) -> str:
    return t.full_instructions


def _unary_intro(t: RespondentText) -> str:
    """A unary (multi-select) item's first field: its question, then the instructions (its tick
    boxes carry only the options' names)."""
    return f"{t.question}\n\n{t.full_instructions}"


def group_title(t: RespondentText, limit: int = 100) -> str:
    """An item's group heading: its question (question A of the two-question designs), first line,
    at most ``limit`` characters (LimeSurvey's group names hold 100)."""
    line = (t.question or "").strip().split("\n")[0]
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _answer_text(t: RespondentText) -> str:
    if t.versions:  # question B differs by version: the page above asks it
        from dpdesk.project.fielding.texts import B_ABOVE

        return f"A: {t.question}\nB: {B_ABOVE.get(t.language, B_ABOVE['en'])}"
    if t.question_b:
        return f"A: {t.question}\nB: {t.question_b}"
    return t.question


def _unique(name: str, taken: set) -> str:
    out, i = name, 2
    while out.lower() in taken:
        tail = f"{i}"
        out = name[: max(1, len(name) - len(tail))] + tail
        i += 1
    taken.add(out.lower())
    return out


def redcap_name(base: str, suffix: str, limit: int = 100) -> str:
    """A REDCap / XLSForm field name: lowercase a-z, 0-9 and _, starting with a letter, <= ``limit``."""
    text = f"{base}_{suffix}" if suffix else base
    text = re.sub(r"[^a-z0-9_]+", "_", text.lower()).strip("_") or "item"
    text = re.sub(r"_+", "_", text)
    if not text[0].isalpha():
        text = "q_" + text
    return text[:limit].rstrip("_")


def lime_name(base: str, suffix: str, limit: int = 20) -> str:
    """A LimeSurvey question code: letters and digits only, starting with a letter, <= ``limit``."""
    head = re.sub(r"[^A-Za-z0-9]+", "", base) or "item"
    if not head[0].isalpha():
        head = "q" + head
    tail = suffix[:1].upper() + suffix[1:] if suffix else ""
    return head[: limit - len(tail)] + tail


def seen_text(t: RespondentText) -> dict:
    """What a respondent saw of one item in one language, as the project records it (the report's appendix)."""
    return {"question": t.question, "question_b": t.question_b, "instructions": t.full_instructions,
            "group_question": t.group_question, "group_options": [label for _, label in t.group_options],
            "options": [f"{code} = {label}" for code, label in t.options]
            + [f"{label} ({' / '.join(t.tick_labels)})" for _, label in t.tick_options],
            **({"question_b2": t.versions[1][0],  # the extended crosswise model: each version as its respondents
                # read it (its question B and instructions), and why the answer is private (the same for both)
                "versions": [{"question_b": b, "instructions": body} for b, body in t.versions],
                "why_private": t.why_private} if t.versions else {})}


def recorded_items(plans: list[ItemPlan], extra: Callable[[ItemPlan, Field], dict] | None = None) -> dict:
    """What the import needs per item: field names, codes (with labels) and question texts (the first
    language's as ``text`` and ``choices``, every language's as ``texts`` and ``labels``); and
    under the item's ``texts`` what respondents saw in every language (:func:`seen_text`)."""
    out = {}
    for p in plans:
        lang = next(iter(p.texts))
        entry: dict = {"design": p.design, "fields": []}
        for f in p.recorded_fields():
            rec = {"role": f.role, "name": f.name, "text": f.text.get(lang, ""),
                   "choices": [[code, labels.get(lang, "")] for code, labels in f.choices],
                   # every fielded language: an export in the respondents' language maps too
                   "texts": dict(f.text), "labels": [dict(labels) for _, labels in f.choices]}
            if f.option:
                rec["option"] = f.option
            if extra is not None:
                rec.update(extra(p, f))
            entry["fields"].append(rec)
        entry["responses"] = list(p.responses)
        entry["texts"] = {lang: seen_text(t) for lang, t in p.texts.items()}
        out[p.item] = entry
    return out
