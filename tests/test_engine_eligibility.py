"""Overrun, exploitation and attack eligibility (rulesdsl.runtime.eligibility), against the compiled rulebooks.

The SCS overrun example's figure is lost in the extraction; the layout below is the one that makes every
printed figure hold (see the EXAMPLES-10 notes): 5 and 6 (7-8-9, exploit, 3 steps each) begin in 11.06 next
to unit 14 (0-1-9, no ZOC); unit 7 (2-3-5) is in 10.08, open; unit 1 (1 step) in 10.07; unit 2 in 9.05,
woods, behind a stream on 9.05/9.06; unit 8 (3-2-9) begins in 9.07; the river on 9.08/10.08 is bridged.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from generated import bocage, corridor, new_scs, ridgeline, scs_1_8, vcs
from rulesdsl.runtime.eligibility import Record
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.model import Parameter, Quantity
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation

H = Hex.parse


def engine(module, **changes) -> RulesEngine:  # type: ignore[no-untyped-def]
    """The module's engine, with parameters changed (name with dots as __: stacking__limit=...)."""
    parameters = dict(module.PARAMETERS)
    for key, value in changes.items():
        name = key.replace("__", ".")
        if value is None:
            parameters.pop(name, None)
        elif name in parameters:
            parameters[name] = dataclasses.replace(parameters[name], value=value)
        else:
            parameters[name] = Parameter(name, value, rule="test", origin="test", source="test:1")
    return RulesEngine(RuleSet(module.RULEBOOK["id"], parameters, module.TERRAIN, module.TABLES, module.RULES))


SIX = Quantity(Fraction(6), "step")


def example(open_: str = "open", river: tuple[str, ...] = ("river", "bridge"), stream: str = "stream",
            **moves: str) -> Situation:
    """The overrun example's map; `moves` puts units elsewhere (unit name -> hex), keeping where they began.
    open_ and river: the chart's names for open ground and a bridged river."""
    units = (Counter("5", "allies", H("11.06"), attack=7, defense=8, movement=9, steps=3,
                     capabilities=frozenset({"exploit"})),
             Counter("6", "allies", H("11.06"), attack=7, defense=8, movement=9, steps=3,
                     capabilities=frozenset({"exploit"})),
             Counter("1", "allies", H("10.07"), attack=3, defense=5, movement=5),
             Counter("8", "allies", H("9.07"), attack=3, defense=2, movement=9),
             Counter("7", "axis", H("10.08"), attack=2, defense=3, movement=5, steps=2),
             Counter("14", "axis", H("10.05"), attack=0, defense=1, movement=9, has_attack_strength=False),
             Counter("2", "axis", H("9.05"), attack=3, defense=5, movement=5))
    situation = Situation(HexMap.rectangle(20, 20), default_terrain=(open_,), terrain={H("9.05"): ("woods",)},
                          hexsides={Hexside.between(H("9.05"), H("9.06")): (stream,),
                                    Hexside.between(H("9.08"), H("10.08")): river},
                          units=units, phasing="allies")
    for name, hex in moves.items():
        situation = situation.moved([name], H(hex))
    return situation


SCS = engine(scs_1_8, stacking__limit=SIX)


# ---- the SCS overrun example ------------------------------------------------------------------------------
def test_units_5_and_6_overrun_unit_7_from_11_08_at_5_mp():
    verdict = SCS.may_overrun(example(), ["5", "6"], "11.08", "10.08", path=["11.07", "11.08"])
    assert verdict.allowed, verdict.reasons
    assert verdict.cost == 5                       # 1 open + 2 for unit 7's EZOC + 2 to overrun
    assert verdict.total == 6                      # and 1 for 11.07 on the way
    assert verdict.remaining == 0                  # the overrun ends their movement (6.2a)
    cited = {s.parameter: s for s in verdict.steps if s.parameter}
    assert cited["overrun.cost"].rule == "6.0" and cited["overrun.max_target_cost"].rule == "6.0c"
    assert cited["stacking.overrun_counts_all_units"].rule == "4.0a"


def test_the_stack_standing_in_the_hex_after_its_move_is_priced_the_same():
    moved = example().moved(["5", "6"], H("11.08"))
    verdict = SCS.may_overrun(moved, ["5", "6"], "11.08", "10.08", path=["11.06", "11.07", "11.08"])
    assert (verdict.allowed, verdict.cost, verdict.total) == (True, 5, 6)


