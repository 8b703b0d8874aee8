"""Exchanges measured in combat factors: "in an exchange the defender loses all its units; the attacker loses
units whose printed attack factors total at least the defender's defense factors, doubled in woods;
headquarters never pay an exchange".

The rulebook says it in `combat.exchange_measure = factors`, `combat.exchange_counts_terrain = yes` and the
capability `exchange-exempt` of its `hq` unit type.  The generated module's Resolution carries the attacker's
least loss and one choice of units that meets it, with its derivation; a worked example says `exchange 6`; the
card's result codes legend says what EX costs in English and French; a bad value is an error at its position;
diff sees a change."""
from __future__ import annotations

import importlib.util
import re
from html import unescape

import pytest

from rulesdsl.cards import charts
from rulesdsl.project.build import compile_project
from rulesdsl.runtime import AttackingHex, Combat, Unit
from rulesdsl.runtime.engagement import as_combat
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.situation import Counter, Situation

GAME = '''game exchange "Exchanges (a test title)" version "1.0"

rounding down: down [7.0]

rule 1.0 "Sequence of Play" {
  summary "Each side moves, then fights."
}

section units "Units" {
  summary "Infantry, armor and headquarters."
}

unit types [units] {
  infantry
  armor
  hq        exchange-exempt
}

rule 7.0 "Combat" {
  summary "Odds are rounded down."
}

rule 7.4 "Exchanges" {
  summary "The defender loses all its units; the attacker loses units of at least as many printed attack factors as the defender's defense factors, doubled in woods. Headquarters never pay."
  combat.exchange_measure        = factors
  combat.exchange_counts_terrain = yes
}

result codes [7.0] {
  AE  attacker loses all
  A1  attacker loses 1
  DR  defender retreats 1
  DE  defender loses all
  EX  exchange
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
    woods  2  Dx2
}

combat results table "CRT" [7.0] dice 1d6 {
  odds  1:2  1:1  2:1  3:1
  1     AE   A1   EX   DE
  2-3   A1   EX   EX   DE
  4-6   -    DR   DE   DE
}

example "An exchange in the woods" [7.4] {
  map 1.01 - 6.06 clear
  hex 5.04 woods
  phase combat
  phasing blue
  unit a blue 5-4-4 at 5.05 type infantry
  unit b blue 4-4-4 at 5.05 type armor
  unit c blue 3-3-4 at 4.05 type infantry
  unit h blue 2-1-4 at 4.05 type hq
  unit z red 3-3-4 at 5.04 steps 2 type infantry
  expect combat a b c h on 5.04 roll 2 result EX exchange 6
}
'''
TERRAIN_LINE = "  combat.exchange_counts_terrain = yes\n"
MEASURE_LINE = "combat.exchange_measure        = factors"
EXPECT = "expect combat a b c h on 5.04 roll 2 result EX exchange 6"


def _load(project, name: str = "exchange"):
    return project.module(name)


def _built(project, capsys, text: str = GAME):
    project.write("rulebooks/exchange.rules", text)
    code, _, err = project.run("build", capsys=capsys)
    assert code == 0, err
    return _load(project)


def _combat(terrain: str = "woods", defenders: tuple[int, ...] = (3,)) -> Combat:
    return Combat(attacking_hexes=(
        AttackingHex(units=(Unit(type="infantry", attack=5), Unit(type="armor", attack=4)), name="5.05"),
        AttackingHex(units=(Unit(type="infantry", attack=3), Unit(type="hq", attack=2)), name="4.05")),
        defenders=tuple(Unit(type="infantry", defense=d) for d in defenders), defender_terrain=terrain)


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


