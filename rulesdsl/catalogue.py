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


def unit_text(amount: object, unit: str | None) -> str:
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


def _q(unit: str) -> ParamType:
    return ParamType("quantity", unit)


def _m(unit: str) -> ParamType:
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
    "combat.terrain_combination": (ParamType("choice", options=("cumulative", "most-restrictive", "defender-best")),
                                   "how the combat effects of several terrains in the defender's hex combine"),
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

# Added for series with formations, hidden strengths, disengagement, isolation,
# support points and engineering (generic concepts; a rulebook sets the values).
PARAMETERS.update({
    "intelligence.note_taking": (FLAG, "whether players may keep written notes on the enemy's forces"),
    "units.cadre_strength": (_q("SP"), "the fixed combat strength of a formation reduced to its cadre"),
    "units.formation_steps": (COUNT, "how many steps a full-strength formation counter has, its cadre included"),
    "movement.fractions_kept": (FLAG, "whether fractions of MPs are kept until a unit's move is complete"),
    "movement.river_crossing_fraction": (NUMBER, "the share of its MA a unit allowed to do so spends to cross an unbridged river hexside"),
    "movement.assisted_river_crossing_fraction": (NUMBER, "the share of its MA a unit spends on an engineer-assisted river crossing"),
    "movement.mechanized_prohibited_level": (COUNT, "the lowest terrain level mechanized units may not enter except along a road"),
    "roads.friendly_units_extra_cost": (_m("MP"), "the extra MPs to move along a road hex that friendly units occupy"),
    "strategic_movement.enemy_distance": (_q("hex"), "the closest to enemy units a unit in strategic movement may come, counting the enemy's hex"),
    "reserve.must_be_unmoved": (FLAG, "whether only units that have not moved may be marked as reserves"),
    "reserve.must_be_in_supply": (FLAG, "whether only supplied units may be marked as reserves"),
    "reserve.may_be_adjacent_to_enemy": (FLAG, "whether units next to enemy units may be marked as reserves"),
    "reserve.may_attack": (FLAG, "whether units may attack after their reserve move"),
    "zoc.largest_formation_only": (FLAG, "whether only units of the largest formation size in play exert a ZOC"),
    "zoc.entry_stops_movement": (FLAG, "whether a unit entering an enemy ZOC must stop for the rest of the phase"),
    "zoc.exit_cost_fraction": (NUMBER, "the share of its printed MA a unit pays, beyond terrain, to leave an enemy ZOC"),
    "zoc.exit_cost_rounds_down": (FLAG, "whether the cost to leave an enemy ZOC drops its fractions (otherwise they count as a whole MP)"),
    "zoc.reentry_after_exit": (FLAG, "whether a unit that has left an enemy ZOC may enter another in the same phase"),
    "stacking.limit_units": (_q("unit"), "the most units that may stack in one hex"),
    "stacking.overstacked_units_fight": (FLAG, "whether units over the stacking limit add their strength to a combat in their hex"),
    "stacking.overstacked_lost_on_adverse_result": (FLAG, "whether units over the stacking limit are destroyed by any adverse combat result in their hex"),
    "combat.parent_units_per_hex": (COUNT, "how many parent (formation) units may attack or defend from one hex"),
    "combat.artillery_per_hex": (COUNT, "how many artillery units may give support from one hex"),
    "combat.non_participants_share_results": (FLAG, "whether units in a combat hex that do not take part still suffer its results"),
    "combat.all_adjacent_must_be_attacked": (FLAG, "whether, once a stack attacks, every enemy unit next to an attacking stack must be attacked that phase"),
    "combat.defender_best_terrain": (FLAG, "whether a combat against several hexes reads the terrain most favourable to the defender"),
    "combat.behind_river_defense_factor": (NUMBER, "what the defense of units attacked only across river hexsides is multiplied by"),
    "combat.entrenched_defense_factor": (NUMBER, "what the defense of units in an entrenchment is multiplied by"),
    "combat.entrenched_behind_river_defense_factor": (NUMBER, "what the defense of entrenched units attacked only across river hexsides is multiplied by"),
    "combat.loser_applies_first": (FLAG, "whether the side that lost a combat carries out its result first"),
    "combat.rolls_before_movement": (FLAG, "whether every combat that one hex's units take part in is rolled before any retreat or advance"),
    "steps.attacker_armor_first": (FLAG, "whether an attacker's first step loss must come from an armored unit that took part"),
    "artillery.support_range": (_q("hex"), "how far from the target hex artillery may give support, counting the target hex but not its own"),
    "artillery.supports_per_turn": (COUNT, "how many times one artillery unit may give support in a game turn"),
    "artillery.adjacent_uses_strength": (FLAG, "whether artillery next to enemy units fights with its printed strength instead of giving support"),
    "air.support_per_combat": (COUNT, "how many air points each side may commit to one combat"),
    "air.points_may_be_saved": (FLAG, "whether unused air points carry over to a later turn"),
    "naval.gunfire_automatic_in_range": (FLAG, "whether naval gunfire support within range needs no roll to arrive"),
    "retreat.hex_priority": (ParamType("order", options=("empty-no-ezoc", "friendly-no-ezoc", "into-ezoc")),
                             "the kinds of hex a retreat must use, in order of preference"),
    "retreat.heavy_units_cross_unbridged_rivers": (FLAG, "whether armor and artillery may retreat across unbridged river hexsides"),
    "advance.mechanized_may_deviate": (FLAG, "whether mechanized units may leave the retreat path after the first hex of an advance"),
    "advance.first_hex_ignores_ezoc": (FLAG, "whether enemy ZOCs have no effect in the first hex of an advance"),
    "advance.armor_across_unbridged_rivers": (FLAG, "whether armored units may advance across unbridged river hexsides"),
    "breakthrough.victor_chooses_retreat": (FLAG, "whether the winner of a breakthrough result picks the loser's retreat path"),
    "breakthrough.retreat_refusal_allowed": (FLAG, "whether step losses may replace retreat hexes in a breakthrough result"),
    "breakthrough.retreating_units_lose_zoc": (FLAG, "whether units retreating from a breakthrough lose their ZOC during the advance"),
    "breakthrough.support_cost": (COUNT, "the support points an attack that ends in a breakthrough costs"),
    "breakthrough.mechanized_extra_advance": (_q("hex"), "how much farther mechanized units may advance after a breakthrough"),
    "supply.mutual_check": (FLAG, "whether both sides check supply in every supply phase"),
    "supply.checks_per_turn": (COUNT, "how many supply phases a game turn holds"),
    "supply.out_of_supply_mechanized_movement_factor": (NUMBER, "what an out-of-supply mechanized unit's Movement Allowance is multiplied by"),
    "supply.minimum_strength": (_q("SP"), "the least combat strength that supply penalties can leave a unit"),
    "supply.penalties_round_down": (FLAG, "whether fractions left by supply penalties are dropped"),
    "isolation.friendly_unit_range": (_q("hex"), "how near a friendly supplied combat unit keeps a cut-off unit from being isolated"),
    "isolation.max_attack_strength": (_q("SP"), "the most an isolated unit may attack with"),
    "isolation.defense_factor": (NUMBER, "what an isolated unit's defense strength is multiplied by"),
    "isolation.mechanized_movement_allowance": (_q("MP"), "the Movement Allowance of an isolated mechanized unit"),
    "isolation.movement_factor": (NUMBER, "what an isolated non-mechanized unit's Movement Allowance is multiplied by"),
    "isolation.markers_before_surrender": (COUNT, "how many isolation markers a unit carries before it must roll for surrender"),
    "depot.defense_strength": (_q("SP"), "the defense strength of a supply depot attacked alone"),
    "depot.return_delay": (_q("turn"), "how many game turns after its destruction a depot returns as a reinforcement"),
    "depot.eliminated_by_retreat": (FLAG, "whether a depot that must retreat is destroyed instead"),
    "depot.allied_supply_level_penalty": (COUNT, "how many supply levels a unit drops when only an allied depot supplies it"),
    "air_supply.units_per_point": (COUNT, "how many units one air or sea supply point may supply"),
    "air_supply.support_cost": (COUNT, "the support points an air or sea supply attempt costs"),
    "air_supply.level_gain": (COUNT, "how many supply levels a successful air or sea supply raises a unit"),
    "support.attack_cost": (COUNT, "the support points each attack costs"),
    "support.depreciation_attacks": (COUNT, "how many attacks a side may make in a game turn before support depreciation"),
    "support.depreciation_cost": (COUNT, "the support points a side loses when it attacks more than the depreciation limit in a turn"),
    "support.transferable": (FLAG, "whether support points may pass between nationalities"),
    "support.lost_without_depots": (FLAG, "whether a nationality that loses every depot loses its remaining support points"),
    "support.negative_supply_level_penalty": (COUNT, "how many supply levels every unit drops while its side's support is zero or less"),
    "demolition.trace_range": (_q("hex"), "the longest supply path a unit may trace to the bridge or road it tries to demolish"),
    "demolition.enemy_range": (_q("hex"), "how near an enemy unit must be for a bridge to be eligible for demolition"),
    "demolition.bridge_attempts_per_unit": (COUNT, "how many bridge demolitions one unit may attempt in a game turn"),
    "demolition.road_min_level": (COUNT, "the lowest terrain level in which roads may be demolished"),
    "demolition.road_attempts_per_player_turn": (COUNT, "how many road demolitions a side may attempt in a player turn"),
    "demolition.attempts_per_target": (COUNT, "how many demolition attempts one target may receive in an engineering phase"),
    "engineering.bridge_repair_phases": (COUNT, "how many engineering phases repairing a bridge takes"),
    "engineering.bridge_repair_cost": (COUNT, "the support points repairing a bridge costs"),
    "engineering.road_repair_phases": (COUNT, "how many engineering phases repairing a road takes"),
    "engineering.entrenchment_turns": (_q("turn"), "how many consecutive game turns building an entrenchment takes"),
    "engineering.entrenchment_enemy_distance": (_q("hex"), "how close enemy units may not come while an entrenchment is built"),
    "engineering.entrenchment_cost": (COUNT, "the support points starting an entrenchment costs"),
    "rubble.movement_cost": (_m("MP"), "the extra MPs to enter a hex holding rubble"),
    "rubble.markers_per_hex": (COUNT, "how many rubble markers one hex may hold"),
    "rubble.ends_advance": (FLAG, "whether a unit advancing after combat into rubble must stop there"),
    "rubble.affects_retreat": (FLAG, "whether rubble hinders retreats"),
    "reinforcement.blocked_delay": (_q("turn"), "how many game turns reinforcements wait when every entry hex is blocked"),
    "reinforcement.may_enter_in_reserve_phase": (FLAG, "whether reinforcements may also enter in the reserve phase"),
    "reinforcement.any_movement_mode": (FLAG, "whether reinforcements may use any movement mode on the turn they enter"),
    "replacement.points_may_be_saved": (FLAG, "whether replacement points may be kept for later turns"),
    "replacement.units_in_ezoc_eligible": (FLAG, "whether units in an enemy ZOC may receive replacements"),
    "replacement.out_of_supply_eligible": (FLAG, "whether out-of-supply or isolated units may receive replacements"),
    "replacement.artillery_eligible": (FLAG, "whether artillery may receive replacements"),
    "replacement.battalions_eligible": (FLAG, "whether battalions may receive replacements"),
})

ACTIVITIES.update({
    "weather": "weather and ground conditions are determined",
    "accounting": "record tracks are brought up to date and markers adjusted",
    "airborne": "airborne units are staged for their missions",
    "sea-transport": "ships load, move or land units",
    "reserve-marking": "eligible units are marked as reserves",
    "reserve-movement": "units marked as reserves move",
    "strategic-movement": "units move in the faster rear-area mode",
    "engineering": "engineers build, repair and demolish",
    "air-sea-supply": "air or sea points deliver supply to cut-off units",
    "surrender": "isolated units test for surrender",
})
