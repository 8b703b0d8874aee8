"""The questions a rule's effect may name, and the facts its condition reads at each.

`forbid exert-zoc when unit is artillery`: the rules engine asks the question (`exert-zoc`: does this
unit exert a ZOC?) where it answers it, and an effect whose condition holds of the unit decides the
answer.  The compiler checks each condition against the facts its question knows (checks/effects.py),
the generated module carries it as data (runtime/effects.py), and the engine evaluates it.

Shared by the compiler, the engine and the generated modules: plain data, no logic.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FACTS", "MODES", "QUESTIONS", "Fact", "Question"]

MODES = ("regular", "road", "reaction")     # how a unit moves (the engine's `move`), as `mode is road` reads it


@dataclass(frozen=True, slots=True)
class Question:
    """A question the engine answers that an effect may name: its word, what it asks in players' words, the
    engine function that asks it, and the effects it takes."""

    word: str
    meaning: str
    asked_by: str
    effects: tuple[str, ...]
    topic: str          # the card's reminders topic that prints its effects (catalogue.CARD_REMINDERS)
    unit: str | None = None     # what a `cost` effect's amount counts (MP)


@dataclass(frozen=True, slots=True)
class Fact:
    """What a condition may read: its name, its kind (`words`: compared with `is`; `number`: compared and
    computed with; `flag`: true or false), what it is in players' words, and the questions that know it."""

    name: str
    kind: str
    meaning: str
    questions: tuple[str, ...]


QUESTIONS: dict[str, Question] = {q.word: q for q in (
    Question("exert-zoc", "whether a unit exerts a ZOC", "zoc", ("forbid", "allow"), "zoc"),
    Question("react", "whether a unit may make a reaction move", "move", ("forbid", "allow"), "reaction"),
    Question("attack", "whether these units may make this attack together", "attack", ("forbid", "allow"),
             "attack"),
    Question("enter", "whether a unit may enter a hex, what entering it costs beyond the terrain, and whether "
                      "its move ends there", "move", ("forbid", "allow", "cost", "stop"), "movement", "MP"),
    Question("allowance", "what a unit's Movement Allowance is for this move: each cost sets it (3 MP), multiplies it "
                          "(times 1/2), keeps it at least or at most an amount (min, max) or adds to it (+1 MP, or "
                          "+2 hexes: that many hexes of road)", "move", ("cost",), "movement", "MP"),
    Question("advance", "whether a unit advancing after combat may enter a hex, and whether its advance ends "
                        "there", "advance", ("forbid", "allow", "stop"), "advance"),
    Question("must-attack", "whether a unit next to an enemy unit must attack it, where a rule makes combat "
                            "compulsory (combat.mandatory, combat.all_adjacent_must_be_attacked)", "attack",
             ("exempt", "allow"), "attack"),
    Question("exchange-loss", "whether an attacking unit pays toward an exchange: removed for it, its factors "
                              "counted", "combat", ("exempt", "allow"), "attack"),
    Question("first-loss", "whether a unit may be picked as its side's first step loss in a combat", "losses",
             ("forbid", "allow"), "retreat"),
    Question("stack-count", "whether a unit counts against the stacking limit", "stack", ("exempt", "allow"),
             "stacking"),
    Question("retreat-loss", "whether a retreating unit loses a step for entering a hex in an enemy ZOC, or is "
                             "eliminated instead", "retreat", ("exempt", "eliminate", "allow"), "retreat"),
    Question("retreat-blocked", "what a unit whose retreat cannot be made in full loses: the blocked loss, none, "
                                "or everything", "retreat", ("exempt", "eliminate", "allow"), "retreat"),
)}

_UNIT = ("exert-zoc", "react", "enter", "allowance", "first-loss", "advance", "retreat-loss", "retreat-blocked", "must-attack", "stack-count")   # asked of one unit; `attack`: of all
_HEX = ("enter", "advance")     # the questions about entering a hex
_PLACE = ("enter", "advance", "must-attack", "allowance", "first-loss")   # the questions that know a hex (must-attack,
                                                            # allowance: the unit's own)
_ALL = tuple(q for q in QUESTIONS if q != "exchange-loss")   # the questions asked in a situation (turn, phase)
_COMBAT_UNIT = (*_UNIT, "exchange-loss")     # a unit's type, words and printed strengths: known in a combat too

