"""Phases on some game turns only: a sequence of play names sets of game turns (`turns night 3 6 9 12`) and a
phase says which turns it happens on (`not on night`, `on turns 2+`).  The module answers which phases a turn
has, the card says it in players' words in English and French, fmt aligns it, a diff sees it change, an
amendment keeps it, and a set not declared or a bad turn is a positioned error."""
from __future__ import annotations

import importlib.util

import pytest

from rulesdsl.errata import diff
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse
from rulesdsl.runtime import RulesInputError
from rulesdsl.runtime.model import Phase, TurnSet
from rulesdsl.runtime.notation import parse_turns

NIGHTFALL = '''game nightfall "Nightfall (a turns test title)" version "1.0"

rule 1.0 "Sequence of Play" {
  summary "Weather from the second turn; each side moves, then attacks, but nobody attacks at night."
}

sequence of play [1.0] {
  turns night  3 6 9 12
  turns mud    5-7 20+
  game turn {
    weather  [1.0]  weather  on turns 2+
    player turn red
    player turn blue
  }
  player turn {
    movement  [1.0]  movement
    combat    [1.0]  combat, advance  not on night  "the attacker only"
    supply    [1.0]  supply-check     not on mud
  }
}

labels fr "Français" {
  turns.night       "nuit"
  turns.mud         "boue"
  phase.weather     "Météo"
  phase.movement    "Mouvement"
  phase.combat      "Combat"
  phase.supply      "Ravitaillement"
  player-turn.red   "Rouge"
  player-turn.blue  "Bleu"
}
'''


@pytest.fixture
def nightfall(project, capsys):
    return project.built("nightfall", NIGHTFALL, capsys=capsys)


def _names(phases) -> list[str]:
    return [phase.name for phase in phases]


def test_turns_read_as_written():
    assert parse_turns("3") == (3, 3) and parse_turns("5-8") == (5, 8) and parse_turns("11+") == (11, None)
    for wrong in ("0", "8-5", "3-", "0+", "", "+3", "3.5", "1-0"):
        assert parse_turns(wrong) is None, wrong
    night = TurnSet("night", ((3, 3), (6, 6), (9, None)))
    assert [turn for turn in range(1, 13) if turn in night] == [3, 6, 9, 10, 11, 12]
    assert True not in night and "3" not in night and str(night) == "night turns (3, 6, 9+)"
    assert Phase("combat").on(3) and not Phase("combat", not_on_turns=night).on(3)
    assert Phase("weather", on_turns=TurnSet(None, ((2, None),))).on(2)
    assert not Phase("weather", on_turns=TurnSet(None, ((2, None),))).on(1)


def test_the_module_answers_which_phases_a_turn_has(nightfall):
    # the sequence as it always was: every phase, whatever the turn
    assert nightfall.PLAYER_TURN == ("movement", "combat", "supply")
    assert list(nightfall.PLAYER_TURNS) == ["red", "blue"]
    assert set(nightfall.TURN_SETS) == {"night", "mud"}
    assert [t for t in range(1, 25) if t in nightfall.TURN_SETS["mud"]] == [5, 6, 7, 20, 21, 22, 23, 24]
    # turn 1: no weather yet; turn 3: night, no combat; turn 6: night and mud; turn 20 on: mud for ever
    assert _names(nightfall.phases(1)) == ["movement", "combat", "supply"] * 2
    assert _names(nightfall.phases(2)) == ["weather"] + ["movement", "combat", "supply"] * 2
    assert _names(nightfall.phases(3, "red")) == ["movement", "supply"]
    assert _names(nightfall.phases(6, "blue")) == ["movement"]
    assert _names(nightfall.phases(7, "blue")) == ["movement", "combat"]
    assert _names(nightfall.phases(8, "red")) == ["movement", "combat", "supply"]
    assert _names(nightfall.phases(21, "red")) == ["movement", "combat"]
    turn = nightfall.game_turn(3)
    assert [item.name for item in turn] == ["weather", "red", "blue"]
    assert [_names(item.phases) for item in turn[1:]] == [["movement", "supply"]] * 2
    combat = nightfall.PLAYER_TURN_PHASES[1]
    assert combat.not_on_turns is nightfall.TURN_SETS["night"] and combat.note == "the attacker only"
    assert [t for t in range(1, 13) if not combat.on(t)] == [3, 6, 9, 12]
    for bad in (0, -1, 2.5, "3", True):
        with pytest.raises(RulesInputError, match="a game turn is a whole number from 1"):
            nightfall.phases(bad)
    with pytest.raises(RulesInputError, match="unknown player turn 'rde'; did you mean 'red'"):
        nightfall.phases(3, "rde")


