"""Player-aid cards: exact outcome odds, labels, escaping, PDF pages and text."""
from __future__ import annotations

import io
import itertools
import re
from fractions import Fraction

import pytest
from pypdf import PdfReader

import rulesdsl
from conftest import FIXTURES, ROOT
from rulesdsl.cards.charts import card, render_html
from rulesdsl.model.codes import family
from rulesdsl.cards.outcomes import column_odds
from rulesdsl.cards.pdf import card_pdf, render_pdf
from rulesdsl.project.build import compile_project
from rulesdsl.project.passes import default_labels
from rulesdsl.runtime.notation import parse_result
from rulesdsl.runtime.tables import DICE_OUTCOMES, roll_range

PROJECT = compile_project(ROOT, examples=False, generate=False)  # no example run: resolved rulebooks only
WITH_TABLES = sorted(k for k, r in PROJECT.resolved.items() if r.results is not None)


def brute_force(dice: str, rows: dict, index: int, notation: str, drm: int = 0):
    """Every face of every die, one by one."""
    faces = list(itertools.product(range(1, 7), repeat=1 if dice == "1d6" else 2))
    tally = {"d_step": 0, "d_retreat": 0, "d_steps": 0, "a_steps": 0}
    for face in faces:
        reading = face[0] if dice == "1d6" else (face[0] + face[1] if dice == "2d6" else 10 * face[0] + face[1])
        reading += drm
        ranges = sorted((roll_range(label), cells) for label, cells in rows.items())
        cells = next((c for (lo, hi), c in ranges if lo <= reading <= hi), None)
        if cells is None:
            cells = ranges[0][1] if reading < ranges[0][0][0] else ranges[-1][1]
        result = parse_result(cells[index], notation)
        tally["d_step"] += result.defender_steps > 0
        tally["d_retreat"] += result.defender_retreat > 0
        tally["d_steps"] += result.defender_steps
        tally["a_steps"] += result.attacker_steps
    return {k: Fraction(v, len(faces)) for k, v in tally.items()}


@pytest.mark.parametrize("key", WITH_TABLES)
def test_outcome_odds_match_brute_force_for_every_column(key):
    resolved = PROJECT.resolved[key]
    node = resolved.results.node
    # the notation in effect: the family the series' result codes declare (Ridgeline's table no longer
    # restates VCS's retreat-first), else the table's own
    notation = family(resolved.result_codes.node if resolved.result_codes is not None else None, node)
    cap = (resolved.modifiers.node.cap or 0) if resolved.modifiers is not None else 0   # no cap: no DRM table
    sides = [({r.label.value: tuple(c.value for c in r.cells) for r in node.rows}, len(node.columns))]
    if node.attacker is not None:
        sides.append(({r.label.value: tuple(c.value for c in r.cells) for r in node.attacker.rows},
                      len(node.attacker.columns)))
    for rows, width in sides:
        for index in range(width):
            for drm in range(-cap, cap + 1):
                exact = column_odds(node.dice.value, rows, index, notation, drm)
                counted = brute_force(node.dice.value, rows, index, notation, drm)
                assert (exact.defender_loses_step, exact.defender_retreats, exact.defender_steps,
                        exact.attacker_steps) == (counted["d_step"], counted["d_retreat"], counted["d_steps"],
                                                  counted["a_steps"]), (key, index, drm)


def test_d66_and_1d6_distributions_are_uniform():
    from rulesdsl.cards.outcomes import distribution
    assert set(distribution("d66").values()) == {Fraction(1, 36)} and len(distribution("d66")) == 36
    assert distribution("1d6") == {face: Fraction(1, 6) for face in DICE_OUTCOMES["1d6"]}
    assert distribution("2d6")[7] == Fraction(1, 6) and sum(distribution("2d6").values()) == 1


def test_card_shows_the_games_charts_not_the_series_examples():
    data, warnings = card(PROJECT.resolved["bocage"], "en", PROJECT.labels)
    names = [row["name"].text for section in data["terrain"]["sections"] for row in section["rows"]]
    assert "Bocage" in names and "Hedgerow" in names
    assert data["results"]["outcome"][0]["column"] == "1:2" and warnings == []


