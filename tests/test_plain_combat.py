"""resolve_combat's short way for plain combats (issue 24, runtime speed).

A rulebook whose combat reads only units and terrain (strength factors that read the unit's type and states,
DRMs and column shifts that read the defender's terrain, no adjustments, exchanges or supply floors, one odds
table) gets `PLAIN_COMBATS = _rt.PlainCombats(ENGINE)` in its module, and resolve_combat asks it first: what
the names decide is worked out once through the engine, and a combat costs its units' arithmetic, in whole
numbers.  Every other combat, and every error, is the engine's.  The two must give the same Resolution, field
by field (types too), the same derivation and the same exceptions: checked here on a small rulebook with
every effect the short way covers, on one it must not take, and on the shipped modules."""
from __future__ import annotations

import random
from dataclasses import fields
from fractions import Fraction

import pytest

import rulesdsl
from rulesdsl.modules import codegen
from rulesdsl.runtime import AttackingHex, Combat, Resolution, Unit

PLAIN = '''\
game plain "Plain Combat (a test title)" version "0.1"

rounding standard: .50 up, keep fractions [rounding]

section rounding "Rounding" {
  summary "Odds are attack over defense, rounded from a half up."
}

rule 1.0 "Sequence of Play" {
  summary "Each game turn, each side moves, then fights."
}

rule 7.0 "Combat" {
  summary "Attacks below 1:2 are A1; dug-in units defend doubled, out-of-supply units attack halved."
  combat.below_table = A1
  combat.above_table = rightmost
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
  infantry  foot
  armor     tracked
  engineer  foot
}

unit states [7.0]: out-of-supply, dug-in

terrain effects chart "Plain Terrain Effects Chart" [7.0] {
  hex:
    clear   1  ne
    woods   2  Dx2
    town    1  Dx3/2 1L
    hill    2  -1
    marsh   3  Ax1/2
  hexside:
    stream  +1  Ax1/2
    ridge   +1  1L all-across
    wall    +1  Dx2
    river   P   P
    bridge  negates river  Ax1/4
}

combat results table "Plain Combat Results Table" [7.0] dice 2d6 {
  odds  1:2   1:1   2:1   3:1   4:1
  2-3   A2    A1    A1    D1    D1
  4-6   A1    A1    D1    D1    D2
  7-9   A1    D1    D1    D2    D2r1
  10-12 D1    D1    D2    D2r1  D3r2
}

strength factors "Factors" [7.0] {
  supply-attack  attack   1/2 when out-of-supply
  tracked-woods  attack   3/4 when tracked and out-of-supply
  dug-in         defense  2 when dug-in
}

die roll modifiers "Modifiers" [7.0] {
  town-walls  -1  both  when defender_terrain is town
  high-ground -2  both  when defender_terrain.level > 0 or defender_terrain is hill
}

column shifts "Shifts" [7.0] {
  open-ground  1 max 1 when defender_terrain is clear
}
'''


def module(text: str) -> dict[str, object]:
    compilation = rulesdsl.compile_text(text, "rulebooks/plain.rules")
    assert compilation.ok, [f"{d.span.line}: {d.message}" for d in compilation.diagnostics]
    source = str(compilation.outputs["generated/plain.py"])
    namespace: dict[str, object] = {"__source__": source}
    exec(compile(source, "generated/plain.py", "exec"), namespace)
    return namespace


def outcome(call):
    """What a call gives: every field of its Resolution (the explanation by its text), or its exception."""
    try:
        answer = call()
    except Exception as exc:        # noqa: BLE001 - the exception is the answer compared
        return ("raises", type(exc), str(exc))
    assert isinstance(answer, Resolution)
    return ("answers", tuple((f.name, getattr(answer, f.name), type(getattr(answer, f.name)))
                             for f in fields(Resolution) if f.name != "explain"), answer.derivation)


