"""Forced attacks below the table: "below the left-most odds column a voluntary attack is not allowed; a
forced attack (one the rules require) is an automatic elimination of the attacker (AE)".

The rulebook says it in `combat.below_table = NA` and `combat.below_table_forced = AE`; a `Combat(forced=True)`
reads the second, a voluntary one is refused (not a result to apply), a worked example says `forced`, the card
prints both lines in English and French, and diff sees a change of the new parameter."""
from __future__ import annotations

import importlib.util
import re

import pytest

from rulesdsl.cards import charts
from rulesdsl.project.build import compile_project
from rulesdsl.runtime import AttackingHex, Combat, Unit
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.situation import Counter, Situation
from rulesdsl.runtime.tables import CombatResultsTable

FORCED = '''game forced "Forced Attacks (a test title)" version "1.0"

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
  summary "Odds are rounded down. Below 1-2 a voluntary attack is not allowed; a forced attack is an AE."
  combat.below_table        = NA
  combat.below_table_forced = AE
}

result codes [7.0] {
  AE  attacker loses all
  A1  attacker loses 1
  D1  defender loses 1
  DE  defender loses all
  NA  not allowed
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
    clear  1  ne
}

combat results table "CRT" [7.0] dice 1d6 {
  odds  1:2  1:1  2:1  3:1
  1     A1   A1   -    D1
  2-3   A1   -    D1   D1
  4-6   -    D1   D1   DE
}

example "Below the table" [7.0] {
  map 1.01 - 6.06 clear
  phase combat
  phasing blue
  unit w blue 1-1-4 at 5.05 type infantry
  unit z red 4-4-4 at 5.04 type infantry
  expect combat w on 5.04 odds 1:4 column below result NA
  expect combat w on 5.04 forced odds 1:4 column below result AE
  expect attack w on 5.04 refused [7.0]
}
'''
FORCED_LINE = 'combat.below_table_forced = AE'
EXPECT_FORCED = "expect combat w on 5.04 forced odds 1:4 column below result AE"
EXPECT_REFUSED = "expect attack w on 5.04 refused [7.0]"


def _load(project, name: str = "forced"):
    return project.module(name)


def _built(project, capsys, text: str = FORCED):
    project.write("rulebooks/forced.rules", text)
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    return _load(project)


def _combat(attack: int, defense: int, forced: bool = False) -> Combat:
    return Combat(attacking_hexes=(AttackingHex(units=(Unit(type="infantry", attack=attack),)),),
                  defenders=(Unit(type="infantry", defense=defense),), defender_terrain="clear", forced=forced)


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


def test_a_voluntary_attack_below_the_table_is_refused_and_a_forced_one_eliminates_the_attacker(project, capsys):
    game = _built(project, capsys)
    voluntary = game.resolve_combat(_combat(1, 4), 3)                  # 1:4, below 1:2
    assert voluntary.column is None and voluntary.result.text == "NA" and voluntary.result.not_allowed
    assert voluntary.refused == "odds 1:4 are below the table (left-most column 1:2)"
    assert voluntary.derivation[-1] == "below the table: NA, the attack is not allowed [7.0]"
    forced = game.resolve_combat(_combat(1, 4, forced=True), 3)
    assert forced.column is None and forced.result.text == "AE" and forced.result.attacker_eliminated
    assert forced.refused is None and not forced.result.not_allowed
    assert forced.derivation[-2:] == (
        "a forced attack: below the table it reads AE where a voluntary one reads NA [7.0: combat.below_table_forced]",
        "below the table: AE, no roll [7.0]")
    # on the table a forced attack reads the same column and roll as any other, and says nothing of it
    on_table = game.resolve_combat(_combat(2, 1, forced=True), 5)
    assert on_table.result == game.resolve_combat(_combat(2, 1), 5).result and on_table.result.text == "D1"
    assert not any("forced" in step for step in on_table.derivation)
    # the module's plain `resolve` reads it too
    assert game.resolve(1, 4, 3).not_allowed and game.resolve(1, 4, 3, forced=True).text == "AE"
    assert game.CRT.below_forced == "AE" and game.CRT.forced().below == "AE" and game.CRT.forced() is game.CRT.forced()


def test_unset_a_forced_attack_reads_the_table_as_a_voluntary_one(project, capsys):
    game = _built(project, capsys, FORCED.replace(f"  {FORCED_LINE}\n", "").replace(f"  {EXPECT_FORCED}\n", ""))
    assert game.CRT.below_forced is None and game.CRT.forced() is game.CRT
    forced = game.resolve_combat(_combat(1, 4, forced=True), 3)
    assert forced.result == game.resolve_combat(_combat(1, 4), 3).result and forced.result.not_allowed
    assert not any("forced" in step for step in forced.derivation)
    assert game.resolve(1, 4, 3, forced=True).text == "NA"


