"""A hexside's combat effect combined with the hex's terrain (`combat.hexside_combination`).

Published games say a ford's doubling "is not cumulative" with the hex's: a defender in rough (Dx2) behind
a ford (Dx2) is doubled once, not quadrupled.  Unset (or `cumulative`), each hexside crossed applies on top
of the hex's terrain, as before; `with-terrain` counts the hexsides an attack crosses as more terrains of
the defender's hex, combined with it by `combat.terrain_combination`, for the attackers crossing them.  The
generated module answers the game's odds and says how in its derivation, a worked example holds it, the
card states it in English and French, diff sees it, and a bad value is a positioned error."""
from __future__ import annotations

import re

import pytest

import rulesdsl
from rulesdsl.errata import diff
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.runtime import AttackingHex, Combat, Unit

FORD = '''\
game ford "Ford Crossing (a test title)" version "0.1"

rounding standard: down, odds favour defender [rounding]

section rounding "Rounding" {
  summary "Odds are attack over defense, rounded down in the defender's favour."
}

rule 1.0 "Sequence of Play" {
  summary "Each game turn, each side moves, then fights."
}

rule 7.3 "Terrain in combat" {
  summary "A ford's doubling is not cumulative with the hex's terrain: the defender is doubled once."
  combat.terrain_combination = COMBINATION
  combat.hexside_combination = with-terrain
}

sequence of play [1.0] {
  game turn {
    player turn first
    player turn second
  }
  player turn {
    movement  [1.0]  movement
    combat    [1.0]  combat
  }
}

unit types [1.0] {
  infantry
}

terrain effects chart "Ford Crossing Terrain Effects Chart" [7.3] {
  hex:
    clear  1  ne
    rough  2  Dx2
    marsh  3  Ax1/2
    hill   2  1L
  hexside:
    ford    +1  Dx2
    stream  +1  Ax1/2
}

combat results table "Ford Crossing Combat Results Table" [rounding] dice 1d6 {
  odds  1:1  2:1  3:1
  1     A1   A1   D1
  2-3   A1   D1   D1
  4-6   D1   D1   D2
}

example "A ford is not cumulative with rough" [7.3] {
  map 1.01 - 6.06 clear
  hex 3.03 rough
  hexside 3.02/3.03 ford
  phasing first
  unit a first 8-2-4 at 3.02 type infantry
  unit b first 8-2-4 at 2.03 type infantry
  unit d second 2-2-4 at 3.03 type infantry
  expect combat a on 3.03 odds 2:1
  expect combat b on 3.03 odds 2:1
}
'''
SETTING = "  combat.hexside_combination = with-terrain\n"


def rulebook(combination: str = "most-restrictive", hexsides: str | None = "with-terrain") -> str:
    text = FORD.replace("COMBINATION", combination)
    if hexsides is None:
        return text.replace(SETTING, "")
    return text.replace(SETTING, f"  combat.hexside_combination = {hexsides}\n")


def module(text: str) -> dict[str, object]:
    text = text[:text.index('example "')]      # its worked example holds one setting's odds: see below
    compilation = rulesdsl.compile_text(text, "rulebooks/ford.rules")
    assert compilation.ok, [f"{d.span.line}: {d.message}" for d in compilation.diagnostics]
    namespace: dict[str, object] = {}
    exec(compile(str(compilation.outputs["generated/ford.py"]), "generated/ford.py", "exec"), namespace)
    return namespace


def across(*hexsides: str, attack: int = 8) -> AttackingHex:
    return AttackingHex((Unit("infantry", attack=attack),), "clear", hexsides)


def fight(mod: dict[str, object], terrain: str, *hexes: AttackingHex, roll: int = 4) -> object:
    resolve = mod["resolve_combat"]
    assert callable(resolve)
    return resolve(Combat(attacking_hexes=hexes, defenders=(Unit("infantry", defense=2),),
                          defender_terrain=terrain), roll)


