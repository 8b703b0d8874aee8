"""The cards in a real browser: Debian's Chromium, driven by Playwright (no browser download).

In CI (CI set) a missing Chromium is a failure, not a skip: .ci/run installs it.
"""
from __future__ import annotations

import io
import os
import re
import shutil

import pytest
from PIL import Image

from conftest import ROOT
from rulesdsl.project.build import compile_project

from rulesdsl.cards.labeler import languages as _languages
from rulesdsl.cards.charts import printed

CHARTS = sorted((ROOT / "generated" / "charts").glob("*.html"))
PROJECT = compile_project(ROOT, examples=False, generate=False)  # no example run: resolved rulebooks only
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


@pytest.mark.parametrize("path", CHARTS, ids=lambda p: p.name)
def test_the_browser_prints_a_card_on_the_sides_its_rulebook_allows(page, path):
    from rulesdsl.cards.charts import card_options
    from rulesdsl.modules.codegen import module_name
    key = next(k for k in PROJECT.resolved if module_name(k) == path.name.split(".")[0])
    allowed = card_options(PROJECT.resolved[key]).sides
    page.goto(path.as_uri())
    _shipped_fonts(page)
    page.emulate_media(media="print")
    content = page.pdf(prefer_css_page_size=True, print_background=True)
    from pypdf import PdfReader
    pages = len(PdfReader(io.BytesIO(content)).pages)
    # WeasyPrint lays the card out with a taller bottom margin (pdf.SLACK) than the HTML asks, so the browser,
    # set in the same fonts, prints it on no more sides than the PDF
    assert 1 <= pages <= allowed, (pages, allowed)
    if key != "corridor":
        assert pages <= 2
    # each side of the card is a flow that starts a page (pdf.py deals every chart, with what belongs to it,
    # to one side): as many pages as sides means no side ran onto another page, so no chart is split
    sides = page.evaluate("() => document.querySelectorAll('.flow').length")
    assert pages == sides, (pages, sides)


LETTER = [(key, lang) for key, resolved in sorted(PROJECT.resolved.items()) for lang in _languages(resolved)]


@pytest.mark.parametrize("key, lang", LETTER, ids=lambda v: str(v))
def test_the_browser_prints_each_card_on_letter_with_no_chart_across_two_sides(page, key, lang, tmp_path):
    """Every shipped card in every language, laid out for US Letter as `build --paper letter` would: the browser
    prints it on as many pages as the layout has sides, so no side, and no chart with what belongs to it, runs
    onto another page.  Letter is shorter than A4: a card may take a side more (Ridgeline takes three), up to
    three, as in test_card_layout."""
    from pypdf import PdfReader

    from rulesdsl.cards import pdf
    from rulesdsl.cards.charts import card, card_options
    resolved = PROJECT.resolved[key]
    data, _ = card(resolved, lang, PROJECT.labels, "letter")
    layout, problems = pdf.lay_out(data, resolved.rulebook.id.span, max(3, card_options(resolved).sides))
    assert problems == [] and layout.split == ""
    assert re.search(r"size: (8\.5in 11in|11in 8\.5in)", layout.html)
    path = tmp_path / f"{key}.{lang}.html"
    path.write_text(layout.html, encoding="utf-8")
    page.goto(path.as_uri())
    _shipped_fonts(page)
    page.emulate_media(media="print")
    pages = len(PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True, print_background=True))).pages)
    sides = page.evaluate("() => document.querySelectorAll('.flow').length")
    assert pages == sides == layout.sides, (pages, sides, layout.sides)


@pytest.mark.parametrize("key", sorted(k for k, r in PROJECT.resolved.items() if printed(r, r.results)))
def test_crt_has_one_cell_per_column_and_dice_outcome(page, key):
    from rulesdsl.modules.codegen import module_name
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


# ---- visual regression: each card as Chromium shows it, against a reviewed reference image -------------------
# The references (tests/visual/*.png) are screenshots of the committed HTML cards, set in the fonts rulesdsl ships
# (injected here, as WeasyPrint reads them for the PDF), stored grey at half size.  After a reviewed change to
# the cards, write them again with RULESDSL_UPDATE_SNAPSHOTS=1 and look at them before committing.
REFERENCES = ROOT / "tests" / "visual"
UPDATE = os.environ.get("RULESDSL_UPDATE_SNAPSHOTS") == "1"
TOLERANCE = 0.005           # the share of pixels that may differ (anti-aliasing between Chromium builds)
INK = 48                    # how far (0..255) a grey must move to count as a different pixel


def _shipped_fonts(page) -> None:
    """Sets the page in rulesdsl's own fonts (the HTML card names them first, as 'rulesdsl Sans')."""
    from rulesdsl.cards.pdf import FONTS, FONTS_CSS
    css = re.sub(r'url\("([^"]+)"\)', lambda m: f'url("{(FONTS / m.group(1)).as_uri()}")', FONTS_CSS.read_text())
    page.add_style_tag(content=css)
    page.evaluate("document.fonts.ready.then(() => true)")


