"""Who takes a side's step losses (SCS 8.0, New SCS's first loss): the engine's `losses`, the `expect losses`
line that asks it, and the `first-loss` question a rule's effect names."""
from __future__ import annotations

import pytest

from generated import new_scs, scs_1_8
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.situation import Counter, Situation
from tests.test_engine_eligibility import engine

H = Hex.parse


def _side(*units: Counter, terrain: dict[Hex, tuple[str, ...]] | None = None) -> Situation:
    return Situation(HexMap.rectangle(9, 9), default_terrain=("open",), terrain=terrain or {}, units=units,
                     phasing="friendly", phase="combat")


def _unit(name: str, side: str, hex: str, attack: int, defense: int, *, kind: str = "infantry",
          steps: int = 2, can: frozenset[str] = frozenset()) -> Counter:
    return Counter(name, side, H(hex), attack=attack, defense=defense, movement=5, type=kind, steps=steps,
                   capabilities=can)


def test_scs_takes_the_first_step_from_the_strongest_by_printed_strength_and_spreads_the_rest():
    a, b, c = _unit("a", "friendly", "2.02", 7, 3), _unit("b", "friendly", "2.02", 3, 5), \
        _unit("c", "friendly", "2.03", 3, 5)
    situation = _side(a, b, c)
    attacking = engine(scs_1_8).losses(situation, ["a", "b", "c"], 2, attacking=True)
    assert (attacking.first, attacking.chooser, attacking.then, attacking.lost) == (("a",), "rules", ("b", "c"), 2)
    defending = engine(scs_1_8).losses(situation, ["a", "b", "c"], 2, attacking=False)
    assert (defending.first, defending.chooser) == (("b", "c"), "owner")     # a tie: the owner picks
    assert set(defending.then) == {"a", "b", "c"}      # whichever took the first, the other two are left
    too_many = engine(scs_1_8).losses(situation, ["a"], 5, attacking=True)
    assert too_many.lost == 2 and any("ignored" in s.text for s in too_many.steps)
    unspread = engine(scs_1_8, steps__spread_before_second=False).losses(situation, ["a", "b"], 2, attacking=True)
    assert set(unspread.then) == {"a", "b"}     # a may take the second too


def test_new_scs_enemy_may_not_pick_armor_first_unless_the_terrain_shifts_or_it_brought_anti_tank():
    tank = _unit("t", "enemy", "2.03", 4, 4, kind="tank", can=frozenset({"armored", "tank"}))
    rifles = _unit("i", "enemy", "2.03", 2, 3, can=frozenset({"soft"}))
    foot = _unit("e", "friendly", "2.04", 3, 3, can=frozenset({"soft"}))
    gun = _unit("g", "friendly", "2.04", 2, 2, kind="anti-tank", can=frozenset({"anti-tank", "soft"}))
    rules = engine(new_scs)
    open_ = rules.losses(_side(tank, rifles, foot), ["t", "i"], 2, attacking=False, enemies=["e"])
    assert (open_.first, open_.chooser, open_.then) == (("i",), "enemy", ("t",))
    assert any("rule 8.0a: unit t may not be picked" in s.text for s in open_.steps)
    woods = rules.losses(_side(tank, rifles, foot, terrain={H("2.03"): ("woods",)}), ["t", "i"], 2,
                         attacking=False, enemies=["e"])
    assert set(woods.first) == {"t", "i"}
    guns = rules.losses(_side(tank, rifles, gun), ["t", "i"], 2, attacking=False, enemies=["g"])
    assert set(guns.first) == {"t", "i"}
    alone = rules.losses(_side(tank, foot), ["t"], 1, attacking=False, enemies=["e"])
    assert alone.first == ("t",)      # every unit barred: armor is picked all the same


LINE = '''game lx "Losses" version "1" extends scs-1.8

rule G1 "Stacking" {{
  summary "Three steps a hex."
  stacking.limit = 3 steps
}}

example "L" [8.0a] {{
  map 1.01 - 5.05 open
  phase combat
  phasing friendly
  unit a friendly 7-3-5 at 2.02 steps 2 type infantry
  unit b friendly 3-5-5 at 2.02 steps 2 type infantry
  unit e enemy 2-3-5 at 2.03 steps 2 type infantry
  expect {line}
}}
'''


def test_an_expect_losses_line_holds_and_a_wrong_one_says_what_the_rules_answer(project, capsys):
    project.write("rulebooks/lx.rules", LINE.format(line="losses a b 2 attacking from e first a by rules then b"))
    code, out, err = project.run("check", capsys=capsys)
    assert code == 0, out + err
    project.write("rulebooks/lx.rules", LINE.format(line="losses a b 2 attacking from e first b"))
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/lx.rules:15:10: error: expected first b, computed first a by rules then b by owner " \
        "lost 2" in out + err, out + err


@pytest.mark.parametrize("line, message, column", [
    ("losses a b 20 attacking first a", "a loss of 20 steps is more than the 12 a result takes", 10),
    ("losses a b 2 attacking first z", "no unit 'z' in this situation", 39),
    ("losses a b 2 first a", "unexpected 'first'", 23),
    ("losses a b 2 attacking by someone", "unexpected 'someone'; expected who picks (rules, owner or enemy)", 36),
])
def test_a_misused_losses_line_is_a_positioned_error(project, capsys, line, message, column):
    project.write("rulebooks/lx.rules", LINE.format(line=line))
    code, out, err = project.run("check", capsys=capsys)
    assert code == 1 and f"rulebooks/lx.rules:15:{column}: error: {message}" in out + err, out + err


def test_a_losses_line_round_trips_through_fmt():
    from rulesdsl.language.fmt import format_text
    text = LINE.format(line="losses   a b 2 attacking  from e  first a  by rules  then b  lost 2")
    formatted = format_text(text)
    assert "  expect losses a b 2 attacking from e first a by rules then b lost 2\n" in formatted
    assert format_text(formatted) == formatted
