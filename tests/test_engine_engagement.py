"""Engagement (rulesdsl.runtime.engagement) and the combat parameters the generated CombatEngine reads:
who fights, whose terrain counts, who shares or escapes the result, what of the result is carried out;
imaginary columns, shifts off the left of the table, terrain unit by unit, the game's DRMs in overruns and
the floor under supply penalties."""
from __future__ import annotations

import copy
from fractions import Fraction

from generated import bocage, new_scs, ridgeline, scs_1_8
from rulesdsl.runtime.combat import AttackingHex, Combat, ModifierSpec, Unit
from rulesdsl.runtime.engagement import as_combat
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.notation import Result
from rulesdsl.runtime.situation import Counter, Situation
from tests.test_engine_eligibility import engine

H = Hex.parse
FRONT = H("10.07")          # the defenders' hex
BASE = H("10.08")           # the attackers' hex, below it


def board(*units: Counter, terrain: dict[Hex, tuple[str, ...]] | None = None) -> Situation:
    return Situation(HexMap.rectangle(20, 20), default_terrain=("open",), terrain=terrain or {}, units=units,
                     phase="combat", phasing="allies")


def allied(name: str, hex: Hex = BASE, *, attack: int = 4, steps: int = 1, type: str = "infantry",
           **more: object) -> Counter:
    return Counter(name, "allies", hex, attack=attack, defense=4, movement=5, steps=steps, type=type, **more)  # type: ignore[arg-type]


def axis(name: str, hex: Hex = FRONT, *, defense: int = 4, steps: int = 1, type: str = "infantry") -> Counter:
    return Counter(name, "axis", hex, attack=3, defense=defense, movement=5, steps=steps, type=type)


def cited(answer: object) -> dict[str | None, str | None]:
    return {s.parameter: s.rule for s in answer.steps if s.parameter}   # type: ignore[attr-defined]


# ---- who defends -----------------------------------------------------------------------------------------
def test_a_hexs_units_defend_together_and_none_may_be_held_out():
    situation = board(allied("a"), axis("x"), axis("y"))
    everyone = bocage.RULES_ENGINE.engage(situation, ["a"], [FRONT])
    assert everyone.allowed and everyone.defenders == ("x", "y")
    held_out = bocage.RULES_ENGINE.engage(situation, ["a"], [FRONT], defenders=["x"])
    assert not held_out.allowed and "y may not be held out" in held_out.reasons[0]
    assert cited(held_out)["combat.stack_defends_together"] == "7.2c"
    # a game where the owner names its defenders: the rest take no part and the result spares them
    chooser = engine(bocage, combat__stack_defends_together=False)
    named = chooser.engage(situation, ["a"], [FRONT], defenders=["x"])
    assert named.allowed and named.defenders == ("x",) and named.spared == ("y",)
    sharing = engine(bocage, combat__stack_defends_together=False, combat__non_participants_share_results=True)
    assert sharing.engage(situation, ["a"], [FRONT], defenders=["x"]).sharing == ("y",)


def test_units_that_retreated_in_before_the_attack_add_nothing_but_share_its_result():
    situation = board(allied("a"), axis("x"), axis("came"))
    answer = bocage.RULES_ENGINE.engage(situation, ["a"], [FRONT], arrived=["came"])
    assert answer.defenders == ("x",) and answer.sharing == ("came",)
    assert cited(answer)["combat.arrivals_share_results"] == "7.2d"
    combat = as_combat(situation, answer.attackers, answer.defenders, answer.terrain_hex)
    assert sum(u.defense for u in combat.defenders) == 4          # the arrival's 4 does not count
    spared = engine(bocage, combat__arrivals_share_results=False).engage(situation, ["a"], [FRONT], arrived=["came"])
    assert spared.defenders == ("x",) and spared.spared == ("came",)
    unruled = engine(bocage, combat__arrivals_share_results=None).engage(situation, ["a"], [FRONT], arrived=["came"])
    assert unruled.defenders == ("x", "came")


