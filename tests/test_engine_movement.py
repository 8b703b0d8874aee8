"""The movement engine: ZOCs, moves along a path and the reachable set, driven by the compiled rulebooks.

Each parameter of the contract that drives `zoc` or `move` has a test here that flips it (a RuleSet over a
modified PARAMETERS mapping) and shows the answer change.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generated import bocage, corridor, new_scs, ridgeline, scs_1_8, vcs
from rulesdsl.runtime.contract import ENGINE_PARAMETERS
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.model import Parameter
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation
from rulesdsl.runtime.terrain import Movement, TerrainEffectsChart

H = Hex.parse
MODULES = (scs_1_8, new_scs, vcs, bocage, corridor, ridgeline)
MINE = {p.name for p in ENGINE_PARAMETERS if p.drives in ("zoc", "move")}


def ruleset(module: ModuleType, terrain: TerrainEffectsChart | None = None, **changes: Any) -> RuleSet:
    """The module's rules with parameters changed: name__with__dots=value, or None to remove one."""
    parameters: dict[str, Parameter] = dict(module.PARAMETERS)
    for key, value in changes.items():
        name = key.replace("__", ".")
        if value is None:
            parameters.pop(name, None)
        elif name in parameters:
            parameters[name] = dataclasses.replace(parameters[name], value=value)
        else:
            parameters[name] = Parameter(name, value, rule="test", origin="test", source="test:1")
    return RuleSet(module.RULEBOOK["id"], parameters, terrain if terrain is not None else module.TERRAIN,
                   module.TABLES, module.RULES)


def engine(module: ModuleType, terrain: TerrainEffectsChart | None = None, **changes: Any) -> RulesEngine:
    return RulesEngine(ruleset(module, terrain, **changes))


def unit(name: str, side: str, at: str, strengths: str = "3-3-6", **kw: Any) -> Counter:
    a, d, m = (Fraction(x) for x in strengths.split("-"))
    return Counter(name, side, H(at), attack=a, defense=d, movement=m, **kw)


def roads(*hexes: str, kind: str = "road") -> dict[Hexside, str]:
    hs = [H(h) for h in hexes]
    return {Hexside.between(a, b): kind for a, b in zip(hs, hs[1:])}


def side(a: str, b: str) -> Hexside:
    return Hexside.between(H(a), H(b))


def board(*units: Counter, default: str = "open", phasing: str = "allies", **kw: Any) -> Situation:
    return Situation(HexMap.rectangle(10, 10), default_terrain=(default,), units=units, phasing=phasing, **kw)


# ---- the worked examples --------------------------------------------------------------------------------
def movement_example() -> Situation:
    """The SCS v1.8 Movement Example.  The figure is not in the extraction: the enemy units 7 and 2 are placed
    so that the printed costs hold (24.17 and 26.16 in their ZOCs, the rest of both paths not)."""
    return Situation(
        HexMap.rectangle(30, 20), default_terrain=("open",),
        terrain={H("25.18"): ("woods",), H("26.18"): ("woods",)},
        hexsides={side("24.15", "24.16"): ("stream",)}, roads=roads("26.16", "26.17", "26.18"),
        units=(unit("6", "allies", "23.15", "3-2-9"), unit("1", "allies", "27.17", "3-5-5"),
               unit("7", "axis", "23.18", "2-3-5"), unit("2", "axis", "26.15", "2-3-5")),
        phasing="allies")


@pytest.mark.parametrize("module", [scs_1_8, bocage])
def test_the_scs_movement_example_unit_6(module: ModuleType) -> None:
    rules = engine(module)
    situation = movement_example()
    move = rules.move(situation, "6", ["23.15", "24.15", "24.16", "24.17", "25.18"])
    assert move.costs == (1, 2, 3, 2) and move.total == 8 and move.legal
    assert rules.move(situation, "6", ["24.15", "24.16", "24.17", "25.18", "26.17"]).total == 9
    beyond = rules.move(situation, "6", ["24.15", "24.16", "24.17", "25.18", "26.18"])
    assert not beyond.legal and beyond.costs[-1] == 2 and beyond.total == 10
    assert any(s.parameter == "movement.must_afford_entry" and s.rule == "3.2a" for s in beyond.steps)


def test_the_scs_movement_example_unit_1_along_the_road() -> None:
    move = engine(scs_1_8).move(movement_example(), "1", ["26.16", "26.17", "26.18"])
    assert move.costs == (3, Fraction(1, 2), Fraction(1, 2)) and move.total == 4 and move.legal
    assert move.allowance - move.total == 1
    lost = [s for s in move.steps if s.parameter == "movement.may_save_mp"]
    assert lost and "lost" in lost[0].text and lost[0].rule == "3.1d"


def test_new_scs_road_movement_spends_twice_the_ma() -> None:
    situation = board(unit("a", "allies", "1.05", "2-2-4"), unit("x", "axis", "9.05"),
                      roads=roads(*(f"{c}.05" for c in range(1, 8))) | roads("1.05", "1.06", "1.07", kind="trail"))
    rules = engine(new_scs)
    far = rules.move(situation, "a", [f"{c}.05" for c in range(2, 6)], mode="road")
    assert far.allowance == 8 and far.costs == (Fraction(1, 2),) * 4 and far.legal
    regular = rules.move(situation, "a", [f"{c}.05" for c in range(2, 6)])
    assert regular.allowance == 4 and regular.total == 2
    # within 3 hexes of the enemy at 9.05 road movement stops: 6.05 is 3 hexes away
    near = rules.move(situation, "a", [f"{c}.05" for c in range(2, 7)], mode="road")
    assert not near.legal and "too close" in (near.reason or "")
    off_road = rules.move(situation, "a", ["2.06"], mode="road")
    assert not off_road.legal
    trail = rules.move(situation, "a", ["1.06", "1.07"], mode="road")
    assert trail.costs == (1, 1)
    reach = rules.reachable(situation, "a", mode="road")
    assert H("5.05") in reach and H("6.05") not in reach and H("2.06") not in reach
    assert engine(scs_1_8).move(situation, "a", ["2.05"], mode="road").reason == \
        "there is no road movement in this game"


