"""Exact outcome odds of a Combat Results Table, from the dice distribution.

For each column: the chance the defender loses at least one step, the
chance it retreats, and the expected steps lost by each side, as exact
Fractions (no simulation), for any net DRM.
"""
from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rulesdsl.runtime.notation import Result, read_result
from rulesdsl.runtime.tables import DICE_OUTCOMES, row_for


def distribution(dice: str) -> dict[int, Fraction]:
    """Each reading of the dice and its exact chance: 2d6 sums, 1d6 faces, d66 tens and units."""
    if dice == "2d6":
        counts = Counter(a + b for a in range(1, 7) for b in range(1, 7))
    else:
        counts = Counter(DICE_OUTCOMES[dice])
    total = sum(counts.values())
    return {roll: Fraction(n, total) for roll, n in sorted(counts.items())}


@dataclass(frozen=True)
class Odds:
    """A column's odds, from the declared meaning of its results: an elimination is an elimination (not
    some number of steps), so the expected steps count only the steps a result names."""

    defender_loses_step: Fraction   # the defender loses anything: steps, units, all, or in an exchange
    defender_retreats: Fraction
    defender_steps: Fraction      # expected
    attacker_steps: Fraction      # expected
    attacker_loses_step: Fraction
    defender_eliminated: Fraction = Fraction(0)
    attacker_eliminated: Fraction = Fraction(0)
    exchange: Fraction = Fraction(0)
    not_allowed: Fraction = Fraction(0)
    attacker_retreats: Fraction = Fraction(0)
    defender_advances: Fraction = Fraction(0)
    attacker_advances: Fraction = Fraction(0)
    breakthrough: Fraction = Fraction(0)
    no_effect: Fraction = Fraction(0)
    states: tuple[tuple[str, str, Fraction], ...] = ()   # (side, state, chance): a side takes a state


def column_odds(dice: str, rows: dict[str, tuple[str, ...]], index: int, notation: str = "steps-first",
                drm: int = 0, codes: Mapping[str, Result] | None = None) -> Odds:
    """The outcome odds of column `index` of a table whose rows are `rows`, with a net `drm`; cells read as
    `codes` declares them, else in `notation`.  Remembered: a card in each language, and a game that keeps
    its series' table, ask for the same odds."""
    return _column_odds(dice, tuple(rows.items()), index, notation, drm,
                        None if codes is None else tuple(sorted(codes.items())))


@functools.lru_cache(maxsize=4096)
def _column_odds(dice: str, table: tuple[tuple[str, tuple[str, ...]], ...], index: int, notation: str, drm: int,
                 declared: tuple[tuple[str, Result], ...] | None) -> Odds:
    rows = dict(table)
    codes = None if declared is None else dict(declared)
    d_step = d_retreat = d_steps = a_steps = a_step = Fraction(0)
    d_all = a_all = exchange = not_allowed = Fraction(0)
    a_retreat = d_advance = a_advance = breakthrough = no_effect = Fraction(0)
    states: dict[tuple[str, str], Fraction] = {}
    for roll, chance in distribution(dice).items():
        result = read_result(row_for(rows, roll + drm)[index], notation, codes)
        assert result is not None, "the table's cells are checked before its odds are computed"
        d_step += chance * result.defender_loses
        d_retreat += chance * (result.defender_retreat > 0)
        d_steps += chance * result.defender_steps
        a_steps += chance * result.attacker_steps
        a_step += chance * result.attacker_loses
        d_all += chance * result.defender_eliminated
        a_all += chance * result.attacker_eliminated
        exchange += chance * result.exchange
        not_allowed += chance * result.not_allowed
        a_retreat += chance * (result.attacker_retreat > 0)
        d_advance += chance * (result.defender_advance > 0)
        a_advance += chance * (result.attacker_advance > 0)
        breakthrough += chance * result.breakthrough
        no_effect += chance * result.no_effect
        for side, taken in (("attacker", result.attacker_states), ("defender", result.defender_states)):
            for state in taken:
                states[side, state] = states.get((side, state), Fraction(0)) + chance
    return Odds(d_step, d_retreat, d_steps, a_steps, a_step, d_all, a_all, exchange, not_allowed,
                a_retreat, d_advance, a_advance, breakthrough, no_effect,
                tuple((side, state, chance) for (side, state), chance in states.items()))
