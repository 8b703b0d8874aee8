"""Fine-grained overrides: `amend` changes one parameter, TEC row or CRT cell of an inherited
definition, and every amended item keeps the rulebook it comes from (module, card, diff --resolved)."""
from __future__ import annotations

import importlib.util
import json
import re
import sys

import pytest

from conftest import ROOT
from rulesdsl.model import ir
from rulesdsl.modules.codegen import generate
from rulesdsl.language.fmt import format_source
from rulesdsl.project.build import compile_project
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

# A publisher's house series on the shipped SCS (through New SCS, which prints the CRT): it sets the
# stacking limit every SCS game must set, so that a game of it can say nothing but its errata.
HOUSE = '''series house "House rules" version "1.0" extends new-scs

rule H1.0 "Stacking limit" {
  summary "Up to five steps may stack in one hex."
  stacking.limit = 5 steps
}
'''

# a game that amends one CRT cell and one parameter
ERRATA = '''game errata "Errata (a test title)" version "1.0" extends house

amend rule 7.4 {
  combat.below_table = A2
}

amend combat results table {
  odds  3:1
  4     D2r2
}
'''


@pytest.fixture
def errata(project):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    path = project.write("rulebooks/games/errata.rules", ERRATA)
    compilation = compile_project(project.root, [path])
    assert compilation.diagnostics == []
    return project, compilation.resolved["errata"]


def test_resolve_records_the_two_amended_items_and_keeps_the_rest(errata):
    _, resolved = errata
    own = [(a.key, a.text) for e in resolved.rules for a in e.amended if a.origin == "errata"]
    assert own == [("combat.below_table", "A2")]
    rule = next(e for e in resolved.rules if e.node.id.value == "7.4")
    assert rule.origin == "scs-1.8"                # the rule is still the series' ...
    assert [p.name.value for p in rule.node.parameters] == [     # ... with every other parameter kept
        "combat.below_table", "combat.above_table", "combat.imaginary_columns",
        "combat.shift_off_left_is_below_table"]
    assert rule.node.title is not None and rule.node.summary is not None
    parameters = {p.name: p for p in resolved.parameters}
    assert parameters["combat.below_table"].origin == "errata"
    assert parameters["combat.above_table"].origin == "scs-1.8"
    assert [p.name for p in resolved.parameters if p.origin == "errata"] == ["combat.below_table"]

    assert resolved.results is not None and resolved.results.origin == "new-scs"
    assert [(a.key, a.text, a.origin) for a in resolved.results.amended] == [("3:1 x 4", "D2r2", "errata")]
    table = resolved.results.node
    cells = {(c.value, r.label.value): r.cells[i].value for r in table.rows for i, c in enumerate(table.columns)}
    assert cells[("3:1", "4")] == "D2r2"
    assert cells[("4:1", "4")] == "D1r1" and cells[("3:1", "5")] == "D1r1"    # the neighbours are the series'
    assert table.attacker is not None and len(table.attacker.rows) == 13      # the attacker side untouched


def test_the_module_shows_exactly_the_two_items_as_the_games_own(errata):
    project, resolved = errata
    source = generate(resolved)
    path = project.root / "errata_module.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("errata_module_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    assert [p.name for p in module.PARAMETERS.values() if p.origin == "errata"] == ["combat.below_table"]
    assert module.PARAMETERS["combat.below_table"].source.endswith("errata.rules:4")
    assert module.crt("3:1", 4) == module.CRT.result("3:1", 4) and module.CRT.rows["4"][3] == "D2r2"
    amended = [line for line in source.splitlines() if "amended by" in line]
    assert amended == ["# cell 3:1 x 4: D2r2, amended by errata (rulebooks/games/errata.rules:9)"]
    assert all(r.origin != "errata" for r in module.RULES.values())     # no rule is the game's own


def test_the_card_marks_exactly_the_two_items(errata, capsys):
    project, _ = errata
    code, html, err = project.run("chart", "errata", "--format", "html", "--out", "-", capsys=capsys)
    assert code == 0, err
    assert re.findall(r'<td class="cell own">([^<]*)<sup', html) == ["D2r2"]
    assert _exceptions(html) == [
        "7.4 Odds Determination (amended)",
        "The result of an attack below the left-most odds column (no roll): A2 (series: A1)",
        "7.4 Combat Results Table (amended)", "3:1 column, roll 4: D2r2"]
    code, html, err = project.run("chart", "errata", "--format", "html", "--lang", "fr", "--out", "-", capsys=capsys)
    assert code == 0, err
    assert "colonne 3:1, jet 4 : D2r2" in _exceptions(html)
    assert "jet 4 : " in html          # French sets a no-break space before the colon
    assert "3:1 x 4" not in html        # the table coordinate is the errata's notation, not the card's


