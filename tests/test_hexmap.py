"""The hex map of the runtime (rulesdsl/runtime/hexmap.py): hex numbers as the series rules v1.8 write them
("The Map", item A), neighbours, distance, map edges and hexsides.

Worked examples checked by hand against the seeds' own hex numbers:
* item A's "find hex 29.17" (two hexes on from 29.15 along hexrow 29);
* the Movement Example (unit 6: 24.17 then the woods 25.18, then 26.17 or 26.18; unit 1 along the road
  26.16, 26.17, 26.18);
* the Overrun Example (unit 7 is next to 11.08, 10.07 and 9.08; unit 8 in 9.06 is next to unit 2 in 9.05).
"""
from __future__ import annotations

import math
import re
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdsl.runtime import Direction, Edge, Hex, HexMap, Hexside, MapSheet

CANONICAL = r"[A-Z]?(0|[1-9][0-9]*)\.([0-9]{2}|[1-9][0-9]{2,})"


# ---- strategies ----------------------------------------------------------------------------------------
@st.composite
def rectangles(draw: st.DrawFn) -> HexMap:
    first_column, first_row = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    return HexMap.rectangle(first_column + draw(st.integers(0, 8)), first_row + draw(st.integers(0, 8)),
                            letter=draw(st.sampled_from(["", "A", "Q"])), first_column=first_column,
                            first_row=first_row, lower_columns=draw(st.sampled_from(["odd", "even"])))


@st.composite
def joined(draw: st.DrawFn) -> HexMap:
    """Two sheets on one grid: B beside A (maybe with a gap hexrow) or above it, shifted either way."""
    columns_a, rows_a = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    columns_b, rows_b = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    if draw(st.booleans()):
        offset = (columns_a + columns_a % 2, draw(st.integers(-3, 3)))
    else:
        offset = (2 * draw(st.integers(-3, 3)), rows_a)
    return HexMap((MapSheet("A", 1, columns_a, 1, rows_a, offset=(0, 0)),
                   MapSheet("B", 1, columns_b, 1, rows_b, offset=offset)),
                  lower_columns=draw(st.sampled_from(["odd", "even"])))


any_map = st.one_of(rectangles(), joined())


@st.composite
def map_and_hexes(draw: st.DrawFn, count: int, maps: st.SearchStrategy[HexMap] = any_map) -> tuple[HexMap, ...]:
    hexmap = draw(maps)
    hexes = hexmap.hexes()
    return (hexmap, *(draw(st.sampled_from(hexes)) for _ in range(count)))


def centre(hexmap: HexMap, hex: Hex) -> tuple[float, float]:
    """An independent oracle: the centre of a flat-topped hex of side 1 drawn on paper, with the
    lower hexrows half a hex down (rows counted bottom to top, item A)."""
    offset = hexmap.sheet(hex.map).offset or (0, 0)
    column, row = hex.column + offset[0], hex.row + offset[1]
    lower = (column % 2 == 1) == (hexmap.lower_columns == "odd")
    return 1.5 * column, math.sqrt(3) * (row - (0.5 if lower else 0.0))


def path_length(hexmap: HexMap, a: Hex, b: Hex) -> int | None:
    """Steps from a to b moving only between neighbours (breadth first)."""
    seen, queue = {a: 0}, deque([a])
    while queue:
        here = queue.popleft()
        if here == b:
            return seen[here]
        for there in hexmap.neighbours(here):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return None


# ---- hex numbers ---------------------------------------------------------------------------------------
def test_hex_numbers_as_the_rules_write_them():
    assert Hex.parse("A10.10") == Hex("A", 10, 10)          # item A: the map letter comes first
    assert Hex.parse("29.17") == Hex("", 29, 17)            # hexrow 29, hex 17 of it
    assert Hex.parse("9.05") == Hex("", 9, 5)               # the Overrun Example's unit 2
    assert str(Hex("", 9, 5)) == "9.05" and str(Hex("B", 24, 117)) == "B24.117"
    assert Hex.parse("10.07") < Hex.parse("11.06") < Hex.parse("A1.01")


@pytest.mark.parametrize("text", ["", "A", "23", "23.", ".12", "23.1", "a23.12", "AB23.12", "23.12.1", " 23.12",
                                  "23.12 ", "23,12", "09.05", "-1.05", "23.012", "A-3.04", "23.1x", "２3.12"])
