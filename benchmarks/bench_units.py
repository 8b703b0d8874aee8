"""How the engine's work grows with the units of a situation: a ZOC query (every unit's ZOC) on a situation of
N units and of 4N, built from the situation notation as `rulesdsl explain -` reads it.

Run: python benchmarks/bench_units.py [N] [rounds]

Linear work gives a ratio near 4 (the units' ZOCs are each worked out once); the quadratic this replaced
(each unit's name compared with every other's while building the situation) gave about 16.  The two sizes
are interleaved round by round after a warm-up; the medians and their ratio are printed.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generated import scs_1_8  # noqa: E402
from rulesdsl.checks.examples import explain  # noqa: E402
from rulesdsl.language.source import Source  # noqa: E402


def situation(count: int) -> Source:
    lines = ["map 1.01 - 100.99 open"]
    lines += [f"unit u{i} {'axis' if i % 2 else 'allies'} 2-3-5 at {i % 100 + 1}.{(i // 100) % 99 + 1:02d}"
              for i in range(count)]
    return Source("<bench>", "\n".join(lines) + "\n")


def seconds(source: Source) -> float:
    started = time.perf_counter()
    explain(scs_1_8, source, "zoc axis")
    return time.perf_counter() - started


def main(count: int = 2_000, rounds: int = 3) -> None:
    small, large = situation(count), situation(4 * count)
    seconds(small), seconds(large)
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        times[0].append(seconds(small))
        times[1].append(seconds(large))
    a, b = statistics.median(times[0]), statistics.median(times[1])
    print(f"| units | median |\n| --- | --- |\n| {count:,} | {a * 1000:.0f} ms |\n| {4 * count:,} | {b * 1000:.0f} ms |")
    print(f"ratio for 4x the units: {b / a:.2f} (linear: about 4)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
