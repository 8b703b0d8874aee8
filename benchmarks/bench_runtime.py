"""The generated runtime against a hand-written equivalent, in the same run, with the same answers.

Run: python benchmarks/bench_runtime.py [rounds]

For Bocage (generated/bocage.py) each call is timed against a plain Python function written for the same
charts: dicts built once, floats, no derivation.  The hand-written resolve_combat takes the same Combat and
works out what Bocage's rules ask of it (each hex's multiplier from the chart, supply, the defender's terrain);
the generated one also checks every name against the rulebook and returns the odds, column, shifts and DRMs
with the result, its derivation written when first read.  The two are interleaved round by round after a warm-up;
the table shows the median per call, the ratio of medians (generated / hand-written), the ratio of the
fastest rounds (the least disturbed by a busy machine), and the spread (max/min of the per-round ratios).  Every input is first checked to give the same answer both ways.
"""
from __future__ import annotations

import math
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generated import bocage  # noqa: E402
from rulesdsl.runtime.combat import AttackingHex, Combat, Unit  # noqa: E402

# ---- the hand-written equivalent ------------------------------------------------------------------------
COLUMNS = bocage.CRT.columns
RATIOS = [int(c.split(":")[0]) / int(c.split(":")[1]) for c in COLUMNS]
ROWS: dict[int, int] = {}
for index, label in enumerate(bocage.CRT.rows):
    low, _, high = label.partition("-")
    for roll in range(int(low), int(high or low) + 1):
        ROWS[roll] = index
CELLS = [[bocage.CRT.result(column, roll) for column in COLUMNS] for roll in sorted(ROWS)]
BY_ROLL = {roll: CELLS[i] for i, roll in enumerate(sorted(ROWS))}
BELOW = bocage.CRT.below_result()
COST = {r.name: float(r.movement.amount) for r in bocage.TERRAIN.rows
        if r.kind == "hex" and r.movement.kind in ("cost", "add")}
SIDE_COST = {r.name: float(r.movement.amount) for r in bocage.TERRAIN.rows
             if r.kind == "hexside" and r.movement.kind in ("cost", "add")}
PROHIBITED = {r.name for r in bocage.TERRAIN.rows if r.movement.kind == "prohibited"}


def hand_round(x: float) -> int:
    whole = math.floor(x)
    return whole + (1 if x - whole >= 0.5 and x != whole else 0)


def hand_pair(attack: float, defense: float) -> tuple[int, int]:
    if attack == 0:
        return 0, 1
    if attack >= defense:
        return hand_round(attack / defense), 1
    return 1, hand_round(defense / attack)


def hand_odds(attack: float, defense: float) -> str:
    a, d = hand_pair(attack, defense)
    return f"{a}:{d}"


def hand_resolve(attack: float, defense: float, roll: int, shift: int = 0):  # type: ignore[no-untyped-def]
    a, d = hand_pair(attack, defense)
    ratio = a / d
    index = -1
    for i, r in enumerate(RATIOS):
        if r <= ratio:
            index = i
    if index < 0:
        return BELOW
    index += shift
    if index < 0:
        return BELOW
    return BY_ROLL[roll][min(index, len(COLUMNS) - 1)]


def hand_entry_cost(terrain: str, hexsides: tuple[str, ...] = ()) -> float | None:
    if terrain in PROHIBITED or any(h in PROHIBITED for h in hexsides):
        return None
    return COST[terrain] + sum(SIDE_COST.get(h, 0.0) for h in hexsides)


SIDE_ATTACK = {r.name: (None if r.combat.kind == "prohibited" else float(r.combat.attacker or 1))
               for r in bocage.TERRAIN.rows if r.kind == "hexside"}
HEX_ATTACK = {r.name: float(r.combat.attacker or 1) for r in bocage.TERRAIN.rows if r.kind == "hex"}
HEX_DEFENSE = {r.name: float(r.combat.defender or 1) for r in bocage.TERRAIN.rows if r.kind == "hex"}
OUT_OF_SUPPLY = float(bocage.SUPPLY_OUT_OF_SUPPLY_ATTACK_FACTOR)


def hand_resolve_combat(combat: Combat, roll: int):  # type: ignore[no-untyped-def]
    """What Bocage's rules ask of a combat, written by hand for its charts: each attacking hex's units
    (halved out of supply) times the hex's multiplier (the defender's terrain, each hexside crossed),
    against the defenders times their terrain's multiplier.  Bocage's chart has no shifts or DRMs."""
    terrain = combat.defender_terrain
    attack = 0.0
    for hex_ in combat.attacking_hexes:
        multiplier = HEX_ATTACK[terrain]
        for side in hex_.hexsides:
            factor = SIDE_ATTACK[side]
            if factor is None:
                raise ValueError(f"attacking across {side} is prohibited")
            multiplier *= factor
        strength = 0.0
        for unit in hex_.units:
            strength += unit.attack * OUT_OF_SUPPLY if "out-of-supply" in unit.states else unit.attack
        attack += strength * multiplier
    defense = sum(unit.defense for unit in combat.defenders) * HEX_DEFENSE[terrain]
    return hand_resolve(attack, defense, roll)


