"""What the language knows by name: units, parameters, activities.

A rulebook may only set parameters listed here, with a value of the listed
type and unit; anything else is an error with a position.  Each entry says
what the parameter means, in the game's own words.  The catalogue names
concepts common to hex-and-counter games, never a particular series: what a
series does with them lives in its rulebook.
"""
from __future__ import annotations

from dataclasses import dataclass

# canonical unit -> the spellings a rulebook may use
UNITS: dict[str, tuple[str, ...]] = {
    "MP": ("MP", "MPs"),            # movement points
    "hex": ("hex", "hexes"),
    "hexside": ("hexside", "hexsides"),
    "step": ("step", "steps"),
    "SP": ("SP", "SPs"),            # strength points
    "unit": ("unit", "units"),
    "turn": ("turn", "turns"),
    "time": ("time", "times"),      # how often something may happen
    "die": ("die", "dice"),
}
UNIT_SPELLINGS = {spelling: unit for unit, spellings in UNITS.items() for spelling in spellings}


def unit_text(amount, unit: str | None) -> str:
    """'2 MP', '1 hex', '3 hexes', '+2 MP' as a rulebook would write it."""
    if unit is None:
        return str(amount)
    singular, plural = UNITS[unit][0], UNITS[unit][-1]
    if unit in ("MP", "SP"):
        return f"{amount} {singular}"
    return f"{amount} {singular if abs(amount) == 1 else plural}"


@dataclass(frozen=True, slots=True)
class ParamType:
    """kind: quantity (2 MP), modifier (+2 MP), count (3), number (1/2),
    flag (yes/no), choice (one word of `options`), order (a list of
    words of `options`), result (CRT notation, like A1)."""

    kind: str
    unit: str | None = None
    options: tuple[str, ...] = ()

    def describe(self) -> str:
        return {
            "quantity": f"a quantity in {self.unit} (like 2 {self.unit})",
            "modifier": f"a signed change in {self.unit} (like +2 {self.unit})",
            "count": "a whole number (like 3)",
            "number": "a number (like 1/2)",
            "flag": "yes or no",
            "choice": "one of " + ", ".join(self.options),
            "order": "a comma-separated list of " + ", ".join(self.options),
            "result": "a combat result (like A1 or D1r2)",
        }[self.kind]


def _q(unit):
    return ParamType("quantity", unit)


def _m(unit):
    return ParamType("modifier", unit)


FLAG = ParamType("flag")
COUNT = ParamType("count")
NUMBER = ParamType("number")
RESULT = ParamType("result")

