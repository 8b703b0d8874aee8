"""Four classic titles written for the tests (issue 25), each its own project in a folder outside the
repository, built and run with a non-editable install of rulesdsl (the `installed` fixture's wheel).

- Kursk Salient: a 1d6 odds table whose attacks above the table eliminate the defender with no roll, and
  below it are not allowed when voluntary, an attacker elimination when forced; the winner picks retreats.
- Breakout: a differential table (attack minus defense) whose defender's terrain picks the line of headings.
- Ford Crossing: a hexside's doubling that does not add to the hex's (the defender's best alone counts), and
  exchanges paid in printed attack factors against the defense as the terrain counts it (headquarters exempt).
- Irongate: a night turn that has no combat and makes a ZOC free to enter, a fortress whose garrison exerts no
  ZOC, and an attack below the table refused before the dice unless it is forced.

Each builds; `resolve_combat` answers every printed cell and every off-table case as the rulebook prints it;
the card says the game's own rules and nothing a game of another series would say."""
from __future__ import annotations

import html
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from test_installed import installed  # noqa: F401  (the session's non-editable install)

pytestmark = pytest.mark.usefixtures("installed")

# Reads every case given on its command line (JSON) through the generated module, as a player's script would.
RESOLVE = r'''
import json, sys
from importlib import import_module
from rulesdsl.runtime import AttackingHex, Combat, Unit
spec = json.loads(sys.argv[1])
game = import_module("generated." + spec["module"])
out = []
for attack, defense, terrain, hexsides, roll, forced in spec["cases"]:
    combat = Combat(attacking_hexes=(AttackingHex(units=(Unit(type="infantry", attack=attack),),
                                                  hexsides=tuple(hexsides)),),
                    defenders=(Unit(type="infantry", defense=defense),), defender_terrain=terrain, forced=forced)
    r = game.resolve_combat(combat, roll)
    out.append([r.odds, r.column, r.result.text, r.refused is not None or r.result.not_allowed])
print(json.dumps(out))
'''


