"""Declared result codes: a classic 1d6 game's DE/DR/DRL/EX/AL/NE, and attacks below 1:1 not allowed,
say what they mean, and that meaning is what validate, the module, the card and the odds read."""
from __future__ import annotations

import importlib.util
from fractions import Fraction

import pytest

from rulesdsl.cards import charts
from rulesdsl.checks import validate
from rulesdsl.cards.outcomes import distribution
from rulesdsl.project.build import compile_project
from rulesdsl.runtime.notation import read_result
from rulesdsl.runtime.tables import row_for
from rulesdsl.language.source import Source
from rulesdsl.language.transform import parse

SERIES = """\
series classic "Classic Rules" version "1.0"

rounding standard: down, odds favour defender   [7.0]

rule 7.0 "Combat" {
  summary "Attacks below 1:1 are not allowed."
  combat.below_table = NA
  combat.above_table = rightmost
}

unit types {
  infantry  infantry
}

terrain effects chart {
  hex:
    clear  1  ne
}

result codes "Combat results" [7.0] {
  DE   defender loses all
  DR   defender retreats 2 hexes
  DRL  defender retreats 1, defender loses 1 step
  EX   exchange
  AL   attacker loses 1 unit
  AE   attacker loses all
  NE   no effect
  NA   not allowed
}
"""

GAME = """\
game classic-game "A Classic Game" version "1.0" extends classic

combat results table "CRT" dice 1d6 {
  odds  1:1  2:1  3:1  4:1  5:1  6:1
  1     AL   DR   DR   DRL  DE   DE
  2     AL   NE   DR   DR   DRL  DE
  3     AE   AL   EX   DR   DR   DE
  4     NE   AL   AL   EX   DR   DRL
  5     AE   EX   NE   AL   EX   DR
  6     AE   AE   AL   NE   AL   EX
}
"""


def classic(project, game: str = GAME, series: str = SERIES):
    project.write("rulebooks/classic.rules", series)
    project.write("rulebooks/classic-game.rules", game)
    return project


def load_module(project, name: str = "classic_game"):
    return project.module(name)


def test_the_classic_game_builds_and_its_results_carry_the_declared_meaning(project, capsys):
    classic(project)
    code, out, err = project.run("build", capsys=capsys)
    assert code == 0, err
    game = load_module(project)
    assert set(game.RESULT_CODES) == {"DE", "DR", "DRL", "EX", "AL", "AE", "NE", "NA"}
    exchange = game.resolve(3, 1, 3)
    assert exchange.text == "EX" and exchange.exchange and not exchange.no_effect
    eliminated = game.resolve(6, 1, 1)
    assert eliminated.defender_eliminated and eliminated.defender_steps == 0      # all units, not 4 steps
    below = game.resolve(1, 2, 4)                                                 # 1:2, no roll
    assert below.text == "NA" and below.not_allowed
    assert game.resolve(5, 2, 3).attacker_units == 1                              # 2:1 (rounded down), AL
    drl = game.resolve(4, 1, 1)
    assert (drl.defender_steps, drl.defender_retreat) == (1, 1)
    assert game.resolve(1, 1, 4).no_effect
    # the whole engine, unit by unit
    from rulesdsl.runtime import AttackingHex, Combat, Unit
    combat = Combat(attacking_hexes=(AttackingHex(units=(Unit(type="infantry", attack=6),)),),
                    defenders=(Unit(type="infantry", defense=2),), defender_terrain="clear")
    assert game.resolve_combat(combat, 3).result.exchange
    weak = Combat(attacking_hexes=(AttackingHex(units=(Unit(type="infantry", attack=1),)),),
                  defenders=(Unit(type="infantry", defense=3),), defender_terrain="clear")
    resolution = game.resolve_combat(weak, 6)
    assert resolution.result.not_allowed and resolution.column is None


def _card(project, lang: str = "en"):
    compilation = compile_project(project.root)
    assert [d for d in compilation.diagnostics if d.severity == "error"] == []
    data, _ = charts.card(compilation.resolved["classic-game"], lang, compilation.labels)
    return data


