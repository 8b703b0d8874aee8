"""rulesdsl: a declarative language for hex-and-counter wargame rulebooks, and its compiler.

The pipeline, one subpackage per stage (arrows point one way; tests/test_imports.py fails on a circle):
  language/ (text to the model: read, parse, transform, fmt) -> model/ (the IR and its one walk)
  -> checks/ (schema, semantic checks, expressions, resolution against the series, worked examples)
  -> modules/ (generated Python), cards/ (player aids), errata/ (semantic diffs)
  runtime/ is the rules engine the generated modules import; project/ drives a build; cli.py and
  this module are the front doors; errors.py (the one renderer) and cache.py serve every stage.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulesdsl.project.records import Compilation

from rulesdsl.version import __version__ as __version__


def compile_text(text: str, path: str = "<text>", *others: tuple[str, str]) -> "Compilation":
    """Compile one rulebook given as text (with `others`, (path, text) pairs it may
    extend) and return the Compilation: diagnostics, resolved rulebooks, outputs."""
    from rulesdsl.project.build import compile_sources
    from rulesdsl.language.source import Source
    return compile_sources([Source(path, text), *(Source(p, t) for p, t in others)], [path])
