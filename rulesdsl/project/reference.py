"""The language reference (docs/reference.md), generated from the compiler's own tables.

Every list in it is read from the one place the compiler reads it: the statement kinds from
`ir.STATEMENTS`, their syntax from grammar.lark, the core parameters, units and activities from
catalogue.py, the parameters each library series declares from its rulebook (the `parameters`
blocks of rulesdsl.library), the expression context from context.py, the limits from limits.py, and the
diagnostics from the broken-rulebook corpus (tests/errors).  Only the one-line descriptions
and the examples of the statement kinds are written here; tests compile every example.
The output depends on nothing but those files: the same text on every run.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from typing import Callable, Iterable

from rulesdsl.core.facts import FACTS, QUESTIONS
from rulesdsl.model import catalogue, context, ir
from rulesdsl.language import limits

REGENERATE = "rulesdsl reference -o docs/reference.md"
GRAMMAR = Path(__file__).resolve().parent.parent / "language" / "grammar.lark"
LIMITS = Path(__file__).resolve().parent.parent / "language" / "limits.py"
# the repository's broken-rulebook corpus; not installed with the package
CORPUS = Path(__file__).resolve().parent.parent.parent / "tests" / "errors"
EXAMPLE_HEADER = 'game example "Example" version "1.0"'


def docs_folder() -> Path:
    """The language guide and reference: installed with the package (rulesdsl/docs, pyproject's package-dir),
    or, in a source tree, the repository's docs/ itself."""
    here = Path(__file__).resolve().parent.parent     # the rulesdsl package
    installed = here / "docs"
    return installed if (installed / "language.md").is_file() else here.parent / "docs"


def shipped_reference() -> str:
    """The reference as this version of rulesdsl was released with it (docs/reference.md): what `rulesdsl
    reference` prints where the broken-rulebook corpus it is generated from is not installed."""
    return (docs_folder() / "reference.md").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Kind:
    """What the reference says of one statement kind: its title, the grammar rules that write it,
    one line on what it is, and an example rulebook (compiled by the tests)."""

    title: str
    grammar: tuple[str, ...]
    what: str
    example: str
    more: tuple[tuple[str, str], ...] = ()    # further forms: (what it shows, example rulebook body)


_ROUNDING = "rounding standard: .50 up, keep fractions\n"

def _effects_text() -> str:
    """What the reference says of a rule's effects: the form, and the questions and facts, read from
    rulesdsl/core/facts.py as the engine and the checks read them."""
    questions = "; ".join(f"`{q.word}` ({q.meaning}; the engine's `{q.asked_by}`; effects: {', '.join(q.effects)})"
                          for q in QUESTIONS.values())
    facts = "; ".join(f"`{f.name}` ({f.kind}: {f.meaning}"
                      + ("" if set(f.questions) == set(QUESTIONS) else f"; at {', '.join(f.questions)} only")
                      + ")" for f in FACTS.values())
    return ("a rule's effects: `forbid QUESTION when CONDITION` says a question the rules engine answers is "
            "answered no for the units the condition holds of, and `allow QUESTION when CONDITION` lifts every "
            "`forbid` of that question where its own condition holds; `exempt QUESTION when CONDITION` spares the "
            "units the condition holds of what the question imposes (a retreat's step loss for an enemy ZOC), and "
            "an `allow` lifts it as it lifts a `forbid`; `eliminate QUESTION when CONDITION` eliminates the units "
            "instead (a retreat into an enemy ZOC, or a blocked one, costs them every step), and an `allow` lifts "
            "it too; `stop QUESTION when CONDITION` lets the unit enter the hex and go no further. "
            "`cost enter AMOUNT when CONDITION` changes "
            "what entering a hex costs, after the terrain effects chart and before a ZOC's MPs, and `cost "
            "allowance AMOUNT when CONDITION` a unit's Movement Allowance for the move, after supply and the "
            "move's mode: `3 MP` sets, `times 1/2` multiplies (`times 1/2 rounded down` drops the fraction), "
            "`min 1 MP` raises to at least, `max 6 MP` lowers to at most, `+1 MP` adds, every cost that holds "
            "applied in that order; an allowance's `+2 hexes` adds that many hexes of road (at the road movement "
            "rate on a road move, else at the TEC's road); the amount may be a parameter's name "
            "(`max isolation.mechanized_movement_allowance`), read at its value in effect, so that the parameter "
            "executes; an example marks a hex with `hex 3.03 clear marked rubble`. The engine executes each where it "
            "answers the question, citing the rule and the line as written; the generated module carries the "
            "condition as data (`RULES[...].effects`), never as code; the card prints each as an order in "
            "players' words under the reminders topic of its question (the label `effect.RULE.N` gives the "
            "rulebook's own words, N counting the rule's effects from 1, and the card warns of a condition it "
            "cannot say); an `amend` may not state effects. Some parameters and capabilities are special cases "
            "that stay: the capability `exchange-exempt` is `exempt exchange-loss when unit is TYPE`, "
            "`overrun.ends_movement` is `forbid enter when unit.overran`, and `zoc.largest_formation_only` a "
            "`forbid exert-zoc` on the smaller sizes. A condition is a flag fact, `FACT is WORD`, two "
            "numbers compared, or these joined by `not`, `and`, `or`. The questions: " + questions +
            ". The facts: " + facts)


_EFFECTS = _effects_text()
_ACCOUNTED = ("every rule accounted for: `rulesdsl coverage` counts each rule in effect as executed (it states an "
              "effect or a definition, sets a parameter the engine executes, or an executed chart cites it), a "
              "heading (no content of its own, rules numbered under it), descriptive or unaccounted. A rule that "
              "states a mechanic nothing runs says so with `descriptive REASON \"why\"`, the reasons those of a "
              "parameter's declaration and `out-of-scope` (a mechanic the engine does not model: set-up, "
              "reinforcements, victory ...). A rule that is the engine's own behaviour, with no parameter, says "
              "`executed by QUESTION` (move, retreat ...), and a worked example of the same rulebook that cites it "
              "must ask that question: the claim is checked, not taken")

KINDS: dict[type, Kind] = {
    ir.Rule: Kind("Rules and sections", ("rule",),
                  "A numbered rule or an unnumbered section: a summary, notes, cross references, "
                  "requirements, definitions, parameter settings and effects (`forbid react when unit is dg`). `override` restates an inherited "
                  "rule; `amend` changes only the parameters it lists.",
                  'rule 1.0 "Movement" {\n'
                  '  summary "Units pay movement points to enter hexes."\n'
                  "  zoc.entry_cost = +2 MP\n"
                  '  note "Read from the printed rule."\n'
                  "  see 2.0\n"
                  "  define big-attack = sum(attackers of attack) >= 10\n"
                  "  define odds-band {\n"
                  "    high  when sum(attackers of attack) >= 3 * sum(defenders of defense)\n"
                  "    low   otherwise\n"
                  "  }\n"
                  "}\n\n"
                  'section 2.0 "Stacking" {\n'
                  '  summary "Up to three steps may stack in a hex."\n'
                  "  stacking.limit = 3 steps\n"
                  "}\n",
                  more=(("a value on some game turns only: after the value, the turns a phase would name (a "
                         "turn set of the sequence of play, `on night`, or `on turns 1 5-8 11+`); the "
                         "parameter's value without turns, in this rulebook or its series, holds on every other "
                         "turn, and two values never share a turn. The module's `parameter(name, turn)` answers "
                         "the value of a turn, the rules engine uses the values of the situation's `turn`, and "
                         "the card prints 'On night turns (3, 6, 9, 12): +0 MP' under the parameter",
                         "sequence of play {\n"
                         "  turns night  3 6 9 12\n"
                         "  player turn {\n"
                         "    movement  movement\n"
                         "  }\n"
                         "}\n\n"
                         'rule 1.0 "Movement" {\n'
                         '  summary "Entering an enemy ZOC costs two extra MPs; a unit must afford each hex."\n'
                         "  zoc.entry_cost             = +2 MP\n"
                         "  movement.must_afford_entry = yes\n"
                         "}\n\n"
                         'rule G8.1 "Night" {\n'
                         '  summary "At night a ZOC costs nothing extra; on the first turn a unit may always '
                         'enter a hex."\n'
                         "  zoc.entry_cost             = +0 MP  on night\n"
                         "  movement.must_afford_entry = no     on turns 1\n"
                         "}\n"),
                        (_EFFECTS,
                         "unit types {\n"
                         "  tank       armored, tank\n"
                         "  anti-tank  anti-tank\n"
                         "  truck      motorized\n"
                         "  artillery  artillery\n"
                         "  hq\n"
                         "}\n"
                         "unit states: dg, cadre, isolated, bombarding\n\n"
                         'rule 7.0 "Zones of control" {\n'
                         '  summary "Artillery and cadres exert no ZOC, but a headquarters always does."\n'
                         "  zoc.range = 1 hex\n"
                         "  forbid exert-zoc  when unit is artillery or unit is cadre\n"
                         "  allow exert-zoc   when unit is hq\n"
                         "}\n\n"
                         'rule 4.2 "Reaction" {\n'
                         '  summary "DG units and units that start the phase in an enemy ZOC may not react."\n'
                         "  reaction.movement_fraction = 1/2\n"
                         "  forbid react  when unit is dg or unit.started_in_ezoc\n"
                         "}\n\n"
                         'rule 7.2e "Zero Attack Strength" {\n'
                         '  summary "A unit with an Attack Strength of 0 attacks only beside one that has one."\n'
                         "  forbid attack  when attackers.attack == 0\n"
                         "}\n\n"
                         'rule 13.5 "Rubble and vehicles" {\n'
                         '  summary "Rubble costs 1 MP more to enter; motorized units never enter swamp; a road '
                         'in an interdicted area costs at least 1 MP."\n'
                         "  cost enter +1 MP    when hex is rubble\n"
                         "  forbid enter        when unit is motorized and hex is swamp\n"
                         "  cost enter min 1 MP when road and hex.next_to is interdicted\n"
                         "}\n\n"
                         'section applying-results "Applying combat results" {\n'
                         '  summary "Armor loses no step retreating through the ZOC of units that cannot stop '
                         'tanks."\n'
                         "  exempt retreat-loss when unit is armored and not ezoc.from is tank and not ezoc.from "
                         "is anti-tank\n"
                         "}\n\n"
                         'rule 9.4 "Cut off" {\n'
                         '  summary "Trucks whose retreat is blocked are eliminated; artillery that retreats into '
                         'an enemy ZOC is lost."\n'
                         "  eliminate retreat-blocked when unit is truck\n"
                         "  eliminate retreat-loss    when unit is artillery\n"
                         "}\n\n"
                         'rule 10.1 "High ground" {\n'
                         '  summary "Every enemy unit next to an attacking stack must be attacked, but units on level 4 '
                         'need not attack those below them."\n'
                         "  combat.all_adjacent_must_be_attacked = yes\n"
                         "  exempt must-attack when hex.level == 4 and hex.level > enemy.hex.level\n"
                         "}\n\n"
                         'rule 11.2 "Isolation" {\n'
                         '  summary "Isolated vehicles move at most 6 MP, other isolated units half their MA, rounded '
                         'down."\n'
                         "  cost allowance max 6 MP                 when unit is isolated and unit is motorized\n"
                         "  cost allowance times 1/2 rounded down  when unit is isolated and not unit is motorized\n"
                         "}\n\n"
                         'rule 7.6 "Exchanges and supply" {\n'
                         '  summary "Guns that bombard pay no part of an exchange; units attack only within five hexes '
                         'of their supply source; a stack whose overrun failed stops."\n'
                         "  exempt exchange-loss when unit is artillery and unit is bombarding\n"
                         "  forbid attack when attackers.supply_hexes > 5\n"
                         "  forbid enter when unit.overrun_failed\n"
                         "}\n\n"
                         'rule 8.0a "First loss" {\n'
                         '  summary "The enemy picks the first step loss, never a tank unless the terrain shifts the '
                         'columns or it has anti-tank units there."\n'
                         "  forbid first-loss when unit is tank and hex.shift == 0 and not enemies is anti-tank\n"
                         "}\n\n"
                         'rule 10.2 "Following up" {\n'
                         '  summary "At most two units advance, never more than the hexes the loser retreated."\n'
                         "  forbid advance when advancing.count > 2 or advancing.count > retreat.length\n"
                         "}\n"),
                        (_ACCOUNTED,
                         'rule 3.1b "Movement Allowance" {\n'
                         '  summary "A unit spends no more MPs in a phase than its Movement Allowance."\n'
                         "  executed by move\n"
                         "}\n\n"
                         'rule 5.0 "Reinforcements" {\n'
                         '  summary "Reinforcements arrive on the turn and at the hex the game gives."\n'
                         '  descriptive out-of-scope "reinforcement arrival: the engine places no unit"\n'
                         "}\n\n"
                         "terrain effects chart [3.1b] {\n  hex:\n    clear  1  ne\n}\n\n"
                         'example "E1. A move as far as the allowance" [3.1b] {\n'
                         "  map 1.01 - 1.05 clear\n"
                         "  unit a blue 1-1-2 at 1.01\n"
                         "  expect move a 1.02 1.03 legal\n"
                         "  expect move a 1.02 1.03 1.04 illegal\n"
                         "}\n"),)),
    ir.UnitTypes: Kind("Unit types", ("unit_types",),
                       "The unit types a game has, each with its capabilities; expressions read both "
                       "as yes/no names of a unit, and the rules engine gives every counter of a type its "
                       "capabilities (an example's `unit 3 ... type tank` is armored).",
                       "unit types {\n"
                       "  tank      armored, tank\n"
                       "  infantry  soft\n"
                       "}\n"),
    ir.Vocabulary: Kind("Unit states, combat situations and amounts", ("unit_types", "situations"),
                        "Names an expression may read: states a unit may be in, yes/no situations the "
                        "players declare for a combat, and numbers they supply for it.",
                        "unit states: dg, out-of-supply\n"
                        "combat situations: defensive-artillery\n"
                        "combat amounts: artillery-shifts\n"),
    ir.ParameterDeclarations: Kind(
        "Parameter declarations", ("parameters",),
        "The parameters a rulebook adds to the vocabulary: each one's name, what it takes (a `quantity` or a "
        "`modifier` in a unit, a `count`, a `number`, a `flag`, a `result` code, a `choice` of words or an "
        "`order` of them) and what it means in players' words, which cards and errata print. Every "
        "rulebook that extends it may set them; the series rulebooks declare theirs (see Parameters). "
        "A parameter no engine function reads says why with `descriptive` and a reason: `table-talk` (a "
        "procedure the players carry out at the table), `components` (the physical counters, markers and "
        "map) or `intent` (a choice the engine cannot know); `rulesdsl coverage` counts the others of the "
        "engine's categories as unaccounted.",
        'parameters "Vocabulary" {\n'
        '  morale.rout_distance  quantity hexes  "how far a routed unit flees"\n'
        '  morale.check_order    choice weakest-first, owner-choice  "which unit tests its morale first"\n'
        '  morale.cumulative     flag  "whether several morale losses add up"\n'
        '  morale.announced      flag  descriptive table-talk  "whether morale checks are announced before any is rolled"\n'
        "}\n\n"
        'rule 9.0 "Morale" {\n'
        '  summary "Routed units flee two hexes."\n'
        "  morale.rout_distance = 2 hexes\n"
        "  morale.check_order = weakest-first\n"
        "  morale.cumulative = no\n"
        "  morale.announced = yes\n"
        "}\n"),
    ir.Modifiers: Kind("Die roll modifiers", ("modifiers",),
                       "Modifiers to the combat roll, each with its side and the condition under which "
                       "it applies; `cap` clamps the net modifier.",
                       "die roll modifiers cap 3 {\n"
                       "  defender-density  +1  defender  when count(defenders) >= 3\n"
                       "}\n\n"
                       + _ROUNDING + "\n"
                       "combat results table dice 2d6 {\n"
                       "  defender side {\n"
                       "    odds  1:1  2:1\n"
                       "    2-7   A1   D1\n"
                       "    8+    D1   D2\n"
                       "  }\n"
                       "  attacker side {\n"
                       "    defense  1-4  5+\n"
                       "    2-7      A1   A2\n"
                       "    8+       -    A1\n"
                       "  }\n"
                       "}\n"),
    ir.Shifts: Kind("Column shifts", ("shifts",),
                    "Sources of column shifts (+ right, - left), each with a maximum when its amount "
                    "varies; `max N per side` caps each side, `before limits` shifts the odds themselves. "
                    "The defender's terrain shift comes from the Terrain Effects Chart, never from here.",
                    "combat amounts: artillery-shifts\n\n"
                    "column shifts max 3 per side {\n"
                    "  artillery   artillery-shifts  max 2\n"
                    "  big-attack  1  max 1  when count(attackers) >= 4\n"
                    "}\n"),
    ir.Adjustments: Kind("Result adjustments", ("adjustments",),
                         "Changes to a result read from the table, under a condition.",
                         "combat situations: ambush\n\n"
                         "result adjustments {\n"
                         "  ambush-retreat  defender-retreat  -1  when ambush\n"
                         "}\n"),
    ir.UnitFactors: Kind("Strength factors", ("unit_factors",),
                         "Multipliers on the attack or defense of each unit for which a condition holds; "
                         "`at most N` holds the strength to N instead (an isolated unit attacks with at most "
                         "1), and `rounded down` after the factor rounds each unit's strength down before the "
                         "side's are added (two isolated defenders of 3 are 1 + 1, not 3 halved).",
                         "unit states: dg, isolated\n\n"
                         "parameters {\n"
                         '  combat.dg_factor  number  "what a disrupted unit\'s strength is multiplied by"\n'
                         "}\n\n"
                         'rule 1.0 "Disruption" {\n'
                         '  summary "Disrupted units attack at half strength."\n'
                         "  combat.dg_factor = 1/2\n"
                         "}\n\n"
                         'strength factors "Factor effects" [1.0] {\n'
                         "  dg-attack  attack  combat.dg_factor  when dg\n"
                         "  isolated-attack   attack   at most 1  when isolated\n"
                         "  isolated-defense  defense  1/2 rounded down  when isolated\n"
                         "}\n"),
    ir.Rounding: Kind("Rounding", ("rounding",),
                      "How fractions and odds round; the generated module has `round_<name>` and `odds`.",
                      'section rounding "Rounding" {\n'
                      '  summary "Fractions of .50 and more round up."\n'
                      "}\n\n"
                      "rounding standard: .50 up, keep fractions, odds favour defender [rounding]\n"),
    ir.SequenceOfPlay: Kind("Sequence of play", ("sequence",),
                            "The game turn's own phases and the player turns it runs; one shared "
                            "`player turn` block, or one per side. Each phase lists activities "
                            "(see [Phase activities](#phase-activities)).",
                            "sequence of play {\n"
                            "  game turn {\n"
                            '    weather  weather  "roll for the weather"\n'
                            "    player turn allied\n"
                            "    player turn axis\n"
                            "  }\n"
                            "  player turn allied {\n"
                            "    movement  movement\n"
                            "    combat    combat, advance\n"
                            "  }\n"
                            "  player turn axis {\n"
                            "    movement  movement\n"
                            "    combat    combat\n"
                            "  }\n"
                            "}\n",
                            more=(("phases on some game turns only: `turns NAME ...` names game turns (a turn, "
                                   "a range `5-8`, or `11+` for a turn and every later one), and a phase says, "
                                   "before its note, the turns it happens on (`on night`, `on turns 2+`) or is "
                                   "skipped on (`not on night`); the module's `phases(turn, player_turn)` and "
                                   "`game_turn(turn)` leave out the phases a turn skips",
                                   "sequence of play {\n"
                                   "  turns night  3 6 9 12\n"
                                   "  game turn {\n"
                                   "    weather  weather  on turns 2+\n"
                                   "    player turn allied\n"
                                   "    player turn axis\n"
                                   "  }\n"
                                   "  player turn allied {\n"
                                   "    movement  movement\n"
                                   "    combat    combat, advance  not on night  \"no attacks in the dark\"\n"
                                   "  }\n"
                                   "  player turn axis {\n"
                                   "    movement  movement         on turns 2+\n"
                                   "    combat    combat           not on night\n"
                                   "  }\n"
                                   "}\n"),)),
    ir.TerrainChart: Kind("Terrain Effects Chart", ("terrain_chart",),
                          "Each terrain's movement cost and combat effect, under the headings `hex:`, "
                          "`roads:` and `hexside:`. A cost followed by `stop` ends the move of a unit that "
                          "enters the hex (crosses the hexside) there; a row marked `no-zoc` keeps zones of "
                          "control from extending into the hex (across the hexside), a hex row marked "
                          "`exerts-no-zoc` takes away the ZOC of a unit in the hex (a fortress). The combat effect, which the combat "
                          "engine applies, is `ne`, "
                          "`P` (prohibited), `ot` (the other terrain's), or column shifts (`1L`), die roll "
                          "modifiers on the roll read by odds (`-1`) and multipliers (`Dx2`, `Ax1/2`). A "
                          "hexside's multiplier applies to each attacking hex that crosses it, its shift and DRM "
                          "once when any attacking hex crosses it, or, with `all-across`, only when every one "
                          "does. A hex of several terrains combines their effects by "
                          "`combat.terrain_combination`. A hexside's effect is on top of the hex's unless "
                          "`combat.hexside_combination = with-terrain` counts the hexsides an attack crosses as "
                          "more terrains of the defender's hex, combined with it by that rule (a ford's Dx2 and a "
                          "rough hex's Dx2 double the defender once under `most-restrictive`).",
                          'rule 7.3 "Terrain in combat" {\n'
                          '  summary "A hexside crossed is not cumulative with the hex\'s terrain."\n'
                          "  combat.terrain_combination = most-restrictive\n"
                          "  combat.hexside_combination = with-terrain\n"
                          "}\n\n"
                          'terrain effects chart "Terrain" {\n'
                          "  hex:\n"
                          "    open    1  ne\n"
                          "    forest  2  1L  level 1\n"
                          "    rough   3  -1\n"
                          "    marsh   2 stop  Dx2\n"
                          "    city    1  Dx2  level 2  line close\n"
                          "  roads:\n"
                          "    road    1/2  ot\n"
                          "  hexside:\n"
                          "    stream  +1  Ax1/2\n"
                          "    canal   +2  1L all-across\n"
                          "    dyke    +1 stop  ne\n"
                          "    river   P   P  no-zoc\n"
                          "    bridge  negates river  Ax1/4\n"
                          "}\n",
                          more=(("a road whose cost depends on the terrain entered: `trail  1, forest 2` costs 2 "
                                 "into forest and 1 elsewhere, `track  2 lower` costs 2 or the hex's own cost "
                                 "where that is lower; a movement example holds the costs",
                                 "terrain effects chart {\n"
                                 "  hex:\n"
                                 "    open    1  ne\n"
                                 "    forest  2  1L\n"
                                 "  roads:\n"
                                 "    road   1/2          ne\n"
                                 "    trail  1, forest 2  ne\n"
                                 "    track  2 lower       ne\n"
                                 "}\n\n"
                                 'example "Along the trail and the track" {\n'
                                 "  map 1.01 - 4.04 open\n"
                                 "  hex 3.02 forest\n"
                                 "  road trail 1.02 2.02 3.02\n"
                                 "  road track 1.04 2.04\n"
                                 "  unit a first 4-4-8 at 1.02\n"
                                 "  unit b first 4-4-8 at 1.04\n"
                                 "  expect move a 2.02 3.02 costs 1 2 total 3 legal\n"
                                 "  expect move b 2.04 costs 1 total 1 legal\n"
                                 "}\n"),
                                ("a fortress: a hex row marked `exerts-no-zoc` takes away the ZOC of any unit "
                                 "in a hex of that terrain (`no-zoc` instead keeps other units' ZOCs out); a ZOC "
                                 "example holds it",
                                 'rule 2.0 "Zones of Control" {\n'
                                 '  summary "A unit\'s ZOC is the six hexes around it."\n'
                                 "  zoc.range = 1 hex\n"
                                 "}\n\n"
                                 "terrain effects chart {\n"
                                 "  hex:\n"
                                 "    open      1  ne\n"
                                 "    fortress  1  Dx2  exerts-no-zoc\n"
                                 "}\n\n"
                                 'example "No ZOC from the fortress" [2.0] {\n'
                                 "  map 1.01 - 6.04 open\n"
                                 "  hex 2.02 fortress\n"
                                 "  unit a first 4-4-8 at 2.02\n"
                                 "  unit b first 4-4-8 at 5.02\n"
                                 "  expect zoc first 4.01 4.02 5.01 5.03 6.01 6.02 not 1.02 1.03 2.01 2.03 3.02 3.03\n"
                                 "}\n"))),
    ir.ResultsTable: Kind("Combat Results Table", ("results_table",),
                          "The odds across the top, the dice down the side; terrain lines and dual-sided "
                          "tables are written the same way. `amend` changes only the cells it lists.",
                          _ROUNDING + "\n"
                          'combat results table "CRT" dice 1d6 {\n'
                          "  odds  1:1   2:1   3:1\n"
                          "  1-2   A1    A1    D1\n"
                          "  3-4   A1    D1    D1r1\n"
                          "  5-6   D1    D1r1  D2r2\n"
                          "}\n",
                          more=(("a differential table: each column a range of the attack strength minus the "
                                 "defense strength (`-6..-5`, `0`, `+4..`, open at either end), with terrain "
                                 "lines; it needs no rounding rule (a fraction of the difference is dropped), and "
                                 "an example asks for its `difference`",
                                 "unit types {\n"
                                 "  infantry\n"
                                 "}\n\n"
                                 "terrain effects chart {\n"
                                 "  hex:\n"
                                 "    clear  1  ne  line open\n"
                                 "    woods  2  ne  line close\n"
                                 "}\n\n"
                                 'combat results table "CRT" dice 1d6 {\n'
                                 "  difference open   ..-3  -2..-1  0    +1..+2  +3..\n"
                                 "  difference close  ..-1  0..+1   +2   +3..+4  +5..\n"
                                 "  1-2               A1    A1      D1   D1      D2\n"
                                 "  3-4               A1    A1      A1   D1      D1\n"
                                 "  5-6               A2    A1      A1   A1      D1\n"
                                 "}\n\n"
                                 'example "In woods, the close line" {\n'
                                 "  map 1.01 - 4.04 clear\n"
                                 "  hex 2.02 woods\n"
                                 "  unit a first 5-5-4 at 1.02 type infantry\n"
                                 "  unit b second 3-3-4 at 2.02 type infantry\n"
                                 "  expect combat a on 2.02 difference +2 column +2 roll 1 result D1\n"
                                 "}\n"),)),
    ir.ResultCodes: Kind("Result codes", ("result_codes",),
                         "The codes a CRT prints and what each one means; `family` adds a standard "
                         "notation's codes. `combat.below_table` and `combat.above_table` may name one; "
                         "`combat.below_table_forced` gives a forced attack (`Combat(forced=True)`, `forced` "
                         "in a combat example) a result of its own below the table.",
                         _ROUNDING + "\n"
                         'rule 7.0 "Combat" {\n'
                         '  summary "Below 1:1 an attack is not allowed; one the rules require eliminates '
                         'the attacker."\n'
                         "  combat.below_table = NA\n"
                         "  combat.below_table_forced = AE\n"
                         "}\n\n"
                         'result codes "Combat results" {\n'
                         "  DE  defender loses all\n"
                         "  DR  defender retreats 2\n"
                         "  EX  exchange\n"
                         "  AL  attacker loses 1 unit\n"
                         "  AE  attacker loses all\n"
                         "  NE  no effect\n"
                         "  NA  not allowed\n"
                         "}\n\n"
                         "combat results table dice 1d6 {\n"
                         "  odds  1:1  2:1\n"
                         "  1-3   AL   EX\n"
                         "  4-5   NE   DR\n"
                         "  6     DR   DE\n"
                         "}\n\n"
                         "terrain effects chart {\n"
                         "  hex:\n"
                         "    open  1  ne\n"
                         "}\n\n"
                         'example "Below the table" [7.0] {\n'
                         "  map 1.01 - 2.02 open\n"
                         "  unit a blue 1-1-4 at 1.01\n"
                         "  unit b red 3-3-4 at 2.01\n"
                         "  expect combat a on 2.01 odds 1:3 column below result NA\n"
                         "  expect combat a on 2.01 forced odds 1:3 column below result AE\n"
                         "}\n",
                         more=(("an exchange and what it costs: `combat.exchange_measure` (steps, units or "
                                "factors) and `combat.exchange_counts_terrain` (the defender's factors as its "
                                "terrain multiplies them); a unit type with the capability `exchange-exempt` never "
                                "pays it; `resolve_combat` gives the attacker's least loss (`Resolution.exchange`) "
                                "and an example states it (`exchange 8`)",
                                _ROUNDING + "\n"
                                "unit types {\n"
                                "  infantry\n"
                                "  hq        exchange-exempt\n"
                                "}\n\n"
                                'rule 7.4 "Exchanges" {\n'
                                '  summary "The defender loses all; the attacker loses units of at least its '
                                'defense factors, doubled in woods. Headquarters never pay."\n'
                                "  combat.exchange_measure        = factors\n"
                                "  combat.exchange_counts_terrain = yes\n"
                                "}\n\n"
                                'result codes "Combat results" {\n'
                                "  EX  exchange\n"
                                "  DE  defender loses all\n"
                                "  NE  no effect\n"
                                "}\n\n"
                                "combat results table dice 1d6 {\n"
                                "  odds  1:1  2:1\n"
                                "  1-3   EX   EX\n"
                                "  4-6   NE   DE\n"
                                "}\n\n"
                                "terrain effects chart {\n"
                                "  hex:\n"
                                "    open   1  ne\n"
                                "    woods  2  Dx2\n"
                                "}\n\n"
                                'example "An exchange in the woods" [7.4] {\n'
                                "  map 1.01 - 2.02 open\n"
                                "  hex 2.01 woods\n"
                                "  unit a blue 6-4-4 at 1.01 type infantry\n"
                                "  unit b blue 3-3-4 at 1.01 type infantry\n"
                                "  unit h blue 2-1-4 at 1.01 type hq\n"
                                "  unit z red 4-4-4 at 2.01 type infantry\n"
                                "  expect combat a b h on 2.01 odds 1:1 roll 2 result EX exchange 8\n"
                                "}\n"),)),
    ir.LookupTable: Kind("Other charts", ("lookup_table",),
                         "A chart looked up by one key, or by a row key and a column key.",
                         'table supply-distance "Supply distance" {\n'
                         "  level  1  2-3  4-6\n"
                         "  hexes  4  3    1\n"
                         "}\n\n"
                         'table bombardment "Step losses" {\n'
                         "  red-die/soft-units  0  1-2  3+\n"
                         "  1-3                 0  0    1\n"
                         "  4-6                 0  1    2\n"
                         "}\n"),
    ir.Labels: Kind("Labels", ("labels",),
                    "What player-aid cards print for each name, in one language.",
                    'labels fr "Français" {\n'
                    '  phase.movement  "Phase de mouvement"\n'
                    "}\n"),
    ir.Card: Kind("Player-aid card", ("card",),
                  "How the rulebook's player-aid card is printed: the most sheet sides it may take, the paper, "
                  "the topics of its reminders panel (odds, zoc, overrun, retreat, advance, supply, stacking: "
                  "the values in effect, with their rule numbers), a colour and pattern (plain, hatch, cross, "
                  "dots, waves) for a terrain's Terrain Effects Chart row, and tables printed as optional "
                  "charts (a one-row table as a turn record track). Every line is optional; a terrain without "
                  "a swatch takes a colour from its name. A game without a card block takes its series'; "
                  "one with its own replaces it whole.",
                  "terrain effects chart {\n"
                  "  hex:\n"
                  "    open   1  ne\n"
                  "    woods  2  Dx2\n"
                  "}\n\n"
                  'table turns "Turn Record Track" {\n'
                  "  turn    1       2       3\n"
                  "  date    june-6  june-7  june-8\n"
                  "}\n\n"
                  "card {\n"
                  "  sides 2\n"
                  "  paper a4\n"
                  "  reminders: odds zoc overrun retreat advance\n"
                  '  swatch woods "#3a7d44" hatch\n'
                  '  swatch open  "#f2ecd0"\n'
                  "  charts: turns\n"
                  "}\n"),
    ir.Example: Kind("Worked examples", ("example",),
                     "A small situation (the playable hexes and their terrain, hexsides, roads, supply sources, "
                     "whose turn and phase it is, and the units with side, attack-defense-movement, steps, type, "
                     "size, capabilities and markers, and the overruns and attacks already made, `done` lines), "
                     "and `expect` lines: each a query of the rules engine "
                     "(move, reach, zoc, stack, supply, overrun, exploit, attack, retreat, advance, combat) and "
                     "what the rules answer. `rulesdsl check` and `rulesdsl build` run every one against the "
                     "rules in effect; a game re-runs the examples it inherits and notes where its own rules "
                     "answer otherwise. `rulesdsl explain RULEBOOK SITUATION QUERY` takes the same lines and "
                     "prints the derivation. `note` lines say where the source is cut.",
                     "terrain effects chart {\n"
                     "  hex:\n"
                     "    open   1  ne\n"
                     "    woods  2  Dx2\n"
                     "  hexside:\n"
                     "    stream  +1  Ax1/2\n"
                     "}\n\n"
                     'example "Through the woods and over the stream" {\n'
                     '  note "The hexes are laid out so that the costs hold."\n'
                     "  map 1.01 - 4.04 open      # the playable hexes, and their terrain unless a hex line says\n"
                     "  hex 2.02 woods\n"
                     "  hexside 2.02/3.02 stream\n"
                     "  unit a blue 3-2-4 at 1.02\n"
                     "  unit b red 2-2-4 at 4.04 steps 2 can exploit marked out-of-supply\n"
                     "  expect move a 2.02 3.02 costs 2 2 total 4\n"
                     "  expect move a 2.02 3.02 4.02 illegal\n"
                     "}\n"),
}


# what a game of scs-1.8 says at the least: the stacking limit the series requires, and one amendment
_GAME_OF_SCS = (
    'rule G1.0 "Stacking" {\n'
    '  summary "Up to six steps may stack in a hex."\n'
    "  stacking.limit = 6 steps\n"
    "}\n\n"
    "amend rule 7.4 {\n"
    "  combat.below_table = A2\n"
    "}\n")

HEADER_EXAMPLE = 'game my-title "My Title" version "1.0" extends scs-1.8\n\n' + _GAME_OF_SCS


AMEND_EXAMPLE = (
    'game my-errata "My Errata" version "1.1" extends scs-1.8\n\n' + _GAME_OF_SCS + "\n"
    "amend sequence of play {\n"
    "  player turn {\n"
    "    movement  [3.0 5.0]  movement, overrun\n"
    "  }\n"
    "}\n\n"
    "amend terrain effects chart {\n"
    "  hex:\n"
    "    woods  combat    1L\n"
    "    open   movement  2\n"
    "    marsh  3         1L\n"
    "}\n")


def example_rulebook(kind: type) -> str:
    """The whole rulebook a statement kind's example is: a standalone game holding it."""
    return _canonical(f"{EXAMPLE_HEADER}\n\n{KINDS[kind].example}")


def example_value(kind: ir.ParamType) -> str:
    """A value of the type, as a rulebook writes it (a quantity of 2, to show the plural)."""
    return kind.example(2) if kind.kind != ir.ParamKind.COUNT else kind.example(3)


def declaration_text(declared: ir.Declared) -> str:
    """A parameter's declaration as a `parameters` block writes it."""
    reason = f"  descriptive {declared.descriptive}" if declared.descriptive is not None else ""
    return f'{declared.name}  {declared.type.declared()}{reason}  "{declared.meaning}"'


def parameters_rulebook(vocabulary: Iterable[ir.Declared]) -> str:
    """A standalone game that declares the parameters of `vocabulary` (the core ones are known) and sets
    every one to its example value (compiled by the tests)."""
    vocabulary = sorted(vocabulary, key=lambda d: d.name)
    lines = [EXAMPLE_HEADER, "", "parameters {"]
    lines += [f"  {declaration_text(d)}" for d in vocabulary if d.origin != ir.CORE]
    lines += ["}", "", 'rule 1.0 "Every parameter" {', '  summary "Each parameter\'s example."']
    lines += [f"  {d.name} = {example_value(d.type)}" for d in vocabulary]
    return "\n".join([*lines, "}", ""])


def library_vocabularies() -> dict[str, list[ir.Declared]]:
    """The parameters each shipped library series declares itself (not those it inherits), by id."""
    from rulesdsl.project.build import library_parameters    # project imports the pipeline; the reference is its reader
    return {rulebook_id: [d for d in known.values() if d.origin == rulebook_id]
            for rulebook_id, known in sorted(library_parameters().items())}


def _parameter_table(w: Callable[[str], object], names: list[ir.Declared], uses: bool = False) -> None:
    groups: dict[str, list[ir.Declared]] = {}
    for declared in sorted(names, key=lambda d: d.name):
        groups.setdefault(declared.name.split(".")[0], []).append(declared)
    for group, entries in sorted(groups.items()):
        last = "What it drives" if uses else "Example"
        w(f"#### {group}\n\n| Parameter | Type | Unit | Meaning | {last} |\n| --- | --- | --- | --- | --- |\n")
        for d in entries:
            tail = _cell(catalogue.CORE_USES[d.name]) if uses else f"`{d.name} = {example_value(d.type)}`"
            meaning = d.meaning + (f" (descriptive: {d.descriptive})" if d.descriptive is not None else "")
            w(f"| `{d.name}` | {_cell(d.type.describe())} | {d.type.unit or ''} | {_cell(meaning)} | {tail} |\n")
        w("\n")


CONTEXT_EXAMPLE = (
    "unit types {\n"
    "  tank      armored\n"
    "  infantry  soft\n"
    "}\n"
    "unit states: dg\n"
    "combat situations: night\n"
    "combat amounts: artillery-points\n\n"
    "parameters {\n"
    '  combat.dg_factor  number  "what a disrupted unit\'s strength is multiplied by"\n'
    "}\n\n"
    'rule 1.0 "Combat" {\n'
    '  summary "What a combat reads."\n'
    "  combat.dg_factor = 1/2\n"
    "  define armor = count(attackers where armored and not dg) > count(defenders where armored)\n"
    "  define strength = sum(attackers where not dg of attack) + artillery-points\n"
    "  define crowded = any(attacking_hexes where count(units) >= 3)\n"
    "  define close = defender_terrain.shift < 0 or defender_terrain is forest\n"
    "  define ratio = if(night, floor(strength * combat.dg_factor), strength)\n"
    "  define attack-band {\n"
    "    strong  when odds(ratio, sum(defenders of defense)) >= 3:1\n"
    "    weak    otherwise\n"
    "  }\n"
    "}\n\n"
    + _ROUNDING + "\n"
    "terrain effects chart {\n"
    "  hex:\n"
    "    open    1  ne\n"
    "    forest  2  1L\n"
    "}\n")


def context_rulebook() -> str:
    return _canonical(f"{EXAMPLE_HEADER}\n\n{CONTEXT_EXAMPLE}")


def _canonical(text: str) -> str:
    """The text as `rulesdsl fmt` lays it out, so an example can be pasted as it is."""
    from rulesdsl.language.fmt import format_source
    from rulesdsl.language.source import Source
    return format_source(Source("example.rules", text))


def _grammar_paragraphs() -> list[str]:
    text = GRAMMAR.read_text(encoding="utf-8")
    return [p.strip("\n") for p in re.split(r"\n\s*\n", text)]


def grammar_of(rule: str) -> str:
    """The paragraph of grammar.lark that defines `rule` (its comments, alternatives and helpers)."""
    pattern = re.compile(rf"^\??{re.escape(rule)}:", re.M)
    for paragraph in _grammar_paragraphs():
        if pattern.search(paragraph):
            return paragraph
    raise LookupError(f"grammar.lark has no rule {rule!r}")


def statement_rules() -> list[str]:
    """The grammar rules `?statement:` lists."""
    block = grammar_of("statement")
    body = block[block.index("?statement:") + len("?statement:"):]
    return [name.strip() for name in body.split("|") if name.strip() and not name.strip().startswith("//")]


def _limits() -> list[tuple[str, int, str]]:
    """Each MAX_ constant of limits.py, with the comment above it."""
    out: list[tuple[str, int, str]] = []
    comment: list[str] = []
    for line in LIMITS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            comment.append(line.lstrip("# ").strip())
            continue
        match = re.match(r"(MAX_[A-Z_]+) = ", line)
        if match:
            out.append((match.group(1), int(getattr(limits, match.group(1))), " ".join(comment)))
        comment = []
    return out


_MESSAGE = re.compile(r"^\S*: (?:error|warning): (.*)$", re.M)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _fence(text: str, lang: str = "") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{lang}\n{text}{'' if text.endswith(chr(10)) else chr(10)}{fence}\n"


def _anchor(title: str) -> str:
    return re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")


def _shown_input(data: bytes) -> str:
    """A corpus input as text: bytes that are not UTF-8 as \\x escapes, a carriage return as \\r."""
    text = data.decode("utf-8", errors="backslashreplace")
    return text.replace("\r\n", "\\r\n").replace("\r", "\\r\n")


def diagnostics(corpus: Path) -> list[tuple[str, str, str]]:
    """(case, expected output, input) for each case of the broken-rulebook corpus, sorted by case."""
    out = []
    for rules in sorted(corpus.glob("*.rules")):
        expected = rules.with_suffix(".expected").read_text(encoding="utf-8")
        out.append((rules.stem, expected, _shown_input(rules.read_bytes())))
    return out


def generate(corpus: Path | None = None) -> str:
    """The reference, as Markdown; the diagnostics from `corpus` (default: the repository's)."""
    corpus = corpus if corpus is not None else CORPUS
    missing = [kind.__name__ for kind in ir.STATEMENTS if kind not in KINDS]
    if missing:
        raise LookupError(f"the reference has no entry for the statement kinds {', '.join(missing)}")
    if not corpus.is_dir():
        raise FileNotFoundError(f"no broken-rulebook corpus at {corpus}: run it in the rulesdsl repository")
    out: list[str] = []
    w = out.append
    w("# rulesdsl language reference\n\n")
    w(f"Generated by `{REGENERATE}` from the compiler's own sources; do not edit it by hand. "
      "The guide to the language is [language.md](language.md). Every example here is a whole "
      "rulebook that the tests compile.\n\n")
    sections = ["Statements", "Parameters", "Units", "Phase activities", "Expression context",
                "Limits", "Diagnostics"]
    w("".join(f"- [{s}](#{_anchor(s)})\n" for s in sections) + "\n")

    w("## Statements\n\n")
    w("A rulebook is a header line (`series ID \"Title\" version \"V\" [extends ID]`, or `game ...`) "
      "followed by statements of these kinds, in any order. Syntax is the grammar's own "
      "(`rulesdsl/language/grammar.lark`); the example of each statement kind is a standalone game.\n\n")
    w("### Header\n\nThe first line: `series` or `game`, the id, the title, the version, and the rulebook it "
      "extends (a rulebook of the project, or of the library such as the shipped `scs-1.8`); a game "
      "without `extends` stands alone. (IR: `ir.Rulebook`.)\n\nSyntax:\n\n")
    w(_fence(grammar_of("start") + "\n\n" + grammar_of("header") + "\n", "lark"))
    w("\nExample, a game of a shipped series that sets what the series requires and amends one "
      "parameter:\n\n")
    w(_fence(_canonical(HEADER_EXAMPLE), "rules"))
    w("\n")
    w("### Amendments\n\n`amend` changes one item of what a rulebook inherits and keeps the rest: parameters of a "
      "rule, phases of a turn (`player turn soviet { ... }`: that side's turn only), Terrain Effects Chart rows or "
      "single cells (`woods  combat 1L`: the movement cell as inherited), and Combat Results Table cells "
      "(`amend combat results table { odds 3:1 / 4 D2r2 }`; an odds column the table lacks, given on every roll, "
      "is added). A row of a terrain the chart lacks is added. Each item amended is "
      "the game's own: its module, its card and `diff --resolved` say so. (IR: the `amend` flag of each "
      "statement, `TerrainChart.cells`; resolved: `Effective.amended`.)\n\nExample:\n\n")
    w(_fence(_canonical(AMEND_EXAMPLE), "rules"))
    w("\n")
    for kind in ir.STATEMENTS:
        entry = KINDS[kind]
        w(f"### {entry.title}\n\n{entry.what} (IR: `ir.{kind.__name__}`, in `Rulebook.{ir.STATEMENT_FIELD[kind]}`.)\n\n")
        w("Syntax:\n\n")
        w(_fence("\n\n".join(grammar_of(rule) for rule in entry.grammar) + "\n", "lark"))
        w("\nExample:\n\n")
        w(_fence(example_rulebook(kind), "rules"))
        w("\n")
        for shows, body in entry.more:
            w(f"Example, {shows}:\n\n")
            w(_fence(_canonical(f"{EXAMPLE_HEADER}\n\n{body}"), "rules"))
            w("\n")

    w("## Parameters\n\n")
    w("A rule sets a parameter as `name = value`, in one rule only. A parameter is either core vocabulary, "
      "which the compiler itself acts on, or declared by a rulebook in a `parameters` block (see Parameter "
      "declarations): a series declares the parameters its rules and its games set, and a title may "
      "declare its own. Setting a parameter that neither the core nor the rulebook's chain declares is "
      "an error. Tables are grouped by the part of the name before the dot.\n\n")
    w(f"### Core parameters\n\nThe {len(catalogue.CORE_PARAMETERS)} parameters the compiler knows "
      "(`rulesdsl/model/catalogue.py` `CORE_PARAMETERS`; those of the rules engine are declared in the core "
      "vocabulary, `rulesdsl/core/vocabulary.rules`), and what of the generated module, its engine or the card each drives. "
      "A rulebook sets them and never declares them.\n\n")
    _parameter_table(w, list(catalogue.CORE_PARAMETERS.values()), uses=True)
    for rulebook_id, declared in library_vocabularies().items():
        w(f"### Declared by the library series `{rulebook_id}`\n\n{len(declared)} parameters, from the "
          f"`parameters` block of `{rulebook_id}.rules` (a title that extends it may set them, and those of the "
          "series it extends in turn); the example column is a value of its type.\n\n")
        _parameter_table(w, declared)

    w("## Units\n\nThe units a quantity may carry, and how a rulebook may spell each.\n\n")
    w("| Unit | Spellings |\n| --- | --- |\n")
    for unit, spellings in catalogue.UNITS.items():
        w(f"| `{unit}` | {', '.join(f'`{s}`' for s in spellings)} |\n")
    w("\n")

    w("## Phase activities\n\nWhat a phase of the sequence of play may list (`rulesdsl/model/catalogue.py` "
      "`ACTIVITIES`), as in `movement  [3.0]  movement, overrun`.\n\n")
    w("| Activity | In the phase |\n| --- | --- |\n")
    for activity, meaning in sorted(catalogue.ACTIVITIES.items()):
        w(f"| `{activity}` | {_cell(meaning)} |\n")
    w("\n")

    w("## Expression context\n\nThe names an expression may read (`rulesdsl/model/context.py`); any other name "
      "is an error with its position.\n\n")
    w(_fence((context.__doc__ or "").strip("\n").split("\n\n", 1)[1] + "\n"))
    w("\nExample:\n\n")
    w(_fence(context_rulebook(), "rules"))
    w("\n")

    w("## Limits\n\nEach is a constant in `rulesdsl/language/limits.py`; passing one is an error with its "
      "position.\n\n| Limit | Value | What it bounds |\n| --- | --- | --- |\n")
    for name, value, comment in _limits():
        w(f"| `{name}` | {value} | {_cell(comment)} |\n")
    w("\n")

    cases = diagnostics(corpus)
    w("## Diagnostics\n\n")
    w(f"Every diagnostic of the broken-rulebook corpus (`tests/errors`, {len(cases)} cases): what "
      "`rulesdsl check` prints, then the input that makes it print that. An input is "
      "`rulebooks/CASE.rules` in a project beside the series `base` (`tests/fixtures/base.rules`); "
      "`# ---- file: NAME.rules` starts another file of the same project. A carriage return shows "
      "as `\\r`, a byte that is not UTF-8 as `\\xNN`.\n\n")
    w("| Case | Diagnostics |\n| --- | --- |\n")
    for case, expected, _ in cases:
        messages = [m.group(1) for m in _MESSAGE.finditer(expected)]
        w(f"| [{case}](#{_anchor(case)}) | {_cell('; '.join(f'`{m}`' for m in messages))} |\n")
    w("\n")
    for case, expected, shown in cases:
        w(f"### {case}\n\n")
        w(_fence(expected, "text"))
        w("\n")
        w(_fence(shown, "rules"))
        w("\n")
    return "".join(out).rstrip("\n") + "\n"