def test_the_card_prints_the_games_own_codes_with_their_legend(project):
    classic(project)
    data = _card(project)
    legend = {c["code"]: c["meaning"].text for c in data["codes"]}
    assert legend == {"DE": "defender eliminated", "DR": "defender retreats 2 hexes",
                      "DRL": "defender retreats 1 hex; defender loses 1 step", "EX": "exchange",
                      "AL": "attacker loses 1 unit", "AE": "attacker eliminated", "NE": "no effect",
                      "NA": "attack not allowed"}
    html = charts.render_html(data)
    assert 'id="result-codes"' in html and "<span class=\"key\">DRL</span> defender retreats 1 hex" in html
    assert "loses # steps" not in html              # no steps-first legend: the game never says it
    # both sides' codes take whole units or everything: an average of steps would read 0.00 beside AL
    assert "steps (average)" not in html and ">Attacker loses<" in html
    assert ">DE<" in html and ">D4<" not in html
    assert "An attack below the left-most column, with no roll:" in html and '<span class="key">NA</span>' in html
    french = {c["code"]: c["meaning"] for c in _card(project, "fr")["codes"]}
    assert french["DE"].text == "défenseur : éliminé" and not french["DE"].fallback
    assert french["NA"].text == "attaque interdite"


def test_the_odds_under_each_column_come_from_the_declared_meaning(project):
    classic(project)
    results = _card(project)["results"]
    by_column = {o["column"]: o for o in results["outcome"]}
    more = {row["label"].text: row["cells"] for row in results["more_outcome"]}
    # 6:1 reads DE DE DE DRL DR EX: the defender loses on 5 rolls in 6, is eliminated on 3,
    # and the only step it loses by name is DRL's one (an elimination is not 4 steps)
    assert by_column["6:1"]["defender_step"] == "83.3%"
    assert by_column["6:1"]["defender_steps"] == "0.17"
    assert more["Defender eliminated"][-1] == "50.0%"
    assert more["Exchange"][-1] == "16.7%"
    # 1:1 reads AL AL AE NE AE AE
    assert by_column["1:1"]["defender_step"] == "0.0%"
    assert more["Attacker eliminated"][0] == "50.0%"
    assert results["defender_step_label"].text == "Defender loses"
    # every column against a count over the die, read through the meaning the module itself carries
    game = parse(Source("g.rules", GAME)).results[0]
    rows = {r.label.value: tuple(c.value for c in r.cells) for r in game.rows}
    series = parse(Source("s.rules", SERIES))
    from rulesdsl.model.codes import declared
    codes = declared(series.result_codes[0])
    for index, column in enumerate(c.value for c in game.columns):
        read = [read_result(row_for(rows, roll)[index], "declared", codes) for roll in distribution("1d6")]
        eliminated = Fraction(sum(r.defender_eliminated for r in read), 6)
        loses = Fraction(sum(r.defender_loses for r in read), 6)
        from rulesdsl.cards.wording import percent
        assert more["Defender eliminated"][index] == percent(eliminated, "en"), column
        assert by_column[column]["defender_step"] == percent(loses, "en"), column


def test_fmt_round_trips_the_codes_and_diff_sees_a_changed_meaning(project, capsys):
    messy = SERIES.replace("  DE   defender loses all", "  DE defender   loses all").replace(
        "  DRL  defender retreats 1, defender loses 1 step", "  DRL    defender retreats 1 ,  defender loses 1 step")
    assert messy != SERIES
    classic(project, series=messy)
    path = project.root / "rulebooks/classic.rules"
    code, _, err = project.run("fmt", str(path), capsys=capsys)
    assert code == 0, err
    formatted = path.read_text(encoding="utf-8")
    assert parse(Source("a", formatted)) == parse(Source("b", SERIES))
    code, _, err = project.run("fmt", "--check", str(path), capsys=capsys)
    assert code == 0, err
    changed = project.write("changed.rules", formatted.replace("  EX   exchange", "  EX   exchange, attacker loses 1 step"))
    code, out, err = project.run("diff", str(path), str(changed), capsys=capsys)
    assert "EX" in out and "attacker loses 1 step" in out, out + err


def _problems(text: str):
    return validate.check(parse(Source("x.rules", text)))


HEAD = 'series x "X" version "1.0"\n\n'


