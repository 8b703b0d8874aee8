"""The worked examples of the SCS v1.8 series rulebook, checked against the
generated modules (generated/scs_1_8.py and the Bocage demonstration game)."""
from __future__ import annotations

import pytest

from conftest import ROOT
from generated import bocage, scs_1_8


# ---- Standard Rounding Rule and 7.4 ------------------------------------------------
@pytest.mark.parametrize("module", [scs_1_8, bocage])
@pytest.mark.parametrize("attack, defense, odds", [
    (9.875, 2.125, "5:1"),     # three attackers 2.5 + 3.25 + 4.125 against 2.125: 4.65 to 1
    (3, 4, "1:1"), (5, 2, "3:1"), (9, 6, "2:1"), (11, 8, "1:1"),   # 7.4, note to experienced gamers
    (14, 3, "5:1"),            # overrun example
    (18, 4, "5:1"),            # combat example, part 1
    (5.5, 6, "1:1"),           # combat example with the bridge
])
def test_odds_examples(module, attack, defense, odds):
    assert module.odds(attack, defense) == odds


def test_the_three_attackers_of_the_rounding_example():
    assert scs_1_8.odds(2.5 + 3.25 + 4.125, 2.125) == "5:1"
    assert scs_1_8.round_standard(9.875 / 2.125) == 5


# ---- movement example (Example TEC) --------------------------------------------
def test_movement_example_costs():
    cost = scs_1_8.entry_cost
    assert cost("open") == 1                               # unit 6's first hex
    assert cost("open", hexsides=["stream"]) == 2          # 1 for open, +1 for the stream
    assert cost("open", ezoc=True) == 3                    # 1 for open, +2 for the EZOC
    assert cost("woods") == 2                              # the woods hex 25.18
    assert cost("open", ezoc=True) + 0 == 3                # unit 1 into 26.16
    assert cost("open", road=True) == 0.5                  # along the road to 26.17 ...
    assert cost("open", road=True) + cost("open", road=True) == 1   # ... and 26.18
    # unit 6 (MA 9) spent 1 + 2 + 3 + 2 = 8 MPs and cannot pay 2 more
    assert cost("open") + cost("open", ["stream"]) + cost("open", ezoc=True) + cost("woods") == 8


def test_prohibited_and_negated_hexsides():
    assert scs_1_8.entry_cost("open", hexsides=["river"]) is None           # 3.2d
    assert scs_1_8.entry_cost("open", hexsides=["river", "bridge"]) == 1    # the bridge negates the river
    assert scs_1_8.attack_multiplier("open", ["river"]) is None             # attacking across a river: P


# ---- overrun example -------------------------------------------------------------
def test_overrun_example():
    overrun_cost = scs_1_8.OVERRUN_COST.amount
    # 1 MP for the open hex, +2 MPs for unit 7's EZOC, 2 MPs to overrun: 5 MPs in hex 11.08
    assert scs_1_8.entry_cost("open", ezoc=True) + overrun_cost == 5
    assert scs_1_8.odds(14, 3) == "5:1"
    # unit 8 cannot overrun into woods behind a stream: 3 MPs is above the 2 MP limit (6.0c)
    limit = scs_1_8.OVERRUN_MAX_TARGET_COST.amount
    assert scs_1_8.entry_cost("woods", hexsides=["stream"]) == 3 > limit
    # from hex 11.06 against unit 14, which has no ZOC: open (1) + overrun (2) ... 4 MPs in all
    assert scs_1_8.ZOC_MIN_ATTACK_STRENGTH == 1
    # the example's stacking limit of 6 steps: units 5, 6 and 1 make 7 steps (6.1e)
    assert 7 > bocage.STACKING_LIMIT == 6


# ---- combat examples (the game's CRT) --------------------------------------------
def test_combat_example_part_1():
    assert bocage.crt_column(18, 4) == "5:1"
    assert "D2r2" in {bocage.crt("5:1", roll).text for roll in range(2, 13)}


