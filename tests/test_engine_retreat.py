"""Retreats (paths, EZOC and blocked losses, refusals, elimination) and advances after combat."""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from types import ModuleType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from generated import bocage, corridor, new_scs, ridgeline, scs_1_8
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation
from rulesdsl.runtime.supply import prohibited_hex
from rulesdsl.runtime.terrain import Movement, TerrainEffectsChart

H = Hex.parse


def engine(module: ModuleType, **values: Any) -> RulesEngine:
    """The engine of `module` with parameters set to `values` (`a__b` for `a.b`; None: the rule is absent)."""
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


def unit(name: str, side: str, hex: str, **kw: Any) -> Counter:
    kw.setdefault("attack", 2)
    kw.setdefault("defense", 2)
    kw.setdefault("movement", 5)
    return Counter(name, side, H(hex), **kw)


def walled(module: ModuleType, **values: Any) -> RulesEngine:
    """`engine(module, **values)` with the river prohibited, so that `lane`'s walls hold whatever the module's
    chart says of rivers (New SCS's cost MPs: its engineers halve their normal cost)."""
    found = engine(module, **values)
    assert found.rules.terrain is not None
    found.rules.terrain = TerrainEffectsChart(
        dataclasses.replace(row, movement=Movement("prohibited")) if row.name == "river" else row
        for row in found.rules.terrain.rows)
    return found


def lane(*units: Counter, rows: int = 8, open_terrain: str = "open", **kw: Any) -> Situation:
    """A lane one hex wide: hexrow 2 of a map three hexrows wide, walled off from hexrows 1 and 3 by river
    hexsides, so that a retreat up or down it has one way to go."""
    sides = {}
    for row in range(1, rows + 1):
        for column in (1, 3):
            for other in (row, row + 1):
                if other <= rows:
                    sides[Hexside.between(H(f"2.{row:02d}"), H(f"{column}.{other:02d}"))] = ("river",)
    kw.setdefault("phasing", "allies")
    return Situation(HexMap.rectangle(3, rows), default_terrain=(open_terrain,), hexsides=sides, units=units, **kw)


def defender(*extra: Counter, steps: int = 2, **kw: Any) -> tuple[Counter, ...]:
    return (unit("d", "axis", "2.03", steps=steps), unit("a", "allies", "2.02")) + extra


# ---- EZOC loss (2.1d, 9.0d) ------------------------------------------------------------------------------------
def test_a_stack_retreating_into_an_ezoc_loses_one_step_in_all():
    situation = lane(*defender(unit("d2", "axis", "2.03", steps=2), unit("z", "allies", "2.07")))
    answer = engine(scs_1_8).retreat(situation, ["d", "d2"], 3, attackers=["a"])
    assert answer.paths == ((H("2.04"), H("2.05"), H("2.06")),)
    assert (answer.loss, answer.eliminated) == (1, False)
    step = next(s for s in answer.steps if s.parameter == "retreat.ezoc_step_loss")
    assert step.rule == "2.1d" and step.origin == "scs-1.8"


def test_flip_losses_per_stack():
    situation = lane(*defender(unit("d2", "axis", "2.03", steps=2), unit("z", "allies", "2.07")))
    assert engine(scs_1_8, retreat__losses_per_stack=False).retreat(situation, ["d", "d2"], 3).loss == 2


def test_flip_ezoc_step_loss_absent_means_no_loss():
    situation = lane(*defender(unit("z", "allies", "2.07")))
    assert engine(scs_1_8).retreat(situation, ["d"], 3).loss == 1
    assert engine(scs_1_8, retreat__ezoc_step_loss=None).retreat(situation, ["d"], 3).loss == 0


def test_flip_ezoc_negated_by_friendly_units():
    situation = lane(*defender(unit("z", "allies", "2.07"), unit("f", "axis", "2.06")))
    assert engine(scs_1_8).retreat(situation, ["d"], 3).loss == 1              # 9.0d: friends do not negate it
    assert engine(scs_1_8, retreat__ezoc_negated_by_friendly_units=True).retreat(situation, ["d"], 3).loss == 0


