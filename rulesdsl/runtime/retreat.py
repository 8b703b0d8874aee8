"""Retreats after combat (paths and the steps they cost) and advances after combat."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .answers import Advance, Retreat
from .hexmap import Hex
from .situation import Situation

if TYPE_CHECKING:
    from .engine import RulesEngine


def retreat(engine: RulesEngine, situation: Situation, units: tuple[str, ...], hexes: int, *,
            attackers: tuple[str, ...] = (), refuse: int = 0) -> Retreat:
    raise NotImplementedError("retreat: issue 10, in progress")


def advance(engine: RulesEngine, situation: Situation, units: tuple[str, ...], vacated: Hex, hexes: int, *,
            overrun: bool = False, defender_destroyed: bool = False) -> Advance:
    raise NotImplementedError("advance: issue 10, in progress")