def test_the_card_says_it_next_to_the_phase_in_english_and_french(project):
    project.write("rulebooks/nightfall.rules", NIGHTFALL)
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(compiled.resolved["nightfall"], "en", compiled.labels)[0])
    assert '2. Combat<br><span class="note turns">not on night turns (3, 6, 9, 12)</span>' in english
    assert '3. Supply<br><span class="note turns">not on mud turns (5\u20137, 20 and later)</span>' in english
    assert '<span class="break">Weather</span>, <span class="note turns">from turn 2 on</span>' in english
    french = render_html(card(compiled.resolved["nightfall"], "fr", compiled.labels)[0])
    assert '2. Combat<br><span class="note turns">sauf aux tours de nuit (3, 6, 9, 12)</span>' in french
    assert "sauf aux tours de boue (5\u20137, 20 et suivants)" in french
    assert '<span class="note turns">à partir du tour 2</span>' in french
    assert "turns." not in french and "sequence." not in french     # no label key printed for want of words


def test_a_phase_on_listed_turns_reads_as_players_say_it(project):
    listed = NIGHTFALL.replace("not on night  ", "on turns 1 4-5").replace("not on mud", "not on turns 1")
    project.write("rulebooks/nightfall.rules", listed)
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(compiled.resolved["nightfall"], "en", compiled.labels)[0])
    assert "only on turns 1, 4\u20135" in english and "not on turn 1<" in english
    french = render_html(card(compiled.resolved["nightfall"], "fr", compiled.labels)[0])
    assert "seulement aux tours 1, 4\u20135" in french and "sauf au tour 1<" in french


def test_fmt_aligns_the_turns_and_a_diff_sees_them_change():
    from rulesdsl.language.fmt import format_text
    assert format_text(NIGHTFALL) == NIGHTFALL
    squeezed = NIGHTFALL.replace("turns night  3 6 9 12", "turns night 3 6 9 12") \
        .replace("    combat    [1.0]  combat, advance  not on night  \"the attacker only\"",
                 "    combat [1.0] combat, advance not on night \"the attacker only\"")
    assert squeezed != NIGHTFALL and format_text(squeezed) == NIGHTFALL
    old = parse(Source("a.rules", NIGHTFALL))

    def changes(text: str) -> list[str]:
        return [str(c) for c in diff.compare(diff.snapshot(old), diff.snapshot(parse(Source("b.rules", text))))]
    assert any("turn set night" in c and "3 6 9 12" in c and "3 6 9" in c
               for c in changes(NIGHTFALL.replace("3 6 9 12", "3 6 9")))
    assert any("combat turns" in c and "not on night" in c and "not on mud" in c
               for c in changes(NIGHTFALL.replace("not on night", "not on mud  ")))
    assert any("weather turns" in c and "on turns 2+" in c and "(none)" in c
               for c in changes(NIGHTFALL.replace("  on turns 2+", "")))
    assert any("turn set dawn" in c for c in changes(NIGHTFALL.replace("  turns mud", "  turns dawn  1\n  turns mud")))


