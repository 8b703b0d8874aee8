"""How big the compiler's parts may grow: no function radon ranks F anywhere in the product, and the
parts a new query kind, pass or eligibility rule is added to stay small enough to read (issue 42).

Radon's cyclomatic complexity counts the decisions in a function: F is 41 or more, a function no reviewer
can hold in mind.  The size limits are about 600 lines a module and 80 lines a function, in the worked
examples' query package, the build driver and the engine's eligibility code.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from radon.complexity import cc_rank, cc_visit

from conftest import ROOT

PACKAGE = ROOT / "rulesdsl"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def _product() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _bounded() -> list[Path]:
    """The modules the size limits hold for."""
    paths = [*(PACKAGE / "queries").rglob("*.py"), PACKAGE / "checks" / "examples.py",
             PACKAGE / "checks" / "situations.py", PACKAGE / "project" / "build.py",
             PACKAGE / "project" / "passes.py", *(PACKAGE / "runtime").glob("eligibility*.py")]
    return sorted(p for p in paths if p.exists())


def test_no_function_is_ranked_f():
    ranked = [f"{path.relative_to(ROOT)}:{block.lineno}: {block.fullname} ({block.complexity})"
              for path in _product() for block in cc_visit(path.read_text(encoding="utf-8"))
              if cc_rank(block.complexity) == "F"]
    assert ranked == []


def test_the_bounded_modules_exist():
    names = {p.relative_to(PACKAGE).as_posix() for p in _bounded()}
    assert {"checks/examples.py", "project/build.py", "project/passes.py", "runtime/eligibility.py"} <= names
    assert any(n.startswith("queries/") for n in names)


@pytest.mark.parametrize("path", _bounded(), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_module_and_function_sizes(path: Path):
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_MODULE_LINES
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)" for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert long == []


def test_the_radon_check_can_fail():
    """The F check sees a function of 41 decisions."""
    body = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(41))
    assert [cc_rank(b.complexity) for b in cc_visit(f"def f(x):\n{body}\n")] == ["F"]