def _project(tmp_path: Path, name: str, text: str, bin_: Path) -> tuple[Path, dict[str, str]]:
    folder = tmp_path / name
    (folder / "rulebooks").mkdir(parents=True)
    (folder / "rulebooks" / f"{name}.rules").write_text(text, encoding="utf-8")
    env = {**os.environ, "PATH": f"{bin_}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    build = subprocess.run(["rulesdsl", "build"], cwd=folder, env=env, capture_output=True, text=True)
    assert build.returncode == 0 and "Traceback" not in build.stderr, build.stdout + build.stderr
    return folder, env


def _resolve(folder: Path, env: dict[str, str], bin_: Path, module: str, cases: list[list[object]]) -> list[list[object]]:
    run = subprocess.run([str(bin_ / "python"), "-c", RESOLVE, json.dumps({"module": module, "cases": cases})],
                         cwd=folder, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def _grid(text: str, header: str) -> tuple[dict[str, list[str]], dict[int, list[str]]]:
    """The printed headings (by line name) and rows (by roll) of the rulebook's own CRT text."""
    block = text[text.index("combat results table"):]
    block = block[block.index("{") + 1:block.index("}")]
    lines: dict[str, list[str]] = {}
    rows: dict[int, list[str]] = {}
    for raw in block.strip().splitlines():
        words = raw.split()
        if words[0] == header:
            named = len(words) > 1 and words[1][0].isalpha()
            lines[words[1] if named else ""] = words[2:] if named else words[1:]
        else:
            rows[int(words[0])] = words[1:]
    return lines, rows


def _words(html: str) -> str:
    """What a card prints: its text without its style sheet and markup."""
    return re.sub(r"<[^>]+>", " ", re.sub(r"<style.*?</style>", " ", html, flags=re.S))


def _card(folder: Path, name: str, lang: str) -> str:
    return (folder / "generated" / "charts" / f"{name}.{lang}.html").read_text(encoding="utf-8")


KURSK = '''game kursk "Kursk Salient (a classic test title)" version "1.0"

rounding standard: down, odds favour defender  [7.0]

rule 1.0 "Sequence of Play" {
  summary "Each game turn the German player moves and attacks, then the Soviet player."
}

sequence of play [1.0] {
  game turn {
    player turn german
    player turn soviet
  }
  player turn {
    movement  [1.0]  movement
    combat    [7.0]  combat
  }
}

rule 7.0 "Combat" {
  summary "Odds are rounded down in the defender's favour. Above 6:1 the defender is eliminated with no roll; below 1:2 a voluntary attack may not be made and a forced one eliminates the attacker."
  combat.below_table = NA
  combat.below_table_forced = AE
  combat.above_table = DE
  retreat.chosen_by = enemy
}

unit types [7.0] {
  infantry
}

terrain effects chart "Terrain Effects" [7.0] {
  hex:
    clear  1  ne
    woods  2  Dx2
}

result codes "Combat Results" [7.0] {
  AE  attacker loses all
  AR  attacker retreats 2
  EX  exchange
  DR  defender retreats 2
  DE  defender loses all
  NA  not allowed
}

combat results table "Combat Results Table" [7.0] dice 1d6 {
  odds  1:2  1:1  2:1  3:1  4:1  5:1  6:1
  1     AR   AR   DR   DR   DE   DE   DE
  2     AR   EX   DR   DR   DR   DE   DE
  3     AE   AR   EX   DR   DR   DR   DE
  4     AE   AR   AR   EX   DR   DR   DE
  5     AE   AE   AR   AR   EX   DR   DR
  6     AE   AE   AE   AR   AR   EX   DR
}

example "Woods doubles the defense" [7.0] {
  map 1.01 - 5.05 clear
  hex 3.02 woods
  unit a german 6-6-4 at 2.02 type infantry
  unit b soviet 3-3-4 at 3.02 type infantry
  expect combat a on 3.02 odds 1:1 column 1:1 roll 2 result EX
}

labels fr "Français" {
  title.rulebook       "Saillant de Koursk (titre classique d'essai)"
  player-turn.german   "Allemand"
  player-turn.soviet   "Soviétique"
  phase.movement       "Mouvement"
  activity.movement    "mouvement"
  phase.combat         "Combat"
  activity.combat      "combat"
  terrain.clear        "Terrain dégagé"
  terrain.woods        "Bois"
  title.terrain        "Effets du terrain"
  title.results        "Table des résultats des combats"
}
'''


def test_kursk_answers_every_cell_and_both_edges(installed, tmp_path):  # noqa: F811
    folder, env = _project(tmp_path, "kursk", KURSK, installed)
    lines, rows = _grid(KURSK, "odds")
    columns = lines[""]
    cases, expected = [], []
    for index, column in enumerate(columns):
        attack, defense = (int(x) for x in column.split(":"))
        for roll, cells in rows.items():
            cases.append([attack * 3, defense * 3, "clear", [], roll, False])
            expected.append([column, column, cells[index], False])
    above = [[7 * 2, 2, "clear", [], roll, False] for roll in rows]           # 7:1: above the table, any roll
    below = [[1, 3, "clear", [], 1, False], [1, 3, "clear", [], 1, True]]     # 1:3, voluntary and forced
    woods = [[6, 3, "woods", [], 2, False]]                                   # 6 against 3 doubled: 1:1
    answers = _resolve(folder, env, installed, "kursk", cases + above + below + woods)
    assert answers[:len(cases)] == expected
    rest = answers[len(cases):]
    assert rest[:len(above)] == [["7:1", "above", "DE", False]] * len(above)
    assert rest[len(above)] == ["1:3", None, "NA", True]                    # may not be made
    assert rest[len(above) + 1] == ["1:3", None, "AE", False]               # forced: the attacker is eliminated
    assert rest[-1] == ["1:1", "1:1", "EX", False]
    english, french = _card(folder, "kursk", "en"), _card(folder, "kursk", "fr")
    assert 'An attack above the right-most column, with no roll: <span class="key">DE</span>' in english
    assert 'A voluntary attack below the left-most column, with no roll: <span class="key">NA</span>' in english
    assert 'A forced attack below the left-most column, with no roll: <span class="key">AE</span>' in english
    assert "uses it" not in english and "shifts start there" not in english     # no SCS edge rule
    assert "Attaque forcée en deçà de la colonne la plus à gauche, sans jet de dé" in french
    assert "Pas encore traduit" not in french          # the publisher's French is whole


BREAKOUT = '''game breakout "Breakout (a classic test title)" version "1.0"

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
    combat    [7.0]  combat
  }
}

rule 7.0 "Combat" {
  summary "Subtract the defense from the attack; the defender's terrain picks the line of headings. Below the table the attacker is eliminated."
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
  unit a red 7-7-4 at 2.02 type infantry
  unit b blue 3-3-4 at 3.02 type infantry
  unit c blue 3-3-4 at 3.03 type infantry
  expect combat a on 3.02 difference +4 column +3..+4 roll 4 result EX
  expect combat a on 3.03 difference +4 column +3..+4 roll 4 result AR
}

labels fr "Français" {
  title.rulebook     "Percée (titre classique d'essai)"
  player-turn.red    "Rouge"
  player-turn.blue   "Bleu"
  phase.movement     "Mouvement"
  activity.movement  "mouvement"
  phase.combat       "Combat"
  activity.combat    "combat"
  terrain.clear      "Terrain dégagé"
  terrain.forest     "Forêt"
  terrain.town       "Village"
  line.open          "Ouvert"
  line.close         "Fermé"
  title.terrain      "Terrain"
  title.results      "Résultats des combats"
}
'''


def test_breakout_answers_every_cell_of_each_line_and_below_it(installed, tmp_path):  # noqa: F811
    folder, env = _project(tmp_path, "breakout", BREAKOUT, installed)
    lines, rows = _grid(BREAKOUT, "difference")
    terrain = {"open": "clear", "close": "forest"}
    cases, expected = [], []
    for line, headings in lines.items():
        for index, heading in enumerate(headings):
            low, _, high = heading.partition("..")
            for difference in {int(low), int(high)} if high else {int(low), int(low) + 9}:
                for roll, cells in rows.items():
                    cases.append([10 + difference, 10, terrain[line], [], roll, False])
                    expected.append([f"{difference:+d}" if difference else "0", heading, cells[index], False])
    below = [[6, 10, "clear", [], roll, False] for roll in rows] + [[3, 3, "town", [], 1, False]]
    answers = _resolve(folder, env, installed, "breakout", cases + below)
    assert answers[:len(cases)] == expected
    assert answers[len(cases):] == [["-4", None, "AE", False]] * len(rows) + [["0", None, "AE", False]]
    english, french = _card(folder, "breakout", "en"), _card(folder, "breakout", "fr")
    assert '<th class="col">\u22123\u2026\u22122</th>' in english and '<th class="col">\u2265 +9</th>' in english
    assert "Column: the attack strength minus the defense strength (a fraction is dropped)." in english
    assert "odds" not in _words(english).lower()        # a differential table reads no odds
    assert "Colonne" in french and "force d&#39;attaque moins force de défense" in french
    assert "Pas encore traduit" not in french


FORD = '''game ford "Ford Crossing (a classic test title)" version "1.0"

rounding standard: down, odds favour defender  [7.0]

rule 1.0 "Sequence of Play" {
  summary "Each side moves, then attacks."
}

sequence of play [1.0] {
  game turn {
    player turn north
    player turn south
  }
  player turn {
    movement  [1.0]  movement
    combat    [7.0]  combat
  }
}

rule 7.0 "Combat" {
  summary "Terrain effects are not cumulative: a defender in rough behind a ford is doubled once, not twice."
  note "In an exchange the attacker loses units whose printed attack factors reach the defender's defense as its terrain counts it; headquarters never pay."
  combat.terrain_combination = defender-best
  combat.hexside_combination = with-terrain
  combat.below_table = AE
  combat.exchange_measure = factors
  combat.exchange_counts_terrain = yes
}

unit types [7.0] {
  infantry
  hq        exchange-exempt
}

terrain effects chart "Terrain" [7.0] {
  hex:
    clear  1  ne
    rough  2  Dx2
  hexside:
    ford   +1  Dx2
}

result codes "Results" [7.0] {
  AE  attacker loses all
  AR  attacker retreats 1
  EX  exchange
  DR  defender retreats 1
  DE  defender loses all
}

combat results table "Combat Results" [7.0] dice 1d6 {
  odds  1:1  2:1  3:1
  1     AR   DR   DE
  2     AR   DR   DR
  3     EX   EX   DR
  4     AR   EX   DR
  5     AE   AR   EX
  6     AE   AR   AR
}

example "A ford into rough doubles once" [7.0] {
  map 1.01 - 6.06 clear
  hex 3.02 rough
  hexside 2.02/3.02 ford
  unit a north 8-8-4 at 2.02 type infantry
  unit b south 2-2-4 at 3.02 type infantry
  expect combat a on 3.02 odds 2:1 column 2:1 roll 1 result DR
  expect combat a on 3.02 roll 3 result EX exchange 4
}

labels fr "Français" {
  title.rulebook     "Passage à gué (titre classique d'essai)"
  player-turn.north  "Nord"
  player-turn.south  "Sud"
  phase.movement     "Mouvement"
  activity.movement  "mouvement"
  phase.combat       "Combat"
  activity.combat    "combat"
  terrain.clear      "Terrain dégagé"
  terrain.rough      "Terrain accidenté"
  terrain.ford       "Gué"
  type.hq            "QG"
  title.terrain      "Terrain"
  title.results      "Résultats des combats"
}
'''


EXCHANGE = r'''
from generated import ford
from rulesdsl.runtime import AttackingHex, Combat, Unit
attackers = (Unit(type="infantry", attack=4), Unit(type="infantry", attack=4), Unit(type="hq", attack=2))
combat = Combat(attacking_hexes=(AttackingHex(units=attackers, hexsides=("ford",)),),
                defenders=(Unit(type="infantry", defense=2),), defender_terrain="rough")
r = ford.resolve_combat(combat, 3)
e = r.exchange
print(r.odds, r.result.text, e.measure, e.loss, ",".join(f"{u.type}/{u.attack}" for u in e.payers),
      ",".join(f"{u.type}/{u.attack}" for u in e.chosen), e.lost)
'''


def test_ford_doubles_a_defender_once_in_rough_behind_a_ford(installed, tmp_path):  # noqa: F811
    folder, env = _project(tmp_path, "ford", FORD, installed)
    lines, rows = _grid(FORD, "odds")
    cases, expected = [], []
    for index, column in enumerate(lines[""]):
        attack, defense = (int(x) for x in column.split(":"))
        for roll, cells in rows.items():     # rough behind a ford: the defense doubled once
            cases.append([attack * 4, defense * 2, "rough", ["ford"], roll, False])
            expected.append([column, column, cells[index], False])
    below = [[3, 2, "rough", ["ford"], 6, False]]        # 3 against 4: below the table
    answers = _resolve(folder, env, installed, "ford", cases + below)
    assert answers[:len(cases)] == expected
    assert answers[len(cases):] == [["1:2", None, "AE", False]]     # 3 against 4, down for the defender
    exchange = subprocess.run([str(installed / "python"), "-c", EXCHANGE], cwd=folder, env=env, capture_output=True,
                              text=True)
    assert exchange.returncode == 0, exchange.stderr
    # 4 + 4 + hq 2 against 2 in rough behind the ford: 10 to 4 (doubled once), 2:1; a 3 is EX, and the attacker
    # owes 4 factors (the defense as the terrain counts it, once), paid by one infantry: the hq never pays
    assert exchange.stdout.split() == ["2:1", "EX", "factors", "4", "infantry/4,infantry/4", "infantry/4", "4"]
    english, french = _card(folder, "ford", "en"), _card(folder, "ford", "fr")
    assert "not cumulative" in english.lower() or "does not add" in english.lower(), english[-3000:]
    assert "Pas encore traduit" not in french


IRONGATE = '''# Irongate: a small invented title, written to try issue 25's forms as a designer would.
game irongate "Irongate (a classic test title)" version "0.1"

rounding standard: .50 up, keep fractions [rounding]

section rounding "Rounding" {
  summary "Odds are rounded in the usual way."
}

rule 1.0 "Sequence of Play" {
  summary "Each side moves and attacks; at night nobody attacks, and the supply check waits for day."
}

sequence of play [1.0] {
  turns night  4 8 12
  game turn {
    player turn besieger
    player turn garrison
  }
  player turn {
    movement  [3.0]  movement
    combat    [7.0]  combat        not on night
    supply    [1.0]  supply-check  on turns 2+
  }
}

section units "Units" {
  summary "Every unit is infantry."
}

unit types [units] {
  infantry
}

rule 3.0 "Movement" {
  summary "Units move up to their allowance; entering an enemy ZOC costs two more, but nothing at night."
  zoc.min_attack_strength = 1 SP
  zoc.range               = 1 hex
  zoc.entry_cost          = +2 MP
  zoc.entry_cost          = +0 MP  on night
}

rule 7.0 "Combat" {
  summary "Odds below 1:2: a voluntary attack may not be made, a forced one eliminates the attacker. Above 5:1 the defender is eliminated."
  combat.below_table        = NA
  combat.below_table_forced = AE
  combat.above_table        = DE
}

terrain effects chart "Irongate Terrain" [3.0 7.0] {
  hex:
    clear     1  ne
    fortress  1  Dx2  exerts-no-zoc
    marsh     3  ne   no-zoc
}

result codes "Results" [7.0] {
  NA  not allowed
  AE  attacker loses all
  AR  attacker retreats 1
  DR  defender retreats 1
  DE  defender loses all
}

combat results table "Irongate Combat Results Table" [7.0] dice 1d6 {
  odds  1:2  1:1  2:1  3:1  4:1  5:1
  1     AR   AR   DR   DR   DE   DE
  2     AR   AR   AR   DR   DR   DE
  3     AE   AR   AR   DR   DR   DE
  4     AE   AE   AR   AR   DR   DR
  5     AE   AE   AE   AR   AR   DR
  6     AE   AE   AE   AE   AR   DR
}

example "The walls keep the garrison's ZOC in" [3.0] {
  map 1.01 - 6.06 clear
  hex 3.03 fortress
  unit g garrison 2-4-4 at 3.03 type infantry
  unit f garrison 2-2-4 at 5.03 type infantry
  expect zoc garrison 5.02 4.03 not 3.02 2.03
}

example "A ZOC costs nothing at night" [3.0] {
  map 1.01 - 6.06 clear
  turn 4
  unit b besieger 3-3-6 at 1.03 type infantry
  unit f garrison 2-2-4 at 3.03 type infantry
  expect move b 2.03 costs 1 legal
}

example "By day it costs two more" [3.0] {
  map 1.01 - 6.06 clear
  unit b besieger 3-3-6 at 1.03 type infantry
  unit f garrison 2-2-4 at 3.03 type infantry
  expect move b 2.03 costs 3 legal
}

example "Night turns have no combat" [1.0] {
  expect phases besieger turn 4 movement supply
  expect phases garrison turn 1 movement combat
}

example "Too weak to attack" [7.0] {
  map 1.01 - 6.06 clear
  unit b besieger 1-1-6 at 2.03 type infantry
  unit f garrison 4-4-4 at 3.03 type infantry
  expect attack b on 3.03 refused [7.0]
  expect combat b on 3.03 forced column below result AE
}

labels fr "Français" {
  terrain.clear          "Clair"
  terrain.fortress       "Forteresse"
  terrain.marsh          "Marais"
  turns.night            "nuit"
  phase.movement         "Mouvement"
  phase.combat           "Combat"
  phase.supply           "Ravitaillement"
  player-turn.besieger   "Assiégeant"
  player-turn.garrison   "Garnison"
  unit-type.infantry     "Infanterie"
  title.rulebook         "Irongate (un siège inventé)"
  title.terrain          "Effets du terrain"
  title.results          "Table des résultats des combats"
  activity.movement      "Mouvement"
  activity.combat        "Combat"
  activity.supply-check  "Contrôle du ravitaillement"
}

card {
  reminders: zoc
}
'''

# Asks the installed module what a player asks at the table, turn by turn.
SIEGE = r'''
import json
from fractions import Fraction
from generated import irongate as game
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.situation import Counter, Situation
H = Hex.parse
def counter(name, side, at, strength):
    return Counter(name, side, H(at), attack=Fraction(strength), defense=Fraction(strength),
                   movement=Fraction(6), type="infantry")
def situation(units, turn=None):
    return Situation(HexMap.rectangle(6, 6), default_terrain=("clear",), terrain={H("3.03"): ("fortress",)},
                     units=units, phasing="besieger", phase="movement", turn=turn)
walls = situation((counter("g", "garrison", "3.03", 4), counter("f", "garrison", "5.03", 2)))
field = lambda turn: situation((counter("b", "besieger", "1.03", 3), counter("f", "garrison", "3.04", 2)), turn)
weak = situation((counter("b", "besieger", "2.03", 1), counter("f", "garrison", "3.03", 4)))
print(json.dumps({
    "entry": [str(game.parameter("zoc.entry_cost", turn)) for turn in (1, 4, 5, 8)],
    "phases": [[p.name for p in game.phases(turn, "besieger")] for turn in (1, 2, 4)],
    "zoc": sorted(str(h) for h in game.zoc(walls, "garrison").hexes),
    "move": [str(game.move(field(turn), "b", [H("2.03")]).total) for turn in (3, 4)],
    "attack": [game.may_attack(weak, ["b"], H("3.03")).allowed,
               game.may_attack(weak, ["b"], H("3.03"), forced=True).allowed],
}))
'''


def test_irongate_keeps_its_night_its_walls_and_its_weak_attacks(installed, tmp_path):  # noqa: F811
    folder, env = _project(tmp_path, "irongate", IRONGATE, installed)
    run = subprocess.run([str(installed / "python"), "-c", SIEGE], cwd=folder, env=env, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    answers = json.loads(run.stdout)
    assert answers["entry"] == ["+2 MP", "+0 MP", "+2 MP", "+0 MP"]          # free on night turns 4 and 8
    assert answers["phases"] == [["movement", "combat"], ["movement", "combat", "supply"], ["movement", "supply"]]
    assert "3.02" not in answers["zoc"] and "2.03" not in answers["zoc"]      # the garrison in its walls: none
    assert {"5.02", "4.03", "6.03"} <= set(answers["zoc"])                    # the unit outside: its six hexes
    assert answers["move"] == ["3", "1"]                                      # into the ZOC by day, by night
    assert answers["attack"] == [False, True]                                 # 1:4 voluntary no, forced yes
    # its worked examples ran in the build; a wrong one fails at its line from the installed CLI
    wrong = IRONGATE.replace("expect phases besieger turn 4 movement supply",
                             "expect phases besieger turn 4 movement combat supply")
    (folder / "rulebooks" / "irongate.rules").write_text(wrong, encoding="utf-8")
    check = subprocess.run(["rulesdsl", "check"], cwd=folder, env=env, capture_output=True, text=True)
    line = wrong.splitlines().index("  expect phases besieger turn 4 movement combat supply") + 1
    assert check.returncode == 1 and f"irongate.rules:{line}:10: error: expected movement combat supply, " \
        "computed movement supply" in check.stderr, check.stderr
    english, french = (html.unescape(_words(_card(folder, "irongate", lang))) for lang in ("en", "fr"))
    assert "Irongate (un siège inventé)" in french and "units in it exert no ZOC" in english and "ses occupants n'exercent pas de ZOC" in french
    assert "not on night turns (4, 8, 12)" in english and "sauf aux tours de nuit (4, 8, 12)" in french
    assert "On night turns (4, 8, 12)" in english and "Aux tours de nuit (4, 8, 12)" in french
    assert "Pas encore traduit" not in french
