"""The runtime benchmarks of this tree against those of an earlier revision, in the same run.

Run: python benchmarks/bench_against.py [REVISION] [runs]      (default: 37b261d, the last revision before
                                                                 rules as conditions and effects, issue 43)

`bench_runtime.py` and `bench_search.py` each time the engine against a hand-written baseline in the same
process, so their ratio (engine / hand-written) does not depend on how fast or busy the machine is.  This
script extracts REVISION with `git archive` into a temporary folder (the working tree and the repository are
only read), runs both benchmarks there and here, alternately, `runs` times, and compares the median of each
ratio: how much slower (or faster) the engine of this tree is than REVISION's, measured against the same
hand-written baselines.  The issue's bound is 1.20 (no more than 20% slower).
"""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALLS = ("resolve_combat", "reachable", "supply")
BOUND = 1.20
ROW = re.compile(r"^\| `(\w+)` \|[^|]*\|[^|]*\| ([0-9.]+)x \|")


def ratios(tree: Path) -> dict[str, float]:
    """Each call's ratio of medians (engine / hand-written) in one run of the two benchmarks in `tree`."""
    found: dict[str, float] = {}
    env = {**os.environ, "PYTHONPATH": str(tree)}
    for script, rounds in (("bench_runtime.py", "9"), ("bench_search.py", "5")):
        run = subprocess.run([sys.executable, str(tree / "benchmarks" / script), rounds], cwd=tree, env=env,
                             capture_output=True, text=True, check=True)
        for line in run.stdout.splitlines():
            match = ROW.match(line)
            if match and match.group(1) in CALLS:
                found[match.group(1)] = float(match.group(2))
    return found


def extract(revision: str, into: Path) -> Path:
    """REVISION's tree, as `git archive` writes it, in `into`."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision], stdout=out, check=True)
    tree = into / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def main(revision: str, runs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="rulesdsl-bench-") as folder:
        before = extract(revision, Path(folder))
        samples: dict[str, dict[str, list[float]]] = {"before": {}, "now": {}}
        for _ in range(runs):
            for name, tree in (("before", before), ("now", ROOT)):
                for call, ratio in ratios(tree).items():
                    samples[name].setdefault(call, []).append(ratio)
    print(f"This tree against {revision}: {runs} alternate runs of bench_runtime.py and bench_search.py; each "
          "figure is the median of the engine's ratio to its hand-written baseline, measured in the same run.")
    print()
    print("| call | before (ratio to baseline) | now | now / before | bound |")
    print("| --- | --- | --- | --- | --- |")
    for call in CALLS:
        old, new = statistics.median(samples["before"][call]), statistics.median(samples["now"][call])
        verdict = "within" if new / old <= BOUND else "over"
        print(f"| `{call}` | {old:.2f}x | {new:.2f}x | {new / old:.2f} | {BOUND:.2f} ({verdict}) |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "37b261d", int(sys.argv[2]) if len(sys.argv) > 2 else 3)
