"""Rules limited to some game turns (issue 25): `zoc.entry_cost = +0 MP  on night`, `... = no  on turns 1`.

A parameter's value on some turns only holds on those turns; its unqualified value on every other.  The
module answers per turn, the rules engine uses the turn a situation says (an example's `turn 3`), `explain`
cites the rule of the turn's value, the card says the turns in players' words in English and French, fmt
aligns them, a diff sees them change, and bad input is a positioned error."""
from __future__ import annotations

import importlib.util
from fractions import Fraction

import pytest

from rulesdsl.errata import diff
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.runtime import RulesInputError
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.situation import Counter, Situation

MOONLESS = '''game moonless "Moonless (a turn rules test title)" version "1.0"

rule 1.0 "Sequence of Play" {
  summary "Each side moves; every third turn is a night turn."
}

sequence of play [1.0] {
  turns night  3 6 9 12
  game turn {
    player turn red
    player turn blue
  }
  player turn {
    movement  [1.0]  movement
  }
}

rule 4.0 "Zones of Control" {
  summary "A unit has a ZOC over the six hexes around it; entering one costs two extra MPs."
  zoc.min_attack_strength = 1 SP
  zoc.range               = 1 hex
  zoc.entry_cost          = +2 MP
}

rule 5.0 "Movement" {
  summary "Units move up to their allowance."
  movement.must_afford_entry = yes
}

rule G8.1 "Night" {
  summary "On night turns a ZOC costs nothing extra to enter; on the first turn a unit may always enter a hex."
  zoc.entry_cost             = +0 MP  on night
  movement.must_afford_entry = no     on turns 1
}

terrain effects chart "Moonless TEC" [5.0] {
  hex:
    open   1  ne
    woods  2  ne
}

example "A ZOC by day" [4.0] {
  map 1.01 - 4.04 open
  unit a red 4-4-6 at 1.02
  unit z blue 4-4-6 at 3.02
  expect move a 2.02 costs 3 legal
}

example "A ZOC by night" [G8.1] {
  map 1.01 - 4.04 open
  turn 3
  unit a red 4-4-6 at 1.02
  unit z blue 4-4-6 at 3.02
  expect move a 2.02 costs 1 legal
}

card {
  reminders: zoc
}

labels fr "Français" {
  turns.night  "nuit"
}
'''


@pytest.fixture
def moonless(project, capsys):
    return project.built("moonless", MOONLESS, capsys=capsys)


def _board(turn: int | None = None) -> Situation:
    units = (Counter("a", "red", Hex.parse("1.02"), attack=Fraction(4), defense=Fraction(4), movement=Fraction(6)),
             Counter("z", "blue", Hex.parse("3.02"), attack=Fraction(4), defense=Fraction(4), movement=Fraction(6)))
    return Situation(HexMap.rectangle(4, 4), default_terrain=("open",), units=units, phasing="red", turn=turn)


def test_the_module_answers_the_value_of_each_turn(moonless):
    entry = moonless.PARAMETERS["zoc.entry_cost"]
    assert str(entry.value) == "+2 MP" and entry.rule == "4.0"
    assert [str(moonless.parameter("zoc.entry_cost", turn)) for turn in (1, 2, 3, 4, 6, 12, 13)] == \
        ["+2 MP", "+2 MP", "+0 MP", "+2 MP", "+0 MP", "+0 MP", "+2 MP"]
    assert str(moonless.parameter("zoc.entry_cost")) == "+2 MP"       # no turn: the value of every other turn
    assert moonless.parameter("movement.must_afford_entry", 1) is False
    assert moonless.parameter("movement.must_afford_entry", 2) is True
    night = entry.on(3)
    assert night.rule == "G8.1" and str(night.turns) == "night turns (3, 6, 9, 12)"
    assert entry.on(4) is entry
    for bad in (0, -1, 2.5, "3", True):
        with pytest.raises(RulesInputError, match="a game turn is a whole number from 1"):
            moonless.parameter("zoc.entry_cost", bad)


