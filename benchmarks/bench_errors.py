"""Is the error path linear?  A rulebook full of errors against a clean one of the same size.

Run: python benchmarks/bench_errors.py [--lines N] [--errors N] [--repeats N] [--kinds a,b,...]
     python benchmarks/bench_errors.py --profile   (cProfile of one run on the error-heavy file)

It writes two throw-away projects, each with one series of about --lines lines:
a clean one, and one where --errors rules carry one error each, spread over
several kinds (bad references, unknown parameters, over-long summaries, wrong
units, missing summaries, unknown activities, bad CRT cells).  Both are checked
with `compile_project` (what `rulesdsl check` runs) in the same process: one
warm-up, then --repeats timed runs each.  The figure that matters is the ratio
error/clean of the medians; the machine may be busy, the ratio holds.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesdsl.model.catalogue import ACTIVITIES, CORE  # noqa: E402
from rulesdsl.project.build import library_parameters  # noqa: E402

# the big series declares the parameters of the shipped VCS series (a misspelling is made of one of them)
PARAMETERS = library_parameters()["vcs"]
DECLARATIONS = ["parameters {", *(f'  {d.name}  {d.type.declared()}  "{d.meaning}"' for d in PARAMETERS.values()
                                  if d.origin != CORE), "}", ""]
from rulesdsl.errors import render_all  # noqa: E402
from rulesdsl.project.build import compile_project  # noqa: E402

# in an order where two kinds that break the same line of a rule are never neighbours
KINDS = ("summary", "unit", "parameter", "reference", "missing-summary", "wrong-type", "activity")
_LINE = {"summary": 0, "missing-summary": 0, "unit": 1, "wrong-type": 1, "parameter": 2, "reference": 3,
         "syntax": 2}
# a kind of its own (--kinds syntax): the parser recovers past each syntax error in one pass and the checks
# run on what parsed, but a 21st syntax error (MAX_SYNTAX_ERRORS) stops the file there
OTHER_KINDS = ("syntax",)
LINES_PER_RULE = 7
PHASE_EVERY = 4  # a phase of the sequence of play cites every fourth rule


def _rule_id(i: int) -> str:
    return f"{i // 100 + 1}.{i % 100 + 1}"


def _misspelt(names: list[str], i: int) -> str:
    """The i-th of many different misspellings: a name of the pool with one letter left out."""
    name = names[i % len(names)]
    cut = 1 + (i // len(names)) % (len(name) - 1)
    return name[:cut] + name[cut + 1:]


def rulebook(lines: int, errors: int, kinds: tuple[str, ...] = KINDS) -> str:
    """A series of about `lines` lines; with `errors`, as many errors spread evenly over it, in turn
    of each kind.  The clean and the broken rulebook have the same lines, but for the broken ones."""
    count = max(1, (lines - 20) // LINES_PER_RULE)
    broken: dict[int, dict[int | str, str]] = {}
    for k in range(errors):
        kind = kinds[k % len(kinds)]
        at = k * count // errors
        slot = broken.setdefault(at - at % PHASE_EVERY if kind == "activity" else at, {})
        slot[_LINE.get(kind, kind)] = kind
    parameters, activities = sorted(PARAMETERS), sorted(ACTIVITIES)
    out = ['series big "A big series" version "1.0"', "",
           "rounding standard: .50 up, keep fractions", "", *DECLARATIONS]
    phases = []
    for i in range(count):
        rid = _rule_id(i)
        body = [f'  summary "Rule number {i} says what it says, in a sentence of ordinary length."',
                f'  note "A note on rule {rid}."', '  note "Another note."',
                f"  see {_rule_id(i - 1) if i else _rule_id(1)}"]
        for line, kind in broken.get(i, {}).items():
            if kind == "reference":
                body[3] = f"  see {rid}x"  # near an existing id, never one
            elif kind == "parameter":
                body[2] = f"  {_misspelt(parameters, i)} = 1 hex"
            elif kind == "summary":
                body[0] = '  summary "' + "too long " * 30 + '"'
            elif kind == "missing-summary":
                body[0] = '  note "no summary here"'
            elif kind == "unit":
                body[1] = "  zoc.entry_cost = +2 hexes"
            elif kind == "wrong-type":
                body[1] = "  movement.minimum_move = yes"
            elif kind == "syntax":
                body[2] = "  movement.minimum_move 1 hex"
        out += [f'rule {rid} "Rule {i}" {{', *body, "}", ""]
        if i % PHASE_EVERY == 0:  # in both rulebooks
            activity = _misspelt(activities, i) if "activity" in broken.get(i, {}) else "movement"
            phases.append(f"    phase-{i} [{rid}] {activity}")
    out += ["sequence of play {", "  player turn {", *phases, "  }", "}", ""]
    return "\n".join(out)


def project(folder: Path, text: str) -> Path:
    (folder / "rulebooks").mkdir(parents=True)
    (folder / "rulebooks" / "big.rules").write_text(text, encoding="utf-8")
    return folder


def check(root: Path) -> tuple[int, str]:
    result = compile_project(root)
    return len(result.diagnostics), render_all(result.diagnostics, result.sources)


def timed(root: Path, repeats: int) -> tuple[list[float], int]:
    check(root)  # warm-up
    samples, count = [], 0
    for _ in range(repeats):
        start = time.perf_counter()
        count, _ = check(root)
        samples.append(time.perf_counter() - start)
    return samples, count


def _summary(samples: list[float]) -> str:
    med = statistics.median(samples)
    return f"median {med:7.2f} s  (min {min(samples):.2f}, max {max(samples):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--errors", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--kinds", default=",".join(KINDS), help="error kinds, from: " + ", ".join(KINDS + OTHER_KINDS))
    parser.add_argument("--profile", action="store_true", help="profile one check of the error-heavy file")
    args = parser.parse_args()
    kinds = tuple(args.kinds.split(","))
    with tempfile.TemporaryDirectory() as temp:
        clean = project(Path(temp) / "clean", rulebook(args.lines, 0))
        broken = project(Path(temp) / "broken", rulebook(args.lines, args.errors, kinds))
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            count, _ = check(broken)
            profiler.disable()
            print(f"{count} diagnostics")
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
            return
        lines = len((clean / "rulebooks" / "big.rules").read_text().splitlines())
        clean_samples, clean_count = timed(clean, args.repeats)
        broken_samples, broken_count = timed(broken, args.repeats)
        assert clean_count == 0, f"the clean rulebook has {clean_count} diagnostics"
        if broken_count < args.errors:
            print(f"(of {args.errors} errors, {broken_count} are reported: the parser stops past 20, "
                  "errors that share a line are one, and a rule with a syntax error reports nothing else)")
        print(f"{lines} lines, {args.repeats} runs after a warm-up, kinds: {', '.join(kinds)}")
        print(f"  clean                  {_summary(clean_samples)}")
        print(f"  {broken_count:6} diagnostics     {_summary(broken_samples)}")
        ratio = statistics.median(broken_samples) / statistics.median(clean_samples)
        print(f"  ratio error/clean      x{ratio:.2f}")


if __name__ == "__main__":
    main()