def test_units_5_and_6_may_also_overrun_unit_14_as_they_begin_in_no_enemy_zoc():
    verdict = SCS.may_overrun(example(), ["5", "6"], "11.06", "10.05")
    assert verdict.allowed and verdict.cost == 2   # no move: only the overrun itself


def test_not_from_10_07_where_unit_1_makes_7_steps_against_6():
    verdict = SCS.may_overrun(example(), ["5", "6"], "10.07", "10.08", path=["10.06", "10.07"])
    assert not verdict.allowed
    assert any("7 steps in 10.07" in r and "limit of 6" in r for r in verdict.reasons)
    check = SCS.stack(example(**{"5": "10.07", "6": "10.07"}), "10.07", moment="overrun", overrunning=["5", "6"])
    assert (check.legal, check.size, check.limit) == (False, 7, 6)


def test_unit_8_may_not_overrun_unit_7_across_the_bridge():
    verdict = SCS.may_overrun(example(), ["8"], "9.08", "10.08")
    assert not verdict.allowed
    assert any("could not be entered" in r for r in verdict.reasons)
    road = next(s for s in verdict.steps if s.parameter == "overrun.may_use_roads")
    assert road.rule == "6.1d" and "bridge" in road.text
    assert SCS.move(example(), "8", ["9.08"]).costs == (3,)      # it may get there: 1 + 2 for 7's ZOC over the bridge
    assert SCS.entry_cost(example(), example().unit("8"), H("9.08"), H("10.08")) == 1   # the bridge negates the river


def test_unit_8_may_not_overrun_unit_2_in_woods_behind_a_stream():
    verdict = SCS.may_overrun(example(), ["8"], "9.06", "9.05")
    assert not verdict.allowed
    assert any("costs 3 MP" in r and "2 MP" in r for r in verdict.reasons)


def test_unit_8_overruns_unit_14_from_11_06_at_4_mp_once_5_and_6_have_left():
    gone = example(**{"5": "11.08", "6": "11.08"})
    verdict = SCS.may_overrun(gone, ["8"], "11.06", "10.05", path=["10.06", "11.06"])
    assert verdict.allowed, verdict.reasons
    assert (verdict.total, verdict.cost) == (4, 3)          # 1 + 1 to get there (no EZOC: 14 has none), 2 to overrun
    waiting = SCS.may_overrun(example(), ["8"], "11.06", "10.05", path=["10.06", "11.06"])
    assert not waiting.allowed and any("over the limit" in r for r in waiting.reasons)


def test_the_game_that_sets_the_limit_gives_the_same_answers():
    bocage_engine = engine(bocage)
    assert bocage_engine.may_overrun(example(), ["5", "6"], "11.08", "10.08", path=["11.07", "11.08"]).cost == 5
    assert not bocage_engine.may_overrun(example(), ["5", "6"], "10.07", "10.08", path=["10.06", "10.07"]).allowed


def test_units_that_began_the_phase_in_an_enemy_zoc_may_not_overrun():
    verdict = SCS.may_overrun(example(), ["1"], "10.07", "10.08")
    assert not verdict.allowed and any("enemy ZOC" in r for r in verdict.reasons)
    assert next(s for s in verdict.steps if s.parameter == "overrun.allowed_from_ezoc").rule == "2.1b"


def test_an_overrun_needs_an_enemy_next_to_the_hex_it_is_made_from():
    assert not SCS.may_overrun(example(), ["5", "6"], "11.06", "10.08").allowed
    assert not SCS.may_overrun(example(), ["5", "6"], "11.06", "11.07").allowed


# ---- flips: each overrun parameter changes the answer ---------------------------------------------------
def test_flip_overrun_allowed_from_ezoc():
    assert engine(scs_1_8, overrun__allowed_from_ezoc=True, stacking__limit=SIX).may_overrun(
        example(), ["1"], "10.07", "10.08").allowed
    assert engine(new_scs).may_overrun(example(), ["5"], "11.08", "10.08", path=["11.07", "11.08"]).allowed