def _exceptions(html: str) -> list[str]:
    """The lines of the card's panel of the title's exceptions, as read (tags gone)."""
    found = re.search(r'<section class="chart panel exceptions" id="exceptions">(.*?)</section>', html, re.S)
    assert found is not None
    text = re.sub(r"<(?:li|ul)[^>]*>", "\n", found.group(1))
    return [line for line in (" ".join(re.sub(r"<[^>]+>", " ", l).split()) for l in text.split("\n"))
            if line and not line.startswith("This title&#39;s exceptions")]


def test_a_game_without_amendments_marks_nothing(capsys, project):
    # every shipped game now amends something: a game of the house series that only overrides a whole rule
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    project.write("rulebooks/games/plain.rules", '''game plain "Plain (a test title)" version "1.0" extends house

override rule 12.2 "Out of Supply Effects" {
  summary "Out-of-supply units are halved in every factor; nothing else changes."
  supply.effects_from_marking          = yes
  supply.out_of_supply_attack_factor   = 1/2
  supply.out_of_supply_defense_factor  = 1/2
  supply.out_of_supply_movement_factor = 1/2
  supply.out_of_supply_may_exploit     = yes
  supply.out_of_supply_may_react       = yes
  bombardment.out_of_supply_allowed   = yes
}
''')
    code, html, err = project.run("chart", "plain", "--format", "html", "--out", "-", capsys=capsys)
    assert code == 0, err
    assert 'id="own"' not in html and "cell own" not in html


def test_diff_resolved_shows_exactly_the_two_items(errata, capsys):
    project, _ = errata
    code, out, err = project.run("diff", "--resolved", "house", "errata", "--format", "json", capsys=capsys)
    changes = [c for c in json.loads(out)["changes"] if c["area"] not in ("rulebook", "examples")]
    # in rule order: the CRT is filed under the rule it cites, before 7.4
    assert [(c["group"], c["what"], c["old"], c["new"]) for c in changes] == [
        ("Combat Results Table", "3:1 x 4", "D1r1", "D2r2"),
        ("7.4", "combat.below_table", "A1", "A2"),
    ]
    # and what they change in play: the inherited example of an attack below the table answers A2 now (A5's
    # terrain shift off the table reads the left-most column for the defender, below_table does not touch it)
    answers = [(c["what"], c["old"], c["new"]) for c in json.loads(out)["changes"] if c["area"] == "examples"]
    assert answers == [
        ("new-scs's example A5. New SCS attacks below the table: expect combat a on 3.03",
         "odds 1:3 roll 7 result A1", "odds 1:3 roll 7 result A2")]


def test_amendments_layer_a_series_variant_and_the_game_keep_each_origin(project):
    """A variant amends a cell, the game amends another and the variant's parameter again: each item
    keeps the rulebook of its nearest amendment."""
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    project.write("rulebooks/series/variant.rules", '''series variant "A variant" version "1.0" extends house

amend rule 7.4 {
  combat.below_table = A2
}

amend combat results table {
  odds  1:2
  2     D1
}
''')
    path = project.write("rulebooks/games/layered.rules", '''game layered "Layered" version "1.0" extends variant

amend rule 7.4 {
  combat.below_table = A3
}

amend combat results table {
  odds  5:1
  13+   D3r3
}
''')
    compilation = compile_project(project.root, [path])
    assert compilation.diagnostics == []
    resolved = compilation.resolved["layered"]
    assert resolved.results is not None
    assert {a.key: a.origin for a in resolved.results.amended} == {"1:2 x 2": "variant", "5:1 x 13+": "layered"}
    assert {p.name: p.origin for p in resolved.parameters}["combat.below_table"] == "layered"


def test_a_tec_row_amendment(project):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    path = project.write("rulebooks/games/tec.rules", '''game tec "TEC" version "1.0" extends house

amend terrain effects chart {
  hex:
    woods  3  2L
}
''')
    compilation = compile_project(project.root, [path])
    assert compilation.diagnostics == []
    terrain = compilation.resolved["tec"].terrain
    assert terrain is not None and terrain.origin == "new-scs"
    rows = {r.name.value: r for r in terrain.node.rows}
    assert rows["woods"].movement.amount == 3 and rows["woods"].combat.shift == -2
    assert rows["village"].combat.shift == -1 and len(rows) == 15
    assert [(a.key, a.origin) for a in terrain.amended] == [("woods", "tec")]
    assert "# row woods: movement 3, combat 2L, amended by tec" in generate(compilation.resolved["tec"])


