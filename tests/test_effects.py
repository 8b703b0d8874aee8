"""A rule's effects (issue 43, first slice): `forbid` and `allow` on a question the rules engine answers,
under a condition on the facts that question knows.  Checked with positioned errors, executed by the
engine with the rule cited, carried by the generated module as data, printed on the card in players'
words (English and French), and seen by diff."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from generated import new_scs, scs_1_8, vcs
from rulesdsl.errata import diff
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.runtime import effects
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.situation import Counter, Situation
from tests.test_engine_eligibility import engine

H = Hex.parse

GAME = '''game fx "Effects" version "1" extends vcs

override rule 7.0 "Zones of Control (ZOCs)" {
  summary "Only the largest grouping exerts a ZOC; artillery and cadres never do, but an HQ always does."
  zoc.range                  = 1 hex
  zoc.largest_formation_only = yes
  retreat.ezoc_step_loss     = 1 step
  retreat.losses_per_stack   = yes
  forbid exert-zoc when unit is artillery or unit is cadre
  allow exert-zoc when unit is hq
}
'''


def _zoc_of(module, unit: Counter) -> tuple[bool, str]:
    situation = Situation(HexMap.rectangle(10, 10), default_terrain=("clear",), units=(unit,), phasing="allies")
    has, step = engine(module).exerts_zoc(situation, unit)
    return has, str(step)


def test_vcs_artillery_and_cadres_exert_no_zoc_whatever_their_size():
    gun = Counter("g", "axis", H("5.05"), attack=3, defense=2, movement=3, type="artillery", size="division")
    has, step = _zoc_of(vcs, gun)
    assert not has and "rule 7.0" in step and "unit is artillery" in step
    cadre = Counter("c", "axis", H("5.05"), attack=1, defense=1, movement=4, type="infantry", size="division",
                    states=frozenset({"cadre"}))
    assert not _zoc_of(vcs, cadre)[0]
    division = Counter("d", "axis", H("5.05"), attack=3, defense=2, movement=3, type="infantry", size="division")
    assert _zoc_of(vcs, division)[0]


def _reaction(module, unit: Counter, *others: Counter, started: str | None = None):
    situation = Situation(HexMap.rectangle(10, 10), default_terrain=("open",), units=(unit, *others),
                          phase="reaction", phasing="allies",
                          started_in={} if started is None else {unit.name: H(started)})
    target = Hex(unit.hex.map, unit.hex.column, unit.hex.row - 1)      # the hex above it, next to it
    return engine(module).move(situation, unit.name, [target], mode="reaction")


@pytest.mark.parametrize("marked, kind, ok", [((), "exploit", True), (("dg",), "exploit", False),
                                              (("unready",), "exploit", False), ((), "", False)])
def test_new_scs_only_ready_non_dg_exploit_capable_units_react(marked, kind, ok):
    unit = Counter("r", "axis", H("2.03"), attack=4, defense=4, movement=8, steps=2, type="armor",
                   capabilities=frozenset({kind} - {""}), states=frozenset(marked))
    move = _reaction(new_scs, unit)
    assert move.legal is ok, move.reason
    if not ok:
        refusal = move.refusals[0]
        assert refusal.rule == "reaction" and "may not make a reaction move" in refusal.reason


def test_new_scs_a_unit_that_starts_the_phase_in_an_enemy_zoc_may_not_react():
    unit = Counter("r", "axis", H("5.05"), attack=4, defense=4, movement=8, steps=2, type="armor",
                   capabilities=frozenset({"exploit"}))
    enemy = Counter("z", "allies", H("5.07"), attack=4, defense=4, movement=8, steps=2, type="infantry")
    assert _reaction(new_scs, unit, enemy, started="5.06").legal is False     # 5.06 lies in z's ZOC
    assert _reaction(new_scs, unit, enemy, started="5.03").legal is True


def _attack(module, *attackers: Counter):
    defender = Counter("e", "allies", H("3.03"), attack=2, defense=3, movement=5, type="infantry")
    situation = Situation(HexMap.rectangle(6, 6), default_terrain=("open",), units=(*attackers, defender),
                          phase="combat", phasing="axis")
    return engine(module).may_attack(situation, [a.name for a in attackers], "3.03")


def test_scs_a_zero_strength_unit_attacks_only_beside_one_with_a_strength():
    zero = Counter("z", "axis", H("3.04"), attack=0, defense=2, movement=5, type="infantry")
    strong = Counter("a", "axis", H("3.02"), attack=3, defense=2, movement=9, type="infantry")
    alone = _attack(scs_1_8, zero)
    assert not alone.allowed
    assert alone.refusals[0].rule == "7.2e" and "may not make this attack" in alone.refusals[0].reason
    assert any("attackers.attack == 0" in str(step) for step in alone.steps)    # the line as written
    assert _attack(scs_1_8, zero, strong).allowed and _attack(scs_1_8, strong).allowed


def test_an_attack_effect_reads_the_whole_attack(project, capsys):
    """`attackers is WORD` holds when one attacker is; the counts and the added-up strengths are numbers."""
    module = project.built("fx", GAME.replace("  allow exert-zoc when unit is hq", "") + '''
rule G1 "Bridgehead" {
  summary "Across the river only engineers lead an attack, and never more than three units at once."
  forbid attack when not attackers is engineer or attackers.count > 3
}
''', capsys=capsys)
    def unit(name: str, at: str, *kinds: str) -> Counter:
        return Counter(name, "axis", H(at), attack=2, defense=2, movement=4, type="infantry", size="division",
                       capabilities=frozenset(kinds))
    assert not _attack(module, unit("a", "3.02")).allowed
    assert _attack(module, unit("a", "3.02"), unit("b", "2.03", "engineer")).allowed
    four = (unit("a", "3.02", "engineer"), unit("b", "2.03"), unit("c", "4.03"), unit("d", "3.04"))
    refused = _attack(module, *four)
    assert not refused.allowed and refused.refusals[0].rule == "G1"


def test_an_allow_lifts_the_forbid_of_the_same_question(project, capsys):
    module = project.built("fx", GAME, capsys=capsys)
    hq = Counter("h", "axis", H("5.05"), attack=1, defense=1, movement=4, type="artillery", size="division",
                 capabilities=frozenset({"hq"}))
    gun = Counter("g", "axis", H("5.05"), attack=1, defense=1, movement=4, type="artillery", size="division")
    assert _zoc_of(module, hq)[0] and not _zoc_of(module, gun)[0]
    source = (project.root / "generated" / "fx.py").read_text(encoding="utf-8")
    # the generated module carries the condition as data the engine evaluates, with its line as written
    assert "_fx.Effect('forbid', 'exert-zoc', _fx.Any_((_fx.Is('unit', 'artillery'), _fx.Is('unit', 'cadre'),))" \
        in source and "'allow exert-zoc when unit is hq'" in source


@pytest.mark.parametrize("line, message, column", [
    ("forbid exert-zok when unit is artillery", "no question 'exert-zok' that a rule's effect may name", 10),
    ("forbid exert-zoc when unit.attack is artillery", "'unit.attack' is a number, not a list of words", 25),
    ("forbid exert-zoc when unit.started_in_ezoc", "no fact 'unit.started_in_ezoc' at exert-zoc", 25),
    ("forbid react when unit.size", "'unit.size' is a list of words, not a flag", 21),
    ("forbid react when unit.colour is red", "no fact 'unit.colour'", 21),
    ("forbid react when unit.attack + 1", "a condition is a fact, a fact 'is' a word, numbers compared", 21),
    ("forbid attack when unit is artillery", "no fact 'unit' at attack", 22),
    ("forbid react when attackers.count > 1", "no fact 'attackers.count' at react", 21),
    ("cost enter +1 when hex is rubble", "a cost on enter counts MP, not a bare number", 14),
    ("cost enter +1 hexes when hex is rubble", "a cost on enter counts MP, not hexes", 17),
    ("cost enter min +1 MP when hex is rubble", "'min' takes a number, not a change: min 1 MP", 18),
    ("cost allowance times 1/2 MP when unit is isolated", "'times' multiplies by a bare number, not by MP", 28),
    ("cost allowance max 6 hexes when unit is isolated", "an allowance counted in hexes is a bonus: +2 hexes", 24),
    ("cost allowance +1 MP rounded down when unit is isolated", "only a product is rounded", 3),
    ("cost allowance max isolation.nothing when unit is isolated", "no parameter 'isolation.nothing' is set", 22),
    ("cost allowance max isolation.defense_factor when unit is isolated",
     "'isolation.defense_factor' is a number; a cost on allowance counts MP", 22),
    ("cost allowance +1 MP when hex.next_to is rubble", "no fact 'hex.next_to' at allowance", 29),
    ("exempt exchange-loss when turn is night", "no fact 'turn' at exchange-loss", 29),
    ("forbid first-loss when hex.ezoc", "no fact 'hex.ezoc' at first-loss", 26),
    ("exempt first-loss when unit is armored", "'exempt' is not an effect on 'first-loss'", 3),
    ("forbid exchange-loss when unit is artillery", "'forbid' is not an effect on 'exchange-loss'", 3),
    ("forbid attack when attackers.supply_hexes", "'attackers.supply_hexes' is a number, not a flag", 22),
    ("forbid enter when unit.overrun_failed > 1", "'unit.overrun_failed' is a flag, not a number", 21),
    ("cost react +1 MP when unit is dg", "'cost' is not an effect on 'react'", 3),
    ("cost enter +1 MP when ezoc.from is tank", "no fact 'ezoc.from' at enter", 25),
    ("stop attack when attackers.count > 1", "'stop' is not an effect on 'attack'", 3),
    ("exempt react when unit is dg", "'exempt' is not an effect on 'react'", 3),
    ("forbid retreat-loss when unit is armored", "'forbid' is not an effect on 'retreat-loss'", 3),
    ("exempt retreat-loss when hex is rubble", "no fact 'hex' at retreat-loss", 28),
    ("exempt retreat-loss when ezoc.from", "'ezoc.from' is a list of words, not a flag", 28),
    ("exempt must-attack when enemy.hex.level", "'enemy.hex.level' is a number, not a flag", 27),
    ("forbid must-attack when unit is hq", "'forbid' is not an effect on 'must-attack'", 3),
    ("exempt react when enemy is cadre", "'exempt' is not an effect on 'react'", 3),
    ("forbid react when enemy is cadre", "no fact 'enemy' at react", 21),
    ("forbid react when advancing.count > 2", "no fact 'advancing.count' at react", 21),
    ("forbid advance when retreat.length", "'retreat.length' is a number, not a flag", 23),
])
def test_a_misused_effect_is_a_positioned_error(project, capsys, line, message, column):
    project.write("rulebooks/fx.rules", GAME.replace("  allow exert-zoc when unit is hq", "  " + line))
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1
    assert f"rulebooks/fx.rules:10:{column}: error: {message}" in out + err, out + err


def test_an_amendment_may_not_state_effects(project, capsys):
    project.write("rulebooks/fx.rules", '''game fx "Effects" version "1" extends vcs

amend rule 7.0 {
  forbid exert-zoc when unit is hq
}
''')
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/fx.rules:4:10: error: an amendment of rule 7.0 changes parameters only" in out + err


def test_the_card_says_each_effect_in_players_words_in_english_and_french(project, capsys):
    project.built("fx", GAME, capsys=capsys)
    code, out, err = project.run("chart", "rulebooks/fx.rules", "--lang", "en", "--out", "fx.en.html", capsys=capsys)
    assert code == 0, err
    english = (project.root / "fx.en.html").read_text(encoding="utf-8")
    assert "Artillery units and cadres exert no ZOC." in english and "Hq units exert a ZOC all the same." in english
    assert "unit is artillery" not in english and "unit is hq" not in english   # never a condition as written
    project.run("chart", "rulebooks/fx.rules", "--lang", "fr", "--out", "fx.fr.html", capsys=capsys)
    french = (project.root / "fx.fr.html").read_text(encoding="utf-8")
    # the French cards' one term for a ZOC (tests/test_card_words.py GLOSSARY)
    assert "Les unités d&#39;artillerie et les cadres n&#39;exercent pas de ZOC." in french


def test_a_condition_the_card_cannot_say_asks_for_the_authors_words(project, capsys):
    project.write("rulebooks/fx.rules", GAME.replace("unit is hq", "unit.attack == 0"))
    code, out, err = project.run("chart", "rulebooks/fx.rules", "--lang", "en", "--out", "fx.en.html", capsys=capsys)
    assert code == 0 and "effect 2 of rule 7.0" in out + err and "labels en { effect.7.0.2" in out + err
    # the warning points at the effect's own line, where the author looks for it
    assert "rulebooks/fx.rules:10:3: warning: the effect 2 of rule 7.0 reads" in out + err
    project.write("rulebooks/fx.rules", GAME.replace("unit is hq", "unit.attack == 0") +
                  'labels en "English" {\n  effect.7.0.2  "Units with no attack strength exert a ZOC anyway."\n}\n')
    code, out, err = project.run("chart", "rulebooks/fx.rules", "--lang", "en", "--out", "fx.en.html", capsys=capsys)
    assert "effect 2 of rule 7.0" not in out + err
    assert "Units with no attack strength exert a ZOC anyway." in (project.root / "fx.en.html").read_text("utf-8")


def test_diff_sees_a_changed_condition_and_a_removed_effect():
    old = parse(Source("a.rules", GAME))
    changed = parse(Source("b.rules", GAME.replace("unit is cadre", "unit is company")))
    removed = parse(Source("c.rules", GAME.replace("  allow exert-zoc when unit is hq\n", "")))
    assert diff.compare(diff.snapshot(old), diff.snapshot(changed)) != []
    changes = diff.compare(diff.snapshot(old), diff.snapshot(removed))
    assert changes and any("allow exert-zoc" in str(c) for c in changes)


def test_a_condition_is_evaluated_reading_each_fact_only_when_it_is_needed():
    asked: list[str] = []

    def fact(name: str, value: effects.FactValue):
        def read() -> effects.FactValue:
            asked.append(name)
            return value
        return read
    facts = {"unit": fact("unit", frozenset({"armor"})), "unit.started_in_ezoc": fact("ezoc", True),
             "unit.attack": fact("attack", Fraction(0))}
    condition = effects.Any_((effects.Is("unit", "armor"), effects.Fact("unit.started_in_ezoc")))
    assert effects.evaluate(condition, facts) and asked == ["unit"]
    assert effects.evaluate(effects.Compare("==", effects.Fact("unit.attack"), effects.Number(Fraction(0))), facts)
    assert not effects.evaluate(effects.Not(effects.All((effects.Is("unit", "armor"),
                                                          effects.Fact("unit.started_in_ezoc")))), facts)


# ---- cost and forbid on entering a hex (issue 43, second slice) --------------------------------------------
def _move(module, unit: Counter, path: list[str], *, markers=None, terrain=None, others=()):
    situation = Situation(HexMap.rectangle(8, 8), default_terrain=("clear",), units=(unit, *others),
                          phasing=unit.side, markers=markers or {}, terrain=terrain or {})
    return engine(module).move(situation, unit.name, [H(h) for h in path])


def test_vcs_rubble_costs_one_mp_more_to_enter():
    unit = Counter("i", "allies", H("3.02"), attack=3, defense=4, movement=5, type="infantry")
    rubble = {H("3.03"): frozenset({"rubble"})}
    move = _move(vcs, unit, ["3.03"], markers=rubble)
    assert move.legal and move.costs == (Fraction(2),)
    assert any("rule 13.5" in str(s) and "+1 MP" in str(s) for s in move.steps)
    assert _move(vcs, unit, ["3.03"]).costs == (Fraction(1),)          # no marker, no effect
    # the search (reachable) sees it too: 3.03 costs 2 to reach, its unmarked neighbour 1
    situation = Situation(HexMap.rectangle(8, 8), default_terrain=("clear",), units=(unit,), phasing="allies",
                          markers=rubble)
    reach = engine(vcs).reachable(situation, "i")
    assert reach.costs[H("3.03")] == 2 and reach.costs[H("4.02")] == 1


CLASSES = GAME.replace("  allow exert-zoc when unit is hq", "") + '''
rule G2 "Vehicles and forests" {
  summary "Motorized units may not enter swamp; foot units pay 3 MP for a forest, whatever its terrain cost."
  forbid enter when unit is motorized and hex is swamp
  cost enter 3 MP when unit is foot and hex is forest
  cost enter min 2 MP when hexside is river
}
'''


def test_unit_classes_are_barred_from_terrain_or_pay_their_own_cost(project, capsys):
    module = project.built("fx", CLASSES, capsys=capsys)
    truck = Counter("t", "allies", H("3.02"), attack=2, defense=2, movement=8, type="infantry",
                    capabilities=frozenset({"motorized"}))
    walker = Counter("w", "allies", H("3.02"), attack=2, defense=2, movement=8, type="infantry",
                     capabilities=frozenset({"foot"}))
    swamp = {H("3.03"): ("swamp",)}
    refused = _move(module, truck, ["3.03"], terrain=swamp)
    assert not refused.legal and refused.refusals[0].rule == "G2"
    assert _move(module, walker, ["3.03"], terrain=swamp).legal
    forest = {H("3.03"): ("forest",)}
    assert _move(module, walker, ["3.03"], terrain=forest).costs == (Fraction(3),)
    assert _move(module, truck, ["3.03"], terrain=forest).costs != (Fraction(3),)


def test_diff_sees_a_changed_amount():
    old = parse(Source("a.rules", CLASSES))
    new = parse(Source("b.rules", CLASSES.replace("cost enter 3 MP", "cost enter 4 MP")))
    changes = diff.compare(diff.snapshot(old), diff.snapshot(new))
    assert changes and any("4 MP" in str(c) for c in changes)


def test_the_card_prints_a_cost_with_its_amount_beside_it():
    from rulesdsl.cards.charts import card
    from tests.test_card_panels import ROOT, compile_project
    shipped = compile_project(ROOT)
    data, _ = card(shipped.resolved["vcs"], "en", shipped.labels)
    lines = [line for topic in data["panels"]["reminders"] if topic["topic"] == "movement" for line in topic["lines"]]
    assert [(str(line["meaning"].text), line["value"].text, line["rule"]) for line in lines] == \
        [("Isolated mechanized units: Movement Allowance", "at most 6 MP", "11.2.5"),
         ("Isolated non-mechanized units: Movement Allowance", "×½, rounded down", "11.2.5"),
         ("Entering a rubble hex", "+1 MP", "13.5")]


def _retreat(module, *units: Counter, enemies: tuple[Counter, ...], hexes: int = 1):
    situation = Situation(HexMap.rectangle(10, 10), default_terrain=("open",), units=(*units, *enemies),
                          phase="combat", phasing="friendly")
    return module.RULES_ENGINE.retreat(situation, [u.name for u in units], hexes, attackers=["x"])


def _unit(name: str, side: str, at: str, type: str) -> Counter:
    return Counter(name, side, H(at), attack=3, defense=3, movement=6, steps=2, type=type)


@pytest.mark.parametrize("zoc_of, stacked, loss", [
    ("infantry", (), 0),                # only infantry's ZOC: a tank is exempt
    ("anti-tank", (), 1),               # an anti-tank unit's ZOC costs armor its step
    ("tank", (), 1),                    # and so does a tank's
    ("infantry", ("infantry",), 1),     # a stack that is not all armored loses its step
    ("infantry", ("light-armor",), 0),  # light armor is armored too
])
def test_new_scs_armor_loses_no_step_retreating_past_units_that_cannot_stop_tanks(zoc_of, stacked, loss):
    # 8.09 is the only hex open to a retreat from 8.08 away from x, and it lies in w's ZOC (as example A22)
    enemies = (_unit("x", "friendly", "7.08", "tank"), _unit("w", "friendly", "8.10", zoc_of),
               _unit("y", "friendly", "10.08", "infantry"))
    ours = (_unit("t", "enemy", "8.08", "tank"), *(_unit(f"s{n}", "enemy", "8.08", kind)
                                                   for n, kind in enumerate(stacked)))
    answer = _retreat(new_scs, *ours, enemies=enemies)
    assert [str(h) for h in answer.paths[0]] == ["8.09"]
    assert answer.loss == loss
    exempt = [s for s in answer.steps if "loses no step" in s.text]
    assert bool(exempt) == (zoc_of == "infantry") and all(s.rule == "applying-results" for s in exempt)


def test_a_word_the_rulebook_never_declares_is_a_warning_at_the_word(project, capsys):
    project.write("rulebooks/fx.rules", GAME.replace("unit is hq", "unit is artilery"))
    code, out, err = project.run("check", capsys=capsys)
    assert code == 0 and "1 rulebook checked: 1 warning" in out + err   # it builds; the condition never holds
    assert ("rulebooks/fx.rules:10:32: warning: no word 'artilery' in this rulebook: 'unit is artilery' never "
            "holds") in out + err
    assert "did you mean 'artillery'?" in out + err


TITLES = Path(__file__).parent / "titles"


@pytest.mark.parametrize("title", ["fords", "landing", "passes", "winter"])
def test_the_test_titles_hold_their_worked_examples_and_print_every_effect(project, capsys, title):
    """The four titles of tests/titles (rules of other published games, said as effects): every worked
    example holds, and the card prints each effect (no warning of an effect no reminder prints)."""
    project.write(f"rulebooks/{title}.rules", (TITLES / f"{title}.rules").read_text(encoding="utf-8"))
    code, out, err = project.run("check", capsys=capsys)
    assert code == 0 and "no problems" in out + err, out + err
    code, out, err = project.run("chart", f"rulebooks/{title}.rules", "--lang", "en", "--out", "card.html",
                                 capsys=capsys)
    assert code == 0 and "warning" not in out + err, out + err
    card = (project.root / "card.html").read_text(encoding="utf-8")
    if title == "passes":       # the named turns a rule's condition reads are on the card
        assert "Night turns: 3, 6" in card and "On night turns no unit enters an enemy ZOC." in card
    if title == "fords":
        assert "An advance stops on crossing a stream." in card and "Headquarters do not count against the " \
            "stacking limit." in card


def _isolated_odds(attackers, defenders):
    from rulesdsl.runtime.combat import AttackingHex, Combat, Unit
    combat = Combat(attacking_hexes=(AttackingHex(tuple(Unit("infantry", attack=a, states=s) for a, s in attackers),
                                                  terrain="clear"),),
                    defenders=tuple(Unit("infantry", defense=d, states=s) for d, s in defenders),
                    defender_terrain="clear")
    resolution = vcs.resolve_combat(combat, 7)
    return resolution.odds, list(resolution.derivation)


def test_vcs_isolated_units_attack_with_at_most_one_and_defend_halved_unit_by_unit():
    isolated = ("isolated",)
    odds, steps = _isolated_odds([(6, ())], [(3, isolated), (3, isolated)])
    assert odds == "3:1"        # 1 + 1, each halved and rounded down on its own (3 halved as a sum: 2:1)
    assert any("rounded down to 1" in s for s in steps)
    odds, steps = _isolated_odds([(6, isolated)], [(2, ())])
    assert odds == "1:2" and any("held to at most 1 for isolated-attack" in s for s in steps)
    assert _isolated_odds([(6, ())], [(2, ())])[0] == "3:1"     # neither isolated: as printed


def test_a_strength_factor_cap_and_rounding_round_trip_through_fmt_and_print_on_the_card():
    from rulesdsl.language.fmt import format_text
    text = GAME + ('\nstrength factors "Isolation" [11.2.5] {\n  isolated-attack  attack  at most 1  when isolated\n'
                   '  isolated-defense  defense  1/2  rounded down  when isolated\n}\n')
    formatted = format_text(text)
    assert "at most 1" in formatted and "1/2 rounded down" in formatted
    assert format_text(formatted) == formatted
    node = parse(Source("fx.rules", formatted))
    factors = node.unit_factors[0].factors
    assert [(f.cap, f.round_down) for f in factors] == [(True, False), (False, True)]


ROAD = '''game rm "Road movement" version "1" extends new-scs

rule G1 "Road movement" {
  summary "Units that begin the phase stacked may not road-move."
  stacking.limit = 4 steps
  forbid enter when mode is road and unit.started_stacked
}

example "R1. Stacked units may not road-move" [G1] {
  map 1.01 - 12.12 open
  road 5.01 5.02 5.03 5.04
  road 8.01 8.02 8.03 8.04
  phasing friendly
  phase road-movement
  unit s friendly 3-3-5 at 5.01 type infantry
  unit t friendly 3-3-5 at 5.01 type infantry
  unit u friendly 3-3-5 at 8.01 type infantry
  expect move s 5.02 5.03 mode road RESULT
  expect move u 8.02 8.03 mode road costs 1/2 1/2 total 1 legal
  expect move s 5.02 legal
}
'''


def test_a_move_knows_its_mode_and_whether_the_unit_began_stacked(project, capsys):
    """New SCS: units may not begin road movement stacked (a mode and a start the condition reads): the
    series says it (section road-movement), and a game that allows it again lifts it."""
    series_only = ROAD.replace("  forbid enter when mode is road and unit.started_stacked\n", "")
    project.write("rulebooks/rm.rules", series_only.replace("RESULT", "illegal"))
    code, out, err = project.run("check", capsys=capsys)
    assert code == 0, out + err
    lifted = series_only.replace("  stacking.limit = 4 steps\n", "  stacking.limit = 4 steps\n  allow enter when mode is road\n")
    project.write("rulebooks/rm.rules", lifted.replace("RESULT", "illegal"))
    code, out, err = project.run("check", capsys=capsys)      # allowed again, s road-moves from its stack
    assert code == 1 and "expect move s 5.02 5.03 mode road illegal" in out + err and "computed legal" in out + err
    project.write("rulebooks/rm.rules", ROAD.replace("RESULT", "illegal").replace("mode is road", "mode is raod"))
    code, out, err = project.run("check", capsys=capsys)
    assert "warning: no word 'raod' in this rulebook" in out + err and "did you mean 'road'?" in out + err


BLOCKED = '''game fx "Effects" version "1" extends scs-1.8

rule G0 "Stacking" {
  summary "Three steps a hex."
  stacking.limit = 3 steps
}

rule G1 "Cut off" {
  summary "Infantry whose retreat is blocked is eliminated; artillery caught in an enemy ZOC as it retreats is lost."
  eliminate retreat-blocked when unit is infantry
  eliminate retreat-loss when unit is artillery
}
'''


def _scs_unit(name: str, side: str, at: str, type: str, steps: int = 2) -> Counter:
    return Counter(name, side, H(at), attack=3, defense=3, movement=6, steps=steps, type=type)


@pytest.mark.parametrize("rule, kind, loss, eliminated", [
    ("", "infantry", 1, False),                                      # the series: one step for the hex not made
    (BLOCKED, "infantry", 2, True),                                  # the rule: a soft unit is eliminated
    (BLOCKED, "armor", 1, False),                                    # its condition: armor pays the series' loss
    (BLOCKED.replace("eliminate retreat-blocked", "exempt retreat-blocked"), "infantry", 0, False),
])
def test_a_blocked_retreat_costs_what_the_rule_says(project, capsys, rule, kind, loss, eliminated):
    module = project.built("fx", rule, capsys=capsys) if rule else scs_1_8
    # d attacked from 4.05 and ringed: enemy units hold each hex next to it, so its retreat is blocked
    ring = ("4.05", "5.05", "5.04", "4.03", "3.04", "3.05")
    enemies = tuple(_scs_unit(f"x{n}", "red", at, "infantry") for n, at in enumerate(ring))
    answer = _retreat_from(module, _scs_unit("d", "blue", "4.04", kind), enemies=enemies)
    assert answer.blocked == 1 and not answer.off_map
    assert (answer.loss, answer.eliminated) == (loss, eliminated)
    if rule:
        assert any(s.rule == "G1" for s in answer.steps) == (kind == "infantry")


def _retreat_from(module, *units: Counter, enemies: tuple[Counter, ...], hexes: int = 1):
    situation = Situation(HexMap.rectangle(8, 8), default_terrain=("clear",), units=(*units, *enemies),
                          phase="combat", phasing="red")
    return module.RULES_ENGINE.retreat(situation, [u.name for u in units], hexes, attackers=[enemies[0].name])


def test_a_retreat_into_an_enemy_zoc_eliminates_the_units_a_rule_names_and_costs_the_rest_their_step(project,
                                                                                                      capsys):
    module = project.built("fx", BLOCKED, capsys=capsys)
    # 5.05 attacked from 4.05: 6.05, 6.04 and 5.04, the hexes farther away, all lie in an enemy ZOC
    enemies = tuple(_scs_unit(n, "red", at, "infantry") for n, at in (("a", "4.05"), ("b", "6.03"), ("c", "7.06")))
    gun, truck = _scs_unit("g", "blue", "5.05", "artillery"), _scs_unit("t", "blue", "5.05", "truck")
    answer = _retreat_from(module, gun, truck, enemies=enemies)
    assert answer.loss == 3 and not answer.eliminated       # the gun's two steps, and the stack's one for the ZOC
    assert any("g is eliminated for the enemy ZOC" in s.text and s.rule == "G1" for s in answer.steps)
    alone = _retreat_from(module, truck, enemies=enemies)
    assert alone.loss == 1


@pytest.mark.parametrize("line, message, column", [
    ("eliminate enter when unit is dg", "'eliminate' is not an effect on 'enter'", 3),
    ("eliminate retreat-blocked when hex is rubble", "no fact 'hex' at retreat-blocked", 34),
])
def test_a_misused_eliminate_is_a_positioned_error(project, capsys, line, message, column):
    project.write("rulebooks/fx.rules", BLOCKED.replace("  eliminate retreat-loss when unit is artillery", "  " + line))
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1
    assert f"rulebooks/fx.rules:11:{column}: error: {message}" in out + err, out + err


def _must_attack(module, attacker_terrain: str, enemies: dict[str, tuple[str, str]]):
    """The enemy units friendly unit m, in 4.04 on `attacker_terrain`, must also attack when it attacks e1
    (4.05, clear): `enemies` maps each other enemy's name to its hex and terrain."""
    m = Counter("m", "friendly", H("4.04"), attack=4, defense=4, movement=4, type="infantry")
    units = [m, Counter("e1", "enemy", H("4.05"), attack=2, defense=4, movement=4, type="infantry")]
    terrain = {H("4.04"): (attacker_terrain,)}
    for name, (at, kind) in enemies.items():
        units.append(Counter(name, "enemy", H(at), attack=2, defense=4, movement=4, type="infantry"))
        terrain[H(at)] = (kind,)
    situation = Situation(HexMap.rectangle(8, 8), default_terrain=("clear",), terrain=terrain, units=tuple(units),
                          phase="combat", phasing="friendly")
    return engine(module).may_attack(situation, ["m"], "4.05")


