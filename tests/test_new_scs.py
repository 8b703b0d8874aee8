"""New SCS statements, checked against generated/new_scs.py and the Corridor game."""
from __future__ import annotations

import pytest

import rulesdsl
from generated import corridor, new_scs
from rulesdsl.runtime import AttackingHex, Combat, Unit
from conftest import ROOT


def attack(*hexes, defenders, terrain="open", **kw):
    return Combat(tuple(AttackingHex(tuple(units), "open", tuple(sides)) for units, sides in hexes),
                  tuple(defenders), terrain, **kw)


def test_odds_round_to_the_nearest_column():
    assert new_scs.odds(3.5, 1) == "4:1"          # the seed's own example
    assert new_scs.odds(7, 2) == "4:1"


def test_best_column_against_two_left_shift_terrain_is_3_to_1():
    combat = attack(([Unit("tank", attack=40)], ()), defenders=[Unit("infantry", defense=1)], terrain="city")
    shift, sources = new_scs.column_shifts(combat)
    assert shift == -2 and [s.name for s in sources] == ["terrain"]
    assert new_scs.resolve_combat(combat, (3, 4)).column == "3:1"    # 40:1 -> 5:1 limit -> two left
    village = attack(([Unit("tank", attack=40)], ()), defenders=[Unit("infantry", defense=1)], terrain="village")
    assert new_scs.resolve_combat(village, (3, 4)).column == "4:1"


def test_engineers_cancel_one_terrain_shift_so_identical_opposing_shifts_negate():
    combat = attack(([Unit("engineer", attack=3), Unit("tank", attack=6)], ()),
                    defenders=[Unit("infantry", defense=3)], terrain="woods")
    shift, sources = new_scs.column_shifts(combat)
    assert {s.name: s.value for s in sources} == {"terrain": -1, "engineers": 1}
    assert shift == 0
    dg_engineer = attack(([Unit("engineer", attack=3, states={"dg"})], ()),
                         defenders=[Unit("infantry", defense=3)], terrain="woods")
    assert new_scs.column_shifts(dg_engineer)[0] == -1


@pytest.mark.parametrize("tank_attack, armor_defense, expected", [
    (8, 2, "attacker"),     # 4:1
    (10, 2, "attacker"),    # 5:1
    (6, 2, "neither"),      # 3:1
    (4, 2, "neither"),      # 2:1
    (3, 2, "neither"),      # 1.5 rounds to 2:1
    (2, 2, "defender"),     # 1:1
    (2, 5, "defender"),     # 1:3
])
def test_armor_advantage_thresholds(tank_attack, armor_defense, expected):
    combat = attack(([Unit("tank", attack=tank_attack)], ()), defenders=[Unit("tank", defense=armor_defense)])
    assert new_scs.armor_advantage(combat) == expected


def test_armor_advantage_exceptions():
    # no armor advantage for either side against a defender in shift terrain
    city = attack(([Unit("tank", attack=20)], ()), defenders=[Unit("tank", defense=1)], terrain="city")
    assert new_scs.armor_advantage(city) == "neither"
    # anti-tank alone earns the defender nothing against an attack with no armored unit ...
    soft = attack(([Unit("infantry", attack=6)], ()), defenders=[Unit("anti-tank", defense=4)])
    assert new_scs.armor_advantage(soft) == "neither"
    # ... but it does against one that includes armor
    mixed = attack(([Unit("infantry", attack=6), Unit("light-armor", attack=2)], ()),
                   defenders=[Unit("anti-tank", defense=4)])
    assert new_scs.armor_advantage(mixed) == "defender"
    # light armor counts for nothing in the armor odds
    assert new_scs.armor_attack(mixed) == 0


def test_armor_advantage_drm_applies_to_both_sides():
    combat = attack(([Unit("tank", attack=8)], ()), defenders=[Unit("infantry", defense=2)])
    (attacker_side, defender_side), found = new_scs.drm(combat)
    assert (attacker_side, defender_side) == (1, 1)
    assert [c.name for c in found] == ["attacker-armor-advantage"]


