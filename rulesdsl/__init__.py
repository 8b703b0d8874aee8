"""rulesdsl: a declarative language for hex-and-counter wargame rulebooks, and its compiler.

Pipeline, one module per stage:
  source.py (read) -> parser.py (text to tree) -> transform.py (tree to IR, ir.py)
  -> schema.py + validate.py (checks) -> resolve.py (extends and overrides)
  -> codegen.py (IR to Python) ; project.py drives it, cli.py is the front door.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .project import Compilation

__version__ = "0.1.0"


def compile_text(text: str, path: str = "<text>", *others: tuple[str, str]) -> "Compilation":
    """Compile one rulebook given as text (with `others`, (path, text) pairs it may
    extend) and return the Compilation: diagnostics, resolved rulebooks, outputs."""
    from .project import compile_sources
    from .source import Source
    return compile_sources([Source(path, text), *(Source(p, t) for p, t in others)], [path])