def test_an_exchange_costs_the_defenders_factors_doubled_in_woods_paid_by_the_fewest_factors(project, capsys):
    game = _built(project, capsys)
    resolution = game.resolve_combat(_combat(), 2)                      # 14 against 3 x 2: 2:1, roll 2: EX
    assert resolution.odds == "2:1" and resolution.result.text == "EX"
    exchange = resolution.exchange
    assert exchange.measure == "factors" and exchange.loss == 6 and not exchange.short
    # the hq never pays: three payers; 4 + 3 = 7 is the least that meets 6 (5 alone falls short, 5 + 3 = 8)
    assert [(u.type, u.attack) for u in exchange.payers] == [("infantry", 5), ("armor", 4), ("infantry", 3)]
    assert [(u.type, u.attack) for u in exchange.chosen] == [("armor", 4), ("infantry", 3)] and exchange.lost == 7
    assert resolution.derivation[-4:] == (
        "exchange: the defender loses every unit, defense factors 3 [7.4: combat.exchange_measure]",
        "the defender's factors count as its terrain multiplies them: 3 x 2 = 6 [7.4: combat.exchange_counts_terrain]",
        "hq 2 from 4.05 never pays an exchange (exchange-exempt)",
        "the attacker loses units of at least 6 printed attack factors; losing the fewest: armor 4 from 5.05, "
        "infantry 3 from 4.05 (7) [7.4: combat.exchange_measure]")
    # in the open nothing doubles: 3 factors, met by the 3 alone
    clear = game.resolve_combat(_combat("clear", (5,)), 2)                # 14 against 5: 2:1
    assert clear.exchange.loss == 5 and [u.attack for u in clear.exchange.chosen] == [5]
    # the payers fall short: all of them are lost, the hq still not
    many = game.resolve_combat(_combat("woods", (4, 3)), 2)               # 14 against 14: 1:1, roll 2: EX
    assert many.exchange.loss == 14 and many.exchange.short and many.exchange.lost == 12
    assert [u.type for u in many.exchange.chosen] == ["infantry", "armor", "infantry"]
    assert "the attacker loses at least 14 attack factors; the units that may pay it have 12: all of them are " \
           "lost [7.4: combat.exchange_measure]" in many.derivation
    # other results carry no exchange
    assert game.resolve_combat(_combat(), 5).exchange is None


def test_without_terrain_counting_the_defenders_printed_factors_count(project, capsys):
    game = _built(project, capsys, GAME.replace(TERRAIN_LINE, "  combat.exchange_counts_terrain = no\n")
                  .replace("exchange 6", "exchange 3"))
    resolution = game.resolve_combat(_combat(), 2)
    assert resolution.exchange.loss == 3 and [u.attack for u in resolution.exchange.chosen] == [3]
    assert "the defender's factors count as printed, 3, not as its terrain multiplies them (6) " \
           "[7.4: combat.exchange_counts_terrain]" in resolution.derivation
    # unset: printed too
    game = _built(project, capsys, GAME.replace(TERRAIN_LINE, "").replace("exchange 6", "exchange 3"))
    assert game.resolve_combat(_combat(), 2).exchange.loss == 3


@pytest.mark.parametrize("measure, loss, said", [
    ("steps", 2, "the attacker loses at least 2 steps, of the units that attacked [7.4: combat.exchange_measure]"),
    ("units", 1, "the attacker loses at least 1 unit, of the units that attacked [7.4: combat.exchange_measure]"),
])
def test_steps_and_units_count_what_the_defender_loses(project, capsys, measure, loss, said):
    text = GAME.replace(MEASURE_LINE, f"combat.exchange_measure        = {measure}").replace(TERRAIN_LINE, "") \
        .replace("exchange 6", f"exchange {loss}")
    game = _built(project, capsys, text)
    combat = _combat()
    combat = Combat(attacking_hexes=combat.attacking_hexes, defenders=(Unit(type="infantry", defense=3, steps=2),),
                    defender_terrain="woods")
    resolution = game.resolve_combat(combat, 2)
    assert resolution.exchange.measure == measure and resolution.exchange.loss == loss
    assert resolution.exchange.chosen == () and said in resolution.derivation