def test_unset_the_ford_doubles_on_top_of_the_rough_hex():
    for text in (rulebook(hexsides=None), rulebook(hexsides="cumulative")):
        mod = module(text)
        quadrupled = fight(mod, "rough", across("ford"))
        assert (quadrupled.defense, quadrupled.odds, quadrupled.result.text) == (8, "1:1", "D1")
        assert "defense 2 x 2 for rough [7.3]" in quadrupled.derivation
        assert "defense 4 x 2 for ford (an attacker across) [7.3]" in quadrupled.derivation
        assert mod["defense_multiplier"]("rough", ("ford",)) == 4.0


def test_with_terrain_the_defender_is_doubled_once_and_the_derivation_says_why():
    mod = module(rulebook())
    doubled = fight(mod, "rough", across("ford"), roll=1)
    assert (doubled.defense, doubled.odds, doubled.column, doubled.result.text) == (4, "2:1", "2:1", "A1")
    assert ("defense 2 x 2 for rough and ford (an attacker across): ford x2 not cumulative with rough x2, the "
            "most restrictive applies: x2 [7.3] [7.3: combat.hexside_combination]") in doubled.derivation
    assert mod["defense_multiplier"]("rough", ("ford",)) == 2.0
    assert mod["odds"](8, 4) == "2:1"


def test_attackers_not_crossing_the_ford_read_the_rough_hex_alone():
    for text in (rulebook(), rulebook(hexsides=None)):
        mod = module(text)
        plain = fight(mod, "rough", across())
        assert (plain.defense, plain.odds) == (4, "2:1")
        assert "defense 2 x 2 for rough [7.3]" in plain.derivation
        assert fight(mod, "clear", across("ford")).defense == 4       # the ford alone doubles, as it did


def test_an_attacker_multiplier_combines_hex_by_hex():
    """Into marsh (Ax1/2): the hex across a stream (Ax1/2) is halved once with with-terrain, twice without;
    the hex crossing no stream is halved once either way."""
    combined = fight(module(rulebook()), "marsh", across("stream"), across())
    assert combined.attack == 8 and combined.odds == "4:1"                # 8 x 1/2 + 8 x 1/2 against 2
    assert any("hex 1: attack 8 x 1/2 for terrain (stream x1/2 not cumulative with marsh x1/2, the most "
               "restrictive applies: x1/2)" in step for step in combined.derivation), combined.derivation
    on_top = fight(module(rulebook(hexsides=None)), "marsh", across("stream"), across())
    assert on_top.attack == 6 and on_top.odds == "3:1"                    # 8 x 1/4 + 8 x 1/2
    assert module(rulebook())["attack_multiplier"]("marsh", ("stream",)) == 0.5


def test_defender_best_keeps_only_the_best_terrain_for_the_whole_combat():
    """A hill's 1L ranks above a ford's Dx2 for the defender: only the shift applies, with the ford combined."""
    best = fight(module(rulebook("defender-best")), "hill", across("ford"))
    # 4:1 is off the table: 3:1, then one column left
    assert (best.defense, best.odds, best.shift, best.column) == (2, "4:1", -1, "2:1")
    assert [(s.name, s.value, s.rules) for s in best.shifts] == [("terrain", -1, ("7.3",))]   # the hill's, as it is
    assert ("defense 2 x 1 for hill and ford (an attacker across): ford x2 not cumulative with hill, only the "
            "terrain best for the defender applies: x1 [7.3] [7.3: combat.hexside_combination]") in best.derivation
    on_top = fight(module(rulebook("defender-best", hexsides=None)), "hill", across("ford"))
    assert (on_top.defense, on_top.odds, on_top.shift, on_top.column) == (4, "2:1", -1, "1:1")


def test_a_cumulative_terrain_rule_adds_up_either_way():
    with_terrain = fight(module(rulebook("cumulative")), "rough", across("ford"))
    on_top = fight(module(rulebook("cumulative", hexsides=None)), "rough", across("ford"))
    assert with_terrain.defense == on_top.defense == 8 and with_terrain.derivation == on_top.derivation