def combats(mod: dict[str, object], seed: int, count: int, odd: float) -> list[tuple[Combat, object]]:
    """Random combats on the module's chart and vocabulary; with probability `odd`, something the engine
    refuses or the short way leaves to it (an unknown name, a bool strength, a list, a bad roll, an overrun)."""
    rnd = random.Random(seed)
    terrain = mod["TERRAIN"]
    vocabulary = mod["VOCABULARY"]
    hexes = [r.name for r in terrain.rows if r.kind == "hex"]
    sides = [r.name for r in terrain.rows if r.kind == "hexside"]
    types = list(vocabulary.unit_types)
    states = sorted(vocabulary.states)
    strange = [True, float("inf"), "3", -1, Fraction(5, 2), 2.5, 0.1, None]

    def maybe(usual, *odd_ones):
        return rnd.choice(odd_ones) if rnd.random() < odd else usual

    def number():
        return maybe(rnd.randint(0, 12), *strange)

    def unit() -> Unit:
        held = tuple(rnd.sample(states, rnd.randint(0, len(states))))
        return Unit(maybe(rnd.choice(types), "tank", "stream"), attack=number(), defense=number(),
                    quality=maybe(0, *strange), steps=maybe(1, *strange),
                    states=maybe(frozenset(held) if rnd.random() < 0.5 else held, ("tired",), list(held)))

    made = []
    for _ in range(count):
        attacking = tuple(AttackingHex(tuple(unit() for _ in range(rnd.randint(0, 3))),
                                       maybe("", rnd.choice(hexes), "lake"),
                                       tuple(rnd.sample(sides, rnd.randint(0, 2))) if rnd.random() < 0.5 else ())
                          for _ in range(rnd.randint(1, 3)))
        combat = Combat(attacking, tuple(unit() for _ in range(rnd.randint(1, 3))),
                        maybe(rnd.choice(hexes), "lake", "stream", ("clear", "woods")),
                        overrun=maybe(False, True), forced=maybe(False, True), dice=maybe((), (3, 4)))
        made.append((combat, maybe(rnd.randint(2, 12), 1, 13, True, (3, 4), 7.0)))
    return made


def test_a_plain_rulebook_takes_the_short_way_and_names_it_in_its_module():
    mod = module(PLAIN)
    assert "PLAIN_COMBATS = _rt.PlainCombats(ENGINE)" in mod["__source__"]
    assert "return PLAIN_COMBATS.resolve(combat, roll) or ENGINE.resolve(combat, roll)" in mod["__source__"]
    combat = Combat((AttackingHex((Unit("armor", attack=6, states=("out-of-supply",)), Unit("infantry", attack=5))),),
                    (Unit("infantry", defense=2, states=frozenset({"dug-in"})),), "town")
    short = mod["PLAIN_COMBATS"].resolve(combat, 7)
    assert short is not None
    # 6 x 1/2 x 3/4 + 5 = 29/4 against 2 x 2 dug in x 3/2 for the town = 6: 1:1, one left for the town, -1
    assert (short.attack, short.defense, short.odds, short.shift, short.column, short.drm, short.result.text) == (
        Fraction(29, 4), 6, "1:1", -1, "1:2", (-1, -1), "A1")
    full = mod["ENGINE"].resolve(combat, 7)
    assert outcome(lambda: short) == outcome(lambda: full)
    assert "armor attack 6 x 1/2 for supply-attack [7.0]" in short.derivation     # the engine's steps
    assert {f.name for f in fields(Resolution)} <= set(vars(short))   # every field set, as __init__ would


# the same rulebook with terrain counted for the whole attack (each hex takes the least favourable
# multiplier) and with shifts applied to the odds before the table's limits
WHOLE_ATTACK = PLAIN.replace("  combat.above_table = rightmost\n",
                             "  combat.above_table = rightmost\n  combat.terrain_per_unit = no\n")
BEFORE_LIMITS = PLAIN.replace("  combat.above_table = rightmost\n",
                              "  combat.above_table = rightmost\n  combat.imaginary_columns = yes\n")


