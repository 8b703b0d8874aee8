"""Each refusal records its rule where the engine makes it (issue 42): a move's, an overrun's over the
stacking limit, and a fact of the situation, which cites none.  Mutation reads the deciders off them."""
from __future__ import annotations

from generated import corridor, scs_1_8
from rulesdsl.runtime.hexmap import Hex, HexMap
from rulesdsl.runtime.situation import Counter, Situation
from tests.test_engine_eligibility import engine

H = Hex.parse


def board(*units: Counter, phase: str = "movement") -> Situation:
    return Situation(HexMap.rectangle(20, 20), default_terrain=("open",), units=units, phase=phase,
                     phasing="allies")


def unit(name: str, hex: str, side: str = "allies", steps: int = 1, movement: int = 2) -> Counter:
    return Counter(name, side, H(hex), attack=3, defense=3, movement=movement, steps=steps,
                   capabilities=frozenset({"exploit"}))


def test_a_move_over_its_allowance_is_refused_by_the_rule_it_breaks():
    rules = engine(scs_1_8)
    move = rules.move(board(unit("a", "5.05")), "a", [H("5.06"), H("5.07"), H("5.08")])
    assert not move.legal and len(move.refusals) == 1
    refusal = move.refusals[0]
    step = next(s for s in move.steps if s.parameter == "movement.must_afford_entry")
    assert (refusal.rule, refusal.parameter) == (step.rule, "movement.must_afford_entry") and refusal.rule
    assert move.reason == refusal.reason


def test_a_hex_not_next_to_the_last_is_a_fact_and_cites_no_rule():
    move = engine(scs_1_8).move(board(unit("a", "5.05")), "a", [H("5.06"), H("5.09")])
    assert not move.legal and move.refusals[0].rule is None and move.refusals[0].parameter is None
    assert "is not next to" in move.refusals[0].reason


def test_entering_an_enemy_hex_cites_the_parameter_that_forbids_it():
    move = engine(scs_1_8).move(board(unit("a", "5.05"), unit("e", "5.06", "axis")), "a", [H("5.06")])
    assert move.refusals[0].parameter == "movement.enter_enemy_hex" and move.refusals[0].rule is not None


def test_an_overrun_over_the_stacking_limit_cites_the_limits_rule():
    """Corridor's G1.0 sets a limit of 4 steps: 5 and 6 (3 steps each) overrunning together break it."""
    units = (Counter("5", "allies", H("11.08"), attack=7, defense=8, movement=9, steps=3,
                     capabilities=frozenset({"exploit"})),
             Counter("6", "allies", H("11.06"), attack=7, defense=8, movement=9, steps=3,
                     capabilities=frozenset({"exploit"})),
             Counter("7", "axis", H("11.05"), attack=2, defense=3, movement=5, steps=2))
    situation = Situation(HexMap.rectangle(20, 20), default_terrain=("open",), units=units, phase="movement",
                          phasing="allies", started_in={"5": H("11.06")})
    verdict = engine(corridor).may_overrun(situation, ["5", "6"], H("11.06"), H("11.05"))
    over = [r for r in verdict.refusals if "over the limit" in r.reason]
    assert over and over[0].rule == "G1.0" and over[0].parameter is not None
    assert not verdict.allowed and "G1.0" in verdict.refused_by