# ---- blocked retreats (9.0b), elimination ---------------------------------------------------------------------------
def test_a_blocked_retreat_costs_a_step_per_hex_not_made():
    situation = lane(*defender(unit("e", "allies", "2.05", attack=0)))
    answer = engine(scs_1_8).retreat(situation, ["d"], 3)
    assert answer.paths == ((H("2.04"),),) and answer.blocked == 2
    assert (answer.loss, answer.eliminated) == (2, True)          # two steps of two: eliminated
    three = lane(*defender(unit("e", "allies", "2.05", attack=0), steps=3))
    assert engine(scs_1_8).retreat(three, ["d"], 3).eliminated is False


def test_flip_blocked_loss_per_unit():
    situation = lane(*defender(unit("d2", "axis", "2.03", steps=3), unit("e", "allies", "2.05", attack=0), steps=3))
    assert engine(scs_1_8).retreat(situation, ["d", "d2"], 2).loss == 1
    assert walled(new_scs).retreat(situation, ["d", "d2"], 2).loss == 2          # New SCS: per unit
    assert engine(scs_1_8, retreat__blocked_loss_per_unit=True).retreat(situation, ["d", "d2"], 2).loss == 2


def test_flip_blocked_step_loss_absent():
    situation = lane(*defender(unit("e", "allies", "2.05", attack=0), steps=3))
    assert engine(scs_1_8, retreat__blocked_step_loss=None).retreat(situation, ["d"], 3).loss == 0


def test_a_stack_with_nowhere_to_go_makes_no_retreat_and_loses_a_step_per_hex():
    situation = lane(*defender(unit("e", "allies", "2.04", attack=0), steps=1))
    answer = engine(scs_1_8).retreat(situation, ["d"], 2)
    assert not answer.legal and answer.blocked == 2 and answer.eliminated


# ---- the map edge (3.3c) ---------------------------------------------------------------------------------------
def test_flip_leaving_map_destroys():
    situation = lane(unit("d", "axis", "2.07", steps=4), unit("a", "allies", "2.06"))
    answer = engine(scs_1_8).retreat(situation, ["d"], 2, attackers=["a"])
    assert answer.eliminated and answer.off_map
    kept = engine(scs_1_8, map__leaving_map_destroys=None).retreat(situation, ["d"], 2, attackers=["a"])
    assert not kept.eliminated and kept.paths == ((H("2.08"),),) and kept.loss == 1


# ---- refusal (9.2) ------------------------------------------------------------------------------------------------
def test_refusing_hexes_turns_them_into_step_losses():
    situation = lane(*defender(steps=3))
    answer = engine(scs_1_8).retreat(situation, ["d"], 3, refuse=2)
    assert answer.paths == ((H("2.04"),),) and answer.refused == 2 and answer.loss == 2


def test_flip_partial_refusal():
    situation = lane(*defender(steps=3))
    answer = engine(scs_1_8, retreat__partial_refusal=False).retreat(situation, ["d"], 3, refuse=2)
    assert answer.refused == 0 and answer.loss == 0 and len(answer.paths[0]) == 3
    whole = engine(scs_1_8, retreat__partial_refusal=False).retreat(situation, ["d"], 3, refuse=3)
    assert whole.refused == 3 and whole.loss == 3 and whole.eliminated


def test_flip_step_per_hex_refused():
    situation = lane(*defender(steps=3))
    assert engine(scs_1_8, retreat__step_per_hex_refused=None).retreat(situation, ["d"], 3, refuse=1).refused == 0
    from rulesdsl.runtime.model import Quantity
    double = engine(scs_1_8, retreat__step_per_hex_refused=Quantity(Fraction(2), "step"))
    assert double.retreat(situation, ["d"], 3, refuse=1).loss == 2


# ---- the path (9.1) -------------------------------------------------------------------------------------------------
def open_ground(*units: Counter, **kw: Any) -> Situation:
    kw.setdefault("phasing", "allies")
    return Situation(HexMap.rectangle(9, 9), default_terrain=("open",), units=units, **kw)