# ---- the attacker's side ---------------------------------------------------------------------------------
def test_units_beside_the_attackers_that_do_not_attack():
    situation = board(allied("a"), allied("idle"), axis("x"))
    vcs_like = ridgeline.RULES_ENGINE.engage(situation, ["a"], [FRONT])      # VCS 8.2: they share the result
    assert vcs_like.sharing == ("idle",) and cited(vcs_like)["combat.non_participants_share_results"] == "8.2"
    scs_like = bocage.RULES_ENGINE.engage(situation, ["a"], [FRONT])         # SCS sets no such rule
    assert scs_like.spared == ("idle",) and not scs_like.sharing


def test_an_overruns_result_touches_only_the_overrunning_units():
    situation = board(allied("a"), allied("idle"), axis("x"))
    sharing = engine(bocage, combat__non_participants_share_results=True)
    overrun = sharing.engage(situation, ["a"], [FRONT], overrun=True)
    assert overrun.spared == ("idle",) and cited(overrun)["overrun.results_affect_only_participants"] == "6.0"
    assert sharing.engage(situation, ["a"], [FRONT]).sharing == ("idle",)     # a regular combat: shared


def test_units_over_the_stacking_limit_add_nothing_and_die_on_an_adverse_result():
    # Ridgeline stacks two units a hex (VCS 8.1): the third in the defending hex is over the limit
    situation = board(allied("a"), axis("x"), axis("y"), axis("z"))
    answer = ridgeline.RULES_ENGINE.engage(situation, ["a"], [FRONT])
    assert answer.lost_if_adverse == ("z",) and answer.defenders == ("x", "y") and answer.sharing == ("z",)
    assert cited(answer)["stacking.overstacked_lost_on_adverse_result"] == "8.1"
    hurt = ridgeline.RULES_ENGINE.engage(situation, ["a"], [FRONT], result=Result(defender_retreat=1, text="DR"))
    assert hurt.destroyed == ("z",)
    fine = ridgeline.RULES_ENGINE.engage(situation, ["a"], [FRONT], result=Result(attacker_steps=1, text="A1"))
    assert fine.destroyed == ()
    # on the attacker's side: the third unit in the attacking hex, which does not attack, dies on an A1
    crowded = board(allied("a"), allied("b"), allied("c"), axis("x"))
    attack = ridgeline.RULES_ENGINE.engage(crowded, ["a", "b"], [FRONT], result=Result(attacker_steps=1, text="A1"))
    assert attack.lost_if_adverse == ("c",) and attack.destroyed == ("c",)
    assert ridgeline.RULES_ENGINE.engage(crowded, ["a", "b"], [FRONT],
                                         result=Result(defender_steps=1, text="D1")).destroyed == ()


# ---- what of the result is carried out ----------------------------------------------------------------------
def test_an_overruns_attacker_retreat_is_carried_out_unless_the_rules_say_not():
    situation = board(allied("a"), axis("x"))
    result = Result(attacker_retreat=1, text="AR")
    assert bocage.RULES_ENGINE.engage(situation, ["a"], [FRONT], overrun=True, result=result).attacker_retreat == 1
    off = engine(bocage, overrun__attacker_retreats_apply=False)
    answer = off.engage(situation, ["a"], [FRONT], overrun=True, result=result)
    assert answer.attacker_retreat == 0 and cited(answer)["overrun.attacker_retreats_apply"] == "6.2b"
    assert off.engage(situation, ["a"], [FRONT], result=result).attacker_retreat == 1     # not an overrun


def test_new_scs_attackers_who_lose_steps_against_nothing_fall_back_a_hex():
    situation = board(allied("a"), axis("x"))
    answer = new_scs.RULES_ENGINE.engage(situation, ["a"], [FRONT], result=Result(attacker_steps=1, text="A1"))
    assert answer.attacker_retreat == 1
    assert cited(answer)["retreat.attacker_retreats_on_empty_result"] == "applying-results"
    # both sides hurt: no extra retreat; SCS 1.8 has no such rule
    both = Result(attacker_steps=1, defender_steps=1, text="A1/D1")
    assert new_scs.RULES_ENGINE.engage(situation, ["a"], [FRONT], result=both).attacker_retreat == 0
    assert bocage.RULES_ENGINE.engage(situation, ["a"], [FRONT],
                                      result=Result(attacker_steps=1, text="A1")).attacker_retreat == 0


