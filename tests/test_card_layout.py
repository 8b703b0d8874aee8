"""Cards that fit the table: charts share the sides, the page is chosen by fit, type is big enough to read,
a card that needs too many sides fails the build at the rulebook's id, and the sections print what a
player looks up (rule numbers, the legend of what the card uses)."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

import rulesdsl
from conftest import FIXTURES, ROOT
from rulesdsl.cards import pdf
from rulesdsl.cards.charts import card, card_options, page_size, render_html
from rulesdsl.cards.labeler import languages
from rulesdsl.errors import render_all
from rulesdsl.project.build import compile_project
from rulesdsl.project.passes import default_labels

PROJECT = compile_project(ROOT, examples=False, generate=False)  # no example run: resolved rulebooks only
CARDS = [(key, lang) for key, resolved in sorted(PROJECT.resolved.items()) for lang in languages(resolved)]
_PT = 96 / 72       # px a point


def _laid_out(key: str, lang: str = "en"):
    data, _ = card(PROJECT.resolved[key], lang, PROJECT.labels)
    sides = card_options(PROJECT.resolved[key]).sides
    return data, pdf.lay_out(data, PROJECT.resolved[key].rulebook.id.span, sides)


# The shipped cards that take a third side, which their card block allows (card { sides 3 }, with the
# reason in the rulebook); every other card takes one or two.
THREE_SIDES = {"corridor"}


def _boxes(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def _pdf_sizes(content: bytes) -> dict[float, str]:
    """Every size (pt) text is set in in a PDF, with a sample of the text."""
    sizes: dict[float, str] = {}

    def visit(text, cm, tm, font, size):
        if text.strip():
            scale = (tm[2] ** 2 + tm[3] ** 2) ** 0.5 * (cm[2] ** 2 + cm[3] ** 2) ** 0.5
            sizes.setdefault(round(size * scale, 2), text.strip())
    for page in PdfReader(io.BytesIO(content)).pages:
        page.extract_text(visitor_text=visit)
    return sizes


# ---- pages ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key, lang", CARDS, ids=lambda v: str(v))
def test_every_shipped_card_takes_the_sides_its_rulebook_allows_in_the_orientation_chosen(key, lang):
    data, (layout, problems) = _laid_out(key, lang)
    assert problems == [], render_all(problems, PROJECT.sources)
    assert 1 <= layout.sides <= (3 if key in THREE_SIDES else 2) <= card_options(PROJECT.resolved[key]).sides
    assert layout.over <= 0.5, "a table runs out of its column"
    reader = PdfReader(io.BytesIO(layout.document.write_pdf()))
    assert len(reader.pages) == layout.sides
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (width > height) == (layout.orientation == "landscape")
    assert f'data-orientation="{layout.orientation}"' in layout.html
    assert f'class="flow cols-{layout.columns}"' in layout.html


def test_the_layout_chosen_needs_no_more_sides_than_any_candidate_and_is_deterministic():
    data, (layout, _) = _laid_out("bocage")
    for orientation, columns in pdf.CANDIDATES:
        html = render_html({**data, "orientation": orientation, "columns": columns,
                            "size": page_size("a4", orientation)})
        sides, fill, over = pdf.measure(pdf._render(html))
        if over <= 0.5:
            assert layout.sides <= sides, (orientation, columns)
    pdf._best.cache_clear()
    again = pdf._best(pdf._candidates(data))      # laid out again, not read from the card cache
    assert (again.orientation, again.columns, again.sides, again.html) == \
        (layout.orientation, layout.columns, layout.sides, layout.html)


def test_charts_share_a_side_and_none_is_forced_onto_a_page_of_its_own():
    data, (layout, _) = _laid_out("bocage")
    assert layout.html.count('<div class="sheet"') == 1
    css = render_html(data)
    assert "break-after: page" not in css and "page-break-after: always" not in css
    assert re.search(r"section\.chart \{[^}]*break-inside: avoid", css)
    # the sequence of play, the TEC and the CRT: at least two of the charts on the first side
    first = layout.document.pages[0]._page_box
    ids = {b.element.get("id") for b in _boxes(first) if pdf._is_chart(b) and b.element_tag == "section"}
    assert len(ids) >= 3, ids


def test_dealing_writes_each_side_as_a_flow_of_its_own():
    html = ('<div class="flow cols-2"><section class="chart" id="a">A</section>\n'
            '<section class="chart" id="b">B</section>\n<section class="chart" id="c">C</section></div>')
    assert pdf._with_sides(html, [["a", "c"], ["b"]]) == (
        '<div class="flow cols-2"><section class="chart" id="a">A</section>\n<section class="chart" id="c">C</section>'
        '\n</div>\n<div class="flow cols-2 side">\n<section class="chart" id="b">B</section></div>')
    # something else between the charts: the flow is kept as written
    odd = html.replace("</section>\n<section class=\"chart\" id=\"c\"", "</section><p>x</p><section class=\"chart\" id=\"c\"")
    assert pdf._with_sides(odd, [["a", "c"], ["b"]]) == odd


# ---- charts are units: a chart and what belongs to it are on one side -------------------------------
@pytest.mark.parametrize("key, lang", CARDS, ids=lambda v: str(v))
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_chart_of_a_shipped_card_runs_onto_another_side(key, lang, paper):
    data, _ = card(PROJECT.resolved[key], lang, PROJECT.labels, paper)
    layout, problems = pdf.lay_out(data, PROJECT.resolved[key].rulebook.id.span, 3)
    assert problems == [] and layout.split == ""
    where = pdf._chart_sides(layout.document)
    assert where and all(len(sides) == 1 for sides in where.values()), where
    # the CRT's parts, the DRMs and their odds, and tables under one rule share a side
    for unit in pdf._units(pdf._measured(layout.document)[0]):
        assert len({where[part.id][0] for part in unit}) == 1, [p.id for p in unit]
    assert len(layout.document.pages) == layout.html.count('<div class="flow')


def test_what_belongs_to_a_chart_is_marked_on_the_card():
    html = pdf._best(pdf._candidates(card(PROJECT.resolved["corridor"], "en", PROJECT.labels)[0])).html
    follows = dict(re.findall(r'<section class="[^"]*" id="([^"]+)" data-follows="([^"]+)"', html))
    topics = {f"reminders-{topic}": "reminders" for topic in ("zoc", "movement", "overrun", "reaction", "attack",
                                                              "retreat", "advance")}
    # the reminders' topics follow their panel: a side's columns may share it, never two sides
    assert follows == {"crt-attacker-side": "combat-results-table", "chance-by-drm": "die-roll-modifiers",
                       "table-bombardment-mid": "table-bombardment-low", "table-bombardment-high": "table-bombardment-low",
                       **topics}


def _parts(*spec):
    return [pdf._Part(name, height, follows) for name, height, follows in spec]


def test_units_group_a_chart_with_what_follows_it_in_the_order_printed():
    parts = _parts(("a", 10, ""), ("b", 10, "c"), ("c", 10, ""), ("d", 10, "c"), ("e", 10, "b"), ("f", 10, "zz"))
    assert [[p.id for p in unit] for unit in pdf._units(parts)] == [["a"], ["c", "b", "d", "e"], ["f"]]


class _Measured:
    """A stand-in for a laid-out document: `_paginate` reads it through `_measured`."""


@pytest.mark.parametrize("spec, columns, expected", [
    # first fit: c goes into the gap a leaves in column 1, b to column 2
    ([("a", 50, ""), ("b", 80, ""), ("c", 40, "")], 2, [["a", "c", "b"]]),
    # a unit that does not fit what is left of side 1 opens side 2, whole; d still fills side 1
    ([("a", 90, ""), ("b", 90, ""), ("crt", 60, ""), ("att", 60, "crt"), ("d", 10, "")], 2,
     [["a", "d", "b"], ["crt", "att"]]),
    # a chart taller than a column takes empty columns side by side, on one side
    ([("a", 30, ""), ("tall", 150, ""), ("b", 60, "")], 3, [["a", "b", "tall"]]),
])
def test_charts_are_dealt_to_sides_each_unit_on_one(monkeypatch, spec, columns, expected):
    # columns of 100px, and the pixels a deal keeps spare in each (pdf._SPARE)
    room = 100.0 + pdf._SPARE
    monkeypatch.setattr(pdf, "_measured", lambda document: (_parts(*spec), room, room))
    deal = pdf._paginate(_Measured(), columns)
    assert (deal.sides, deal.too_tall) == (expected, [])


def test_a_unit_that_fits_no_column_whole_is_split_down_the_columns_of_one_side(monkeypatch):
    # two sides of two 100px columns; three tables under one rule (70 + 30 + 30) fit no column whole, but the
    # packing puts the first in one column of side 2 and the other two in the other: never on two sides
    spec = [("seq", 100, ""), ("rem", 95, ""), ("crt", 60, ""), ("low", 70, ""), ("mid", 30, "low"),
            ("high", 30, "low")]
    room = 100.0 + pdf._SPARE
    monkeypatch.setattr(pdf, "_measured", lambda document: (_parts(*spec), room, room))
    deal = pdf._paginate(_Measured(), 2)
    assert len(deal.sides) == 2 and deal.too_tall == []
    sides = {name: n for n, side in enumerate(deal.sides) for name in side}
    assert sides["low"] == sides["mid"] == sides["high"]
    # the unit reads on unbroken: its first part ends a column, the rest open the next
    side = deal.sides[sides["low"]]
    assert side[side.index("low"):side.index("low") + 3] == ["low", "mid", "high"]
    # whole, the unit (130px) would have needed a third side
    whole = pdf._deal(_parts(*spec), pdf._units(_parts(*spec)), 2, room, room)
    assert len(whole.sides) == 3


def test_a_unit_taller_than_a_side_is_named_with_its_size(monkeypatch):
    monkeypatch.setattr(pdf, "_measured", lambda document: (_parts(("crt", 150, ""), ("att", 80, "crt")), 100.0, 100.0))
    deal = pdf._paginate(_Measured(), 2)
    assert [name for name, _, _ in deal.too_tall] == ["crt"]
    _, height, room = deal.too_tall[0]
    assert round(height / pdf._MM_PER_PX) == 230 and round(room / pdf._MM_PER_PX) == 200


TALL_ROWS = "\n".join(f"  {n:<4} {n % 3}    {n % 5}" for n in range(1, 61))
TALL = 'game tall "Tall" version "1" extends base\n\n' + "\n".join(
    f'table part-{k} "Part {k} of one long chart" [7.4] {{\n  roll/units  1-2  3+\n{TALL_ROWS}\n}}\n'
    for k in range(3))      # 180 rows in all: more than a side holds on any candidate, even in 3 columns


def test_a_chart_taller_than_a_side_fails_the_build_at_the_rulebook_with_its_size():
    compilation = rulesdsl.compile_text(TALL, "rulebooks/tall.rules",
                                        ("rulebooks/base.rules", (FIXTURES / "base.rules").read_text()))
    assert compilation.ok, render_all(compilation.diagnostics, compilation.sources)
    resolved = compilation.resolved["tall"]
    data, _ = card(resolved, "en", default_labels())
    html, content, problems = pdf.card_pdf(data, resolved.rulebook.id.span, sides=8)
    assert content is None
    assert [p.span for p in problems] == [resolved.rulebook.id.span]
    assert re.fullmatch(r"the chart 'Part 0 of one long chart' of the tall card \(en\), with what belongs to it, "
                        r"measures \d+ mm: more than one side of A4 paper holds, even \w+ in \d columns?",
                        problems[0].message)


def test_every_language_of_a_card_prints_on_one_page_shape_where_it_costs_no_side():
    html = {path.name: path.read_text(encoding="utf-8") for path in (ROOT / "generated" / "charts").glob("*.html")}
    shape = re.compile(r'data-orientation="(\w+)" data-columns="(\d)"')
    for name, text in html.items():
        other = name.replace(".en.", ".fr.")
        if name.endswith(".en.html") and other in html:
            assert shape.search(text).groups() == shape.search(html[other]).groups(), name


# ---- the layout check ------------------------------------------------------------------------------
# ten tables, each shorter than a column: a card of many sides, with no chart split between them
HUGE_ROWS = "\n".join(f"  {n:<4} {n % 3}    {n % 5}" for n in range(1, 31))
HUGE = 'game huge "Huge" version "1" extends base\n\n' + "\n".join(
    f'table part-{k} "Table {k}" {{\n  roll/units  1-2  3+\n{HUGE_ROWS}\n}}\n' for k in range(10))


def test_a_card_that_needs_more_sides_than_allowed_fails_at_the_rulebook_id(project, capsys):
    project.add_base()
    project.write("rulebooks/huge.rules", HUGE)
    out = project.root / "huge.pdf"
    code, stdout, err = project.run("chart", "huge", "--format", "pdf", "--out", str(out), capsys=capsys)
    assert code == 1 and not out.exists()
    first = err.splitlines()[0]
    assert re.fullmatch(r"rulebooks/huge\.rules:1:6: error: the huge card \(en\) needs \d+ sides of A4 paper, "
                        r"more than the 2 allowed", first), err
    assert "    1 | game huge" in err and "      |      ^" in err
    assert "Traceback" not in err
    code, _, err = project.run("build", capsys=capsys)
    assert code == 1 and "huge card (en) needs" in err


def test_check_cards_reports_what_build_refuses_and_writes_nothing(project, capsys):
    """`check` lays no card out (seconds a card on a cold cache, on every save); `check --cards` does, as a
    build would, and reports the same errors at the same place, in the same run as the others."""
    project.add_base()
    project.write("rulebooks/huge.rules", HUGE)
    code, out, err = project.run("check", capsys=capsys)
    assert (code, err) == (0, "") and out == "2 rulebooks checked: no problems\n"
    code, out, err = project.run("check", "--cards", capsys=capsys)
    assert code == 1 and out == ""
    assert re.search(r"^rulebooks/huge\.rules:1:6: error: the huge card \(en\) needs \d+ sides of A4 paper, "
                     r"more than the 2 allowed$", err, re.M), err
    assert err.rstrip().endswith("2 rulebooks checked: 1 error")
    assert not (project.root / "generated").exists()
    code, _, build_err = project.run("build", capsys=capsys)
    assert code == 1 and [line for line in build_err.splitlines() if ": error: " in line] == \
        [line for line in err.splitlines() if ": error: " in line]
    # the file named alone: only its cards are laid out
    code, _, err = project.run("check", "--cards", str(project.root / "rulebooks" / "base.rules"), capsys=capsys)
    assert (code, err) == (0, "")


def test_the_layout_check_takes_the_sides_allowed():
    compilation = rulesdsl.compile_text(HUGE, "rulebooks/huge.rules",
                                        ("rulebooks/base.rules", (FIXTURES / "base.rules").read_text()))
    resolved = compilation.resolved["huge"]
    data, _ = card(resolved, "en", default_labels())
    layout, problems = pdf.lay_out(data, resolved.rulebook.id.span)
    assert layout.sides > 2 and len(problems) == 1 and problems[0].span == resolved.rulebook.id.span
    assert pdf.lay_out(data, resolved.rulebook.id.span, sides=layout.sides)[1] == []
    html, content, problems = pdf.card_pdf(data, resolved.rulebook.id.span, sides=layout.sides - 1)
    assert content is None and f"needs {layout.sides} sides" in problems[0].message
    html, content, problems = pdf.card_pdf(data, resolved.rulebook.id.span, sides=layout.sides)
    assert content is not None and problems == []


# ---- type ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["bocage", "corridor", "ridgeline"])
def test_no_text_under_7_5_pt_and_crt_cells_at_10_pt(key):
    data, (layout, _) = _laid_out(key)
    sizes = _pdf_sizes(layout.document.write_pdf())
    assert min(sizes) >= 7.5, {s: t for s, t in sizes.items() if s < 7.5}
    cells = [b for page in layout.document.pages for b in _boxes(page._page_box)
             if type(b).__name__ == "TableCellBox" and "cell" in (b.element.get("class") or "").split()]
    assert cells, "no CRT cell laid out"
    assert min(c.style["font_size"] for c in cells) >= 10 * _PT - 0.01
    texts = [b for page in layout.document.pages for b in _boxes(page._page_box) if type(b).__name__ == "TextBox"]
    assert min(t.style["font_size"] for t in texts) >= 7.5 * _PT - 0.01


def test_heading_bars_print_with_the_browsers_default_settings_and_the_screen_keeps_its_padding():
    html = render_html(card(PROJECT.resolved["bocage"], "en", PROJECT.labels)[0])
    assert "-webkit-print-color-adjust: exact; print-color-adjust: exact;" in html
    style = html[html.index("<style>"):html.index("</style>")]
    # the sheet's on-screen padding comes after the stylesheet's rule that clears it for print
    assert style.index(".sheet { padding: 0; }") < style.index("@media screen { .sheet {")
    assert re.search(r"@media screen \{ \.sheet \{[^}]*padding: 8mm", style)


# ---- what the sections print -----------------------------------------------------------------------
def test_the_rules_column_prints_rule_numbers_not_internal_ids():
    for key in ("new-scs", "corridor"):
        data, _ = card(PROJECT.resolved[key], "en", PROJECT.labels)
        phases = [p for turn in data["sequence"]["player_turns"] for p in turn["phases"]]
        printed = [c for p in phases for c in p["cites"]]
        assert printed and all(re.fullmatch(r"[A-Z]?\d+(\.\d+)*[a-z]?", c) for c in printed), printed
        html = render_html(data)
        rules = re.findall(r'<td class="cites rules">([^<]*)</td>', html)
        assert rules and not any(word in " ".join(rules) for word in ("readiness", "combat-procedure", "supply-effects"))
        assert "7.0" in rules and "12.0" in rules


def test_no_sequence_of_play_prints_1_0_map_or_runs_the_player_turn_below():
    for key, lang in CARDS:
        html = render_html(card(PROJECT.resolved[key], lang, PROJECT.labels)[0])
        assert "1.0 map" not in html and "[map]" not in html, key
        assert "runs the player turn below" not in html and "joue les phases du joueur ci-dessous" not in html, key
    html = render_html(card(PROJECT.resolved["bocage"], "en", PROJECT.labels)[0])
    assert '<span class="break">First</span> player turn' in html


def test_the_tec_legend_shows_only_the_codes_the_card_uses():
    data, _ = card(PROJECT.resolved["bocage"], "en", PROJECT.labels)    # Dx2, Ax½, P, ot, ne: no shifts
    assert [key.text for key, _ in data["terrain"]["legend"]] == ["P", "ot", "A", "D", "ne"]
    html = render_html(data)
    legend = re.search(r'<p class="legend" id="tec-legend">.*?</p>', html, re.S).group(0)
    assert "column shift" not in legend and "prohibited" in legend
    data, _ = card(PROJECT.resolved["corridor"], "en", PROJECT.labels)  # 1L, 2L: a left shift, no right
    keys = [key.text for key, _ in data["terrain"]["legend"]]
    assert "L" in keys and "R" not in keys


def test_the_crt_legend_explains_a_dash_only_when_the_table_has_one():
    data, _ = card(PROJECT.resolved["bocage"], "en", PROJECT.labels)
    assert data["results"]["dash"] is False
    assert '<span class="key">-</span>' not in render_html(data)
    data, _ = card(PROJECT.resolved["corridor"], "en", PROJECT.labels)
    assert data["results"]["dash"] is True


def test_the_series_example_tec_is_printed_on_no_card():
    for key, lang in CARDS:
        data, _ = card(PROJECT.resolved[key], lang, PROJECT.labels)
        kind = PROJECT.resolved[key].rulebook.kind.value
        if kind == "series":
            assert data["terrain"] is None, key
        else:
            assert data["terrain"] is not None and "Example TEC" not in render_html(data), key
    html = render_html(card(PROJECT.resolved["scs-1.8"], "en", PROJECT.labels)[0])
    assert "Example TEC" not in html and "terrain-effects-chart" not in html


def test_a_layout_read_from_the_card_cache_is_the_layout_worked_out(tmp_path, monkeypatch):
    """`lay_out` stores the placement it works out and reads it back the next time, printing only the card
    chosen: the same page, sides and HTML, and the same document."""
    monkeypatch.setenv("RULESDSL_CACHE_DIR", str(tmp_path))
    data, _ = card(PROJECT.resolved["vcs"], "en", PROJECT.labels)
    span = PROJECT.resolved["vcs"].rulebook.id.span
    worked, problems = pdf.lay_out(data, span)
    assert problems == [] and len(list((tmp_path / "cards").glob("*.json"))) == 1
    printed: list[str] = []
    real = pdf._render
    monkeypatch.setattr(pdf, "_render", lambda html: printed.append(html) or real(html))
    read, problems = pdf.lay_out(data, span)
    assert problems == [] and printed == [worked.html]
    assert read == worked and len(read.document.pages) == len(worked.document.pages) == read.sides


def test_a_unit_that_runs_on_to_the_next_column_ends_its_first_and_opens_the_next():
    # the reminders' first topic shares column 1 with the CRT and a later chart; its other topics open column 2
    units = pdf._units(_parts(("crt", 10, ""), ("rem", 10, ""), ("rem-zoc", 10, "rem"), ("shifts", 10, ""),
                              ("x", 10, "")))
    side = [(0, 0, "crt"), (0, 1, "rem"), (1, 2, "rem-zoc"), (1, 3, "shifts"), (0, 4, "x")]
    assert pdf._in_reading_order(side, units) == ["crt", "x", "rem", "rem-zoc", "shifts"]
    # a unit in one column keeps the order printed
    assert pdf._in_reading_order([(0, 1, "rem"), (0, 2, "rem-zoc"), (0, 0, "crt")], units) == ["crt", "rem", "rem-zoc"]
