"""Stacking (rulesdsl.runtime.stacking): the limit in steps or units, when it is checked, markers, the top
unit, overruns, retreats and what becomes of the excess."""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from generated import bocage, corridor, new_scs, ridgeline, scs_1_8, vcs
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.model import Quantity
from rulesdsl.runtime.situation import Counter, Situation
from tests.test_engine_eligibility import SIX, engine

H = Hex.parse
SCS = engine(scs_1_8, stacking__limit=SIX)


def stack(*units: Counter, phase: str = "movement", phasing: str = "allies") -> Situation:
    return Situation(HexMap.rectangle(20, 20), default_terrain=("open",), units=units, phase=phase,
                     phasing=phasing)


def unit(name: str, steps: int = 1, *, hex: str = "10.07", attack: int = 3, **more) -> Counter:  # type: ignore[no-untyped-def]
    return Counter(name, "allies", H(hex), attack=attack, defense=3, movement=5, steps=steps, **more)


# the overrun example's hex 10.07: units 5 and 6 (3 steps each) join unit 1
OVERRUN = stack(unit("1"), unit("5", 3), unit("6", 3))


def test_seven_steps_in_10_07_break_the_example_limit_of_six_at_the_overrun():
    check = SCS.stack(OVERRUN, "10.07", moment="overrun", overrunning=["5", "6"])
    assert (check.legal, check.size, check.limit, check.unit, check.over) == (False, 7, 6, "step", 1)
    # 4.0a: an overrun that breaks the limit is taken back and the move made again; nothing is destroyed
    assert check.undone and not check.eliminated and check.excess == ()
    cited = {s.parameter: s.rule for s in check.steps if s.parameter}
    assert cited["stacking.checked_at"] == "4.0a" and cited["stacking.limit"] == "test"
    assert cited["stacking.overrun_violation_undoes_move"] == "4.0a"
    # without that rule the excess is dealt with as at the end of a phase: the owner picks who dies
    plain = engine(scs_1_8, stacking__limit=SIX, stacking__overrun_violation_undoes_move=False)
    check = plain.stack(OVERRUN, "10.07", moment="overrun", overrunning=["5", "6"])
    assert not check.undone and check.eliminated and check.owner_chooses and check.excess == ()
    # at the end of a phase the same stack is not taken back
    assert not SCS.stack(OVERRUN, "10.07", moment="phase-end").undone
    assert engine(bocage).stack(OVERRUN, "10.07", moment="overrun").limit == 6
    assert engine(corridor).stack(stack(unit("5", 3), unit("6", 3)), "10.07").size == 6


def test_a_series_without_a_limit_has_none():
    check = engine(scs_1_8).stack(OVERRUN, "10.07")
    assert check.legal and check.limit is None
    assert any("no stacking limit" in s.text for s in check.steps)


def test_an_empty_hex_and_a_stack_within_the_limit_are_legal():
    assert SCS.stack(OVERRUN, "1.01").legal
    assert SCS.stack(stack(unit("5", 3), unit("6", 3)), "10.07").legal


# ---- flips ---------------------------------------------------------------------------------------------
def test_flip_stacking_limit():
    assert engine(scs_1_8, stacking__limit=Quantity(Fraction(7), "step")).stack(OVERRUN, "10.07").legal


def test_flip_stacking_limit_units():
    three = stack(unit("a"), unit("b"), unit("c"))
    assert engine(vcs).stack(three, "10.07").legal
    check = engine(ridgeline).stack(three, "10.07")            # the game allows two units
    assert (check.legal, check.size, check.limit, check.unit) == (False, 3, 2, "unit")
    assert not engine(vcs, stacking__limit_units=Quantity(Fraction(2), "unit")).stack(three, "10.07").legal


def test_flip_stacking_markers_count():
    marked = stack(unit("5", 3), unit("6", 3, states=frozenset({"out-of-supply"})))
    assert SCS.stack(marked, "10.07").legal
    check = engine(scs_1_8, stacking__limit=SIX, stacking__markers_count=True).stack(marked, "10.07")
    assert (check.legal, check.size) == (False, 7)


def test_flip_stacking_checked_at():
    assert SCS.stack(OVERRUN, "10.07", moment="movement-end").legal        # SCS checks at phase end, not here
    assert not engine(vcs, stacking__limit=SIX).stack(OVERRUN, "10.07", moment="movement-end").legal
    always = engine(scs_1_8, stacking__limit=SIX, stacking__checked_at=("always",))
    assert not always.stack(OVERRUN, "10.07", moment="movement-end").legal


