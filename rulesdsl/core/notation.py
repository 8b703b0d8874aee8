"""Result notation and odds, shared by the compiler (to validate) and generated modules (to play).

>>> parse_result("A1r1")
Result(attacker_steps=1, attacker_retreat=1, defender_steps=0, defender_retreat=0, text='A1r1')
>>> parse_odds("1:2")
(1, 2)
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

NO_EFFECT = ("-", "NE")
NOTATIONS = ("steps-first", "retreat-first")
DECLARED = "declared"    # a table whose cells are only the codes its rulebook declares (`result codes`)
_SIDE = r"(?:(?P<{0}>{0})(?P<{0}s>[0-9]+)?(?:r(?P<{0}r>[0-9]+))?)?"
_RESULT = re.compile("^" + _SIDE.format("A") + _SIDE.format("D") + r"(?P<bt>\*)?$")
_RETREAT_FIRST = re.compile(r"^(?P<side>[ADB])(?P<retreat>[0-9]+)?(?:\((?P<steps>[0-9]+)\))?(?P<bt>\*)?$")
_ODDS = re.compile(r"^([0-9]+(?:\.[0-9]+)?):([0-9]+(?:\.[0-9]+)?)$")


@dataclass(frozen=True, slots=True)
class Result:
    """A combat result: steps lost and hexes retreated by each side, and the printed text.

    A declared code (`result codes`) may also mean more: a side eliminated (all its units), whole units
    lost, an advance, an exchange, an attack not allowed, a state a side takes (disrupted ...).
    """

    attacker_steps: int = 0
    attacker_retreat: int = 0
    defender_steps: int = 0
    defender_retreat: int = 0
    text: str = "-"
    breakthrough: bool = False
    attacker_eliminated: bool = False
    defender_eliminated: bool = False
    attacker_units: int = 0
    defender_units: int = 0
    attacker_advance: int = 0
    defender_advance: int = 0
    exchange: bool = False
    not_allowed: bool = False
    attacker_states: tuple[str, ...] = ()
    defender_states: tuple[str, ...] = ()

    def __repr__(self) -> str:
        """The six fields every result has, then only those of a declared meaning that it sets."""
        always: tuple[tuple[str, object], ...] = (
            ("attacker_steps", self.attacker_steps), ("attacker_retreat", self.attacker_retreat),
            ("defender_steps", self.defender_steps), ("defender_retreat", self.defender_retreat),
            ("text", self.text), ("breakthrough", self.breakthrough))
        declared: tuple[tuple[str, object], ...] = (
            ("attacker_eliminated", self.attacker_eliminated), ("defender_eliminated", self.defender_eliminated),
            ("attacker_units", self.attacker_units), ("defender_units", self.defender_units),
            ("attacker_advance", self.attacker_advance), ("defender_advance", self.defender_advance),
            ("exchange", self.exchange), ("not_allowed", self.not_allowed),
            ("attacker_states", self.attacker_states), ("defender_states", self.defender_states))
        shown = always + tuple((name, value) for name, value in declared if value not in (False, 0, ()))
        return "Result(" + ", ".join(f"{name}={value!r}" for name, value in shown) + ")"

    @property
    def no_effect(self) -> bool:
        """Nothing happens to either side."""
        return self == Result(text=self.text)

    @property
    def defender_loses(self) -> bool:
        """The defender loses something: steps, units, all of them, or in an exchange."""
        return bool(self.defender_steps or self.defender_units or self.defender_eliminated or self.exchange)

    @property
    def attacker_loses(self) -> bool:
        return bool(self.attacker_steps or self.attacker_units or self.attacker_eliminated or self.exchange)


def parse_result(text: str, notation: str = "steps-first") -> Result | None:
    """The Result a CRT cell prints, or None when it is not valid notation.

    steps-first (the default): A#: attacker loses # steps; D#: defender loses
    # steps; r# after a side: that side retreats # hexes (A1r1, D2r2, Dr1, A1D1).
    retreat-first: a side (A, D, or B for both), the hexes it retreats, then
    in parentheses the steps it must lose (D2, D2(1), B1(1)).
    Either way '-' or 'NE' is no effect and a trailing * marks a breakthrough.
    """
    if text in NO_EFFECT:
        return Result(text=text)
    if notation == "retreat-first":
        return _retreat_first(text)
    if notation != "steps-first":
        raise ValueError(f"unknown result notation {notation!r}")
    match = _RESULT.match(text)
    if not match or not text:
        return None
    groups = match.groupdict()
    for side in "AD":
        if groups[side] and groups[side + "s"] is None and groups[side + "r"] is None:
            return None  # a bare 'A' or 'D' says nothing
    if not (groups["A"] or groups["D"]):
        return None
    return Result(int(groups["As"] or 0), int(groups["Ar"] or 0),
                  int(groups["Ds"] or 0), int(groups["Dr"] or 0), text, bool(groups["bt"]))


def read_result(text: str, notation: str = "steps-first",
                codes: Mapping[str, Result] | None = None) -> Result | None:
    """A cell's Result: the rulebook's declared meaning of the code, else the notation's (the `declared`
    notation has none); None when it is neither."""
    if codes is not None and text in codes:
        return replace(codes[text], text=text)
    if notation == DECLARED:
        return None
    return parse_result(text, notation)


def _retreat_first(text: str) -> Result | None:
    match = _RETREAT_FIRST.match(text)
    if not match or (match.group("retreat") is None and match.group("steps") is None):
        return None
    retreat, steps = int(match.group("retreat") or 0), int(match.group("steps") or 0)
    side = match.group("side")
    attacker = (steps, retreat) if side in "AB" else (0, 0)
    defender = (steps, retreat) if side in "DB" else (0, 0)
    return Result(attacker[0], attacker[1], defender[0], defender[1], text, bool(match.group("bt")))


def parse_odds(text: str) -> tuple[Fraction, Fraction] | None:
    """'3:1' -> (3, 1); None when it is not an odds ratio with both sides above zero."""
    match = _ODDS.match(text)
    if not match:
        return None
    attack, defense = Fraction(match.group(1)), Fraction(match.group(2))
    if attack <= 0 or defense <= 0:
        return None
    return attack, defense


_DIFFERENCE = re.compile(r"([+\-][0-9]+|0)?(\.\.)?([+\-][0-9]+|0)?")
OPEN_DIFFERENCE = 10 ** 6   # how far an open-ended difference column ('..-7', '+12..') reaches


def parse_difference(text: str) -> tuple[int, int] | None:
    """A differential column's range of attack-minus-defense: '+3' -> (3, 3); '-6..-5' -> (-6, -5);
    '..-7' -> -7 or less; '+12..' -> 12 or more.  None when it is not one, or runs backwards."""
    match = _DIFFERENCE.fullmatch(text)
    if not match or not text:
        return None
    low, dots, high = match.groups()
    if dots is None:
        return (int(low), int(low)) if low is not None else None
    if low is None and high is None:
        return None
    start = -OPEN_DIFFERENCE if low is None else int(low)
    end = OPEN_DIFFERENCE if high is None else int(high)
    return (start, end) if start <= end else None


_TURNS = re.compile(r"([0-9]+)(?:-([0-9]+)|(\+))?")


def parse_turns(text: str) -> tuple[int, int | None] | None:
    """Game turns as a sequence of play writes them: '3' -> (3, 3); '5-8' -> (5, 8); '11+' -> (11, None),
    turn 11 and every later one.  None when it is none of these, names no turn (0) or runs backwards."""
    match = _TURNS.fullmatch(text)
    if not match:
        return None
    first = int(match.group(1))
    last = None if match.group(3) else int(match.group(2) or first)
    return (first, last) if first >= 1 and (last is None or last >= first) else None


def turns_text(spans: tuple[tuple[int, int | None], ...]) -> str:
    """'3, 6, 9, 12', '5-8, 11+': game turns as a sequence of play writes them."""
    return ", ".join(f"{first}+" if last is None else str(first) if first == last else f"{first}-{last}"
                     for first, last in spans)


def difference_text(difference: int) -> str:
    """+3, 0, -2: a difference as columns write it."""
    return f"{difference:+d}" if difference else "0"


def odds_ratio(text: str) -> Fraction:
    pair = parse_odds(text)
    if pair is None:
        raise ValueError(f"not an odds ratio: {text!r}")
    attack, defense = pair
    return attack / defense
