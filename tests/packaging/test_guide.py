"""The user guide ships inside the package, up to date, with every link and anchor in place."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

PACKAGE = ROOT / "dpdesk"
SHIPPED = PACKAGE / "resources" / "guide"


def _tool():
    spec = importlib.util.spec_from_file_location("build_guide", ROOT / "tools" / "build_guide.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_copy_is_up_to_date():
    problems = _tool().stale()
    assert problems == [], "dpdesk/resources/guide is out of date: run `make guide`\n" + "\n".join(problems)


def test_the_app_reads_the_package_copy_not_docs():
    from dpdesk.gui.help import guide

    assert guide.guide_folder().resolve() == SHIPPED.resolve()
    assert not guide.guide_folder().resolve().is_relative_to((ROOT / "docs").resolve())


def test_pyproject_package_data_ships_every_guide_file():
    """The wheel carries the guide: some package-data pattern of pyproject.toml matches each file."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    covered = set()
    for package, patterns in data.items():
        folder = ROOT.joinpath(*package.split("."))
        for pattern in patterns:
            covered |= {p.resolve() for p in folder.glob(pattern) if p.is_file()}
    files = {p.resolve() for p in SHIPPED.rglob("*") if p.is_file()}
    assert files, "no guide shipped"
    missing = sorted(str(p.relative_to(ROOT)) for p in files - covered)
    assert not missing, f"add the guide to [tool.setuptools.package-data] in pyproject.toml: {missing}"


def _links(text: str):
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    return re.findall(r"!?\[[^\]]*\]\(<?([^)>\s]+)>?(?:\s+\"[^\"]*\")?\)", text)


def test_every_link_of_the_shipped_guide_resolves():
    """Pages, headings (as GitHub names them) and screenshots: everything a page points to is shipped."""
    from dpdesk.gui.help import guide

    pages = sorted(SHIPPED.glob("*.md"))
    assert {p.name for p in pages} >= {"index.md", "getting-started.md", "design.md", "data.md", "results.md",
                                       "tabulate.md", "export.md", "share.md"}
    anchors = {p.name: set(guide.anchors(guide.headings(p))) for p in pages}
    bad = []
    for page in pages:
        for link in _links(page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", link):
                continue
            path, _, anchor = link.partition("#")
            target = (page.parent / path).resolve() if path else page.resolve()
            if not target.is_relative_to(SHIPPED.resolve()) or not target.exists():
                bad.append(f"{page.name}: {link} (not shipped)")
            elif anchor and target.suffix == ".md" and anchor not in anchors[target.name]:
                bad.append(f"{page.name}: {link} (no such heading)")
    assert not bad, "\n".join(bad)


def test_every_view_has_its_page_and_heading():
    from dpdesk.gui.help import guide
    from dpdesk.gui.help.pages import CONTENTS, VIEW_PAGES
    from dpdesk.gui.shell.tasks import TASKS

    assert set(TASKS) <= set(VIEW_PAGES)
    for view, (page, anchor) in {**VIEW_PAGES, "contents": CONTENTS}.items():
        path = SHIPPED / page
        assert path.is_file(), f"{view}: {page} is not shipped"
        if anchor:
            assert anchor in guide.anchors(guide.headings(path)), f"{view}: no heading #{anchor} in {page}"


def test_contents_follow_the_index():
    from dpdesk.gui.help import guide

    pages = [page for page, _ in guide.contents()]
    assert pages[:5] == ["index.md", "getting-started.md", "design.md", "data.md", "results.md"]
    assert set(pages) == {p.name for p in SHIPPED.glob("*.md")}


def test_ecwm_page_is_next_to_results_and_the_contents_count_one_by_one():
    """A reader looking for the extended crosswise model finds it beside Results, not last."""
    import re

    from dpdesk.gui.help import guide

    pages = [page for page, _ in guide.contents()]
    assert pages.index("ecwm.md") == pages.index("results.md") + 1
    index = (SHIPPED / "index.md").read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", index, flags=re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_slugs_match_github():
    from dpdesk.gui.help import guide

    assert guide.slug("The wizard: New survey item") == "the-wizard-new-survey-item"
    assert guide.slug("Excel workbook (.xlsx)") == "excel-workbook-xlsx"
    assert guide.slug("Setting the budget (ε)") == "setting-the-budget-ε"
    assert guide.anchors(["Notes", "Python API", "Notes"]) == ["notes", "python-api", "notes-1"]


def test_build_rewrites_screenshots_ships_only_what_pages_use_and_refuses_broken_links(tmp_path):
    tool = _tool()
    docs = tmp_path / "docs"
    (docs / "guide" / "img").mkdir(parents=True)
    (docs / "screenshots").mkdir()
    (docs / "screenshots" / "a.png").write_bytes(b"png a")
    (docs / "screenshots" / "unused.png").write_bytes(b"png b")
    (docs / "guide" / "img" / "c.png").write_bytes(b"png c")
    (tmp_path / "README.md").write_text("readme")
    (docs / "guide" / "index.md").write_text(
        "# Index\n\n![A](../screenshots/a.png) [next](b.md#x) ![C](img/c.png) [readme](../../README.md)\n"
        "`![code](../screenshots/missing.png)`\n\n```\n[in a fence](nowhere.md)\n```\n", encoding="utf-8")
    (docs / "guide" / "b.md").write_text("# B\n\n## X\n", encoding="utf-8")
    out = tmp_path / "out"
    (out / "old.md").parent.mkdir()
    (out / "old.md").write_text("a page that was removed")
    kw = {"guide": docs / "guide", "screenshots": docs / "screenshots"}
    warnings = tool.write(out, **kw)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "b.md", "img/c.png", "index.md", "screenshots/a.png"]
    index = (out / "index.md").read_text(encoding="utf-8")
    assert "![A](screenshots/a.png)" in index and "[next](b.md#x)" in index and "![C](img/c.png)" in index
    assert "`![code](../screenshots/missing.png)`" in index and "[in a fence](nowhere.md)" in index
    assert warnings == ["index.md links to ../../README.md, which is not part of the guide"]
    assert tool.stale(out, **kw) == []
    (docs / "guide" / "b.md").write_text("# B changed\n", encoding="utf-8")
    assert tool.stale(out, **kw) == ["out of date: b.md"]
    (docs / "guide" / "b.md").write_text("# B\n\n[gone](gone.md)\n", encoding="utf-8")
    with pytest.raises(tool.GuideError, match="b.md: gone.md"):
        tool.build(**kw)


def test_the_frozen_bundle_carries_the_guide():
    """PyInstaller puts the guide where importlib.resources looks in a bundle (dpdesk/resources/guide)."""
    spec = (ROOT / "packaging" / "dpdesk.spec").read_text(encoding="utf-8")
    assert ('"dpdesk" / "resources" / "guide"), "dpdesk/resources/guide"' in spec
            or 'collect_data_files("dpdesk")' in spec)
