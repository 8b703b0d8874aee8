"""The record of one core parameter, and the questions that read them.

The core parameters are declared in `vocabulary.rules`, beside this module, as a rulebook declares its own;
`vocabulary.py` is its compiled form (written by `python -m rulesdsl.project.vocabulary`), which the rules
engine and the compiler's model read without the parser.
"""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from pathlib import Path

__all__ = ["ENGINE_FUNCTIONS", "QUESTIONS", "UNORDERED", "VOCABULARY_FILE", "CoreParameter"]

# the rules engine's functions, in the order a player turn meets them
ENGINE_FUNCTIONS = ("zoc", "move", "stack", "supply", "retreat", "advance", "may_overrun", "may_exploit",
                    "may_attack", "engage", "losses")
# what may read a core parameter: an engine function, or the combat resolution of every generated module
QUESTIONS = ("resolve_combat", *ENGINE_FUNCTIONS)
# the title suffix of a block whose orders its question reads as sets (`parameters "stack, unordered"`)
UNORDERED = ", unordered"

VOCABULARY_FILE = Path(__file__).with_name("vocabulary.rules")


@dataclass(frozen=True, slots=True)
class CoreParameter:
    """One core parameter as `vocabulary.rules` declares it: kind is flag, quantity, modifier, count, number,
    result, choice or order (the kinds of a `parameters` block), `unit` for a quantity or modifier, `options`
    for a choice or order; `drives` is the question that reads it (its block's title), and `line`, `column`
    and `end_column` are where its declaration is written in the file (one line, as a rulebook's is)."""

    name: str
    kind: str
    _: KW_ONLY
    drives: str
    meaning: str
    unit: str | None = None
    options: tuple[str, ...] = ()
    unordered: bool = False      # an order the engine reads as a set: the words' order means nothing
    line: int = 0
    column: int = 0
    end_column: int = 0
