"""The supply trace: enemy units, prohibited terrain and EZOCs block it, friendly units negate EZOCs, and the
VCS distance by terrain level (rule 11.0 and its table)."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generated import bocage, new_scs, ridgeline, scs_1_8, vcs
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation

H = Hex.parse


def engine(module: ModuleType, **values: Any) -> RulesEngine:
    """The engine of `module`, with parameters set to `values` (`None` removes one: the rule is absent)."""
    parameters = dict(module.PARAMETERS)
    for key, value in values.items():
        name = key.replace("__", ".")
        if value is None:
            parameters.pop(name, None)
        elif name in parameters:
            parameters[name] = dataclasses.replace(parameters[name], value=value)
        else:
            template = next(iter(module.PARAMETERS.values()))
            parameters[name] = dataclasses.replace(template, name=name, value=value, rule="test")
    return RulesEngine(RuleSet(module.RULEBOOK["id"], parameters, module.TERRAIN, module.TABLES, module.RULES))


def river_line(*, bridge: bool = True, with_6: bool = True, with_8: bool = True) -> Situation:
    """The SCS supply example, laid out so that its words hold: a river along the hexsides between hexrows 4
    and 5 with one bridge (4.05/5.05); unit 6 stands before the bridge in the ZOC of enemy unit 7 (3.06), unit
    8 beyond it in the ZOC of enemy unit 2 (5.06; ZOCs do not cross the river); unit 3 is behind them, in
    unit 7's ZOC too (it negates that itself); source B is 9.05."""
    sides: dict[Hexside, tuple[str, ...]] = {}
    for row in range(1, 11):
        for other in (row, row + 1):
            if other <= 10:
                sides[Hexside.between(H(f"4.{row:02d}"), H(f"5.{other:02d}"))] = ("river",)
    if bridge:
        sides[Hexside.between(H("4.05"), H("5.05"))] = ("river", "bridge")
    units = [Counter("3", "allies", H("3.05"), attack=3, defense=2, movement=9),
             Counter("2", "axis", H("5.06"), attack=2, defense=3, movement=5),
             Counter("7", "axis", H("3.06"), attack=2, defense=3, movement=5)]
    if with_6:
        units.append(Counter("6", "allies", H("4.05"), attack=3, defense=2, movement=9))
    if with_8:
        units.append(Counter("8", "allies", H("5.05"), attack=7, defense=8, movement=9))
    return Situation(HexMap.rectangle(10, 10), default_terrain=("open",), hexsides=sides, units=tuple(units),
                     supply_sources={"allies": frozenset({H("9.05")}), "axis": frozenset({H("1.01")})})


# ---- the SCS example (12.0, 2.1h) -------------------------------------------------------------------------------
def test_friendly_units_negate_the_ezocs_in_their_hexes_so_unit_3_traces_across_the_bridge():
    answer = engine(scs_1_8).supply(river_line(), "3")
    assert answer.in_supply
    assert answer.path[:3] == (H("3.05"), H("4.05"), H("5.05")) and answer.path[-1] == H("9.05")
    negated = [s for s in answer.steps if s.parameter == "zoc.negated_for_supply_by_friendly_units"]
    assert negated and negated[0].rule == "2.1h" and negated[0].origin == "scs-1.8"
    assert engine(scs_1_8).supply(river_line(), "6").in_supply     # unit 8 negates the EZOC for unit 6


@pytest.mark.parametrize("missing", ["bridge", "with_6", "with_8"])
def test_without_the_bridge_or_either_unit_unit_3_is_out_of_supply(missing: str):
    answer = engine(scs_1_8).supply(river_line(**{missing: False}), "3")
    assert not answer.in_supply and answer.path == ()


def test_a_game_inherits_the_series_supply_rules():
    step = next(s for s in engine(bocage).supply(river_line(), "3").steps if s.parameter == "zoc.blocks_supply"
                or s.parameter == "zoc.negated_for_supply_by_friendly_units")
    assert step.origin == "scs-1.8"


# ---- flips: one per parameter -------------------------------------------------------------------------------
def test_flip_negated_for_supply_by_friendly_units():
    assert not engine(scs_1_8, zoc__negated_for_supply_by_friendly_units=False).supply(river_line(), "3").in_supply


def test_flip_zoc_blocks_supply():
    assert engine(scs_1_8, zoc__blocks_supply=False).supply(river_line(with_6=False), "3").in_supply


def enemy_wall() -> Situation:
    """A one-hex-wide corridor (hexrow 1 of a map two hexrows wide, hexrow 2 all prohibited river) with an
    enemy unit of no ZOC across it."""
    units = (Counter("a", "allies", H("1.01"), attack=1, defense=1, movement=4),
             Counter("e", "axis", H("1.03"), attack=0, defense=1, movement=4))
    sides = {Hexside.between(H(f"1.{r:02d}"), H(f"2.{o:02d}")): ("river",)
             for r in range(1, 6) for o in (r - 1, r) if 1 <= o <= 5}
    return Situation(HexMap.rectangle(2, 5), default_terrain=("open",), hexsides=sides, units=units,
                     supply_sources={"allies": frozenset({H("1.05")})})


