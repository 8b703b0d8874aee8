"""Differential Combat Results Tables (issue 25): columns are ranges of the attack strength minus the defense
strength (`-3..-2`, `0`, `+7..`), and the defender's terrain picks the row of column headings over one
shared grid.  The module answers every printed cell and every attack off the table, the card prints the
headings as players read them, fmt aligns the rows, a diff sees them change, and bad headings are positioned
errors."""
from __future__ import annotations

import importlib.util
from fractions import Fraction

import pytest

from rulesdsl.errata import diff
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.runtime.notation import OPEN_DIFFERENCE, parse_difference
from rulesdsl.runtime.tables import CombatResultsTable, difference

BREAKOUT = '''game breakout "Breakout (a differential test title)" version "1.0"

rule 1.0 "Sequence of Play" {
  summary "Each side moves, then attacks."
}

sequence of play [1.0] {
  game turn {
    player turn red
    player turn blue
  }
  player turn {
    movement  [1.0]  movement
    combat    [1.0]  combat
  }
}

rule 7.0 "Combat" {
  summary "Subtract the defense from the attack; the defender's terrain picks the line of column headings."
  combat.below_table = AE
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

example "The defender's terrain picks the line" [7.0] {
  map 1.01 - 6.06 clear
  hex 3.03 forest
  hex 4.02 town
  unit a red 7-7-4 at 2.02 type infantry
  unit b blue 3-3-4 at 3.02 type infantry
  unit c blue 3-3-4 at 3.03 type infantry
  unit d blue 3-3-4 at 4.02 type infantry
  expect combat a on 3.02 difference +4 column +3..+4 roll 4 result EX
  expect combat a on 3.03 difference +4 column +3..+4 roll 4 result AR
  expect combat a on 4.02 difference +4 column +1..+2 roll 1 result AR
}
'''

GRID = {"open": ("-3..-2", "-1..0", "+1..+2", "+3..+4", "+5..+6", "+7.."),
        "close": ("-1..0", "+1..+2", "+3..+4", "+5..+6", "+7..+8", "+9..")}
CELLS = {1: "AR AR DR DR DE DE", 2: "AR EX DR DR DR DE", 3: "AE AR EX DR DR DE",
         4: "AE AR AR EX DR DR", 5: "AE AE AR AR EX DR", 6: "AE AE AE AR AR DR"}


@pytest.fixture
def breakout(project, capsys):
    return project.built("breakout", BREAKOUT, capsys=capsys)


def _combat(attack, defense, terrain="clear"):
    from rulesdsl.runtime import AttackingHex, Combat, Unit
    return Combat(attacking_hexes=(AttackingHex(units=(Unit(type="infantry", attack=attack),)),),
                  defenders=(Unit(type="infantry", defense=defense),), defender_terrain=terrain)


def test_a_heading_reads_as_a_range_of_differences():
    assert parse_difference("+3") == (3, 3) and parse_difference("0") == (0, 0)
    assert parse_difference("-6..-5") == (-6, -5) and parse_difference("0..+1") == (0, 1)
    assert parse_difference("..-7") == (-OPEN_DIFFERENCE, -7) and parse_difference("+12..") == (12, OPEN_DIFFERENCE)
    for wrong in ("3", "+2..+1", "..", "", "+1..2", "3:1", "-0x"):
        assert parse_difference(wrong) is None, wrong


def test_the_difference_drops_a_fraction_in_the_defenders_favour():
    assert difference(7, 3) == 4 and difference(2, 5) == -3
    assert difference(Fraction(5, 2), 1) == 1 and difference(1, Fraction(3, 2)) == -1
    with pytest.raises(TypeError):
        difference(True, 1)


