"""The card block (how a rulebook's player-aid card is printed) and the panels it drives: the title's
exceptions, the reminders, the terrain swatches and the optional charts."""
from __future__ import annotations

import re

import pytest

from conftest import ROOT
from rulesdsl.cards import charts
from rulesdsl.errata import diff
from rulesdsl.language import fmt
from rulesdsl.model import ir
from rulesdsl.project.build import compile_project, compile_sources
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

SERIES = """series mini "Mini" version "1.0"

rounding standard: .50 up, keep fractions [1.0]

rule 1.0 "Movement" {
  summary "Units pay to enter hexes."
  zoc.entry_cost = +2 MP
}

terrain effects chart "TEC" [1.0] {
  hex:
    open   1  ne
    woods  2  Dx2
    light-woods  2  ne
    tundra  3  ne
  hexside:
    minor-river  +1  Ax1/2
}

table turns "Turn Record Track" [1.0] {
  turn  1       2       3
  date  6-june  7-june  8-june
}

CARD"""

GAME = """game tiny "Tiny" version "1.0" extends mini

override rule 1.0 "Movement" {
  summary "Units pay more to enter an enemy ZOC."
  zoc.entry_cost = +3 MP
}

CARD"""


def _resolved(series_card: str = "", game_card: str = "") -> dict[str, ir.Resolved]:
    compilation = compile_sources([Source("mini.rules", SERIES.replace("CARD", series_card)),
                                   Source("tiny.rules", GAME.replace("CARD", game_card))])
    assert compilation.ok, [f"{d.span}: {d.message}" for d in compilation.diagnostics]
    return compilation.resolved


@pytest.fixture(scope="module")
def shipped():
    return compile_project(ROOT)


def _card(shipped, key: str, lang: str = "en") -> tuple[dict, str]:
    data, _ = charts.card(shipped.resolved[key], lang, shipped.labels)
    return data, charts.render_html(data)


# ---- the language --------------------------------------------------------------------------
MESSY = """series mini "Mini" version "1.0"

card   {
      sides    1
  paper letter
  reminders:  odds   zoc, overrun
    swatch woods "#3a7d44"   hatch
  swatch light-woods    "#8c8"
      charts: turns
}
"""

CANONICAL = """series mini "Mini" version "1.0"

card {
  sides 1
  paper letter
  reminders: odds zoc, overrun
  swatch woods        "#3a7d44"  hatch
  swatch light-woods  "#8c8"
  charts: turns
}
"""


def test_a_card_block_parses_to_typed_data():
    card, = parse(Source("mini.rules", CANONICAL)).card
    assert card.sides == 1 and card.paper is not None and card.paper.value == "letter"
    assert [r.value for r in card.reminders] == ["odds", "zoc", "overrun"]
    assert [(s.terrain.value, s.colour.value, s.pattern.value if s.pattern else None) for s in card.swatches] == [
        ("woods", "#3a7d44", "hatch"), ("light-woods", "#8c8", None)]
    assert [c.value for c in card.charts] == ["turns"] and card.repeated == ()
    assert (card.span.line, card.swatches[0].span.line, card.swatches[0].terrain.span.column) == (3, 7, 10)


def test_fmt_lays_out_a_card_block_and_keeps_its_meaning():
    assert fmt.format_text(MESSY) == CANONICAL
    assert fmt.format_text(CANONICAL) == CANONICAL
    assert parse(Source("a.rules", MESSY)) == parse(Source("b.rules", CANONICAL))
    assert fmt.format_source(Source("mini.rules", MESSY)) == CANONICAL


