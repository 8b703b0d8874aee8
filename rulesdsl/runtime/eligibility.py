"""Eligibility: whether an overrun, an exploitation move or an attack may be made."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .answers import Verdict
from .hexmap import Hex
from .situation import Situation

if TYPE_CHECKING:
    from .engine import RulesEngine


def may_overrun(engine: RulesEngine, situation: Situation, units: tuple[str, ...], from_hex: Hex,
                target: Hex) -> Verdict:
    raise NotImplementedError("may_overrun: issue 10, in progress")


def may_exploit(engine: RulesEngine, situation: Situation, unit: str) -> Verdict:
    raise NotImplementedError("may_exploit: issue 10, in progress")


def may_attack(engine: RulesEngine, situation: Situation, attackers: tuple[str, ...], target: Hex) -> Verdict:
    raise NotImplementedError("may_attack: issue 10, in progress")
