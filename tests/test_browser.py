"""The cards in a real browser: Debian's Chromium, driven by Playwright (no browser download).

In CI (CI set) a missing Chromium is a failure, not a skip: .ci/run installs it.
"""
from __future__ import annotations

import io
import os
import shutil

import pytest
from PIL import Image

from conftest import ROOT
from rulesdsl.project import compile_project

CHARTS = sorted((ROOT / "generated" / "charts").glob("*.html"))
PROJECT = compile_project(ROOT)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed; .ci/run installs Debian's chromium package")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1000, "height": 1200})
    yield page
    page.close()


def test_every_rulebook_has_charts():
    assert CHARTS, "generated/charts holds no card"
    assert {p.name.split(".")[0] for p in CHARTS} >= {"scs_1_8", "bocage", "new_scs", "vcs", "corridor", "ridgeline"}


@pytest.mark.parametrize("path", CHARTS, ids=lambda p: p.name)
def test_every_chart_is_visible_and_nothing_overflows_its_page(page, path):
    page.goto(path.as_uri())
    charts = page.locator("section.chart")
    assert charts.count() >= 2
    for index in range(charts.count()):
        assert charts.nth(index).is_visible()
    overflowing = page.evaluate("""() => {
        const out = [];
        for (const sheet of document.querySelectorAll('.sheet')) {
            const box = sheet.getBoundingClientRect();
            for (const el of sheet.querySelectorAll('*')) {
                const r = el.getBoundingClientRect();
                if (r.width === 0 && r.height === 0) continue;
                if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)
                    out.push(sheet.id + ' > ' + el.tagName + '.' + el.className + ': ' + (el.textContent || '').slice(0, 40));
            }
        }
        return out;
    }""")
    assert overflowing == []
    # the charts flow in columns on one sheet: no table runs out of its chart's column
    wide = page.evaluate("""() => [...document.querySelectorAll('section.chart table')]
        .filter(t => t.getBoundingClientRect().right > t.closest('section.chart').getBoundingClientRect().right + 1)
        .map(t => t.closest('section.chart').id)""")
    assert wide == []


@pytest.mark.parametrize("path", CHARTS, ids=lambda p: p.name)
def test_type_sizes_colours_and_padding_as_the_browser_computes_them(page, path):
    page.goto(path.as_uri())
    sizes = page.evaluate("""() => {
        const out = {smallest: 1000, crt: 1000, text: ''};
        for (const el of document.querySelectorAll('body *')) {
            if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
            const size = parseFloat(getComputedStyle(el).fontSize);
            if (size < out.smallest) { out.smallest = size; out.text = el.textContent.slice(0, 40); }
            if (el.matches('#crt td.cell, #crt th.col')) out.crt = Math.min(out.crt, size);
        }
        return out;
    }""")
    assert sizes["smallest"] >= 7.5 * 96 / 72 - 0.01, sizes      # no text under 7.5pt
    if page.locator("#crt").count():
        assert sizes["crt"] >= 10 * 96 / 72 - 0.01, sizes        # CRT cells at 10pt
    style = page.evaluate("""() => { const s = getComputedStyle(document.querySelector('h2'));
        return [s.printColorAdjust || s.webkitPrintColorAdjust, s.webkitPrintColorAdjust]; }""")
    assert "exact" in style
    padding = page.evaluate("() => getComputedStyle(document.querySelector('.sheet')).paddingLeft")
    assert abs(float(padding.removesuffix("px")) - 8 * 96 / 25.4) < 0.5      # the stylesheet no longer clears it


# A known defect (issue 11): Chromium sets the HTML card in the machine's fonts, and the French Corridor card,
# three sides in the PDF (WeasyPrint, the shipped fonts), runs on to a fourth in the browser.
BROWSER_EXTRA_SIDE = {"corridor.fr.html"}


@pytest.mark.parametrize("path", CHARTS, ids=lambda p: p.name)
def test_the_browser_prints_a_card_on_the_sides_its_rulebook_allows(page, path):
    from rulesdsl.charts import card_options
    from rulesdsl.codegen import module_name
    key = next(k for k in PROJECT.resolved if module_name(k) == path.name.split(".")[0])
    allowed = card_options(PROJECT.resolved[key]).sides
    page.goto(path.as_uri())
    page.emulate_media(media="print")
    content = page.pdf(prefer_css_page_size=True, print_background=True)
    from pypdf import PdfReader
    pages = len(PdfReader(io.BytesIO(content)).pages)
    assert 1 <= pages <= allowed + (path.name in BROWSER_EXTRA_SIDE), (pages, allowed)
    if key not in ("corridor", "ridgeline"):
        assert pages <= 2


@pytest.mark.parametrize("key", sorted(k for k, r in PROJECT.resolved.items() if r.results is not None))
def test_crt_has_one_cell_per_column_and_dice_outcome(page, key):
    from rulesdsl.codegen import module_name
    node = PROJECT.resolved[key].results.node
    page.goto((ROOT / "generated" / "charts" / f"{module_name(key)}.en.html").as_uri())
    rows = page.locator("#crt tr.dice")
    assert rows.count() == len(node.rows)
    for index, row in enumerate(node.rows):
        cells = rows.nth(index).locator("td.cell")
        assert cells.count() == len(node.columns)
        assert cells.all_inner_texts() == [c.value for c in row.cells]
    header = page.locator("#crt tr.odds").first.locator("th.col").all_inner_texts()
    assert header == [c.value for c in node.columns]


def _ink(png: bytes) -> float:
    """The share of pixels that are not (near) white."""
    image = Image.open(io.BytesIO(png)).convert("L")
    pixels = image.tobytes()
    return sum(1 for p in pixels if p < 200) / len(pixels)


def test_screenshot_of_the_crt_is_not_empty(page):
    page.goto((ROOT / "generated" / "charts" / "bocage.en.html").as_uri())
    shot = page.locator("#crt").screenshot()
    assert _ink(shot) > 0.05
    page.set_content("<html><body style='background:#fff'><table id='crt'><tr><td>&nbsp;</td></tr></table></body></html>")
    assert _ink(page.locator("#crt").screenshot()) < 0.05     # what an empty chart would give
