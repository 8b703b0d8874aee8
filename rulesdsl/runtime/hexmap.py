"""Hex maps as the rulebooks number them: hexes, neighbours, distances, map
edges and hexsides.  Plain immutable data, standard library only.

What the source documents say (series rules v1.8, "The Map", item A; the
project's rulebook encodes it as section `map`):

* Every hex has a number, whether or not it is printed on the map.  A number
  has two parts joined by a point.  The first part names the *hexrow*, and
  hexrows are counted across the map from left to right; the second part
  names the hex within its hexrow, counted from the bottom of the map upwards.
  This module calls the first part the `column` and the second the `row`.
* A game played on more than one map sheet puts the sheet's letter in front
  of the number: hex 10.10 of map A is written A10.10.
* Only every fifth hex of a hexrow carries its printed number (xx.05, xx.10,
  xx.15 ...), so that the printed numbers form gridlines; hex 29.17 is found
  by following the xx.15 gridline to hexrow 29 and counting on two hexes.
* The numbers in the worked examples write the hex part with two digits and
  the hexrow part without padding: 9.05, 10.07, 24.17, 29.17.
* Item B: a part-hex at the map's border is in play when at least half of it
  is printed; rule 3.3c: the border may not be crossed (units forced over it
  are destroyed) and item C: there is no off-map movement unless a game says
  so.  A `MapSheet` therefore lists exactly the playable hexes, and nothing
  here reaches beyond them.

The French edition of the same section swaps the words (it calls the first
part a horizontal row counted bottom to top, the second a column counted left
to right, and counts "to the left" in the 29.17 example).  This module follows
the English text, as the project's rulebook note for section `map` does.  The
other series' rules only say that the map is a hex grid whose size depends on
the game (their rule 2.1), and the variant notes say nothing of the map; neither
gives a numbering.

Choices, where the sources are silent:

* Shape.  A hexrow is a straight line of hexes running up the map, so the
  hexes have flat tops and bottoms and neighbouring hexrows are offset by half
  a hex.  Which hexrows sit lower is not stated; the Movement Example of the
  v1.8 rules settles it: unit 6 steps from 24.17 straight into 25.18, and from
  25.18 it could go on to 26.17 or 26.18.  So hex 25.18 (odd hexrow) touches
  hexes 17 and 18 of both neighbouring even hexrows: odd hexrows sit half a
  hex lower than even ones.  That is the default (`lower_columns="odd"`); a
  game whose map is printed the other way sets `lower_columns="even"`.  The
  Overrun Example agrees with either (see tests/test_hexmap.py).
* Notation.  A map letter is one capital letter; a game on a single sheet
  writes none.  The hexrow part has no leading zeros, the hex part has two
  digits (more only when the number needs them), so every hex has exactly one
  spelling and `Hex.parse` and `str` are inverse.
* First numbers.  `HexMap.rectangle` counts from 1.01 unless told otherwise.
* Joining sheets.  The sources only say that sheets are lettered, not how
  they lie against one another.  A `MapSheet` may be given an `offset`: the
  amount added to its column and row numbers to place it on a grid shared
  with the other offset sheets.  Sheets with an offset are joined: hexes that
  touch across the seam are neighbours and distances are counted across it.
  A sheet without one stands alone, and distances from it to another sheet
  are undefined (ValueError).  Joined sheets may not overlap, and a column
  offset must be even so that every sheet keeps the same lower hexrows.
* Distance is the number of hexes between two hexes on the grid (the count
  of a "within N hexes" rule, as in 5.0c), not the length of a path that
  movement or supply may use; those belong to the engine that knows terrain
  and units.  On one rectangular sheet the two agree.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Literal

__all__ = ["Direction", "Edge", "Hex", "HexMap", "Hexside", "MapSheet"]

# one capital map letter or none; the hexrow without leading zeros; the hex in it with two digits or more
# (a leading zero only to make up the two)
_HEX_NUMBER = re.compile(r"(?P<map>[A-Z]?)(?P<column>0|[1-9][0-9]*)\.(?P<row>[0-9]{2}|[1-9][0-9]{2,})")
_NOTATION = "an optional capital map letter, the hexrow, a point and the hex as two digits or more, as in A10.10 or 29.17"


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """One hex by its number ("The Map", item A): `map` is the sheet's letter ("" on a single-sheet game),
    `column` the hexrow (the part before the point, counted left to right), `row` the hex within it (the
    part after the point, counted bottom to top).  Hexes order by map, column, row."""

    map: str
    column: int
    row: int
    _hash: int = field(init=False, repr=False, compare=False)   # worked out once: searches hash hexes a lot

    def __post_init__(self) -> None:
        if not (self.map == "" or (len(self.map) == 1 and "A" <= self.map <= "Z")):
            raise ValueError(f"map letter {self.map!r} is not one capital letter (or none)")
        for name, value in (("column", self.column), ("row", self.row)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"hex {name} {value!r} is not a whole number of zero or more")
        object.__setattr__(self, "_hash", hash((self.map, self.column, self.row)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Hex], tuple[str, int, int]]:
        # rebuilt from its number, so that another process works out its own hash
        return Hex, (self.map, self.column, self.row)

    @classmethod
    def parse(cls, text: str) -> Hex:
        """The hex a hex number names ("The Map", item A): `Hex.parse("A23.12")`, `Hex.parse("9.05")`."""
        match = _HEX_NUMBER.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ValueError(f"malformed hex number {text!r}: expected {_NOTATION}")
        return cls(match["map"], int(match["column"]), int(match["row"]))

    def __str__(self) -> str:
        return f"{self.map}{self.column}.{self.row:02d}"


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The side two adjacent hexes share, the same value whichever hex it is seen from: `low` is always the
    smaller hex in `Hex` order.  Build it with `Hexside.between(a, b)`, or with `HexMap.hexside(a, b)`, which
    also checks that the hexes touch.  Printed as the two hex numbers joined by a slash: "24.17/25.18"."""

    low: Hex
    high: Hex

    def __post_init__(self) -> None:
        if not self.low < self.high:
            raise ValueError(f"a hexside is written smaller hex first, between two different hexes: got "
                             f"{self.low} and {self.high}; use Hexside.between")

    @classmethod
    def between(cls, a: Hex, b: Hex) -> Hexside:
        """The hexside of hexes `a` and `b`, in either order (not checked to touch: see `HexMap.hexside`)."""
        if a == b:
            raise ValueError(f"a hexside lies between two different hexes, not {a} and itself")
        return cls(min(a, b), max(a, b))

    @classmethod
    def parse(cls, text: str) -> Hexside:
        """The hexside named by two hex numbers joined by a slash, in either order: "25.18/24.17"."""
        parts = text.split("/") if isinstance(text, str) else []
        if len(parts) != 2:
            raise ValueError(f"malformed hexside {text!r}: expected two hex numbers joined by '/', as in 24.17/25.18")
        return cls.between(Hex.parse(parts[0]), Hex.parse(parts[1]))

    def __str__(self) -> str:
        return f"{self.low}/{self.high}"

    def __iter__(self) -> Iterator[Hex]:
        yield self.low
        yield self.high


