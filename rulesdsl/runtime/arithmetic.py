"""Exact arithmetic for strengths, rounding and odds.

Strengths arrive as ints, floats or Fractions; they are converted exactly
(a float by its shortest decimal text, so 0.1 is one tenth), and fractions
are kept until the final rounding, as wargame rules ask.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable

Number = int | float | Fraction


def exact(x: Number) -> Fraction:
    if isinstance(x, bool):
        raise TypeError("a strength is a number, not a bool")
    if isinstance(x, float):
        if not math.isfinite(x):
            raise ValueError(f"not a finite number: {x}")
        return Fraction(repr(x))
    return Fraction(x)


def round_from(x: Number, threshold: Fraction) -> int:
    """Round down a fraction below `threshold`, up from it: round_from(4.65, 1/2) == 5."""
    value = exact(x)
    whole = math.floor(value)
    return whole + (1 if value - whole >= threshold and value != whole else 0)


def odds_pair(attack: Number, defense: Number, rounder: Callable[[Fraction], int],
              favour_defender: bool = False) -> tuple[int, int]:
    """Divide both strengths by the smaller and round each with `rounder`; with
    `favour_defender`, the attacker's number rounds down and the defender's up
    (21 to 6 is 3:1, 6 to 21 is 1:4)."""
    a, d = exact(attack), exact(defense)
    if a < 0 or d < 0:
        raise ValueError("strengths cannot be negative")
    if d == 0:
        raise ValueError("the defense strength is zero: there are no odds to compute")
    if a == 0:
        return 0, 1
    if favour_defender:
        return (math.floor(a / d), 1) if a >= d else (1, math.ceil(d / a))
    if a >= d:
        return rounder(a / d), 1
    return 1, rounder(d / a)