@pytest.mark.parametrize("line, message, column", [
    ("sides 0", "a card takes 1 to 8 sides, not 0", 9),
    ("sides 3/2", "'3/2' must be a whole number", 9),
    ("paper a5", "unknown paper 'a5'", 9),
    ("reminders: odds zocs", "unknown reminder 'zocs'", 19),
    ('swatch woods "green"', "'green' is not a colour", 16),
    ('swatch woods "#3a7d44" stripes', "unknown pattern 'stripes'", 26),
    ('swatch wood "#3a7d44"', "swatch for unknown terrain 'wood'", 10),
    ("charts: turn-track", "card chart 'turn-track' is no table", 11),
])
def test_a_bad_card_value_is_a_positioned_error(project, capsys, line, message, column):
    text = SERIES.replace("CARD", f"card {{\n  {line}\n}}\n")
    path = project.write("rulebooks/mini.rules", text)
    code, out, err = project.run("check", str(path), capsys=capsys)
    row = text.split("\n").index(f"  {line}") + 1
    assert code == 1 and "Traceback" not in err
    assert f"rulebooks/mini.rules:{row}:{column}: error: {message}" in err, err
    assert f"{row} |   {line}" in err and "^" in err


def test_a_card_block_is_one_per_rulebook(project, capsys):
    path = project.write("rulebooks/mini.rules", SERIES.replace("CARD", "card {\n  sides 1\n}\n\ncard {\n  sides 2\n}\n"))
    code, out, err = project.run("check", str(path), capsys=capsys)
    assert code == 1 and "a rulebook has at most 1 card block; this is number 2" in err, err


def test_a_setting_given_twice_is_an_error_at_the_second():
    from rulesdsl.checks import validate
    book = parse(Source("mini.rules", 'series mini "Mini" version "1.0"\n\ncard {\n  sides 1\n  sides 2\n}\n'))
    problems = [(d.message, d.span.line, d.span.column) for d in validate.check(book)]
    assert ("'sides' is given twice in the card block", 5, 3) in problems
    assert book.card[0].sides == 1


# ---- inheritance -----------------------------------------------------------------------------
def test_without_any_card_block_the_options_are_the_defaults():
    options = charts.card_options(_resolved()["tiny"])
    assert options == charts.CardOptions() and options.sides == 2 and options.paper is None
    assert options.reminders == () and dict(options.swatches) == {}


def test_a_game_takes_its_series_card_block_unless_it_has_its_own():
    series_card = 'card {\n  sides 1\n  paper letter\n  reminders: zoc\n  swatch woods "#112233" dots\n}\n'
    inherited = charts.card_options(_resolved(series_card)["tiny"])
    assert (inherited.sides, inherited.paper, inherited.reminders) == (1, "letter", ("zoc",))
    assert inherited.swatches == {"woods": charts.Swatch("#112233", "dots")}
    own = charts.card_options(_resolved(series_card, "card {\n  reminders: odds\n}\n")["tiny"])
    assert (own.sides, own.paper, own.reminders, dict(own.swatches)) == (2, None, ("odds",), {})


def test_the_shipped_games_inherit_or_replace_their_series_card(shipped):
    scs = charts.card_options(shipped.resolved["scs-1.8"])
    # who may attack: SCS 7.2e is an effect, and every effect is on the card
    assert scs.reminders == ("odds", "zoc", "overrun", "attack", "retreat", "advance")
    new = charts.card_options(shipped.resolved["new-scs"])      # a game's card may take a third side
    # New SCS adds what entering a hex costs (interdiction) and who may react (its reaction phase's rule)
    assert (new.sides, new.reminders) == (3, ("odds", "zoc", "movement", "overrun", "reaction", "attack", "retreat",
                                              "advance"))
    assert charts.card_options(shipped.resolved["corridor"]) == new
    bocage = charts.card_options(shipped.resolved["bocage"])
    assert bocage.reminders[-1] == "supply" and bocage.swatches["bocage"] == charts.Swatch("#6f8f3a", "cross")
    ridgeline = charts.card_options(shipped.resolved["ridgeline"])  # two sides; supply is on its factor chart
    # who may attack: VCS 10.0 makes the enemy next to an attacking stack a target, 10.1 releases high ground
    assert (ridgeline.sides, ridgeline.reminders) == (2, ("odds", "zoc", "movement", "attack", "retreat", "advance"))


