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
    one = str(amount).lstrip("+-") == "1"
    return f"{amount} {singular if one else plural}"


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
    "map.hex_number_interval": (COUNT, "every how many hexes along a hex row a hex number is printed"),
    "victory.off_map_losses_count": (FLAG, "whether units destroyed by leaving the map count as losses for victory"),
    "setup.within_inclusive": (FLAG, "whether 'w/i N' set-up distances include hex N"),
    "setup.may_start_overstacked": (FLAG, "whether units may start the game over-stacked"),
    "setup.first_to_set_up": (ParamType("choice", options=("first-player", "second-player")),
                               "which player sets up first"),
    "setup.boundaries_inclusive": (FLAG, "whether units may set up on the lines that bound an 'inclusive' set-up zone"),
    "setup.starts_full_strength": (FLAG, "whether units begin the game at full strength unless told otherwise"),
    "setup.starts_in_supply": (FLAG, "whether units begin the game in supply unless told otherwise"),
    # general principles
    "modifiers.cumulative": (FLAG, "whether every modifier that applies to one value takes effect (halved twice is quartered)"),
    "intelligence.examine_enemy_stacks": (FLAG, "whether a player may look beneath the top unit of an enemy stack"),
    "control.by_passing_through": (FLAG, "whether a unit gains control of a hex by moving through it"),
    "control.by_zoc": (FLAG, "whether a ZOC alone gives control of a hex"),
    # zones of control
    "zoc.min_attack_strength": (_q("SP"), "the least printed Attack Strength that gives a unit a ZOC"),
    "zoc.entry_cost": (_m("MP"), "the extra MPs to enter a hex in an enemy ZOC"),
    "zoc.ezoc_to_ezoc": (FLAG, "whether a unit may move directly from one enemy ZOC hex to another"),
    "zoc.blocks_advance": (FLAG, "whether enemy ZOCs hinder advance after combat"),
    "zoc.blocks_supply": (FLAG, "whether enemy ZOCs block supply lines"),
    "zoc.multiple_cumulative": (FLAG, "whether several enemy ZOCs on a hex add their effects"),
    "zoc.negated_for_supply_by_friendly_units": (FLAG, "whether friendly units in a hex negate enemy ZOCs there for supply"),
    "zoc.range": (_q("hex"), "how far from a unit its ZOC reaches"),
    "zoc.limited_by_terrain": (FLAG, "whether a ZOC reaches only hexes the unit could enter in regular movement"),
    "zoc.affects_friendly": (FLAG, "whether a side's ZOCs hinder its own units"),
    "zoc.friendly_negates_enemy": (FLAG, "whether friendly ZOCs cancel enemy ZOCs in the same hex"),
    # movement
    "movement.minimum_move": (_q("hex"), "how far a unit may always move whatever the cost"),
    "movement.may_save_mp": (FLAG, "whether unused MPs carry over or pass to other units"),
    "movement.enter_enemy_hex": (FLAG, "whether units may enter enemy-occupied hexes"),
    "movement.optional": (FLAG, "whether the player chooses which of his units, if any, move"),
    "movement.one_stack_at_a_time": (FLAG, "whether a unit or stack must finish its move before another begins"),
    "movement.minimum_move_may_overrun": (FLAG, "whether the always-allowed minimum move may be used to make an overrun"),
    "movement.must_afford_entry": (FLAG, "whether a unit must have a hex's full MP cost left to enter it"),
    "movement.hexside_cost_added": (FLAG, "whether a hexside feature's cost is added to that of the hex entered"),
    "movement.only_phasing_units": (FLAG, "whether only the phasing side's units move in its phases (retreats apart)"),
    "roads.continuous_path_required": (FLAG, "whether the road rate applies only when moving along the road from hex to hex"),
    "roads.ignore_crossed_terrain": (FLAG, "whether road movement ignores the cost of the hex entered and the hexside crossed"),
    "roads.negate_prohibited": (FLAG, "whether a road lets units enter or cross otherwise prohibited terrain"),
    # stacking
    "stacking.limit": (_q("step"), "the most steps that may stack in one hex"),
    "stacking.markers_count": (FLAG, "whether markers count toward stacking"),
    "stacking.checked_at": (ParamType("order", options=("phase-end", "overrun", "advance-end", "movement-end", "always")),
                            "the moments when the stacking limit is enforced"),
    "stacking.overrun_counts_all_units": (FLAG, "whether units already in the hex an overrun is made from count toward stacking"),
    "stacking.excess_eliminated": (FLAG, "whether units over the limit when stacking is enforced are destroyed"),
    "stacking.owner_chooses_excess": (FLAG, "whether the owner picks which over-stacked units are destroyed"),
    "stacking.overrun_violation_undoes_move": (FLAG, "whether an overrun that breaks the limit is taken back and the move redone, destroying nothing"),
    "stacking.retreat_overstack_grace": (ParamType("choice", options=("none", "phase-end", "next-friendly-movement")),
                                         "until when a stack over the limit after a retreat may stay so"),
    "stacking.top_unit_with_attack_strength": (FLAG, "whether a stack's top unit must be one able to attack, when the stack holds one"),
    # reinforcements
    "reinforcement.placement_cost": (_q("MP"), "the MPs a reinforcement spends to be placed"),
    "reinforcement.blocked_edge_range": (_q("hex"), "how far along the map edge blocked reinforcements may enter"),
    "reinforcement.blocked_interior_range": (_q("hex"), "how far from a blocked on-map entry hex reinforcements may enter"),
    "reinforcement.may_delay": (FLAG, "whether a player may hold reinforcements back"),
    "reinforcement.may_overstack_on_placement": (FLAG, "whether reinforcements may be placed over the stacking limit if they split up by the phase's end"),
    "reinforcement.arrive_in_supply": (FLAG, "whether reinforcements are in supply when they arrive"),
    "reinforcement.full_allowance_on_entry": (FLAG, "whether reinforcements may use their whole Movement Allowance in the phase they arrive"),
    "reinforcement.placement_ignores_ezoc": (FLAG, "whether enemy ZOCs have no effect on placing reinforcements"),
    "reinforcement.may_place_on_enemy": (FLAG, "whether reinforcements may be placed in enemy-occupied hexes"),
    # overrun
    "overrun.cost": (_q("MP"), "the MPs an overrun costs, beyond entering the hex it is made from"),
    "overrun.max_target_cost": (_q("MP"), "the most the target hex may cost to enter for an overrun to be allowed"),
    "overrun.allowed_from_ezoc": (FLAG, "whether units that begin the phase in an enemy ZOC may overrun"),
    "overrun.per_phase": (ParamType("count"), "how many overruns one stack may make in a phase"),
    "overrun.per_target_per_phase": (ParamType("count"), "how many times one target hex may be overrun in a phase"),
    "overrun.may_use_roads": (FLAG, "whether roads and road-like features may lower the target hex's cost"),
    "overrun.ends_movement": (FLAG, "whether an overrun ends the overrunning units' movement"),
    "overrun.stack_must_start_together": (FLAG, "whether units must begin their move stacked to overrun as one stack"),
    "overrun.results_affect_only_participants": (FLAG, "whether overrun results hit only the overrunning units, not others sharing their hex"),
    "overrun.resolved_immediately": (FLAG, "whether an overrun is resolved as soon as it is announced"),
    "overrun.from_adjacent_hex": (FLAG, "whether overrunning units attack from the adjacent hex rather than from inside the target hex"),
    "overrun.max_stacks": (COUNT, "how many stacks may take part in one overrun"),
    "overrun.target_cost_ignores_zoc": (FLAG, "whether the target hex's cost for the overrun limit counts terrain only, not enemy ZOCs"),
    "overrun.exploitation_requires_eligibility": (FLAG, "whether overruns in the Exploitation Phase are limited to units that may move in that phase"),
    "overrun.may_also_attack_in_combat": (FLAG, "whether units that overran may attack again in the Combat Phase"),
    "overrun.out_of_supply_allowed": (FLAG, "whether out-of-supply units may overrun"),
    "overrun.game_modifiers_apply": (FLAG, "whether a game's combat modifiers apply to overruns as to other combats"),
    "overrun.attacker_retreats_apply": (FLAG, "whether retreat results against the overrunning units are carried out"),
    # combat
    "combat.below_table": (RESULT, "the result of an attack below the left-most odds column (no roll)"),
    "combat.above_table": (ParamType("choice", options=("rightmost",)), "where an attack above the right-most odds column is resolved"),
    "combat.attacks_per_phase": (ParamType("count"), "how many times a unit may attack, or be attacked, in a Combat Phase"),
    "combat.mandatory": (FLAG, "whether units adjacent to the enemy must attack"),
    "combat.zero_strength_may_attack": (FLAG, "whether units with a printed Attack Strength of zero may join an attack"),
    "combat.target_must_be_in_zoc": (FLAG, "whether a unit may attack only enemy units in hexes its ZOC covers"),
    "combat.attacks_per_turn": (COUNT, "how many times a unit may attack in one player turn, overruns included"),
    "combat.defender_hexes_per_attack": (COUNT, "how many hexes one attack may target"),
    "combat.announce_all_first": (FLAG, "whether all attacks must be announced before any is resolved"),
    "combat.may_cancel_announced": (FLAG, "whether an attack may be called off once announced"),
    "combat.defender_applies_first": (FLAG, "whether the defender carries out his result before the attacker"),
    "combat.may_split_unit_strength": (FLAG, "whether one unit may divide its strength between attacks"),
    "combat.stack_may_split_attacks": (FLAG, "whether units of one stack may attack different hexes"),
    "combat.stack_defends_together": (FLAG, "whether all units in a hex defend as one"),
    "combat.arrivals_share_results": (FLAG, "whether units that retreated into a hex before it is attacked suffer that attack's results"),
    "combat.without_attack_strength_may_attack": (FLAG, "whether units with no printed Attack Strength (barrage, supply or defence-only values) may join an attack"),
    "combat.only_into_enterable_terrain": (FLAG, "whether units may attack only into terrain they could move into from where they stand"),
    "combat.terrain_per_unit": (FLAG, "whether terrain multipliers apply to each attacking unit according to its own position"),
    "combat.imaginary_columns": (FLAG, "whether column shifts may count from columns beyond the table's edges"),
    "combat.shift_off_left_is_below_table": (FLAG, "whether an attack shifted past the left-most column counts as below the table"),
    # step losses and retreats
    "steps.first_loss": (ParamType("choice", options=("strongest-unit", "owner-choice", "enemy-choice")), "which unit takes a side's first step loss"),
    "steps.spread_before_second": (FLAG, "whether every unit must lose a step before any loses a second"),
    "steps.owner_distributes": (FLAG, "whether the owner spreads step losses among the units in the combat, within the other limits"),
    "steps.excess_ignored": (FLAG, "whether step losses beyond what a side can absorb are ignored"),
    "steps.markers_change_strength": (FLAG, "whether step-loss markers under a unit lower its strength"),
    "retreat.ezoc_step_loss": (_q("step"), "the steps a retreating stack loses for each enemy-ZOC hex it enters"),
    "retreat.blocked_step_loss": (_q("step"), "the steps a stack loses for each retreat hex it cannot make"),
    "retreat.step_per_hex_refused": (_q("step"), "the steps that replace each retreat hex under the no-retreat option"),
    "retreat.path": (ParamType("order", options=("away-from-combat", "toward-supply", "avoid-ezoc")),
                     "the retreat path requirements, in order of precedence"),
    "retreat.whole_side": (FLAG, "whether every unit of a side in a combat makes the retreat"),
    "retreat.losses_per_stack": (FLAG, "whether retreat-caused step losses are taken once per stack rather than per unit"),
    "retreat.owner_chooses_losses": (FLAG, "whether the owner picks which units take retreat-caused step losses"),
    "retreat.counted_in_hexes": (FLAG, "whether retreats are counted in hexes rather than Movement Points"),
    "retreat.terrain_affects_length": (FLAG, "whether terrain changes how far a retreat goes"),
    "retreat.ezoc_negated_by_friendly_units": (FLAG, "whether friendly units in a hex cancel the step loss for retreating into an enemy ZOC there"),
    "retreat.may_split": (FLAG, "whether retreating units may take different paths"),
    "retreat.owner_retreats": (FLAG, "whether the owning player moves his own retreating units"),
    "retreat.ezoc_avoidance_optional": (FLAG, "whether avoiding enemy ZOCs on a retreat is at the owner's choice"),
    "retreat.partial_refusal": (FLAG, "whether a side may turn only part of a retreat into step losses"),
    # advance after combat
    "advance.max_not_exploit_capable": (_q("hex"), "how far units that are not exploit-capable may advance after combat"),
    "advance.defender_may_advance": (FLAG, "whether the defender may advance after combat"),
    "advance.overrun_must_enter": (FLAG, "whether overrunning units must enter a target hex the defender vacates"),
    "advance.after_overrun": (FLAG, "whether overrunning units may advance after combat"),
    "advance.any_participant": (FLAG, "whether any unit in the attack, even one of zero strength, may advance"),
    "advance.first_hex_is_defender_hex": (FLAG, "whether an advance must begin by entering the vacated defender hex"),
    "advance.length_from_original_result": (FLAG, "whether the advance uses the retreat result as rolled, before hexes turned into step losses"),
    "advance.after_defender_destroyed": (FLAG, "whether attackers may advance the unfulfilled retreat distance when the defender is destroyed"),
    "advance.counted_in_hexes": (FLAG, "whether advances are counted in hexes rather than Movement Points"),
    # exploitation and supply
    "exploitation.move_from_ezoc": (FLAG, "whether units that begin the Exploitation Phase in an enemy ZOC may move"),
    "exploitation.full_allowance": (FLAG, "whether exploiting units may use their whole Movement Allowance"),
    "exploitation.minimum_move_if_ineligible": (FLAG, "whether units barred from the Exploitation Phase may still make the minimum move in it"),
    "supply.method": (ParamType("choice", options=("trace", "range")), "how supply is determined: a traced line or a range"),
    "supply.blocked_by_enemy_units": (FLAG, "whether enemy-occupied hexes block supply lines"),
    "supply.blocked_by_prohibited_terrain": (FLAG, "whether prohibited terrain blocks supply lines"),
    "supply.effects_from_marking": (FLAG, "whether out-of-supply effects apply from the moment a unit is marked until the marker goes"),
    "supply.line_length": (ParamType("choice", options=("unlimited",)), "how long a supply line may be"),
    "supply.out_of_supply_attack_factor": (NUMBER, "what an out-of-supply unit's Attack Strength is multiplied by"),
    "supply.out_of_supply_defense_factor": (NUMBER, "what an out-of-supply unit's Defense Strength is multiplied by"),
    "supply.out_of_supply_movement_factor": (NUMBER, "what an out-of-supply unit's Movement Allowance is multiplied by"),
    "supply.lasts_until_next_check": (FLAG, "whether a supply status holds until the next Supply Phase"),
}