def test_combat_example_with_the_bridge():
    # units 4 and 6 attack across the bridge at x1/4, unit 8 at full strength; the example says unit 6
    # gives 1.75 of the 2.5, so its printed Attack Strength is 7 and unit 4's is 3
    quarter = scs_1_8.attack_multiplier("open", ["river", "bridge"])
    assert quarter == 0.25
    assert scs_1_8.defense_multiplier("woods") == 2
    unit_4, unit_6, unit_8 = 3, 7, 3
    assert unit_6 * quarter == 1.75
    attack = unit_8 + (unit_4 + unit_6) * quarter          # 3 + 2.5 = 5.5
    defense = 3 * scs_1_8.defense_multiplier("woods")
    assert (attack, defense) == (5.5, 6)
    assert bocage.crt_column(attack, defense) == "1:1"
    result = bocage.resolve(attack, defense, roll=2)
    assert (result.text, result.attacker_steps, result.attacker_retreat) == ("A2r1", 2, 1)
    # 8.0a: the first step comes off the unit with the highest printed Attack Strength: unit 6, though it
    # added least after the bridge halved it twice
    assert scs_1_8.parameter("steps.first_loss") == "strongest-unit"
    assert max((unit_4, 4), (unit_6, 6), (unit_8, 8))[1] == 6


# ---- 7.4: beyond either end of the table -------------------------------------------
def test_beyond_the_table():
    assert bocage.crt_column(30, 2) == "6:1"                 # 15:1 resolves on the right-most column
    assert bocage.crt_column(30, 2, shift=-1) == "5:1"       # shifts start from it
    assert bocage.crt_column(6, 3, shift=+9) == "6:1"        # and stop at it
    assert bocage.crt_column(1, 3) is None                   # 1:3 is below 1:2
    assert bocage.crt_column(1, 2, shift=-1) is None         # shifted off the left side
    below = bocage.resolve(1, 3, roll=12)                    # no roll: the attacker loses one step
    assert (below.attacker_steps, below.defender_steps, below.text) == (1, 0, "A1")


def test_series_crt_is_for_its_examples_only():
    """SCS 1.8 prints no table (each game does): its invented one answers its examples, no card prints it."""
    assert scs_1_8.crt_column(6, 1) == "6:1" and scs_1_8.crt_column(1, 3) is None     # below: 7.4's A1, no column
    assert scs_1_8.crt("6:1", 12).text == "D3r4"
    card = (ROOT / "generated" / "charts" / "scs_1_8.en.html").read_text(encoding="utf-8")
    assert "Example CRT" not in card and 'id="crt"' not in card


# ---- the resolved game ------------------------------------------------------------
def test_game_overrides_and_provenance():
    assert bocage.RULEBOOK["extends"] == ("scs-1.8",)
    # 6.0c is amended: the rule stays the series', the one parameter the game changes is the game's
    assert bocage.RULES["6.0c"].origin == "scs-1.8"
    assert bocage.PARAMETERS["overrun.max_target_cost"].origin == "bocage"
    assert bocage.PARAMETERS["overrun.max_target_cost"].source.startswith("rulebooks/games/bocage.rules:")
    assert bocage.PARAMETERS["overrun.target_cost_ignores_zoc"].origin == "scs-1.8"
    # 12.2 is overridden whole: the game's
    assert bocage.RULES["12.2"].origin == "bocage"
    assert bocage.RULES["12.2"].source.startswith("rulebooks/games/bocage.rules:")
    assert bocage.RULES["6.0"].origin == "scs-1.8"
    assert bocage.RULES["6.0"].source.startswith("rulebooks/series/scs-1.8.rules:")
    assert bocage.OVERRUN_MAX_TARGET_COST == 1 and scs_1_8.OVERRUN_MAX_TARGET_COST == 2
    assert bocage.PARAMETERS["overrun.max_target_cost"].rule == "6.0c"
    assert bocage.parameter("overrun.cost") == 2       # inherited from the series
    assert set(scs_1_8.RULES) <= set(bocage.RULES)
    assert bocage.RULES["11.0a"].title == "Exploit capability"