# ---- diff --------------------------------------------------------------------------------------
def test_a_changed_card_block_shows_in_diff(project, capsys):
    card = 'card {\n  sides 2\n  reminders: odds zoc\n  swatch woods "#3a7d44" hatch\n}\n'
    a = project.write("rulebooks/a.rules", SERIES.replace("CARD", card))
    for old, new, shown in [("sides 2", "sides 1", "sides: 2 -> 1"),
                            ("odds zoc", "odds zoc overrun", "reminders: odds, zoc -> odds, zoc, overrun"),
                            ("#3a7d44", "#224422", "woods colour: #3a7d44 -> #224422"),
                            (' hatch', '', "woods pattern: hatch -> (none)")]:
        b = project.write("rulebooks/b.rules", SERIES.replace("CARD", card.replace(old, new)))
        code, out, err = project.run("diff", str(a), str(b), capsys=capsys)
        assert (code, err) == (1, ""), out
        assert shown in out and "Player-aid card" in out, out


def test_a_resolved_diff_sees_the_card_a_game_inherits():
    old = _resolved('card {\n  sides 2\n}\n')["tiny"]
    new = _resolved('card {\n  sides 1\n}\n')["tiny"]
    changes = diff.compare(diff.snapshot(old.rulebook, old), diff.snapshot(new.rulebook, new))
    assert [(c.area, c.what, c.old, c.new) for c in changes] == [("card", "sides", "2", "1")]


# ---- the panels ----------------------------------------------------------------------------------
def test_bocage_card_lists_its_exceptions_with_rule_numbers_and_values(shipped):
    data, html = _card(shipped, "bocage")
    items = {item["rule"]: item for item in data["panels"]["exceptions"]}
    assert {"6.0c", "11.0a", "12.2"} <= set(items)
    overrun = items["6.0c"]
    assert overrun["kind"] == "amended"
    assert [(v["name"], v["value"].text, v["series"].text) for v in overrun["settings"]] == [
        ("overrun.max_target_cost", "1 MP", "2 MP")]
    # a flag reads as the rule it states, with no "yes" beside it
    supply = {v["name"]: v["value"].text if v["value"] else v["meaning"].text for v in items["12.2"]["settings"]}
    # the attack factor is printed by the card's strength factors chart: each value once
    assert supply == {"supply.effects_from_marking":
                      "Out-of-supply effects apply from the moment a unit is marked until the marker goes.",
                      "supply.out_of_supply_movement_factor": "½"}
    factors = [(e["name"].text, e["factor"].text) for e in data["factors"]["entries"]]
    assert factors == [("Supply attack", "½")]
    assert items["12.2"]["kind"] == "replaced" and "half strength" in items["12.2"]["summary"].text
    section = html[html.index('id="exceptions"'):]
    section = section[:section.index("</section>")]
    for text in ("6.0c", "1 MP", "series: 2 MP", "12.2", "Out of Supply Effects",
                 "What an out-of-supply unit&#39;s Movement Allowance is multiplied by: <span class=\"value\">½"):
        assert text in section, text
    assert 'id="own"' not in html     # the exceptions panel says what the list of amendments said, and more
    # the title's own rules that no chart prints are on its card, with their numbers: hedgerows close bocage
    own = items["G1.1"]
    assert (own["kind"], own["title"].text) == ("own", "Hedgerows") and "closed to overruns" in own["summary"].text
    assert "G1.0" not in items     # its stacking limit is the Stacking chart's, not said twice


def test_a_series_without_ancestors_has_no_exceptions_panel(shipped):
    data, html = _card(shipped, "scs-1.8")
    assert data["panels"]["exceptions"] == [] and 'id="exceptions"' not in html


def test_a_game_exceptions_panel_is_built_from_its_overrides():
    data, _ = charts.card(_resolved()["tiny"], "en", {})
    item, = data["panels"]["exceptions"]
    assert (item["rule"], item["kind"], item["summary"].text) == ("1.0", "replaced", "Units pay more to enter an enemy ZOC.")
    assert [(v["value"].text, v["series"].text) for v in item["settings"]] == [("+3 MP", "+2 MP")]