# Added for series that ready units, react, road-move and bombard (generic concepts).
PARAMETERS.update({
    "overrun.who": (ParamType("choice", options=("any-unit", "exploit-capable")), "which units may overrun"),
    "reaction.movement_fraction": (NUMBER, "the share of its MA a reacting unit may use"),
    "reaction.may_overrun": (FLAG, "whether reacting units may overrun"),
    "reaction.may_enter_ezoc": (FLAG, "whether reacting units may enter enemy ZOCs"),
    "road_movement.ma_multiple": (NUMBER, "how many times its printed MA a unit may spend in road movement"),
    "road_movement.road_cost": (_q("MP"), "the MPs per road hex in road movement"),
    "road_movement.trail_cost": (_q("MP"), "the MPs per trail hex in road movement"),
    "road_movement.enemy_distance": (_q("hex"), "how close to enemy units road movement may not come"),
    "exploitation.unready_above_fraction": (NUMBER, "the share of its MA beyond which an exploiting unit is marked unready"),
    "supply.out_of_supply_may_exploit": (FLAG, "whether out-of-supply units may exploit"),
    "supply.out_of_supply_may_react": (FLAG, "whether out-of-supply units may make reaction moves"),
    "supply.out_of_supply_may_bombard": (FLAG, "whether out-of-supply artillery may bombard, defensively included"),
    "combat.dg_factor": (NUMBER, "what a disrupted (DG) unit's combat strength is multiplied by"),
    "combat.defensive_support_units": (COUNT, "how many artillery units may give defensive support to one combat"),
    "retreat.close_terrain_ignores_one_hex": (FLAG, "whether defenders in the strongest shift terrain may ignore a one-hex retreat"),
    "retreat.attacker_retreats_on_empty_result": (FLAG, "whether attackers who lost steps retreat a hex when the defender lost nothing"),
    "retreat.blocked_loss_per_unit": (FLAG, "whether a blocked retreat costs a step per unit rather than per stack"),
    "air.interdiction_cost": (_m("MP"), "the extra MPs to enter an interdicted hex or one next to it"),
    "air.interdiction_road_minimum": (_q("MP"), "the least a road hex costs in an interdicted area"),
    "bombardment.group_size": (COUNT, "how many same-rated units fire together as a group"),
    "bombardment.group_bonus": (COUNT, "how much a group's rating rises"),
    "bombardment.moved_penalty": (COUNT, "how much a rating falls for artillery that moved"),
    "bombardment.min_rating": (COUNT, "the lowest a bombardment rating can fall"),
    "bombardment.air_rating": (COUNT, "the rating of an air bombardment"),
    "bombardment.flak_air_rating": (COUNT, "the rating of an air bombardment near enemy flak"),
    "bombardment.light_cover_reduction": (COUNT, "how much villages and similar cover lower a rating"),
    "bombardment.heavy_cover_reduction": (COUNT, "how much cities and fortifications lower a rating"),
    "bombardment.armor_reduction": (COUNT, "how much armored targets lower a rating"),
    "bombardment.spares_last_step": (FLAG, "whether the last step in a hex survives bombardment"),
})

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
    "interdiction": "air points interdict hexes",
}
