"""A hex of several terrains gives the same combat answer whatever the order in which its terrains are named:
the odds line a terrain-line table reads is the defender's most favourable, and a combination's tie (two
terrains equally good for the defender, DRMs of one size and both signs) takes the chart's first."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulesdsl.runtime import AttackingHex, Combat, Unit
from rulesdsl.runtime.terrain import COMBINATIONS, CombatEffect, Movement, Terrain, TerrainEffectsChart

LINES = '''game lines "Lines (a test title)" version "1.0"

rule 1.0 "Sequence of Play" {
  summary "Each side moves, then attacks."
}

sequence of play [1.0] {
  game turn {
    player turn red
    player turn blue
  }
  player turn {
    combat    [7.0]  combat
  }
}

rule 7.0 "Combat" {
  summary "Subtract the defense from the attack; of the defender's terrains, the one best for the defender applies, and its line."
  combat.below_table = AE
  combat.terrain_combination = defender-best
}

unit types [7.0] {
  infantry
}

terrain effects chart "Terrain" [7.0] {
  hex:
    clear   1  ne  line open
    forest  2  ne  line close
    town    1  1L  line close
}

result codes "Results" [7.0] {
  AE  attacker loses all
  AR  attacker retreats 1
  EX  exchange
  DR  defender retreats 1
  DE  defender loses all
}

combat results table "Combat Results" [7.0] dice 1d6 {
  difference open   -3..-2  -1..0   +1..+2  +3..+4  +5..+6  +7..
  difference close  -1..0   +1..+2  +3..+4  +5..+6  +7..+8  +9..
  1                 AR      AR      DR      DR      DE      DE
  2                 AR      EX      DR      DR      DR      DE
  3                 AE      AR      EX      DR      DR      DE
  4                 AE      AR      AR      EX      DR      DR
  5                 AE      AE      AR      AR      EX      DR
  6                 AE      AE      AE      AR      AR      DR
}
'''


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    from conftest import Project
    from rulesdsl.cli import main
    project = Project(tmp_path_factory.mktemp("lines"))
    project.write("rulebooks/lines.rules", LINES)
    assert main(["--project", str(project.root), "build"]) == 0
    return project.module("lines")


def _combat(terrain: tuple[str, ...], attack: int = 7, defense: int = 3) -> Combat:
    return Combat(attacking_hexes=(AttackingHex(units=(Unit(type="infantry", attack=attack),)),),
                  defenders=(Unit(type="infantry", defense=defense),), defender_terrain=terrain)


def test_clear_and_forest_read_the_defenders_line_in_either_order(lines):
    """The defect: clear + forest read clear's open line (difference +4 on column +3..+4, roll 4: EX), forest +
    clear forest's close line (the same column one place further left: AR).  Both are the close line now."""
    for terrain in itertools.permutations(("clear", "forest")):
        resolution = lines.resolve_combat(_combat(terrain), 4)
        assert (resolution.column, resolution.result.text) == ("+3..+4", "AR"), terrain
        assert any("odds line close" in step and "most favourable" in step for step in resolution.explain())


@pytest.mark.parametrize("attack", range(2, 16))
def test_every_order_of_the_terrains_gives_one_answer(lines, attack):
    for names in (("clear", "forest"), ("clear", "town"), ("forest", "town"), ("clear", "forest", "town")):
        answers = set()
        for terrain in itertools.permutations(names):
            for roll in range(1, 7):
                resolution = lines.resolve_combat(_combat(terrain, attack), roll)
                answers.add((roll, resolution.column, resolution.result.text, resolution.shift))
        assert len(answers) == 6, (names, attack, sorted(answers))


def _row(name: str, **combat: object) -> Terrain:
    return Terrain(name, "hex", Movement("cost", Fraction(1)), CombatEffect("multiply", **combat))  # type: ignore[arg-type]


def test_a_combination_of_tied_terrains_does_not_depend_on_their_order():
    """Two terrains equally good for the defender but for their DRMs' signs, a third with the same DRM size:
    defender-best and most-restrictive pick by the chart's order, not the caller's."""
    chart = TerrainEffectsChart((_row("marsh", drm=1), _row("scrub", drm=-1), _row("dunes", drm=-1, shift=0)))
    for combination in COMBINATIONS:
        effects = {chart.hex_effect(order, combination) for order in itertools.permutations(("marsh", "scrub", "dunes"))}
        assert len(effects) == 1, (combination, effects)
        crossing = {TerrainEffectsChart(chart.rows).hex_effect_across(order, (), combination)
                    for order in itertools.permutations(("scrub", "marsh"))}
        assert len(crossing) == 1, (combination, crossing)