def test_malformed_hex_numbers_name_the_input(text):
    with pytest.raises(ValueError, match=re.escape(repr(text))):
        Hex.parse(text)


@given(st.text(max_size=12).filter(lambda text: re.fullmatch(CANONICAL, text) is None))
def test_malformed_hex_numbers_are_refused(text):
    with pytest.raises(ValueError) as error:
        Hex.parse(text)
    assert repr(text) in str(error.value)


@given(st.builds(Hex, st.sampled_from(["", "A", "B", "Z"]), st.integers(0, 10**4), st.integers(0, 10**4)))
def test_print_then_parse_is_the_same_hex(hex):
    assert Hex.parse(str(hex)) == hex


@given(st.from_regex(CANONICAL, fullmatch=True))
def test_parse_then_print_is_the_same_text(text):
    assert str(Hex.parse(text)) == text


@pytest.mark.parametrize("letter, column, row", [("a", 1, 1), ("AB", 1, 1), (" ", 1, 1), ("A", -1, 1),
                                                 ("A", 1, -2), ("A", True, 1), ("A", 1.0, 1)])
def test_invalid_hexes_are_refused(letter, column, row):
    with pytest.raises(ValueError):
        Hex(letter, column, row)


# ---- the worked examples -------------------------------------------------------------------------------
EXAMPLE_MAP = HexMap.rectangle(40, 30)


def test_finding_hex_29_17_from_the_xx_15_gridline():
    # item A: follow the xx.15 gridline to hexrow 29, then count two hexes on
    start, target = Hex.parse("29.15"), Hex.parse("29.17")
    assert EXAMPLE_MAP.distance(start, target) == 2
    assert EXAMPLE_MAP.neighbour(EXAMPLE_MAP.neighbour(start, Direction.N), Direction.N) == target


def test_movement_example_moves_are_between_neighbours():
    h = Hex.parse
    # unit 6 enters 24.17 then the woods 25.18, from where it could go on to 26.17 (or, for 2 MPs, 26.18)
    for a, b in [("24.17", "25.18"), ("25.18", "26.17"), ("25.18", "26.18"),
                 # unit 1 along the road: 26.16, 26.17, 26.18
                 ("26.16", "26.17"), ("26.17", "26.18")]:
        assert EXAMPLE_MAP.adjacent(h(a), h(b)), (a, b)
        assert EXAMPLE_MAP.distance(h(a), h(b)) == 1


def test_the_movement_example_fixes_which_hexrows_sit_lower():
    # the step 24.17 -> 25.18 is only a step if the odd hexrows sit half a hex below the even ones
    printed_the_other_way = HexMap.rectangle(40, 30, lower_columns="even")
    assert not printed_the_other_way.adjacent(Hex.parse("24.17"), Hex.parse("25.18"))
    assert printed_the_other_way.distance(Hex.parse("24.17"), Hex.parse("25.18")) == 2


@pytest.mark.parametrize("lower", ["odd", "even"])
def test_overrun_example_unit_7_hex(lower):
    # unit 7 can be overrun from 11.08, and from 10.07 and 9.08 but for stacking and the river: it must be
    # next to all three, and only 10.08 is (whichever hexrows sit lower)
    hexmap = HexMap.rectangle(40, 30, lower_columns=lower)
    around = [set(hexmap.neighbours(Hex.parse(n))) for n in ("11.08", "10.07", "9.08")]
    assert set.intersection(*around) == {Hex.parse("10.08")}
    # unit 8 in 9.06 would overrun unit 2 in 9.05
    assert hexmap.adjacent(Hex.parse("9.06"), Hex.parse("9.05"))


# ---- neighbours, distance, hexsides: properties -------------------------------------------------------
@settings(max_examples=200)
@given(map_and_hexes(3))
def test_distance_is_a_metric(case):
    hexmap, a, b, c = case
    assert hexmap.distance(a, b) == hexmap.distance(b, a)
    assert (hexmap.distance(a, b) == 0) == (a == b)
    assert hexmap.distance(a, c) <= hexmap.distance(a, b) + hexmap.distance(b, c)


@settings(max_examples=100)
@given(map_and_hexes(1))
def test_neighbours_are_exactly_the_hexes_at_distance_one(case):
    hexmap, a = case
    neighbours = hexmap.neighbours(a)
    assert len(neighbours) == len(set(neighbours)) <= 6
    assert set(neighbours) == {b for b in hexmap.hexes() if hexmap.distance(a, b) == 1}
    assert all(hexmap.on_map(b) for b in neighbours)


