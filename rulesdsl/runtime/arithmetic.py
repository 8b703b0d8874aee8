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
# An exact number as the runtime keeps it: a whole number as an int (cheap, and exact beside Fractions:
# 3 * Fraction(1, 2) is Fraction(3, 2)), anything else as a Fraction.
Exact = int | Fraction


# floats already read as exact decimals (a float's shortest decimal text is parsed once, not per call)
_DECIMALS: dict[float, Fraction] = {}


# the whole numbers strengths, steps and factors are made of, as Fractions made once (a Fraction never
# changes, so one object serves every caller)
_WHOLE: dict[int, Fraction] = {n: Fraction(n) for n in range(-64, 257)}


def exact(x: Number) -> Fraction:
    if type(x) is int:
        whole = _WHOLE.get(x)
        return whole if whole is not None else Fraction(x)
    if isinstance(x, bool):
        raise TypeError("a strength is a number, not a bool")
    if isinstance(x, float):
        known = _DECIMALS.get(x)
        if known is not None:
            return known
        if not math.isfinite(x):
            raise ValueError(f"not a finite number: {x}")
        value = Fraction(repr(x))
        if len(_DECIMALS) < 4096:
            _DECIMALS[x] = value
        return value
    return Fraction(x)


def exact_value(x: Number) -> Exact:
    """`x` exactly, an int left as it is: see `Exact`."""
    return x if type(x) is int else exact(x)


def simplest(x: Exact) -> Exact:
    """A Fraction that is a whole number as that int; anything else as it is."""
    return x if type(x) is int or x.denominator != 1 else x.numerator


_PARTS: dict[float, tuple[int, int]] = {}


def _parts(x: Number) -> tuple[int, int]:
    """`x` as an exact numerator and denominator, without building a Fraction for an int."""
    if type(x) is int:
        return x, 1
    if type(x) is Fraction:     # already exact, and in lowest terms
        return x.numerator, x.denominator
    if type(x) is float:
        known = _PARTS.get(x)
        if known is not None:
            return known
    value = exact(x)
    parts = value.numerator, value.denominator
    if type(x) is float and len(_PARTS) < 4096:
        _PARTS[x] = parts
    return parts


def round_from(x: Number, threshold: Fraction) -> int:
    """Round down a fraction below `threshold`, up from it: round_from(4.65, 1/2) == 5."""
    numerator, denominator = _parts(x)
    whole, rest = divmod(numerator, denominator)
    return whole + (1 if rest and rest * threshold.denominator >= threshold.numerator * denominator else 0)


def odds_pair(attack: Number, defense: Number, rounder: Callable[[Fraction], int],
              favour_defender: bool = False, *, threshold: Fraction | None = None) -> tuple[int, int]:
    """Divide both strengths by the smaller and round each with `rounder`; with
    `favour_defender`, the attacker's number rounds down and the defender's up
    (21 to 6 is 3:1, 6 to 21 is 1:4).  `threshold`: the rounder rounds up from it
    (round_from), so the ratio is rounded in whole numbers, with no Fraction built."""
    an, ad = _parts(attack)
    dn, dd = _parts(defense)
    if an < 0 or dn < 0:
        raise ValueError("strengths cannot be negative")
    if dn == 0:
        raise ValueError("the defense strength is zero: there are no odds to compute")
    if an == 0:
        return 0, 1
    a, d = an * dd, dn * ad          # attack : defense over one denominator
    if favour_defender:
        return (a // d, 1) if a >= d else (1, -(-d // a))
    high, low = (a, d) if a >= d else (d, a)
    if threshold is None:
        rounded = rounder(Fraction(high, low))
    else:
        whole, rest = divmod(high, low)
        rounded = whole + (1 if rest and rest * threshold.denominator >= threshold.numerator * low else 0)
    return (rounded, 1) if a >= d else (1, rounded)