def vcs_front(module: ModuleType = ridgeline) -> Situation:
    """A defender at 5.05; the attacker's infantry 'a' (MA 5) starts next to it, 'b' (MA 6) two hexes off."""
    return board(unit("a", "allies", "4.05", "3-3-5"), unit("b", "allies", "2.05", "3-3-6"),
                 unit("x", "axis", "5.05"), default="clear")


@pytest.mark.parametrize("module", [vcs, ridgeline])
def test_vcs_a_unit_entering_an_ezoc_stops(module: ModuleType) -> None:
    rules = engine(module)
    situation = vcs_front()
    stop = rules.move(situation, "b", ["3.05", "4.04", "4.03"])
    assert not stop.legal and stop.costs[-1] is None and "stop" in (stop.reason or "")
    assert rules.move(situation, "b", ["3.05", "4.04"]).legal
    ezoc = rules.enemy_zoc(situation, "allies")
    reach = rules.reachable(situation, "b")
    assert H("4.04") in reach and H("4.03") in reach and len(reach.paths[H("4.03")]) == 3
    assert all(not set(path[:-1]) & ezoc for path in reach.paths.values())


def test_vcs_leaving_an_ezoc_costs_half_the_printed_ma_rounded_as_the_rulebook_says() -> None:
    situation = vcs_front()
    series = engine(vcs).move(situation, "a", ["3.05"])
    assert series.costs == (1 + 2,)                     # 5/2 dropped to 2
    game = engine(ridgeline).move(situation, "a", ["3.05"])
    assert game.costs == (1 + 3,)                       # Ridgeline rounds up
    step = next(s for s in game.steps if s.parameter == "zoc.exit_cost_rounds_down")
    assert step.origin == "ridgeline" and step.rule == "7.1"
    # EZOC to EZOC (4.05 -> 4.04, both next to 5.05) is refused; and the minimum move does not allow it
    direct = engine(ridgeline).move(situation, "a", ["4.04"])
    assert not direct.legal and "directly" in (direct.reason or "")


# ---- ZOC flips ----------------------------------------------------------------------------------------
def test_flip_zoc_min_attack_strength() -> None:
    situation = board(unit("x", "axis", "5.05", "1-1-4"))
    assert H("5.06") in engine(scs_1_8).zoc(situation, "axis")
    assert H("5.06") not in engine(scs_1_8, zoc__min_attack_strength=dataclasses.replace(
        scs_1_8.PARAMETERS["zoc.min_attack_strength"].value, amount=Fraction(2))).zoc(situation, "axis")


def test_flip_zoc_range() -> None:
    situation = board(unit("x", "axis", "5.05"))
    assert H("5.07") not in engine(scs_1_8).zoc(situation, "axis")
    two = dataclasses.replace(scs_1_8.PARAMETERS["zoc.range"].value, amount=Fraction(2))
    assert H("5.07") in engine(scs_1_8, zoc__range=two).zoc(situation, "axis")
    assert not engine(scs_1_8, zoc__range=None).zoc(situation, "axis").hexes


def test_flip_zoc_limited_by_terrain() -> None:
    situation = board(unit("x", "axis", "5.05"), hexsides={side("5.05", "5.06"): ("river",),
                                                          side("5.05", "5.04"): ("river", "bridge")})
    zones = engine(scs_1_8).zoc(situation, "axis")
    assert H("5.06") not in zones and H("5.04") in zones
    assert H("5.06") in engine(scs_1_8, zoc__limited_by_terrain=False).zoc(situation, "axis")


def test_flip_zoc_largest_formation_only() -> None:
    situation = board(unit("r", "axis", "5.05", size="regiment"), unit("b", "axis", "2.02", size="battalion"),
                      unit("u", "axis", "8.08"), default="clear")
    zones = engine(ridgeline).zoc(situation, "axis")
    assert H("5.06") in zones and H("2.03") not in zones and H("8.09") in zones   # no size: taken as largest
    assert H("2.03") in engine(ridgeline, zoc__largest_formation_only=False).zoc(situation, "axis")
    symbols = board(unit("d", "axis", "5.05", size="XX"), unit("r", "allies", "2.02", size="III"), default="clear")
    assert H("5.06") in engine(vcs).zoc(symbols, "axis") and not engine(vcs).zoc(symbols, "allies").hexes
    step = next(s for s in engine(vcs).zoc(symbols, "allies").steps if s.parameter == "zoc.largest_formation_only")
    assert "division" in step.text and step.rule == "7.0"


def test_flip_zoc_affects_friendly() -> None:
    situation = board(unit("a", "allies", "5.05"), unit("f", "allies", "5.07"))
    assert engine(scs_1_8).move(situation, "a", ["5.06"]).costs == (1,)
    assert engine(scs_1_8, zoc__affects_friendly=True).move(situation, "a", ["5.06"]).costs == (3,)


