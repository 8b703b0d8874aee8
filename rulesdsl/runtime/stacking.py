"""Stacking: whether the units in a hex are within the limit, and when the limit is checked."""
from __future__ import annotations

from .answers import StackCheck
from .hexmap import Hex
from .ruleset import RuleSet
from .situation import Situation


def stack(rules: RuleSet, situation: Situation, hex: Hex, *, moment: str = "phase-end") -> StackCheck:
    raise NotImplementedError("stack: issue 10, in progress")