def test_french_card_uses_the_french_terms():
    # a game's card: the series' example TEC is not printed on any card (tests/test_card_layout.py)
    data, warnings = card(PROJECT.resolved["bocage"], "fr", PROJECT.labels)
    html = render_html(data)
    for term in ("Tableau des Effets de Terrain", "Dégagé", "Forêts", "Route", "Ruisseau", "Rivière", "Pont",
                 "Séquence de jeu"):
        assert term in html
    assert warnings == [] and 'class="fallback"' not in html


def test_a_missing_translation_is_a_warning_and_shows_visibly():
    game = re.sub(r"\n *terrain\.marsh +\"Marais\"", "", (ROOT / "rulebooks/games/bocage.rules").read_text())
    compilation = rulesdsl.compile_text(game, "rulebooks/games/bocage.rules",
                                        ("rulebooks/series/scs-1.8.rules",
                                         (ROOT / "rulebooks/series/scs-1.8.rules").read_text()))
    data, warnings = card(compilation.resolved["bocage"], "fr", default_labels())
    assert [w.severity for w in warnings] == ["warning"]
    assert "terrain.marsh" in warnings[0].message and warnings[0].message.startswith("1 label missing in 'fr'")
    html = render_html(data)
    assert '<span class="fallback" lang="en">Marsh</span>' in html
    assert "terrain.marsh" in html          # the footnote names it


def test_rulebook_text_prints_as_text():
    hostile = '<script>alert("x")</script> & \'quotes\''
    game = (ROOT / "rulebooks/games/bocage.rules").read_text()
    game = game.replace('"Bocage (a demonstration title)"', '"' + hostile.replace('"', '\\"') + '"')
    game = game.replace('"Bocage (un titre de démonstration)"', '"' + hostile.replace('"', '\\"') + '"')   # its French title
    game = re.sub(r'terrain\.marsh +"Marais"', lambda m: 'terrain.marsh "<b>Marais</b> & \\"co\\""', game)
    compilation = rulesdsl.compile_text(game, "rulebooks/games/bocage.rules",
                                        ("rulebooks/series/scs-1.8.rules",
                                         (ROOT / "rulebooks/series/scs-1.8.rules").read_text()))
    assert compilation.ok, [d.message for d in compilation.diagnostics]
    html = render_html(card(compilation.resolved["bocage"], "fr", default_labels())[0])
    assert "<script>" not in html and "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert "<b>Marais</b>" not in html and "&lt;b&gt;Marais&lt;/b&gt; &amp; &#34;co&#34;" in html


@pytest.mark.parametrize("paper, size", [("a4", (595, 842)), ("letter", (612, 792))])
def test_pdf_pages_and_text_in_both_languages(paper, size):
    for lang, words in (("en", ["Terrain Effects Chart", "Open", "Woods", "Hedgerow"]),
                        ("fr", ["Tableau des Effets de Terrain", "Dégagé", "Forêts", "Haie"])):
        data, _ = card(PROJECT.resolved["bocage"], lang, PROJECT.labels, paper)
        html, pdf, problems = card_pdf(data, PROJECT.resolved["bocage"].rulebook.span)
        assert problems == []
        reader = PdfReader(io.BytesIO(pdf))
        # the charts share the sides (sequence, terrain, results, strength factors...): two, not one a chart
        assert len(reader.pages) in (1, 2)
        for page in reader.pages:
            assert sorted((round(float(page.mediabox.width)), round(float(page.mediabox.height)))) == list(size)
        text = "\n".join(page.extract_text() for page in reader.pages)
        for word in words:
            assert word in text, (lang, word)
        node = PROJECT.resolved["bocage"].results.node
        for row in node.rows:                       # every CRT cell, row by row
            assert " ".join([row.label.value] + [c.value for c in row.cells]) in text
        fonts = [font.get_object() for page in reader.pages
                 for font in page["/Resources"]["/Font"].values()]
        assert fonts, "the text is vector text set in fonts"
        for font in fonts:
            descriptor = (font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font)
            files = set(descriptor["/FontDescriptor"].get_object())
            assert files & {"/FontFile", "/FontFile2", "/FontFile3"}, f"{font['/BaseFont']} is not embedded"