@pytest.mark.parametrize("old, new, message, at", [
    ("not on night", "not on nigth", "phase 'combat' names the turn set 'nigth', which the sequence of play "
                                     "does not declare", "nigth"),
    ("turns night  3 6 9 12", "turns night  0 6 9 12", "'0' names turn 0: game turns count from 1", "0 6"),
    ("turns night  3 6 9 12", "turns night  3 6 12-9", "the turns '12-9' run backwards", "12-9"),
    ("on turns 2+", "on turns 2-", "'2-' is no range of game turns: a range has both ends", "2-"),
    ("turns night  3 6 9 12", "turns night  3 6 9 6", "'6' repeats a turn of '6' in turn set 'night'", "6\n"),
    ("turns mud    5-7 20+", "turns night  5-7 20+", "turn set 'night' is declared twice", "night  5"),
])
def test_bad_names_and_turns_are_errors_at_their_position(project, capsys, old, new, message, at):
    text = NIGHTFALL.replace(old, new, 1)
    project.write("rulebooks/nightfall.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    offset = text.index(at, text.index(new))
    line = text.count("\n", 0, offset) + 1
    column = offset - text.rindex("\n", 0, offset)
    assert code == 1 and f"nightfall.rules:{line}:{column}: error: {message}" in err, err
    assert "^" in err and "Traceback" not in err
    if "nigth" in new:
        assert "did you mean 'night'?" in err


def test_a_set_no_sequence_declares_says_how_to_declare_one(project, capsys):
    text = NIGHTFALL.replace("  turns night  3 6 9 12\n  turns mud    5-7 20+\n", "") \
        .replace("not on mud", "not on rain")
    project.write("rulebooks/nightfall.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "the turn set 'night', which the sequence of play does not declare" in err
    assert "hint: declare it in the sequence of play, before the turns: turns rain 3 6 9" in err


def test_a_syntax_error_in_the_turns_is_positioned(project, capsys):
    project.write("rulebooks/nightfall.rules", NIGHTFALL.replace("turns night  3 6 9 12", "turns night  3.5"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "nightfall.rules:8:17: error: unexpected '.5'" in err and "game turns (like 3, 5-8 or 11+)" in err
    assert "Traceback" not in err


SERIES = '''series dusk "Dusk Series (a turns test)" version "1.0"

rule 1.0 "Sequence of Play" {
  summary "Each side moves, then attacks; night turns have no combat."
}

sequence of play [1.0] {
  turns night  3 6
  game turn {
    player turn first
    player turn second
  }
  player turn {
    movement  [1.0]  movement
    combat    [1.0]  combat   not on night
  }
}
'''

GAME = '''game twilight "Twilight (a turns test game)" version "1.0" extends dusk

amend sequence of play {
  turns night  4 8
  player turn {
    movement  [1.0]  movement  not on night
  }
}
'''


def test_an_amendment_changes_a_set_and_a_phase_and_keeps_the_rest(project, capsys):
    project.write("rulebooks/dusk.rules", SERIES)
    project.write("rulebooks/twilight.rules", GAME)
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    series, game = project.module("dusk"), project.module("twilight")
    assert _names(series.phases(3, "first")) == ["movement"] and _names(series.phases(4, "first")) == ["movement", "combat"]
    # the game's night is turns 4 and 8: its combat (inherited) and its movement (amended) skip them
    assert _names(game.phases(3, "first")) == ["movement", "combat"]
    assert _names(game.phases(4, "second")) == []
    assert str(game.TURN_SETS["night"]) == "night turns (4, 8)"
    source = (project.root / "generated" / "twilight.py").read_text(encoding="utf-8")
    assert "# turn set night: 4 8, amended by twilight (rulebooks/twilight.rules:4)" in source
    assert "# phase player turn: movement: [1.0] movement not on night, amended by twilight" in source
    from rulesdsl.cards.charts import card, render_html
    from rulesdsl.project.build import compile_project
    compiled = compile_project(project.root, examples=False, generate=False)
    english = render_html(card(compiled.resolved["twilight"], "en", compiled.labels)[0])
    assert english.count("not on night turns (4, 8)") == 2


def test_an_amendment_naming_a_set_nobody_declares_is_an_error(project, capsys):
    project.write("rulebooks/dusk.rules", SERIES)
    project.write("rulebooks/twilight.rules", GAME.replace("  turns night  4 8\n", "")
                  .replace("not on night", "not on nihgt"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "twilight.rules:5:39: error: phase 'movement' names the turn set 'nihgt'" in err, err
    assert "did you mean 'night'?" in err
    project.write("rulebooks/twilight.rules", GAME.replace("turns night  4 8", "turns night  3 6"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1 and "amendment of turn set 'night' changes nothing" in err


NIGHT_EXAMPLES = '''
example "Nobody attacks at night; the weather comes from turn 2" [1.0] {
  note "A sequence-of-play example needs no map: what a turn has does not depend on where the units are."
  expect phases red turn 2   movement combat supply
  expect phases red turn 3   movement supply
  expect phases blue turn 6  movement
  expect phases turn 1       movement combat supply movement combat supply
  expect phases turn 2       weather movement combat supply movement combat supply
}
'''


def test_an_example_proves_which_phases_a_turn_has_and_a_wrong_one_is_positioned(project, capsys):
    project.write("rulebooks/nightfall.rules", NIGHTFALL + NIGHT_EXAMPLES)
    code, out, err = project.run("check", capsys=capsys)
    assert code == 0, err
    wrong = NIGHT_EXAMPLES.replace("red turn 3   movement supply", "red turn 3   movement combat supply")
    project.write("rulebooks/nightfall.rules", NIGHTFALL + wrong)
    code, _, err = project.run("check", capsys=capsys)
    line = (NIGHTFALL + wrong).splitlines().index("  expect phases red turn 3   movement combat supply") + 1
    assert code == 1 and f"nightfall.rules:{line}:10: error: expected movement combat supply, computed " \
        "movement supply" in err, err
    # the derivation says which phase is skipped, why, and the rule
    assert "combat: skipped on game turn 3 (not on night turns (3, 6, 9, 12)) [rule 1.0]" in err


@pytest.mark.parametrize("query, message, hint, at", [
    ("expect phases green turn 3  movement", "the sequence of play has no player turn 'green'",
     "its player turns are red, blue", "green"),
    ("expect phases rde turn 3  movement", "the sequence of play has no player turn 'rde'",
     "did you mean 'red'?", "rde"),
    ("expect phases red turn 0  movement", "there is no game turn 0: the first is 1", "phases turn 3", "phases"),
    ("expect phases red turn 3", "this expect line says nothing of what the rules answer",
     "end it with the phases that turn has", "phases"),
])
def test_a_bad_phases_query_is_a_positioned_error(project, capsys, query, message, hint, at):
    text = NIGHTFALL + f'\nexample "x" [1.0] {{\n  {query}\n}}\n'
    project.write("rulebooks/nightfall.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    line = text.splitlines().index(f"  {query}") + 1
    assert code == 1 and f"nightfall.rules:{line}:{query.index(at) + 3}: error: {message}" in err, err
    assert hint in err and "^" in err and "Traceback" not in err


def test_explain_answers_a_phases_query_with_no_situation(project, capsys):
    project.write("rulebooks/nightfall.rules", NIGHTFALL)
    project.write("empty.situation", "")
    code, out, err = project.run("explain", str(project.root / "rulebooks/nightfall.rules"),
                                 str(project.root / "empty.situation"), "phases", "turn", "5", capsys=capsys)
    assert code == 0, err
    assert "red supply: skipped on game turn 5 (not on mud turns (5-7, 20+)) [rule 1.0]" in out
    assert "weather: played on game turn 5 (only on turns 2+) [rule 1.0]" in out
    assert out.rstrip().endswith("answer: weather movement combat movement combat")


def test_fmt_keeps_a_phases_example_and_a_diff_sees_its_answer_change():
    from rulesdsl.language.fmt import format_text
    text = NIGHTFALL + NIGHT_EXAMPLES
    formatted = format_text(text)
    assert parse(Source("f.rules", formatted)) == parse(Source("f.rules", formatted))
    assert "  expect phases blue turn 6 movement\n" in formatted and format_text(formatted) == formatted
    changed = text.replace("blue turn 6  movement", "blue turn 6  movement supply")
    changes = [str(c) for c in diff.compare(diff.snapshot(parse(Source("a.rules", text))),
                                            diff.snapshot(parse(Source("b.rules", changed))))]
    assert any("phases blue turn 6" in c and "movement supply" in c for c in changes), changes