def test_unset_an_exchange_is_the_table_s_code_alone(project, capsys):
    game = _built(project, capsys, GAME.replace(f"  {MEASURE_LINE}\n", "").replace(TERRAIN_LINE, "")
                  .replace(" exchange 6", ""))
    resolution = game.resolve_combat(_combat(), 2)
    assert resolution.result.exchange and resolution.exchange is None
    assert not any("exchange" in step for step in resolution.derivation)


SITUATION = ("map 1.01 - 6.06 clear; hex 5.04 woods; phase combat; phasing blue; "
             "unit a blue 5-4-4 at 5.05 type infantry; unit b blue 4-4-4 at 5.05 type armor; "
             "unit c blue 3-3-4 at 4.05 type infantry; unit h blue 2-1-4 at 4.05 type hq; "
             "unit z red 3-3-4 at 5.04 steps 2 type infantry")


def _board(*defenders: int) -> Situation:
    """The worked example's board: a (infantry 5) and b (armor 4) at 5.05, c (infantry 3) and the hq h at
    4.05, against red's units of `defenses` in the woods of 5.04."""
    def unit(name, side, hex, attack, defense, kind, steps=1):
        return Counter(name, side, Hex.parse(hex), attack=attack, defense=defense, movement=4, type=kind, steps=steps)
    blue = (unit("a", "blue", "5.05", 5, 4, "infantry"), unit("b", "blue", "5.05", 4, 4, "armor"),
            unit("c", "blue", "4.05", 3, 3, "infantry"), unit("h", "blue", "4.05", 2, 1, "hq"))
    red = tuple(unit(f"z{i}", "red", "5.04", 3, d, "infantry", 2) for i, d in enumerate(defenders or (3,)))
    return Situation(HexMap.rectangle(6, 6), units=blue + red, default_terrain=("clear",),
                     terrain={Hex.parse("5.04"): ("woods",)}, phasing="blue")


def _engaged(game, board: Situation, roll: int = 2):
    attackers = ["a", "b", "c", "h"]
    before = game.engage(board, attackers, ["5.04"])
    resolution = game.resolve_combat(as_combat(board, before.attackers, before.defenders, before.terrain_hex), roll)
    return resolution, game.engage(board, attackers, ["5.04"], result=resolution.result,
                                   exchange=resolution.exchange)


def test_the_engagement_names_the_attacking_units_the_exchange_removes(project, capsys):
    game = _built(project, capsys)
    resolution, after = _engaged(game, _board())
    assert resolution.result.text == "EX" and resolution.exchange.lost == 7
    assert after.exchanged == ("b", "c")                   # the armor 4 and the infantry 3: 7, the least over 6
    assert str(after.steps[-1]) == ("the exchange costs the attacker at least 6 attack factors: it loses b, c (7), "
                                    "one choice that meets it [rule 7.4; exchange, rulebooks/exchange.rules:25]")
    # the payers fall short: every one of them is lost, never the hq
    _, short = _engaged(game, _board(4, 3))
    assert short.exchanged == ("a", "b", "c")
    assert short.steps[-1].text == ("the exchange costs the attacker at least 14 attack factors; the units that may "
                                    "pay it fall short, so it loses every one: a, b, c")
    # two units alike, both chosen (3 + 3 meets 6 exactly): each is named once
    twin = _board()
    twin = Situation(twin.map, units=tuple(Counter("d", "blue", Hex.parse("4.05"), attack=3, defense=3, movement=4,
                                                   type="infantry") if u.name == "h" else u for u in twin.units),
                     default_terrain=("clear",), terrain=dict(twin.terrain), phasing="blue")
    before = game.engage(twin, ["a", "b", "c", "d"], ["5.04"])
    resolution = game.resolve_combat(as_combat(twin, before.attackers, before.defenders, before.terrain_hex), 2)
    assert resolution.result.text == "EX" and [u.attack for u in resolution.exchange.chosen] == [3, 3]
    after = game.engage(twin, ["a", "b", "c", "d"], ["5.04"], result=resolution.result, exchange=resolution.exchange)
    assert after.exchanged == ("c", "d")
    # no exchange given, or a result that is none: nothing named, no step
    plain = game.engage(_board(), ["a", "b", "c", "h"], ["5.04"], result=resolution.result)
    assert plain.exchanged == () and not any("exchange costs" in s.text for s in plain.steps)
    other, not_exchange = _engaged(game, _board(), roll=5)
    assert other.exchange is None and not_exchange.exchanged == ()