def test_flip_away_from_combat():
    situation = open_ground(unit("d", "axis", "5.05"), unit("a", "allies", "5.04"))
    away = engine(scs_1_8).retreat(situation, ["d"], 2, attackers=["a"])
    assert all(situation.map.distance(H("5.05"), p[-1]) == 2 for p in away.paths)
    free = engine(scs_1_8, retreat__path=("avoid-ezoc",)).retreat(situation, ["d"], 2, attackers=["a"])
    assert any(situation.map.distance(H("5.05"), p[-1]) == 1 for p in free.paths)
    assert len(free.paths) > len(away.paths)


def test_flip_toward_supply():
    situation = open_ground(unit("d", "axis", "5.05"), unit("a", "allies", "4.05"),
                            supply_sources={"axis": frozenset({H("5.09")})})
    toward = engine(scs_1_8).retreat(situation, ["d"], 2, attackers=["a"])
    assert all(situation.map.distance(p[-1], H("5.09")) < 4 for p in toward.paths)
    anywhere = engine(scs_1_8, retreat__path=("away-from-combat",)).retreat(situation, ["d"], 2, attackers=["a"])
    assert any(situation.map.distance(p[-1], H("5.09")) >= 4 for p in anywhere.paths)


def test_flip_ezoc_avoidance_optional():
    situation = open_ground(unit("d", "axis", "5.05"), unit("a", "allies", "5.04"), unit("z", "allies", "4.08"))
    optional = engine(scs_1_8).retreat(situation, ["d"], 2, attackers=["a"])
    ezoc = engine(scs_1_8).enemy_zoc(situation, "axis")
    assert not any(h in ezoc for h in optional.paths[0])                         # the best avoids them
    assert any(h in ezoc for p in optional.paths for h in p)                      # the others stay open
    required = engine(scs_1_8, retreat__ezoc_avoidance_optional=False).retreat(situation, ["d"], 2, attackers=["a"])
    assert not any(h in ezoc for p in required.paths for h in p)


def test_vcs_hex_priority_takes_empty_hexes_before_friendly_ones():
    situation = Situation(HexMap.rectangle(9, 9), default_terrain=("clear",), phasing="allies",
                          units=(unit("d", "axis", "5.05"), unit("a", "allies", "5.04"), unit("f", "axis", "5.06")))
    # 5.06 (north) is friendly; 4.05 and 6.05 are empty and free of EZOCs; 4.04 and 6.04 are in the EZOC
    best = engine(ridgeline).retreat(situation, ["d"], 1, attackers=["a"])
    assert {p[0] for p in best.paths} == {H("4.05"), H("6.05")}
    flat = engine(ridgeline, retreat__hex_priority=None).retreat(situation, ["d"], 1, attackers=["a"])
    assert H("5.06") in {p[0] for p in flat.paths}


# ---- length: hexes or MPs ---------------------------------------------------------------------------------------
def woods_lane() -> Situation:
    situation = lane(*defender(steps=3))
    return dataclasses.replace(situation, terrain={H("2.04"): ("woods",)})


def test_flip_retreat_counted_in_hexes():
    assert engine(scs_1_8).retreat(woods_lane(), ["d"], 2).paths == ((H("2.04"), H("2.05")),)
    in_mps = engine(scs_1_8, retreat__counted_in_hexes=False).retreat(woods_lane(), ["d"], 2)
    assert in_mps.paths == ((H("2.04"),),)                                       # the woods take both MPs


def test_flip_terrain_affects_length():
    longer = engine(scs_1_8, retreat__terrain_affects_length=True).retreat(woods_lane(), ["d"], 2)
    assert longer.paths == ((H("2.04"),),)


# ---- who retreats, and together -------------------------------------------------------------------------------
def test_flip_whole_side():
    situation = lane(*defender(unit("d2", "axis", "2.03", steps=1), unit("z", "allies", "2.07")))
    assert engine(scs_1_8).retreat(situation, ["d"], 3).units == ("d", "d2")
    assert engine(scs_1_8, retreat__whole_side=False).retreat(situation, ["d"], 3).units == ("d",)


