"""Combat Results Tables as generated modules use them."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Callable

from .arithmetic import Number, exact
from .notation import DECLARED, Result, odds_ratio, parse_difference, read_result

DICE_OUTCOMES: dict[str, tuple[int, ...]] = {
    "1d6": tuple(range(1, 7)),
    "2d6": tuple(range(2, 13)),
    "d66": tuple(10 * a + b for a in range(1, 7) for b in range(1, 7)),
}


OPEN = 10 ** 6   # how far an open-ended row ('2-', '13+') reaches
INDEXED_ROLLS = 10_000      # the widest span of rolls a table's rows are indexed over, roll by roll


def roll_range(label: str) -> tuple[int, int]:
    """'7' -> (7, 7); '3-4' -> (3, 4); '2-' -> 2 or less; '13+' -> 13 or more."""
    if label.endswith("+"):
        return int(label[:-1]), OPEN
    if label.endswith("-"):
        return -OPEN, int(label[:-1])
    low, _, high = label.partition("-")
    return int(low), int(high or low)


def row_for(rows: Mapping[str, tuple[str, ...]], roll: int) -> tuple[str, ...]:
    """The row covering `roll`; a modified roll beyond every row reads the nearest end row."""
    ranges = sorted((roll_range(label), cells) for label, cells in rows.items())
    for (low, high), cells in ranges:
        if low <= roll <= high:
            return cells
    return ranges[0][1] if roll < ranges[0][0][0] else ranges[-1][1]


class RowIndex:
    """A table's dice rows, indexed once: every roll the row labels name maps straight to its row, and a
    modified roll beyond every row reads the nearest end row."""

    __slots__ = ("_ranges", "_by_roll")

    def __init__(self, rows: Mapping[str, tuple[str, ...]]):
        self._ranges = sorted((roll_range(label), cells) for label, cells in rows.items())
        self._by_roll: dict[int, tuple[str, ...]] = {}
        finite = [end for (low, high), _ in self._ranges for end in (low, high) if abs(end) < OPEN]
        # every roll the labels name, and a modified roll up to 20 beyond either end; rows naming rolls far
        # beyond any dice (the compiler refuses them: MAX_DICE_ROLL) are read by their ranges, not indexed
        if finite and max(finite) - min(finite) <= INDEXED_ROLLS:
            first, last = min(finite) - 20, max(finite) + 20
            for roll in range(first, last + 1):
                self._by_roll[roll] = row_for(rows, roll)

    def row(self, roll: int) -> tuple[str, ...]:
        cells = self._by_roll.get(roll)
        if cells is not None:
            return cells
        for (low, high), cells in self._ranges:
            if low <= roll <= high:
                return cells
        return self._ranges[0][1] if roll < self._ranges[0][0][0] else self._ranges[-1][1]


ABOVE = "above"     # the column of an attack above the table, when the rulebook gives that attack a result


@dataclass(frozen=True)
class CombatResultsTable:
    """Odds columns across the top, dice rows down the side.

    `rows` maps a row label ('2', '3-4', '11') to one cell per column.
    `below` is the result of an attack below the left-most column (no roll); `above`, of one above the
    right-most (no roll), where the column for it is ABOVE.  `below_forced` is the result of a forced attack
    (one the rules require) below the left-most column, when it differs: `forced()` is the table as such an
    attack reads it.
    """

    dice: str
    columns: tuple[str, ...]
    rows: Mapping[str, tuple[str, ...]]
    below: str | None = None            # a result, 'leftmost', or None when the rulebook sets none
    below_forced: str | None = None     # a forced attack's below-table result; None: `below`, as for any attack
    above: str | None = None            # a result, 'rightmost' (or None): odds above it read the right-most column
    notation: str = "steps-first"
    lines: Mapping[str, tuple[str, ...]] | None = None  # terrain line -> its odds columns
    attacker: AttackerLosses | None = None              # the attacker side of a dual-sided table
    codes: Mapping[str, Result] | None = None           # the declared result codes and their meaning
    differential: bool = False      # columns are ranges of attack minus defense ('-6..-5', '0', '+12..')
    _ratios: tuple[Fraction, ...] = field(init=False, repr=False, compare=False)
    _ranges: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    _index: RowIndex = field(init=False, repr=False, compare=False)
    _read: dict[str, Result] = field(init=False, repr=False, compare=False)      # cell text -> its Result
    _lines: dict[str, CombatResultsTable] = field(init=False, repr=False, compare=False)
    _forced: list[CombatResultsTable] = field(init=False, repr=False, compare=False)
    _columns: dict[tuple[object, ...], str | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ratios: tuple[Fraction, ...] = () if self.differential else tuple(odds_ratio(c) for c in self.columns)
        ranges: list[tuple[int, int]] = []
        for label in self.columns if self.differential else ():
            found = parse_difference(label)
            if found is None:
                raise ValueError(f"not a difference column: {label!r}")
            ranges.append(found)
        object.__setattr__(self, "_ratios", ratios)
        kept: tuple[tuple[int, int], ...] = tuple(ranges)
        object.__setattr__(self, "_ranges", kept)
        object.__setattr__(self, "_index", RowIndex(self.rows))
        read: dict[str, Result] = {}
        lines: dict[str, CombatResultsTable] = {}
        columns: dict[tuple[object, ...], str | None] = {}
        object.__setattr__(self, "_read", read)
        object.__setattr__(self, "_lines", lines)
        forced: list[CombatResultsTable] = []
        object.__setattr__(self, "_forced", forced)
        object.__setattr__(self, "_columns", columns)

    def line(self, name: str) -> CombatResultsTable:
        """The table as read by one terrain line: its own odds over the same results."""
        if not self.lines or name not in self.lines:
            raise KeyError(f"no odds line {name!r}; the lines are {', '.join(self.lines or ())}")
        table = self._lines.get(name)
        if table is None:
            table = self._lines[name] = replace(self, columns=self.lines[name], lines=None)
        return table

    def forced(self) -> CombatResultsTable:
        """The table as a forced attack (one the rules require) reads it: below the left-most column is
        `below_forced`; itself when the rulebook gives such an attack no result of its own."""
        if self.below_forced is None or self.below_forced == self.below:
            return self
        if not self._forced:
            self._forced.append(replace(self, below=self.below_forced, below_forced=None))
        return self._forced[0]

    def column(self, odds: tuple[int, int] | None, shift: int = 0, before_limits: bool = False,
               off_left: bool | None = None) -> str | None:
        """The column for odds `a:d` after `shift` columns (+ right, - left).

        Odds above the right-most column use it, and shifts start from it;
        shifts past it stop there.  Odds below the left-most column, or
        shifted off its left side, give None: the below-table result.
        With `before_limits`, shifts move the odds themselves one whole step
        a column (8:1 shifted two left is 6:1), and only then is the result
        held to the table.  `off_left` says what a shift past the left-most
        column gives: True the below-table result (the left-most column when
        that is what below the table means), False the left-most column;
        None follows the below-table rule.
        """
        key = (odds, shift, before_limits, off_left)
        try:
            return self._columns[key]
        except KeyError:
            column = self._columns[key] = self._column(odds, shift, before_limits, off_left)
            return column

    def _column(self, odds: tuple[int, int] | None, shift: int, before_limits: bool,
                off_left: bool | None) -> str | None:
        beyond = self.above not in (None, "rightmost")     # an attack above the table has a result of its own
        if odds is None:  # defense strength zero: beyond every column
            if beyond:
                return ABOVE
            index = len(self.columns) - 1
        elif before_limits and odds[1] == 1 and self._ratios[-1] >= 1 \
                and Fraction(*odds) > self._ratios[-1] and self._ratios[-1].denominator == 1:
            index = len(self.columns) - 1 + (odds[0] - int(self._ratios[-1]))
        else:
            attack, defense = odds
            ratio = Fraction(attack, defense)
            fitting = [i for i, r in enumerate(self._ratios) if r <= ratio]
            if not fitting:
                if self.below != "leftmost":
                    return None
                fitting = [0]
            index = fitting[-1]
            if beyond and ratio > self._ratios[-1]:     # one column past the right-most, from which shifts count
                index += 1
        return self._shifted(index, shift, beyond, off_left)

    def difference_column(self, difference: int, shift: int = 0, off_left: bool | None = None) -> str | None:
        """The column of a differential table for `difference` (attack minus defense, a whole number) after
        `shift` columns: the column whose range holds it.  Above and below the table, and shifts past its edges, as
        `column` reads them."""
        key = ("difference", difference, shift, off_left)
        try:
            return self._columns[key]
        except KeyError:
            pass
        if not self.differential:
            raise ValueError("this table's columns are odds, not differences")
        beyond = self.above not in (None, "rightmost")
        fitting = [i for i, (low, _) in enumerate(self._ranges) if low <= difference]
        if not fitting:
            if self.below != "leftmost":
                self._columns[key] = None
                return None
            fitting = [0]
        index = fitting[-1]
        if beyond and difference > self._ranges[-1][1]:   # one column past the right-most, as for odds
            index += 1
        column = self._columns[key] = self._shifted(index, shift, beyond, off_left)
        return column

    def _shifted(self, index: int, shift: int, beyond: bool, off_left: bool | None) -> str | None:
        """The column `shift` columns from the one at `index`, held to the table's edges."""
        index += int(shift)
        if beyond and index > len(self.columns) - 1:
            return ABOVE
        if index < 0:
            if off_left is None:
                off_left = self.below != "leftmost"
            return None if off_left and self.below != "leftmost" else self.columns[0]
        return self.columns[min(index, len(self.columns) - 1)]

    def result(self, column: str, roll: int, modifier: int = 0) -> Result:
        """The printed result in `column` for dice `roll` (plus `modifier`, a net DRM)."""
        if column not in self.columns:
            raise KeyError(f"no odds column {column!r}; the columns are {', '.join(self.columns)}")
        check_roll(self.dice, roll)
        text = self._index.row(roll + modifier)[self.columns.index(column)]
        result = self._read.get(text)
        if result is None:
            result = self._read[text] = _result(text, self.notation, self.codes)
        return result

    def above_result(self) -> Result:
        return self._edge_result(self.above, "rightmost", "above", "combat.above_table")

    def below_result(self) -> Result:
        return self._edge_result(self.below, "leftmost", "below", "combat.below_table")

    def _edge_result(self, value: str | None, edge: str, where: str, parameter: str) -> Result:
        """The result a rulebook gives an attack off one edge of the table (no roll)."""
        if value is None or value == edge:
            raise LookupError(f"this rulebook sets no result for attacks {where} the table ({parameter})")
        # a parameter's result is a declared code, or else steps-first notation whatever the table's
        return _result(value, "steps-first" if self.notation != DECLARED else DECLARED, self.codes)