def test_counted_in_steps_the_attacker_chooses_and_none_is_named(project, capsys):
    text = GAME.replace(MEASURE_LINE, "combat.exchange_measure        = steps").replace(TERRAIN_LINE, "") \
        .replace("exchange 6", "exchange 2")
    game = _built(project, capsys, text)
    resolution, after = _engaged(game, _board())
    assert resolution.exchange.loss == 2 and after.exchanged == ()
    assert after.steps[-1].text == "the exchange costs the attacker at least 2 steps, of the units that attacked: " \
                                   "it chooses which"


def test_explain_says_which_units_the_exchange_removes(project, capsys):
    path = project.write("rulebooks/exchange.rules", GAME)
    code, out, err = project.run("explain", str(path), SITUATION, "combat", "a", "b", "c", "h", "on", "5.04",
                                 "roll", "2", capsys=capsys)
    assert code == 0, err
    assert "the exchange costs the attacker at least 6 attack factors: it loses b, c (7), one choice that meets " \
           "it [rule 7.4" in out, out
    assert out.endswith("answer: odds 2:1 column 2:1 roll 2 result EX exchange 6\n")
    code, out, err = project.run("explain", "--format", "json", str(path), SITUATION, "combat", "a", "b", "c", "h", "on",
                                 "5.04", "roll", "2", capsys=capsys)
    assert code == 0 and '"units": [' in out and '"b"' in out and '"c"' in out, out + err


def _card(project, lang: str) -> str:
    compilation = compile_project(project.root)
    assert [d for d in compilation.diagnostics if d.severity == "error"] == []
    data, _ = charts.card(compilation.resolved["exchange"], lang, compilation.labels)
    return charts.render_html(data)


def _text(html: str) -> str:
    """The card's words, tags left out and runs of ordinary white space as one (a no-break space stays)."""
    return re.sub(r"[ \t\n]+", " ", unescape(re.sub(r"<[^>]+>", "", html)))


def test_the_card_says_what_an_exchange_costs_in_english_and_french(project):
    project.write("rulebooks/exchange.rules", GAME)
    english = _text(_card(project, "en"))
    assert "EX exchange: the defender loses all its units, the attacker units of at least as many printed attack " \
           "factors as the defender's defense factors multiplied by its terrain, HQ never pay it [7.4]" in english
    french = _text(_card(project, "fr"))
    assert "EX échange\u00a0: le défenseur perd toutes ses unités, l'attaquant des unités totalisant au moins " \
           "autant de facteurs d'attaque imprimés que les facteurs de défense du défenseur multipliés par son " \
           "terrain, HQ ne le paient jamais [7.4]" in french
    project.write("rulebooks/exchange.rules", GAME.replace(TERRAIN_LINE, "").replace("exchange 6", "exchange 3"))
    assert "as the defender's printed defense factors, HQ never pay it [7.4]" in _text(_card(project, "en"))
    project.write("rulebooks/exchange.rules", GAME.replace(MEASURE_LINE, "combat.exchange_measure = steps")
                  .replace(TERRAIN_LINE, "").replace(" exchange 6", ""))
    assert "l'attaquant au moins autant de pas, HQ ne le paient jamais [7.4]" in _text(_card(project, "fr"))
    # unset: the code's word alone, as before
    project.write("rulebooks/exchange.rules", GAME.replace(f"  {MEASURE_LINE}\n", "").replace(TERRAIN_LINE, "")
                  .replace(" exchange 6", ""))
    unset = _text(_card(project, "en"))
    assert "EX exchange · " in unset and "never pay" not in unset


