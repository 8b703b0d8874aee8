"""The generated runtime works each answer out once (tables indexed, results read, terrain answers kept):
the answers are the same as worked out afresh, whatever the spelling or the order of the questions."""
from __future__ import annotations

from fractions import Fraction

from hypothesis import given, strategies as st

from generated import bocage, new_scs, ridgeline
from rulesdsl.runtime.arithmetic import exact, odds_pair, round_from
from rulesdsl.runtime.notation import read_result
from rulesdsl.runtime.tables import DICE_OUTCOMES, row_for
from rulesdsl.runtime.terrain import TerrainEffectsChart


@given(st.sampled_from([bocage, new_scs, ridgeline]), st.integers(-15, 25), st.integers(-6, 6))
def test_a_cell_read_through_the_index_is_the_cell_read_afresh(module, roll, modifier):  # type: ignore[no-untyped-def]
    table = module.CRT
    outcomes = DICE_OUTCOMES[table.dice]
    roll = outcomes[roll % len(outcomes)]
    for column in table.columns:
        fresh = read_result(row_for(table.rows, roll + modifier)[table.columns.index(column)], table.notation,
                            table.codes)
        assert table.result(column, roll, modifier) == fresh
        assert table.result(column, roll, modifier) == fresh          # the second time from the cache


@given(st.fractions(min_value=0, max_value=60, max_denominator=16),
       st.fractions(min_value=Fraction(1, 16), max_value=60, max_denominator=16), st.booleans())
def test_odds_in_whole_numbers_match_the_fraction_rounding(attack, defense, favour):  # type: ignore[no-untyped-def]
    half = Fraction(1, 2)
    fast = odds_pair(attack, defense, lambda x: round_from(x, half), favour, threshold=half)
    slow = odds_pair(attack, defense, lambda x: round_from(x, half), favour)
    assert fast == slow
    # the reference: both divided by the smaller, each rounded
    if not favour and attack:
        ratio = attack / defense if attack >= defense else defense / attack
        whole = ratio.numerator // ratio.denominator
        up = whole + (1 if ratio - whole >= half and ratio != whole else 0)
        assert fast == ((up, 1) if attack >= defense else (1, up))


def test_floats_are_read_as_their_decimals_every_time():
    assert exact(0.1) == Fraction(1, 10) and exact(0.1) == Fraction(1, 10)
    assert round_from(4.65, Fraction(1, 2)) == 5 and round_from(4.45, Fraction(1, 2)) == 4
    assert round_from(-0.5, Fraction(1, 2)) == 0


def test_terrain_answers_do_not_depend_on_spelling_or_order():
    chart: TerrainEffectsChart = bocage.TERRAIN
    first = chart.entry_cost("Bocage", ["Stream"])
    assert chart.entry_cost("bocage", ("stream",)) == first == bocage.TERRAIN.entry_cost("BOCAGE", "stream")
    assert chart.entry_cost("open", (), True) != chart.entry_cost("open")           # a road is another question
    fresh = TerrainEffectsChart(chart.rows)
    for terrain in ("open", "woods", "marsh", "village"):
        for sides in ((), ("stream",), ("river",), ("river", "bridge")):
            assert chart.entry_cost(terrain, sides) == fresh.entry_cost(terrain, sides)
            assert chart.attack_multiplier(terrain, sides) == fresh.attack_multiplier(terrain, sides)
    # a wrong name is still an error each time it is asked, not a cached answer
    for _ in range(2):
        try:
            chart.entry_cost("swamp")
        except KeyError as exc:
            assert "did you mean" in str(exc) or "no terrain" in str(exc)
        else:
            raise AssertionError("an unknown terrain must be refused")


def test_an_entry_cost_kept_as_asked_is_the_one_worked_out_from_the_names():
    """entry_cost keeps each answer by the question as asked (spelling kept) in front of the answers by
    name: every spelling, list or tuple, road and EZOC gives what a fresh chart works out, each time."""
    chart = TerrainEffectsChart(bocage.TERRAIN.rows)
    questions = [(t, s, r, z) for t in ("open", "Woods", "BOCAGE", "village", "marsh")
                 for s in ((), ("stream",), ["Stream"], "hedgerow", ("river",), ("river", "bridge"), ["river", "Bridge"])
                 for r in (False, True, "trail") for z in (0, Fraction(2))]
    for _ in range(2):      # the second time from the kept answers
        for terrain, sides, road, ezoc in questions:
            fresh = TerrainEffectsChart(chart.rows)
            assert chart.entry_cost(terrain, sides, road, ezoc) == fresh.entry_cost(terrain, sides, road, ezoc), \
                (terrain, sides, road, ezoc)
    assert all(isinstance(key[1], (str, tuple)) for key in chart._asked)      # a list is no key: not kept
    for _ in range(2):      # an unknown hexside is refused each time, not kept
        try:
            chart.entry_cost("open", ("stram",))
        except KeyError as exc:
            assert "stream" in str(exc)
        else:
            raise AssertionError("an unknown hexside must be refused")
