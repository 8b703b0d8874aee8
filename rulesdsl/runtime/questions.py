"""The questions one stage of the rules engine asks another, as a protocol.

Supply, retreat and eligibility ask movement's questions (ZOCs, entry costs, a priced move) through the
engine that binds them.  They name this protocol, not `engine.RulesEngine`, so the engine imports its
stages and no stage imports the engine: the arrows point one way.
"""
from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol

from .answers import Move, Reach, Zones
from .hexmap import Hex
from .ruleset import RuleSet, Step
from .situation import Counter, Situation

__all__ = ["Questions"]


class Questions(Protocol):
    """What `engine.RulesEngine` answers that the other stages read."""

    @property
    def rules(self) -> RuleSet: ...

    def exerts_zoc(self, situation: Situation, unit: Counter) -> tuple[bool, Step]: ...

    def zoc(self, situation: Situation, side: str) -> Zones: ...

    def enemy_zoc(self, situation: Situation, side: str) -> set[Hex]: ...

    def entry_cost(self, situation: Situation, unit: Counter, source: Hex, target: Hex,
                   *, road: bool = True) -> Fraction | None: ...

    def move(self, situation: Situation, unit: str, path: Sequence[Hex | str], *,
             mode: str = "regular", saved: Fraction | int = 0) -> Move: ...

    def reachable(self, situation: Situation, unit: str, *, mode: str = "regular") -> Reach: ...