def test_flip_overrun_cost():
    assert engine(scs_1_8, overrun__cost=Quantity(Fraction(3), "MP")).may_overrun(
        example(), ["5", "6"], "11.08", "10.08", path=["11.07", "11.08"]).cost == 6
    assert engine(new_scs).may_overrun(example(), ["5", "6"], "11.08", "10.08", path=["11.07", "11.08"]).cost == 6


def test_flip_overrun_max_target_cost():
    assert engine(scs_1_8, overrun__max_target_cost=Quantity(Fraction(3), "MP")).may_overrun(
        example(), ["8"], "9.06", "9.05").allowed
    assert not engine(bocage).may_overrun(                      # bocage: 1 MP; woods cost 2
        example(), ["8"], "9.06", "9.05").allowed


def test_flip_overrun_may_use_roads():
    assert engine(scs_1_8, overrun__may_use_roads=True).may_overrun(example(), ["8"], "9.08", "10.08").allowed


def test_flip_overrun_target_cost_ignores_zoc():
    # a second enemy next to 10.08 puts it in an enemy ZOC: 1 + 2 is over the 2 MP limit when the ZOC counts
    situation = dataclasses.replace(example(), units=example().units + (
        Counter("9", "axis", H("10.09"), attack=2, defense=3, movement=5),))
    assert SCS.may_overrun(situation, ["5", "6"], "11.08", "10.08", path=["11.07", "11.08"]).allowed
    counted = engine(scs_1_8, overrun__target_cost_ignores_zoc=False, stacking__limit=SIX).may_overrun(
        situation, ["5", "6"], "11.08", "10.08", path=["11.07", "11.08"])
    assert not counted.allowed and any("3 MP" in r for r in counted.reasons)


def apart() -> Situation:
    """5 began in 11.06, 6 in 12.06: they meet in 11.07 and overrun 14 from there?  No: 11.07 is not next to
    10.05; they overrun 14 from 11.06 after 6 joins 5 there."""
    return example().moved(["6"], H("12.06")).moved(["6"], H("11.06"))


def test_flip_overrun_stack_must_start_together_and_max_stacks():
    situation = dataclasses.replace(apart(), started_in={"6": H("12.06")})
    assert not SCS.may_overrun(situation, ["5", "6"], "11.06", "10.05").allowed
    loose = engine(scs_1_8, overrun__stack_must_start_together=False, stacking__limit=SIX)
    refused = loose.may_overrun(situation, ["5", "6"], "11.06", "10.05")
    assert not refused.allowed and refused.reasons == ("2 stacks take part, more than 1",)
    two = engine(scs_1_8, overrun__stack_must_start_together=False, overrun__max_stacks=2, stacking__limit=SIX)
    assert two.may_overrun(situation, ["5", "6"], "11.06", "10.05").allowed


def test_flip_overrun_out_of_supply_allowed():
    cut = example()
    cut = dataclasses.replace(cut, units=tuple(dataclasses.replace(u, states=frozenset({"out-of-supply"}))
                                               if u.name == "8" else u for u in cut.units))
    assert SCS.may_overrun(cut, ["8"], "9.06", "10.05").allowed
    assert not engine(scs_1_8, overrun__out_of_supply_allowed=False).may_overrun(cut, ["8"], "9.06", "10.05").allowed


def test_flip_overrun_per_phase_per_target_and_ends_movement():
    once = Record(overruns={"5": 1, "6": 1})
    assert not SCS.may_overrun(example(), ["5", "6"], "11.06", "10.05", record=once).allowed
    # with no limit per phase, the overrun still ended their movement ...
    unlimited = engine(scs_1_8, overrun__per_phase=None, stacking__limit=SIX)
    refused = unlimited.may_overrun(example(), ["5", "6"], "11.06", "10.05", record=once)
    assert refused.reasons == ("unit 5, unit 6 overran already, and an overrun ends the units' movement",)
    # ... unless an overrun does not end movement
    moving_on = engine(scs_1_8, overrun__per_phase=None, overrun__ends_movement=False, stacking__limit=SIX)
    verdict = moving_on.may_overrun(example(), ["5", "6"], "11.06", "10.05", record=once)
    assert verdict.allowed and verdict.remaining == 7
    target = Record(overrun_targets={H("10.05"): 1})
    assert not SCS.may_overrun(example(), ["8"], "9.06", "10.05", record=target).allowed
    assert engine(scs_1_8, overrun__per_target_per_phase=2).may_overrun(
        example(), ["8"], "9.06", "10.05", record=target).allowed


