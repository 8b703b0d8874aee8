"""What users wait for, as ratios to floors measured in the same run.

Run: python benchmarks/bench_pipeline.py [--rounds N] [--quick] [--write]

1. Stages on the shipped rulebooks, against the Lark floor: a bare `Lark(grammar, parser="lalr").parse`
   of the same text.  The stages are interleaved round by round (one warm-up round first), so a busy
   machine slows all of them alike; each row shows the min and the median per round, the spread
   (max/min) and the ratio of medians to the floor.
2. Whole commands in a fresh process, against `python -c pass` and `python -c "import lark"`.
3. Builds: `rulesdsl build` with nothing changed (every card from the cache) and with no cache (every card
   laid out), against `rulesdsl check`, in a copy of the project.
4. Scaling: parse-to-IR and the full check of generated series of 1k, 10k and 100k lines, clean and with
   one error every 10 rules, as cost per line relative to 1k lines (1.0 is linear).
5. The generated runtime against hand-written code (bench_runtime.py), and the engine's movement and supply
   searches against a plain Dijkstra and BFS on the same map (bench_search.py).

--write puts the tables in benchmarks/RESULTS.md (the README quotes it).
"""
from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lark import Lark  # noqa: E402

import bench_runtime  # noqa: E402
import bench_search  # noqa: E402
from bench_errors import rulebook as generated_series  # noqa: E402
from rulesdsl.cards.charts import card, render_html  # noqa: E402
from rulesdsl.modules.codegen import generate  # noqa: E402
from rulesdsl.errata.diff import compare, snapshot  # noqa: E402
from rulesdsl.language.fmt import format_text  # noqa: E402
from rulesdsl.cards.pdf import render_pdf  # noqa: E402
from rulesdsl.project.build import compile_project, rulebook_files  # noqa: E402
from rulesdsl.checks.resolve import resolve  # noqa: E402
from rulesdsl.language.source import Source, read_source  # noqa: E402
from rulesdsl.language.transform import parse  # noqa: E402
from rulesdsl.checks.validate import check  # noqa: E402

GRAMMAR = (ROOT / "rulesdsl" / "language" / "grammar.lark").read_text(encoding="utf-8")


def bare_lark() -> Lark:
    """The floor: Lark's LALR parser for the same grammar, with no options of the project's."""
    return Lark(GRAMMAR, parser="lalr", start=["start", "situation"])


