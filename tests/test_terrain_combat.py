"""The Terrain Effects Chart's combat column drives the combat engine: its shifts, multipliers
and prohibitions apply with no `column shifts` line, a hex may hold several terrains combined
by the rulebook's declared rule, and a shift restated in `column shifts` is an error."""
from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.runtime import AttackingHex, Combat, RulesInputError, Unit

GAME = '''\
series skirmish "A classic game of its own" version "1.0"

section combat "Combat" {
  summary "Odds are attack over defense, rounded down in the defender's favour."
}

rule 7.3 "Terrain in combat" {
  summary "Forest and fortification each shift one column left."
  combat.terrain_combination = COMBINATION
}

rounding defender: down [combat]

unit types [combat] {
  infantry  foot
}

terrain effects chart "TEC" [7.3] {
  hex:
    clear          1   ne
    forest         2   1L
    fortification  1   1L
    marsh          3   Dx2
    lake           P   P
}

combat results table "CRT" [combat] dice 1d6 {
  odds   1:1   2:1   3:1   4:1
  1-3    A1    -     D1    D1
  4-6    -     D1    D1    D2
}
'''


def module(combination: str = "cumulative") -> dict[str, object]:
    compilation = rulesdsl.compile_text(GAME.replace("COMBINATION", combination), "rulebooks/skirmish.rules")
    assert compilation.ok, [f"{d.span.line}: {d.message}" for d in compilation.diagnostics]
    namespace: dict[str, object] = {}
    exec(compile(str(compilation.outputs["generated/skirmish.py"]), "generated/skirmish.py", "exec"), namespace)
    return namespace


def combat(terrain: str | tuple[str, ...], attack: int = 4) -> Combat:
    return Combat(attacking_hexes=(AttackingHex((Unit("infantry", attack=attack),)),),
                  defenders=(Unit("infantry", defense=1),), defender_terrain=terrain)


def resolve(mod: dict[str, object], terrain: str | tuple[str, ...], roll: int = 4, attack: int = 4) -> object:
    function = mod["resolve_combat"]
    assert callable(function)
    return function(combat(terrain, attack), roll)


def test_the_tec_shift_applies_without_a_column_shifts_line_and_cites_the_tec():
    mod = module()
    clear, forest = resolve(mod, "clear"), resolve(mod, "forest")
    assert clear.column == "4:1" and clear.shift == 0 and clear.shifts == ()
    assert forest.column == "3:1" and forest.shift == -1
    assert [(s.name, s.value, s.rules) for s in forest.shifts] == [("terrain", -1, ("7.3",))]
    assert "column shift terrain: -1 [7.3]" in forest.derivation
    column_shifts = mod["column_shifts"]
    assert callable(column_shifts)
    assert column_shifts(combat("fortification"))[0] == -1


@pytest.mark.parametrize("combination, shift, column", [
    ("cumulative", -2, "2:1"), ("most-restrictive", -1, "3:1"), ("defender-best", -1, "3:1")])
def test_forest_and_fortification_combine_by_the_declared_rule(combination, shift, column):
    resolution = resolve(module(combination), ("forest", "fortification"))
    assert resolution.shift == shift and resolution.column == column
    assert [s.rules for s in resolution.shifts] == [("7.3",)]


def test_multipliers_and_prohibitions_combine_too():
    cumulative = resolve(module("cumulative"), ("forest", "marsh"), attack=8)
    assert cumulative.defense == 2 and cumulative.shift == -1 and cumulative.column == "3:1"   # 8:2 = 4:1, one left
    best = resolve(module("defender-best"), ("forest", "marsh"), attack=8)
    assert best.defense == 1 and best.shift == -1            # forest's shift beats marsh's doubling: forest alone
    restrictive = resolve(module("most-restrictive"), ("forest", "marsh"), attack=8)
    assert restrictive.defense == 2 and restrictive.shift == -1
    barred = resolve(module("most-restrictive"), ("forest", "lake"))     # an answer, not a bad input
    assert barred.result.not_allowed and barred.result.text == "not allowed" and barred.odds == "-"
    assert barred.refused == "attacking from hex 1 into forest + lake is prohibited"