@pytest.mark.parametrize("block, message, hint", [
    ("result codes {\n  DE  defender loses all\n  DE  no effect\n}\n",
     "result code 'DE' is declared twice", "the first is at line 4; keep one"),
    ("result codes {\n  NA  not allowed, attacker loses 1\n}\n",
     "'not allowed' says all a code does: it takes no other clause", "remove the other clauses of NA"),
    ("result codes {\n  DR  defender retreats 2 steps\n}\n",
     "a side retreats a number of hex/hexes, not 'steps'", "write hex or hexes"),
    ("result codes {\n  AL  attacker loses 1 unitz\n}\n",
     "a side loses a number of step/steps/unit/units, not 'unitz'", "did you mean 'unit'?"),
    ("result codes {\n  DL  defender loses 1, defender loses 2\n}\n",
     "DL says 'loses' twice for the defender", "say it once"),
    ("result codes family steps-frist {\n  DE  defender loses all\n}\n",
     "unknown result family 'steps-frist'", "did you mean 'steps-first'?"),
])
def test_a_wrong_declaration_is_a_positioned_error(block, message, hint):
    [problem] = _problems(HEAD + block)
    assert (problem.message, problem.hint) == (message, hint)
    assert problem.span.line >= 3 and problem.span.column > 1


def test_a_cell_must_be_a_declared_code(project, capsys):
    """The game's table is read in the codes its series declares: an undeclared cell is an error at the cell."""
    classic(project, game=GAME.replace("1     AL   DR   DR   DRL  DE   DE", "1     AL   DR   DR   DRL  DE   DEE"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "classic-game.rules:5:34: error: 'DEE' is not a combat result" in err
    assert "hint: did you mean 'DE'?" in err


def test_with_no_family_a_dash_is_no_code(project, capsys):
    classic(project, game=GAME.replace("2     AL   NE", "2     AL   -  "))
    code, _, err = project.run("check", capsys=capsys)
    assert "error: '-' is not a combat result" in err
    assert "the declared codes are DE, DR, DRL, EX, AL, AE, NE, NA" in err


def test_below_the_table_must_be_a_declared_code(project, capsys):
    classic(project, series=SERIES.replace("combat.below_table = NA", "combat.below_table = NAA"))
    code, _, err = project.run("check", capsys=capsys)
    assert code == 1
    assert "classic.rules:7:24: error: combat.below_table takes one of the declared result codes, not 'NAA'" in err
    assert "hint: did you mean 'NA'?" in err


def test_a_family_takes_in_its_notation_besides_the_declared_codes(project, capsys):
    series = SERIES.replace('result codes "Combat results" [7.0] {', 'result codes "Combat results" [7.0] family steps-first {')
    game = GAME.replace("1     AL   DR   DR   DRL  DE   DE", "1     A1r1 DR   DR   DRL  D2   DE")
    classic(project, game=game, series=series)
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    module = load_module(project)
    assert module.resolve(1, 1, 1).attacker_steps == 1 and module.resolve(1, 1, 1).attacker_retreat == 1
    assert module.resolve(6, 1, 1).defender_eliminated
    assert module.resolve(5, 1, 1).defender_steps == 2


def test_a_table_notation_that_contradicts_the_family_is_an_error(project, capsys):
    series = SERIES.replace('result codes "Combat results" [7.0] {', 'result codes "Combat results" [7.0] family steps-first {')
    classic(project, game=GAME.replace("dice 1d6 {", "dice 1d6 notation retreat-first {"), series=series)
    code, _, err = project.run("check", capsys=capsys)
    assert "error: the table is written in retreat-first notation, but the result codes say family steps-first" in err
    assert "hint: write 'steps-first'" in err


def test_a_game_overrides_its_series_codes(project, capsys):
    game = GAME + '\noverride result codes "Optional results" [7.0] {\n' + "\n".join(
        f"  {c}  no effect" for c in ("DE", "DR", "DRL", "EX", "AL", "AE", "NE")) + "\n  NA  not allowed\n}\n"
    classic(project, game=game)
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    assert load_module(project).resolve(6, 1, 1).no_effect
    # without 'override', a second declaration is an error that says how to write it
    classic(project, game=game.replace("override result codes", "result codes"))
    code, _, err = project.run("check", capsys=capsys)
    assert "the result codes is already defined by classic" in err or "result codes are already" in err
    assert "write 'override result codes' to replace it" in err


def test_a_code_that_marks_a_unit_names_a_declared_state(project, capsys):
    series = SERIES.replace("  NA   not allowed\n", "  NA   not allowed\n  DD   defender becomes disrupted\n")
    classic(project, series=series)
    code, _, err = project.run("check", capsys=capsys)
    assert "classic.rules:29:25: error: unknown unit state 'disrupted'" in err
    assert "hint: declare it in the rulebook's 'unit states:' line" in err
    classic(project, series=series.replace("unit types {", "unit states: disrupted\n\nunit types {"))
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    assert load_module(project).RESULT_CODES["DD"].defender_states == ("disrupted",)
    legend = {c["code"]: c["meaning"].text for c in _card(project)["codes"]}
    assert legend["DD"] == "defender disrupted"


# a classic set where the attacker may retreat (AR) as well as the defender (DR)
RETREATS = SERIES.replace("  AE   attacker loses all\n",
                          "  AE   attacker loses all\n  AR   attacker retreats 1 hex\n")
RETREAT_GAME = GAME.replace("3     AE   AL   EX", "3     AR   AR   EX").replace("6     AE   AE", "6     AR   AE")


def test_the_card_has_an_attacker_retreat_row_beside_the_defenders(project):
    classic(project, RETREAT_GAME, RETREATS)
    results = _card(project)["results"]
    more = {row["label"].text: row["cells"] for row in results["more_outcome"]}
    # 1:1 reads AL AL AR NE AE AR; 2:1 reads DR NE AR AL EX AE; 3:1 and on, no AR
    assert more["Attacker retreats"] == ["33.3%", "16.7%", "0.0%", "0.0%", "0.0%", "0.0%"]
    assert [o["defender_retreat"] for o in results["outcome"]][:2] == ["0.0%", "16.7%"]
    # AL is a unit, not a step: the attacker's losses have a chance row of their own
    assert more["Attacker loses"][0] == "50.0%"
    html = charts.render_html(_card(project) | {})
    assert "<th>Attacker retreats</th><td>33.3%</td><td>16.7%</td>" in html
    french = {row["label"].text: row["label"].fallback for row in _card(project, "fr")["results"]["more_outcome"]}
    assert french["L'attaquant recule"] is False


def test_every_outcome_a_declared_code_can_give_has_its_row(project):
    """One code per kind of meaning (codes.meaning), each on some roll: each gives a row of its own."""
    series = SERIES.replace('  NA   not allowed\n', '''  NA   not allowed
  DA   defender advances 1 hex
  AA   attacker advances 2 hexes
  BT   breakthrough
  DD   defender becomes dg
  DU   defender loses 2 units
''').replace("unit types {", "unit states: dg\n\nunit types {") + \
        'labels fr "Français" {\n  state.dg  "Désorganisé"\n}\n'
    game = GAME.replace("odds  1:1  2:1  3:1  4:1  5:1  6:1\n  1     AL   DR   DR   DRL  DE   DE",
                        "odds  1:1  2:1  3:1  4:1  5:1  6:1\n  1     DA   AA   BT   DD   DU   AR").replace(
        "2     AL   NE", "2     NA   NE")
    classic(project, game, series.replace("  AE   attacker loses all\n",
                                          "  AE   attacker loses all\n  AR   attacker retreats 1 hex\n"))
    results = _card(project)["results"]
    labels = [row["label"].text for row in results["more_outcome"]]
    assert labels == ["Defender eliminated", "Attacker loses", "Attacker eliminated", "Attacker retreats",
                      "Defender advances", "Attacker advances", "Exchange", "Breakthrough", "Defender dg",
                      "No effect", "Attack not allowed"]
    by_label = {row["label"].text: row["cells"] for row in results["more_outcome"]}
    assert by_label["Defender advances"][0] == by_label["Attacker advances"][1] == "16.7%"
    assert by_label["Breakthrough"][2] == by_label["Defender dg"][3] == "16.7%"
    assert by_label["Defender dg"] == ["0.0%", "0.0%", "0.0%", "16.7%", "0.0%", "0.0%"]
    # 5:1 reads DU DRL DR DR EX AL: 2 units lost is a loss for the defender, as DRL's step and EX are
    assert results["outcome"][4]["defender_step"] == "50.0%"
    french = [row["label"] for row in _card(project, "fr")["results"]["more_outcome"]]
    assert not any(label.fallback for label in french)
    assert "Défenseur : désorganisé" in [label.text for label in french]
