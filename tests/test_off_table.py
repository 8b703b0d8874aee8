"""Off the table with a result of its own (issue 25): above the right-most column a classic game's defender is
eliminated with no roll, below the left-most its attacker loses a step; the rulebook says it in
`combat.above_table` and `combat.below_table`, the module resolves it, the card prints it, an example states
it (`column above result DE`, no roll)."""
from __future__ import annotations

from conftest import python_in

CLASSIC = '''game classic "A Classic (test)" version "1.0"

rounding down: down [7.0]

rule 1.0 "Sequence of Play" {
  summary "Each side moves, then fights."
}

section units "Units" {
  summary "Infantry only."
}

unit types [units] {
  infantry
}

rule 7.0 "Combat" {
  summary "Odds are rounded down. Above 6-1 the defender is eliminated with no roll; below 1-2 the attacker loses a step."
  combat.above_table = DE
  combat.below_table = A1
}

result codes [7.0] {
  DE  defender loses all
  A1  attacker loses 1
  D1  defender loses 1
  -   no effect
}

sequence of play [1.0] {
  game turn {
    player turn first
    player turn second
  }
  player turn {
    movement  [1.0]  movement
    combat    [7.0]  combat
  }
}

terrain effects chart "TEC" [7.0] {
  hex:
    clear   1  ne
    forest  2  1L
}

combat results table "CRT" [7.0] dice 1d6 {
  odds  1:2  1:1  2:1  3:1  4:1  5:1  6:1
  1     A1   A1   -    -    D1   D1   DE
  2-3   A1   -    -    D1   D1   DE   DE
  4-6   -    -    D1   D1   DE   DE   DE
}

example "Off the table" [7.0] {
  map 1.01 - 6.06 clear
  hex 3.04 forest
  phase combat
  phasing blue
  unit a blue 8-1-4 at 3.03 type infantry
  unit d red 1-1-4 at 3.02 type infantry
  unit e red 1-1-4 at 3.04 type infantry
  unit w blue 1-1-4 at 5.05 type infantry
  unit z red 4-4-4 at 5.04 type infantry
  expect combat a on 3.02 odds 8:1 column above result DE
  expect combat a on 3.04 odds 8:1 column 6:1 roll 1 result DE
  expect combat w on 5.04 odds 1:4 column below result A1
}
'''


def _module(project, capsys):
    project.write("rulebooks/classic.rules", CLASSIC)
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    return project.root


_python = python_in


def test_the_module_answers_above_and_below_the_table_with_no_roll(project, capsys):
    root = _module(project, capsys)
    assert _python(root, "from generated import classic as c\n"
                         "print(c.crt_column(8, 1), c.resolve(8, 1, 1).text, c.resolve(8, 1, 6).text)\n"
                         "print(c.crt_column(7, 1, -1), c.crt_column(6, 1), c.crt_column(1, 4))\n"
                         "print(c.resolve(1, 4, 6).text, c.resolve(8, 1, 3).defender_eliminated)\n") == \
        "above DE DE\n6:1 6:1 None\nA1 True\n"


def test_resolve_combat_explains_the_attack_above_the_table(project, capsys):
    root = _module(project, capsys)
    out = _python(root, "from generated import classic as c\n"
                        "from rulesdsl.runtime import AttackingHex, Combat, Unit\n"
                        "r = c.resolve_combat(Combat((AttackingHex((Unit('infantry', attack=8),), 'clear'),), "
                        "(Unit('infantry', defense=1),), 'clear'), 2)\n"
                        "print(r.column, r.result.text)\nprint(r.derivation[-1])\n")
    assert out == "above DE\nabove the table: DE, no roll [7.0]\n"


def test_the_card_says_what_happens_off_the_table_in_both_languages(project, capsys):
    root = _module(project, capsys)
    english = (root / "generated/charts/classic.en.html").read_text(encoding="utf-8")
    assert 'An attack above the right-most column, with no roll: <span class="key">DE</span>' in english
    assert "uses it; shifts start there" not in english      # the right-most column is not what it says
    code, _, err = project.run("chart", str(root / "rulebooks/classic.rules"), "--lang", "fr", "--out",
                               str(root / "classic.fr.html"), capsys=capsys)
    assert code == 0, err
    french = (root / "classic.fr.html").read_text(encoding="utf-8")
    # French sets a no-break space before its colon
    assert 'Au-delà de la colonne la plus à droite, sans jet de dé\u00a0: <span class="key">DE</span>' in french


