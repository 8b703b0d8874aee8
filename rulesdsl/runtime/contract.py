"""The engine's contract: every parameter the rules engine reads, its kind, and the engine function it
drives.  The parameters are declared in the core vocabulary (`rulesdsl/core/vocabulary.rules`, compiled to
`rulesdsl.core.vocabulary`), like the combat parameters of every generated module: a rulebook sets these and
may not redeclare them, so that a value the engine reads always has the kind the engine expects.

A parameter a rulebook does not set is *absent*: each engine function says what an absent parameter means
(usually that the rule does not exist in that game: no ZOC, no stacking limit, no retreat loss), and its
derivation says so in a step.

`drives` names the `RulesEngine` method whose answer the parameter changes (the title of its block in the
vocabulary file); `tests/test_engine_contract.py` runs each method and checks that it reads every parameter
listed for it.
"""
from __future__ import annotations

from types import MappingProxyType

from rulesdsl.core.parameters import ENGINE_FUNCTIONS, CoreParameter as EngineParameter
from rulesdsl.core.vocabulary import PARAMETERS

__all__ = ["ENGINE_FUNCTIONS", "ENGINE_PARAMETERS", "EngineParameter", "engine_parameter"]

# the core parameters an engine function reads, in the vocabulary file's order
ENGINE_PARAMETERS: tuple[EngineParameter, ...] = tuple(p for p in PARAMETERS if p.drives in ENGINE_FUNCTIONS)

_BY_NAME = MappingProxyType({p.name: p for p in ENGINE_PARAMETERS})


def engine_parameter(name: str) -> EngineParameter | None:
    """The engine's declaration of `name`, or None when the engine does not read it."""
    return _BY_NAME.get(name)