def test_leftmost_for_a_forced_attack_reads_the_left_most_column():
    table = CombatResultsTable(dice="1d6", columns=("1:2", "1:1"), rows={"1-6": ("A1", "D1")},
                               below="NA", below_forced="leftmost", codes=None)
    assert table.column((1, 4)) is None and table.forced().column((1, 4)) == "1:2"
    assert table.forced().column((1, 1), shift=-3) == "1:2"              # shifted off the left: the same
    lined = CombatResultsTable(dice="1d6", columns=("1:2", "1:1"), rows={"1-6": ("A1", "D1")}, below="A1",
                               below_forced="leftmost", lines={"close": ("1:1", "2:1")})
    assert lined.line("close").column((1, 2)) is None and lined.forced().line("close").column((1, 2)) == "1:1"


def _board(attack: int = 1) -> Situation:
    """The worked example's board: blue's w (attack `attack`) at 5.05 beside red's 4-4-4 z at 5.04."""
    units = (Counter("w", "blue", Hex.parse("5.05"), attack=attack, defense=1, movement=4, type="infantry"),
             Counter("z", "red", Hex.parse("5.04"), attack=4, defense=4, movement=4, type="infantry"))
    return Situation(HexMap.rectangle(6, 6), units=units, default_terrain=("clear",), phasing="blue")


def test_assess_and_may_attack_refuse_a_voluntary_attack_below_the_table_before_it_is_made(project, capsys):
    game = _built(project, capsys)
    # the odds before the roll: below the table, a voluntary attack is refused with the table's reason
    voluntary = game.ENGINE.assess(_combat(1, 4))
    assert voluntary.column is None and voluntary.odds == "1:4"
    assert voluntary.refused == "odds 1:4 are below the table (left-most column 1:2)"
    assert voluntary.derivation[-1] == "below the table: NA, the attack is not allowed [7.0]"
    forced = game.ENGINE.assess(_combat(1, 4, forced=True))
    assert forced.refused is None and forced.derivation[-1] == "below the table [7.0]"
    assert game.ENGINE.assess(_combat(2, 1)).refused is None          # on the table: nothing to refuse
    # the engine's may_attack: refused, with the reason and the rule that gives it, unless forced
    refused = game.may_attack(_board(), ["w"], "5.04")
    assert not refused.allowed
    assert refused.reasons == ("odds 1:4 are below the table (left-most column 1:2): the attack is not allowed",)
    assert refused.refused_by == ("7.0",)
    step = next(s for s in refused.steps if s.text.startswith(refused.reasons[0]))
    assert step.text.endswith("; only a forced attack may be made there")
    assert str(step).endswith(f"[rule 7.0; forced, rulebooks/forced.rules:{_line(FORCED, FORCED_LINE)}]"), str(step)
    allowed = game.may_attack(_board(), ["w"], "5.04", forced=True)
    assert allowed.allowed and allowed.reasons == ()
    assert any("this one is forced, and reads the table's forced result" in s.text for s in allowed.steps)
    # an attack on the table says nothing of it: the derivation it had
    on_table = game.may_attack(_board(attack=4), ["w"], "5.04")
    assert on_table.allowed and not any("below the table" in s.text for s in on_table.steps)


def test_without_a_forced_result_even_a_forced_attack_below_the_table_is_refused(project, capsys):
    game = _built(project, capsys, FORCED.replace(f"  {FORCED_LINE}\n", "").replace(f"  {EXPECT_FORCED}\n", ""))
    for forced in (False, True):
        verdict = game.may_attack(_board(), ["w"], "5.04", forced=forced)
        assert not verdict.allowed and verdict.refused_by == ("7.0",)
        assert not any("only a forced attack" in s.text for s in verdict.steps)
    assert game.ENGINE.assess(_combat(1, 4, forced=True)).refused is not None


def test_a_worked_example_of_the_refused_attack_fails_at_its_line_when_wrong(project, capsys):
    wrong = FORCED.replace(EXPECT_REFUSED, "expect attack w on 5.04 allowed")
    project.write("rulebooks/forced.rules", wrong)
    code, _, err = project.run("check", capsys=capsys)
    line = _line(wrong, "expect attack w")
    assert code == 1 and f"rulebooks/forced.rules:{line}:10: error: expected allowed, computed refused\n" in err, err
    assert "odds 1:4 are below the table (left-most column 1:2): the attack is not allowed" in err
    assert "Traceback" not in err
    wrong = FORCED.replace(EXPECT_REFUSED, "expect attack w on 5.04 refused [1.0]")
    project.write("rulebooks/forced.rules", wrong)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and f"rulebooks/forced.rules:{line}:10: error: expected refused [1.0], computed refused [7.0]" \
        in err, err


def _card(project, lang: str) -> str:
    compilation = compile_project(project.root)
    assert [d for d in compilation.diagnostics if d.severity == "error"] == []
    data, _ = charts.card(compilation.resolved["forced"], lang, compilation.labels)
    return charts.render_html(data)


def _text(html: str) -> str:
    """The card's words, tags left out and runs of ordinary white space as one (a no-break space stays)."""
    return re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", "", html))


