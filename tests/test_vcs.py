"""VCS statements, checked against generated/vcs.py and the Ridgeline game."""
from __future__ import annotations

import pytest

from conftest import ROOT

from generated import ridgeline, vcs
from rulesdsl.runtime import AttackingHex, Combat, Unit, parse_result


def test_odds_round_in_favour_of_the_defender():
    assert vcs.odds(21, 6) == "3:1"       # the seed's example: 3.5 to 1 is 3:1
    assert vcs.odds(6, 21) == "1:4"       # and the other way round, up for the defender
    assert vcs.odds(20, 6) == "3:1"
    assert vcs.odds(11, 6) == "1:1"
    assert ridgeline.odds(21, 6) == "3:1"


def combat(attackers, defenders, terrain="clear", attack_terrain="clear", **kw):
    return Combat((AttackingHex(tuple(attackers), attack_terrain),), tuple(defenders), terrain, **kw)


def test_identical_opposing_shifts_negate():
    both = combat([Unit("infantry", attack=6)], [Unit("infantry", defense=2)],
                  amounts={"artillery-attack": 1, "artillery-defense": 1})
    shift, sources = ridgeline.column_shifts(both)
    assert {s.name: s.value for s in sources} == {"artillery-attack-shift": 1, "artillery-defense-shift": -1}
    assert shift == 0


def test_each_shift_source_is_capped_at_its_maximum():
    heavy = combat([Unit("infantry", attack=6)], [Unit("infantry", defense=2)],
                   amounts={"artillery-attack": 5, "artillery-defense": 4, "air-attack": 3})
    shift, sources = ridgeline.column_shifts(heavy)
    values = {s.name: s.value for s in sources}
    assert values == {"artillery-attack-shift": 2, "artillery-defense-shift": -1, "air-attack-shift": 1}
    assert shift == 2


def test_elevation_shifts_by_level_difference():
    uphill = combat([Unit("infantry", attack=6)], [Unit("infantry", defense=2)], terrain="hills",
                    attack_terrain="clear")
    downhill = combat([Unit("infantry", attack=6)], [Unit("infantry", defense=2)], terrain="clear",
                      attack_terrain="mountain")
    assert ridgeline.elevation_difference(uphill) == -2       # level 1 against level 3
    assert ridgeline.elevation_difference(downhill) == 3      # level 4 against level 1
    assert dict((s.name, s.value) for s in ridgeline.column_shifts(downhill)[1])["elevation"] == 3


def test_supply_distance_by_terrain_level():
    distance = vcs.table("supply-distance")
    assert [distance(level) for level in (1, 2, 3, 4, 5, 6)] == [4, 3, 3, 1, 1, 1]
    assert ridgeline.table("supply-distance")(1) == 5          # the game's own override
    assert ridgeline.TABLES["supply-distance"] is not vcs.TABLES["supply-distance"]


def test_out_of_supply_and_isolation_effects():
    assert vcs.SUPPLY_OUT_OF_SUPPLY_ATTACK_FACTOR == 0.5
    assert vcs.SUPPLY_OUT_OF_SUPPLY_DEFENSE_FACTOR == 1
    assert vcs.SUPPLY_OUT_OF_SUPPLY_MECHANIZED_MOVEMENT_FACTOR == 0.5
    assert vcs.SUPPLY_MINIMUM_STRENGTH == 1
    assert vcs.ISOLATION_MAX_ATTACK_STRENGTH == 1
    assert vcs.ISOLATION_DEFENSE_FACTOR == 0.5
    assert vcs.ISOLATION_MECHANIZED_MOVEMENT_ALLOWANCE == 6
    assert vcs.ISOLATION_MOVEMENT_FACTOR == 0.5


def test_isolation_surrender_table():
    surrender = vcs.table("surrender")
    assert [surrender(roll) for roll in range(1, 7)] == [0, 0, 1, 1, 2, 2]


def test_zoc_stop_and_disengagement():
    assert vcs.ZOC_ENTRY_STOPS_MOVEMENT is True and vcs.ZOC_EZOC_TO_EZOC is False
    assert vcs.ZOC_EXIT_COST_FRACTION == 0.5 and vcs.ZOC_EXIT_COST_ROUNDS_DOWN is True
    assert ridgeline.ZOC_EXIT_COST_ROUNDS_DOWN is False                   # the game's override of 7.1
    assert vcs.STACKING_LIMIT_UNITS == 3 and ridgeline.STACKING_LIMIT_UNITS == 2


def test_terrain_line_table_and_both_ends():
    assert ridgeline.CRT.line("close").columns[0] == "1:1"
    city = combat([Unit("infantry", attack=12)], [Unit("infantry", defense=4)], terrain="city")
    resolution = ridgeline.resolve_combat(city, 7)
    assert resolution.line == "very-close"
    # 12 to 4 is 3:1 on the very-close line; the city's two left shifts and one more for attacking
    # a level higher run off the left side, and VCS resolves that on the left-most column
    assert resolution.column == "2:1" and resolution.shift == -3
    assert {s.name: s.value for s in resolution.shifts} == {"terrain": -2, "elevation": -1}
    low = combat([Unit("infantry", attack=1)], [Unit("infantry", defense=9)])
    assert ridgeline.resolve_combat(low, 7).column == "1:2"      # below the table: the left-most column
    high = combat([Unit("tank", attack=90)], [Unit("infantry", defense=1)])
    assert ridgeline.resolve_combat(high, 7).column == "6:1"     # above it: the right-most


