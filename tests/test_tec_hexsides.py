"""Hexside effects and die roll modifiers in the Terrain Effects Chart's combat column.

A classic game of its own (no series): a 1d6 CRT with declared DE/DR/DRL/EX/NE/AL codes and no
attacks below 1:1, two sides with their own player turns, forest and fortification that shift one
column left, and a river that shifts one column left only when every attacking hex attacks across it
(`1L all-across`).  Rough ground and swamp give a DRM (`-1`, `-2`), a stream a DRM whenever any
attacker crosses it.  The engine applies all of it and cites the TEC; the card prints it in English
and French; fmt keeps it; diff sees a change to it; a malformed cell is a positioned error.
"""
from __future__ import annotations

import importlib.util
import re
import sys

import pytest

import rulesdsl
from rulesdsl.errata.diff import compare, snapshot
from rulesdsl.language.fmt import format_text
from rulesdsl.project.build import add_charts
from rulesdsl.runtime import AttackingHex, Combat, Unit
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

CLASSIC = '''\
game classic "A Classic Game" version "1.0"

rounding standard: down, odds favour defender [7.0]

rule 7.0 "Combat" {
  summary "Odds are attack over defense, rounded down; attacks below 1:1 are not allowed."
  combat.below_table = NA
  combat.above_table = rightmost
}

rule 7.3 "Terrain in combat" {
  summary "Forest and fortification shift one column left; a river only when every attacker is across it."
  combat.terrain_combination = cumulative
}

unit types [7.0] {
  infantry  infantry
  armor     armored
}

sequence of play {
  game turn {
    player turn german
    player turn soviet
  }
  player turn german {
    replacements         replacement
    movement             movement
    combat               [7.0]  combat
    mechanized-movement  movement  "armored units only"
  }
  player turn soviet {
    replacements   replacement
    rail-movement  strategic-movement
    movement       movement
    combat         [7.0]  combat
  }
}

terrain effects chart "Terrain Effects Chart" [7.3] {
  hex:
    clear          1   ne
    forest         2   1L
    fortification  1   1L
    rough          3   -1
    swamp          3   -2
  hexside:
    river          +1  1L all-across
    stream         +1  -1
    bridge         negates river  ne
}

result codes "Combat results" [7.0] {
  DE   defender loses all
  DR   defender retreats 2 hexes
  DRL  defender retreats 1, defender loses 1 step
  EX   exchange
  AL   attacker loses 1 unit
  NE   no effect
  NA   not allowed
}

combat results table "Combat Results Table" [7.0] dice 1d6 {
  odds  1:1  2:1  3:1  4:1  5:1  6:1
  1     AL   DR   DR   DRL  DE   DE
  2     AL   NE   DR   DR   DRL  DE
  3     NE   AL   EX   DR   DR   DE
  4     NE   AL   AL   EX   DR   DRL
  5     AL   EX   NE   AL   EX   DR
  6     AL   AL   AL   NE   AL   EX
}

labels fr "Français" {
  terrain.river   "Rivière"
  terrain.rough   "Terrain accidenté"
}
'''

PATH = "rulebooks/classic.rules"


def compile_classic(text: str = CLASSIC, charts: bool = False) -> rulesdsl.Compilation:
    compilation = rulesdsl.compile_text(text, PATH)
    if charts:
        add_charts(compilation, ("html",))
    return compilation