def test_the_table_finds_the_column_holding_the_difference_and_holds_shifts_to_its_edges():
    table = CombatResultsTable(dice="1d6", columns=GRID["open"], rows={"1-6": tuple(CELLS[1].split())},
                               below="AE", differential=True)
    assert [table.difference_column(d) for d in (-4, -3, -2, -1, 0, 1, 4, 7, 40)] == \
        [None, "-3..-2", "-3..-2", "-1..0", "-1..0", "+1..+2", "+3..+4", "+7..", "+7.."]
    assert table.difference_column(4, -1) == "+1..+2" and table.difference_column(4, 9) == "+7.."
    assert table.difference_column(-2, -1) is None                  # shifted off the left: below the table
    assert table.difference_column(-2, -1, off_left=False) == "-3..-2"
    leftmost = CombatResultsTable(dice="1d6", columns=GRID["open"], rows={"1-6": tuple(CELLS[1].split())},
                                  below="leftmost", differential=True)
    assert leftmost.difference_column(-9) == "-3..-2"
    closed = CombatResultsTable(dice="1d6", columns=("-1..0", "+1..+2"), rows={"1-6": ("AR", "DR")},
                                above="DE", differential=True)
    assert closed.difference_column(3) == "above" and closed.difference_column(2, 1) == "above"
    with pytest.raises(ValueError):
        CombatResultsTable(dice="1d6", columns=("3:1",), rows={"1-6": ("DR",)}, differential=True)


def test_the_module_answers_every_printed_cell_on_every_line(breakout):
    assert breakout.CRT.differential and breakout.odds(7, 3) == "+4" and breakout.odds(3, 3) == "0"
    assert breakout.odds(2, 5) == "-3" and breakout.crt_column(7, 3) == "+3..+4"
    terrain = {"open": "clear", "close": "forest"}
    checked = 0
    for line, headings in GRID.items():
        for index, heading in enumerate(headings):
            low, high = parse_difference(heading)
            for diff in {low if low > -OPEN_DIFFERENCE else high, high if high < OPEN_DIFFERENCE else low + 5}:
                for roll, cells in CELLS.items():
                    resolution = breakout.resolve_combat(_combat(10 + diff, 10, terrain[line]), roll)
                    assert (resolution.column, resolution.result.text) == (heading, cells.split()[index]), \
                        (line, diff, roll)
                    assert resolution.odds == (f"{diff:+d}" if diff else "0")
                    checked += 1
    assert checked == 2 * 6 * 2 * 6


def test_attacks_off_the_table_and_shifted_off_it_answer_the_below_table_result(breakout):
    below = breakout.resolve_combat(_combat(6, 10), 6)               # -4: left of -3..-2
    assert below.column is None and below.result.text == "AE" and below.result.attacker_eliminated
    assert breakout.resolve(6, 10, 6).text == "AE" and breakout.crt_column(6, 10) is None
    top = breakout.resolve_combat(_combat(30, 1), 6)                 # +29: the open right-most column
    assert top.column == "+7.." and top.result.text == "DR"
    shifted = breakout.resolve_combat(_combat(7, 3, "town"), 1)      # +4 on the close line, 1L in town
    assert shifted.column == "+1..+2" and shifted.result.text == "AR"
    off = breakout.resolve_combat(_combat(3, 3, "town"), 1)          # 0, the close line's first column, 1L
    assert off.column is None and off.result.text == "AE"
    steps = breakout.resolve_combat(_combat(7, 3, "town"), 1).derivation
    assert "difference +4, attack minus defense [7.0]" in steps
    assert any(s.startswith("odds line close for town") for s in steps)
    halved = breakout.ENGINE.assess(_combat(Fraction(9, 2), 1)).derivation
    assert "difference +3, attack minus defense (its fraction dropped) [7.0]" in halved
    with pytest.raises(LookupError, match="attack minus defense, not odds"):
        breakout.odds_ratio(7, 3)


