"""Rebuilding reproduces the committed generated/ exactly, byte for byte (the PDFs, which git
does not hold, by the fingerprints of their inputs)."""
from __future__ import annotations

from conftest import ROOT

from rulesdsl.project.build import add_charts, compile_project
from rulesdsl.project.output import stale_outputs


def test_committed_generated_is_current():
    compilation = compile_project(ROOT)
    add_charts(compilation)
    assert compilation.ok, [d.message for d in compilation.diagnostics]
    assert [d for d in compilation.diagnostics if d.severity == "warning"] == []
    assert stale_outputs(ROOT, compilation.outputs, committed_only=True) == ([], [])


def test_build_is_deterministic():
    first = compile_project(ROOT).outputs
    second = compile_project(ROOT).outputs
    assert first == second
    modules = {k for k in first if k.endswith(".py")}
    assert len(modules) == len(compile_project(ROOT).resolved) + 1 and "generated/__init__.py" in first
    assert {"generated/scs_1_8.py", "generated/bocage.py", "generated/new_scs.py"} <= set(first)


def test_generated_modules_cite_rule_ids():
    text = (ROOT / "generated" / "bocage.py").read_text(encoding="utf-8")
    # constants sit under their rule, each with its declared meaning
    assert "# 6.0c Target hex cost limit\n#   the most the target hex may cost to enter for an overrun to be " \
           "allowed\nOVERRUN_MAX_TARGET_COST = " in text
    assert "(3.2 (Terrain Effects on Movement)" in text   # entry_cost cites the TEC's rules