def test_flip_zoc_friendly_negates_enemy() -> None:
    situation = board(unit("a", "allies", "5.04"), unit("f", "allies", "5.07"), unit("x", "axis", "6.06"))
    assert engine(scs_1_8).move(situation, "a", ["5.05", "5.06"]).costs == (1, 3)
    assert engine(scs_1_8, zoc__friendly_negates_enemy=True).move(situation, "a", ["5.05", "5.06"]).costs == (1, 1)


def test_flip_zoc_multiple_cumulative() -> None:
    situation = board(unit("a", "allies", "5.04"), unit("x", "axis", "4.05"), unit("y", "axis", "6.05"))
    assert engine(scs_1_8).move(situation, "a", ["5.05"]).costs == (3,)
    assert engine(scs_1_8, zoc__multiple_cumulative=True).move(situation, "a", ["5.05"]).costs == (5,)


def test_flip_zoc_entry_cost() -> None:
    situation = board(unit("a", "allies", "5.03"), unit("x", "axis", "5.05"))
    three = dataclasses.replace(scs_1_8.PARAMETERS["zoc.entry_cost"].value, amount=Fraction(3))
    assert engine(scs_1_8, zoc__entry_cost=three).move(situation, "a", ["5.04"]).costs == (4,)
    assert engine(scs_1_8, zoc__entry_cost=None).move(situation, "a", ["5.04"]).costs == (1,)


def test_flip_zoc_ezoc_to_ezoc() -> None:
    situation = vcs_front()
    assert not engine(ridgeline).move(situation, "a", ["4.04"]).legal
    assert engine(ridgeline, zoc__ezoc_to_ezoc=True).move(situation, "a", ["4.04"]).legal


def test_flip_zoc_entry_stops_movement() -> None:
    situation = vcs_front()
    assert not engine(ridgeline).move(situation, "b", ["3.05", "4.04", "4.03"]).legal
    assert engine(ridgeline, zoc__entry_stops_movement=False, zoc__ezoc_to_ezoc=True).move(
        situation, "b", ["3.05", "4.04", "4.03"]).legal


def test_flip_zoc_exit_cost_fraction() -> None:
    situation = vcs_front()
    assert engine(ridgeline, zoc__exit_cost_fraction=Fraction(1)).move(situation, "a", ["3.05"]).costs == (6,)
    assert engine(ridgeline, zoc__exit_cost_fraction=None).move(situation, "a", ["3.05"]).costs == (1,)


def test_flip_zoc_exit_cost_rounds_down() -> None:
    situation = vcs_front()
    assert engine(ridgeline, zoc__exit_cost_rounds_down=True).move(situation, "a", ["3.05"]).costs == (3,)
    assert engine(vcs, zoc__exit_cost_rounds_down=False).move(situation, "a", ["3.05"]).costs == (4,)


def test_flip_zoc_reentry_after_exit() -> None:
    # a leaves the EZOC of x (4.05 -> 3.05), goes on and into the EZOC of y at 1.06
    situation = board(unit("a", "allies", "4.05", "3-3-9"), unit("x", "axis", "5.05"), unit("y", "axis", "1.07"),
                      default="clear")
    path = ["3.05", "2.05", "1.06"]
    refused = engine(ridgeline).move(situation, "a", path)
    assert not refused.legal and "may not enter another" in (refused.reason or "")
    assert engine(ridgeline, zoc__reentry_after_exit=True).move(situation, "a", path).legal


# ---- movement flips -----------------------------------------------------------------------------------
def test_flip_movement_enter_enemy_hex() -> None:
    situation = board(unit("a", "allies", "5.04"), unit("x", "axis", "5.05"))
    assert not engine(scs_1_8).move(situation, "a", ["5.05"]).legal
    assert engine(scs_1_8, movement__enter_enemy_hex=True).move(situation, "a", ["5.05"]).legal


def test_flip_movement_hexside_cost_added() -> None:
    chart = TerrainEffectsChart(dataclasses.replace(r, movement=Movement("cost", Fraction(2)))
                                if r.name == "stream" else r for r in scs_1_8.TERRAIN.rows)
    situation = board(unit("a", "allies", "5.04"), hexsides={side("5.04", "5.05"): ("stream",)})
    assert engine(scs_1_8, chart).move(situation, "a", ["5.05"]).costs == (3,)
    assert engine(scs_1_8, chart, movement__hexside_cost_added=False).move(situation, "a", ["5.05"]).costs == (2,)


def test_flip_movement_may_save_mp() -> None:
    situation = board(unit("a", "allies", "5.01", "1-1-2"))
    path = ["5.02", "5.03", "5.04"]
    refused = engine(scs_1_8).move(situation, "a", path, saved=1)
    assert not refused.legal and "saved" in (refused.reason or "")
    kept = engine(scs_1_8, movement__may_save_mp=True).move(situation, "a", path, saved=1)
    assert kept.legal and kept.allowance == 3
    assert "keeps" in kept.steps[-1].text


def test_flip_movement_minimum_move() -> None:
    situation = board(unit("a", "allies", "5.04", "1-1-1"), terrain={H("5.05"): ("woods",)})
    assert engine(scs_1_8).move(situation, "a", ["5.05"]).legal
    assert H("5.05") in engine(scs_1_8).reachable(situation, "a")
    assert not engine(scs_1_8, movement__minimum_move=None).move(situation, "a", ["5.05"]).legal
    assert H("5.05") not in engine(scs_1_8, movement__minimum_move=None).reachable(situation, "a")
    two = dataclasses.replace(scs_1_8.PARAMETERS["movement.minimum_move"].value, amount=Fraction(2))
    longer = engine(scs_1_8, movement__minimum_move=two)
    assert longer.move(situation, "a", ["5.05", "5.06"]).legal
    assert not longer.move(situation, "a", ["5.05", "5.06", "5.07"]).legal
    assert longer.reachable(situation, "a").paths[H("5.06")] == (H("5.05"), H("5.06"))
    # never into prohibited terrain
    river = board(unit("a", "allies", "5.04", "1-1-1"), hexsides={side("5.04", "5.05"): ("river",)})
    assert not engine(scs_1_8).move(river, "a", ["5.05"]).legal