def load(text: str = CLASSIC, name: str = "classic_under_test"):
    compilation = compile_classic(text)
    assert compilation.ok, [f"{d.span.line}:{d.span.column}: {d.message}" for d in compilation.diagnostics]
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # dataclasses look their module up while the module runs
    try:
        exec(compile(str(compilation.outputs["generated/classic.py"]), name, "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


@pytest.fixture(scope="module")
def classic():
    return load()


def attack(module, terrain, *hexes: tuple[int, tuple[str, ...]], roll: int = 4, defense: int = 2):
    """Resolve an attack: each hex is (attack strength, hexsides its attack crosses)."""
    combat = Combat(attacking_hexes=tuple(AttackingHex((Unit("infantry", attack=a),), hexsides=h) for a, h in hexes),
                    defenders=(Unit("infantry", defense=defense),), defender_terrain=terrain)
    return module.resolve_combat(combat, roll)


# ---- the river: only when every attacker is across -----------------------------------------------
def test_every_attacker_across_the_river_shifts_one_column_left_citing_the_tec(classic):
    resolution = attack(classic, "clear", (4, ("river",)), (4, ("river",)))
    assert resolution.odds == "4:1" and resolution.column == "3:1" and resolution.shift == -1
    assert [(s.name, s.value, s.rules) for s in resolution.shifts] == [("river (every attacker across)", -1, ("7.3",))]
    assert "column shift river (every attacker across): -1 [7.3]" in resolution.derivation
    assert resolution.result.text == "AL"          # 3:1 on a 4, not the 4:1 exchange


@pytest.mark.parametrize("hexes", [
    ((4, ("river",)), (4, ())),                     # one attacker is not across
    ((4, ()), (4, ("river",))),                     # whichever it is
    ((4, ("river", "bridge")), (4, ("river",))),    # the bridge negates the river for its hex
    ((4, ()), (4, ())),                             # nobody is
])
def test_an_attacker_not_across_the_river_means_no_shift(classic, hexes):
    resolution = attack(classic, "clear", *hexes)
    assert resolution.column == "4:1" and resolution.shift == 0 and resolution.shifts == ()
    assert resolution.result.text == "EX" and resolution.result.exchange


def test_the_river_adds_to_the_defenders_hex(classic):
    resolution = attack(classic, "forest", (8, ("river",)), defense=2)   # 4:1, forest 1L, river 1L
    assert resolution.column == "2:1" and resolution.shift == -2
    assert [(s.name, s.value) for s in resolution.shifts] == [("terrain", -1), ("river (every attacker across)", -1)]


# ---- forest and fortification ---------------------------------------------------------------------
@pytest.mark.parametrize("terrain", ["forest", "fortification"])
def test_forest_and_fortification_shift_one_column_left(classic, terrain):
    resolution = attack(classic, terrain, (8, ()))
    assert resolution.column == "3:1" and [(s.name, s.value, s.rules) for s in resolution.shifts] == [
        ("terrain", -1, ("7.3",))]


@pytest.mark.parametrize("combination, shift, column, drm", [
    ("cumulative", -2, "2:1", -2), ("most-restrictive", -1, "3:1", -2), ("defender-best", -1, "3:1", 0)])
def test_several_terrains_combine_shifts_and_drms_by_the_declared_rule(combination, shift, column, drm):
    module = load(CLASSIC.replace("= cumulative", f"= {combination}"), f"classic_{combination.replace('-', '_')}")
    both = attack(module, ("forest", "fortification"), (8, ()), roll=5)
    assert both.shift == shift and both.column == column
    swampy = attack(module, ("forest", "swamp"), (8, ()), roll=5)
    assert swampy.drm == (0, drm)                 # the defender-best terrain is the forest: its shift, no DRM
    cumulative = {"cumulative": -3, "most-restrictive": -2, "defender-best": -2}[combination]
    assert attack(module, ("rough", "swamp"), (8, ()), roll=5).drm == (0, cumulative)


# ---- DRMs -------------------------------------------------------------------------------------------
def test_a_drm_cell_changes_the_roll_and_cites_the_tec(classic):
    clear = attack(classic, "clear", (6, ()), roll=3)
    rough = attack(classic, "rough", (6, ()), roll=3)
    assert clear.column == rough.column == "3:1"
    assert clear.result.text == "EX" and clear.drm == (0, 0)
    assert rough.result.text == "DR" and rough.drm == (0, -1) and rough.roll == 3      # read on a 2
    assert [(m.name, m.value, m.rules) for m in rough.modifiers] == [("terrain", -1, ("7.3",))]
    assert "roll 3 -1 = 2: DR [7.0]" in rough.derivation and "DRM terrain: -1 [7.3]" in rough.derivation


def test_a_hexside_drm_applies_when_any_attacker_crosses_it(classic):
    crossing = attack(classic, "clear", (3, ("stream",)), (3, ()), roll=3)
    assert crossing.drm == (0, -1) and crossing.result.text == "DR"
    assert [(m.name, m.value) for m in crossing.modifiers] == [("stream (an attacker across)", -1)]
    assert attack(classic, "clear", (3, ()), (3, ()), roll=3).drm == (0, 0)


# ---- declared meaning, two sides --------------------------------------------------------------------
def test_results_carry_the_declared_meaning(classic):
    exchange = attack(classic, "clear", (8, ()), roll=4)
    assert exchange.result.text == "EX" and exchange.result.exchange
    eliminated = attack(classic, "clear", (12, ()), roll=1)
    assert eliminated.result.text == "DE" and eliminated.result.defender_eliminated
    below = attack(classic, "clear", (3, ()), defense=4)
    assert below.column is None and below.result.text == "NA" and below.result.not_allowed
    assert [p.name for p in classic.PLAYER_TURNS["german"]][-1] == "mechanized-movement"
    assert [p.name for p in classic.PLAYER_TURNS["soviet"]][1] == "rail-movement"


# ---- card, fmt, diff ----------------------------------------------------------------------------------
def _tec(html: str) -> str:
    section = html[html.index('class="tec"'):]
    section = re.sub(r'<span class="swatch"[^>]*>.*?</span>', "", section[:section.index("</table>")])   # the swatches
    return re.sub(r"\s+", " ", section)


def test_the_card_prints_the_qualifier_and_the_drm_in_english_and_french():
    compilation = compile_classic(charts=True)
    english = _tec(str(compilation.outputs["generated/charts/classic.en.html"]))
    french = _tec(str(compilation.outputs["generated/charts/classic.fr.html"]))
    assert '<td>River</td><td class="num">+1</td><td class="num">1L (only when every attacker is across)</td>' \
        in english
    assert '<td>Rough</td><td class="num">3</td><td class="num">\u22121 DRM</td>' in english
    assert '<td class="num">\u22121 DRM</td>' in english.split("<td>Stream</td>")[1]
    assert ('<td>Rivière</td><td class="num">+1</td><td class="num">1G '     # G: gauche, the French code
            '(seulement si tous les attaquants attaquent à travers ce côté)</td>') in french
    assert '<td>Terrain accidenté</td><td class="num">3</td><td class="num">\u22121 au dé</td>' in french


def test_fmt_keeps_the_cells_and_aligns_them():
    loose = CLASSIC.replace("    river          +1  1L all-across", "  river +1   1L    all-across") \
                   .replace("    rough          3   -1", " rough 3     -1")
    formatted = format_text(loose)
    assert format_text(formatted) == formatted
    assert "    river   +1             1L all-across\n" in formatted and "    rough          3  -1\n" in formatted
    assert parse(Source(PATH, formatted)) == parse(Source(PATH, CLASSIC))
    river = next(r for r in parse(Source(PATH, formatted)).terrain[0].rows if r.name.value == "river")
    assert river.combat.across == "all-across" and river.combat.shift == -1 and river.combat.drm == 0


@pytest.mark.parametrize("old, new, shown", [
    ("1L all-across", "1L", "1L all-across"),
    ("1L all-across", "1L any-across", "1L all-across"),
    ("rough          3   -1", "rough          3   -2", "-2"),
    ("rough          3   -1", "rough          3   1L", "-1"),
])
def test_diff_sees_a_change_to_the_qualifier_or_the_drm(old, new, shown):
    before = parse(Source(PATH, CLASSIC))
    after = parse(Source(PATH, CLASSIC.replace(old, new, 1)))
    changes = compare(snapshot(before), snapshot(after))
    assert len(changes) == 1, changes
    assert shown in str(changes[0])


# ---- malformed cells ------------------------------------------------------------------------------------
@pytest.mark.parametrize("old, new, message, at", [
    ("river          +1  1L all-across", "river          +1  1L all-acros", "a terrain row is", "all-acros"),
    ("rough          3   -1", "rough          3   +0", "a terrain row is", "+0"),
    ("rough          3   -1", "rough          3   -1 all-across", "'all-across' belongs to a hexside", "-1"),
    ("stream         +1  -1", "stream         +1  Ax1/2 -1 all-across", "not an attacker multiplier", "Ax1/2"),
    ("rough          3   -1", "rough          3   -1 -1", "two die roll modifiers in one cell", "-1\n"),
])
def test_a_malformed_cell_is_a_positioned_error(project, capsys, old, new, message, at):
    text = CLASSIC.replace(old, new, 1)
    project.write(PATH, text)
    code, out, err = project.run("check", str(project.root / PATH), capsys=capsys)
    assert code == 1 and "Traceback" not in err
    match = re.match(rf"{re.escape(PATH)}:(\d+):(\d+): error: (.*)\n", err)
    assert match, err
    line, column = int(match.group(1)), int(match.group(2))
    assert message in match.group(3)
    source = text.splitlines()[line - 1]
    assert source == "    " + new and (source + "\n")[column - 1:].startswith(at)
    caret = err.splitlines()[2]
    assert caret.index("^") - caret.index("|") - 1 == column   # under the column it names


def test_an_amended_row_says_its_qualifier_and_drm_as_the_games_own():
    from conftest import FIXTURES
    base = ("rulebooks/base.rules", (FIXTURES / "base.rules").read_text(encoding="utf-8"))
    game = ('game demo "Demo" version "1.0" extends base\n\n'
            "amend terrain effects chart {\n  hex:\n    woods  2  Dx2 -1\n  hexside:\n    river  +1  1L all-across\n}\n")
    compilation = rulesdsl.compile_text(game, "rulebooks/demo.rules", base)
    assert compilation.ok, [d.message for d in compilation.diagnostics]
    terrain = compilation.resolved["demo"].terrain
    assert terrain is not None
    assert {a.key: a.text for a in terrain.amended} == {
        "woods": "woods: movement 2, combat D x2 DRM -1", "river": "river: movement +1, combat 1L all-across"}


def test_a_hexside_defender_multiplier_applies_as_its_crossing_says():
    """Ridgeline's river doubles units that defend only behind it (VCS 10.1): 'Dx2 all-across'."""
    from generated import ridgeline

    def defense(*crossings):
        combat = Combat(tuple(AttackingHex((Unit("infantry", attack=6),), "clear", c) for c in crossings),
                        (Unit("infantry", defense=3),), "clear")
        return ridgeline.resolve_combat(combat, 7)

    both = defense(("river",), ("river",))
    assert both.defense == 6
    assert any(step.startswith("defense 3 x 2 for river (every attacker across)") for step in both.derivation)
    assert defense(("river",), ()).defense == 3                  # one attacker is not across
    assert defense(("river", "bridge"), ("river",)).defense == 3  # the bridge negates the river for one
