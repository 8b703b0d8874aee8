"""The rules engine's map searches against a plain search written for the same map, in the same run.

Run: python benchmarks/bench_search.py [rounds]

On a 30x30 map of Bocage terrain (seeded, so every run has the same map), with an enemy unit and its ZOC:
- `reachable` (the engine's Dijkstra over hex, ZOC and stop states, with the same step function as `move`)
  against a plain Dijkstra over the TEC's movement costs that stops on entering an enemy ZOC;
- `supply` (the engine's trace: a BFS that enemy units, prohibited terrain and EZOCs block) against a
  plain BFS with the same blocks.
Every case is first checked to give the same answer both ways; the two are interleaved round by round after
a warm-up, and the table shows medians, the ratio of medians and of minimums, and the spread.
"""
from __future__ import annotations

import heapq
import random
import statistics
import sys
from collections import deque
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_runtime import interleave  # noqa: E402
from generated import bocage  # noqa: E402
from rulesdsl.runtime.hexmap import Hex, HexMap  # noqa: E402
from rulesdsl.runtime.situation import Counter, Situation  # noqa: E402

SIZE = 30
HEX_TERRAIN = ("open", "open", "open", "woods", "bocage", "village", "marsh")
COST = {"open": 1, "woods": 2, "bocage": 3, "village": 1, "marsh": 3}
MAP = HexMap.rectangle(SIZE, SIZE)
_random = random.Random(1944)
TERRAIN = {h: (_random.choice(HEX_TERRAIN),) for h in MAP.hexes()}
MOVER = Counter("a", "allied", Hex("", 15, 15), attack=Fraction(4), defense=Fraction(4), movement=Fraction(8))
ENEMY = Counter("g", "german", Hex("", 19, 12), attack=Fraction(3), defense=Fraction(3), movement=Fraction(6))
SITUATION = Situation(MAP, default_terrain=("open",), terrain=TERRAIN, units=(MOVER, ENEMY), phasing="allied",
                      supply_sources={"allied": frozenset({Hex("", 1, 1)})})
ENGINE = bocage.RULES_ENGINE


def zoc_of(enemy: Counter) -> set[Hex]:
    return {enemy.hex, *MAP.neighbours(enemy.hex)}


def enemy_zoc(situation: Situation, side: str) -> set[Hex]:
    """Every enemy unit's ZOC (its hex and the six around it), worked out per call as the engine must."""
    zone: set[Hex] = set()
    for unit in situation.units:
        if unit.side != side:
            zone |= zoc_of(unit)
    return zone


ZOC_ENTRY = 2           # Bocage, by SCS 2.1a: entering an enemy ZOC costs 2 MPs more


def hand_reachable(start: Hex, allowance: int) -> dict[Hex, int]:
    """Least MPs to every hex within the allowance; entering an enemy ZOC costs 2 MPs more and ends the move,
    the enemy's hex is closed, and a unit may always move one hex (the minimum move)."""
    ezoc = enemy_zoc(SITUATION, MOVER.side)
    best = {start: 0}
    queue = [(0, start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > best[here] or (here in ezoc and here != start):
            continue
        for there in MAP.neighbours(here):
            if there == ENEMY.hex:
                continue
            total = spent + COST[TERRAIN[there][0]] + (ZOC_ENTRY if there in ezoc else 0)
            if total <= allowance and total < best.get(there, total + 1):
                best[there] = total
                heapq.heappush(queue, (total, there))
    for there in MAP.neighbours(start):     # the minimum move: one hex, whatever it costs
        if there != ENEMY.hex and there not in best:
            best[there] = COST[TERRAIN[there][0]] + (ZOC_ENTRY if there in ezoc else 0)
    return best


def hand_supply(start: Hex, sources: frozenset[Hex]) -> bool:
    """A chain of hexes to a source that no enemy unit or enemy ZOC blocks."""
    ezoc = enemy_zoc(SITUATION, MOVER.side)
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here in sources:
            return True
        for there in MAP.neighbours(here):
            if there not in seen and there not in ezoc:
                seen.add(there)
                queue.append(there)
    return False


def check_same_answers() -> None:
    reach = ENGINE.reachable(SITUATION, "a")
    hand = hand_reachable(MOVER.hex, int(MOVER.movement))
    assert {h: int(c) for h, c in reach.costs.items()} == hand, "reachable differs from the plain Dijkstra"
    assert ENGINE.supply(SITUATION, "a").in_supply == hand_supply(MOVER.hex, SITUATION.supply_sources["allied"])


PAIRS: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
    "reachable": (lambda: ENGINE.reachable(SITUATION, "a"), lambda: hand_reachable(MOVER.hex, int(MOVER.movement))),
    "supply": (lambda: ENGINE.supply(SITUATION, "a"),
               lambda: hand_supply(MOVER.hex, SITUATION.supply_sources["allied"])),
}
TARGETS = {"reachable": 2.0, "supply": 2.0}


def table(rounds: int = 7) -> list[str]:
    """The comparison as a Markdown table (bench_pipeline.py puts it in RESULTS.md)."""
    check_same_answers()
    loops = 5
    out = [f"Bocage rules on a {SIZE}x{SIZE} map, one enemy unit: {rounds} interleaved rounds of {loops} calls "
           "after a warm-up; the same answers both ways.", "",
           "| search | engine | plain | ratio of medians | ratio of mins | spread | target |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, (engine, hand) in PAIRS.items():
        samples_e, samples_h = interleave(engine, hand, loops, rounds)
        ratios = [e / h for e, h in zip(samples_e, samples_h)]
        out.append(f"| `{name}` | {statistics.median(samples_e) * 1e3:.2f} ms | "
                   f"{statistics.median(samples_h) * 1e3:.3f} ms | "
                   f"{statistics.median(samples_e) / statistics.median(samples_h):.1f}x | "
                   f"{min(samples_e) / min(samples_h):.1f}x | {max(ratios) / min(ratios):.2f} | "
                   f"{TARGETS[name]:.0f}x |")
    return out


if __name__ == "__main__":
    print("\n".join(table(int(sys.argv[1]) if len(sys.argv) > 1 else 7)))