def _time(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def interleaved(stages: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    for function in stages.values():      # warm-up
        function()
    samples: dict[str, list[float]] = {name: [] for name in stages}
    for _ in range(rounds):
        for name, function in stages.items():
            samples[name].append(_time(function))
    return samples


def _row(name: str, values: list[float], floor: list[float], unit: float = 1000, suffix: str = "ms") -> str:
    """A stage's row: its ratio to the floor is the median of the rounds' ratios, each round's stage against
    the floor timed in that round, so that a slow spell of the machine slows both sides of a ratio."""
    median = statistics.median(values)
    ratio = statistics.median(v / f for v, f in zip(values, floor))
    return (f"| {name} | {min(values) * unit:.1f} {suffix} | {median * unit:.1f} {suffix} | "
            f"{max(values) / min(values):.2f} | {ratio:.2f} |")


def bare_parse(lark: Lark, texts: list[str]) -> object:
    """The floor's parse, with the garbage collector paused as rulesdsl's parser pauses it: otherwise the
    floor pays for collecting what the stages timed before it left on the heap, and every ratio looks better
    than it is."""
    gc.disable()
    try:
        return [lark.parse(text, start="start") for text in texts]
    finally:
        gc.enable()


def stage_table(rounds: int) -> list[str]:
    sources = [read_source(f, f.relative_to(ROOT).as_posix()) for f in rulebook_files(ROOT)]
    lark = bare_lark()
    rulebooks = [parse(s) for s in sources]
    index = {r.id.value: r for r in rulebooks}
    project = compile_project(ROOT)
    resolved = list(project.resolved.values())
    bocage = project.resolved["bocage"]
    data, _ = card(bocage, "en", project.labels)
    html = render_html(data)
    stages: dict[str, Callable[[], object]] = {
        "floor: bare Lark parse": lambda: bare_parse(lark, [s.text for s in sources]),
        "parse (rulesdsl's Lark tree)": lambda: [parse(s) for s in sources],
        "check (validate)": lambda: [check(r) for r in rulebooks],
        "resolve": lambda: [resolve(r, index) for r in rulebooks if r.kind.value != "labels"],
        "whole check, examples' cache warm (compile_project: what `rulesdsl check` runs)": lambda: _checked(),
        "whole check, no cache (every worked example run)": lambda: _checked(cache=False),
        "generate modules": lambda: [generate(r) for r in resolved],
        "format": lambda: [format_text(s.text) for s in sources],
        "diff (snapshot both sides)": lambda: [compare(snapshot(r), snapshot(r)) for r in rulebooks],
        "card HTML (Bocage)": lambda: render_html(card(bocage, "en", project.labels)[0]),
        "card PDF (Bocage)": lambda: render_pdf(html, data, bocage.rulebook.span),
    }
    samples = interleaved(stages, rounds)
    floor = samples["floor: bare Lark parse"]
    lines = sum(len(s.text.splitlines()) for s in sources)
    out = [f"{len(sources)} rulebooks, {lines} lines; {rounds} interleaved rounds after a warm-up; x floor is "
           "the median of the rounds' ratios (the floor parses with the garbage collector paused, as rulesdsl "
           "does).", "",
           "| stage | min | median | spread (max/min) | x floor |", "| --- | --- | --- | --- | --- |"]
    out += [_row(name, values, floor) for name, values in samples.items()]
    return out


def _checked(root: Path = ROOT, cache: bool = True) -> object:
    """compile_project as a fresh `rulesdsl check` runs it: nothing kept in memory by an earlier compilation
    of the process; with the cache, each rulebook's IR, its problems and its worked examples' outcomes read
    back from it, and without it every rulebook parsed and checked and every example run."""
    from rulesdsl.project import passes
    passes._parse.cache_clear()
    passes._CHECKED.clear()
    if cache:
        return compile_project(root)
    os.environ["RULESDSL_NO_CACHE"] = "1"
    try:
        return compile_project(root)
    finally:
        del os.environ["RULESDSL_NO_CACHE"]


def _command(args: list[str], cwd: Path, **env_vars: str) -> Callable[[], object]:
    env = {**os.environ, "CI": "true", **env_vars}
    return lambda: subprocess.run(args, cwd=cwd, env=env, capture_output=True, check=False, timeout=600)


def command_table(rounds: int) -> list[str]:
    python = sys.executable
    rulesdsl = [python, "-m", "rulesdsl"]
    commands: dict[str, Callable[[], object]] = {
        "python -c pass": _command([python, "-c", "pass"], ROOT),
        "python -c 'import lark'": _command([python, "-c", "import lark"], ROOT),
        "rulesdsl --version": _command([*rulesdsl, "--version"], ROOT),
        "rulesdsl check (every shipped rulebook)": _command([*rulesdsl, "check"], ROOT),
        "rulesdsl check, no cache": _command([*rulesdsl, "check"], ROOT, RULESDSL_NO_CACHE="1"),
        "rulesdsl chart bocage (HTML)": _command([*rulesdsl, "chart", "bocage", "--out", os.devnull], ROOT),
        "rulesdsl coverage scs-1.8": _command([*rulesdsl, "coverage", "scs-1.8"], ROOT),
    }
    samples = interleaved(commands, rounds)
    python_floor = statistics.median(samples["python -c pass"])
    lark_floor = statistics.median(samples["python -c 'import lark'"])
    out = [f"{rounds} interleaved rounds after a warm-up; each command in a fresh process.", "",
           "| command | min | median | spread | x `python -c pass` | x `import lark` |",
           "| --- | --- | --- | --- | --- | --- |"]
    for name, values in samples.items():
        median = statistics.median(values)
        out.append(f"| {name} | {min(values) * 1000:.0f} ms | {median * 1000:.0f} ms | "
                   f"{max(values) / min(values):.2f} | {median / python_floor:.1f} | {median / lark_floor:.1f} |")
    return out


def build_table(rounds: int) -> list[str]:
    """`rulesdsl build` in a copy of the project: with no cache (every card laid out, in parallel), and again
    with nothing changed (every card from the cache), against `rulesdsl check` of the same rulebooks."""
    import shutil
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        shutil.copytree(ROOT / "rulebooks", project / "rulebooks")
        warm, cold = Path(tmp) / "warm-cache", Path(tmp) / "cold-cache"

        def run(args: list[str], cache: Path, fresh: bool = False) -> Callable[[], object]:
            def command() -> object:
                if fresh:
                    shutil.rmtree(cache, ignore_errors=True)
                env = {**os.environ, "CI": "true", "RULESDSL_CACHE_DIR": str(cache)}
                return subprocess.run([python, "-m", "rulesdsl", *args], cwd=project, env=env,
                                      capture_output=True, check=False, timeout=1200)
            return command
        commands = {"rulesdsl check": run(["check"], warm),
                    "rulesdsl check, no cache (nothing kept from an earlier run)":
                        run(["check"], Path(tmp) / "check-cache", fresh=True),
                    "rulesdsl build, nothing changed (cards from the cache)": run(["build"], warm)}
        samples = interleaved(commands, rounds)
        samples["rulesdsl build, no cache (every card laid out)"] = [
            _time(run(["build"], cold, fresh=True)) for _ in range(max(1, rounds // 3))]
    check = statistics.median(samples["rulesdsl check"])
    cold_check = statistics.median(samples["rulesdsl check, no cache (nothing kept from an earlier run)"])
    out = [f"In a copy of the project, on {os.cpu_count()} cores (cards are laid out one process per core); "
           "the cold build is run fewer times.  A check with no cache parses, validates and runs every worked "
           "example, as the cold build does; with the cache it reads them back.", "",
           "| command | min | median | spread | x `rulesdsl check` | x `rulesdsl check`, no cache |",
           "| --- | --- | --- | --- | --- | --- |"]
    for name, values in samples.items():
        median = statistics.median(values)
        out.append(f"| {name} | {min(values):.2f} s | {median:.2f} s | {max(values) / min(values):.2f} | "
                   f"{median / check:.2f} | {median / cold_check:.2f} |")
    return out


def scaling_table(sizes: tuple[int, ...], rounds: int) -> list[str]:
    out = ["Cost per line relative to the 1k-line file (1.00 is linear); errors: one every 10 rules; the "
           "checks with no cache (every line parsed and validated, not read back).", "",
           "| lines | parse to IR, per line | ratio | whole check, per line | ratio | "
           "check with errors, per line | ratio |", "| --- | --- | --- | --- | --- | --- | --- |"]
    base: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lines in sizes:
            clean = generated_series(lines, 0)
            broken = generated_series(lines, max(1, lines // 70))
            folders = {}
            for name, text in (("clean", clean), ("broken", broken)):
                folder = Path(tmp) / f"{name}-{lines}"
                (folder / "rulebooks").mkdir(parents=True)
                (folder / "rulebooks" / "big.rules").write_text(text, encoding="utf-8")
                folders[name] = folder
            source = Source("big.rules", clean)
            repeat = max(1, rounds if lines <= 10_000 else 1)
            samples = interleaved({
                "parse": lambda: parse(source),
                "check": lambda: _checked(folders["clean"], cache=False),
                "errors": lambda: _checked(folders["broken"], cache=False),
            }, repeat)
            real = len(clean.splitlines())
            per = {k: statistics.median(v) / real for k, v in samples.items()}
            base = base or per
            out.append(f"| {real} | {per['parse'] * 1e6:.1f} us | {per['parse'] / base['parse']:.2f} | "
                       f"{per['check'] * 1e6:.1f} us | {per['check'] / base['check']:.2f} | "
                       f"{per['errors'] * 1e6:.1f} us | {per['errors'] / base['errors']:.2f} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="1k and 10k lines only, 3 rounds")
    parser.add_argument("--write", action="store_true", help="write benchmarks/RESULTS.md")
    args = parser.parse_args()
    rounds = 3 if args.quick else args.rounds
    sizes = (1_000, 10_000) if args.quick else (1_000, 10_000, 100_000)
    sections = [("Stages, against the Lark floor", stage_table(rounds)),
                ("Whole commands", command_table(rounds)),
                ("Builds, with and without the card cache", build_table(rounds)),
                ("The generated runtime against hand-written code", bench_runtime.table(max(rounds, 7))),
                ("The engine's map searches against a plain search", bench_search.table(max(rounds, 5))),
                ("Scaling", scaling_table(sizes, rounds))]
    text = ["# Benchmark results", "",
            f"Written by `python benchmarks/bench_pipeline.py --write` on {os.cpu_count()} cores, Python "
            f"{sys.version.split()[0]}. Ratios are taken within one run; absolute times depend on the machine.",
            ""]
    for title, lines in sections:
        text += [f"## {title}", "", *lines, ""]
    print("\n".join(text))
    if args.write:
        (ROOT / "benchmarks" / "RESULTS.md").write_text("\n".join(text), encoding="utf-8")


if __name__ == "__main__":
    main()
