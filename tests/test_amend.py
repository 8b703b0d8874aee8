"""Fine-grained overrides: `amend` changes one parameter, TEC row or CRT cell of an inherited
definition, and every amended item keeps the rulebook it comes from (module, card, diff --resolved)."""
from __future__ import annotations

import importlib.util
import json
import re
import sys

import pytest

from conftest import ROOT
from rulesdsl import ir
from rulesdsl.codegen import generate
from rulesdsl.fmt import format_source
from rulesdsl.project import compile_project
from rulesdsl.source import Source
from rulesdsl.transform import parse

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
    own = re.search(r'<section class="chart" id="own">(.*?)</section>', html, re.S)
    assert own is not None
    items = re.findall(r"<li>(.*?)</li>", own.group(1), re.S)
    assert [re.sub(r"<[^>]+>", "", i).strip() for i in items] == [
        "[7.4] The result of an attack below the left-most odds column (no roll): A2†", "[CRT] 3:1 x 4: D2r2†"]


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
  supply.out_of_supply_may_bombard     = yes
}
''')
    code, html, err = project.run("chart", "plain", "--format", "html", "--out", "-", capsys=capsys)
    assert code == 0, err
    assert 'id="own"' not in html and "cell own" not in html


def test_diff_resolved_shows_exactly_the_two_items(errata, capsys):
    project, _ = errata
    code, out, err = project.run("diff", "--resolved", "house", "errata", "--format", "json", capsys=capsys)
    changes = [c for c in json.loads(out)["changes"] if c["area"] != "rulebook"]
    assert [(c["group"], c["what"], c["old"], c["new"]) for c in changes] == [
        ("7.4", "combat.below_table", "A1", "A2"),
        ("Combat Results Table", "3:1 x 4", "D1r1", "D2r2"),
    ]


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
    assert rows["village"].combat.shift == -1 and len(rows) == 12
    assert [(a.key, a.origin) for a in terrain.amended] == [("woods", "tec")]
    assert "# row woods: woods: movement 3, combat 2L, amended by tec" in generate(compilation.resolved["tec"])


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
    assert "# phase player turn: movement: movement [3.0 5.0] movement, amended by phases" in generate(resolved)
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