def test_flip_blocked_by_enemy_units():
    assert not engine(scs_1_8).supply(enemy_wall(), "a").in_supply
    assert engine(scs_1_8, supply__blocked_by_enemy_units=False).supply(enemy_wall(), "a").in_supply


def test_flip_blocked_by_prohibited_terrain():
    situation = river_line(bridge=False)
    assert not engine(scs_1_8, zoc__blocks_supply=False).supply(situation, "3").in_supply
    free = engine(scs_1_8, zoc__blocks_supply=False, supply__blocked_by_prohibited_terrain=False)
    assert free.supply(situation, "3").in_supply


def test_flip_line_length_from_unlimited_to_a_number_of_hexes():
    situation = river_line()
    assert engine(scs_1_8).supply(situation, "3").in_supply
    short = engine(scs_1_8, supply__line_length=Fraction(3)).supply(situation, "3")
    assert not short.in_supply
    assert engine(scs_1_8, supply__line_length=Fraction(6)).supply(situation, "3").in_supply


def test_flip_method_range_ignores_what_lies_between():
    situation = river_line(bridge=False)
    assert not engine(scs_1_8).supply(situation, "3").in_supply
    assert engine(scs_1_8, supply__method="range").supply(situation, "3").in_supply
    assert not engine(scs_1_8, supply__method="range", supply__line_length=Fraction(5)).supply(situation, "3").in_supply


def test_no_supply_rule_means_every_unit_is_in_supply():
    answer = engine(scs_1_8, supply__method=None).supply(river_line(bridge=False), "3")
    assert answer.in_supply and "no rule" in answer.steps[0].text


def test_a_side_with_no_source_is_out_of_supply():
    situation = dataclasses.replace(river_line(), supply_sources={})
    assert not engine(scs_1_8).supply(situation, "3").in_supply


# ---- VCS 11.0: distance by terrain level ---------------------------------------------------------------------
def mountain_road(unit_hex: str, unit_terrain: str = "clear") -> Situation:
    """A road running up hexrow 5 through mountain (level 4) to the source at 5.10; the unit in clear (level 1)
    terrain to its west."""
    road = [H(f"5.{r:02d}") for r in range(1, 11)]
    terrain = {h: ("mountain",) for h in road}
    terrain[H(unit_hex)] = (unit_terrain,)
    roads = {Hexside.between(a, b): "road" for a, b in zip(road, road[1:])}
    units = (Counter("u", "allies", H(unit_hex), attack=2, defense=2, movement=4),)
    return Situation(HexMap.rectangle(10, 10), default_terrain=("clear",), terrain=terrain, roads=roads,
                     units=units, supply_sources={"allies": frozenset({H("5.10")})})


def test_a_level_1_unit_whose_only_road_runs_through_level_4_terrain_must_stand_next_to_it():
    assert ridgeline.TERRAIN["mountain"].level == 4 and ridgeline.TERRAIN["clear"].level == 1
    next_to = engine(ridgeline).supply(mountain_road("4.03"), "u")
    assert next_to.in_supply and next_to.path[0] == H("4.03") and next_to.path[1] in (H("5.03"), H("5.04"))
    assert next_to.path[-1] == H("5.10")
    two_away = engine(ridgeline).supply(mountain_road("3.03"), "u")
    assert not two_away.in_supply


def test_a_level_1_trace_to_a_road_in_level_1_terrain_may_be_four_hexes_long_five_in_ridgeline():
    def clear_road(unit_hex: str) -> Situation:
        situation = mountain_road(unit_hex)
        return dataclasses.replace(situation, terrain={})
    assert engine(vcs, **{}).supply(clear_road("1.03"), "u").in_supply          # 4 hexes from hexrow 5
    vcs_terrain = RulesEngine(RuleSet("vcs", vcs.PARAMETERS, ridgeline.TERRAIN, vcs.TABLES, vcs.RULES))
    assert vcs_terrain.supply(clear_road("1.03"), "u").in_supply
    far = Situation(HexMap.rectangle(12, 10), default_terrain=("clear",), roads=clear_road("1.03").roads,
                    units=(Counter("u", "allies", H("10.03"), attack=2, defense=2, movement=4),),
                    supply_sources={"allies": frozenset({H("5.10")})})
    assert not vcs_terrain.supply(far, "u").in_supply                              # 5 hexes: VCS says 4
    assert engine(ridgeline).supply(far, "u").in_supply                            # Ridgeline's table says 5


def test_the_road_leg_is_blocked_by_enemy_units_on_it():
    situation = mountain_road("4.03")
    blocked = dataclasses.replace(situation, units=situation.units + (
        Counter("e", "axis", H("5.07"), attack=0, defense=1, movement=4),))
    assert not engine(ridgeline).supply(blocked, "u").in_supply