def test_drm_cap_is_three_per_side():
    soft = [Unit("infantry", attack=2, quality=1) for _ in range(3)]
    combat = attack((soft, ()), defenders=[Unit("tank", defense=4, quality=3), Unit("infantry", defense=2, quality=1),
                                           Unit("infantry", defense=2, quality=1)],
                    situations={"defensive-artillery"})
    (attacker_side, defender_side), found = new_scs.drm(combat)
    uncapped = sum(c.value for c in found if c.side in ("attacker", "both"))
    assert uncapped == -5 and attacker_side == -3
    assert defender_side == sum(c.value for c in found if c.side in ("defender", "both")) == -1
    # defensive artillery never supports overruns
    overrun = attack((soft, ()), defenders=[Unit("infantry", defense=2)], situations={"defensive-artillery"},
                     overrun=True)
    assert "defensive-artillery" not in [c.name for c in new_scs.drm(overrun)[1]]


def _ambush_combat(**kw):
    defaults = dict(defenders=[Unit("infantry", defense=4, quality=1)])
    defaults.update(kw)
    return attack(([Unit("infantry", attack=8, quality=1)], ()), **defaults)


def test_ambush_and_surprise_thresholds():
    plain = _ambush_combat()
    assert new_scs.ambush(Combat(**{**plain.__dict__, "dice": (1, 3)}))
    assert not new_scs.ambush(Combat(**{**plain.__dict__, "dice": (2, 3)}))
    assert new_scs.surprise(Combat(**{**plain.__dict__, "dice": (2, 6)}))
    assert not new_scs.surprise(Combat(**{**plain.__dict__, "dice": (1, 6)}))   # an ambush comes first
    # a better defender makes a white 2 an ambush too; intelligence adds one more, up to 1-3
    better = _ambush_combat(defenders=[Unit("infantry", defense=4, quality=2)],
                            situations={"intelligence-favours-defender"})
    assert new_scs.ambush_chance(better) == 3
    assert new_scs.ambush(Combat(**{**better.__dict__, "dice": (3, 1)}))
    # all defenders DG: no ambush at all
    dg = _ambush_combat(defenders=[Unit("infantry", defense=4, states={"dg"})])
    assert not new_scs.ambush(Combat(**{**dg.__dict__, "dice": (1, 1)}))
    # the rulebook reads both dice: a bare total is refused plainly
    with pytest.raises(ValueError, match=r"pass the roll as \(white, red\)"):
        new_scs.ambush(plain)


def test_ambush_and_surprise_effects():
    combat = _ambush_combat()
    normal = new_scs.resolve_combat(combat, (3, 4))          # 2:1, roll 7 on both sides
    assert (normal.column, normal.result.defender_steps, normal.result.defender_retreat) == ("2:1", 1, 2)
    ambushed = new_scs.resolve_combat(combat, (1, 6))        # the same total, but a white 1
    assert ambushed.result.defender_retreat == normal.result.defender_retreat - 1
    assert ambushed.result.defender_steps == normal.result.defender_steps - 1
    quiet = new_scs.resolve_combat(combat, (2, 5))           # total 7, red 5 is no surprise at chance 1
    assert quiet.result == normal.result
    surprised = new_scs.resolve_combat(combat, (4, 6))       # total 10, red 6: surprise
    table = new_scs.resolve_combat(combat, (5, 5))           # total 10, no surprise
    assert surprised.result.defender_retreat == table.result.defender_retreat + 1
    assert any("adjusted surprise-retreat" in line for line in surprised.derivation)


def test_dual_sided_table_reads_attacker_losses_by_defense_strength():
    combat = attack(([Unit("infantry", attack=30)], ()), defenders=[Unit("infantry", defense=10)])
    resolution = new_scs.resolve_combat(combat, (1, 1))     # roll 2, 3:1; defense 10 is the 9-12 column
    assert resolution.column == "3:1"
    assert resolution.result.attacker_steps == 1 and resolution.result.defender_steps == 0
    assert any("defense 9-12" in line for line in resolution.derivation)


