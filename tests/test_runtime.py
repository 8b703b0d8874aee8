"""The mechanics generated modules rely on, tested directly."""
from fractions import Fraction

import pytest

from rulesdsl.runtime import CombatResultsTable, odds_pair, parse_odds, parse_result, round_from

HALF = Fraction(1, 2)


def standard(x):
    return round_from(x, HALF)


@pytest.mark.parametrize("x, rounded", [
    (4.49, 4), (4.5, 5), (4.65, 5), (4.01, 4), (4.99, 5), (0.5, 1), (0.49, 0), (3, 3), (Fraction(9, 2), 5),
])
def test_standard_rounding_breaks_at_one_half(x, rounded):
    assert standard(x) == rounded


def test_rounding_down_and_up_thresholds():
    assert round_from(3.99, Fraction(1)) == 3       # 'down'
    assert round_from(3.01, Fraction(0)) == 4       # 'up'
    assert round_from(3, Fraction(0)) == 3


def test_floats_are_read_as_their_decimal_text():
    # 0.1 * 45 is 4.5000000000000001 in binary; the rule reads it as 4.5
    assert standard(0.1 * 45) == 5


@pytest.mark.parametrize("attack, defense, pair", [
    (9.875, 2.125, (5, 1)), (3, 4, (1, 1)), (5, 2, (3, 1)), (9, 6, (2, 1)), (11, 8, (1, 1)),
    (14, 3, (5, 1)), (18, 4, (5, 1)), (5.5, 6, (1, 1)), (2, 5, (1, 3)), (0, 5, (0, 1)),
])
def test_odds_divide_by_the_smaller_and_round_each(attack, defense, pair):
    assert odds_pair(attack, defense, standard) == pair


def test_odds_reject_zero_defense_and_negative_strength():
    with pytest.raises(ValueError, match="zero"):
        odds_pair(3, 0, standard)
    with pytest.raises(ValueError, match="negative"):
        odds_pair(-1, 2, standard)


@pytest.mark.parametrize("text, fields", [
    ("A1", (1, 0, 0, 0)), ("D2r2", (0, 0, 2, 2)), ("A1r1", (1, 1, 0, 0)), ("A1D1", (1, 0, 1, 0)),
    ("Dr1", (0, 0, 0, 1)), ("A1r1D2r3", (1, 1, 2, 3)), ("-", (0, 0, 0, 0)), ("NE", (0, 0, 0, 0)),
])
def test_result_notation(text, fields):
    result = parse_result(text)
    assert (result.attacker_steps, result.attacker_retreat, result.defender_steps, result.defender_retreat) == fields
    assert result.text == text


@pytest.mark.parametrize("text", ["", "A", "D", "X1", "r1", "D1A1", "A1r", "a1", "D1 r1", "A-1"])
def test_invalid_result_notation(text):
    assert parse_result(text) is None


@pytest.mark.parametrize("text, valid", [("3:1", True), ("1:2", True), ("1.5:1", True), ("0:1", False), ("3", False)])
def test_odds_notation(text, valid):
    assert (parse_odds(text) is not None) == valid


TABLE = CombatResultsTable("1d6", ("1:2", "1:1", "2:1", "3:1"),
                           {"1-2": ("A1", "A1", "-", "D1"), "3-4": ("A1", "-", "D1", "D1r1"),
                            "5-6": ("-", "D1", "D1r1", "D2r2")}, below="A1")


@pytest.mark.parametrize("odds, shift, column", [
    ((1, 1), 0, "1:1"), ((3, 1), 0, "3:1"), ((9, 1), 0, "3:1"),       # beyond the right-most: use it
    ((9, 1), -1, "2:1"),                                               # shifts start from the right-most
    ((2, 1), 5, "3:1"),                                                # and stop there
    ((1, 1), -1, "1:2"), ((1, 1), -2, None),                           # shifted off the left side
    ((1, 3), 0, None), ((1, 3), 2, None),                              # below the table stays below
    (None, 0, "3:1"),                                                  # no defense strength at all
])
def test_column_clamps_and_shifts(odds, shift, column):
    assert TABLE.column(odds, shift) == column


def test_result_lookup_reads_row_ranges_and_rejects_bad_rolls():
    assert TABLE.result("2:1", 3).text == "D1"
    assert TABLE.result("3:1", 6) == parse_result("D2r2")
    with pytest.raises(ValueError, match="not a 1d6 roll"):
        TABLE.result("2:1", 7)
    with pytest.raises(KeyError, match="no odds column"):
        TABLE.result("4:1", 3)
    assert TABLE.below_result() == parse_result("A1")


def test_shifts_before_the_table_limits_move_the_odds_themselves():
    table = CombatResultsTable("1d6", ("1:1", "2:1", "3:1", "4:1"), {"1-6": ("A1", "-", "D1", "D2")})
    assert table.column((7, 1), -2) == "2:1"                        # from the right-most column
    assert table.column((7, 1), -2, before_limits=True) == "4:1"    # 7:1 two left is 5:1, held to 4:1
    assert table.column((5, 1), -2, before_limits=True) == "3:1"
    assert table.column((2, 1), -1, before_limits=True) == "1:1"    # within the table, the same


def test_a_quantity_reads_in_the_plural_beyond_one():
    from fractions import Fraction
    from rulesdsl.runtime.model import Quantity
    assert [str(Quantity(Fraction(n), unit)) for n, unit in ((3, "hex"), (1, "hex"), (6, "step"), (2, "MP"))] \
        == ["3 hexes", "1 hex", "6 steps", "2 MP"]
    assert str(Quantity(Fraction(2), "MP", signed=True)) == "+2 MP"
