"""Result notation and odds, shared by the compiler (to validate) and generated modules (to play).

>>> parse_result("A1r1")
Result(attacker_steps=1, attacker_retreat=1, defender_steps=0, defender_retreat=0, text='A1r1')
>>> parse_odds("1:2")
(1, 2)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

NO_EFFECT = ("-", "NE")
NOTATIONS = ("steps-first", "retreat-first")
_SIDE = r"(?:(?P<{0}>{0})(?P<{0}s>[0-9]+)?(?:r(?P<{0}r>[0-9]+))?)?"
_RESULT = re.compile("^" + _SIDE.format("A") + _SIDE.format("D") + r"(?P<bt>\*)?$")
_RETREAT_FIRST = re.compile(r"^(?P<side>[ADB])(?P<retreat>[0-9]+)?(?:\((?P<steps>[0-9]+)\))?(?P<bt>\*)?$")
_ODDS = re.compile(r"^([0-9]+(?:\.[0-9]+)?):([0-9]+(?:\.[0-9]+)?)$")


@dataclass(frozen=True, slots=True)
class Result:
    """A combat result: steps lost and hexes retreated by each side, and the printed text."""

    attacker_steps: int = 0
    attacker_retreat: int = 0
    defender_steps: int = 0
    defender_retreat: int = 0
    text: str = "-"
    breakthrough: bool = False


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


def odds_ratio(text: str) -> Fraction:
    pair = parse_odds(text)
    if pair is None:
        raise ValueError(f"not an odds ratio: {text!r}")
    attack, defense = pair
    return attack / defense