def test_a_terrain_line_table_amends_a_cell_of_a_named_line(project):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/lined.rules", '''series lined "Lined" version "1.0" extends vcs

combat results table "A terrain-line table" dice 2d6 notation retreat-first {
  odds open   1:1  2:1
  odds close  2:1  3:1
  2-7         A1   D1
  8-12        D1   D2
}
''')
    path = project.write("rulebooks/games/lines.rules", '''game lines "Lines" version "1.0" extends lined

amend combat results table {
  odds close  3:1
  8-12        D2(1)
}
''')
    compilation = compile_project(project.root, [path])
    assert compilation.diagnostics == []
    results = compilation.resolved["lines"].results
    assert results is not None
    assert [(a.key, a.text) for a in results.amended] == [("2:1 x 8-12", "D2(1)")]   # keyed by the first line


@pytest.mark.parametrize("text", [
    ERRATA,
    "game g \"G\" version \"1\" extends base\n\namend terrain effects chart {\n  hex:\n    woods  3  Dx2\n}\n",
])
def test_amendments_format_and_round_trip(text):
    messy = text.replace("  ", "      ").replace("odds", "odds   ")
    formatted = format_source(Source("x.rules", messy))
    assert formatted != messy and format_source(Source("x.rules", formatted)) == formatted
    assert parse(Source("x.rules", formatted)) == parse(Source("x.rules", text))


def test_the_language_reference_example_compiles(project):
    """docs/language.md's amendment example compiles against the shipped series, and every item it
    amends is the example game's own."""
    language = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = language.split("## Amendments (errata)", 1)[1]
    example = re.search(r"```rules\n(.*?)```", section, re.S)
    assert example is not None
    project.add_repo_rulebooks()
    path = project.write("rulebooks/games/errata-demo.rules", example.group(1))
    compilation = compile_project(project.root, [path])
    assert compilation.diagnostics == []
    resolved = compilation.resolved["errata-demo"]
    assert resolved.terrain is not None and resolved.results is not None
    assert resolved.sequence is not None
    own = sorted(a.key for e in [*resolved.rules, resolved.sequence, resolved.terrain, resolved.results]
                 for a in e.amended if a.origin == "errata-demo")
    assert own == ["3:1 x 4", "4:1 x 4", "combat.below_table", "player turn: movement", "woods"]
    formatted = format_source(Source("example.rules", example.group(1)))
    assert parse(Source("example.rules", formatted)) == parse(Source("example.rules", example.group(1)))


def test_the_ir_keeps_amend_apart_from_override():
    book = parse(Source("x.rules", ERRATA))
    assert book.rules[0].amend and not book.rules[0].override
    assert book.results[0].amend and book.results[0].dice.value == ""
    assert isinstance(book.results[0].grid, ir.Grid)


def test_a_phase_amendment(project, capsys):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    path = project.write("rulebooks/games/phases.rules", '''game phases "Phases" version "1.0" extends house

amend sequence of play {
  player turn {
    movement  [3.0 5.0]  movement
  }
}
''')
    compilation = compile_project(project.root, [path])
    assert compilation.diagnostics == []
    resolved = compilation.resolved["phases"]
    sequence = resolved.sequence
    assert sequence is not None and sequence.origin == "new-scs"
    inherited = compilation.resolved["house"].sequence
    assert inherited is not None
    old = [i for b in inherited.node.blocks for i in b.items]
    now = [i for b in sequence.node.blocks for i in b.items]
    assert [i.name.value for i in now] == [i.name.value for i in old]       # the order holds
    changed = [(a, b) for a, b in zip(old, now) if a != b]
    assert len(changed) == 1 and changed[0][1].activities[0].value == "movement"
    assert [(a.key, a.origin) for a in sequence.amended] == [("player turn: movement", "phases")]
    assert "# phase player turn: movement: [3.0 5.0] movement, amended by phases" in generate(resolved)
    code, out, err = project.run("diff", "--resolved", "house", "phases", capsys=capsys)
    assert "Sequence of play" in out and "movement" in out


def test_ridgeline_amends_two_series_rules_and_owns_only_what_it_changes():
    """The shipped Ridgeline amends 8.0 and 7.1 of VCS: the changed parameters are its own, the rest of
    each rule (parameters, notes, references) stays the series'."""
    from generated import ridgeline, vcs
    assert ridgeline.PARAMETERS["stacking.limit_units"].origin == "ridgeline"
    assert ridgeline.PARAMETERS["zoc.exit_cost_rounds_down"].origin == "ridgeline"
    assert ridgeline.PARAMETERS["stacking.checked_at"].origin == "vcs"
    assert ridgeline.PARAMETERS["zoc.exit_cost_fraction"].origin == "vcs"
    assert ridgeline.RULES["8.0"].origin == "vcs" and ridgeline.RULES["8.0"].title == "Stacking"
    assert set(vcs.RULES["8.0"].notes) < set(ridgeline.RULES["8.0"].notes)
    changed = {name for name, p in ridgeline.PARAMETERS.items()
               if name in vcs.PARAMETERS and p.value != vcs.PARAMETERS[name].value and p.rule in ("8.0", "7.1")}
    assert changed == {"stacking.limit_units", "zoc.exit_cost_rounds_down"}


# ---- one side's player turn --------------------------------------------------------------------------------
# a house series where the sides play different phases: a game amends the Soviet turn only
SIDED = '''series sided "Sided" version "1.0" extends house