def _result(text: str, notation: str, codes: Mapping[str, Result] | None = None) -> Result:
    result = read_result(text, notation, codes)
    if result is None:
        raise ValueError(f"{text!r} is not a combat result in {notation} notation")
    return result


def check_roll(dice: str, roll: object) -> None:
    outcomes = DICE_OUTCOMES[dice]
    if isinstance(roll, bool) or roll not in outcomes:
        raise ValueError(f"{roll!r} is not a {dice} roll ({outcomes[0]}-{outcomes[-1]})")


@dataclass(frozen=True)
class AttackerLosses:
    """The attacker side of a dual-sided table: columns by the defender's total strength."""

    dice: str
    columns: tuple[str, ...]             # '1-4', '5-8', '21+'
    rows: Mapping[str, tuple[str, ...]]
    notation: str = "steps-first"
    codes: Mapping[str, Result] | None = None
    _index: RowIndex = field(init=False, repr=False, compare=False)

    def column(self, defense: Number) -> str:
        """The right-most column whose range starts at or below the strength (the first, if none)."""
        strength = exact(defense)
        fitting = [label for label in self.columns if roll_range(label)[0] <= strength]
        return fitting[-1] if fitting else self.columns[0]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", RowIndex(self.rows))

    def result(self, defense: Number, roll: int, modifier: int = 0) -> Result:
        check_roll(self.dice, roll)
        cells = self._index.row(roll + modifier)
        return _result(cells[self.columns.index(self.column(defense))], self.notation, self.codes)