def _reminders(data) -> dict[str, list[tuple[str, str, str]]]:
    return {topic["topic"]: [(line["name"], line["value"].text if line["value"] else "", line["rule"])
                             for line in topic["lines"]] for topic in data["panels"]["reminders"]}


def test_the_reminders_print_the_values_in_effect_with_their_rules(shipped):
    scs = _reminders(_card(shipped, "scs-1.8")[0])
    assert list(scs) == ["odds", "zoc", "overrun", "attack", "retreat", "advance"]
    # off-table attacks, stated in the words the CRT's legend uses (this card prints no CRT)
    assert ("combat.below_table", "A1", "7.4") in scs["odds"] and ("combat.above_table", "", "7.4") in scs["odds"]
    stated = [line["meaning"].text for line in _card(shipped, "scs-1.8")[0]["panels"]["reminders"][0]["lines"]]
    assert "An attack above the right-most column uses it; shifts start there." in stated
    assert ("zoc.entry_cost", "+2 MP", "2.1a") in scs["zoc"] and ("zoc.range", "1 hex", "2.0b") in scs["zoc"]
    assert ("overrun.cost", "2 MP", "6.0") in scs["overrun"]
    assert ("overrun.max_target_cost", "2 MP", "6.0c") in scs["overrun"]
    assert ("retreat.ezoc_step_loss", "1 step", "2.1d") in scs["retreat"]
    assert ("advance.max_not_exploit_capable", "1 hex", "10.0") in scs["advance"]
    new = _reminders(_card(shipped, "new-scs")[0])
    assert ("overrun.cost", "3 MP", "6.0") in new["overrun"]          # the series variant's own value
    assert not any(name == "overrun.max_target_cost" for name, _, _ in new["overrun"])   # new-scs sets none
    bocage = _reminders(_card(shipped, "bocage")[0])
    # the title's own value is stated once, in its exceptions panel, not again among the reminders
    assert not any(name == "overrun.max_target_cost" for name, _, _ in bocage["overrun"])
    # its out-of-supply values are all in the factors chart or the exceptions: no supply reminder is left
    assert "supply" not in bocage


@pytest.mark.parametrize("rulebook", ["scs-1.8", "new-scs", "vcs", "bocage", "corridor", "ridgeline"])
def test_no_value_is_printed_twice_on_a_card(shipped, rulebook):
    """A parameter's value is on a card once: in the chart that prints it (a strength factor), else in the
    exceptions panel (the title set it), else among the reminders; and a factor of 1 changes nothing and is not
    printed at all."""
    from rulesdsl.cards.charts import charted_parameters
    data, _ = _card(shipped, rulebook)
    resolved = shipped.resolved[rulebook]
    reminded = [line["name"] for topic in data["panels"]["reminders"] for line in topic["lines"]
                if "." in line["name"]]     # a parameter's line, not the odds reminder's own sentences
    excepted = [v["name"] for item in data["panels"]["exceptions"] for v in item["settings"]]
    charted = charted_parameters(resolved)
    assert len(reminded) == len(set(reminded))
    assert set(reminded).isdisjoint(excepted) and set(reminded).isdisjoint(charted)
    assert set(excepted).isdisjoint(charted)
    factors = [e["factor"].text for e in (data["factors"] or {"entries": []})["entries"]]
    assert "1" not in factors