def test_flip_overrun_exploitation_requires_eligibility():
    exploiting = dataclasses.replace(example(), phase="exploitation")
    assert not SCS.may_overrun(exploiting, ["8"], "9.06", "10.05").allowed       # 8 has no yellow box
    assert SCS.may_overrun(exploiting, ["5", "6"], "11.06", "10.05").allowed
    free = engine(scs_1_8, overrun__exploitation_requires_eligibility=False)
    assert free.may_overrun(exploiting, ["8"], "9.06", "10.05").allowed


def test_flip_overrun_from_adjacent_hex():
    inside = engine(scs_1_8, overrun__from_adjacent_hex=False, stacking__limit=SIX)
    verdict = inside.may_overrun(example(), ["5", "6"], "11.08", "10.08", path=["11.07", "11.08"])
    assert verdict.allowed and verdict.cost == 6        # entering 10.08 (1) as well


def test_flip_overrun_who():
    assert not engine(new_scs).may_overrun(example(), ["8"], "9.06", "10.05").allowed
    assert engine(new_scs, overrun__who="any-unit").may_overrun(example(), ["8"], "9.06", "10.05").allowed
    corridor_map = example(river=("canal", "bridge"), stream="dyke")
    assert not engine(corridor).may_overrun(corridor_map, ["5"], "11.06", "10.05").allowed   # 6 steps against 5
    assert engine(corridor).may_overrun(corridor_map, ["5", "6"], "11.06", "10.05").reasons == (
        "6 steps in 11.06 at the overrun is over the limit of 5",)


def test_flip_overrun_ends_movement_leaves_mps():
    verdict = engine(new_scs).may_overrun(example(), ["5", "6"], "11.06", "10.05")
    assert verdict.allowed and verdict.remaining == 9 - 3


def test_flip_minimum_move_may_overrun():
    slow = example()
    slow = dataclasses.replace(slow, units=tuple(dataclasses.replace(u, movement=Fraction(2))
                                                 if u.name == "8" else u for u in slow.units))
    refused = SCS.may_overrun(slow, ["8"], "9.06", "10.05")      # 3 MP to enter 9.06 (unit 2's EZOC), MA 2
    assert not refused.allowed and any("minimum move" in r for r in refused.reasons)
    allowed = engine(scs_1_8, movement__minimum_move_may_overrun=True).may_overrun(slow, ["8"], "9.06", "10.05")
    assert allowed.allowed and allowed.remaining == 0


def test_flip_reaction_may_overrun():
    reacting = dataclasses.replace(example(), phase="reaction")
    assert not engine(new_scs).may_overrun(reacting, ["5"], "11.06", "10.05").allowed
    assert engine(new_scs, reaction__may_overrun=True).may_overrun(reacting, ["5"], "11.06", "10.05").allowed


# ---- exploitation ---------------------------------------------------------------------------------------
def test_only_counters_with_the_yellow_box_exploit():
    assert SCS.may_exploit(example(), "5").allowed
    assert SCS.may_exploit(example(), "5").allowance == 9
    refused = SCS.may_exploit(example(), "8")
    assert not refused.allowed and not refused.minimum_move
    # the type does not make a unit exploit capable: only the counter's box does
    armor = example()
    armor = dataclasses.replace(armor, units=tuple(dataclasses.replace(u, type="armor")
                                                   if u.name == "8" else u for u in armor.units))
    assert not SCS.may_exploit(armor, "8").allowed


def test_the_combat_example_unit_6_may_exploit_after_its_advance_as_no_ezoc_holds_it():
    # E18: 6 advanced next to 14 (no ZOC) and 7 is gone
    situation = Situation(HexMap.rectangle(20, 20), default_terrain=("open",), phase="exploitation",
                          units=(Counter("6", "allies", H("15.11"), attack=7, defense=8, movement=9, steps=3,
                                         capabilities=frozenset({"exploit"})),
                                 Counter("3", "allies", H("15.10"), attack=5, defense=5, movement=5),
                                 Counter("14", "axis", H("15.12"), defense=1, movement=9,
                                         has_attack_strength=False)))
    assert SCS.may_exploit(situation, "6").allowed
    assert not SCS.may_exploit(situation, "3").allowed
    held = dataclasses.replace(situation, units=situation.units + (
        Counter("7", "axis", H("16.11"), attack=1, defense=2, movement=5),))
    verdict = SCS.may_exploit(held, "6")
    assert not verdict.allowed
    assert next(s for s in verdict.steps if s.parameter == "exploitation.move_from_ezoc").rule == "2.1b"


