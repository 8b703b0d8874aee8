"""How long each pipeline stage takes on the shipped rulebooks, as a ratio to parsing.

Run: python benchmarks/bench_pipeline.py [repeats]
Timings are medians over the repeats; the baseline is the Lark parse of the
same files in the same run, so the ratios hold from one machine to another.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesdsl.charts import card, render_html  # noqa: E402
from rulesdsl.codegen import generate  # noqa: E402
from rulesdsl.diff import compare, snapshot  # noqa: E402
from rulesdsl.fmt import format_text  # noqa: E402
from rulesdsl.parser import parse_tree  # noqa: E402
from rulesdsl.pdf import render_pdf  # noqa: E402
from rulesdsl.project import compile_project, rulebook_files  # noqa: E402
from rulesdsl.resolve import resolve  # noqa: E402
from rulesdsl.source import read_source  # noqa: E402
from rulesdsl.transform import parse  # noqa: E402
from rulesdsl.validate import check  # noqa: E402


def timed(function, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main(repeats: int = 5) -> None:
    sources = [read_source(f, f.relative_to(ROOT).as_posix()) for f in rulebook_files(ROOT)]
    rulebooks = [parse(s) for s in sources]
    index = {r.id.value: r for r in rulebooks}
    project = compile_project(ROOT)
    resolved = list(project.resolved.values())
    bocage = project.resolved["bocage"]
    data, _ = card(bocage, "en", project.labels)
    html = render_html(data)
    stages = {
        "parse (Lark tree)": lambda: [parse_tree(s) for s in sources],
        "parse to IR": lambda: [parse(s) for s in sources],
        "check": lambda: [check(r) for r in rulebooks],
        "resolve": lambda: [resolve(r, index) for r in rulebooks if r.kind.value != "labels"],
        "generate modules": lambda: [generate(r) for r in resolved],
        "format": lambda: [format_text(s.text) for s in sources],
        "diff (snapshot both sides)": lambda: [compare(snapshot(r), snapshot(r)) for r in rulebooks],
        "card HTML (one game)": lambda: render_html(card(bocage, "en", project.labels)[0]),
        "card PDF (one game)": lambda: render_pdf(html, data, bocage.rulebook.span),
    }
    baseline = timed(stages["parse (Lark tree)"], repeats)
    print(f"{len(sources)} rulebooks, {sum(len(s.text.splitlines()) for s in sources)} lines, "
          f"median of {repeats} runs; baseline: Lark parse = {baseline * 1000:.1f} ms")
    for name, function in stages.items():
        seconds = timed(function, repeats)
        print(f"  {name:28} {seconds * 1000:9.1f} ms   x{seconds / baseline:6.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