def test_game_terrain_and_sequence():
    assert set(bocage.TERRAIN) >= {"open", "woods", "road", "stream", "river", "bridge", "bocage", "hedgerow"}
    assert bocage.entry_cost("BOCAGE", hexsides=["Hedgerow"]) == 4   # names match case-insensitively
    assert bocage.entry_cost("village") <= bocage.OVERRUN_MAX_TARGET_COST.amount < bocage.entry_cost("woods")
    assert bocage.PLAYER_TURN == scs_1_8.PLAYER_TURN == ("movement", "combat", "exploitation", "supply")
    assert [p.name for p in bocage.GAME_TURN][:2] == ["first", "second"]


def test_every_printed_rule_of_the_seed_is_in_the_series():
    printed = """1.0 2.0 2.0a 2.0b 2.1 2.1a 2.1b 2.1c 2.1d 2.1e 2.1f 2.1g 2.1h 3.0 3.1 3.1a 3.1b 3.1c 3.1d 3.1e
        3.2 3.2a 3.2b 3.2c 3.2d 3.3 3.3a 3.3b 3.3c 4.0 4.0a 4.0b 4.0c 5.0 5.0a 5.0b 5.0c 6.0 6.0a 6.0b 6.0c
        6.1 6.1a 6.1b 6.1c 6.1d 6.1e 6.1f 6.2 6.2a 6.2b 7.0 7.1 7.2 7.2a 7.2b 7.2c 7.2d 7.2e 7.3 7.4 8.0 8.0a
        8.0b 8.0c 8.0d 9.0 9.0a 9.0b 9.0c 9.0d 9.0e 9.1 9.1a 9.1b 9.1c 9.1d 9.2 10.0 10.0a 10.0b 10.0c 10.0d
        11.0 11.0a 11.0b 11.0c 12.0 12.1 12.1a 12.1b 12.2 13.0""".split()
    assert sorted(printed) == sorted(r for r in scs_1_8.RULES if r[0].isdigit())
    for rule in scs_1_8.RULES.values():
        assert rule.title and rule.summary, rule.id


def test_combat_example_with_the_bridge_unit_by_unit():
    """The same example through resolve_combat: the derivation shows each step."""
    from rulesdsl.runtime import AttackingHex, Combat, Unit
    combat = Combat(
        attacking_hexes=(
            AttackingHex((Unit("infantry", attack=3), Unit("infantry", attack=7)), "open", ("river", "bridge")),
            AttackingHex((Unit("infantry", attack=3),), "open"),
        ),
        defenders=(Unit("infantry", defense=3),),
        defender_terrain="woods",
    )
    resolution = bocage.resolve_combat(combat, 2)
    assert (resolution.attack, resolution.defense, resolution.odds) == (5.5, 6, "1:1")
    assert resolution.result.text == "A2r1"
    assert resolution.derivation[0] == "hex 1: attack 10 x 1/4 for terrain [3.2 7.3 G1.1]"
    assert "defense 3 x 2 for woods [3.2 7.3 G1.1]" in resolution.derivation
    across_river = Combat((AttackingHex((Unit("armor", attack=9),), "open", ("river",)),),
                          (Unit("infantry", defense=3),), "open")
    barred = bocage.resolve_combat(across_river, 7)     # the players may not make it: an answer, not an error
    assert barred.result.not_allowed and barred.refused == "attacking from hex 1 across river is prohibited"
    assert barred.derivation[-1].startswith("attacking from hex 1 across river is prohibited: the attack is not allowed")
    assert bocage.ENGINE.assess(across_river).refused == barred.refused
    with pytest.raises(ValueError, match="unknown unit type 'tank'; did you mean 'tank'|unknown unit type 'tank'"):
        bocage.resolve_combat(Combat((AttackingHex((Unit("tank", attack=9),), "open"),),
                                     (Unit("infantry", defense=3),), "open"), 7)


def test_unit_sizes_start_with_the_platoon():
    """The size list starts at the platoon (the French edition's 'Section'), then the company."""
    sizes = scs_1_8.table("unit-sizes")
    assert sizes.columns[:2] == ("•••", "I")
    assert sizes.rows["size"][:3] == ("platoon", "company", "battalion")