def test_flip_exploitation_move_from_ezoc():
    situation = example()               # unit 1 is next to unit 7
    situation = dataclasses.replace(situation, units=tuple(dataclasses.replace(u, capabilities=frozenset({"exploit"}))
                                                           if u.name == "1" else u for u in situation.units))
    assert not SCS.may_exploit(situation, "1").allowed
    assert engine(scs_1_8, exploitation__move_from_ezoc=True).may_exploit(situation, "1").allowed
    assert engine(new_scs).may_exploit(situation, "1").allowed


def test_flip_exploitation_full_allowance():
    assert engine(scs_1_8, exploitation__full_allowance=False).may_exploit(example(), "5").allowance is None


def test_flip_exploitation_minimum_move_if_ineligible():
    assert engine(scs_1_8, exploitation__minimum_move_if_ineligible=True).may_exploit(example(), "8").minimum_move


def test_flip_supply_out_of_supply_may_exploit():
    cut = dataclasses.replace(example(), units=tuple(dataclasses.replace(u, states=frozenset({"out-of-supply"}))
                                                     if u.name == "5" else u for u in example().units))
    assert SCS.may_exploit(cut, "5").allowed                      # SCS sets no such rule
    refused = engine(new_scs).may_exploit(cut, "5")
    assert not refused.allowed and "out of supply" in refused.reasons[0]
    assert engine(new_scs, supply__out_of_supply_may_exploit=True).may_exploit(cut, "5").allowed
    assert not engine(scs_1_8, supply__out_of_supply_may_exploit=False).may_exploit(cut, "5").allowed


def test_flip_exploitation_unready_above_fraction():
    assert engine(new_scs).may_exploit(example(), "5").unready_above == Fraction(9, 2)
    assert SCS.may_exploit(example(), "5").unready_above is None
    assert engine(new_scs, exploitation__unready_above_fraction=Fraction(1, 3)).may_exploit(
        example(), "5").unready_above == 3


# ---- attacks --------------------------------------------------------------------------------------------
def bridge(open_: str = "open") -> Situation:
    """The combat example with the bridge (E19): 8, 6 and 4 attack 7 in woods; 4 and 6 across the bridged
    river, 3 across an unbridged one."""
    river = ("river",)
    return Situation(HexMap.rectangle(20, 20), default_terrain=(open_,), terrain={H("10.10"): ("woods",)},
                     hexsides={Hexside.between(H("10.10"), H("10.09")): ("river", "bridge"),
                               Hexside.between(H("10.10"), H("9.10")): ("river", "bridge"),
                               Hexside.between(H("10.10"), H("11.10")): river},
                     phase="combat", phasing="allies",
                     units=(Counter("4", "allies", H("10.09"), attack=3, defense=5, movement=5),
                            Counter("6", "allies", H("9.10"), attack=7, defense=8, movement=9, steps=3),
                            Counter("8", "allies", H("10.11"), attack=3, defense=2, movement=9),
                            Counter("3", "allies", H("11.10"), attack=5, defense=5, movement=5),
                            Counter("7", "axis", H("10.10"), attack=2, defense=3, movement=5, steps=2)))


def test_the_bridge_attack_is_legal_and_unit_3_across_the_river_may_not_join():
    assert SCS.may_attack(bridge(), ["8", "6", "4"], "10.10").allowed
    refused = SCS.may_attack(bridge(), ["8", "6", "4", "3"], "10.10")
    # three rules bar it, and the refusal names each (2.1c, 7.3, the chart's P): none hides another
    assert not refused.allowed and refused.reasons == (
        "unit 3's ZOC does not cover 10.10", "unit 3 could not move into 10.10, so may not attack it",
        "the Terrain Effects Chart prohibits unit 3's attack on 10.10")
    assert refused.refused_by == ("2.1c", "7.3", "3.2")


