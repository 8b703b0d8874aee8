"""A fortress's ZOC: a hex row of the TEC marked `exerts-no-zoc` (`fortress  1  Dx2  exerts-no-zoc`) says a unit
in a hex of that terrain exerts no ZOC at all, its garrison holding the walls instead of projecting a zone.

The TEC says it, validate checks it at its position (a hex effect: not a hexside's nor a road's), the engine's
ZOC (and through it moves, reachable hexes and retreats) honours it with a step citing the chart, the card prints
it in each language, fmt keeps it one cell and a diff sees it."""
from __future__ import annotations

from fractions import Fraction

import rulesdsl
from rulesdsl.errata import diff
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.situation import Counter, Situation

H = Hex.parse

FORT = '''game fort "Fortress Line (a test title)" version "1.0" extends scs-1.8

rule G1.0 "Stacking" {
  summary "Up to four steps may stack in a hex."
  stacking.limit = 4 steps
}

override terrain effects chart "Fort TEC" [3.2 7.3] {
  hex:
    open      1  ne
    fortress  1  Dx2  exerts-no-zoc
  hexside:
    river  +2  Ax1/2  no-zoc
}

example "The garrison of a fortress exerts no ZOC" [3.2] {
  map 1.01 - 8.06 open
  hex 3.03 fortress
  unit f enemy 4-4-8 at 3.03
  unit o enemy 4-4-8 at 6.03
  expect zoc enemy 5.03 5.04 6.02 6.04 7.03 7.04 not 2.02 2.03 3.02 3.04 4.02 4.03
}

labels fr "Français" {
  terrain.fortress  "Forteresse"
}
'''
PLAIN = FORT.replace("  exerts-no-zoc", "")
AROUND = {H(h) for h in ("2.02", "2.03", "3.02", "3.04", "4.02", "4.03")}     # the fortress 3.03's neighbours


def _module(text: str = FORT) -> dict[str, object]:
    """The generated module of the rulebook (without its worked example), compiled in memory and run."""
    text = text[:text.index('example "')] + text[text.index('labels fr'):]
    compilation = rulesdsl.compile_text(text, "rulebooks/fort.rules")
    assert compilation.ok, [f"{d.span.line}: {d.message}" for d in compilation.diagnostics]
    namespace: dict[str, object] = {}
    exec(compile(str(compilation.outputs["generated/fort.py"]), "generated/fort.py", "exec"), namespace)
    return namespace


def _steps(answer) -> list[str]:
    return [str(s) for s in answer.steps]


def _board(fort: str = "3.03") -> Situation:
    """An axis garrison f in the fortress hex `fort` (3.03 unless moved), an allied unit a at 5.03."""
    units = (Counter("f", "axis", H("3.03"), attack=Fraction(4), defense=Fraction(4), movement=Fraction(8)),
             Counter("a", "allies", H("5.03"), attack=Fraction(4), defense=Fraction(4), movement=Fraction(8)))
    return Situation(HexMap.rectangle(8, 8), default_terrain=("open",), units=units, phasing="allies",
                     terrain={H(fort): ("fortress",)})


# ---- the engine ---------------------------------------------------------------------------------------
def test_a_unit_in_a_fortress_exerts_no_zoc_and_the_step_cites_the_chart():
    mod = _module()
    zones = mod["zoc"](_board(), "axis")
    assert zones.hexes == {}
    step = next(s for s in zones.steps if "fortress" in str(s))
    assert str(step).startswith("unit f is in the fortress of 3.03: a unit there exerts no ZOC"), str(step)
    assert step.rule == "3.2"                              # the TEC's rule, its first cite
    # the same unit out of the fortress (the fortress elsewhere) has its ZOC, and the plain chart gives it one
    assert set(mod["zoc"](_board(fort="7.07"), "axis").hexes) == AROUND
    assert set(_module(PLAIN)["zoc"](_board(), "axis").hexes) == AROUND


def test_the_fortress_takes_away_only_its_garrison_s_zoc():
    mod = _module()
    board = _board()
    other = Counter("o", "axis", H("6.03"), attack=Fraction(4), defense=Fraction(4), movement=Fraction(8))
    board = Situation(board.map, default_terrain=("open",), units=board.units[:1] + (other,), phasing="allies",
                      terrain=dict(board.terrain))
    zones = mod["zoc"](board, "axis")
    assert set(zones.hexes) == {H(h) for h in ("5.03", "5.04", "6.02", "6.04", "7.03", "7.04")}
    assert all(names == ("o",) for names in zones.hexes.values())
    assert any("unit o has a ZOC" in s for s in _steps(zones))


def test_a_move_and_the_reachable_hexes_beside_the_fortress_pay_no_zoc_cost():
    mod, plain = _module(), _module(PLAIN)
    past = mod["move"](_board(), "a", ["4.03", "4.04", "3.05"])
    assert past.legal and past.costs == (1, 1, 1)
    assert not any("enemy ZOC" in s for s in _steps(past))
    walled = plain["move"](_board(), "a", ["4.03", "4.04", "3.05"])
    assert walled.costs == (3, 1, 1) and any("4.03 is in an enemy ZOC" in s for s in _steps(walled))
    assert mod["reachable"](_board(), "a").costs[H("4.03")] == 1
    assert plain["reachable"](_board(), "a").costs[H("4.03")] == 3