def test_worked_examples_ask_for_the_difference_and_a_wrong_one_is_a_positioned_error(project, capsys):
    project.write("rulebooks/breakout.rules",
                  BREAKOUT.replace("difference +4 column +1..+2 roll 1 result AR",
                                   "difference +3 column +1..+2 roll 1 result AR"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    line = BREAKOUT.splitlines().index("  expect combat a on 4.02 difference +4 column +1..+2 roll 1 result AR") + 1
    assert f"breakout.rules:{line}:10: error: expected difference +3 column +1..+2 roll 1 result AR, " \
           "computed difference +4 column +1..+2 roll 1 result AR" in err


def test_a_differential_table_needs_no_rounding_rule_but_an_odds_table_does(project, capsys):
    project.write("rulebooks/breakout.rules", BREAKOUT)
    assert project.run("check", capsys=capsys)[0] == 0
    odds = BREAKOUT.replace("difference open   -3..-2  -1..0   +1..+2  +3..+4  +5..+6  +7..",
                            "odds open  1:2  1:1  2:1  3:1  4:1  5:1") \
        .replace("difference close  -1..0   +1..+2  +3..+4  +5..+6  +7..+8  +9..",
                 "odds close  1:1  2:1  3:1  4:1  5:1  6:1")
    project.write("rulebooks/breakout.rules", odds.split("example ")[0])
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "a combat results table needs a rounding rule" in err


@pytest.mark.parametrize("close, message, at", [
    ("-1..0   +1..+2  +2..+4  +5..+6  +7..+8  +9..", "difference column +2..+4 overlaps +1..+2", "+2..+4"),
    ("-1..0   +1..+2  +4..+4  +5..+6  +7..+8  +9..", "difference column +4..+4 leaves a gap after +1..+2", "+4..+4"),
    ("-1..0   +1..+2  +3..+4  +5..    +7..+8  +9..", "'+5..' is open above, but is not the right-most column", "+5.."),
    ("..0     +1..+2  +3..+4  +5..+6  +7..+8  ..+9", "'..+9' is open below, but is not the left-most column", "..+9"),
    ("-1..0   +2..+1  +3..+4  +5..+6  +7..+8  +9..", "'+2..+1' is not a difference column", "+2..+1"),
])
def test_bad_headings_are_errors_at_the_heading(project, capsys, close, message, at):
    project.write("rulebooks/breakout.rules",
                  BREAKOUT.replace("-1..0   +1..+2  +3..+4  +5..+6  +7..+8  +9..", close, 1))
    code, _, err = project.run("check", capsys=capsys)
    written = f"  difference close  {close}"
    line = BREAKOUT.splitlines().index("  difference close  -1..0   +1..+2  +3..+4  +5..+6  +7..+8  +9..") + 1
    assert code == 1 and f"breakout.rules:{line}:{written.index(at) + 1}: error: {message}" in err, err
    assert "^" in err and "Traceback" not in err


def test_odds_and_difference_rows_do_not_mix(project, capsys):
    project.write("rulebooks/breakout.rules",
                  BREAKOUT.replace("difference close  -1..0   +1..+2  +3..+4  +5..+6  +7..+8  +9..",
                                   "odds close  1:1  2:1  3:1  4:1  5:1  6:1"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "error: a table's columns are all odds or all differences" in err


def test_the_card_prints_headings_as_players_read_them_in_each_language(project):
    project.write("rulebooks/breakout.rules", BREAKOUT)
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(compiled.resolved["breakout"], "en", compiled.labels)[0])
    for heading in ("\u22123\u2026\u22122", "\u22121\u20260", "+1\u2026+2", "\u2265 +7", "\u2265 +9"):
        assert f'<th class="col">{heading}</th>' in english, heading
    assert "..-" not in english and "+7.." not in english        # the source's notation stays in the source
    assert "Column: the attack strength minus the defense strength (a fraction is dropped)." in english
    french = render_html(card(compiled.resolved["breakout"], "fr", compiled.labels)[0])
    assert "Colonne\u00a0: force d&#39;attaque moins force de défense" in french


def test_fmt_aligns_the_rows_and_a_diff_sees_a_heading_change():
    from rulesdsl.language.fmt import format_text
    assert format_text(BREAKOUT) == BREAKOUT
    squeezed = BREAKOUT.replace("difference open   -3..-2  -1..0   +1..+2", "difference   open -3..-2 -1..0 +1..+2")
    assert format_text(squeezed) == BREAKOUT
    old = parse(Source("a.rules", BREAKOUT))
    new = parse(Source("b.rules", BREAKOUT.replace("+5..+6  +7..\n", "+5..+7  +8..\n")))
    changes = [str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(new))]
    assert any("+5..+6" in c and "+5..+7" in c for c in changes), changes


def test_a_forced_attack_below_a_differential_table_has_its_own_result(project, capsys):
    project.write("rulebooks/breakout.rules", BREAKOUT.replace(
        "  combat.below_table = AE\n", "  combat.below_table = AR\n  combat.below_table_forced = AE\n"))
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    module = project.module("breakout")
    assert module.resolve(6, 10, 6).text == "AR" and module.resolve(6, 10, 6, forced=True).text == "AE"
    from dataclasses import replace
    forced = module.resolve_combat(replace(_combat(3, 3, "town"), forced=True), 1)
    assert forced.column is None and forced.result.text == "AE"
    assert any(s.startswith("a forced attack: below the table it reads AE where a voluntary one reads AR")
               for s in forced.derivation)


def test_a_chart_keyed_by_signed_ranges_is_looked_up_by_number():
    from rulesdsl.runtime.tables import LookupTable
    chart = LookupTable("rally", "difference", ("..-7", "-6..-5", "-4..+4", "+5.."), {"": (0, 1, 2, 3)})
    assert [chart(d) for d in (-30, -7, -6, -5, 0, 4, 5, 99)] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert chart("-6..-5") == 1


def test_a_difference_row_with_no_heading_says_what_a_heading_is(project, capsys):
    project.write("rulebooks/breakout.rules", BREAKOUT.replace(
        "difference open   -3..-2  -1..0   +1..+2  +3..+4  +5..+6  +7..", "difference open   -3..-2  0.5"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "a difference column (like +2, -6..-5 or +12..)" in err and "Traceback" not in err, err


def test_odds_in_an_expression_of_a_differential_rulebook_is_an_error_at_check_time(project, capsys):
    # the module's odds_ratio raises in a differential rulebook: the check says so where odds(...) is written,
    # not the first combat that reads the definition
    defined = '  define big-attack = odds(sum(attackers of attack), sum(defenders of defense)) >= 3:1\n'
    project.write("rulebooks/breakout.rules", BREAKOUT.replace(
        '  combat.below_table = AE\n', '  combat.below_table = AE\n' + defined, 1))
    code, _, err = project.run("check", capsys=capsys)
    line = BREAKOUT.splitlines().index("  combat.below_table = AE") + 2
    assert code == 1 and f"breakout.rules:{line}:{defined.index('odds(') + 1}: error: odds(...) has no value here: the Combat Results " \
        "Table reads attack minus defense, not odds" in err, err
    assert "hint: compare the difference instead" in err and "^" in err and "Traceback" not in err
    project.write("rulebooks/breakout.rules", BREAKOUT.replace(
        '  combat.below_table = AE\n',
        '  combat.below_table = AE\n  define big-attack = sum(attackers of attack) - sum(defenders of defense) >= 3\n', 1))
    assert project.run("check", capsys=capsys)[0] == 0


def test_an_unnamed_line_of_several_is_called_a_difference_row(project, capsys):
    project.write("rulebooks/breakout.rules", BREAKOUT.replace("difference open   -3..-2", "difference  -3..-2", 1))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "error: a table with several difference rows names the terrain line each serves" in err
    assert "hint: write 'difference open -3..-2" in err
    assert "error: terrain 'clear' has no difference line in the terrain-line combat results table" in err
    assert "odds" not in err, err