def test_the_engine_uses_the_values_of_the_situations_turn(moonless):
    day, night = moonless.move(_board(2), "a", ["2.02"]), moonless.move(_board(3), "a", ["2.02"])
    assert day.costs == (3,) and night.costs == (1,)
    assert moonless.move(_board(), "a", ["2.02"]).costs == (3,)       # no turn: an ordinary turn
    cited = [str(step) for step in night.steps if "zoc.entry_cost" in str(step)]
    assert any("(zoc.entry_cost +0 MP on night turns (3, 6, 9, 12)) [rule G8.1; zoc.entry_cost; moonless, "
               "rulebooks/moonless.rules:32]" in step for step in cited), cited
    assert not any("G8.1" in str(step) for step in day.steps)
    # the reachable hexes agree: beside the enemy, by night, the unit goes further
    assert moonless.reachable(_board(3), "a").costs[Hex.parse("2.02")] == 1 and \
        moonless.reachable(_board(4), "a").costs[Hex.parse("2.02")] == 3
    # the first turn: a unit may enter a hex it cannot afford (movement.must_afford_entry = no on turns 1)
    assert moonless.RULES_ENGINE.on_turn(1).rules.flag("movement.must_afford_entry") is False
    assert moonless.RULES_ENGINE.on_turn(2) is moonless.RULES_ENGINE
    assert moonless.RULES_ENGINE.on_turn(6) is moonless.RULES_ENGINE.on_turn(3).on_turn(6)
    with pytest.raises(ValueError, match="a game turn is a whole number from 1"):
        _board(0)


def test_an_example_on_a_night_turn_passes_and_a_wrong_one_fails_at_its_position(project, capsys):
    project.write("rulebooks/moonless.rules", MOONLESS)
    code, out, err = project.run("check", capsys=capsys)
    assert code == 0, err
    wrong = MOONLESS.replace("  turn 3\n  unit a red 4-4-6 at 1.02\n  unit z blue 4-4-6 at 3.02\n"
                             "  expect move a 2.02 costs 1 legal",
                             "  turn 4\n  unit a red 4-4-6 at 1.02\n  unit z blue 4-4-6 at 3.02\n"
                             "  expect move a 2.02 costs 1 legal")
    assert wrong != MOONLESS
    project.write("rulebooks/moonless.rules", wrong)
    code, _, err = project.run("check", capsys=capsys)
    line = wrong.split("\n").index("  expect move a 2.02 costs 1 legal") + 1
    assert code == 1 and f"moonless.rules:{line}:10: error: expected costs 1 legal, computed costs 3 legal" in err, err
    project.write("rulebooks/moonless.rules", MOONLESS.replace("  turn 3\n", "  turn 3\n  turn 0\n"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "a situation has one 'turn' line" in err and "Traceback" not in err


def test_the_card_says_the_turns_in_english_and_french(project):
    project.write("rulebooks/moonless.rules", MOONLESS)
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(compiled.resolved["moonless"], "en", compiled.labels)[0])
    assert '<td>The extra MPs to enter a hex in an enemy ZOC</td><td class="value short">+2 MP</td>' in english
    assert '<td class="cites" style="width: 12mm"><span>G8.1</span></td><td>On night turns (3, 6, 9, 12)</td>' \
        '<td class="value short">+0 MP</td>' in english
    french = render_html(card(compiled.resolved["moonless"], "fr", compiled.labels)[0])
    assert '<td class="cites" style="width: 12mm"><span>G8.1</span></td><td>Aux tours de nuit (3, 6, 9, 12)</td>' \
        '<td class="value short">+0 MP</td>' in french
    assert "turns." not in french and "sequence." not in french


def test_fmt_aligns_the_turns_and_a_diff_sees_them_change():
    from rulesdsl.language.fmt import format_text
    assert format_text(MOONLESS) == MOONLESS
    squeezed = MOONLESS.replace("zoc.entry_cost             = +0 MP  on night", "zoc.entry_cost = +0 MP on night") \
        .replace("movement.must_afford_entry = no     on turns 1", "movement.must_afford_entry = no on   turns 1")
    assert squeezed != MOONLESS and format_text(squeezed) == MOONLESS
    old = parse(Source("a.rules", MOONLESS))

    def changes(text: str) -> list[str]:
        return [str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(parse(Source("b.rules", text))))]
    changed = changes(MOONLESS.replace("+0 MP  on night", "+1 MP  on night"))
    assert changed == ["The extra MPs to enter a hex in an enemy ZOC, on night turns: +0 MP -> +1 MP"], changed
    removed = changes(MOONLESS.replace("  movement.must_afford_entry = no     on turns 1\n", ""))
    assert any("on turns 1" in c and "removed" in c for c in removed), removed
    moved = changes(MOONLESS.replace("+0 MP  on night", "+0 MP  on turns 3"))
    assert any("on turns 3" in c for c in moved) and any("night turns" in c for c in moved), moved
    assert changes(MOONLESS.replace("  turn 3\n", "  turn 4\n")) == ["A ZOC by night turn: 3 -> 4"]