class Direction(Enum):
    """The six directions out of a hex.  N is up the map, towards higher hex numbers in a hexrow (item A counts
    them bottom to top); the others go clockwise.  The value is the step in (column, half-hex height)."""

    N = (0, 2)
    NE = (1, 1)
    SE = (1, -1)
    S = (0, -2)
    SW = (-1, -1)
    NW = (-1, 1)

    @property
    def opposite(self) -> Direction:
        return _OPPOSITE[self]


_OPPOSITE = {Direction.N: Direction.S, Direction.NE: Direction.SW, Direction.SE: Direction.NW,
             Direction.S: Direction.N, Direction.SW: Direction.NE, Direction.NW: Direction.SE}


class Edge(Enum):
    """The four borders of the map: hexrows are counted from the LEFT edge, hexes up from the BOTTOM one."""

    LEFT = "left"
    RIGHT = "right"
    BOTTOM = "bottom"
    TOP = "top"


@dataclass(frozen=True, slots=True)
class MapSheet:
    """One map sheet: its letter ("" for a game's only sheet) and its playable hexes, hexrows `first_column` to
    `last_column` by hexes `first_row` to `last_row`, both inclusive (item B: half-hexes at the border count
    when at least half shows; list them here or not).  `offset`, if given, places the sheet on the grid it
    shares with the other offset sheets (see the module's notes); None leaves it standing alone."""

    letter: str
    first_column: int
    last_column: int
    first_row: int
    last_row: int
    offset: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        Hex(self.letter, self.first_column, self.first_row)     # the letter and the first numbers are valid
        Hex(self.letter, self.last_column, self.last_row)
        name = f"map {self.letter}" if self.letter else "the map"
        if self.first_column > self.last_column or self.first_row > self.last_row:
            raise ValueError(f"{name} has no hexes: hexrows {self.first_column}-{self.last_column}, "
                             f"hexes {self.first_row}-{self.last_row}")
        if self.offset is not None:
            if (len(self.offset) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in self.offset)):
                raise ValueError(f"the offset of {name} must be two whole numbers (columns, rows), not {self.offset!r}")
            if self.offset[0] % 2:
                raise ValueError(f"the column offset of {name} is {self.offset[0]}: it must be even so that the "
                                 "sheet's lower hexrows stay lower on the joined grid")

    def holds(self, column: int, row: int) -> bool:
        """Whether the sheet's own numbers `column`.`row` name one of its playable hexes."""
        return self.first_column <= column <= self.last_column and self.first_row <= row <= self.last_row

    def __str__(self) -> str:
        name = f"map {self.letter}" if self.letter else "the map"
        return (f"{name} ({self.letter}{self.first_column}.{self.first_row:02d} to "
                f"{self.letter}{self.last_column}.{self.last_row:02d})")


