"""The fixed, documented context that rulebook expressions may read.

An expression in a rulebook (a DRM's condition, a column shift's amount, a
definition) is checked against these names; anything else is a compile
error with a position.  At run time a generated module binds a
`rulesdsl.runtime.combat.Combat` to this context.

Top level                       kind     meaning
  attackers                     units    every attacking unit
  defenders                     units    every defending unit
  attacking_hexes               hexes    each hex attacking units attack from
  defender_terrain              terrain  the terrain of the defender's hex
  overrun                       bool     the combat is an overrun
  attacker.side, defender.side  side     the side that attacks, that defends (`attacker.side is german`)
  dice.white, dice.red          number   the two dice of the combat roll, when the rulebook reads them
  <definition>                  any      a name the rulebook defines with `define`
  <situation>                   bool     a name declared by `combat situations:`, set by the players
  <amount>                      number   a name declared by `combat amounts:`, supplied by the players
  <parameter>                   number   a numeric parameter in effect (zoc.entry_cost, a declared one ...)

Inside `where` / `of` over units   (count(attackers where armored), sum(defenders of defense))
  attack, defense, quality, steps   number  printed values (after the caller's own modifications)
  <unit type>, <capability>         bool    declared by `unit types`
  <state>                           bool    declared by `unit states:` (dg, out-of-supply, ...)

Inside `where` / `of` over hexes   (any(attacking_hexes where count(units) >= 3))
  units                         units    the units attacking from that hex
  terrain                       terrain  that hex's terrain
  factor                        number   the TEC's multiplier on attacks from it (1/2 across a stream)
  across(<hexside>)             bool     its attack crosses that hexside feature

A terrain value has
  shift                         number   column shift of the TEC's combat cell (- left, + right)
  level                         number   the TEC's terrain level (0 when not given)
  attack, defense               number   the TEC's multipliers (1 when none)
  `terrain is woods`            bool     names a terrain of the TEC

Functions: count(C [where P]), any(C where P), all(C where P), sum(C [where P] of V),
max(C [where P] of V), min(C [where P] of V) (0 over nothing), max(A, B, ...), min(A, B, ...),
if(P, A, B), odds(A, D) (the rulebook's odds, comparable with 4:1), floor(X), ceil(X),
round(X) (the rulebook's rounding).

In `result adjustments` only:
  result.attacker_steps, result.attacker_retreat,
  result.defender_steps, result.defender_retreat   number   the result as read from the table
"""
from __future__ import annotations

ROOT = {
    "attackers": "units",
    "defenders": "units",
    "attacking_hexes": "hexes",
    "defender_terrain": "terrain",
    "overrun": "bool",
    "attacker.side": "side",
    "defender.side": "side",
    "dice.white": "number",
    "dice.red": "number",
}
UNIT_ATTRIBUTES = {"attack": "number", "defense": "number", "quality": "number", "steps": "number"}
HEX_ATTRIBUTES = {"units": "units", "terrain": "terrain", "factor": "number"}
TERRAIN_ATTRIBUTES = {"shift": "number", "level": "number", "attack": "number", "defense": "number"}
AGGREGATES = {"count", "any", "all", "sum", "max", "min"}
NUMERIC = {"floor", "ceil", "round"}
RESULT_FIELDS = {"result.attacker_steps", "result.attacker_retreat", "result.defender_steps",
                 "result.defender_retreat"}