def test_flip_stacking_top_unit_with_attack_strength():
    bottom = stack(unit("hq", attack=0), unit("5", 3))
    check = SCS.stack(bottom, "10.07")
    assert not check.legal and "must be" in check.reasons[0] and check.over == 0
    assert SCS.stack(stack(unit("5", 3), unit("hq", attack=0)), "10.07").legal
    assert engine(new_scs, stacking__top_unit_with_attack_strength=False).stack(bottom, "10.07").legal


def test_flip_stacking_overrun_counts_all_units():
    only_movers = engine(scs_1_8, stacking__limit=SIX, stacking__overrun_counts_all_units=False)
    check = only_movers.stack(OVERRUN, "10.07", moment="overrun", overrunning=["5", "6"])
    assert (check.legal, check.size) == (True, 6)


def test_flip_stacking_retreat_overstack_grace():
    retreated = {"retreated": ["5", "6"]}
    # after a retreat, at the end of the owner's Combat Phase: SCS keeps the excess until his next Movement Phase
    combat = dataclasses.replace(OVERRUN, phase="combat")
    assert SCS.stack(combat, "10.07", **retreated).legal
    assert not SCS.stack(OVERRUN, "10.07", **retreated).legal             # the owner's Movement Phase ends
    enemy_movement = dataclasses.replace(OVERRUN, phasing="axis")
    assert SCS.stack(enemy_movement, "10.07", **retreated).legal
    none = engine(scs_1_8, stacking__limit=SIX, stacking__retreat_overstack_grace="none")
    assert not none.stack(combat, "10.07", **retreated).legal
    phase = engine(scs_1_8, stacking__limit=SIX, stacking__retreat_overstack_grace="phase-end")
    assert not phase.stack(combat, "10.07", **retreated).legal
    assert phase.stack(combat, "10.07", moment="advance-end", **retreated).legal
    # an excess the retreat did not cause has no grace
    crowded = dataclasses.replace(combat, units=combat.units + (unit("x"),))
    assert not SCS.stack(crowded, "10.07", retreated=["1"]).legal


def test_flip_stacking_excess_eliminated_and_owner_chooses_excess():
    assert not engine(scs_1_8, stacking__limit=SIX, stacking__excess_eliminated=False).stack(
        OVERRUN, "10.07").eliminated
    check = engine(scs_1_8, stacking__limit=SIX, stacking__owner_chooses_excess=False).stack(OVERRUN, "10.07")
    assert (check.owner_chooses, check.excess) == (False, ("6",))      # the bottom of the stack goes
    units = stack(unit("a"), unit("b"), unit("c"), unit("d"))
    assert engine(vcs, stacking__owner_chooses_excess=False).stack(units, "10.07").excess == ("d",)


def test_the_overrun_check_counts_only_the_overrunning_side():
    enemy_inside = stack(unit("5", 3), unit("6", 3), Counter("7", "axis", H("10.07"), attack=2, defense=3, steps=2))
    check = SCS.stack(enemy_inside, "10.07", moment="overrun", overrunning=["5", "6"])
    assert (check.legal, check.size) == (True, 6)


def test_an_unknown_moment_is_refused():
    import pytest
    with pytest.raises(ValueError, match="moment"):
        SCS.stack(OVERRUN, "10.07", moment="lunch")


def test_each_refusal_carries_the_rule_of_the_step_that_decides_it():
    # the wrong unit on top: the top-unit rule; over the limit: the limit broken, in steps or in units
    bottom = stack(unit("hq", attack=0), unit("5", 3), unit("6", 3), unit("7"))
    check = SCS.stack(bottom, "10.07")
    top, over = check.refusals
    cited = {s.parameter: s for s in check.steps if s.parameter}
    assert (top.parameter, top.rule) == ("stacking.top_unit_with_attack_strength",
                                         cited["stacking.top_unit_with_attack_strength"].rule)
    assert top.reason == check.reasons[0] and "must be" in top.reason
    assert (over.parameter, over.rule) == ("stacking.limit", cited["stacking.limit"].rule)
    assert over.reason == check.reasons[1] == "8 steps in 10.07 is over the limit of 6"
    # a limit in units only: the units' limit decides
    check = engine(ridgeline).stack(stack(unit("a"), unit("b"), unit("c")), "10.07")
    assert [(r.parameter, r.reason) for r in check.refusals] == [
        ("stacking.limit_units", "3 units in 10.07 is over the limit of 2")]