# ---- a combat against several hexes ----------------------------------------------------------------------
def test_a_multi_hex_attack_reads_the_terrain_best_for_the_defender():
    other = H("11.08")      # adjacent to the attackers' hex too
    situation = board(allied("a", attack=12), axis("x"), axis("y", other),
                      terrain={FRONT: ("clear",), other: ("woods",), BASE: ("clear",)})
    answer = ridgeline.RULES_ENGINE.engage(situation, ["a"], [FRONT, other])
    assert answer.allowed and answer.terrain_hex == other
    swapped = board(allied("a", attack=12), axis("x"), axis("y", other),
                    terrain={FRONT: ("woods",), other: ("clear",), BASE: ("clear",)})
    assert ridgeline.RULES_ENGINE.engage(swapped, ["a"], [FRONT, other]).terrain_hex == FRONT
    assert cited(answer)["combat.defender_best_terrain"] == "10.1"
    assert any("1st from the left" in s.text for s in answer.steps)
    # a rulebook that does not say which terrain counts refuses to guess
    refused = engine(ridgeline, combat__defender_best_terrain=None).engage(situation, ["a"], [FRONT, other])
    assert not refused.allowed and "which hex's terrain" in refused.reasons[0]


# ---- the CombatEngine's options ----------------------------------------------------------------------------
def _stream_attack() -> Combat:
    """E16's four attackers on a 2-4-5 in open ground, three of them across stream hexsides."""
    return Combat(attacking_hexes=(
        AttackingHex(units=(Unit("infantry", attack=4, defense=4),), hexsides=("stream",)),
        AttackingHex(units=(Unit("infantry", attack=4, defense=4),), hexsides=("stream",)),
        AttackingHex(units=(Unit("infantry", attack=4, defense=4),), hexsides=("stream",)),
        AttackingHex(units=(Unit("infantry", attack=4, defense=4),))),
        defenders=(Unit("infantry", attack=2, defense=4, steps=2),), defender_terrain="open")


def test_terrain_counts_unit_by_unit_or_for_the_whole_attack():
    assert bocage.ENGINE.assess(_stream_attack()).odds == "3:1"           # 3 x 2 + 4 = 10 against 4
    whole = copy.copy(bocage.ENGINE)
    whole.terrain_per_unit = False
    assessment = whole.assess(_stream_attack())
    assert assessment.odds == "2:1" and assessment.attack == 8            # every unit halved: 8 against 4
    assert any("combat.terrain_per_unit" in line for line in assessment.derivation)


def test_a_shift_past_the_left_most_column():
    crt = bocage.CRT
    assert crt.column((1, 1), -1) == "1:2"
    assert crt.column((1, 1), -2) is None                                 # 7.4: below the table
    assert crt.column((1, 1), -2, off_left=True) is None
    assert crt.column((1, 1), -2, off_left=False) == "1:2"                # held at the table's edge
    assert bocage.ENGINE.shift_off_left is True


def test_imaginary_columns_agree_with_before_limits():
    crt = bocage.CRT
    assert crt.column((8, 1), -2) == "4:1"                                # 6:1 first, then two left
    assert crt.column((8, 1), -2, before_limits=True) == "6:1"            # 8:1, 7:1, 6:1
    assert bocage.ENGINE.shifts_before_limits is False                    # 7.4: no imaginary columns


def test_the_games_own_drms_stay_out_of_overruns_when_the_rules_say_so():
    plus = ModifierSpec("game-bonus", 2, "defender", lambda ctx: True, game=True)
    base = ModifierSpec("series-bonus", 1, "defender", lambda ctx: True)
    combat = Combat(attacking_hexes=(AttackingHex(units=(Unit("infantry", attack=4),)),),
                    defenders=(Unit("infantry", defense=4),), defender_terrain="open", overrun=True)
    engine_ = copy.copy(bocage.ENGINE)
    engine_.modifiers = (plus, base)
    engine_.cap = None
    assert engine_.drm(engine_.bind(combat))[0] == (0, 3)
    engine_.game_modifiers_in_overruns = False
    assert engine_.drm(engine_.bind(combat))[0] == (0, 1)
    regular = Combat(combat.attacking_hexes, combat.defenders, "open")
    assert engine_.drm(engine_.bind(regular))[0] == (0, 3)


