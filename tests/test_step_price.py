"""A step's terrain price has one computation (terrain.step_price): the generated `entry_cost` and the engine's
`move` / `reachable` ask it the same question and so give the same answer, whatever the terrain, the
hexsides crossed, the road followed and the rulebook's flags on roads and hexsides."""
from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import pytest

from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.model import Parameter
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation
from rulesdsl.runtime.terrain import STEP_FLAGS, TerrainEffectsChart

# A small standalone title with forest, a ford and a trail whose cost depends on the hex (no series: no rule
# sets roads.ignore_crossed_terrain, so a road followed does not spare the hexside it crosses).
WOODLAND = '''game woodland "Woodland (a test title)" version "1.0"

rule 1.0 "Sequence of Play" {
  summary "Each side moves."
}

sequence of play [1.0] {
  game turn {
    player turn red
    player turn blue
  }
  player turn {
    movement  [1.0]  movement
  }
}

rule 3.2 "Terrain" {
  summary "Hexes and hexsides cost MPs by the chart; a road followed pays its own rate."
}

terrain effects chart "Woodland TEC" [3.2] {
  hex:
    open    1  ne
    forest  2  Dx2
    lake    P  P
  roads:
    road   1/2          ot
    trail  1, forest 2  ot
  hexside:
    ford        +1             Ax1/2
    escarpment  2              Ax1/2
    river       P              P
    bridge      negates river  Ax1/4
}

example "Along the trail across the ford" [3.2] {
  map 1.01 - 4.04 open
  hex 2.02 forest
  hexside 1.02/2.02 ford
  road trail 1.02 2.02
  unit a red 4-4-8 at 1.02
  expect move a 2.02 costs 3 total 3 legal
}
'''

SOURCE, TARGET = Hex.parse("2.02"), Hex.parse("2.03")
HEXES = (("open",), ("forest",), ("lake",), ("open", "forest"))
HEXSIDES = ((), ("ford",), ("escarpment",), ("river",), ("river", "bridge"), ("ford", "escarpment"),
            ("ford", "river", "bridge"))
ROADS = (False, True, "road", "trail")


@pytest.fixture(scope="module")
def woodland(tmp_path_factory):
    """The title built once for the file (its module imported)."""
    from conftest import Project
    from rulesdsl.cli import main
    project = Project(tmp_path_factory.mktemp("woodland"))
    project.write("rulebooks/woodland.rules", WOODLAND)
    assert main(["--project", str(project.root), "build"]) == 0     # its worked example holds: 3 MPs
    return project.module("woodland")


def _moved(rules: RuleSet, terrain: tuple[str, ...], hexsides: tuple[str, ...], road: bool | str) -> Fraction | None:
    """What `move` pays for one step from SOURCE into TARGET, a hex of `terrain` across `hexsides`, along
    `road` (True: the chart's first road)."""
    assert rules.terrain is not None
    way = next(r.name for r in rules.terrain.rows if r.kind == "road") if road is True else road
    edge = Hexside.between(SOURCE, TARGET)
    situation = Situation(HexMap.rectangle(4, 4), default_terrain=("open",), terrain={TARGET: terrain},
                          hexsides={edge: hexsides} if hexsides else {},
                          roads={edge: way} if isinstance(way, str) else {},
                          units=(Counter("a", "red", SOURCE, attack=Fraction(4), defense=Fraction(4),
                                         movement=Fraction(20)),), phasing="red")
    answer = RulesEngine(rules).move(situation, "a", [TARGET])
    return answer.costs[0]


def _flagged(module, flags: tuple[str, ...]) -> tuple[TerrainEffectsChart, RuleSet]:
    """The module's chart and rules with exactly `flags` of STEP_FLAGS set to yes (the others to no)."""
    parameters = dict(module.PARAMETERS)
    for name in STEP_FLAGS:
        value = name in flags
        parameters[name] = (dataclasses.replace(parameters[name], value=value) if name in parameters
                            else Parameter(name, value, rule="3.2", origin="test", source="test:1"))
    chart = TerrainEffectsChart(module.TERRAIN.rows, module.TERRAIN.rule, flags)
    return chart, RuleSet(module.RULEBOOK["id"], parameters, chart, module.RULESET.tables, module.RULESET.rules)


def test_the_forest_ford_and_trail_cost_what_move_pays(woodland):
    """The defect: entry_cost said 2 (the trail's rate into forest, the ford ignored) where move paid 3.  This
    title sets no roads.ignore_crossed_terrain, so the trail does not spare the ford: 2 + 1 = 3, which the
    worked example holds; under SCS 3.2b (the flag yes) the trail replaces the ford's cost too: 2."""
    assert woodland.entry_cost("forest", hexsides=["ford"], road="trail") == 3
    assert _moved(woodland.RULESET, ("forest",), ("ford",), "trail") == 3
    chart, rules = _flagged(woodland, ("roads.ignore_crossed_terrain",))
    assert chart.entry_cost("forest", ["ford"], "trail") == 2 == _moved(rules, ("forest",), ("ford",), "trail")


def test_a_series_title_prices_the_step_under_its_own_flags():
    from generated import bocage, scs_1_8
    assert set(scs_1_8.TERRAIN.flags) == set(STEP_FLAGS)         # SCS 3.2b, 3.2c, 3.2d
    assert bocage.entry_cost("woods", hexsides=["stream"], road="trail") == 1     # 3.2b: the trail spares it
    assert scs_1_8.entry_cost("open", hexsides=["escarpment"]) == 3               # 3.2c: 1 + 2, added


@pytest.mark.parametrize("flags", [c for n in range(len(STEP_FLAGS) + 1) for c in itertools.combinations(STEP_FLAGS, n)])
def test_entry_cost_and_move_agree_on_every_step(woodland, flags):
    """Every terrain x hexsides x road of the small chart, under every setting of the three flags."""
    chart, rules = _flagged(woodland, flags)
    asked = 0
    for terrain, hexsides, road in itertools.product(HEXES, HEXSIDES, ROADS):
        cost = chart.entry_cost(terrain, hexsides, road)
        moved = _moved(rules, terrain, hexsides, road)
        assert (None if cost is None else Fraction(cost)) == moved, (flags, terrain, hexsides, road, cost, moved)
        asked += 1
    assert asked == len(HEXES) * len(HEXSIDES) * len(ROADS)


def test_the_generated_entry_cost_is_the_charts_under_the_rulebooks_flags(woodland):
    for terrain, hexsides, road in itertools.product(HEXES, HEXSIDES, ROADS):
        moved = _moved(woodland.RULESET, terrain, hexsides, road)
        cost = woodland.entry_cost(terrain, hexsides, road)
        assert (None if cost is None else Fraction(cost)) == moved, (terrain, hexsides, road)


def test_reachable_pays_what_entry_cost_says(woodland):
    from rulesdsl.runtime.movement import reachable
    edge = Hexside.between(SOURCE, TARGET)
    situation = Situation(HexMap.rectangle(4, 4), default_terrain=("open",), terrain={TARGET: ("forest",)},
                          hexsides={edge: ("ford",)}, roads={edge: "trail"},
                          units=(Counter("a", "red", SOURCE, attack=Fraction(4), defense=Fraction(4),
                                         movement=Fraction(20)),), phasing="red")
    assert reachable(woodland.RULESET, situation, "a").costs[TARGET] == Fraction(
        woodland.entry_cost("forest", ["ford"], "trail"))


def test_a_chart_refuses_a_flag_that_is_not_a_steps():
    with pytest.raises(ValueError, match="not a flag"):
        TerrainEffectsChart((), flags=("zoc.entry_cost",))