# ---- property: friendly units change supply only by negating EZOCs ------------------------------------------------
hexes_5x5 = st.builds(lambda c, r: Hex("", c, r), st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=60, deadline=None)
@given(enemies=st.lists(hexes_5x5, min_size=1, max_size=4, unique=True),
       friends=st.lists(hexes_5x5, min_size=1, max_size=4, unique=True),
       unit_hex=hexes_5x5, source=hexes_5x5, woods=st.lists(hexes_5x5, max_size=6),
       module=st.sampled_from([scs_1_8, new_scs, ridgeline]))
def test_friendly_units_change_supply_only_by_negating_ezocs(enemies, friends, unit_hex, source, woods, module):
    taken = set(enemies)
    if unit_hex in taken:
        return
    terrain_name = "woods"
    units = [Counter("u", "blue", unit_hex, attack=1, defense=1, movement=4)]
    units += [Counter(f"e{i}", "red", h, attack=2, defense=2, movement=4) for i, h in enumerate(enemies)]
    before = Situation(HexMap.rectangle(6, 6), default_terrain=("open",) if module is not ridgeline else ("clear",),
                       terrain={h: (terrain_name,) for h in woods}, units=tuple(units),
                       supply_sources={"blue": frozenset({source})})
    added = [h for h in friends if h not in taken]
    after = dataclasses.replace(before, units=before.units + tuple(
        Counter(f"f{i}", "blue", h, attack=1, defense=1, movement=4) for i, h in enumerate(added)))
    rules = engine(module)
    was, now = rules.supply(before, "u"), rules.supply(after, "u")
    assert not (was.in_supply and not now.in_supply)
    if now.in_supply and not was.in_supply:
        ezoc = rules.enemy_zoc(after, "blue")
        assert any(h in ezoc and h in set(added) | {unit_hex} for h in now.path)


@pytest.mark.parametrize(("terrain", "hexrow", "in_supply"), [
    ("woods", "2", True), ("woods", "1", False),            # level 2-3: at most 3 hexes
    ("hills", "2", True),
    ("mountain", "4", True), ("mountain", "3", False),      # level 4-6: on or next to the road
    ("clear", "1", True),                                   # level 1: 4 hexes in Ridgeline's 5
])
def test_the_trace_to_the_road_is_as_long_as_the_highest_level_of_its_hexes_allows(terrain, hexrow, in_supply):
    road = [H(f"5.{r:02d}") for r in range(1, 11)]
    situation = Situation(HexMap.rectangle(10, 10), default_terrain=("clear",), terrain={H(f"{hexrow}.03"): (terrain,)},
                          roads={Hexside.between(a, b): "road" for a, b in zip(road, road[1:])},
                          units=(Counter("u", "allies", H(f"{hexrow}.03"), attack=2, defense=2, movement=4),),
                          supply_sources={"allies": frozenset({H("5.10")})})
    assert engine(ridgeline).supply(situation, "u").in_supply is in_supply


# ---- property: the trace skips asking of open hexes what it would say of them: nothing -----------------------
@settings(max_examples=80, deadline=None)
@given(enemies=st.lists(hexes_5x5, max_size=4, unique=True), friends=st.lists(hexes_5x5, max_size=3, unique=True),
       unit_hex=hexes_5x5, sources=st.lists(hexes_5x5, min_size=1, max_size=2, unique=True),
       lakes=st.lists(hexes_5x5, max_size=14), module=st.sampled_from([new_scs, new_scs, scs_1_8, bocage, vcs]),
       flips=st.fixed_dictionaries({}, optional={
           "zoc__blocks_supply": st.booleans(), "supply__blocked_by_enemy_units": st.booleans(),
           "supply__blocked_by_prohibited_terrain": st.booleans(),
           "zoc__negated_for_supply_by_friendly_units": st.booleans()}))
def test_a_trace_answers_as_asking_every_hex_what_blocks_it(enemies, friends, unit_hex, sources, lakes, module, flips):
    """`_trace` asks the blocker only of hexes with enemy units, in enemy ZOCs or of prohibited terrain; asking it
    of every hex (as it once did) gives the same answer, path and derivation."""
    from rulesdsl.runtime import supply
    if unit_hex in enemies:
        return
    units = [Counter("u", "blue", unit_hex, attack=1, defense=1, movement=4)]
    units += [Counter(f"e{i}", "red", h, attack=2, defense=2, movement=4) for i, h in enumerate(enemies)]
    units += [Counter(f"f{i}", "blue", h, attack=1, defense=1, movement=4) for i, h in enumerate(friends)
              if h not in enemies and h != unit_hex]
    default = ("open",) if module is not vcs else (sorted(module.TERRAIN)[0],)
    situation = Situation(HexMap.rectangle(6, 6), default_terrain=default, terrain={h: ("lake",) for h in lakes},
                          units=tuple(units), supply_sources={"blue": frozenset(sources)})
    rules = engine(module, **flips)
    fast = rules.supply(situation, "u")
    every = frozenset(situation.map.hexes())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(supply._Blocker, "suspects", lambda self: (every, frozenset()))
        assert rules.supply(situation, "u") == fast