def test_flip_movement_must_afford_entry() -> None:
    situation = board(unit("a", "allies", "5.03", "1-1-2"), terrain={H("5.05"): ("woods",)})
    assert not engine(scs_1_8).move(situation, "a", ["5.04", "5.05"]).legal
    move = engine(scs_1_8, movement__must_afford_entry=False).move(situation, "a", ["5.04", "5.05"])
    assert move.legal and move.total == 3
    assert not engine(scs_1_8, movement__must_afford_entry=False).move(situation, "a", ["5.04", "5.05", "5.06"]).legal


def test_flip_movement_only_phasing_units() -> None:
    situation = board(unit("x", "axis", "5.05"), phasing="allies")
    assert not engine(scs_1_8).move(situation, "x", ["5.06"]).legal
    assert engine(scs_1_8, movement__only_phasing_units=False).move(situation, "x", ["5.06"]).legal


def test_flip_movement_mechanized_prohibited_level() -> None:
    situation = board(unit("t", "allies", "5.04", capabilities={"mechanized"}), unit("i", "allies", "4.04"),
                      terrain={H("5.05"): ("mountain",), H("5.03"): ("mountain",)}, default="clear",
                      roads=roads("5.04", "5.03"))
    rules = engine(ridgeline)
    assert not rules.move(situation, "t", ["5.05"]).legal
    assert rules.move(situation, "t", ["5.03"]).legal             # along the road
    assert rules.move(situation, "i", ["4.05", "5.05"]).legal      # foot
    assert engine(ridgeline, movement__mechanized_prohibited_level=5).move(situation, "t", ["5.05"]).legal


def river_board() -> Situation:
    return board(unit("i", "allies", "5.04", "3-3-5", type="infantry", capabilities={"infantry", "foot"}),
                 unit("t", "allies", "4.04", "3-3-5", type="tank", capabilities={"armor", "mechanized"}),
                 hexsides={side("5.04", "5.05"): ("river",), side("4.04", "4.05"): ("river",)}, default="clear")


def test_flip_movement_river_crossing_fraction() -> None:
    situation = river_board()
    assert engine(ridgeline).move(situation, "i", ["5.05"]).costs == (1 + Fraction(5, 2),)
    assert not engine(ridgeline).move(situation, "t", ["4.05"]).legal
    assert not engine(ridgeline, movement__river_crossing_fraction=None).move(situation, "i", ["5.05"]).legal
    assert engine(ridgeline, movement__river_crossing_fraction=Fraction(1)).move(situation, "i", ["5.05"]).costs == (6,)


def test_flip_movement_fractions_kept() -> None:
    situation = river_board()
    assert engine(ridgeline).move(situation, "i", ["5.05"]).costs == (Fraction(7, 2),)
    assert engine(ridgeline, movement__fractions_kept=False).move(situation, "i", ["5.05"]).costs == (3,)


def test_flip_roads_continuous_path_required() -> None:
    situation = board(unit("a", "allies", "4.05"), roads=roads("5.04", "5.05", "5.06"))
    assert engine(scs_1_8).move(situation, "a", ["5.05"]).costs == (1,)
    assert engine(scs_1_8, roads__continuous_path_required=False).move(situation, "a", ["5.05"]).costs == \
        (Fraction(1, 2),)


def test_flip_roads_ignore_crossed_terrain() -> None:
    situation = board(unit("a", "allies", "5.04"), roads=roads("5.04", "5.05"),
                      hexsides={side("5.04", "5.05"): ("stream",)}, terrain={H("5.05"): ("woods",)})
    assert engine(scs_1_8).move(situation, "a", ["5.05"]).costs == (Fraction(1, 2),)
    assert engine(scs_1_8, roads__ignore_crossed_terrain=False).move(situation, "a", ["5.05"]).costs == \
        (Fraction(3, 2),)


def test_flip_roads_negate_prohibited() -> None:
    situation = board(unit("a", "allies", "5.04"), roads=roads("5.04", "5.05"), hexsides={side("5.04", "5.05"): ("river",)})
    assert engine(scs_1_8).move(situation, "a", ["5.05"]).costs == (Fraction(1, 2),)
    assert not engine(scs_1_8, roads__negate_prohibited=False).move(situation, "a", ["5.05"]).legal


def test_flip_roads_friendly_units_extra_cost() -> None:
    situation = board(unit("a", "allies", "5.04"), unit("f", "allies", "5.05"), roads=roads("5.04", "5.05", "5.06"),
                      default="clear")
    assert engine(ridgeline).move(situation, "a", ["5.05", "5.06"]).costs == (Fraction(3, 2), Fraction(1, 2))
    assert engine(ridgeline, roads__friendly_units_extra_cost=None).move(situation, "a", ["5.05"]).costs == \
        (Fraction(1, 2),)


def road_board() -> Situation:
    return board(unit("a", "allies", "1.01", "2-2-4"), unit("x", "axis", "9.09"),
                 roads=roads(*(f"1.0{r}" for r in range(1, 10))) | roads("1.01", "2.01", "3.01", kind="trail"))


def friends_on_the_road() -> Situation:
    situation = road_board()
    return dataclasses.replace(situation, units=(*situation.units, unit("f", "allies", "1.02", "2-2-4")))