@settings(max_examples=100)
@given(map_and_hexes(1))
def test_neighbours_touch_on_paper(case):
    hexmap, a = case
    ax, ay = centre(hexmap, a)
    touching = {b for b in hexmap.hexes() if b != a
                and math.isclose(math.dist((ax, ay), centre(hexmap, b)), math.sqrt(3))}
    assert set(hexmap.neighbours(a)) == touching


@settings(max_examples=100)
@given(map_and_hexes(2, rectangles()))
def test_on_one_sheet_distance_is_the_shortest_walk(case):
    hexmap, a, b = case
    assert hexmap.distance(a, b) == path_length(hexmap, a, b)


@settings(max_examples=100)
@given(map_and_hexes(2, joined()))
def test_across_joined_sheets_no_walk_is_shorter_than_the_distance(case):
    hexmap, a, b = case
    walked = path_length(hexmap, a, b)
    assert walked is None or walked >= hexmap.distance(a, b)


@settings(max_examples=100)
@given(map_and_hexes(1))
def test_steps_go_back_the_way_they_came(case):
    hexmap, a = case
    for direction in Direction:
        b = hexmap.neighbour(a, direction)
        if b is not None:
            assert hexmap.neighbour(b, direction.opposite) == a


@settings(max_examples=100)
@given(map_and_hexes(1))
def test_a_hexside_is_the_same_from_both_hexes(case):
    hexmap, a = case
    for b in hexmap.neighbours(a):
        side = hexmap.hexside(a, b)
        assert side == hexmap.hexside(b, a) and hash(side) == hash(hexmap.hexside(b, a))
        assert set(side) == {a, b}
        assert side in hexmap.hexsides(a) and side in hexmap.hexsides(b)
        assert Hexside.parse(str(side)) == side == Hexside.parse(f"{b}/{a}")


@settings(max_examples=100)
@given(map_and_hexes(1))
def test_edge_hexes_are_those_short_of_neighbours(case):
    hexmap, a = case
    assert bool(hexmap.edge(a)) == (len(hexmap.neighbours(a)) < 6)
    assert (a in hexmap.edge_hexes()) == bool(hexmap.edge(a))
    for edge in hexmap.edge(a):
        assert a in hexmap.edge_hexes(edge)


@settings(max_examples=150)
@given(map_and_hexes(1), st.integers(0, 7))
def test_within_is_the_distance_ball(case, radius):
    # a small radius looks only at the grid places around the centre, a large one at the whole map: both
    # give the ball, in Hex order, as the map's own Hex objects
    hexmap, a = case
    ball = hexmap.within(a, radius)
    assert ball == tuple(sorted(b for b in hexmap.hexes() if hexmap.distance(a, b) <= radius))
    assert all(any(b is c for c in hexmap.hexes()) for b in ball)


# ---- map edges ----------------------------------------------------------------------------------------
def test_edges_of_a_rectangle():
    hexmap = HexMap.rectangle(10, 10)
    h = Hex.parse
    assert hexmap.edge(h("5.05")) == frozenset()
    assert hexmap.edge(h("1.01")) == {Edge.LEFT, Edge.BOTTOM}
    assert hexmap.edge(h("10.10")) == {Edge.RIGHT, Edge.TOP}
    assert hexmap.edge(h("1.10")) == {Edge.LEFT, Edge.TOP}
    assert hexmap.edge(h("2.10")) == {Edge.TOP}        # an upper hexrow's top hex: its NE and NW are off the map
    assert hexmap.edge(h("3.01")) == {Edge.BOTTOM}     # a lower hexrow's bottom hex: its SE and SW are off the map
    assert len(hexmap.neighbours(h("2.01"))) == 5      # an upper hexrow's bottom hex only lacks S
    assert hexmap.edge_hexes(Edge.LEFT) == tuple(Hex("", 1, row) for row in range(1, 11))
    assert len(hexmap.edge_hexes()) == 2 * 10 + 2 * 8
    assert len(hexmap.hexes()) == 100


# ---- several sheets ------------------------------------------------------------------------------------
SIDE_BY_SIDE = HexMap((MapSheet("A", 1, 10, 1, 10, offset=(0, 0)), MapSheet("B", 1, 10, 1, 10, offset=(10, 0))))


