"""Supply: tracing a line from a unit to its side's sources."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .answers import SupplyTrace
from .situation import Situation

if TYPE_CHECKING:
    from .engine import RulesEngine


def supply(engine: RulesEngine, situation: Situation, unit: str) -> SupplyTrace:
    raise NotImplementedError("supply: issue 10, in progress")