def test_retreat_first_results_and_breakthroughs():
    d2 = parse_result("D2(1)", "retreat-first")
    assert (d2.attacker_steps, d2.attacker_retreat, d2.defender_steps, d2.defender_retreat) == (0, 0, 1, 2)
    both = parse_result("B1(1)", "retreat-first")
    assert (both.attacker_steps, both.attacker_retreat, both.defender_steps, both.defender_retreat) == (1, 1, 1, 1)
    assert parse_result("D3(2)*", "retreat-first").breakthrough
    assert not parse_result("D2(1)", "retreat-first").breakthrough
    assert ridgeline.crt("6:1", 12).breakthrough


def test_vcs_sequence_of_play():
    assert [getattr(item, "name") for item in vcs.GAME_TURN][:3] == ["preparation", "first", "second"]
    assert vcs.PLAYER_TURN == ("supply", "replacement", "movement", "combat", "reserve", "engineering")


def test_series_charts_are_for_its_examples_only():
    assert vcs.entry_cost("clear") == 1 and vcs.entry_cost("hills") == 2
    # beyond the right-most column its own; below the left-most, that one too (10.8: combat.below_table = leftmost)
    assert vcs.crt_column(9, 1) == "5:1" and vcs.crt_column(1, 4) == "1:2"
    # the charts' values are invented: the series' card does not print them, and Ridgeline prints its own
    card = (ROOT / "generated" / "charts" / "vcs.en.html").read_text(encoding="utf-8")
    assert "Example TEC" not in card and "Terrain Effects" not in card
    assert "Example CRT" not in card and 'id="crt"' not in card
    assert "Ridgeline Terrain Effects Chart" in (ROOT / "generated" / "charts" / "ridgeline.en.html").read_text(
        encoding="utf-8")


def test_the_preparation_stage_lists_its_steps_in_the_printed_order():
    """4.21 weather, 4.22 a-d (accounting, mission planning, rubble, variable reinforcements), then the
    4.23 air and sea stage (airborne staging, ship transport)."""
    from generated import vcs
    [preparation] = [p for p in vcs.GAME_TURN if getattr(p, "name", None) == "preparation"]
    assert preparation.activities == ("weather", "accounting", "air", "reinforcement", "airborne", "sea-transport")


def test_rule_10_1_defense_factors_apply_when_the_players_declare_the_river_or_the_entrenchment():
    """10.1: defense x2 behind a river, x2 entrenched, x3 entrenched behind a river.  The series (its example
    chart gives a river no combat effect) reads the players' river-assault declaration; Ridgeline's chart doubles across its river itself, and its
    factors make the entrenchment behind a river x3 in all, not x6."""
    from generated import ridgeline, vcs
    from rulesdsl.runtime import AttackingHex, Combat, Unit

    def defense(module, *situations: str, across: tuple[str, ...] = ()) -> object:
        terrain = "clear"
        combat = Combat(attacking_hexes=(AttackingHex((Unit("infantry", attack=12),), terrain or "", across),),
                        defenders=(Unit("infantry", defense=3),), defender_terrain=terrain, situations=situations)
        return module.ENGINE.assess(combat).defense

    assert defense(vcs) == 3
    assert defense(vcs, "river-assault") == defense(vcs, "entrenched") == 6
    assert defense(vcs, "entrenched", "river-assault") == 9
    assert defense(ridgeline, across=("river",)) == 6                       # the chart's Dx2 all-across
    assert defense(ridgeline, "entrenched") == 6
    assert defense(ridgeline, "entrenched", "river-assault", across=("river",)) == 9


def test_a_counter_has_the_capabilities_its_unit_type_declares():
    """A VCS tank is armored and mechanized by its type: the engine applies the rules on those capabilities
    to a counter that names only its type (5.4: no level 4+ terrain off the road)."""
    from rulesdsl.runtime.hexmap import Hex, HexMap
    from rulesdsl.runtime.situation import Counter, Situation

    def moving(type_: str) -> Situation:
        unit = Counter("t", "friendly", Hex.parse("3.04"), attack=6, defense=4, movement=8, type=type_)
        return Situation(HexMap.rectangle(6, 6), terrain={Hex.parse("3.03"): ("mountain",)},
                         default_terrain=("clear",), units=(unit,), phasing="friendly")
    move = ridgeline.RULES_ENGINE.move(moving("tank"), "t", ["3.03"])
    assert not move.legal and "closed to mechanized units" in move.reason
    assert ridgeline.RULES_ENGINE.typed_unit(moving("tank").units[0]).capabilities == {"armored", "mechanized"}
    assert ridgeline.RULES_ENGINE.move(moving("infantry"), "t", ["3.03"]).legal