# ---- the cases ----------------------------------------------------------------------------------------------
ODDS_CASES = [(9.875, 2.125), (5.5, 6), (12, 4), (3, 7), (1, 1), (20, 3)]
RESOLVE_CASES = [(a, d, roll) for a, d in ODDS_CASES for roll in (2, 7, 12)]
COST_CASES = [("open", ()), ("woods", ()), ("bocage", ("stream",)), ("marsh", ()), ("village", ("hedgerow",))]
COMBATS = (
    # two hexes attack across open ground, one of them across a stream
    Combat(attacking_hexes=(AttackingHex(units=(Unit("infantry", attack=4), Unit("armor", attack=6))),
                            AttackingHex(units=(Unit("infantry", attack=4),), hexsides=("stream",))),
           defenders=(Unit("infantry", defense=4),), defender_terrain="open"),
    # into woods (defense doubled), one attacker out of supply (attack halved), one across a hedgerow
    Combat(attacking_hexes=(AttackingHex(units=(Unit("infantry", attack=5, states=("out-of-supply",)),
                                                Unit("recon", attack=2))),
                            AttackingHex(units=(Unit("armor", attack=8),), hexsides=("hedgerow",))),
           defenders=(Unit("infantry", defense=3), Unit("artillery", defense=1)), defender_terrain="woods"),
)
COMBAT_CASES = [(combat, roll) for combat in COMBATS for roll in (2, 7, 12)]


def check_same_answers() -> None:
    for a, d in ODDS_CASES:
        assert bocage.odds(a, d) == hand_odds(a, d), (a, d)
    for a, d, roll in RESOLVE_CASES:
        assert bocage.resolve(a, d, roll) == hand_resolve(a, d, roll), (a, d, roll)
    for terrain, sides in COST_CASES:
        assert bocage.entry_cost(terrain, sides) == hand_entry_cost(terrain, sides), (terrain, sides)
    for combat, roll in COMBAT_CASES:
        assert bocage.resolve_combat(combat, roll).result == hand_resolve_combat(combat, roll), (combat, roll)


PAIRS: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
    "odds": (lambda: [bocage.odds(a, d) for a, d in ODDS_CASES],
             lambda: [hand_odds(a, d) for a, d in ODDS_CASES]),
    "resolve": (lambda: [bocage.resolve(a, d, r) for a, d, r in RESOLVE_CASES],
                lambda: [hand_resolve(a, d, r) for a, d, r in RESOLVE_CASES]),
    "entry_cost": (lambda: [bocage.entry_cost(t, s) for t, s in COST_CASES],
                   lambda: [hand_entry_cost(t, s) for t, s in COST_CASES]),
    "resolve_combat": (lambda: [bocage.resolve_combat(c, r) for c, r in COMBAT_CASES],
                       lambda: [hand_resolve_combat(c, r) for c, r in COMBAT_CASES]),
}
CALLS = {"odds": len(ODDS_CASES), "resolve": len(RESOLVE_CASES), "entry_cost": len(COST_CASES),
         "resolve_combat": len(COMBAT_CASES)}
TARGETS = {"odds": 2.0, "resolve": 2.0, "entry_cost": 2.0, "resolve_combat": 3.0}


def once(function: Callable[[], object], loops: int) -> float:
    start = time.perf_counter()
    for _ in range(loops):
        function()
    return (time.perf_counter() - start) / loops


def interleave(first: Callable[[], object], second: Callable[[], object], loops: int,
               rounds: int) -> tuple[list[float], list[float]]:
    """Seconds per call of each, round by round in turn, after one warm-up round of both."""
    once(first, loops), once(second, loops)
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        samples[0].append(once(first, loops))
        samples[1].append(once(second, loops))
    return samples


def table(rounds: int = 15) -> list[str]:
    """The comparison as a Markdown table (bench_pipeline.py puts it in RESULTS.md)."""
    check_same_answers()
    loops = 200
    out = [f"generated/bocage.py against hand-written code: {rounds} interleaved rounds of {loops} loops, "
           "after a warm-up.", "",
           "| call | generated | hand-written | ratio of medians | ratio of mins | spread | target |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, (generated, hand) in PAIRS.items():
        samples_g, samples_h = interleave(generated, hand, loops, rounds)
        ratios = [g / h for g, h in zip(samples_g, samples_h)]
        per = CALLS[name]
        ratio = statistics.median(samples_g) / statistics.median(samples_h)
        out.append(f"| `{name}` | {statistics.median(samples_g) / per * 1e6:.2f} us | "
                   f"{statistics.median(samples_h) / per * 1e6:.2f} us | {ratio:.1f}x | "
                   f"{min(samples_g) / min(samples_h):.1f}x | {max(ratios) / min(ratios):.2f} | "
                   f"{TARGETS[name]:.0f}x |")
    return out


def main(rounds: int = 15) -> None:
    print("\n".join(table(rounds)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