def test_supply_penalties_round_down_and_leave_at_least_one():
    hungry = frozenset({"out-of-supply"})
    combat = Combat(attacking_hexes=(AttackingHex(units=(Unit("infantry", attack=5, states=hungry),
                                                         Unit("infantry", attack=1, states=hungry)),
                                                  terrain="clear"),),
                    defenders=(Unit("infantry", defense=2),), defender_terrain="clear")
    assessment = ridgeline.ENGINE.assess(combat)
    # 5 x 1/2 = 2.5, dropped to 2; 1 x 1/2 = 1/2, dropped to 0 and raised to 1: 3 against 2
    assert assessment.attack == 3
    text = "\n".join(assessment.derivation)
    assert "rounded down to 2" in text and "raised to 1" in text and "11.1.5" in text
    loose = copy.copy(ridgeline.ENGINE)
    loose.supply_round_down, loose.supply_minimum = False, None
    assert loose.assess(combat).attack == Fraction(3)       # 2.5 + 0.5 unrounded


def test_out_of_supply_units_may_not_react_in_new_scs():
    unit = Counter("x", "axis", FRONT, attack=3, defense=3, movement=8, type="infantry",
                   capabilities=frozenset({"exploit"}), states=frozenset({"out-of-supply"}))
    situation = Situation(HexMap.rectangle(20, 20), default_terrain=("open",), units=(unit,), phase="movement",
                          phasing="allies")
    move = new_scs.RULES_ENGINE.move(situation, "x", [H("10.06")], mode="reaction")
    assert not move.legal and "out of supply" in (move.reason or "")
    assert cited(move)["supply.out_of_supply_may_react"] == "12.2"
    supplied = Situation(situation.map, default_terrain=("open",), units=(Counter(
        "x", "axis", FRONT, attack=3, defense=3, movement=8, type="infantry", capabilities=frozenset({"exploit"})),),
        phase="movement", phasing="allies")
    assert new_scs.RULES_ENGINE.move(supplied, "x", [H("10.06")], mode="reaction").legal


def test_engage_is_in_every_generated_module():
    for module in (scs_1_8, bocage, new_scs, ridgeline):
        assert isinstance(module.RULES_ENGINE, RulesEngine) and callable(module.engage)


def test_before_limits_and_combat_imaginary_columns_may_not_disagree(capsys, project):
    """`column shifts ... before limits` and `combat.imaginary_columns` say one thing two ways."""
    project.add_repo_rulebooks()
    game = project.write("rulebooks/games/ridge-test.rules", '''game ridge-test "Shift test" version "1" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Six steps a hex."
  stacking.limit = 6 steps
}

column shifts "Shifts" before limits {
  surprise 1 when count(attackers) >= 3
}
''')
    code, out, err = project.run("check", str(game), capsys=capsys)
    assert code == 1
    assert "ridge-test.rules:8:1: error: 'before limits' shifts the odds from columns beyond the table" in err
    assert "combat.imaginary_columns = no" in err and "scs-1.8.rules" in err
    assert "^" in err and "Traceback" not in err
    fixed = game.read_text(encoding="utf-8").replace('''rule G1.0 "Stacking"''', '''override rule 7.4 "Odds" {
  summary "Shifts count from odds beyond the table."
  combat.below_table                   = A1
  combat.above_table                   = rightmost
  combat.imaginary_columns             = yes
  combat.shift_off_left_is_below_table = yes
}

rule G1.0 "Stacking"''')
    project.write("rulebooks/games/ridge-test.rules", fixed)
    code, out, err = project.run("check", str(game), capsys=capsys)
    assert code == 0, err