def test_flip_road_movement_through_friendly_units() -> None:
    """New SCS: road movement never passes through friendly units (set to no); where a rulebook allows it,
    or says nothing, it may."""
    situation = friends_on_the_road()
    refused = engine(new_scs).move(situation, "a", ["1.02", "1.03"], mode="road")
    assert not refused.legal and "friendly" in (refused.reason or "")
    assert engine(new_scs, road_movement__through_friendly_units=True).move(
        situation, "a", ["1.02", "1.03"], mode="road").legal
    assert engine(new_scs, road_movement__through_friendly_units=None).move(
        situation, "a", ["1.02", "1.03"], mode="road").legal
    assert engine(new_scs).move(situation, "a", ["1.02", "1.03"]).legal        # regular movement may


def test_flip_road_movement_ma_multiple() -> None:
    situation = road_board()
    assert engine(new_scs).reachable(situation, "a", mode="road").costs[H("1.09")] == 4
    assert engine(new_scs, road_movement__ma_multiple=Fraction(1)).move(situation, "a", [f"1.0{r}" for r in range(2, 10)],
                                                                       mode="road").allowance == 4
    assert not engine(new_scs, road_movement__ma_multiple=None).move(situation, "a", ["1.02"], mode="road").legal


def test_flip_road_movement_road_and_trail_cost() -> None:
    situation = road_board()
    one = dataclasses.replace(new_scs.PARAMETERS["road_movement.road_cost"].value, amount=Fraction(1))
    assert engine(new_scs, road_movement__road_cost=one).move(situation, "a", ["1.02"], mode="road").costs == (1,)
    two = dataclasses.replace(new_scs.PARAMETERS["road_movement.trail_cost"].value, amount=Fraction(2))
    assert engine(new_scs).move(situation, "a", ["2.01"], mode="road").costs == (1,)
    assert engine(new_scs, road_movement__trail_cost=two).move(situation, "a", ["2.01"], mode="road").costs == (2,)


def test_flip_road_movement_enemy_distance() -> None:
    situation = board(unit("a", "allies", "1.05", "2-2-4"), unit("x", "axis", "5.05"),
                      roads=roads(*(f"{c}.05" for c in range(1, 5))))
    assert not engine(new_scs).move(situation, "a", ["2.05"], mode="road").legal
    two = dataclasses.replace(new_scs.PARAMETERS["road_movement.enemy_distance"].value, amount=Fraction(2))
    assert engine(new_scs, road_movement__enemy_distance=two).move(situation, "a", ["2.05"], mode="road").legal


def test_flip_out_of_supply_movement_factors() -> None:
    situation = board(unit("a", "allies", "5.05", "2-2-9", states={"out-of-supply"}),
                      unit("m", "allies", "2.02", "2-2-6", states={"out-of-supply"}, capabilities={"mechanized"}),
                      unit("f", "allies", "8.08", "2-2-6", states={"out-of-supply"}, capabilities={"foot"}))
    assert engine(new_scs).move(situation, "a", ["5.06"]).allowance == Fraction(9, 2)
    assert engine(new_scs, supply__out_of_supply_movement_factor=Fraction(1)).move(situation, "a", ["5.06"]).allowance == 9
    assert engine(vcs).move(situation, "m", ["2.03"]).allowance == 3
    assert engine(vcs).move(situation, "f", ["8.09"]).allowance == 6
    assert engine(vcs, supply__out_of_supply_mechanized_movement_factor=None).move(situation, "m", ["2.03"]).allowance == 6


def test_flip_reaction_movement() -> None:
    # New SCS: only exploit-capable units react (its reaction section's effect)
    reactor = dataclasses.replace(unit("r", "axis", "5.01", "3-3-6"), capabilities=frozenset({"exploit"}))
    situation = board(reactor, unit("a", "allies", "5.05"), phasing="allies")
    rules = engine(new_scs)
    react = rules.move(situation, "r", ["5.02", "5.03"], mode="reaction")
    assert react.legal and react.allowance == 3
    assert not rules.move(situation, "r", ["5.02", "5.03", "5.04", "5.05"], mode="reaction").legal
    into_ezoc = rules.move(situation, "r", ["5.02", "5.03", "5.04"], mode="reaction")
    assert not into_ezoc.legal                                   # 1 + 1 + 3 > 3
    assert engine(new_scs, reaction__movement_fraction=Fraction(1)).move(
        situation, "r", ["5.02", "5.03", "5.04"], mode="reaction").legal
    assert not engine(new_scs, reaction__movement_fraction=Fraction(1), reaction__may_enter_ezoc=False).move(
        situation, "r", ["5.02", "5.03", "5.04"], mode="reaction").legal
    assert not engine(scs_1_8).move(situation, "r", ["5.02"], mode="reaction").legal
    assert not rules.move(situation, "a", ["5.06"], mode="reaction").legal     # the phasing side does not react


def test_flip_map_off_map_movement() -> None:
    situation = board(unit("a", "allies", "5.10"))
    refused = engine(scs_1_8).move(situation, "a", ["5.11"])
    assert not refused.legal and "off the map" in (refused.reason or "")
    assert engine(scs_1_8, map__off_map_movement=True).move(situation, "a", ["5.11"]).legal
    assert not engine(scs_1_8, map__off_map_movement=True).move(situation, "a", ["5.11", "5.12"]).legal