def _screenshot(page, path) -> Image.Image:
    page.goto(path.as_uri())
    _shipped_fonts(page)
    image = Image.open(io.BytesIO(page.screenshot(full_page=True, animations="disabled"))).convert("L")
    return image.resize((image.width // 2, image.height // 2), Image.Resampling.BOX)


def _differing(actual: Image.Image, reference: Image.Image) -> float:
    """The share of pixels that differ by more than INK; a size that differs counts its extra rows whole."""
    from PIL import ImageChops
    width, height = min(actual.width, reference.width), min(actual.height, reference.height)
    box = (0, 0, width, height)
    changed = ImageChops.difference(actual.crop(box), reference.crop(box)).point(lambda v: 255 if v > INK else 0)
    differing = changed.histogram()[255] + actual.width * actual.height + reference.width * reference.height \
        - 2 * width * height
    return differing / max(actual.width * actual.height, reference.width * reference.height)


@pytest.mark.parametrize("path", CHARTS, ids=lambda p: p.name)
def test_each_card_looks_as_its_reviewed_reference(page, path, tmp_path):
    actual = _screenshot(page, path)
    reference = REFERENCES / f"{path.stem}.png"
    if UPDATE:
        REFERENCES.mkdir(exist_ok=True)
        actual.save(reference, optimize=True)
    assert reference.exists(), (f"no reviewed reference image for {path.name}: write one with "
                                "RULESDSL_UPDATE_SNAPSHOTS=1 pytest tests/test_browser.py, look at it, commit it")
    expected = Image.open(reference)
    share = _differing(actual, expected)
    if share > TOLERANCE:
        actual.save(tmp_path / f"{path.stem}.actual.png")
        print(f"actual screenshot: {tmp_path / f'{path.stem}.actual.png'}")
    assert share <= TOLERANCE, (f"{path.name}: {share:.2%} of pixels differ from {reference.relative_to(ROOT)} "
                                f"({actual.size} against {expected.size})")


def test_the_visual_check_sees_a_chart_move_or_a_table_change(page):
    """The tolerance passes anti-aliasing, not a change a reader would see: a moved chart, or one CRT row."""
    path = ROOT / "generated" / "charts" / "bocage.en.html"
    reference = Image.open(REFERENCES / "bocage.en.png")
    assert _differing(_screenshot(page, path), reference) <= TOLERANCE
    page.evaluate("() => { const s = document.querySelector('#stacking'); s.parentNode.appendChild(s); }")
    moved = Image.open(io.BytesIO(page.screenshot(full_page=True, animations="disabled"))).convert("L")
    assert _differing(moved.resize((moved.width // 2, moved.height // 2), Image.Resampling.BOX), reference) > TOLERANCE
    _screenshot(page, path)
    page.evaluate("() => { for (const td of document.querySelectorAll('#crt tr.dice')[5].querySelectorAll('td.cell'))"
                  " td.textContent = 'D4r4'; }")
    edited = Image.open(io.BytesIO(page.screenshot(full_page=True, animations="disabled"))).convert("L")
    assert _differing(edited.resize((edited.width // 2, edited.height // 2), Image.Resampling.BOX), reference) > 0


# ---- what a reader sees, read back from the browser: no code, no unmarked English -------------------------------
_PIECES = """() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent.replace(/\\s+/g, ' ').trim();
        const el = node.parentElement;
        if (!text || !el || el.closest('style, script')) continue;
        const box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        out.push([text, !!el.closest('.fallback'), !!el.closest('.cites, .fallback-note')]);
    }
    return out;
}"""


@pytest.mark.parametrize("path", CHARTS, ids=lambda p: p.name)
def test_the_browser_shows_no_code(page, path):
    page.goto(path.as_uri())
    text = " ".join(t for t, _, aside in page.evaluate(_PIECES) if not aside)
    for pattern in (r"\b[a-z_]+\(", r" where ", ">=", "<=", "==", "!=", r"\w_\w",     # expressions, parameter ids
                    r"\{\{|\{%|\}\}|&\w+;|<\w"):                        # template syntax, escaped markup
        assert not re.search(pattern, text), (pattern, re.search(pattern, text))


@pytest.mark.parametrize("path", [p for p in CHARTS if p.name.endswith(".fr.html")], ids=lambda p: p.name)
def test_a_french_card_in_the_browser_marks_every_english_word_it_shows(page, path):
    """Text the French card shows as the English card does is English left over, unless a French label gives
    those very words (Division, Phase), or it is a number, a code or marked as English (.fallback)."""
    from rulesdsl.cards.labeler import label_layers
    from rulesdsl.modules.codegen import module_name
    key = next(k for k in PROJECT.resolved if module_name(k) == path.name.split(".")[0])
    page.goto(path.with_name(path.name.replace(".fr.", ".en.")).as_uri())
    english = {t for t, _, _ in page.evaluate(_PIECES)}
    french_words = {text for layer in label_layers(PROJECT.resolved[key], PROJECT.labels)
                    for text in layer.get("fr", {}).values()}
    page.goto(path.as_uri())
    left = [t for t, marked, aside in page.evaluate(_PIECES)
            if not marked and not aside and t in english and re.search(r"[A-Za-z]{3}", t)
            and t not in french_words and not re.fullmatch(r"[\w:½¼¾/+\-−. ]*\d[\w:½¼¾/+\-−. ]*", t)
            and not re.fullmatch(r"[A-Z]+|\w{1,3}", t)]
    assert left == []
