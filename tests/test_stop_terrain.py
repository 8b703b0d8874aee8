"""Terrain that ends a move (issue 25): `swamp  2 stop  Dx2`, `dyke  +1 stop  1L`.

A unit that enters the hex (crosses the hexside) pays its cost and moves no further that phase; a road
followed into the hex spares it, as the road spares the hex's cost.  The TEC cell says it, the card prints
it in each language with its legend, fmt aligns it, a diff sees it, and the movement engine executes it."""
from __future__ import annotations

from fractions import Fraction

from generated import scs_1_8
from rulesdsl.errata import diff
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation
from rulesdsl.runtime.terrain import CombatEffect, Movement, Terrain, TerrainEffectsChart

H = Hex.parse

MARSH = '''game marsh "Marsh Crossing (a test title)" version "1.0" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Up to four steps may stack in a hex."
  stacking.limit = 4 steps
}

override terrain effects chart "Marsh TEC" [3.2 7.3] {
  hex:
    open   1       ne
    woods  2       Dx2
    swamp  2 stop  Dx2
  hexside:
    river  P        P
    dyke   +1 stop  1L
  roads:
    road  1/2  ne
}

example "A swamp or a dyke ends the move" [3.2] {
  map 1.01 - 6.06 open
  hex 3.02 swamp
  hexside 2.04/3.04 dyke
  unit a friendly 4-4-8 at 1.01
  unit b friendly 4-4-8 at 1.04
  expect move a 2.01 3.02 costs 1 2 total 3 legal
  expect move a 2.01 3.02 4.02 illegal
  expect move b 2.04 3.04 costs 1 2 total 3 legal
  expect move b 2.04 3.04 4.04 illegal
}
'''


def _engine() -> RulesEngine:
    rows = [r for r in scs_1_8.TERRAIN.rows] + [
        Terrain("swamp", "hex", Movement("cost", Fraction(2), stop=True), CombatEffect("none")),
        Terrain("dyke", "hexside", Movement("add", Fraction(1), stop=True), CombatEffect("none"))]
    chart = TerrainEffectsChart(rows, rule="3.2")
    return RulesEngine(RuleSet("marsh", dict(scs_1_8.PARAMETERS), chart, scs_1_8.TABLES, scs_1_8.RULES))


def _board(**kw) -> Situation:
    unit = Counter("a", "allies", H("1.05"), attack=Fraction(3), defense=Fraction(3), movement=Fraction(8))
    return Situation(HexMap.rectangle(10, 10), default_terrain=("open",), units=(unit,), phasing="allies",
                     terrain={H("3.05"): ("swamp",)}, **kw)


def test_a_unit_entering_a_stop_hex_pays_and_moves_no_further():
    engine = _engine()
    into = engine.move(_board(), "a", ["2.05", "3.05"])
    assert into.legal and into.costs == (1, 2)
    beyond = engine.move(_board(), "a", ["2.05", "3.05", "4.05"])
    assert not beyond.legal and beyond.reason == "unit a stopped in 3.05: the swamp ends its move"
    assert any("the swamp ends the move there" in str(step) for step in beyond.steps)
    reach = engine.reachable(_board(), "a")
    assert H("3.05") in reach and H("5.05") in reach            # around the swamp


def test_the_reachable_set_agrees_with_moves_through_the_swamp():
    engine = _engine()
    # a swamp column at 3.xx: the only way east is to go round it (the map is 10 hexes tall)
    wall = {H(f"3.{r:02d}"): ("swamp",) for r in range(1, 11)}
    board = Situation(HexMap.rectangle(10, 10), default_terrain=("open",), terrain=wall, phasing="allies",
                      units=(Counter("a", "allies", H("1.05"), attack=Fraction(3), defense=Fraction(3),
                                     movement=Fraction(8)),))
    reach = engine.reachable(board, "a")
    assert H("3.05") in reach and H("4.05") not in reach and H("4.01") not in reach


def test_a_road_into_the_swamp_spares_the_stop_a_dyke_crossed_does_not():
    engine = _engine()
    road = {Hexside.between(H("2.05"), H("3.05")): "road", Hexside.between(H("1.05"), H("2.05")): "road",
            Hexside.between(H("3.05"), H("4.05")): "road"}
    along = engine.move(_board(roads=road), "a", ["2.05", "3.05", "4.05"])
    assert along.legal and along.costs == (Fraction(1, 2),) * 3
    dyke = {Hexside.between(H("1.05"), H("2.05")): ("dyke",)}
    crossed = engine.move(_board(hexsides=dyke), "a", ["2.05", "3.05"])
    assert not crossed.legal and crossed.reason == "unit a stopped in 2.05: crossing the dyke ends its move"
    assert engine.move(_board(hexsides=dyke), "a", ["2.05"]).costs == (2,)


def test_the_examples_check_and_fail_without_the_stop(project, capsys):
    project.write("rulebooks/marsh.rules", MARSH)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 0, err
    project.write("rulebooks/marsh.rules", MARSH.replace("swamp  2 stop  Dx2", "swamp  2       Dx2"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/marsh.rules:27:10: error: expected illegal, computed legal" in err, err
    project.write("rulebooks/marsh.rules", MARSH.replace("dyke   +1 stop  1L", "dyke   +1       1L"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/marsh.rules:29:10: error: expected illegal" in err, err


def test_the_card_prints_the_stop_and_its_legend_in_each_language(project, capsys):
    project.write("rulebooks/marsh.rules", MARSH)
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    resolved, labels = compiled.resolved["marsh"], compiled.labels
    english = render_html(card(resolved, "en", labels)[0])
    assert "2, stop" in english and "+1, stop" in english
    assert "a unit ends its move on entering the hex (on crossing the hexside)" in english
    french = render_html(card(resolved, "fr", labels)[0])
    assert "2, arrêt" in french and "en franchissant le côté d&#39;hex" in french
    # a chart with no stop prints no such legend
    project.write("rulebooks/marsh.rules", MARSH.replace(" stop ", "      "))
    plain = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(plain.resolved["marsh"], "en", plain.labels)[0])
    assert "2, stop" not in english and "on entering the hex" not in english and "Swamp" in english


def test_fmt_aligns_the_cell_and_a_diff_sees_the_stop_come_and_go(project, capsys):
    from rulesdsl.language.fmt import format_text
    assert format_text(MARSH) == MARSH
    squeezed = MARSH.replace("swamp  2 stop  Dx2", "swamp 2   stop Dx2")
    assert format_text(squeezed) == MARSH
    old = parse(Source("a.rules", MARSH.replace("swamp  2 stop  Dx2", "swamp  2       Dx2")))
    new = parse(Source("b.rules", MARSH))
    changes = [str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(new))]
    assert any("swamp" in c and "2 stop" in c for c in changes), changes


def test_a_road_that_stops_is_an_error_at_its_cell(project, capsys):
    project.write("rulebooks/marsh.rules", MARSH.replace("road  1/2  ne", "road  1/2 stop  ne"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "rulebooks/marsh.rules:17:11: error: a road does not stop a move: 'stop' belongs to hex terrain" in err
    assert "hint: put 'stop' on the terrain the road runs through" in err