# ---- every parameter of the slice is read where it decides --------------------------------------------
def test_zoc_and_move_read_every_parameter_of_their_contract() -> None:
    read: dict[str, set[str]] = {"zoc": set(), "move": set()}
    cases: list[tuple[ModuleType, str, Situation, str, list[str], str, dict[str, Any]]] = [
        (scs_1_8, "zoc", board(unit("x", "axis", "5.05"), hexsides={side("5.05", "5.06"): ("river",)}), "axis", [], "", {}),
        (ridgeline, "zoc", board(unit("x", "axis", "5.05", size="regiment"), default="clear"), "axis", [], "", {}),
        (scs_1_8, "move", movement_example(), "1", ["26.16", "26.17", "26.18"], "regular", {}),
        (scs_1_8, "move", movement_example(), "6", ["24.15", "24.16"], "regular", {}),
        (scs_1_8, "move", board(unit("a", "allies", "5.10", "1-1-1"), unit("x", "axis", "5.08"), unit("y", "axis", "6.06"),
                                roads=roads("5.10", "4.10")), "a", ["4.10", "4.09", "4.08"], "regular", {"saved": 1}),
        (scs_1_8, "move", board(unit("a", "allies", "5.10", "1-1-9"), unit("x", "axis", "5.06"),
                                roads=roads("5.10", "5.09"), hexsides={side("5.10", "5.09"): ("river",)}),
         "a", ["5.09", "5.08", "5.07", "5.06"], "regular", {}),
        (scs_1_8, "move", board(unit("a", "allies", "5.10", "1-1-9")), "a", ["5.11"], "regular", {}),
        (scs_1_8, "move", board(unit("x", "axis", "5.10", "1-1-9")), "x", ["5.09"], "regular", {}),
        (new_scs, "move", road_board(), "a", ["2.01"], "road", {}),
        (new_scs, "move", road_board(), "a", ["1.02"], "road", {}),
        (new_scs, "move", friends_on_the_road(), "a", ["1.02", "1.03"], "road", {}),
        (ridgeline, "move", board(unit("t", "allies", "3.03", "6-4-8", capabilities=frozenset({"armored"})),
                                  unit("e", "allies", "3.03", "1-2-4", capabilities=frozenset({"engineer"})),
                                  unit("x", "axis", "9.09"), default="clear",
                                  hexsides={side("3.03", "3.04"): ("river",)}), "t", ["3.04"], "regular", {}),
        (new_scs, "move", board(unit("a", "allies", "1.05", "2-2-4"), unit("x", "axis", "5.05"),
                                roads=roads("1.05", "2.05")), "a", ["2.05"], "road", {}),
        (new_scs, "move", board(unit("r", "axis", "5.01", "3-3-12", capabilities={"exploit"}), unit("a", "allies", "5.05")),
         "r", ["5.02", "5.03", "5.04"], "reaction", {}),
        (new_scs, "move", board(unit("o", "allies", "5.01", "3-3-5", states={"out-of-supply"})), "o", ["5.02"], "regular", {}),
        (new_scs, "move", board(unit("r", "axis", "5.01", "3-3-12", capabilities={"exploit"}, states={"out-of-supply"}),
                                unit("a", "allies", "5.05")),
         "r", ["5.02"], "reaction", {}),
        (ridgeline, "move", river_board(), "i", ["5.05"], "regular", {}),
        (ridgeline, "move", board(unit("m", "allies", "5.04", capabilities={"mechanized"}, states={"out-of-supply"}),
                                  unit("f", "allies", "5.03"), terrain={H("5.05"): ("mountain",)},
                                  roads=roads("5.04", "5.03"), default="clear"), "m", ["5.03"], "regular", {}),
        (ridgeline, "move", board(unit("m", "allies", "5.04", capabilities={"mechanized"}),
                                  terrain={H("5.05"): ("mountain",)}, default="clear"), "m", ["5.05"], "regular", {}),
        (ridgeline, "move", board(unit("a", "allies", "4.05", "3-3-9"), unit("x", "axis", "5.05"), unit("y", "axis", "1.07"),
                                  default="clear"), "a", ["3.05", "2.05", "1.06"], "regular", {}),
        (ridgeline, "move", vcs_front(), "a", ["4.04"], "regular", {}),
        (ridgeline, "move", vcs_front(), "b", ["3.05", "4.04", "4.03"], "regular", {}),
    ]
    for module, function, situation, who, path, mode, extra in cases:
        rules = ruleset(module)
        answer = RulesEngine(rules)
        if function == "zoc":
            answer.zoc(situation, who)
        else:
            answer.move(situation, who, path, mode=mode, **extra)
        read[function] |= rules.reads
    for parameter in ENGINE_PARAMETERS:
        if parameter.drives in read:
            assert parameter.name in read[parameter.drives], f"{parameter.drives} never reads {parameter.name}"


# ---- properties ---------------------------------------------------------------------------------------
TERRAINS = {scs_1_8: ("open", "woods"), new_scs: ("open", "woods", "swamp", "city"), vcs: ("clear",),
            bocage: ("open", "woods", "bocage", "marsh"), corridor: ("open", "polder", "woods", "town"),
            ridgeline: ("clear", "swamp", "woods", "hills", "mountain", "high-mountain")}
HEXSIDES = {scs_1_8: ("stream", "river"), new_scs: ("stream", "river", "major-river"), vcs: (),
            bocage: ("stream", "hedgerow", "river"), corridor: ("dyke", "canal"), ridgeline: ("stream", "river")}
SIZE = 5
SMALL = HexMap.rectangle(SIZE, SIZE)
ALL_HEXES = SMALL.hexes()