FACTS: dict[str, Fact] = {f.name: f for f in (
    Fact("unit", "words", "the unit's type, each of its capabilities, its size and each of its markers "
                          "(unit is artillery, unit is company, unit is dg)", _COMBAT_UNIT),
    Fact("unit.type", "words", "the unit's type (infantry, armor ...)", _COMBAT_UNIT),
    Fact("unit.size", "words", "the unit's formation size (company, regiment, division ...)", _UNIT),
    Fact("unit.side", "words", "the side the unit belongs to", _UNIT),
    Fact("unit.attack", "number", "the unit's printed Attack Strength", _COMBAT_UNIT),
    Fact("unit.defense", "number", "the unit's printed Defense Strength", _COMBAT_UNIT),
    Fact("unit.movement", "number", "the unit's printed Movement Allowance", _UNIT),
    Fact("unit.steps", "number", "the steps the unit has left", _COMBAT_UNIT),
    Fact("unit.started_in_ezoc", "flag", "whether the unit began the phase in an enemy ZOC",
         ("react", "enter", "allowance")),
    Fact("mode", "words", "how the unit moves: regular, road or reaction (mode is road)", ("enter", "allowance")),
    Fact("unit.started_stacked", "flag", "whether other units of its side stood in the hex the unit began the "
                                         "phase in", ("enter",)),
    Fact("unit.overran", "flag", "whether the unit made an overrun this phase (a situation's done overrun)",
         ("enter",)),
    Fact("unit.overrun_failed", "flag", "whether an overrun the unit made this phase left enemy units in the hex "
                                        "it overran", ("enter",)),
    Fact("from", "words", "the hex left: its terrain and each marker on it (from is pass)", ("enter",)),
    Fact("from.ezoc", "flag", "whether the hex left lies in an enemy ZOC", ("enter",)),
    Fact("hex", "words", "the hex entered (at must-attack and allowance, the unit's own; at first-loss, the combat's): its terrain and each marker on it "
                         "(hex is rubble)", _PLACE),
    Fact("hex.level", "number", "the hex's terrain level on the TEC (0 where it has none)", _PLACE),
    Fact("hex.next_to", "words", "the terrain and markers of the hexes next to the one entered "
                                 "(hex.next_to is interdicted)", ("enter",)),
    Fact("hex.ezoc", "flag", "whether the hex entered lies in an enemy ZOC", _HEX),
    Fact("hexside", "words", "the features of the hexside crossed (hexside is river)", _HEX),
    Fact("road", "flag", "whether the unit enters along a road", ("enter",)),
    Fact("advancing.count", "number", "how many units advance together after the combat", ("advance",)),
    Fact("retreat.length", "number", "the hexes the loser retreated (the result's, less any it refused)",
         ("advance",)),
    Fact("ezoc.from", "words", "the words of any enemy unit whose ZOC covers the hex: ezoc.from is anti-tank "
                               "when one of them is", ("retreat-loss",)),
    Fact("attacking", "flag", "whether the side losing the steps attacked in the combat", ("first-loss",)),
    Fact("hex.shift", "number", "the column shift the terrain of the combat's hex gives (left negative, 0 where "
                               "it gives none)", ("first-loss",)),
    Fact("enemies", "words", "the words of any unit of the other side in the combat: enemies is anti-tank when one "
                             "of them is", ("first-loss",)),
    Fact("enemy", "words", "the enemy unit next to the unit: its type, capabilities, size and markers",
         ("must-attack",)),
    Fact("enemy.hex", "words", "the terrain and markers of the enemy unit's hex", ("must-attack",)),
    Fact("enemy.hex.level", "number", "the terrain level of the enemy unit's hex on the TEC", ("must-attack",)),
    Fact("turn", "words", "the turn sets of the sequence of play that hold the game turn (turn is night)", _ALL),
    Fact("turn.number", "number", "the game turn (0 when the situation gives none)", _ALL),
    Fact("phase", "words", "the phase being played (phase is exploitation)", _ALL),
    Fact("attackers", "words", "the words of any attacking unit: attackers is engineer when one of them is",
         ("attack", "exchange-loss")),
    Fact("attackers.count", "number", "how many units attack", ("attack",)),
    Fact("attackers.attack", "number", "the attacking units' printed Attack Strengths, added up", ("attack",)),
    Fact("attackers.across", "words", "the hexside features every attacking unit attacks across (attackers.across "
                                       "is river: the whole attack crosses a river)", ("attack",)),
    Fact("attackers.crossing", "words", "the hexside features any attacking unit attacks across", ("attack",)),
    Fact("attackers.in_supply", "flag", "whether every attacking unit traces supply to a source of its side",
         ("attack",)),
    Fact("attackers.supply_hexes", "number", "the longest supply trace among the attacking units, in hexes from "
                                             "the unit to the source (one that traces none: 1000000, beyond any)",
         ("attack",)),
    Fact("defenders", "words", "the words of any defending unit: defenders is armor when one of them is",
         ("attack", "exchange-loss")),
    Fact("defenders.count", "number", "how many units defend", ("attack",)),
    Fact("defenders.defense", "number", "the defending units' printed Defense Strengths, added up", ("attack",)),
)}
