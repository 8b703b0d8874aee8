"""Eligibility: whether an overrun, an exploitation move or an attack may be made.

Exploit capability is a property of the counter (the yellow box of the SCS counters): the engine reads it
from the counter's capabilities (the word `exploit`), which hold those its unit type declares; the SCS
series declare no type with it.

What has already happened in the phase or player turn (overruns made, attacks made, hexes attacked) is
the situation's `history` (a `Record`); a caller may pass another.

Each question has a module of its own (eligibility_overrun, eligibility_exploit, eligibility_attack; what
they share is eligibility_common); this one is where the engine and its callers find them.
"""
from __future__ import annotations

from .eligibility_attack import may_attack
from .eligibility_common import EXPLOIT, OUT_OF_SUPPLY
from .eligibility_exploit import may_exploit
from .eligibility_overrun import may_overrun
from .situation import Record

__all__ = ["EXPLOIT", "OUT_OF_SUPPLY", "Record", "may_attack", "may_exploit", "may_overrun"]