@pytest.mark.parametrize("old, new, message, at", [
    ("+0 MP  on night", "+0 MP  on nigth",
     "zoc.entry_cost is set on the turn set 'nigth', which the sequence of play does not declare", "nigth"),
    ("+0 MP  on night", "+0 MP  not on night",
     "zoc.entry_cost: a value holds on the turns it names, not on every turn but them", "not on night"),
    ("no     on turns 1", "no     on turns 0", "'0' names turn 0: game turns count from 1", "0\n"),
    ("no     on turns 1", "no     on turns 3-1", "the turns '3-1' run backwards", "3-1"),
    ("no     on turns 1", "no     on turns 1-", "'1-' is no range of game turns: a range has both ends", "1-"),
    ("+0 MP  on night", "+0 MP  on turns 6-7",
     "zoc.entry_cost has two values on one game turn: on turns 6-7 and on night (rule G8.1)", "on turns 6-7"),
    ("+0 MP  on night", "+0 steps  on night", "zoc.entry_cost is measured in MP, not steps", "steps"),
    ("+0 MP  on night", "yes  on night", "zoc.entry_cost takes a signed change in MP (like +2 MP), not 'yes'",
     "yes  on"),
    ("movement.must_afford_entry = no ", "movement.may_save_mp       = no ",
     "movement.may_save_mp has a value on turns 1 but none for the other turns", "movement.may_save_mp"),
])
def test_bad_turn_values_are_errors_at_their_position(project, capsys, old, new, message, at):
    text = MOONLESS.replace(old, new, 1)
    if "6-7" in new:     # a second value that overlaps the first: night has turn 6
        text = text.replace("  zoc.entry_cost             = +0 MP  on turns 6-7\n",
                            "  zoc.entry_cost             = +0 MP  on night\n  zoc.entry_cost = +1 MP  on turns 6-7\n")
    project.write("rulebooks/moonless.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    offset = text.index(at, text.index("rule G8.1"))
    line = text.count("\n", 0, offset) + 1
    column = offset - text.rindex("\n", 0, offset)
    assert code == 1 and f"moonless.rules:{line}:{column}: error: {message}" in err, err
    assert "^" in err and "Traceback" not in err
    if "nigth" in new:
        assert "did you mean 'night'?" in err


def test_a_value_combat_resolution_reads_cannot_change_by_turn(project, capsys):
    text = MOONLESS.replace('''  movement.must_afford_entry = yes
}''', '''  movement.must_afford_entry = yes
  combat.imaginary_columns = no
}''').replace("  movement.must_afford_entry = no     on turns 1\n",
              "  movement.must_afford_entry = no     on turns 1\n  combat.imaginary_columns = yes  on night\n")
    project.write("rulebooks/moonless.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "combat.imaginary_columns cannot change by game turn" in err, err


SERIES = '''series dusk "Dusk Series (a turn rules test)" version "1.0"

rule 1.0 "Sequence of Play" {
  summary "Each side moves; some turns are night turns."
}

sequence of play [1.0] {
  turns night  3 6
  game turn {
    player turn first
    player turn second
  }
  player turn {
    movement  [1.0]  movement
  }
}

rule 4.0 "Zones of Control" {
  summary "Entering an enemy ZOC costs two extra MPs."
  zoc.entry_cost = +2 MP
}
'''

GAME = '''game twilight "Twilight (a turn rules test game)" version "1.0" extends dusk

rule G8.1 "Night" {
  summary "At night a ZOC costs one extra MP to enter."
  zoc.entry_cost = +1 MP  on night
}
'''


def test_a_game_gives_its_series_parameter_a_night_value_and_an_amendment_changes_it(project, capsys):
    project.write("rulebooks/dusk.rules", SERIES)
    project.write("rulebooks/twilight.rules", GAME)
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    game = project.module("twilight")
    assert [str(game.parameter("zoc.entry_cost", t)) for t in (2, 3, 6)] == ["+2 MP", "+1 MP", "+1 MP"]
    assert game.PARAMETERS["zoc.entry_cost"].on(3).origin == "twilight"
    project.write("rulebooks/twilight.rules", GAME + '''
amend rule 4.0 {
  zoc.entry_cost = +3 MP  on turns 1
}
''')
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    game = project.module("twilight")
    assert [str(game.parameter("zoc.entry_cost", t)) for t in (1, 2, 3)] == ["+3 MP", "+2 MP", "+1 MP"]