def test_overrun_cost_choice_and_its_conflict():
    assert new_scs.OVERRUN_COST == 3 and new_scs.RULES["6.0"].origin == "new-scs"
    assert new_scs.OVERRUN_MAX_TARGET_COST is None                 # the SCS cost limit is gone
    both = (ROOT / "rulebooks/series/new-scs.rules").read_text() + (
        '\nsection overrun-cost-as-listed "Overrun cost, as the list puts it" {\n'
        '  summary "Overruns cost 2 MPs plus the terrain cost of the hex."\n  overrun.cost = 2 MP\n}\n')
    compilation = rulesdsl.compile_text(both, "rulebooks/series/new-scs.rules",
                                        ("rulebooks/series/scs-1.8.rules",
                                         (ROOT / "rulebooks/series/scs-1.8.rules").read_text()))
    messages = [d.message for d in compilation.diagnostics]
    assert messages == ["overrun.cost is set by both rule overrun-cost-as-listed (new-scs) and rule 6.0 (new-scs)"]


def test_new_scs_sequence_of_play():
    assert new_scs.PLAYER_TURN == ("ready", "air", "reinforcement", "road-movement", "movement", "bombardment",
                                   "combat", "reaction", "exploitation", "supply", "dg-removal")
    assert corridor.PLAYER_TURN == new_scs.PLAYER_TURN


def test_bombardment_tables():
    assert new_scs.table("bombardment-mid")(6, 3) == 2        # red 6 against three soft units
    assert new_scs.table("bombardment-mid")(1, 0) == 0
    assert new_scs.table("bombardment-high")(5, "1-2") == 1


def test_corridor_game_resolves_against_its_own_charts():
    assert corridor.RULEBOOK["extends"] == ("new-scs", "scs-1.8")
    assert corridor.STACKING_LIMIT == 5
    assert corridor.SUPPLY_OUT_OF_SUPPLY_DEFENSE_FACTOR == 1 and new_scs.SUPPLY_OUT_OF_SUPPLY_DEFENSE_FACTOR == 0.5
    town = attack(([Unit("tank", attack=40)], ()), defenders=[Unit("infantry", defense=1)], terrain="town")
    assert corridor.resolve_combat(town, (3, 4)).column == "3:1"
    assert corridor.RULES["armor-advantage"].origin == "new-scs"
    assert corridor.entry_cost("polder") == 2


def test_strength_factors_halve_dg_and_out_of_supply_units_by_the_rulebooks_own_parameters():
    combat = attack(([Unit("tank", attack=8, states={"dg"}), Unit("infantry", attack=4)], ()),
                    defenders=[Unit("infantry", defense=4, states={"out-of-supply"})])
    resolution = new_scs.resolve_combat(combat, (3, 4))
    assert (resolution.attack, resolution.defense, resolution.odds) == (8, 2, "4:1")
    assert resolution.derivation[0].startswith("tank attack 8 x 1/2 for dg-attack")
    # Corridor's 12.2 keeps out-of-supply defense whole; its combat follows without restating the factor
    assert corridor.resolve_combat(combat, (3, 4)).defense == 4
    assert corridor.SUPPLY_OUT_OF_SUPPLY_DEFENSE_FACTOR == 1


def test_the_demonstration_tec_agrees_with_what_the_notes_say():
    """The notes print no TEC; the series' chart is a demonstration that must not contradict them: swamp
    halves attackers out of it (not into it), major rivers and escarpments forbid overruns (not movement),
    attackers across a river or a bridge are reduced, and engineers halve a river's cost."""
    from generated import new_scs
    assert new_scs.attack_multiplier("swamp") == 1
    assert new_scs.entry_cost("open", ("major-river",)) is not None
    assert new_scs.entry_cost("open", ("escarpment",)) is not None
    assert new_scs.attack_multiplier("open", ("river",)) == 0.5
    assert new_scs.attack_multiplier("open", ("river", "bridge")) == 0.5
    # the engineer rule halves a river's normal MP cost, so a river has one (not P); a bridge negates it
    assert new_scs.entry_cost("open", ("river",)) == 3 and new_scs.entry_cost("open", ("river", "bridge")) == 1