def test_a_table_too_wide_for_the_page_is_an_error():
    base = (FIXTURES / "base.rules").read_text()
    columns = " ".join(f"{n}:1" for n in range(1, 31))
    cells = " ".join(["D1r1"] * 30)
    game = (f'game wide "Wide" version "1" extends base\n\n'
            f'combat results table dice 1d6 {{\n  odds {columns}\n  1-6 {cells}\n}}\n')
    compilation = rulesdsl.compile_text(game, "rulebooks/wide.rules", ("rulebooks/base.rules", base))
    resolved = compilation.resolved["wide"]
    data, _ = card(resolved, "en", default_labels())
    pdf, problems = render_pdf(render_html(data), data, resolved.rulebook.id.span)
    assert pdf is None
    assert len(problems) == 1 and "mm too wide for A4 paper" in problems[0].message


def test_pdf_bytes_are_reproducible():
    data, _ = card(PROJECT.resolved["scs-1.8"], "en", PROJECT.labels)
    html = render_html(data)
    first = render_pdf(html, data, PROJECT.resolved["scs-1.8"].rulebook.span)[0]
    second = render_pdf(html, data, PROJECT.resolved["scs-1.8"].rulebook.span)[0]
    assert first == second


def test_chart_command_writes_a_pdf(project, capsys):
    project.add_base()
    out = project.root / "base.pdf"
    code, stdout, _ = project.run("chart", "base", "--format", "pdf", "--paper", "letter", "--out", str(out),
                                  capsys=capsys)
    assert code == 0 and stdout.strip() == f"wrote {out}"
    assert out.read_bytes().startswith(b"%PDF")
    code, _, err = project.run("chart", "nothing-here", capsys=capsys)
    assert code == 2 and "no rulebook 'nothing-here'" in err


def test_strength_factors_print_the_value_players_multiply_by_not_a_parameter_id():
    compilation = compile_project(ROOT)
    for key in ("bocage", "new-scs"):
        data, _ = card(compilation.resolved[key], "en", compilation.labels)
        html = render_html(data)
        assert '<td class="num">½</td>' in html, key
        assert "out_of_supply_attack_factor" not in html and "dg_factor" not in html, key


def test_a_games_own_chart_keeps_its_title_where_its_series_labels_the_series_chart():
    """SCS 1.8's French labels title its example TEC; a game's own TEC, without a French title of its own,
    printed that title on its French card.  A chart's title comes from the rulebook the chart is from."""
    from rulesdsl.project.build import compile_sources
    from rulesdsl.project.passes import default_labels
    from rulesdsl.language.source import Source
    game = '''game marsh "Marsh Front" version "1" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}

override terrain effects chart "Marsh Front TEC" [3.2] {
  hex:
    open   1   ne
    woods  2   Dx2
  hexside:
    river  P   P
}
'''
    compilation = compile_sources([Source("rulebooks/marsh.rules", game)], generate=False)
    assert compilation.ok, compilation.diagnostics
    data, warnings = card(compilation.resolved["marsh"], "fr", default_labels())
    assert data["terrain"]["title"].text == "Marsh Front TEC" and data["terrain"]["title"].fallback
    assert any("title.terrain" in w.message for w in warnings)
    # the series' own chart keeps the series' label
    from rulesdsl.cards.charts import chart_title
    from rulesdsl.cards.labeler import Labeler, label_layers
    series = compile_sources([], library_ids=["scs-1.8"], generate=False).resolved["scs-1.8"]
    assert series.terrain is not None and series.terrain.node.title is not None
    title = chart_title(series, series.terrain, Labeler("fr", label_layers(series, default_labels())), "title.terrain",
                        series.terrain.node.title.value)
    assert title.text.startswith("TEC d'exemple") and not title.fallback