def test_flip_combat_target_must_be_in_zoc_and_only_into_enterable_terrain():
    no_zoc_rule = engine(scs_1_8, combat__target_must_be_in_zoc=False)
    refused = no_zoc_rule.may_attack(bridge(), ["3"], "10.10")
    assert not refused.allowed and "could not move into" in refused.reasons[0]
    neither = engine(scs_1_8, combat__target_must_be_in_zoc=False, combat__only_into_enterable_terrain=False)
    chart_alone = neither.may_attack(bridge(), ["3"], "10.10")      # the river's combat P still bars it
    assert chart_alone.reasons == ("the Terrain Effects Chart prohibits unit 3's attack on 10.10",)
    only_zoc = engine(scs_1_8, combat__only_into_enterable_terrain=False)
    assert not only_zoc.may_attack(bridge(), ["3"], "10.10").allowed


def with_unit(situation: Situation, unit: Counter) -> Situation:
    return dataclasses.replace(situation, units=situation.units + (unit,))


def test_flip_zero_strength_and_without_attack_strength():
    zero = with_unit(bridge(), Counter("z", "allies", H("11.11"), attack=0, defense=1, movement=5))
    assert SCS.may_attack(zero, ["8", "z"], "10.10").allowed          # 7.2e: zero joins, judged by its normal ZOC
    assert not engine(scs_1_8, combat__zero_strength_may_attack=False).may_attack(zero, ["8", "z"], "10.10").allowed
    none = with_unit(bridge(), Counter("b", "allies", H("11.11"), defense=1, movement=5, has_attack_strength=False))
    assert not SCS.may_attack(none, ["8", "b"], "10.10").allowed
    assert engine(scs_1_8, combat__without_attack_strength_may_attack=True).may_attack(
        none, ["8", "b"], "10.10").allowed


def two_targets() -> Situation:
    return with_unit(bridge(), Counter("15", "axis", H("9.11"), attack=2, defense=3, movement=5))


def test_flip_combat_defender_hexes_per_attack():
    assert not SCS.may_attack(two_targets(), ["8"], "10.10", more_targets=["9.11"]).allowed
    assert engine(scs_1_8, combat__defender_hexes_per_attack=2).may_attack(
        two_targets(), ["8"], "10.10", more_targets=["9.11"]).allowed


def test_flip_combat_stack_may_split_attacks():
    stacked = with_unit(two_targets(), Counter("9", "allies", H("10.11"), attack=2, defense=2, movement=9))
    record = Record(targets={"9": H("9.11")}, attacks={"9": 1})
    assert SCS.may_attack(stacked, ["8"], "10.10", record=record).allowed
    refused = engine(scs_1_8, combat__stack_may_split_attacks=False).may_attack(stacked, ["8"], "10.10", record=record)
    assert not refused.allowed and "split" in refused.reasons[0]


def test_flip_combat_attacks_per_phase_and_may_split_unit_strength():
    once = Record(attacks={"8": 1})
    assert not SCS.may_attack(two_targets(), ["8"], "9.11", record=once).allowed
    split = engine(scs_1_8, combat__may_split_unit_strength=True)
    assert split.may_attack(two_targets(), ["8"], "9.11", record=once).reasons == (
        "unit 8 attacked once this Combat Phase, and the limit is 1",)
    both = engine(scs_1_8, combat__may_split_unit_strength=True, combat__attacks_per_phase=2)
    assert both.may_attack(two_targets(), ["8"], "9.11", record=once).allowed
    assert not engine(scs_1_8, combat__attacks_per_phase=2).may_attack(two_targets(), ["8"], "9.11",
                                                                      record=once).allowed
    defended = Record(attacked={"7": 1})
    assert not SCS.may_attack(bridge(), ["8"], "10.10", record=defended).allowed
    assert engine(scs_1_8, combat__attacks_per_phase=2).may_attack(bridge(), ["8"], "10.10", record=defended).allowed


def test_flip_combat_attacks_per_turn_and_overrun_may_also_attack():
    thrice = Record(turn_attacks={"8": 3}, overran=frozenset({"8"}))
    assert not SCS.may_attack(bridge(), ["8"], "10.10", record=thrice).allowed
    assert SCS.may_attack(bridge(), ["8"], "10.10", record=Record(turn_attacks={"8": 2})).allowed
    assert engine(scs_1_8, combat__attacks_per_turn=4).may_attack(bridge(), ["8"], "10.10", record=thrice).allowed
    overran = Record(overran=frozenset({"8"}), turn_attacks={"8": 1})
    assert SCS.may_attack(bridge(), ["8"], "10.10", record=overran).allowed
    assert not engine(scs_1_8, overrun__may_also_attack_in_combat=False).may_attack(
        bridge(), ["8"], "10.10", record=overran).allowed