def combat_column(table: CombatResultsTable | None, odds: Callable[[Number, Number], tuple[int, int]],
                  attack: Number, defense: Number, shift: int = 0) -> str | None:
    if table is None:
        raise LookupError("this rulebook has no Combat Results Table")
    if isinstance(defense, bool):
        raise TypeError("a strength is a number, not a bool")
    pair = None if defense == 0 else odds(attack, defense)
    return table.column(pair, shift)


def difference(attack: Number, defense: Number) -> int:
    """Attack minus defense as a differential table reads it: a fraction left by halved strengths is
    dropped, in the defender's favour (+2 1/2 reads +2, -1/2 reads -1)."""
    if isinstance(attack, bool) or isinstance(defense, bool):
        raise TypeError("a strength is a number, not a bool")
    return math.floor(exact(attack) - exact(defense))


def difference_column(table: CombatResultsTable | None, attack: Number, defense: Number,
                      shift: int = 0) -> str | None:
    if table is None:
        raise LookupError("this rulebook has no Combat Results Table")
    return table.difference_column(difference(attack, defense), shift)


TableCell = int | Fraction | str      # what a chart's cell holds: 2, 1/2, 'open'
TableKey = int | float | Fraction | str


@dataclass(frozen=True)
class LookupTable:
    """A chart read by one key (`columns` only) or by a row key and a column key.

    Labels are values ('1', 'open'), ranges ('2-3', or signed: '-6..-5') or open ranges ('3+', '2-',
    '+12..', '..-7'); a number finds the label whose range holds it.
    """

    name: str
    key: str
    columns: tuple[str, ...]
    rows: Mapping[str, tuple[TableCell, ...]]
    row_key: str | None = None

    def _find(self, labels: Sequence[str], key: TableKey, what: str) -> int:
        for index, label in enumerate(labels):
            if str(key) == label:
                return index
        if isinstance(key, (int, float, Fraction)) and not isinstance(key, bool):
            value = exact(key)
            for index, label in enumerate(labels):
                found = parse_difference(label) if ".." in label else None    # -6..-5, +12.., ..-7
                try:
                    low, high = found if found is not None else roll_range(label)
                except ValueError:
                    continue
                if low <= value <= high:
                    return index
        raise KeyError(f"table {self.name!r} has no {what} {key!r}; it has {', '.join(labels)}")

    def __call__(self, *keys: TableKey) -> TableCell:
        if self.row_key is None:
            if len(keys) != 1:
                raise TypeError(f"table {self.name!r} is read by one key ({self.key})")
            (values,) = self.rows.values()
            return values[self._find(self.columns, keys[0], self.key)]
        if len(keys) != 2:
            raise TypeError(f"table {self.name!r} is read by {self.row_key} and {self.key}")
        labels = tuple(self.rows)
        row = self.rows[labels[self._find(labels, keys[0], self.row_key)]]
        return row[self._find(self.columns, keys[1], self.key)]