def river_bank() -> Situation:
    """An armored and an infantry unit on a bank, whose only way back crosses an unbridged river."""
    sides = {Hexside.between(H("2.03"), H(h)): ("river",) for h in ("2.04", "1.03", "1.04", "3.03", "3.04")}
    return Situation(HexMap.rectangle(3, 8), default_terrain=("clear",), hexsides=sides, phasing="allies",
                     units=(unit("tank", "axis", "2.03", capabilities={"armored"}, steps=2),
                            unit("foot", "axis", "2.03", steps=2), unit("a", "allies", "2.02"),
                            unit("b", "allies", "1.02"), unit("c", "allies", "3.02")))


def test_flip_heavy_units_cross_unbridged_rivers():
    foot = engine(ridgeline, retreat__whole_side=False)
    assert foot.retreat(river_bank(), ["foot"], 1).paths                         # infantry may cross (10.9)
    assert not foot.retreat(river_bank(), ["tank"], 1).legal                     # armor may not
    assert engine(ridgeline, retreat__whole_side=False, retreat__heavy_units_cross_unbridged_rivers=True) \
        .retreat(river_bank(), ["tank"], 1).legal
    scs_bank = dataclasses.replace(river_bank(), default_terrain=("open",))
    assert not engine(scs_1_8, retreat__whole_side=False).retreat(scs_bank, ["foot"], 1).legal    # SCS: nobody


def test_flip_may_split():
    together = engine(ridgeline).retreat(river_bank(), ["tank", "foot"], 1)
    assert not together.legal and together.loss == 1 and not together.split
    apart = engine(ridgeline, retreat__may_split=True).retreat(river_bank(), ["tank", "foot"], 1)
    assert [r.units for r in apart.split] == [("foot",), ("tank",)]
    assert apart.split[0].legal and not apart.split[1].legal and apart.loss == 1


def test_flip_close_terrain_ignores_one_hex():
    city = dataclasses.replace(lane(*defender()), terrain={H("2.03"): ("city",)})
    ignored = walled(new_scs).retreat(city, ["d"], 1, attackers=["a"])
    assert ignored.ignored and ignored.paths == ((),) and ignored.loss == 0
    assert walled(new_scs).retreat(city, ["d"], 2, attackers=["a"]).paths == ((H("2.04"), H("2.05")),)
    assert not walled(new_scs, retreat__close_terrain_ignores_one_hex=False).retreat(city, ["d"], 1).ignored
    woods = dataclasses.replace(city, terrain={H("2.03"): ("woods",)})
    assert not walled(new_scs).retreat(woods, ["d"], 1).ignored
    town = dataclasses.replace(city, terrain={H("2.03"): ("town",)})
    assert engine(corridor).retreat(town, ["d"], 1).ignored


# ---- property: a retreat never enters a prohibited hex, an enemy hex, or leaves the map ----------------------
hexes = st.builds(lambda c, r: Hex("", c, r), st.integers(1, 5), st.integers(1, 5))


@settings(max_examples=60, deadline=None)
@given(enemies=st.lists(hexes, min_size=1, max_size=4, unique=True), start=hexes,
       rivers=st.lists(st.tuples(hexes, st.integers(0, 5)), max_size=8), length=st.integers(1, 3),
       module=st.sampled_from([scs_1_8, new_scs, ridgeline, bocage]))
def test_a_retreat_never_enters_a_prohibited_or_enemy_hex_nor_leaves_the_map(enemies, start, rivers, length, module):
    if start in enemies:
        return
    grid = HexMap.rectangle(5, 5)
    sides = {}
    for hex, index in rivers:
        around = grid.neighbours(hex)
        sides[Hexside.between(hex, around[index % len(around)])] = ("river",)
    units = (Counter("d", "axis", start, attack=1, defense=1, movement=4, steps=9),) + tuple(
        Counter(f"e{i}", "allies", h, attack=1, defense=1, movement=4) for i, h in enumerate(enemies))
    situation = Situation(grid, default_terrain=("open",) if module is not ridgeline else ("clear",),
                          hexsides=sides, units=units, phasing="allies")
    rules = engine(module)
    answer = rules.retreat(situation, ["d"], length, attackers=["e0"])
    heavy_rule = "retreat.heavy_units_cross_unbridged_rivers" in module.PARAMETERS
    for path in answer.paths:
        here = start
        for hex in path:
            assert hex in grid and not situation.occupied_by_enemy(hex, "axis")
            assert not prohibited_hex(rules.rules, situation, hex)
            if not heavy_rule:
                assert rules.entry_cost(situation, units[0], here, hex) is not None
            here = hex


