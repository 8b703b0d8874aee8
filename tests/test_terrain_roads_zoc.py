"""Roads whose cost depends on the terrain entered: `trail  1, forest 2` (2 into forest, else 1) and
`track  2 lower` (2, or the hex's own cost where that is lower); and zones of control kept out by terrain:
`river  P  P  no-zoc` (no ZOC across it), `swamp  3  Dx2  no-zoc` (no ZOC into it).

The TEC says it, validate checks it at its position, the engine (move, reachable, zoc) computes it with a step
citing the chart, the card prints it in each language, fmt aligns it and a diff sees it."""
from __future__ import annotations

from fractions import Fraction

import rulesdsl
from rulesdsl.errata import diff
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.situation import Counter, Situation

H = Hex.parse

TRAIL = '''game trail "Forest Trails (a test title)" version "1.0" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Up to four steps may stack in a hex."
  stacking.limit = 4 steps
}

override terrain effects chart "Trail TEC" [3.2 7.3] {
  hex:
    open    1  ne
    forest  2  Dx2
    swamp   3  Dx2  no-zoc
  hexside:
    river  +2  Ax1/2  no-zoc
  roads:
    road   1/2                   ne
    trail  1, forest 2, swamp 2  ne
    track  2 lower               ne
}

example "A trail costs more in the forest, a track no more than the hex" [3.2] {
  map 1.01 - 6.06 open
  hex 3.02 forest
  hex 4.02 swamp
  road trail 1.02 2.02 3.02 4.02
  road track 1.04 2.04 3.04
  hex 3.04 forest
  unit a friendly 4-4-8 at 1.02
  unit b friendly 4-4-8 at 1.04
  expect move a 2.02 3.02 4.02 costs 1 2 2 total 5 legal
  expect move b 2.04 3.04 costs 1 2 total 3 legal
}

example "No ZOC across the river or into the swamp" [3.2] {
  map 1.01 - 6.06 open
  hexside 3.03/4.03 river
  hex 3.04 swamp
  unit r enemy 4-4-8 at 3.03
  expect zoc enemy 2.02 2.03 3.02 4.02 not 4.03 3.04
}

labels fr "Français" {
  terrain.forest  "Forêt"
  terrain.swamp   "Marais"
  terrain.trail   "Piste"
  terrain.track   "Chemin"
}
'''


def _module(text: str = TRAIL) -> dict[str, object]:
    """The generated module of the rulebook (without its worked example), compiled in memory and run."""
    text = text[:text.index('example "')] + text[text.index('labels fr'):]
    compilation = rulesdsl.compile_text(text, "rulebooks/trail.rules")
    assert compilation.ok, [f"{d.span.line}: {d.message}" for d in compilation.diagnostics]
    namespace: dict[str, object] = {}
    exec(compile(str(compilation.outputs["generated/trail.py"]), "generated/trail.py", "exec"), namespace)
    return namespace


def _steps(answer) -> list[str]:
    return [str(s) for s in answer.steps]


def _board(road: str, path: tuple[str, ...], terrain: dict[str, str], **kw) -> Situation:
    unit = Counter("a", "allies", H(path[0]), attack=Fraction(4), defense=Fraction(4), movement=Fraction(8))
    roads = {Hexside.between(H(a), H(b)): road for a, b in zip(path, path[1:])}
    kw.setdefault("default_terrain", ("open",))
    return Situation(HexMap.rectangle(8, 8), units=(unit,), phasing="allies", terrain={H(h): (t,) for h, t in terrain.items()}, roads=roads, **kw)