@st.composite
def situations(draw: st.DrawFn) -> tuple[ModuleType, Situation, str]:
    module = draw(st.sampled_from(MODULES))
    terrains = TERRAINS[module]
    terrain = {h: (draw(st.sampled_from(terrains)),) for h in draw(st.lists(st.sampled_from(ALL_HEXES), max_size=8))}
    sides: dict[Hexside, tuple[str, ...]] = {}
    if HEXSIDES[module]:
        for h in draw(st.lists(st.sampled_from(ALL_HEXES), max_size=5)):
            other = draw(st.sampled_from(SMALL.neighbours(h)))
            sides[Hexside.between(h, other)] = (draw(st.sampled_from(HEXSIDES[module])),)
    spots = draw(st.lists(st.sampled_from(ALL_HEXES), min_size=2, max_size=4, unique=True))
    modes = ["regular", "road", "reaction"] if module in (new_scs, corridor) else ["regular", "regular", "reaction"]
    mode = draw(st.sampled_from(modes))
    road: dict[Hexside, str] = {}
    here = spots[0]
    for _ in range(draw(st.integers(0, 6))):       # a road from where the mover stands
        there = draw(st.sampled_from(SMALL.neighbours(here)))
        road[Hexside.between(here, there)] = draw(st.sampled_from(["road", "road", "trail"])) \
            if module in (new_scs, corridor) and "trail" in module.TERRAIN else "road"
        here = there
    capabilities = draw(st.sampled_from([frozenset(), frozenset({"mechanized"}), frozenset({"infantry", "foot"})]))
    states = draw(st.sampled_from([frozenset(), frozenset({"out-of-supply"})]))
    mover = Counter("m", "allies", spots[0], attack=Fraction(2), defense=Fraction(2),
                    movement=Fraction(draw(st.integers(0, 8))), capabilities=capabilities, states=states)
    enemy = "allies" if mode == "road" and draw(st.booleans()) else "axis"    # road movement keeps off the enemy
    others = [Counter(f"u{i}", draw(st.sampled_from(["allies", enemy])), h, attack=Fraction(draw(st.integers(0, 3))),
                      defense=Fraction(1), movement=Fraction(4)) for i, h in enumerate(spots[1:])]
    default = (terrains[0],)
    return module, Situation(SMALL, default_terrain=default, terrain=terrain, hexsides=sides, roads=road,
                             units=(mover, *others), phasing="axis" if mode == "reaction" else "allies"), mode


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# rules a game might change, so that the tie between move and reachable holds whatever the rulebook says
FLIPS: dict[str, Any] = {
    "movement__must_afford_entry": False, "movement__enter_enemy_hex": True, "zoc__ezoc_to_ezoc": False,
    "zoc__entry_stops_movement": True, "zoc__reentry_after_exit": False, "zoc__affects_friendly": True,
    "zoc__friendly_negates_enemy": True, "zoc__multiple_cumulative": True, "zoc__limited_by_terrain": False,
    "roads__continuous_path_required": False, "roads__ignore_crossed_terrain": False,
    "roads__negate_prohibited": False, "zoc__exit_cost_fraction": Fraction(1, 2), "movement__minimum_move": None,
    "movement__fractions_kept": False, "movement__river_crossing_fraction": Fraction(1, 3),
}
flips = st.dictionaries(st.sampled_from(sorted(FLIPS)), st.just(None), max_size=5).map(
    lambda chosen: {name: FLIPS[name] for name in chosen})


@PROPERTY
@given(situations(), flips)
def test_every_reachable_hex_has_a_legal_move_of_that_cost(case: tuple[ModuleType, Situation, str],
                                                           changes: dict[str, Any]) -> None:
    module, situation, mode = case
    rules = engine(module, **changes)
    reach = rules.reachable(situation, "m", mode=mode)
    assert reach.costs[situation.unit("m").hex] == 0
    for hex, cost in reach.costs.items():
        if hex == situation.unit("m").hex:
            continue
        move = rules.move(situation, "m", reach.paths[hex], mode=mode)
        assert move.legal, (hex, move.reason)
        assert move.total == cost and move.path[-1] == hex