def test_the_odds_reminder_reads_the_rounding_rule(shipped):
    scs, html = _card(shipped, "scs-1.8")
    odds = [line["meaning"].text for line in scs["panels"]["reminders"][0]["lines"]]
    assert "Fractions of ½ or more round up, smaller ones down" in odds
    assert "Fractions are kept until the odds are worked out" in odds
    ridgeline = _card(shipped, "ridgeline")[0]
    lines = ridgeline["panels"]["reminders"][0]["lines"]
    assert lines[1]["meaning"].text == "Odds round down, in the defender's favour"
    assert lines[1]["rule"] == "10.8, 11.1.5, 11.2.5"      # the rounding rule's numbered citations
    # a card with a CRT says what an off-table attack does once, in the CRT's legend, not again in the reminders
    assert not any(name.startswith("combat.") for name, _, _ in _reminders(ridgeline)["odds"])
    assert "An attack below the left-most column uses it." in charts.render_html(ridgeline)
    assert 'id="reminders"' in html and 'id="reminder-zoc"' in html


def test_the_french_panels_are_translated_or_marked(shipped):
    data, html = _card(shipped, "bocage", "fr")
    panels = "".join(re.search(rf'<section[^>]* id="{name}".*?</section>', html, re.S).group(0)
                     for name in ("exceptions", "reminders", "reminders-zoc"))
    assert "Exceptions de ce jeu" in panels and "Aide-mémoire" in panels
    assert "Coût d&#39;entrée maximal de l&#39;hex cible d&#39;un Overrun" in panels and "1 MP" in panels
    assert "+2 MP" in panels and "oui" in panels
    assert 'class="fallback"' not in panels, re.findall(r'class="fallback"[^>]*>([^<]*)', panels)
    # a label the French set lacks is shown in English, marked, and named in the warning
    data, warnings = charts.card(_resolved()["tiny"], "fr", shipped.labels)
    assert "rule.1.0.summary" in data["missing"] and any("rule.1.0.summary" in w.message for w in warnings)


def test_every_tec_row_has_a_swatch(shipped):
    assert 'class="tec"' not in _card(shipped, "new-scs")[1]      # a series' example TEC is not printed
    for key in ("bocage", "ridgeline", "corridor"):
        data, html = _card(shipped, key)
        rows = re.findall(r'<tr class="terrain-row[^"]*"><td>(.*?)</td>', html)
        assert rows and all('class="swatch"' in row for row in rows), key
    _, html = _card(shipped, "bocage")
    assert re.search(r'data-terrain="bocage"><svg[^>]*><rect width="10" height="10" fill="#6f8f3a"/><path', html)


def test_swatches_default_by_terrain_name_and_are_stable():
    assert charts.swatch_for("woods") == charts.swatch_for("forest") == charts.DEFAULT_SWATCHES["woods"]
    assert charts.swatch_for("light-woods") == charts.DEFAULT_SWATCHES["woods"]
    assert charts.swatch_for("minor-river") == charts.DEFAULT_SWATCHES["river"]
    assert charts.swatch_for("marsh").pattern == "waves"
    assert charts.swatch_for("woods", {"woods": charts.Swatch("#000000")}) == charts.Swatch("#000000")
    odd = charts.swatch_for("tundra")
    assert re.fullmatch(r"#[0-9a-f]{6}", odd.colour) and odd == charts.swatch_for("tundra")
    assert odd != charts.swatch_for("steppe")
    data, _ = charts.card(_resolved()["tiny"], "en", {})
    assert data["panels"]["swatches"]["Tundra"]["colour"] == odd.colour


def test_a_declared_chart_prints_as_a_track(shipped):
    data, _ = charts.card(_resolved("card {\n  charts: turns\n}\n")["tiny"], "en", shipped.labels)
    chart, = data["panels"]["charts"]
    assert chart["track"] and chart["title"].text == "Turn Record Track"
    assert [b["key"] for b in chart["boxes"]] == ["1", "2", "3"]
    assert [c.text for c in chart["boxes"][0]["cells"]] == ["6-june"]
    assert chart["labels"][0].text == "Date"
    html = charts.render_html(data)
    assert 'id="chart-turns"' in html and 'class="track"' in html
    assert 'id="table-turns"' not in html                # printed once, as the chart the card block asks for
    plain = charts.render_html(charts.card(_resolved()["tiny"], "en", shipped.labels)[0])
    assert 'id="table-turns"' in plain and 'id="chart-turns"' not in plain