def test_a_worked_example_says_what_the_exchange_costs_and_a_wrong_figure_fails_at_its_line(project, capsys):
    project.write("rulebooks/exchange.rules", GAME)
    code, _, err = project.run("check", capsys=capsys)
    assert code == 0, err
    wrong = GAME.replace(EXPECT, EXPECT.replace("exchange 6", "exchange 3"))
    project.write("rulebooks/exchange.rules", wrong)
    code, _, err = project.run("check", capsys=capsys)
    line = _line(wrong, "result EX exchange 3")
    assert code == 1
    assert f"rulebooks/exchange.rules:{line}:10: error: expected roll 2 result EX exchange 3, computed " \
           "roll 2 result EX exchange 6" in err, err
    assert "the attacker loses units of at least 6 printed attack factors" in err and "Traceback" not in err
    # the figure needs the roll its result is read at
    bare = GAME.replace(EXPECT, "expect combat a b c h on 5.04 odds 2:1 exchange 6")
    project.write("rulebooks/exchange.rules", bare)
    code, _, err = project.run("check", capsys=capsys)
    line = _line(bare, "odds 2:1 exchange 6")
    column = bare.split("\n")[line - 1].index("odds") + 1
    assert code == 1 and f"rulebooks/exchange.rules:{line}:{column}: error: what an exchange costs needs the " \
                         "roll its result is read at" in err, err


def test_fmt_keeps_the_exchange_figure(project, capsys):
    messy = GAME.replace(EXPECT, EXPECT.replace(" exchange 6", "   exchange    6"))
    path = project.write("rulebooks/exchange.rules", messy)
    code, _, err = project.run("fmt", str(path), capsys=capsys)
    assert code == 0, err
    assert path.read_text(encoding="utf-8") == GAME.replace("  hq        exchange-exempt", "  hq  exchange-exempt")


@pytest.mark.parametrize("old, new, message, hint", [
    (MEASURE_LINE, "combat.exchange_measure        = factor",
     "combat.exchange_measure takes one of factors, steps, units", "did you mean 'factors'?"),
    (TERRAIN_LINE.strip(), "combat.exchange_counts_terrain = doubled",
     "combat.exchange_counts_terrain takes yes or no", None),
])
def test_a_bad_value_is_an_error_at_the_value(project, capsys, old, new, message, hint):
    text = GAME.replace(old, new)
    project.write("rulebooks/exchange.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    line = _line(text, new)
    value = new.split("= ")[1]
    column = text.split("\n")[line - 1].index(value) + 1
    assert code == 1 and f"rulebooks/exchange.rules:{line}:{column}: error: {message}" in err, err
    assert (hint is None or f"hint: {hint}" in err) and "Traceback" not in err


def test_counting_terrain_needs_the_factors_measure(project, capsys):
    text = GAME.replace(MEASURE_LINE, "combat.exchange_measure        = steps").replace(" exchange 6", "")
    project.write("rulebooks/exchange.rules", text)
    code, _, err = project.run("check", capsys=capsys)
    line = _line(text, "combat.exchange_counts_terrain")
    assert code == 1 and f"rulebooks/exchange.rules:{line}:3: error: combat.exchange_counts_terrain says how an " \
                         "exchange counts the defender's factors, but rule 7.4 counts exchanges in steps" in err, err
    assert "hint: set combat.exchange_measure = factors in a rule" in err


def test_diff_reports_a_change_of_the_measure(project, capsys):
    old = project.write("old.rules", GAME)
    new = project.write("new.rules", GAME.replace(TERRAIN_LINE, "  combat.exchange_counts_terrain = no\n"))
    code, out, err = project.run("diff", str(old), str(new), capsys=capsys)
    assert code == 1, out + err
    said = "Whether an exchange counts the defender's factors as its terrain multiplies them (else as printed)"
    assert f"[rules] {said}: yes -> no" in out, out
    # the worked example that reads it answers otherwise under the new rules
    assert "expect combat a b c h on 5.04: roll 2 result EX exchange 6 -> roll 2 result EX exchange 3" in out, out