# ---- advance after combat (10.0; VCS 10.9-10.11) ------------------------------------------------------------------
def after_combat(*extra: Counter, terrain: str = "open", **kw: Any) -> Situation:
    """The defender has left 5.05; unit 3 (not exploit-capable) and unit 6 (exploit-capable) attacked it."""
    kw.setdefault("phasing", "allies")
    return Situation(HexMap.rectangle(9, 9), default_terrain=(terrain,), **kw,
                     units=(unit("3", "allies", "5.04", attack=3), unit("6", "allies", "4.04", attack=3,
                                                                         capabilities={"exploit", "mechanized"}))
                     + extra)


def test_only_exploit_capable_units_go_beyond_the_defender_hex():
    answer = engine(scs_1_8).advance(after_combat(), ["3", "6"], "5.05", 2)
    assert answer.allowed and answer.limits == {"3": 1, "6": 2} and answer.hexes == 2
    assert H("5.05") in answer.reachable and H("5.06") in answer.reachable and H("5.07") not in answer.reachable
    alone = engine(scs_1_8).advance(after_combat(), ["3"], "5.05", 2)
    assert alone.reachable == (H("5.05"),)
    step = next(s for s in alone.steps if s.parameter == "advance.max_not_exploit_capable")
    assert step.rule == "10.0"


def test_flip_max_not_exploit_capable():
    assert engine(scs_1_8, advance__max_not_exploit_capable=None).advance(after_combat(), ["3"], "5.05", 2).hexes == 2


def test_flip_first_hex_is_defender_hex():
    first = engine(scs_1_8).advance(after_combat(), ["6"], "5.05", 2)
    direct = engine(scs_1_8, advance__first_hex_is_defender_hex=False).advance(after_combat(), ["6"], "5.05", 2)
    assert H("3.05") not in first.reachable and H("3.05") in direct.reachable       # 4.04 -> 3.05 -> ...


def test_flip_after_defender_destroyed():
    assert engine(scs_1_8).advance(after_combat(), ["6"], "5.05", 2, defender_destroyed=True).hexes == 2
    none = engine(scs_1_8, advance__after_defender_destroyed=None)
    assert none.advance(after_combat(), ["6"], "5.05", 2, defender_destroyed=True).hexes == 1


def test_flip_length_from_original_result():
    assert engine(scs_1_8).advance(after_combat(), ["6"], "5.05", 2, refused=1).hexes == 2
    assert engine(ridgeline).advance(after_combat(terrain="clear"), ["6"], "5.05", 2, refused=1).hexes == 1
    assert engine(scs_1_8, advance__length_from_original_result=False) \
        .advance(after_combat(), ["6"], "5.05", 2, refused=2).allowed is False


def test_flip_advance_counted_in_hexes():
    woods = dataclasses.replace(after_combat(), terrain={H("5.06"): ("woods",)})
    assert H("5.06") in engine(scs_1_8).advance(woods, ["6"], "5.05", 2).reachable
    in_mps = engine(scs_1_8, advance__counted_in_hexes=False).advance(woods, ["6"], "5.05", 2)
    assert H("5.06") not in in_mps.reachable and H("5.05") in in_mps.reachable


def test_flip_defender_may_advance():
    defending = dataclasses.replace(after_combat(), phasing="axis")
    assert not engine(scs_1_8).advance(defending, ["6"], "5.05", 2).allowed
    assert engine(scs_1_8, advance__defender_may_advance=True).advance(defending, ["6"], "5.05", 2).allowed
    assert engine(ridgeline).advance(dataclasses.replace(defending, default_terrain=("clear",)), ["6"], "5.05",
                                     2).allowed