def test_flip_all_adjacent_must_be_attacked_and_mandatory():
    # unit 15 is next to the attacking unit 8 (VCS 10.0: it must be attacked too); unit 16 is next to unit 3 only
    situation = with_unit(two_targets(), Counter("16", "axis", H("12.10"), attack=1, defense=1, movement=5))
    assert SCS.may_attack(situation, ["8"], "10.10").must_also_attack == ()
    assert engine(vcs).may_attack(situation, ["8"], "10.10").must_also_attack == ("15",)
    assert engine(ridgeline).may_attack(situation, ["8"], "10.10").must_also_attack == ("15",)
    assert engine(scs_1_8, combat__all_adjacent_must_be_attacked=True).may_attack(
        situation, ["8"], "10.10").must_also_attack == ("15",)
    assert engine(scs_1_8, combat__mandatory=True).may_attack(situation, ["8"], "10.10").must_also_attack == (
        "15", "16")


def test_an_attack_needs_an_enemy_in_the_target_and_attackers_next_to_it():
    assert not SCS.may_attack(bridge(), ["8"], "10.09").allowed
    far = with_unit(bridge(), Counter("far", "allies", H("1.01"), attack=4, defense=4, movement=4))
    assert not SCS.may_attack(far, ["far"], "10.10").allowed


NAMES = {"canal": ("open", ("canal", "bridge"), "dyke"), "clear": ("clear", ("river", "bridge"), "stream")}


@pytest.mark.parametrize("module", [scs_1_8, new_scs, vcs, bocage, corridor, ridgeline])
def test_every_generated_rulebook_answers_the_three_questions(module):  # type: ignore[no-untyped-def]
    rules = engine(module)
    if module.TERRAIN is not None and not len(module.TERRAIN):
        # the VCS series prints no chart (each game has its own): price terrain as 1 MP a hex
        rules = RulesEngine(dataclasses.replace(rules.rules, terrain=None))
    chart = rules.rules.terrain
    open_, river, stream = next((v for k, v in NAMES.items() if chart is not None and k in chart),
                                ("open", ("river", "bridge"), "stream"))
    if chart is None:
        open_, river, stream = "open", (), "stream"
    woods = example(open_, river, stream)
    if chart is None:
        woods = dataclasses.replace(woods, terrain={}, default_terrain=(), hexsides={})
    assert rules.may_attack(woods, ["5"], "10.05").steps
    assert rules.may_exploit(woods, "5").steps
    verdict = rules.may_overrun(woods, ["5"], "11.06", "10.05")
    assert verdict.steps and verdict.cost is not None


class Reaching(RulesEngine):
    """An engine whose `reachable` is a plain least-cost search over `move`'s prices (movement's own
    `reachable` belongs to another slice): enough to check how an overrun finds the route of a stack that
    stands in the hex it overruns from."""

    def reachable(self, situation, unit, *, mode="regular"):  # type: ignore[no-untyped-def]
        from rulesdsl.runtime.answers import Reach
        counter = situation.unit(unit)
        costs = {counter.hex: Fraction(0)}
        frontier = [counter.hex]
        while frontier:
            here = min(frontier, key=costs.__getitem__)
            frontier.remove(here)
            for there in situation.neighbours(here):
                if situation.occupied_by_enemy(there, counter.side):
                    continue
                price = self.move(situation.moved([unit], here), unit, [there]).costs
                if not price or price[0] is None:
                    continue
                total = costs[here] + price[0]
                if total <= counter.movement and total < costs.get(there, total + 1):
                    costs[there] = total
                    frontier.append(there)
        return Reach(unit, costs)