@pytest.mark.parametrize("text", [PLAIN, WHOLE_ATTACK, BEFORE_LIMITS], ids=["plain", "whole-attack", "before-limits"])
@pytest.mark.parametrize("odd", [0.0, 0.03, 0.2])
def test_the_short_way_answers_as_the_engine_does_field_by_field(text, odd):
    mod = module(text)
    plain, engine, resolve = mod["PLAIN_COMBATS"], mod["ENGINE"], mod["resolve_combat"]
    assert (engine.terrain_per_unit, engine.shifts_before_limits) == (text is not WHOLE_ATTACK, text is BEFORE_LIMITS)
    short = 0
    for combat, roll in combats(mod, seed=int(odd * 100) + 24, count=1500, odd=odd):
        expected = outcome(lambda: engine.resolve(combat, roll))
        assert outcome(lambda: resolve(combat, roll)) == expected, (combat, roll)
        short += plain.resolve(combat, roll) is not None
        assert outcome(lambda: resolve(combat, roll)) == expected, (combat, roll)    # from the caches
    # the short way did answer (not for rivers, attacks off the table, nor anything odd)
    assert short > {0.0: 400, 0.03: 100, 0.2: 0}[odd], short


def test_a_rulebook_that_reads_more_than_units_and_terrain_keeps_the_engine():
    reads_attackers = PLAIN.replace("when defender_terrain is town", "when count(attackers) >= 3")
    for text in (reads_attackers,
                 PLAIN.replace("dug-in         defense  2 when dug-in", "dug-in  defense  2 when defense > 2"),
                 PLAIN.replace("open-ground  1 max 1 when defender_terrain is clear", "open-ground  1 max 1 when overrun")):
        mod = module(text)
        assert "PLAIN_COMBATS" not in mod and "return ENGINE.resolve(combat, roll)" in mod["__source__"]
    mod = module(reads_attackers)
    crowd = Combat((AttackingHex((Unit("infantry", attack=2),) * 3),), (Unit("infantry", defense=2),), "clear")
    answer = mod["resolve_combat"](crowd, 7)
    assert ([m.name for m in answer.modifiers], answer.drm) == (["town-walls"], (-1, -1))   # three attackers
    assert outcome(lambda: answer) == outcome(lambda: mod["ENGINE"].resolve(crowd, 7))


@pytest.mark.parametrize(("python", "unit", "terrain", "plain"), [
    ("ctx.defender_terrain.has('village')", False, True, True),
    ("((ctx.defender_terrain.shift < 0) and (PARAMETERS['combat.x'].number > 1))", False, True, True),
    ("ctx.defender_terrain.has('village')", False, False, False),
    ("_rt.count_where(ctx.defenders, None) >= 3", False, True, False),
    ("ctx.situation('rubble')", False, True, False),
    ("_def_ambush(ctx)", False, True, False),
    ("(u1.is_('dg') and (not u1.is_('out-of-supply')))", True, False, True),
    ("(u1.quality > 2)", True, False, False),
    ("_rt.any_where(ctx.attackers, lambda u1: u1.is_('engineer'))", True, True, False),
    ("_rt.divide(3, 2)", False, False, True),
])
def test_what_a_plain_expression_may_read(python, unit, terrain, plain):
    assert codegen._reads_only(python, unit=unit, terrain=terrain) is plain


def test_the_shipped_modules_that_are_plain_take_the_short_way_with_the_same_answers():
    from generated import bocage, corridor, new_scs, ridgeline, scs_1_8, vcs
    for mod in (corridor, new_scs, ridgeline, vcs):
        assert not hasattr(mod, "PLAIN_COMBATS"), mod.__name__
    for mod in (bocage, scs_1_8):
        namespace = vars(mod)
        short = 0
        for combat, roll in combats(namespace, seed=7, count=600, odd=0.02):
            expected = outcome(lambda: mod.ENGINE.resolve(combat, roll))
            assert outcome(lambda: mod.resolve_combat(combat, roll)) == expected, (mod.__name__, combat, roll)
            short += mod.PLAIN_COMBATS.resolve(combat, roll) is not None
        assert short > 50, (mod.__name__, short)
