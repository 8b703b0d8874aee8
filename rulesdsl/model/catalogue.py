"""The core vocabulary: what the compiler itself knows by name.

A rulebook may only set parameters that are declared: here, for the few the compiler and the rules
engine act on, or in a `parameters { ... }` block of the rulebook or of one it extends (the series
rulebooks declare theirs).  A declaration gives the parameter's name, the kind of value it takes (with
its unit or its options) and what it means in players' words; cards and errata print that meaning.
Anything else is an error with a position.  Units and phase activities are core vocabulary too.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from rulesdsl.model import ir
from rulesdsl.model.ir import CORE, Declared, ParamType
from rulesdsl.errors import Diagnostic, Span, suggest
from rulesdsl.core.parameters import ENGINE_FUNCTIONS, VOCABULARY_FILE, CoreParameter
from rulesdsl.core.units import PLURALS, unit_text as unit_text   # shared with the generated modules
from rulesdsl.core.vocabulary import PARAMETERS as CORE_VOCABULARY

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
assert all(UNITS[unit][-1] == plural for unit, plural in PLURALS.items())




def _declared(parameter: CoreParameter) -> Declared:
    """A core parameter as the vocabulary of every rulebook holds it: declared where the vocabulary file
    writes it (the installed copy), by CORE."""
    span = Span(str(VOCABULARY_FILE), parameter.line, parameter.column, parameter.line, parameter.end_column)
    return Declared(parameter.name, ParamType(ir.ParamKind(parameter.kind), parameter.unit, parameter.options),
                    parameter.meaning, CORE, span)


# The parameters the compiler and the rules engine act on; a rulebook declares every other one.  They are
# declared in the core vocabulary (rulesdsl/core/vocabulary.rules), so that a value the engine or the generated
# combat resolution reads always has the kind they expect.
CORE_PARAMETERS: dict[str, Declared] = {p.name: _declared(p) for p in CORE_VOCABULARY}
# What each core parameter drives (the language reference prints it).
CORE_USES: dict[str, str] = {
    "combat.below_table": "the generated `resolve_combat` and `ENGINE.assess` (a code saying `not allowed` "
                          "refuses the attack, in the engine's `may_attack` too), and the card's odds line",
    "combat.below_table_forced": "the generated `resolve_combat` and `ENGINE.assess`, for a "
                                 "`Combat(forced=True)` (unset: `combat.below_table`), the engine's "
                                 "`may_attack(..., forced=True)`, and the card's odds line",
    "combat.above_table": "the generated `resolve_combat` and the card's odds line",
    "combat.terrain_combination": "the generated `resolve_combat`, for a hex of several terrains, and the card's "
                                  "Terrain Effects Chart",
    "combat.hexside_combination": "the generated `resolve_combat`, `attack_multiplier` and `defense_multiplier`, "
                                  "and the card's Terrain Effects Chart: a hexside crossed on top of the hex's "
                                  "terrain, or combined with it by `combat.terrain_combination`",
    "combat.exchange_measure": "the generated `resolve_combat`: a result that says `exchange` gives the "
                               "attacker's least loss (`Resolution.exchange`), and the card's result codes legend",
    "combat.exchange_counts_terrain": "the generated `resolve_combat`: the defender's factors an exchange counts, "
                                      "with the terrain's multiplier or as printed, and the card's legend",
    "combat.exchange_loser": "the generated `resolve_combat`: the side that loses every unit in an exchange, "
                             "the defender or the side with fewer factors (`Resolution.exchange.loser`)",
    "combat.imaginary_columns": "the generated `resolve_combat`: shifts count from odds beyond the table",
    "combat.shift_off_left_is_below_table": "the generated `resolve_combat`: a shift past the left-most column",
    "combat.terrain_per_unit": "the generated `resolve_combat`: one terrain multiplier per attacking hex, or one "
                               "for the whole attack",
    "overrun.game_modifiers_apply": "the generated `resolve_combat`: the game's own DRMs in an overrun",
    "supply.minimum_strength": "the generated `resolve_combat`: the floor under a supply strength penalty",
    **{p.name: f"the engine's `{p.drives}`" for p in CORE_VOCABULARY if p.drives in ENGINE_FUNCTIONS},
    "supply.penalties_round_down": "the engine's `move` and the generated `resolve_combat`: fractions a supply "
                                   "penalty leaves (an MA, a strength)",
    "zoc.entry_cost": "the engine's `move` and the generated `entry_cost`",
    "stacking.limit": "the engine's `stack` and the card's stacking line",
    "stacking.limit_units": "the engine's `stack` and the card's stacking line",
}
assert set(CORE_USES) == set(CORE_PARAMETERS)


def declared_type(declaration: ir.ParameterDeclaration) -> ParamType | None:
    """The type a declaration gives, or None when its unit or options are wrong (validate reports it)."""
    kind = declaration.kind
    if kind in (ir.ParamKind.QUANTITY, ir.ParamKind.MODIFIER):
        unit = UNIT_SPELLINGS.get(declaration.unit.value) if declaration.unit is not None else None
        return None if unit is None or declaration.options else ParamType(kind, unit)
    if declaration.unit is not None:
        return None
    if kind in (ir.ParamKind.CHOICE, ir.ParamKind.ORDER):
        names = tuple(o.value for o in declaration.options)
        return ParamType(kind, options=names) if names and len(set(names)) == len(names) else None
    return None if declaration.options else ParamType(kind)


def vocabulary(chain: Iterable[ir.Rulebook]) -> tuple[dict[str, Declared], list[Diagnostic]]:
    """The parameters a rulebook may set: the core ones, then those its chain of rulebooks declares
    (`chain` runs from the farthest ancestor to the rulebook itself), with a problem for each name
    declared twice."""
    known: dict[str, Declared] = dict(CORE_PARAMETERS)
    problems: list[Diagnostic] = []
    for rulebook in chain:
        for block in rulebook.parameter_declarations:
            for declaration in block.declarations:
                name = declaration.name.value
                first = known.get(name)
                if first is not None:
                    core = first.origin == CORE
                    where = ("the core vocabulary" if core or first.span is None
                             else f"{first.origin} at {first.span.path}:{first.span.line}")
                    problems.append(Diagnostic(
                        f"parameter '{name}' is already declared by {where}", declaration.name.span,
                        "the compiler or the rules engine acts on it, with the kind it declares: set it in a rule "
                        "and remove this declaration" if core else
                        "a parameter is declared once; a rulebook that extends its declarer sets it in a rule"))
                    continue
                ptype = declared_type(declaration)
                if ptype is not None:
                    known[name] = Declared(name, ptype, declaration.meaning.value, rulebook.id.value,
                                           declaration.span, declaration.descriptive)
    return known, problems


def example_setting(known: Mapping[str, Declared], name: str, amount: int = 1) -> str:
    """A placeholder value for parameter `name`, of its declared type ('1 step', 'yes'; `amount` of a
    quantity or count); '...' when it is not declared."""
    declared = known.get(name)
    return "..." if declared is None else declared.type.example(amount)


def unknown_parameter(name: ir.Text, known: Mapping[str, Declared]) -> Diagnostic:
    """A parameter that neither the core vocabulary nor any rulebook of the chain declares."""
    return Diagnostic(f"unknown parameter '{name.value}'", name.span,
                      suggest(name.value, known) or
                      "declare it in a `parameters` block (its name, what it takes, what it means), "
                      "in this rulebook or in the series it extends")


# What may happen in a phase; a phase lists some of these.  They are core vocabulary: each has its
# words on the cards in every language the compiler ships (rulesdsl/cards/labels/*.rules, `activity.NAME`).
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
}


# What a `card` block may say (ir.Card): the papers, the reminders panel's topics (each a group of the
# parameters in effect, charts.reminders), the swatch patterns, and the kinds of optional chart.
# Papers by name (papers.py): (width, height) in portrait.
from rulesdsl.model.papers import CARD_PAPERS as CARD_PAPERS, PAPERS as PAPERS  # noqa: E402
CARD_REMINDERS: dict[str, str] = {
    "odds": "the odds ratio, its rounding, and attacks off either end of the table",
    "zoc": "zones of control: their reach and what entering or leaving one costs",
    "overrun": "what an overrun costs and which hexes it may target",
    "retreat": "who takes a side's step losses, and those a retreat may cost",
    "advance": "how far units advance after combat",
    "supply": "what being out of supply does to a unit",
    "stacking": "the stacking limit",
    "reaction": "which units may make a reaction move",
    "attack": "which units may attack, and with whom",
    "movement": "what entering a hex costs beyond the terrain effects chart, and which may not be entered",
}
# The core parameters each topic of a card's reminders panel prints (card { reminders: ... }), those the
# rulebook sets, in this order.
REMINDER_PARAMETERS: dict[str, tuple[str, ...]] = {
    "odds": ("combat.below_table", "combat.below_table_forced", "combat.above_table"),
    "zoc": ("zoc.range", "zoc.entry_cost", "zoc.exit_cost_fraction", "zoc.entry_stops_movement", "zoc.ezoc_to_ezoc",
            "zoc.min_attack_strength"),
    "overrun": ("overrun.who", "overrun.cost", "overrun.max_target_cost", "overrun.per_phase"),
    "retreat": ("retreat.chosen_by", "retreat.path", "retreat.hex_priority", "retreat.ezoc_step_loss",
                "retreat.blocked_step_loss", "retreat.step_per_hex_refused"),
    "advance": ("advance.max_not_exploit_capable", "advance.after_overrun", "advance.defender_may_advance"),
    "supply": ("supply.out_of_supply_attack_factor", "supply.out_of_supply_defense_factor",
               "supply.out_of_supply_movement_factor", "supply.out_of_supply_mechanized_movement_factor",
               "supply.minimum_strength"),
    "stacking": ("stacking.limit", "stacking.limit_units"),
    "attack": ("combat.mandatory", "combat.all_adjacent_must_be_attacked"),
}
CARD_PATTERNS: tuple[str, ...] = ("plain", "hatch", "cross", "dots", "waves")
CARD_MAX_SIDES = 8


def movement_text(cell: ir.MovementCell) -> str:
    """A TEC movement cell as a rulebook writes it: '2', '+1 stop', 'P', 'negates river', a road's
    '1, forest 2' and '1 lower'."""
    amount = "" if cell.amount is None else str(cell.amount)
    text = {"cost": amount, "add": f"+{amount}", "prohibited": "P", "other": "ot", "road-like": "road-like",
            "negates": f"negates {cell.target.value if cell.target else ''}"}[cell.kind]
    text += "".join(f", {c.terrain.value} {c.amount}" for c in cell.by_terrain)
    text += " lower" if cell.lower else ""
    return text + " stop" if cell.stop else text


def phase_turns_text(turns: ir.PhaseTurns) -> str:
    """The game turns of a phase as a rulebook writes them: 'not on night', 'on turns 2+'."""
    which = turns.set.value if turns.set is not None else "turns " + " ".join(t.value for t in turns.turns)
    return f"{'not on' if turns.negated else 'on'} {which}"


def parameter_text(parameter: ir.Parameter) -> str:
    """A parameter's value as a rulebook writes it: '3 steps', '+2 MP', 'phase-end, overrun'."""
    value = parameter.value
    if isinstance(value, ir.Quantity):
        amount = str(value.amount)
        if value.signed and value.amount >= 0:
            amount = "+" + amount
        unit = value.unit.value if value.unit else ""
        canonical = UNIT_SPELLINGS.get(unit)
        if canonical is not None:
            return unit_text(amount, canonical)     # '3 steps', '1 hex', '+2 MP'
        return f"{amount} {unit}".strip()
    if isinstance(value, ir.Words):
        return ", ".join(w.value for w in value.words)
    return f'"{value.value}"'