# Where a hex lies: the grid it is on (None for the joined grid, else its standalone sheet's letter), its
# column there and its height in half hexes (doubled coordinates: a step N is +2, a step NE or NW +1).
_Place = tuple[str | None, int, int]


@dataclass(frozen=True)
class HexMap:
    """A game's map: its sheets, and which hexrows sit half a hex lower than their neighbours ("odd" by
    default, from the Movement Example; see the module's notes).  Every question about a hex requires it to be
    on the map (ValueError naming it otherwise), except `on_map` itself."""

    sheets: tuple[MapSheet, ...]
    lower_columns: Literal["odd", "even"] = "odd"

    def __post_init__(self) -> None:
        if not isinstance(self.sheets, tuple) or not self.sheets:
            raise ValueError("a map needs at least one sheet, given as a tuple")
        if self.lower_columns not in ("odd", "even"):
            raise ValueError(f"lower_columns is 'odd' or 'even', not {self.lower_columns!r}")
        letters = [sheet.letter for sheet in self.sheets]
        if len(self.sheets) > 1 and "" in letters:
            raise ValueError("a map of several sheets letters every sheet (item A)")
        if len(set(letters)) != len(letters):
            raise ValueError(f"two sheets have the same letter: {sorted(letters)}")
        joined = [sheet for sheet in self.sheets if sheet.offset is not None]
        for i, a in enumerate(joined):
            for b in joined[i + 1:]:
                if _overlap(a, b):
                    raise ValueError(f"{a} and {b} overlap on the joined grid")

    @classmethod
    def rectangle(cls, last_column: int, last_row: int, *, letter: str = "", first_column: int = 1,
                  first_row: int = 1, lower_columns: Literal["odd", "even"] = "odd") -> HexMap:
        """A map of one sheet: hexrows `first_column` to `last_column`, hexes `first_row` to `last_row`."""
        return cls((MapSheet(letter, first_column, last_column, first_row, last_row),), lower_columns)

    # ---- which hexes are on it -------------------------------------------------------------------------
    def sheet(self, letter: str) -> MapSheet:
        """The sheet lettered `letter` (item A)."""
        sheet = self._by_letter.get(letter)
        if sheet is None:
            raise ValueError(f"there is no map {letter!r}: the sheets are {self._sheet_names()}")
        return sheet

    def on_map(self, hex: Hex) -> bool:
        """Whether `hex` is one of the map's playable hexes (item B; rule 3.3c makes the rest out of play)."""
        sheet = self._by_letter.get(hex.map)
        return sheet is not None and sheet.holds(hex.column, hex.row)

    def __contains__(self, hex: object) -> bool:
        return isinstance(hex, Hex) and self.on_map(hex)

    def hexes(self) -> tuple[Hex, ...]:
        """Every playable hex, in `Hex` order."""
        return self._hexes

    # ---- neighbours and distance -----------------------------------------------------------------------
    def neighbour(self, hex: Hex, direction: Direction) -> Hex | None:
        """The hex next to `hex` in `direction`, across a seam between joined sheets too; None where that
        would be off the map (rule 3.3c and item C: nothing lies beyond the border)."""
        grid, column, height = self._place(hex)
        step_column, step_height = direction.value
        return self._at(grid, column + step_column, height + step_height)

    def neighbours(self, hex: Hex) -> tuple[Hex, ...]:
        """The hexes on the map that touch `hex`, clockwise from N (at most six; fewer at the edge)."""
        known = self._neighbours.get(hex)
        if known is None:
            found = (self.neighbour(hex, direction) for direction in Direction)
            same = self._canonical       # the map's own Hex objects: a search's lookups then match by identity
            known = self._neighbours[hex] = tuple(same.get(n, n) for n in found if n is not None)
        return known

    def adjacent(self, a: Hex, b: Hex) -> bool:
        """Whether `a` and `b` are different hexes of the map that share a hexside."""
        self._place(b)
        return b in self.neighbours(a)

    def beyond_edge(self, here: Hex, target: Hex) -> bool:
        """Whether `target`, off the map, lies across the map's edge from `here`, a hex of the map."""
        if here not in self or target in self or here.map != target.map:
            return False
        big = HexMap.rectangle(max(here.column, target.column) + 1, max(here.row, target.row) + 1, letter=here.map,
                               first_column=0, first_row=0, lower_columns=self.lower_columns)
        return big.adjacent(here, target)

    def distance(self, a: Hex, b: Hex) -> int:
        """How many hexes from `a` to `b` (0 for the same hex, 1 for neighbours), counted on the grid as the
        set-up and reinforcement rules count "within N hexes" (5.0c).  Defined across joined sheets; a
        ValueError between a standalone sheet and another, since the sources do not say how they lie."""
        grid_a, column_a, height_a = self._place(a)
        grid_b, column_b, height_b = self._place(b)
        if grid_a != grid_b:
            raise ValueError(f"no distance between {a} and {b}: their sheets are not joined "
                             "(give both sheets an offset to join them)")
        return _grid_distance(column_a, height_a, column_b, height_b)

    def leads_away(self, origin: Hex, hex: Hex, direction: Direction) -> bool:
        """Whether a step from `hex` in `direction`, onto the map or off its edge, ends farther from `origin`
        on the grid than `hex` is (a retreat the map's edge stops is one that goes away from its combat)."""
        grid_o, column_o, height_o = self._place(origin)
        grid, column, height = self._place(hex)
        if grid_o != grid:
            raise ValueError(f"no distance between {origin} and {hex}: their sheets are not joined")
        step_column, step_height = direction.value
        return _grid_distance(column_o, height_o, column + step_column, height + step_height) > \
            _grid_distance(column_o, height_o, column, height)

    def within(self, centre: Hex, hexes: int) -> tuple[Hex, ...]:
        """The hexes of the map at most `hexes` hexes from `centre`, itself included ("at or within",
        5.0c), in `Hex` order."""
        grid, column, height = self._place(centre)
        if hexes < 0:
            return ()
        if (2 * hexes + 1) * (2 * hexes + 1) >= len(self._hexes):     # most of the map: look at every hex
            return tuple(hex for hex in self.hexes()
                         if self._place(hex)[0] == grid and self.distance(centre, hex) <= hexes)
        # the grid places within `hexes` of the centre: hexrows at most that far to each side, and heights (in
        # half hexes) at most twice that far, keeping each hexrow's parity; those on the map, in `Hex` order
        same = self._canonical
        found = []
        for c in range(column - hexes, column + hexes + 1):
            for h in range(height - 2 * hexes, height + 2 * hexes + 1):
                if (h + self._lower(c)) % 2 == 0 and _grid_distance(column, height, c, h) <= hexes:
                    hex = self._at(grid, c, h)
                    if hex is not None:
                        found.append(same.get(hex, hex))
        return tuple(sorted(found))

    # ---- the map's edge -------------------------------------------------------------------------------
    def edge(self, hex: Hex) -> frozenset[Edge]:
        """Which borders of the map `hex` lies on: those across which it has no neighbour (rule 3.3c's hard
        boundary).  Empty for an inner hex, two for a corner hex.  A missing neighbour straight up or down
        is the TOP or BOTTOM edge; a missing one to the side is LEFT or RIGHT when its hexrow is beyond the
        sheet's, else TOP or BOTTOM (the zigzag of hexes along the top and bottom)."""
        sheet = self.sheet(hex.map)
        edges: set[Edge] = set()
        for direction in Direction:
            if self.neighbour(hex, direction) is not None:
                continue
            step_column, step_height = direction.value
            if step_column and not sheet.first_column <= hex.column + step_column <= sheet.last_column:
                edges.add(Edge.RIGHT if step_column > 0 else Edge.LEFT)
            else:
                edges.add(Edge.TOP if step_height > 0 else Edge.BOTTOM)
        return frozenset(edges)

    def edge_hexes(self, edge: Edge | None = None) -> tuple[Hex, ...]:
        """The hexes on `edge` of the map, or on any edge when `edge` is None, in `Hex` order (the map-edge
        hexes of 5.0c, where blocked reinforcements may enter)."""
        return tuple(hex for hex in self.hexes() if (edge in self.edge(hex) if edge is not None else self.edge(hex)))

    # ---- hexsides -------------------------------------------------------------------------------------
    def hexside(self, a: Hex, b: Hex) -> Hexside:
        """The hexside `a` and `b` share, the same value whichever is given first (where the Terrain Effects
        Chart's hexside features lie, 3.2c); ValueError if they do not touch."""
        if not self.adjacent(a, b):
            raise ValueError(f"hexes {a} and {b} do not share a hexside")
        return Hexside.between(a, b)

    def hexsides(self, hex: Hex) -> tuple[Hexside, ...]:
        """The hexsides between `hex` and each of its neighbours on the map, clockwise from N."""
        return tuple(Hexside.between(hex, neighbour) for neighbour in self.neighbours(hex))

    # ---- the grid ------------------------------------------------------------------------------------
    # (computed once: the dataclass is frozen, and these only depend on its fields)
    @cached_property
    def _by_letter(self) -> Mapping[str, MapSheet]:
        return {sheet.letter: sheet for sheet in self.sheets}

    @cached_property
    def _neighbours(self) -> dict[Hex, tuple[Hex, ...]]:
        return {}       # filled as `neighbours` is asked: the engine's searches ask it again and again

    @cached_property
    def _canonical(self) -> dict[Hex, Hex]:
        return {hex: hex for hex in self._hexes}

    @cached_property
    def _hexes(self) -> tuple[Hex, ...]:
        return tuple(sorted(Hex(sheet.letter, column, row) for sheet in self.sheets
                            for column in range(sheet.first_column, sheet.last_column + 1)
                            for row in range(sheet.first_row, sheet.last_row + 1)))

    def _lower(self, column: int) -> int:
        """1 when `column` is one of the hexrows that sit half a hex lower, else 0."""
        return 1 if (column % 2 == 1) == (self.lower_columns == "odd") else 0

    def _place(self, hex: Hex) -> _Place:
        if not self.on_map(hex):
            raise ValueError(f"hex {hex} is not on the map: the sheets are {self._sheet_names()}")
        sheet = self.sheet(hex.map)
        if sheet.offset is None:
            grid, column, row = sheet.letter, hex.column, hex.row
        else:
            grid, column, row = None, hex.column + sheet.offset[0], hex.row + sheet.offset[1]
        return grid, column, 2 * row - self._lower(column)

    def _at(self, grid: str | None, column: int, height: int) -> Hex | None:
        row, odd = divmod(height + self._lower(column), 2)
        assert odd == 0, "a step keeps the height in step with the column"
        for sheet in self.sheets:
            if grid is None and sheet.offset is not None:
                local_column, local_row = column - sheet.offset[0], row - sheet.offset[1]
            elif grid is not None and sheet.letter == grid and sheet.offset is None:
                local_column, local_row = column, row
            else:
                continue
            if sheet.holds(local_column, local_row):
                return Hex(sheet.letter, local_column, local_row)
        return None

    def _sheet_names(self) -> str:
        return ", ".join(str(sheet) for sheet in self.sheets)


def _grid_distance(column_a: int, height_a: int, column_b: int, height_b: int) -> int:
    """Hexes between two grid places (column, half-hex height), on the map or off it."""
    across = abs(column_a - column_b)
    return across + max(0, (abs(height_a - height_b) - across) // 2)


def _overlap(a: MapSheet, b: MapSheet) -> bool:
    assert a.offset is not None and b.offset is not None
    return (a.first_column + a.offset[0] <= b.last_column + b.offset[0]
            and b.first_column + b.offset[0] <= a.last_column + a.offset[0]
            and a.first_row + a.offset[1] <= b.last_row + b.offset[1]
            and b.first_row + b.offset[1] <= a.last_row + a.offset[1])
