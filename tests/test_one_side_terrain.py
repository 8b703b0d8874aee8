"""A Terrain Effects Chart cell for one side only (issue 21): `fort  1  1L defending allies`.

A classic game whose forts shelter only one side's defenders is written as it is printed: no made-up unit
type carries the side, the TEC says it, the card prints it, and the combat engine reads the sides fighting."""
from __future__ import annotations

import dataclasses

import pytest

from rulesdsl.errata import diff
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.model import ir
from rulesdsl.runtime import AttackingHex, Combat, Unit
from rulesdsl.runtime.combat import RulesInputError

FORTRESS = '''# A classic two-player game: the Allies' forts shelter only Allied defenders.
game fortress "Fortress Line" version "0.1"

rounding standard: .50 up, keep fractions [rounding]

section rounding "Rounding" {
  summary "Odds are rounded: a fraction of one half or more rounds up, a smaller one down."
}

rule 1.0 "Sequence of Play" {
  summary "Each game turn, the Axis moves and fights, then the Allies."
}

rule 2.0 "Forts" {
  summary "A fort shifts the column one left when Allied units defend in it; Axis units there get nothing from it. Axis attackers across the canal are halved."
}

sequence of play [1.0] {
  game turn {
    player turn axis
    player turn allies
  }
  player turn {
    movement  [1.0]  movement
    combat    [1.0]  combat
  }
}

unit types [1.0] {
  infantry  foot
}

terrain effects chart "Fortress Line Terrain Effects Chart" [1.0 2.0] {
  hex:
    clear  1  ne
    fort   1  1L defending allies
  hexside:
    canal  +1  Ax1/2 attacking axis
}

combat results table "Fortress Line Combat Results Table" [rounding] dice 1d6 {
  odds  1:1  2:1  3:1
  1     A1   A1   D1
  2-3   A1   D1   D1
  4-6   D1   D1   D2
}

example "A fort helps the Allies only" [2.0] {
  map 1.01 - 6.06 clear
  hex 3.03 fort
  hex 5.03 fort
  hexside 4.05/5.05 canal
  hexside 4.06/5.06 canal
  phasing axis
  unit a axis 6-2-4 at 2.03 type infantry
  unit d allies 2-2-4 at 3.03 type infantry
  unit b allies 6-2-4 at 4.02 type infantry
  unit e axis 2-2-4 at 5.03 type infantry
  unit c axis 4-2-4 at 4.05 type infantry
  unit g allies 2-2-4 at 5.05 type infantry
  unit h allies 4-2-4 at 4.06 type infantry
  unit k axis 2-2-4 at 5.06 type infantry
  expect combat a on 3.03 odds 3:1 column 2:1
  expect combat b on 5.03 odds 3:1 column 3:1
  expect combat c on 5.05 odds 1:1
  expect combat h on 5.06 odds 2:1
}
'''


def test_the_cell_reads_as_its_side_and_role():
    book = parse(Source("fortress.rules", FORTRESS))
    fort, canal = (row for row in book.terrain[0].rows if row.name.value in ("fort", "canal"))
    assert (fort.combat.shift, fort.combat.only.role, fort.combat.only.side.value) == (-1, ir.OnlyRole.DEFENDING,
                                                                                     "allies")
    assert (canal.combat.attacker, canal.combat.only.role, canal.combat.only.side.value) == (
        1 / 2, ir.OnlyRole.ATTACKING, "axis")


def test_the_examples_check_and_the_module_reads_the_sides(project, capsys, tmp_path):
    project.write("rulebooks/fortress.rules", FORTRESS)
    code, out, err = project.run("check", capsys=capsys)
    assert (code, err) == (0, ""), err
    from rulesdsl.modules.codegen import generate
    from rulesdsl.modules.modcheck import load_module
    from rulesdsl.project.build import compile_project
    resolved = compile_project(project.root, examples=False, generate=False).resolved["fortress"]
    module, why = load_module("fortress_test", generate(resolved))
    assert why is None
    combat = Combat(attacking_hexes=(AttackingHex((Unit("infantry", attack=6),), "clear"),),
                    defenders=(Unit("infantry", defense=2),), defender_terrain="fort")
    with pytest.raises(RulesInputError, match="fort.*only when allies is defending: the combat must say which side"):
        module.resolve_combat(combat, 3)
    allied = module.resolve_combat(dataclasses.replace(combat, attacker_side="axis", defender_side="allies"), 3)
    axis = module.resolve_combat(dataclasses.replace(combat, attacker_side="allies", defender_side="axis"), 3)
    assert (allied.odds, allied.column, axis.column) == ("3:1", "2:1", "3:1")
    assert module.attack_multiplier("clear", ("canal",), attacker_side="axis", defender_side="allies") == 0.5
    assert module.attack_multiplier("clear", ("canal",), attacker_side="allies", defender_side="axis") == 1


def test_the_card_prints_the_side_in_each_language(project, capsys):
    project.write("rulebooks/fortress.rules", FORTRESS.replace('version "0.1"', 'version "0.1"\n\nlabels fr "Français" {\n  player-turn.allies  "Alliés"\n}'))
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    resolved, labels = compiled.resolved["fortress"], compiled.labels
    english = render_html(card(resolved, "en", labels)[0])
    assert "1L (only with Allies defending)" in english and "Ax½ (only with Axis attacking)" in english
    french = render_html(card(resolved, "fr", labels)[0])
    assert "seulement pour Alliés en défense" in french


def test_an_unknown_side_is_an_error_with_the_sides_named(project, capsys):
    project.write("rulebooks/fortress.rules", FORTRESS.replace("1L defending allies", "1L defending alies"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "error: terrain 'fort' is for side 'alies', which the sequence of play does not name" in err
    assert "did you mean 'allies'?" in err


def test_diff_sees_a_change_of_side(tmp_path):
    old = parse(Source("a.rules", FORTRESS))
    new = parse(Source("b.rules", FORTRESS.replace("1L defending allies", "1L defending axis")))
    changes = diff.compare(diff.snapshot(old), diff.snapshot(new))
    assert any("fort" in str(c) and "axis" in str(c) for c in changes), changes