override sequence of play [1.0] {
  game turn {
    player turn german
    player turn soviet
  }
  player turn german {
    movement [3.0] movement
    combat [7.4] combat
  }
  player turn soviet {
    rail-movement strategic-movement
    movement movement
    combat [7.4] combat
  }
}
'''


def _sided(project, body: str):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    project.write("rulebooks/series/sided.rules", SIDED)
    path = project.write("rulebooks/games/front.rules",
                         'game front "Front" version "1.0" extends sided\n\n' + body)
    return compile_project(project.root, [path])


SOVIET_MOVEMENT = '''amend sequence of play {
  player turn soviet {
    movement  [3.0]  movement, overrun
  }
}
'''


def test_a_side_amendment_changes_only_that_sides_turn(project, capsys):
    compilation = _sided(project, SOVIET_MOVEMENT)
    assert compilation.diagnostics == []
    resolved = compilation.resolved["front"]
    sequence = resolved.sequence
    assert sequence is not None and sequence.origin == "sided"
    turns = {b.side.value: b for b in sequence.node.blocks if b.side is not None}
    german = {i.name.value: i for i in turns["german"].items}
    soviet = {i.name.value: i for i in turns["soviet"].items}
    assert [a.value for a in german["movement"].activities] == ["movement"]              # untouched
    assert [a.value for a in soviet["movement"].activities] == ["movement", "overrun"]   # amended
    assert list(soviet) == ["rail-movement", "movement", "combat"]                       # the order holds
    assert [(a.key, a.origin) for a in sequence.amended] == [("player turn soviet: movement", "front")]
    # the module says the side ...
    assert "# phase player turn soviet: movement: [3.0] movement, overrun, amended by front" \
        in generate(resolved)
    # ... and the card ...
    code, html, err = project.run("chart", "front", "--format", "html", "--out", "-", capsys=capsys)
    assert code == 0, err
    assert _exceptions(html) == ["1.0 Sequence of Play (amended)",
                                 "player turn soviet: movement: [3.0] movement, overrun"]
    marked = re.findall(r"<h3>Player Turn — (\w+)</h3>(.*?)</table>", html, re.S)
    assert [(side, re.findall(r"\d\. (\w[\w ]*)<sup", rows)) for side, rows in marked] == [
        ("German", []), ("Soviet", ["Movement"])]          # the Soviet movement phase only
    # ... and diff --resolved, under that side's turn only
    code, out, err = project.run("diff", "--resolved", "sided", "front", "--format", "json", capsys=capsys)
    assert code in (0, 1), err
    changes = [c for c in json.loads(out)["changes"] if c["area"] != "rulebook"]
    assert [(c["group"], c["what"], c["new"]) for c in changes] == [
        ("Sequence of play: soviet player turn", "movement cites", "3.0"),
        ("Sequence of play: soviet player turn", "movement activities", "units move; units may overrun")]


@pytest.mark.parametrize("body, message, hint", [
    (SOVIET_MOVEMENT.replace("soviet", "sovjet"), "the sequence of play of sided has no player turn sovjet",
     "did you mean 'soviet'?"),
    (SOVIET_MOVEMENT.replace("soviet", "italian"), "the sequence of play of sided has no player turn italian",
     "its sides are german, soviet"),
    (SOVIET_MOVEMENT.replace("player turn soviet", "player turn"),
     "the sequence of play of sided has a player turn per side: name the one amended",
     "name its side after 'player turn': german or soviet"),
    (SOVIET_MOVEMENT.replace("movement  [3.0]", "supply  [3.0]").replace("soviet", "german"),
     "the player turn german of sided has no phase 'supply'", "its phases are movement, combat"),
])
def test_amending_a_side_the_ancestor_lacks_is_a_positioned_error(project, capsys, body, message, hint):
    compilation = _sided(project, body)
    assert [(d.message, d.hint) for d in compilation.diagnostics] == [(message, hint)]
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1 and re.search(r"front\.rules:[45]:\d+: error: " + re.escape(message), err), err
    assert "^" in err and "Traceback" not in err


def test_a_side_amendment_of_a_shared_player_turn_is_an_error(project):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    path = project.write("rulebooks/games/one.rules", 'game one "One" version "1.0" extends house\n\n'
                         + SOVIET_MOVEMENT)
    compilation = compile_project(project.root, [path])
    assert [(d.span.line, d.message, d.hint) for d in compilation.diagnostics] == [
        (4, "the sequence of play of new-scs has no player turn soviet: its sides share one player turn",
         "amend it as 'player turn { ... }', with no side")]


# ---- one TEC cell, a new TEC row, a new CRT column ---------------------------------------------------------
CELLS = '''game cells "Cells" version "1.0" extends house