def test_the_worked_example_holds_the_games_odds(project, capsys):
    project.write("rulebooks/ford.rules", rulebook())
    code, _, err = project.run("check", capsys=capsys)
    assert (code, err) == (0, ""), err
    unset = rulebook(hexsides=None)
    project.write("rulebooks/ford.rules", unset)     # quadrupled: the example fails
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    line = unset.splitlines().index("  expect combat a on 3.03 odds 2:1") + 1
    assert f"rulebooks/ford.rules:{line}:10: error: expected odds 2:1, computed odds 1:1" in err
    assert "expect combat b" not in err          # b crosses no ford: rough alone, 2:1 either way
    assert "defense 4 x 2 for ford (an attacker across)" in err


def test_the_card_states_the_rule_in_english_and_french(project):
    project.write("rulebooks/ford.rules", rulebook())
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    resolved, labels = compiled.resolved["ford"], compiled.labels
    english = render_html(card(resolved, "en", labels)[0])
    assert re.search(r'id="tec-combat-hexside-combination">A hexside crossed is not cumulative with the '
                     r"hex&#39;s terrain: each effect is the one most against the attacker <span class=\"cites\">"
                     r"\[7\.3\]", english)
    assert "Several terrains in one hex: each effect is the one most against the attacker" in english
    french = render_html(card(resolved, "fr", labels)[0])
    assert ("Un côté d&#39;hex franchi ne se cumule pas avec le terrain de l&#39;hex\u00a0: chaque effet est le "
            "plus défavorable à l&#39;attaquant") in french
    assert "Plusieurs terrains dans un hex\u00a0: chaque effet est le plus défavorable à l&#39;attaquant" in french
    assert "tec.combination" not in " ".join(card(resolved, "fr", labels)[0]["missing"])
    best = rulebook("defender-best")
    project.write("rulebooks/ford.rules", best)
    resolved = compile_project(project.root, examples=False, generate=False).resolved["ford"]
    assert "only the one best for the defender applies" in render_html(card(resolved, "en", labels)[0])
    project.write("rulebooks/ford.rules", rulebook(hexsides=None))
    resolved = compile_project(project.root, examples=False, generate=False).resolved["ford"]
    assert "A hexside crossed" not in render_html(card(resolved, "en", labels)[0])


def test_diff_reports_a_change_of_the_rule():
    old = parse(Source("a.rules", rulebook(hexsides=None)))
    new = parse(Source("b.rules", rulebook()))
    meaning = "How the combat effects of a hexside an attack crosses combine with the defender's hex terrain"
    changes = [str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(new))]
    assert changes == [f"added {meaning}: with-terrain"], changes
    back = parse(Source("c.rules", rulebook(hexsides="cumulative")))
    changes = [str(c) for c in diff.compare(diff.snapshot(new), diff.snapshot(back))]
    assert len(changes) == 1 and meaning in changes[0] and "with-terrain" in changes[0] \
        and "cumulative" in changes[0], changes


@pytest.mark.parametrize("text, message", [
    (rulebook(hexsides="not-cumulative"),
     "combat.hexside_combination takes one of cumulative, with-terrain, not 'not-cumulative'"),
    (rulebook().replace("  combat.terrain_combination = most-restrictive\n", ""),
     "combat.hexside_combination = with-terrain combines a hexside with the hex's terrain by "
     "combat.terrain_combination, which no rule sets"),
])
def test_a_bad_setting_is_a_positioned_error(project, capsys, text, message):
    project.write("rulebooks/ford.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "Traceback" not in err
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "combat.hexside_combination" in l)
    found = re.search(rf"rulebooks/ford\.rules:{line}:(\d+): error: (.*)", err)
    assert found is not None, err
    assert found.group(2) == message