# ---- the movement engine ------------------------------------------------------------------------------
def test_a_trail_costs_its_terrain_rate_into_forest_and_swamp_and_its_own_elsewhere():
    mod = _module()
    board = _board("trail", ("1.05", "2.05", "3.05", "4.05", "5.05"), {"3.05": "forest", "4.05": "swamp"})
    moved = mod["move"](board, "a", ["2.05", "3.05", "4.05", "5.05"])
    assert moved.legal and moved.costs == (1, 2, 2, 1)
    steps = [str(s) for s in moved.steps]
    assert any("3.05: 2 MP along the trail into forest" in s for s in steps), steps
    assert any("4.05: 2 MP along the trail into swamp" in s for s in steps), steps
    # off the trail, the swamp costs its own 3
    off = mod["move"](board, "a", ["2.05", "2.04", "3.04"])
    assert off.costs == (1, 1, 1)
    assert mod["entry_cost"]("forest", road="trail") == 2.0 and mod["entry_cost"]("open", road="trail") == 1.0
    assert mod["entry_cost"]("swamp", road="road") == 0.5      # the road's one cost is unchanged


def test_a_track_costs_the_hex_where_that_is_lower():
    mod = _module()
    board = _board("track", ("1.05", "2.05", "3.05", "4.05"), {"3.05": "forest", "4.05": "swamp"})
    moved = mod["move"](board, "a", ["2.05", "3.05", "4.05"])
    assert moved.legal and moved.costs == (1, 2, 2)       # open 1 < 2; forest 2 = 2; swamp 3 > 2
    steps = [str(s) for s in moved.steps]
    assert any("2.05: 1 MP, the open's own cost, lower than the track's 2 MP" in s for s in steps), steps
    assert any("4.05: 2 MP along the track" in s for s in steps), steps
    assert mod["entry_cost"]("open", road="track") == 1.0 and mod["entry_cost"]("swamp", road="track") == 2.0


def test_the_reachable_set_agrees_with_the_moves_along_the_trail():
    mod = _module()
    board = _board("trail", ("1.05", "2.05", "3.05", "4.05", "5.05", "6.05", "7.05"), {"1.05": "open"},
                   default_terrain=("swamp",))
    reach = mod["reachable"](board, "a")
    assert reach.costs[H("5.05")] == 8 and H("6.05") not in reach       # 2 MP a swamp hex along the trail
    assert reach.costs[H("2.04")] == 3                                   # 3 off it
    move = mod["move"](board, "a", ["2.05", "3.05", "4.05", "5.05"])
    assert move.legal and move.total == reach.costs[H("5.05")]
    plain = _module(TRAIL.replace("trail  1, forest 2, swamp 2  ne", "trail  1                     ne"))
    assert mod is not plain and H("7.05") in plain["reachable"](board, "a")


# ---- the worked example --------------------------------------------------------------------------------
def test_the_example_checks_and_a_wrong_cost_fails_at_its_position(project, capsys):
    project.write("rulebooks/trail.rules", TRAIL)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 0, err
    project.write("rulebooks/trail.rules", TRAIL.replace("forest 2, swamp 2", "forest 3, swamp 2"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/trail.rules:30:10: error: expected costs 1 2 2 total 5 legal, computed " \
                         "costs 1 3 2 total 6 legal" in err, err
    project.write("rulebooks/trail.rules", TRAIL.replace("track  2 lower ", "track  2       "))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/trail.rules:31:10: error: expected costs 1 2 total 3 legal, computed " \
                         "costs 2 2 total 4 legal" in err, err


# ---- the card -----------------------------------------------------------------------------------------
def test_the_card_says_the_road_costs_in_each_language(project, capsys):
    project.write("rulebooks/trail.rules", TRAIL)
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    resolved, labels = compiled.resolved["trail"], compiled.labels
    english = render_html(card(resolved, "en", labels)[0])
    assert "1; Forest 2; Swamp 2" in english and "2 or less" in english
    assert "the road costs the cost of the hex entered, where that is lower" in english
    french = render_html(card(resolved, "fr", labels)[0])
    assert "1\u202f; Forêt 2\u202f; Marais 2" in french, french[french.find("Trail"):][:400]
    assert "2 ou moins" in french and "s&#39;il est moindre" in french
    # a chart with no 'lower' prints no such legend
    project.write("rulebooks/trail.rules", TRAIL.replace("track  2 lower ", "track  2       "))
    plain = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(plain.resolved["trail"], "en", plain.labels)[0])
    assert "or less" not in english and "where that is lower" not in english


# ---- fmt, diff, errors ---------------------------------------------------------------------------------
def test_fmt_aligns_the_cell_and_a_diff_sees_the_costs_change():
    from rulesdsl.language.fmt import format_text
    assert format_text(TRAIL) == TRAIL
    squeezed = TRAIL.replace("trail  1, forest 2, swamp 2  ne", "trail 1 ,forest 2,  swamp   2 ne")
    assert format_text(squeezed.replace("track  2 lower               ne", "track 2   lower ne")) == TRAIL
    old = parse(Source("a.rules", TRAIL.replace("trail  1, forest 2, swamp 2  ne", "trail  1, forest 2  ne")))
    new = parse(Source("b.rules", TRAIL))
    changes = [str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(new))]
    assert any("trail" in c and "1, forest 2 -> 1, forest 2, swamp 2" in c for c in changes), changes
    old = parse(Source("a.rules", TRAIL.replace("track  2 lower ", "track  2       ")))
    changes = [str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(new))]
    assert any("track" in c and "2 -> 2 lower" in c for c in changes), changes