def test_joined_sheets_meet_at_the_seam():
    h = Hex.parse
    # A10 is an upper hexrow, B1 (hexrow 11 of the joined grid) a lower one
    assert set(SIDE_BY_SIDE.neighbours(h("A10.05"))) == {h("A10.04"), h("A10.06"), h("A9.05"), h("A9.06"),
                                                          h("B1.05"), h("B1.06")}
    assert SIDE_BY_SIDE.hexside(h("B1.05"), h("A10.05")) == Hexside(h("A10.05"), h("B1.05"))
    assert SIDE_BY_SIDE.distance(h("A1.01"), h("B10.01")) == 19
    assert Edge.RIGHT not in SIDE_BY_SIDE.edge(h("A10.05"))
    assert SIDE_BY_SIDE.edge(h("B10.05")) == {Edge.RIGHT}
    assert not SIDE_BY_SIDE.on_map(h("10.05")) and not SIDE_BY_SIDE.on_map(h("C1.01"))


def test_unjoined_sheets_have_no_distance_between_them():
    hexmap = HexMap((MapSheet("A", 1, 10, 1, 10), MapSheet("B", 1, 10, 1, 10)))
    assert Hex.parse("B1.05") not in hexmap.neighbours(Hex.parse("A10.05"))
    assert hexmap.distance(Hex.parse("B1.01"), Hex.parse("B3.01")) == 2
    with pytest.raises(ValueError, match="A10.05 and B1.05.*not joined"):
        hexmap.distance(Hex.parse("A10.05"), Hex.parse("B1.05"))


@pytest.mark.parametrize("sheets, message", [
    ((), "at least one sheet"),
    ((MapSheet("A", 1, 5, 1, 5), MapSheet("", 1, 5, 1, 5)), "letters every sheet"),
    ((MapSheet("A", 1, 5, 1, 5), MapSheet("A", 1, 5, 1, 5)), "same letter"),
    ((MapSheet("A", 1, 5, 1, 5, offset=(0, 0)), MapSheet("B", 1, 5, 1, 5, offset=(4, 2))), "overlap"),
])
def test_invalid_maps_are_refused(sheets, message):
    with pytest.raises(ValueError, match=message):
        HexMap(sheets)


@pytest.mark.parametrize("arguments, message", [
    (("A", 5, 1, 1, 5), "no hexes"),
    (("A", 1, 5, 1, 5, (3, 0)), "must be even"),
    (("a", 1, 5, 1, 5), "one capital letter"),
    (("A", -1, 5, 1, 5), "zero or more"),
])
def test_invalid_sheets_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        MapSheet(*arguments)


def test_questions_about_hexes_off_the_map_name_the_hex():
    with pytest.raises(ValueError, match=r"hex 11\.01 is not on the map"):
        HexMap.rectangle(10, 10).neighbours(Hex.parse("11.01"))
    with pytest.raises(ValueError, match=r"hex 1\.11 is not on the map"):
        HexMap.rectangle(10, 10).distance(Hex.parse("1.01"), Hex.parse("1.11"))
    with pytest.raises(ValueError, match="do not share a hexside"):
        EXAMPLE_MAP.hexside(Hex.parse("24.17"), Hex.parse("24.19"))
    with pytest.raises(ValueError, match="itself"):
        Hexside.between(Hex.parse("24.17"), Hex.parse("24.17"))
    with pytest.raises(ValueError, match="smaller hex first"):
        Hexside(Hex.parse("25.18"), Hex.parse("24.17"))
    with pytest.raises(ValueError, match="malformed hexside '24.17'"):
        Hexside.parse("24.17")


def test_a_step_off_the_edge_leads_away_from_a_hex_inside_or_not():
    """`leads_away` measures a step on the grid even where it leaves the map (a retreat the edge stops)."""
    board = HexMap.rectangle(5, 5)
    edge, inside = Hex.parse("1.03"), Hex.parse("2.03")
    off = [d for d in Direction if board.neighbour(edge, d) is None]
    assert off and all(board.leads_away(inside, edge, d) for d in off if d.value[0] < 0)
    assert not board.leads_away(edge, inside, Direction.NW if board.neighbour(inside, Direction.NW) == edge
                                else Direction.SW)
