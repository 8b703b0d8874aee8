"""The rules engine's foundation: situations, the rule set it reads through, and its citations."""
from __future__ import annotations

from fractions import Fraction

import pytest

from generated import bocage, scs_1_8
from rulesdsl.runtime.contract import ENGINE_FUNCTIONS, ENGINE_PARAMETERS
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.ruleset import RuleSet
from rulesdsl.runtime.situation import Counter, Situation

H = Hex.parse


def engine(module) -> RulesEngine:  # type: ignore[no-untyped-def]
    return RulesEngine(RuleSet(module.RULEBOOK["id"], module.PARAMETERS, module.TERRAIN, module.TABLES,
                               module.RULES))


def gap() -> Situation:
    return Situation(HexMap.rectangle(30, 20), default_terrain=("open",), terrain={H("25.18"): ("woods",)},
                     hexsides={Hexside.between(H("23.16"), H("24.16")): ("stream",)},
                     units=(Counter("6", "allies", H("22.16"), attack=3, defense=2, movement=9),
                            Counter("7", "axis", H("25.16"), attack=2, defense=3, movement=5)))


def test_every_engine_parameter_is_declared_once_and_drives_a_known_function():
    names = [p.name for p in ENGINE_PARAMETERS]
    assert len(names) == len(set(names))
    assert {p.drives for p in ENGINE_PARAMETERS} <= set(ENGINE_FUNCTIONS)


def test_a_move_prices_each_hex_and_cites_the_ezoc_rule_where_the_rulebook_sets_it():
    move = engine(scs_1_8).move(gap(), "6", ["23.16", "24.16", "24.17", "25.18"])
    assert move.costs == (1, 1 + 1 + 2, 1, 2)     # stream +1 and the EZOC +2 on 24.16
    assert (move.total, move.legal) == (8, True)
    ezoc = [s for s in move.steps if s.parameter == "zoc.entry_cost"]
    assert ezoc and ezoc[0].rule == "2.1a" and ezoc[0].source.startswith("rulebooks/series/scs-1.8.rules:")


def test_a_game_inherits_the_series_rule_and_says_where_it_comes_from():
    move = engine(bocage).move(gap(), "6", ["23.16", "24.16"])
    step = next(s for s in move.steps if s.parameter == "zoc.entry_cost")
    assert step.origin == "scs-1.8"


def test_a_move_beyond_the_allowance_or_into_a_hex_not_adjacent_is_refused():
    situation = gap()
    slow = engine(scs_1_8).move(situation, "7", ["25.15", "25.14", "25.13", "25.12", "25.11", "25.10"])
    assert not slow.legal and "allowance" in (slow.reason or "")
    jump = engine(scs_1_8).move(situation, "6", ["24.16"])
    assert not jump.legal and "not next to" in (jump.reason or "")


def test_a_unit_below_the_least_attack_strength_has_no_zoc():
    situation = Situation(HexMap.rectangle(5, 5), default_terrain=("open",),
                          units=(Counter("14", "axis", H("3.03"), attack=0, defense=1, movement=9),))
    assert not engine(scs_1_8).zoc(situation, "axis").hexes


def test_the_rule_set_refuses_a_name_outside_the_contract_and_records_reads():
    rules = RuleSet("scs-1.8", scs_1_8.PARAMETERS)
    with pytest.raises(KeyError):
        rules.value("combat.announce_all_first")
    assert rules.amount("zoc.range") == Fraction(1)
    assert "zoc.range" in rules.reads


def test_a_situation_refuses_two_units_of_one_name_and_hexes_off_the_map():
    with pytest.raises(ValueError, match="named"):
        Situation(HexMap.rectangle(3, 3), units=(Counter("a", "x", H("1.01")), Counter("a", "y", H("1.02"))))
    with pytest.raises(ValueError, match="not on the map"):
        Situation(HexMap.rectangle(3, 3), units=(Counter("a", "x", H("9.09")),))