def test_an_unknown_or_hexside_terrain_in_a_road_cost_is_an_error_at_its_name(project, capsys):
    project.write("rulebooks/trail.rules", TRAIL.replace("forest 2, swamp 2", "forrest 2, swamp 2"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "rulebooks/trail.rules:17:15: error: unknown terrain 'forrest'" in err, err
    assert "did you mean 'forest'?" in err
    project.write("rulebooks/trail.rules", TRAIL.replace("forest 2, swamp 2", "forest 2, river 2"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and ("rulebooks/trail.rules:17:25: error: 'trail' costs by the terrain of the hex entered; "
                          "'river' is hexside terrain") in err, err
    project.write("rulebooks/trail.rules", TRAIL.replace("forest 2, swamp 2", "forest 2, forest 3"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/trail.rules:17:25: error: 'forest' is given twice in the cost of 'trail'" in err
    project.write("rulebooks/trail.rules", TRAIL.replace("swamp   3  Dx2", "swamp   3 lower  Dx2"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/trail.rules:12:13: error: 'lower' belongs to a road, under 'roads:'" in err, err


AMENDED = TRAIL[:TRAIL.index("override terrain")] + '''amend terrain effects chart {
  roads:
    trail  1, woods 2  ne
}
'''


def test_an_amendment_names_the_terrains_of_the_chart_in_effect(project, capsys):
    project.write("rulebooks/trail.rules", AMENDED)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 0, err                         # woods: the series chart's
    project.write("rulebooks/trail.rules", AMENDED.replace("woods 2", "wods 2"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/trail.rules:10:15: error: unknown terrain 'wods'" in err, err
    assert "did you mean 'woods'?" in err


# ---- no ZOC across a river, nor into a swamp -----------------------------------------------------------
def _front(**kw) -> Situation:
    """An axis unit at 3.03 with a river on its 3.03/4.03 hexside and a swamp at 3.04; an allied one at 5.03."""
    units = (Counter("r", "axis", H("3.03"), attack=Fraction(4), defense=Fraction(4), movement=Fraction(8)),
             Counter("a", "allies", H("5.03"), attack=Fraction(4), defense=Fraction(4), movement=Fraction(8)))
    kw.setdefault("hexsides", {Hexside.between(H("3.03"), H("4.03")): ("river",)})
    return Situation(HexMap.rectangle(8, 8), default_terrain=("open",), units=units, phasing="allies",
                     terrain={H("3.04"): ("swamp",)}, **kw)


def test_a_zoc_does_not_extend_across_the_river_nor_into_the_swamp():
    mod = _module()
    zones = mod["zoc"](_front(), "axis")
    assert set(zones.hexes) == {H("2.02"), H("2.03"), H("3.02"), H("4.02")}
    steps = _steps(zones)
    assert any("unit r's ZOC does not extend across the river between 3.03 and 4.03" in s for s in steps), steps
    assert any("unit r's ZOC does not extend into the swamp of 3.04" in s for s in steps), steps
    # the same chart without no-zoc: the ZOC covers every neighbour
    plain = _module(TRAIL.replace("  no-zoc", ""))
    assert len(plain["zoc"](_front(), "axis").hexes) == 6


def test_a_bridge_negating_the_river_lets_the_zoc_across():
    bridged = TRAIL.replace("    river  +2  Ax1/2  no-zoc\n", "    river   +2             Ax1/2  no-zoc\n"
                                                               "    bridge  negates river  ne\n")
    mod = _module(bridged)
    across = {Hexside.between(H("3.03"), H("4.03")): ("river", "bridge")}
    zones = mod["zoc"](_front(hexsides=across), "axis")
    assert H("4.03") in zones.hexes and H("3.04") not in zones.hexes


def test_a_move_beside_the_enemy_across_the_river_pays_no_zoc_cost():
    mod = _module()
    beside = mod["move"](_front(), "a", ["4.03"])
    assert beside.legal and beside.costs == (1,)                # 5.03 to 4.03 crosses no river
    assert not any("enemy ZOC" in s for s in _steps(beside))
    plain = _module(TRAIL.replace("  no-zoc", ""))
    into = plain["move"](_front(), "a", ["4.03"])
    assert into.costs == (3,) and any("enemy ZOC" in s for s in _steps(into))     # SCS: +2 MP to enter a ZOC
    assert mod["reachable"](_front(), "a").costs[H("4.03")] == 1
    assert plain["reachable"](_front(), "a").costs[H("4.03")] == 3


def test_the_zoc_example_checks_and_a_wrong_one_fails_at_its_position(project, capsys):
    project.write("rulebooks/trail.rules", TRAIL.replace("4.02 not 4.03 3.04", "4.02 4.03 not 3.04"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and ("rulebooks/trail.rules:39:10: error: expected 2.02 2.03 3.02 4.02 4.03 not 3.04, "
                          "computed 2.02 2.03 3.02 4.02 not 4.03 3.04") in err, err
    assert "unit r's ZOC does not extend across the river between 3.03 and 4.03" in err


def test_the_card_says_no_zoc_in_each_language(project, capsys):
    project.write("rulebooks/trail.rules", TRAIL)
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    resolved, labels = compiled.resolved["trail"], compiled.labels
    english = render_html(card(resolved, "en", labels)[0])
    assert "3 (no ZOC)" in english and "+2 (no ZOC)" in english
    assert "a zone of control does not extend into the hex (across the hexside)" in english
    french = render_html(card(resolved, "fr", labels)[0])
    assert "3 (pas de ZOC)" in french and "ne s&#39;étend pas dans l&#39;hex" in french
    project.write("rulebooks/trail.rules", TRAIL.replace("  no-zoc", ""))
    plain = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(plain.resolved["trail"], "en", plain.labels)[0])
    assert "no ZOC" not in english and "does not extend" not in english


def test_a_diff_sees_no_zoc_and_a_road_may_not_say_it(project, capsys):
    old = parse(Source("a.rules", TRAIL.replace("river  +2  Ax1/2  no-zoc", "river  +2  Ax1/2")))
    changes = [str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(parse(Source("b.rules", TRAIL))))]
    assert any("river" in c and "no_zoc: no -> yes" in c for c in changes), changes
    project.write("rulebooks/trail.rules", TRAIL.replace("road   1/2                   ne",
                                                         "road   1/2                   ne  no-zoc"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and ("rulebooks/trail.rules:16:5: error: 'no-zoc' belongs to hex terrain or a hexside "
                          "feature, not a road") in err, err
