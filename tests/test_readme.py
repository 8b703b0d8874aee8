"""The README's Python examples run as written (doctest)."""
import doctest
import re

from conftest import ROOT


def test_readme_python_examples():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README shows no Python example"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README block {i}", "README.md", 0)
        runner.run(test)
    assert runner.failures == 0 and runner.tries > 0


def test_the_speed_figures_are_the_latest_benchmark_results():
    """The README quotes rows of benchmarks/RESULTS.md, which only the benchmark writes: each quoted row
    must be there as it is, so the README's figures cannot drift from the latest run."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    speed = readme[readme.index("## Speed"):readme.index("\n## ", readme.index("## Speed") + 1)]
    quoted = [line for line in speed.splitlines() if line.startswith("| ") and not line.startswith("| ---")]
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    assert results.startswith("# Benchmark results\n\nWritten by `python benchmarks/bench_pipeline.py --write`")
    figures = [line for line in quoted if re.search(r"\d", line)]
    assert len(figures) >= 5, "the Speed section quotes no benchmark rows"
    missing = [line for line in quoted if line not in results.splitlines()]
    assert missing == [], "README rows not in benchmarks/RESULTS.md (run the benchmark with --write, quote it)"


def test_every_path_the_readme_names_exists():
    """The layout table and the prose name files by path: each must be there (a move updates the README)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8") + (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:rulesdsl|tests|benchmarks|docs|rulebooks)/[\w./-]*[\w/])", text))
    assert len(named) > 10
    # placeholders (NAME, ID), a user's own project (rulebooks/demo.rules) and the installed library
    # (rulesdsl/library/, the repository's rulebooks/series) are not paths of this repository
    own = {p for p in named if "*" not in p and not re.search(r"[A-Z]{2}", p) and p != "rulebooks/demo.rules"
           and not p.startswith("rulesdsl/library")}
    missing = sorted(p for p in own if not (ROOT / p).exists())
    assert missing == []
