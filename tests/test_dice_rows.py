"""A table whose dice rows name rolls far beyond any dice is refused by the compiler (MAX_DICE_ROLL, a
positioned error: tests/errors/crt-roll-too-large) and still answers at once when built by hand: its rows are
not indexed roll by roll over a span of millions."""
from __future__ import annotations

import time

from rulesdsl.language.limits import MAX_DICE_ROLL
from rulesdsl.runtime.tables import INDEXED_ROLLS, AttackerLosses, CombatResultsTable


def test_rows_naming_huge_rolls_are_read_by_their_ranges():
    started = time.perf_counter()
    table = CombatResultsTable(dice="1d6", columns=("1:1", "2:1"),
                               rows={"1-3": ("A1", "D1"), "4-999990": ("D1", "D2"), "999991-999999": ("D2", "D2")})
    losses = AttackerLosses(dice="1d6", columns=("1-4",), rows={"1-999998": ("A1",), "999999+": ("-",)})
    assert time.perf_counter() - started < 0.5
    assert table.result("1:1", 2).text == "A1" and table.result("2:1", 5).text == "D2"
    assert table.result("1:1", 6, modifier=999_988).text == "D2"       # a modified roll reads its range
    assert losses.result(3, 1).text == "A1"


def test_the_compilers_bound_keeps_a_table_indexed():
    assert 2 * MAX_DICE_ROLL <= INDEXED_ROLLS