def test_flip_after_overrun_and_overrun_must_enter():
    scs = engine(scs_1_8).advance(after_combat(), ["6"], "5.05", 2, overrun=True)
    assert scs.allowed and scs.hexes == 2 and scs.required
    new = engine(new_scs).advance(after_combat(), ["6"], "5.05", 2, overrun=True)
    assert new.allowed and new.hexes == 1 and new.required and new.reachable == (H("5.05"),)
    assert not engine(new_scs, advance__overrun_must_enter=False).advance(after_combat(), ["6"], "5.05", 2,
                                                                           overrun=True).allowed
    assert not engine(scs_1_8, advance__overrun_must_enter=False).advance(after_combat(), ["6"], "5.05", 2,
                                                                           overrun=True).required


def test_flip_any_participant():
    zero = after_combat(unit("0", "allies", "6.04", attack=0))
    assert engine(scs_1_8).advance(zero, ["0"], "5.05", 2).allowed
    assert not engine(scs_1_8, advance__any_participant=False).advance(zero, ["0"], "5.05", 2).allowed


def ezoc_after_combat() -> Situation:
    return after_combat(unit("x", "axis", "6.05", attack=3), terrain="clear")


def test_vcs_ezocs_stop_an_advance_except_in_the_first_hex():
    answer = engine(ridgeline).advance(ezoc_after_combat(), ["6"], "5.05", 3)
    assert H("6.04") in answer.reachable and H("7.05") not in answer.reachable     # 6.04 is in the EZOC: stop
    assert H("4.05") in answer.reachable                                            # past the first hex's EZOC
    free = engine(ridgeline, zoc__blocks_advance=False).advance(ezoc_after_combat(), ["6"], "5.05", 3)
    assert H("7.05") in free.reachable


def test_flip_first_hex_ignores_ezoc():
    stopped = engine(ridgeline, advance__first_hex_ignores_ezoc=False).advance(ezoc_after_combat(), ["6"], "5.05", 3)
    assert stopped.reachable == (H("5.05"),)


def test_flip_mechanized_may_deviate():
    path = ["5.06", "5.07"]
    mech = engine(ridgeline).advance(after_combat(terrain="clear"), ["6"], "5.05", 2, path=path)
    assert H("4.05") in mech.reachable
    foot = engine(ridgeline).advance(after_combat(terrain="clear"), ["3"], "5.05", 2, path=path)
    assert foot.reachable == (H("5.05"), H("5.06"))
    kept = engine(ridgeline, advance__mechanized_may_deviate=False).advance(after_combat(terrain="clear"), ["6"],
                                                                            "5.05", 2, path=path)
    assert kept.reachable == (H("5.05"), H("5.06"))


def test_flip_breakthrough_mechanized_extra_advance():
    assert engine(ridgeline).advance(after_combat(terrain="clear"), ["6"], "5.05", 2, breakthrough=True).hexes == 3
    assert engine(ridgeline).advance(after_combat(terrain="clear"), ["3"], "5.05", 2, breakthrough=True).hexes == 2
    assert engine(ridgeline, breakthrough__mechanized_extra_advance=None) \
        .advance(after_combat(terrain="clear"), ["6"], "5.05", 2, breakthrough=True).hexes == 2


def test_flip_armor_across_unbridged_rivers():
    river = {Hexside.between(H("5.04"), H("5.05")): ("river",)}
    tank = after_combat(unit("t", "allies", "5.04", capabilities={"armored"}), terrain="clear", hexsides=river)
    assert not engine(ridgeline).advance(tank, ["t"], "5.05", 2).allowed
    assert engine(ridgeline).advance(tank, ["3"], "5.05", 2).reachable == (H("5.05"),)   # infantry crosses, stops
    assert engine(ridgeline, advance__armor_across_unbridged_rivers=True).advance(tank, ["t"], "5.05", 2).allowed