def test_the_card_says_both_in_players_words_in_english_and_french(project):
    project.write("rulebooks/forced.rules", FORCED)
    english = _text(_card(project, "en"))
    assert "A voluntary attack below the left-most column, with no roll: NA [7.0] " \
           "A forced attack below the left-most column, with no roll: AE [7.0]" in english
    assert "An attack below the left-most column" not in english
    french = _text(_card(project, "fr"))
    assert "Attaque volontaire en deçà de la colonne la plus à gauche, sans jet de dé\u00a0: NA" in french
    assert "Attaque forcée en deçà de la colonne la plus à gauche, sans jet de dé\u00a0: AE" in french
    # the same result for both (or none set for a forced attack): one line, as before
    project.write("rulebooks/forced.rules", FORCED.replace(FORCED_LINE, "combat.below_table_forced = NA")
                  .replace(f"  {EXPECT_FORCED}\n", ""))
    same = _text(_card(project, "en"))
    assert "An attack below the left-most column, with no roll: NA" in same and "forced" not in same
    # a forced attack that reads the left-most column says so
    project.write("rulebooks/forced.rules", FORCED.replace(FORCED_LINE, "combat.below_table_forced = leftmost")
                  .replace(f"  {EXPECT_FORCED}\n", ""))
    assert "A forced attack below the left-most column uses it." in _text(_card(project, "en"))
    assert "Attaque forcée en deçà de la colonne la plus à gauche\u00a0: on utilise celle-ci." in \
        _text(_card(project, "fr"))


def test_a_worked_example_says_forced_and_a_wrong_result_fails_at_its_line(project, capsys):
    project.write("rulebooks/forced.rules", FORCED)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 0, err
    wrong = FORCED.replace(EXPECT_FORCED, EXPECT_FORCED.replace("result AE", "result NA"))
    project.write("rulebooks/forced.rules", wrong)
    code, _, err = project.run("check", capsys=capsys)
    line = _line(wrong, "forced odds 1:4")
    assert code == 1
    assert f"rulebooks/forced.rules:{line}:10: error: expected odds 1:4 column below result NA, computed " \
           "odds 1:4 column below result AE" in err, err
    assert "Traceback" not in err
    # explain takes the same words
    situation = ("map 1.01 - 6.06 clear; phase combat; phasing blue; unit w blue 1-1-4 at 5.05 type infantry; "
                 "unit z red 4-4-4 at 5.04 type infantry")
    project.write("rulebooks/forced.rules", FORCED)
    code, out, err = project.run("explain", str(project.root / "rulebooks/forced.rules"), situation,
                                 "combat", "w", "on", "5.04", "forced", capsys=capsys)
    assert code == 0, err
    assert "a forced attack: below the table it reads AE where a voluntary one reads NA" in out
    assert out.endswith("answer: odds 1:4 column below result AE\n")


def test_fmt_keeps_the_forced_word(project, capsys):
    messy = FORCED.replace(EXPECT_FORCED, EXPECT_FORCED.replace(" forced ", "   forced  "))
    path = project.write("rulebooks/forced.rules", messy)
    code, _, err = project.run("fmt", str(path), capsys=capsys)
    assert code == 0, err
    assert path.read_text(encoding="utf-8") == FORCED


@pytest.mark.parametrize("value, message, hint", [
    ("rightmost", "combat.below_table_forced may name the table's leftmost column, not its rightmost",
     "did you mean 'leftmost'?"),
    ("AEE", "combat.below_table_forced takes one of the declared result codes, not 'AEE'", "did you mean 'AE'?"),
])
def test_a_bad_value_is_an_error_at_the_value(project, capsys, value, message, hint):
    text = FORCED.replace(FORCED_LINE, f"combat.below_table_forced = {value}")
    project.write("rulebooks/forced.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    line = _line(text, "combat.below_table_forced =")
    column = text.split("\n")[line - 1].index(value) + 1
    assert code == 1 and f"rulebooks/forced.rules:{line}:{column}: error: {message}" in err, err
    assert f"hint: {hint}" in err and "Traceback" not in err


def test_diff_reports_a_change_of_the_forced_result(project, capsys):
    old = project.write("old.rules", FORCED)
    new = project.write("new.rules", FORCED.replace(FORCED_LINE, "combat.below_table_forced = A1"))
    code, out, err = project.run("diff", str(old), str(new), capsys=capsys)
    assert code == 1, out + err
    said = "The result of a forced attack (one the rules require) below the left-most odds column (no roll)"
    assert f"[rules] {said}: AE -> A1" in out, out
    # and the worked example that reads it answers otherwise under the new rules
    assert "expect combat w on 5.04 forced: odds 1:4 column below result AE -> odds 1:4 column below result A1" \
        in out, out
    unset = project.write("unset.rules", FORCED.replace(f"  {FORCED_LINE}\n", "").replace(f"  {EXPECT_FORCED}\n", ""))
    code, out, err = project.run("diff", str(unset), str(old), capsys=capsys)
    assert code == 1 and said in out, out
