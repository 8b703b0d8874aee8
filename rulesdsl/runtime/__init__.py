"""What generated rule modules import: plain data types and the mechanics
that turn a rulebook's charts into answers.  Standard library only."""
from fractions import Fraction
from types import MappingProxyType

from .arithmetic import Exact, Number, exact, exact_value, odds_pair, round_from
from .notation import Result, difference_text, parse_odds, parse_result
from .tables import DICE_OUTCOMES, AttackerLosses, CombatResultsTable, LookupTable, TableCell, combat_column
from .tables import difference, difference_column
from .combat import (AdjustmentSpec, AttackingHex, FactorSpec, Combat, CombatEngine, ModifierSpec, ShiftSpec, Unit, Vocabulary, all_where,
                     any_where, ceil_, count_where, divide, floor_, max_of, min_of, once_per_combat, sum_of)
from .combat import PlainCombats
from .combat import Assessment, BoundHex, Exchange, BoundTerrain, BoundUnit, Context, Contribution, Resolution, Roll, RulesInputError
from .terrain import CombatEffect, Movement, Terrain, TerrainEffectsChart, TerrainNames
from .model import Parameter, ParameterValue, Phase, PlayerTurn, Quantity, RuleEntry, TurnSet, TurnValue, frozen_mapping
from .sequence import game_turn_on, phases_on, turn_number
from .hexmap import Direction as Direction, Edge as Edge, Hex as Hex, HexMap as HexMap, Hexside as Hexside, MapSheet as MapSheet

__all__ = [
    "AdjustmentSpec", "AttackerLosses", "AttackingHex", "FactorSpec", "Combat", "CombatEngine", "LookupTable", "ModifierSpec", "ShiftSpec", "Unit",
    "Vocabulary", "all_where", "any_where", "ceil_", "count_where", "divide", "floor_", "max_of", "min_of",
    "once_per_combat", "sum_of", "PlainCombats",
    "CombatEffect", "CombatResultsTable", "DICE_OUTCOMES", "Fraction", "MappingProxyType", "Movement",
    "Parameter", "Phase", "PlayerTurn", "Quantity", "Result", "RuleEntry", "Terrain", "TerrainEffectsChart", "TurnSet",
    "TurnValue", "combat_column", "game_turn_on", "phases_on", "turn_number",
    "difference", "difference_column", "difference_text",
    "exact", "exact_value", "frozen_mapping", "odds_pair", "parse_odds", "parse_result", "round_from",
    # the types a generated module's annotations name
    "Assessment", "BoundHex", "BoundTerrain", "BoundUnit", "Context", "Contribution", "Exact", "Exchange", "Number", "ParameterValue", "Resolution",
    "Roll", "RulesInputError", "TableCell", "TerrainNames",
]