def test_a_retreat_beside_the_fortress_is_not_a_retreat_into_an_enemy_zoc():
    mod, plain = _module(), _module(PLAIN)

    def beside(path) -> bool:
        return any(h in AROUND for h in path)

    # SCS ranks the retreats entering fewer enemy ZOC hexes first: beside a plain fortress those come last
    ranked = plain["retreat"](_board(), ["a"], 2).paths
    assert beside(ranked[-1]) and not beside(ranked[0])
    free = mod["retreat"](_board(), ["a"], 2)
    assert len(free.paths) == len(ranked) and beside(free.paths[0])      # no enemy ZOC: nothing ranked down


# ---- the worked example --------------------------------------------------------------------------------
def test_the_example_checks_and_a_wrong_one_fails_at_its_position(project, capsys):
    project.write("rulebooks/fort.rules", FORT)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 0, err
    project.write("rulebooks/fort.rules", FORT.replace("7.04 not 2.02 2.03", "7.04 2.02 not 2.03"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and ("rulebooks/fort.rules:21:10: error: expected 5.03 5.04 6.02 6.04 7.03 7.04 2.02 not "
                          "2.03 3.02 3.04 4.02 4.03, computed 5.03 5.04 6.02 6.04 7.03 7.04 not 2.02 2.03 3.02 "
                          "3.04 4.02 4.03") in err, err
    assert "unit f is in the fortress of 3.03: a unit there exerts no ZOC [rule 3.2" in err, err
    # without the fortress's effect the example no longer holds
    project.write("rulebooks/fort.rules", PLAIN)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/fort.rules:21:10: error: expected 5.03" in err, err


# ---- the card -----------------------------------------------------------------------------------------
def test_the_card_says_the_garrison_exerts_no_zoc_in_each_language(project, capsys):
    project.write("rulebooks/fort.rules", FORT)
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    resolved, labels = compiled.resolved["fort"], compiled.labels
    english = render_html(card(resolved, "en", labels)[0])
    assert "1 (units in it exert no ZOC)" in english, english[english.find("Fortress"):][:300]
    assert "a unit in the hex has no zone of control" in english
    assert "+2 (no ZOC)" in english                            # the river's no-zoc, a different effect
    french = render_html(card(resolved, "fr", labels)[0])
    assert "Forteresse" in french and "1 (ses occupants n&#39;exercent pas de ZOC)" in french, \
        french[french.find("Forteresse"):][:300]
    assert "n&#39;a pas de zone de contrôle\xa0: l&#39;ennemi" in french
    project.write("rulebooks/fort.rules", PLAIN)
    plain = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(plain.resolved["fort"], "en", plain.labels)[0])
    assert "exert no ZOC" not in english and "has no zone of control" not in english


# ---- fmt, diff, errors ---------------------------------------------------------------------------------
def test_fmt_keeps_it_one_cell_and_a_diff_sees_it():
    from rulesdsl.language.fmt import format_text
    assert format_text(FORT) == FORT
    squeezed = FORT.replace("    fortress  1  Dx2  exerts-no-zoc", "    fortress 1 Dx2    exerts-no-zoc")
    assert format_text(squeezed) == FORT
    old = parse(Source("a.rules", PLAIN))
    changes = [str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(parse(Source("b.rules", FORT))))]
    assert any("fortress" in c and "exerts_no_zoc: no -> yes" in c for c in changes), changes


def test_on_a_hexside_or_a_road_it_is_an_error_at_the_row_s_name(project, capsys):
    project.write("rulebooks/fort.rules", FORT.replace("river  +2  Ax1/2  no-zoc", "river  +2  Ax1/2  exerts-no-zoc"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and ("rulebooks/fort.rules:13:5: error: 'exerts-no-zoc' is a hex effect, not one of a "
                          "hexside feature") in err, err
    assert "'no-zoc' keeps a ZOC from crossing a hexside" in err
    assert "Traceback" not in err
    project.write("rulebooks/fort.rules", FORT.replace("  hexside:\n", "  roads:\n    road  1/2  ne  exerts-no-zoc\n"
                                                                     "  hexside:\n"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and ("rulebooks/fort.rules:13:5: error: 'exerts-no-zoc' is a hex effect, not one of a "
                          "road") in err, err


def test_a_misspelt_effect_is_a_positioned_syntax_error(project, capsys):
    project.write("rulebooks/fort.rules", FORT.replace("exerts-no-zoc", "exert-no-zoc"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and ("rulebooks/fort.rules:11:23: error: unexpected 'exert-no-zoc'; expected one of "
                          "'exerts-no-zoc'") in err, err
    assert "Traceback" not in err