def test_an_example_states_the_result_off_the_table_and_a_wrong_one_fails_at_its_line(project, capsys):
    project.write("rulebooks/classic.rules", CLASSIC.replace("column above result DE", "column above result A1"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "rulebooks/classic.rules:64:10: error: expected odds 8:1 column above result A1, " \
                         "computed odds 8:1 column above result DE" in err, err


def test_the_edge_word_belongs_to_its_own_edge(project, capsys):
    project.write("rulebooks/classic.rules", CLASSIC.replace("combat.above_table = DE", "combat.above_table = leftmost"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "error: combat.above_table may name the table's rightmost column, not its leftmost" in err
    assert "hint: did you mean 'rightmost'?" in err


def test_an_attack_the_chart_prohibits_is_refused_by_the_engine_as_resolve_combat_refuses_it(project, capsys):
    """The classic game ties no rule to enterable terrain: its chart's river (combat P) alone bars an attack
    across it. `attack` says refused, citing the chart's rule, as `resolve_combat` says not allowed."""
    river = CLASSIC.replace("    forest  2  1L\n", "    forest  2  1L\n  hexside:\n    river   P  P\n")
    situation = ("map 1.01 - 6.06 clear; hexside 3.03/3.02 river; phase combat; phasing blue; "
                 "unit a blue 8-1-4 at 3.03 type infantry; unit d red 1-1-4 at 3.02 type infantry")
    project.write("rulebooks/classic.rules", river)
    code, out, err = project.run("explain", str(project.root / "rulebooks/classic.rules"), situation,
                                 "attack", "a", "on", "3.02", capsys=capsys)
    assert code == 0, err
    assert "the Terrain Effects Chart prohibits unit a's attack on 3.02 [rule 7.0;" in out
    assert out.endswith("answer: refused [7.0]\n")


def test_a_result_the_table_never_gives_is_an_error_at_the_result_with_the_nearest(project, capsys):
    """An expected result that is no cell of the table (nor its result off an edge) could never match:
    it is a misspelling, said at the word, with the nearest result the table gives."""
    project.write("rulebooks/classic.rules", CLASSIC.replace("roll 1 result DE", "roll 1 result DEE"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "rulebooks/classic.rules:65:61: error: 'DEE' is no result of this rulebook's Combat Results Table" in err
    assert "hint: did you mean 'DE'?" in err
    project.write("rulebooks/classic.rules", CLASSIC.replace("roll 1 result DE", "roll 1 result D9r9"))
    code, _, err = project.run("check", capsys=capsys)
    assert "hint: the table's results are: -, A1, D1, DE" in err
    # a result written in the table (or given off its edges) is a comparison, as before
    project.write("rulebooks/classic.rules", CLASSIC.replace("roll 1 result DE", "roll 1 result D1"))
    code, _, err = project.run("check", capsys=capsys)
    assert "expected odds 8:1 column 6:1 roll 1 result D1, computed odds 8:1 column 6:1 roll 1 result DE" in err


def test_a_rulebook_with_no_unit_types_resolves_a_combat_of_units_without_one(project, capsys):
    """Its rules read no unit type, so its units need none (it was 'unknown unit type'); a rulebook that
    declares types still asks each unit for one."""
    from pathlib import Path
    project.add_base()
    corpus = (Path(__file__).parent / "errors" / "example-unknown-result.rules").read_text(encoding="utf-8")
    project.write("rulebooks/demo.rules", corpus.replace("result D2r", "odds 2:1 result D2"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 0, err
    from generated import bocage
    from rulesdsl.runtime import AttackingHex, Combat, Unit
    from rulesdsl.runtime.combat import RulesInputError
    untyped = Combat(attacking_hexes=(AttackingHex((Unit("", attack=6),), "open"),),
                     defenders=(Unit("infantry", defense=2),), defender_terrain="open")
    try:
        bocage.resolve_combat(untyped, 7)
    except RulesInputError as exc:
        assert "unknown unit type ''" in str(exc)
    else:
        raise AssertionError("bocage declares unit types: a unit without one is an input error")