def test_a_stack_standing_in_the_hex_it_overruns_from_is_priced_along_its_cheapest_route():
    moved = example().moved(["5", "6"], H("11.08"))          # began in 11.06, as `started 11.06` says
    verdict = Reaching(SCS.rules).may_overrun(moved, ["5", "6"], "11.08", "10.08")
    assert verdict.allowed, verdict.reasons
    assert (verdict.cost, verdict.total) == (5, 6)
    gone = example(**{"5": "11.08", "6": "11.08"}).moved(["8"], H("11.06"))
    eight = Reaching(SCS.rules).may_overrun(gone, ["8"], "11.06", "10.05")
    assert (eight.allowed, eight.cost, eight.total) == (True, 3, 4)


# ---- what one hex may send into an attack (VCS 8.1, 8.2) ------------------------------------------------
def _one_hex_attack(*attackers: Counter) -> Situation:
    return Situation(HexMap.rectangle(6, 6), default_terrain=("clear",), phasing="allies", phase="combat",
                     units=(*attackers, Counter("d", "axis", H("3.04"), attack=2, defense=2, movement=4)))


def test_flip_parent_units_and_artillery_per_hex():
    """VCS 8.2: one parent unit and at most three artillery units attack from one hex."""
    parents = _one_hex_attack(*(Counter(f"p{i}", "allies", H("3.03"), attack=4, defense=4, movement=4,
                                        capabilities=frozenset({"parent"})) for i in range(2)))
    refused = engine(ridgeline).may_attack(parents, ["p0", "p1"], "3.04")
    assert not refused.allowed and any("parent units" in r for r in refused.reasons)
    assert any(s.parameter == "combat.parent_units_per_hex" and s.rule == "8.2" for s in refused.steps)
    assert engine(ridgeline).may_attack(parents, ["p0"], "3.04").allowed
    assert engine(ridgeline, combat__parent_units_per_hex=2).may_attack(parents, ["p0", "p1"], "3.04").allowed
    guns = _one_hex_attack(Counter("p", "allies", H("3.03"), attack=4, defense=4, movement=4),
                           *(Counter(f"g{i}", "allies", H("3.03"), attack=2, defense=1, movement=3,
                                     capabilities=frozenset({"artillery"})) for i in range(4)))
    four = ["p", "g0", "g1", "g2", "g3"]
    assert not engine(ridgeline).may_attack(guns, four, "3.04").allowed
    assert engine(ridgeline).may_attack(guns, four[:4], "3.04").allowed
    assert engine(ridgeline, combat__artillery_per_hex=None).may_attack(guns, four, "3.04").allowed


def test_flip_overstacked_units_fight():
    """VCS 8.1: units over the limit after a retreat add nothing to an attack."""
    situation = _one_hex_attack(Counter("o", "allies", H("3.03"), attack=4, defense=4, movement=4,
                                        states=frozenset({"overstacked"})))
    refused = engine(ridgeline).may_attack(situation, ["o"], "3.04")
    assert not refused.allowed and any("over the stacking limit" in r for r in refused.reasons)
    assert engine(ridgeline, stacking__overstacked_units_fight=True).may_attack(situation, ["o"], "3.04").allowed
    assert engine(ridgeline, stacking__overstacked_units_fight=None).may_attack(situation, ["o"], "3.04").allowed


def test_each_refusal_carries_the_rule_and_parameter_of_the_step_that_decides_it():
    refused = SCS.may_attack(bridge(), ["8", "6", "4", "3"], "10.10")
    assert [(r.rule, r.parameter) for r in refused.refusals] == [
        ("2.1c", "combat.target_must_be_in_zoc"), ("7.3", "combat.only_into_enterable_terrain"), ("3.2", None)]
    assert refused.reasons == tuple(r.reason for r in refused.refusals)


def test_a_refusal_cites_its_own_rule_not_that_of_an_earlier_step_whose_text_begins_with_its_reason():
    # found again from text, the reason "unit 3 may not attack" took the rule of the first step starting with
    # it (9.9's); made where it is decided, the refusal keeps its own (7.0), and a fact of the situation none
    from rulesdsl.runtime.answers import Refusal, Verdict
    from rulesdsl.runtime.ruleset import Step
    verdict = Verdict(False, (Refusal("unit 3 may not attack", "7.0"), Refusal("10.10 holds no enemy unit")),
                      steps=(Step("unit 3 may not attack this player turn: the limit is 0", rule="9.9"),
                             Step("unit 3 may not attack", rule="7.0")))
    assert verdict.refused_by == ("7.0",)
    assert verdict.reasons == ("unit 3 may not attack", "10.10 holds no enemy unit")