amend terrain effects chart {
  hex:
    woods    combat    2L
    village  movement  2
    marsh    3         1L
}

amend combat results table {
  odds  7:1
  1-    D1
  2     D1
  3     D1r1
  4     D1r1
  5     D2r1
  6     D2r1
  7     D2r2
  8     D2r2
  9     D3r2
  10    D3r2
  11    D3r3
  12    D4r3
  13+   D4r4
}
'''


@pytest.fixture
def cells(project):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    path = project.write("rulebooks/games/cells.rules", CELLS)
    compilation = compile_project(project.root, [path])
    assert compilation.diagnostics == []
    return project, compilation.resolved["cells"]


def test_one_tec_cell_changes_and_the_other_is_inherited(cells):
    _, resolved = cells
    terrain = resolved.terrain
    assert terrain is not None and terrain.origin == "new-scs"
    rows = {r.name.value: r for r in terrain.node.rows}
    # woods was 2 1L: its combat cell is the game's, its movement cost the series'
    assert (rows["woods"].movement.amount, rows["woods"].combat.shift) == (2, -2)
    # village was 1 1L: its movement cost is the game's, its combat shift the series'
    assert (rows["village"].movement.amount, rows["village"].combat.shift) == (2, -1)
    # marsh is new: after the last hex terrain, before the roads
    assert [r.name.value for r in terrain.node.rows][:8] == [
        "open", "woods", "village", "city", "swamp", "lake", "marsh", "road"]
    assert [(a.key, a.text, a.origin) for a in terrain.amended] == [
        ("marsh", "marsh: movement 3, combat 1L", "cells"),
        ("woods combat", "woods: combat 2L", "cells"),
        ("village movement", "village: movement 2", "cells")]
    source = generate(resolved)
    assert "# row woods combat: 2L, amended by cells (rulebooks/games/cells.rules:5)" in source


def test_a_new_crt_column_is_inserted_in_odds_order_and_is_the_games_own(cells):
    project, resolved = cells
    results = resolved.results
    assert results is not None and results.origin == "new-scs"
    table = results.node
    assert [c.value for c in table.columns][-2:] == ["5:1", "7:1"]
    assert all(len(r.cells) == len(table.columns) for r in table.rows)
    assert {r.label.value: r.cells[-1].value for r in table.rows}["12"] == "D4r3"
    assert [(a.key, a.origin) for a in results.amended] == [("7:1 column", "cells")]
    module = generate(resolved)
    path = project.root / "cells_module.py"
    path.write_text(module, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("cells_module_under_test", path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = loaded
    try:
        spec.loader.exec_module(loaded)
    finally:
        del sys.modules[spec.name]
    assert loaded.CRT.result("7:1", 12).text == "D4r3" and loaded.CRT.result("5:1", 12).text == "D3r4"


def test_the_card_marks_exactly_the_amended_cells_and_the_new_row_and_column(cells, capsys):
    project, _ = cells
    code, html, err = project.run("chart", "cells", "--format", "html", "--out", "-", capsys=capsys)
    assert code == 0, err
    own_cells = re.findall(r'<td class="num own">([^<]*)<sup', html)
    assert own_cells == ["2L", "2"]             # woods' combat cell, village's movement cell
    html = re.sub(r'<span class="swatch".*?</svg></span>', "", html)     # each row's terrain swatch
    woods = re.search(r'<tr class="terrain-row"><td>Woods</td><td class="num">2</td>', html)
    assert woods is not None                     # woods' movement cell is the series', unmarked
    assert re.search(r'<tr class="terrain-row own"><td>Marsh<sup', html)
    assert re.findall(r'<td class="cell own">([^<]*)<sup', html) == [
        "D1", "D1", "D1r1", "D1r1", "D2r1", "D2r1", "D2r2", "D2r2", "D3r2", "D3r2", "D3r3", "D4r3", "D4r4"]
    assert _exceptions(html)[1:] == [
        "Marsh: movement 3, combat 1L", "Woods: combat 2L", "Village: movement 2",
        "7.4 Combat Results Table (amended)",
        "new 7:1 column: D1 D1 D1r1 D1r1 D2r1 D2r1 D2r2 D2r2 D3r2 D3r2 D3r3 D4r3 D4r4"]


def test_diff_resolved_shows_exactly_the_amended_cells(cells, capsys):
    project, _ = cells
    code, out, err = project.run("diff", "--resolved", "house", "cells", "--format", "json", capsys=capsys)
    changes = [c for c in json.loads(out)["changes"] if c["area"] not in ("rulebook", "results", "examples")]
    assert [(c["what"], c["old"], c["new"]) for c in changes] == [
        ("terrain marsh", None, "kind hex, movement 3, combat 1L"), ("woods combat", "1L", "2L"), ("village movement", "1", "2")]
    # what the amended cells do: the series' example of the best column now answers otherwise
    examples = [(c["what"], c["old"], c["new"]) for c in json.loads(out)["changes"] if c["area"] == "examples"]
    assert ("new-scs's example E27. The best column against two-left-shift terrain is 3:1: expect combat 3 on 20.10",
            "column 3:1", "column 4:1") in examples
    columns = [c for c in json.loads(out)["changes"] if c["area"] == "results"]
    assert [c["what"] for c in columns] == ["column 7:1"]


def test_an_unamended_diff_sees_a_changed_cell(project, capsys):
    """Without --resolved: the amendment's own cells, keyed by terrain and column."""
    old = project.write("rulebooks/games/old.rules", CELLS)
    new = project.write("rulebooks/new.rules", CELLS.replace("woods    combat    2L", "woods    combat    3L"))
    code, out, err = project.run("diff", str(old), str(new), capsys=capsys)
    assert code == 1 and "woods combat combat: 2L -> 3L" in out, out


@pytest.mark.parametrize("line, message, hint", [
    ("    wodos  combat  2L", "the terrain effects chart of new-scs has no terrain 'wodos'", "did you mean 'woods'?"),
    ("    bog  combat  2L", "the terrain effects chart of new-scs has no terrain 'bog'",
     "a single cell changes a row of the inherited chart; a terrain of the game's own needs its whole row: "
     "name, movement cost, combat effect"),
    ("    woods  combat  1L", "amendment of the combat of terrain 'woods' changes nothing: new-scs already has the "
                             "same cell", "delete the line, or give the value the game changes it to"),
])
def test_a_cell_of_a_row_no_ancestor_has_is_a_positioned_error(project, capsys, line, message, hint):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    project.write("rulebooks/games/bad.rules", 'game bad "Bad" version "1.0" extends house\n\n'
                  f"amend terrain effects chart {{\n  hex:\n{line}\n}}\n")
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1 and f"rulebooks/games/bad.rules:5:5: error: {message}\n" in err, err
    assert f"hint: {hint}" in err and "^" in err and "Traceback" not in err


@pytest.mark.parametrize("chart, message", [
    ("terrain effects chart {\n  hex:\n    open  1  ne\n    woods  combat  2L\n}\n",
     "6:5: error: a single combat cell for 'woods' belongs to an amendment"),
    ("amend terrain effects chart {\n  hex:\n    woods  combat  2L\n    woods  combat  3L\n}\n",
     "6:5: error: the combat of terrain 'woods' is amended twice"),
    ("amend terrain effects chart {\n  hex:\n    woods  2  2L\n    woods  movement  3\n}\n",
     "6:5: error: the movement of terrain 'woods' is amended twice"),
    ("amend terrain effects chart {\n  hexside:\n    woods  combat  2L\n}\n",
     "5:5: error: 'woods' is hex terrain on the inherited chart"),
    ("amend terrain effects chart {\n  hex:\n    woods  combat  2L 3L\n}\n",
     "5:23: error: two column shifts in one cell"),
    ("amend combat results table {\n  odds  7:1\n  2  D1\n}\n",
     "4:9: error: the combat results table of new-scs has no column 7:1\n"),
])
def test_wrong_cell_amendments_are_positioned_errors(project, capsys, chart, message):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    project.write("rulebooks/games/bad.rules", 'game bad "Bad" version "1.0" extends house\n\n' + chart)
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1 and f"rulebooks/games/bad.rules:{message}" in err, err
    assert "Traceback" not in err


def test_a_whole_row_amendment_replaces_an_earlier_cell_amendment(project):
    """A variant amends woods' combat cell; the game then restates the whole row: the cell is the game's."""
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    project.write("rulebooks/series/variant.rules", 'series variant "V" version "1.0" extends house\n\n'
                  "amend terrain effects chart {\n  hex:\n    woods  combat  2L\n    village  combat  2L\n}\n")
    path = project.write("rulebooks/games/g.rules", 'game g "G" version "1.0" extends variant\n\n'
                         "amend terrain effects chart {\n  hex:\n    woods  3  3L\n    village  movement  2\n}\n")
    compilation = compile_project(project.root, [path])
    assert compilation.diagnostics == []
    terrain = compilation.resolved["g"].terrain
    assert terrain is not None
    assert sorted((a.key, a.origin) for a in terrain.amended) == [
        ("village combat", "variant"), ("village movement", "g"), ("woods", "g")]


def test_cell_amendments_format_and_round_trip():
    test_amendments_format_and_round_trip(CELLS)
    formatted = format_source(Source("x.rules", CELLS.replace("woods    combat    2L", "woods combat   Dx2   1L")))
    assert "    woods    combat    Dx2 1L\n" in formatted
    assert parse(Source("x.rules", formatted)).terrain[0].cells[0].combat.defender == 2


def test_the_reference_amendment_example_owns_each_item_it_amends():
    from rulesdsl.project import reference
    from rulesdsl.project.build import compile_sources
    compilation = compile_sources([Source("rulebooks/my-errata.rules", reference.AMEND_EXAMPLE)])
    assert compilation.diagnostics == []
    resolved = compilation.resolved["my-errata"]
    assert resolved.sequence is not None and resolved.terrain is not None
    own = [a.key for e in [*resolved.rules, resolved.sequence, resolved.terrain]
           for a in e.amended if a.origin == "my-errata"]
    assert own == ["combat.below_table", "player turn: movement", "marsh", "woods combat", "open movement"]


@pytest.mark.parametrize("target, errors", [
    ("stream", []),                                   # an inherited hexside: fine in an amendment
    ("strem", ["5:31: unknown terrain 'strem'"]),
    ("woods", ["5:31: 'bridge' can only negate a hexside feature; 'woods' is hex terrain"]),
])
def test_an_amended_cell_negates_a_terrain_of_the_chart_in_effect(project, target, errors):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    path = project.write("rulebooks/games/neg.rules", 'game neg "Neg" version "1.0" extends house\n\n'
                         f"amend terrain effects chart {{\n  hexside:\n    bridge  movement  negates {target}\n}}\n")
    compilation = compile_project(project.root, [path])
    assert [f"{d.span.line}:{d.span.column}: {d.message}" for d in compilation.diagnostics] == errors


def test_a_classic_table_is_amended_in_its_declared_codes(project):
    """A series whose CRT prints declared codes (DE, DR ...): an amended cell, and a new column, are read
    in those codes, not in the SCS notation."""
    from test_result_codes import GAME as CLASSIC_GAME, SERIES as CLASSIC
    project.write("rulebooks/classic.rules", CLASSIC + "\n" + CLASSIC_GAME.split("\n", 2)[2])
    cell = project.write("rulebooks/cell.rules", 'game cell "Cell" version "1.0" extends classic\n\n'
                         "amend combat results table {\n  odds  1:1\n  1     DR\n}\n")
    column = project.write("rulebooks/column.rules", 'game column "Column" version "1.0" extends classic\n\n'
                           "amend combat results table {\n  odds  7:1\n  1     DE\n  2     DE\n  3     DE\n"
                           "  4     DE\n  5     DE\n  6     DX\n}\n")
    compilation = compile_project(project.root, [cell, column])
    assert [(d.span.line, d.span.column, d.message, d.hint) for d in compilation.diagnostics] == [
        (10, 9, "'DX' is not a declared result code", "the declared codes are DE, DR, DRL, EX, AL, AE, NE, NA")]
    column.write_text(column.read_text(encoding="utf-8").replace("DX", "EX"), encoding="utf-8")
    compilation = compile_project(project.root, [cell, column])
    assert compilation.diagnostics == []
    one, added = compilation.resolved["cell"].results, compilation.resolved["column"].results
    assert one is not None and added is not None
    assert [(a.key, a.text) for a in one.amended] == [("1:1 x 1", "DR")]
    assert [(a.key, a.text) for a in added.amended] == [("7:1 column", "DE DE DE DE DE EX")]
    assert [c.value for c in added.node.columns] == ["1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1"]


def test_an_amended_game_turn_phase_is_marked_where_the_card_prints_it(project, capsys):
    project.add_repo_rulebooks()
    project.write("rulebooks/series/house.rules", HOUSE)
    project.write("rulebooks/games/eot.rules", 'game eot "Eot" version "1.0" extends house\n\n'
                  "amend sequence of play {\n  game turn {\n    end-of-turn  [1.0]  turn-marker\n  }\n}\n")
    code, html, err = project.run("chart", "eot", "--out", "-", capsys=capsys)
    assert code == 0, err
    game_turn = re.search(r'<ol class="sequence">(.*?)</ol>', html, re.S)
    assert game_turn is not None
    assert re.findall(r'<span class="break">([^<]*)</span><sup class="own-mark">', game_turn.group(1)) == \
        ["End of turn"]
    assert "<sup" not in html.split('<ol class="sequence">')[1].split("</ol>")[1].split("</section>")[0]


# ---- die roll modifiers: a game adds or changes one DRM and keeps the others ---------------------------
def test_a_drm_amendment_adds_and_replaces_one_modifier_and_the_game_owns_them(project, capsys):
    project.add_repo_rulebooks()
    path = project.write("rulebooks/games/drm.rules", '''game drm "DRM" version "1.0" extends new-scs