# name -> (type, meaning)
PARAMETERS: dict[str, tuple[ParamType, str]] = {
    # map and set-up
    "map.playable_hex_fraction": (NUMBER, "how much of a map-edge hex must show for it to be playable"),
    "map.off_map_movement": (FLAG, "whether units may move off the map"),
    "map.leaving_map_destroys": (FLAG, "whether a unit forced or moved off the map is destroyed"),
    "setup.within_inclusive": (FLAG, "whether 'w/i N' set-up distances include hex N"),
    "setup.may_start_overstacked": (FLAG, "whether units may start the game over-stacked"),
    "setup.first_to_set_up": (ParamType("choice", options=("first-player", "second-player")),
                               "which player sets up first"),
    # zones of control
    "zoc.min_attack_strength": (_q("SP"), "the least printed Attack Strength that gives a unit a ZOC"),
    "zoc.entry_cost": (_m("MP"), "the extra MPs to enter a hex in an enemy ZOC"),
    "zoc.ezoc_to_ezoc": (FLAG, "whether a unit may move directly from one enemy ZOC hex to another"),
    "zoc.blocks_advance": (FLAG, "whether enemy ZOCs hinder advance after combat"),
    "zoc.blocks_supply": (FLAG, "whether enemy ZOCs block supply lines"),
    "zoc.multiple_cumulative": (FLAG, "whether several enemy ZOCs on a hex add their effects"),
    "zoc.negated_for_supply_by_friendly_units": (FLAG, "whether friendly units in a hex negate enemy ZOCs there for supply"),
    # movement
    "movement.minimum_move": (_q("hex"), "how far a unit may always move whatever the cost"),
    "movement.may_save_mp": (FLAG, "whether unused MPs carry over or pass to other units"),
    "movement.enter_enemy_hex": (FLAG, "whether units may enter enemy-occupied hexes"),
    # stacking
    "stacking.limit": (_q("step"), "the most steps that may stack in one hex"),
    "stacking.markers_count": (FLAG, "whether markers count toward stacking"),
    # reinforcements
    "reinforcement.placement_cost": (_q("MP"), "the MPs a reinforcement spends to be placed"),
    "reinforcement.blocked_edge_range": (_q("hex"), "how far along the map edge blocked reinforcements may enter"),
    "reinforcement.blocked_interior_range": (_q("hex"), "how far from a blocked on-map entry hex reinforcements may enter"),
    "reinforcement.may_delay": (FLAG, "whether a player may hold reinforcements back"),
    # overrun
    "overrun.cost": (_q("MP"), "the MPs an overrun costs, beyond entering the hex it is made from"),
    "overrun.max_target_cost": (_q("MP"), "the most the target hex may cost to enter for an overrun to be allowed"),
    "overrun.allowed_from_ezoc": (FLAG, "whether units that begin the phase in an enemy ZOC may overrun"),
    "overrun.per_phase": (ParamType("count"), "how many overruns one stack may make in a phase"),
    "overrun.per_target_per_phase": (ParamType("count"), "how many times one target hex may be overrun in a phase"),
    "overrun.may_use_roads": (FLAG, "whether roads and road-like features may lower the target hex's cost"),
    "overrun.ends_movement": (FLAG, "whether an overrun ends the overrunning units' movement"),
    # combat
    "combat.below_table": (RESULT, "the result of an attack below the left-most odds column (no roll)"),
    "combat.above_table": (ParamType("choice", options=("rightmost",)), "where an attack above the right-most odds column is resolved"),
    "combat.attacks_per_phase": (ParamType("count"), "how many times a unit may attack, or be attacked, in a Combat Phase"),
    "combat.mandatory": (FLAG, "whether units adjacent to the enemy must attack"),
    "combat.zero_strength_may_attack": (FLAG, "whether units with a printed Attack Strength of zero may join an attack"),
    # step losses and retreats
    "steps.first_loss": (ParamType("choice", options=("strongest-unit", "owner-choice")), "which unit takes a side's first step loss"),
    "steps.spread_before_second": (FLAG, "whether every unit must lose a step before any loses a second"),
    "retreat.ezoc_step_loss": (_q("step"), "the steps a retreating stack loses for each enemy-ZOC hex it enters"),
    "retreat.blocked_step_loss": (_q("step"), "the steps a stack loses for each retreat hex it cannot make"),
    "retreat.step_per_hex_refused": (_q("step"), "the steps that replace each retreat hex under the no-retreat option"),
    "retreat.path": (ParamType("order", options=("away-from-combat", "toward-supply", "avoid-ezoc")),
                     "the retreat path requirements, in order of precedence"),
    # advance after combat
    "advance.max_not_exploit_capable": (_q("hex"), "how far units that are not exploit-capable may advance after combat"),
    "advance.defender_may_advance": (FLAG, "whether the defender may advance after combat"),
    "advance.overrun_must_enter": (FLAG, "whether overrunning units must enter a target hex the defender vacates"),
    # exploitation and supply
    "exploitation.move_from_ezoc": (FLAG, "whether units that begin the Exploitation Phase in an enemy ZOC may move"),
    "supply.line_length": (ParamType("choice", options=("unlimited",)), "how long a supply line may be"),
    "supply.lasts_until_next_check": (FLAG, "whether a supply status holds until the next Supply Phase"),
}

# What may happen in a phase; a phase lists some of these.
ACTIVITIES: dict[str, str] = {
    "reinforcement": "reinforcements are placed",
    "replacement": "replacement steps are added",
    "movement": "units move",
    "road-movement": "units move along roads",
    "reaction": "the other side's units may react",
    "overrun": "units may overrun",
    "combat": "units attack",
    "bombardment": "artillery and air bombard",
    "air": "air points are allotted and flown",
    "exploitation": "exploit-capable units move",
    "advance": "units advance after combat",
    "supply-check": "units are checked for supply",
    "ready": "units become ready",
    "recovery": "disrupted or disorganised units recover",
    "morale": "morale is tested",
    "turn-marker": "the turn marker advances",
}
