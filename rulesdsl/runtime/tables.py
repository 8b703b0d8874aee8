"""Combat Results Tables as generated modules use them."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from .arithmetic import Number, exact
from .notation import Result, odds_ratio, parse_result

DICE_OUTCOMES: dict[str, tuple[int, ...]] = {
    "1d6": tuple(range(1, 7)),
    "2d6": tuple(range(2, 13)),
    "d66": tuple(10 * a + b for a in range(1, 7) for b in range(1, 7)),
}


def roll_range(label: str) -> tuple[int, int]:
    """'7' -> (7, 7); '3-4' -> (3, 4)."""
    low, _, high = label.partition("-")
    return int(low), int(high or low)


@dataclass(frozen=True)
class CombatResultsTable:
    """Odds columns across the top, dice rows down the side.

    `rows` maps a row label ('2', '3-4', '11') to one cell per column.
    `below` is the result of an attack below the left-most column (no roll).
    """

    dice: str
    columns: tuple[str, ...]
    rows: dict[str, tuple[str, ...]]
    below: str | None = None

    def __post_init__(self):
        ratios = [odds_ratio(c) for c in self.columns]
        object.__setattr__(self, "_ratios", ratios)
        by_roll = {}
        for label, cells in self.rows.items():
            low, high = roll_range(label)
            for roll in DICE_OUTCOMES[self.dice]:
                if low <= roll <= high:
                    by_roll[roll] = cells
        object.__setattr__(self, "_by_roll", by_roll)

    def column(self, odds: tuple[int, int] | None, shift: int = 0) -> str | None:
        """The column for odds `a:d` after `shift` columns (+ right, - left).

        Odds above the right-most column use it, and shifts start from it;
        shifts past it stop there.  Odds below the left-most column, or
        shifted off its left side, give None: the below-table result.
        """
        if odds is None:  # defense strength zero: beyond every column
            index = len(self.columns) - 1
        else:
            attack, defense = odds
            ratio = Fraction(attack, defense)
            fitting = [i for i, r in enumerate(self._ratios) if r <= ratio]
            if not fitting:
                return None
            index = fitting[-1]
        index += int(shift)
        if index < 0:
            return None
        return self.columns[min(index, len(self.columns) - 1)]

    def result(self, column: str, roll: int) -> Result:
        """The printed result in `column` for dice `roll`."""
        if column not in self.columns:
            raise KeyError(f"no odds column {column!r}; the columns are {', '.join(self.columns)}")
        if roll not in self._by_roll:
            outcomes = DICE_OUTCOMES[self.dice]
            raise ValueError(f"{roll!r} is not a {self.dice} roll ({outcomes[0]}-{outcomes[-1]})")
        return parse_result(self._by_roll[roll][self.columns.index(column)])

    def below_result(self) -> Result:
        if self.below is None:
            raise LookupError("this rulebook sets no result for attacks below the table (combat.below_table)")
        return parse_result(self.below)


def combat_column(table: CombatResultsTable | None, odds: Callable[[Number, Number], tuple[int, int]],
                  attack: Number, defense: Number, shift: int = 0) -> str | None:
    if table is None:
        raise LookupError("this rulebook has no Combat Results Table")
    pair = None if exact(defense) == 0 else odds(attack, defense)
    return table.column(pair, shift)
