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
_SIDE = r"(?:(?P<{0}>{0})(?P<{0}s>[0-9]+)?(?:r(?P<{0}r>[0-9]+))?)?"
_RESULT = re.compile("^" + _SIDE.format("A") + _SIDE.format("D") + "$")
_ODDS = re.compile(r"^([0-9]+(?:\.[0-9]+)?):([0-9]+(?:\.[0-9]+)?)$")


@dataclass(frozen=True, slots=True)
class Result:
    """A combat result: steps lost and hexes retreated by each side, and the printed text."""

    attacker_steps: int = 0
    attacker_retreat: int = 0
    defender_steps: int = 0
    defender_retreat: int = 0
    text: str = "-"


def parse_result(text: str) -> Result | None:
    """The Result a CRT cell prints, or None when it is not valid notation.

    A#: attacker loses # steps; D#: defender loses # steps; r# after a side:
    that side retreats # hexes (A1r1, D2r2, Dr1, A1D1); '-' or 'NE': no effect.
    """
    if text in NO_EFFECT:
        return Result(text=text)
    match = _RESULT.match(text)
    if not match or not text:
        return None
    groups = match.groupdict()
    for side in "AD":
        if groups[side] and groups[side + "s"] is None and groups[side + "r"] is None:
            return None  # a bare 'A' or 'D' says nothing
    return Result(int(groups["As"] or 0), int(groups["Ar"] or 0),
                  int(groups["Ds"] or 0), int(groups["Dr"] or 0), text)


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
    attack, defense = parse_odds(text)
    return attack / defense
