"""Units a parameter may be measured in, as both the compiler and the generated modules write amounts."""
from __future__ import annotations

__all__ = ["PLURALS", "unit_text"]

# the plural of each unit a parameter may be measured in that has one (MP and SP read the same)
PLURALS = {"hex": "hexes", "hexside": "hexsides", "step": "steps", "unit": "units", "turn": "turns",
           "time": "times", "die": "dice"}


def unit_text(amount: object, unit: str | None) -> str:
    """'2 MP', '1 hex', '3 hexes', '+2 MP', as a rulebook writes an amount of a unit."""
    if unit is None:
        return str(amount)
    one = str(amount).lstrip("+-") == "1"
    return f"{amount} {unit if one else PLURALS.get(unit, unit)}"