@PROPERTY
@given(situations(), flips)
def test_reachable_prices_a_kind_of_step_once_and_answers_as_pricing_every_step(
        case: tuple[ModuleType, Situation, str], changes: dict[str, Any]) -> None:
    """`reachable` works out a step once per kind of step (the state's flags, the terrain, hexside features
    and road, the ZOCs, the units in the hex entered): its costs, paths and cited steps are those of working
    out every step on its own."""
    from rulesdsl.runtime import movement
    module, situation, mode = case
    rules = engine(module, **changes)
    pooled = rules.reachable(situation, "m", mode=mode)
    original = movement._Mover.__init__

    def every_step(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.first_citations = False
    try:
        movement._Mover.__init__ = every_step  # type: ignore[method-assign]
        each = rules.reachable(situation, "m", mode=mode)
    finally:
        movement._Mover.__init__ = original  # type: ignore[method-assign]
    assert (pooled.costs, pooled.paths, pooled.steps) == (each.costs, each.paths, each.steps)
    assert all(isinstance(cost, Fraction) for cost in pooled.costs.values())


@PROPERTY
@given(situations(), st.lists(st.sampled_from(range(6)), max_size=4), flips)
def test_every_legal_move_ends_in_the_reachable_set_at_no_less_cost(case: tuple[ModuleType, Situation, str],
                                                                    turns: list[int], changes: dict[str, Any]) -> None:
    module, situation, mode = case
    rules = engine(module, **changes)
    here, path = situation.unit("m").hex, []
    for turn in turns:                       # a random walk over the map
        around = SMALL.neighbours(here)
        here = around[turn % len(around)]
        path.append(here)
    move = rules.move(situation, "m", path, mode=mode)
    if move.legal and path:
        reach = rules.reachable(situation, "m", mode=mode)
        assert path[-1] in reach and reach.costs[path[-1]] <= move.total


@PROPERTY
@given(situations(), st.integers(0, 6))
def test_the_reachable_set_grows_with_the_movement_allowance(case: tuple[ModuleType, Situation, str], more: int) -> None:
    module, situation, mode = case
    rules = engine(module)
    mover = situation.unit("m")
    faster = dataclasses.replace(situation, units=tuple(dataclasses.replace(u, movement=u.movement + more)
                                                        if u.name == "m" else u for u in situation.units))
    slow, fast = rules.reachable(situation, "m", mode=mode), rules.reachable(faster, "m", mode=mode)
    # (the set grows; a hex's cost need not fall: leaving an EZOC costs a share of the printed MA)
    assert set(slow.costs) <= set(fast.costs), (mover.movement, more)


@PROPERTY
@given(situations())
def test_every_reachable_hex_is_on_the_map_and_may_be_entered(case: tuple[ModuleType, Situation, str]) -> None:
    module, situation, mode = case
    rules = engine(module)
    chart = module.TERRAIN
    for hex in rules.reachable(situation, "m", mode=mode).costs:
        assert hex in situation.map
        assert not any(chart[t].movement.kind == "prohibited" for t in situation.terrain_at(hex) if t in chart)
        assert not situation.occupied_by_enemy(hex, "allies")


def test_corridor_canals_close_movement_and_zocs_except_at_bridges() -> None:
    situation = board(unit("a", "allies", "5.03", "3-3-4"), unit("x", "axis", "5.05"),
                      hexsides={side("5.04", "5.05"): ("canal",), side("5.05", "6.05"): ("canal", "bridge"),
                                side("5.03", "5.04"): ("dyke",)},
                      terrain={H("5.04"): ("polder",)})
    rules = engine(corridor)
    zones = rules.zoc(situation, "axis")
    assert H("5.04") not in zones and H("6.05") in zones and H("5.06") in zones
    assert rules.move(situation, "a", ["5.04"]).costs == (2 + 1,)     # polder 2, dyke +1, no EZOC across the canal
    assert H("5.05") not in rules.reachable(situation, "a")
    step = next(s for s in zones.steps if s.parameter == "zoc.limited_by_terrain")
    assert step.origin == "scs-1.8" and step.rule == "2.0b"


def test_flip_assisted_river_crossing_fraction() -> None:
    """VCS 13.7: armor and artillery stacked with an engineer cross an unbridged river for their whole MA;
    without the engineer, or without the rule, they may not (5.1 lets only infantry wade)."""
    river = {side("3.03", "3.04"): ("river",)}
    tank = unit("t", "allies", "3.03", "6-4-8", capabilities=frozenset({"armored", "mechanized"}))
    sappers = unit("e", "allies", "3.03", "1-2-4", capabilities=frozenset({"engineer"}))
    helped = board(tank, sappers, unit("x", "axis", "9.09"), default="clear", hexsides=river)
    move = engine(ridgeline).move(helped, "t", ["3.04"])
    assert move.legal and move.costs == (1 + 8,)                   # clear, and the whole MA for the river
    assert any(s.parameter == "movement.assisted_river_crossing_fraction" and s.rule == "13.7" for s in move.steps)
    alone = board(tank, unit("x", "axis", "9.09"), default="clear", hexsides=river)
    assert not engine(ridgeline).move(alone, "t", ["3.04"]).legal
    assert not engine(ridgeline, movement__assisted_river_crossing_fraction=None).move(helped, "t", ["3.04"]).legal
    half = engine(ridgeline, movement__assisted_river_crossing_fraction=Fraction(1, 2)).move(helped, "t", ["3.04"])
    assert half.costs == (1 + 4,)


def test_a_move_in_the_exploitation_phase_is_one_the_unit_may_make():
    """`move` and `reachable` respect the phase: in the Exploitation Phase a unit that began it in an enemy
    ZOC (2.1b) or is not exploit capable (11.0a, with no minimum move: 11.0c) may not move at all."""
    from rulesdsl.runtime.hexmap import Hex, HexMap
    from rulesdsl.runtime.situation import Counter, Situation
    board = HexMap.rectangle(8, 8)
    x = Counter("x", "friendly", Hex.parse("2.03"), attack=7, defense=8, movement=9, capabilities={"exploit"})
    y = Counter("y", "friendly", Hex.parse("5.05"), attack=7, defense=8, movement=9, capabilities={"exploit"})
    z = Counter("z", "friendly", Hex.parse("7.07"), attack=5, defense=5, movement=5)
    e = Counter("e", "enemy", Hex.parse("2.04"), attack=2, defense=3, movement=5)
    engine = scs_1_8.RULES_ENGINE
    for phase, barred in (("exploitation", {"x", "z"}), ("movement", set())):
        situation = Situation(board, default_terrain=("open",), units=(x, y, z, e), phasing="friendly", phase=phase)
        for unit in "xyz":
            start = situation.unit(unit).hex
            target = next(h for h in situation.neighbours(start) if not situation.units_at(h))
            move = engine.move(situation, unit, [target])
            assert move.legal is (unit not in barred), (phase, unit, move.reason)
            assert (len(engine.reachable(situation, unit).costs) == 1) is (unit in barred)
    situation = Situation(board, default_terrain=("open",), units=(x, e), phasing="friendly", phase="exploitation")
    assert "began the phase in an enemy ZOC" in (engine.move(situation, "x", ["1.03"]).reason or "")