@pytest.mark.parametrize("own, enemy, bound", [
    ("mountain", "hills", False),      # level 4 above level 3: released (10.1)
    ("mountain", "mountain", True),    # level with it: bound
    ("hills", "clear", True),          # above it, but hills do not release
    ("clear", "hills", True),          # below it: bound
])
def test_vcs_high_ground_releases_a_unit_from_attacking_its_neighbours_below(own, enemy, bound):
    verdict = _must_attack(vcs, own, {"e2": ("5.04", enemy)})
    assert verdict.allowed and (verdict.must_also_attack == ("e2",)) == bound
    released = [s for s in verdict.steps if "need not attack unit e2" in s.text]
    assert bool(released) == (not bound) and all(s.rule == "10.1" for s in released)


def test_a_must_attack_rule_reads_the_enemy_and_an_allow_binds_all_the_same(project, capsys):
    module = project.built("fx", GAME.replace("  allow exert-zoc when unit is hq", "") + '''
rule G1 "Screens" {
  summary "Nobody need attack a screen, but an HQ attacks whatever it touches."
  exempt must-attack when enemy is cadre
  allow must-attack when unit is hq
}
''', capsys=capsys)
    m = Counter("m", "friendly", H("4.04"), attack=4, defense=4, movement=4, type="infantry")
    h = replace(m, name="h", capabilities=frozenset({"hq"}))
    e1 = Counter("e1", "enemy", H("4.05"), attack=2, defense=4, movement=4, type="infantry")
    screen = Counter("s", "enemy", H("5.04"), attack=2, defense=4, movement=4, type="infantry",
                     states=frozenset({"cadre"}))
    for attacker, bound in ((m, False), (h, True)):
        situation = Situation(HexMap.rectangle(8, 8), default_terrain=("clear",), units=(attacker, e1, screen),
                              phase="combat", phasing="friendly")
        verdict = engine(module).may_attack(situation, [attacker.name], "4.05")
        assert verdict.allowed and (verdict.must_also_attack == ("s",)) == bound


@pytest.mark.parametrize("condition, message", [
    ("attacker.side", "a condition must be true or false, but this is a side"),
    ("attacker.side + 1 > 2", "'+' needs numbers, not a side"),
])
def test_a_side_misread_in_a_modifier_is_a_positioned_error(project, capsys, condition, message):
    text = (TITLES / "winter.rules").read_text(encoding="utf-8")
    project.write("rulebooks/winter.rules", text.replace("when attacker.side is german", f"when {condition}"))
    code, out, err = project.run("check", capsys=capsys)
    line = text.splitlines().index("  german-elan  1 max 1 when attacker.side is german") + 1
    assert code == 1 and f"rulebooks/winter.rules:{line}:29: error: {message}" in out + err, out + err


def test_a_modifier_on_a_side_prints_in_players_words(project, capsys):
    project.write("rulebooks/winter.rules", (TITLES / "winter.rules").read_text(encoding="utf-8"))
    code, out, err = project.run("chart", "rulebooks/winter.rules", "--out", "card.html", capsys=capsys)
    card = (project.root / "card.html").read_text(encoding="utf-8")
    assert code == 0 and "1 right, when the attacker is German" in card and "defender.side" not in card
    assert "the defender is Soviet" in card        # the winter factor's condition