def test_several_terrains_need_a_declared_rule_and_known_names():
    text = GAME.replace("  combat.terrain_combination = COMBINATION\n", "")
    compilation = rulesdsl.compile_text(text, "rulebooks/skirmish.rules")
    assert compilation.ok
    namespace: dict[str, object] = {}
    exec(compile(str(compilation.outputs["generated/skirmish.py"]), "generated/skirmish.py", "exec"), namespace)
    assert resolve(namespace, "forest").shift == -1
    with pytest.raises(RulesInputError, match="terrain_combination"):
        resolve(namespace, ("forest", "fortification"))
    with pytest.raises(RulesInputError, match="did you mean 'forest'"):
        resolve(module(), ("forrest", "fortification"))


def test_an_unknown_combination_is_a_positioned_error():
    compilation = rulesdsl.compile_text(GAME.replace("COMBINATION", "additive"), "rulebooks/skirmish.rules")
    assert not compilation.ok
    problem = compilation.diagnostics[0]
    assert "cumulative" in problem.message + (problem.hint or "") and problem.span.line == 9


def test_restating_the_tec_shift_in_column_shifts_is_an_error():
    text = GAME.replace("COMBINATION", "cumulative") + (
        "\ncolumn shifts [combat] {\n  terrain  defender_terrain.shift\n"
        "  sappers  1 max 1 when defender_terrain.shift < 0\n}\n")
    compilation = rulesdsl.compile_text(text, "rulebooks/skirmish.rules")
    assert not compilation.ok
    [problem] = compilation.diagnostics
    assert "apply it twice" in problem.message
    assert (problem.span.line, problem.span.column) == (text.splitlines().index("  terrain  defender_terrain.shift") + 1, 12)


def test_a_misspelled_terrain_in_an_expression_is_a_positioned_error_with_a_suggestion():
    text = GAME.replace("COMBINATION", "cumulative") + (
        "\ncolumn shifts [combat] {\n  sappers  1 max 1 when defender_terrain is forrest\n}\n")
    compilation = rulesdsl.compile_text(text, "rulebooks/skirmish.rules")
    assert not compilation.ok
    [problem] = compilation.diagnostics
    assert "forrest" in problem.message and "forest" in (problem.hint or "")


@pytest.mark.parametrize("table, wrong, right", [
    ("table cover \"Cover\" [combat] {\n  terrain  clear  forrest\n  cover    0      1\n}\n", "forrest", "forest"),
    ("table cover \"Cover\" [combat] {\n  die/terrain  clear  forest\n  1-3          0      1\n"
     "  4-6          0      fortfication\n}\n", None, None),
    ("table cover \"Cover\" [combat] {\n  terrain/die  1-3  4-6\n  clear        0    0\n"
     "  fortfication 1    2\n}\n", "fortfication", "fortification"),
])
def test_a_table_keyed_by_terrain_is_checked_against_the_tec(table, wrong, right):
    text = GAME.replace("COMBINATION", "cumulative") + "\n" + table
    compilation = rulesdsl.compile_text(text, "rulebooks/skirmish.rules")
    if wrong is None:   # values are not keys: only the labels name terrains
        assert compilation.ok, [d.message for d in compilation.diagnostics]
        return
    assert not compilation.ok
    [problem] = compilation.diagnostics
    assert f"terrain '{wrong}'" in problem.message and right in (problem.hint or "")
    line = text.splitlines()[problem.span.line - 1]
    assert line[problem.span.column - 1:].startswith(wrong)
    fixed = rulesdsl.compile_text(text.replace(wrong, right), "rulebooks/skirmish.rules")
    assert fixed.ok


def test_a_hexside_is_not_hex_terrain_and_hex_terrain_is_not_a_hexside():
    """A caller who swaps the two gets an error naming the mistake, not a column shifted by a river."""
    from generated import bocage
    from rulesdsl.runtime import AttackingHex, Combat, Unit
    from rulesdsl.runtime.combat import RulesInputError
    attack = (AttackingHex((Unit("infantry", attack=6),), "open"),)
    with pytest.raises(RulesInputError, match="'river' is a hexside feature"):
        bocage.resolve_combat(Combat(attack, (Unit("infantry", defense=2),), "river"), 7)
    with pytest.raises(ValueError, match="'river' is a hexside feature"):
        bocage.entry_cost("river")
    with pytest.raises(ValueError, match="'woods' is hex terrain, not a hexside"):
        bocage.entry_cost("open", ("woods",))
    # one hexside given as a name alone is that hexside, not its letters
    assert AttackingHex((), "open", "stream").hexsides == ("stream",)