rule G1.0 "Stacking" {
  summary "Five steps."
  stacking.limit = 5 steps
}

rule G1.1 "Mud" {
  summary "Mud."
}

amend die roll modifiers [G1.1] cap 2 {
  defender-density  +2  defender  when count(defenders) >= 3
  mud               -1  both      when defender_terrain is woods
}
''')
    compilation = compile_project(project.root, [path])
    assert compilation.diagnostics == []
    modifiers = compilation.resolved["drm"].modifiers
    assert modifiers is not None and modifiers.origin == "new-scs" and modifiers.node.cap == 2
    names = [m.name.value for m in modifiers.node.modifiers]
    assert names[-1] == "mud" and len(names) == 9 and names.count("defender-density") == 1
    assert {m.name.value: m.value for m in modifiers.node.modifiers}["defender-density"] == 2
    assert [(a.key, a.origin) for a in modifiers.amended] == [("defender-density", "drm"), ("mud", "drm"),
                                                              ("cap", "drm")]
    module = compilation.outputs["generated/drm.py"]
    assert "ModifierSpec('mud', -1, 'both'" in module and "game=True" in module.split("ModifierSpec('mud'")[1][:200]
    assert "game=True" not in module.split("ModifierSpec('attacker-armor-advantage'")[1].split("ModifierSpec(")[0]

    # the card lists the game's DRMs and the cap in players' words, cited by the game's own rule
    code, html, err = project.run("chart", "drm", "--format", "html", "--out", "-", capsys=capsys)
    assert code == 0, err
    lines = _exceptions(html)
    at = lines.index("G1.1 Die Roll Modifiers (amended)")
    assert lines[at + 1:at + 4] == ["Defender density: +2 defender side, there are 3 or more defending units",
                                    "Mud: −1 both sides, the defender&#39;s terrain is woods",
                                    "Net DRM on each side at most: ±2"]
    assert "defender_terrain" not in html


def test_a_drm_amendment_that_changes_nothing_or_misspells_an_inherited_one_is_an_error(project):
    project.add_repo_rulebooks()
    path = project.write("rulebooks/games/drm.rules", '''game drm "DRM" version "1.0" extends new-scs

rule G1.0 "Stacking" {
  summary "Five steps."
  stacking.limit = 5 steps
}

amend die roll modifiers {
  defender-density  +1  defender  when count(defenders) >= 3
  defender-densty   +2  defender  when count(defenders) >= 3
}
''')
    found = [(d.span.line, d.span.column, d.message, d.hint) for d in compile_project(project.root, [path]).diagnostics]
    assert found == [
        (9, 3, "amendment of die roll modifier 'defender-density' changes nothing: new-scs already has the same DRM",
         "delete the line, or give the value the game changes it to"),
        (10, 3, "the die roll modifiers of new-scs have no 'defender-densty'", "did you mean 'defender-density'?")]
