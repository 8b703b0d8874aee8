"""What generated rule modules import: plain data types and the mechanics
that turn a rulebook's charts into answers.  Standard library only."""
from fractions import Fraction
from types import MappingProxyType

from .arithmetic import exact, odds_pair, round_from
from .notation import Result, parse_odds, parse_result
from .tables import DICE_OUTCOMES, CombatResultsTable, combat_column
from .terrain import Combat, Movement, Terrain, TerrainEffectsChart
from .model import Parameter, Phase, PlayerTurn, Quantity, RuleEntry, frozen_mapping

__all__ = [
    "Combat", "CombatResultsTable", "DICE_OUTCOMES", "Fraction", "MappingProxyType", "Movement",
    "Parameter", "Phase", "PlayerTurn", "Quantity", "Result", "RuleEntry", "Terrain", "TerrainEffectsChart", "combat_column",
    "exact", "frozen_mapping", "odds_pair", "parse_odds", "parse_result", "round_from",
]
