"""The rulebook model: plain, immutable data.

Every node's first field is its :class:`~rulesdsl.errors.Span`, kept out of
equality, so two parses of the same meaning compare equal whatever their
layout.  Nothing here depends on Lark.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .errors import Span


_NOWHERE = Span("<nowhere>")


def _span():
    return field(default=_NOWHERE, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Text:
    """A positioned name, id or string."""

    span: Span = _span()
    value: str = ""


# ---- values --------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Quantity:
    """A number with an optional unit; `signed` when written with + or -."""

    span: Span = _span()
    amount: Fraction = Fraction(0)
    unit: Text | None = None
    signed: bool = False


@dataclass(frozen=True, slots=True)
class Words:
    """One word (yes, A1, rightmost) or a comma-separated list of them."""

    span: Span = _span()
    words: tuple[Text, ...] = ()


@dataclass(frozen=True, slots=True)
class Quoted:
    span: Span = _span()
    value: str = ""


Value = Quantity | Words | Quoted


@dataclass(frozen=True, slots=True)
class Parameter:
    span: Span = _span()
    name: Text = Text()
    value: Value = Words()


# ---- expressions -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Number:
    span: Span = _span()
    value: Fraction = Fraction(0)


@dataclass(frozen=True, slots=True)
class OddsLiteral:
    """4:1 in an expression: the ratio attack/defense."""

    span: Span = _span()
    text: str = "1:1"


@dataclass(frozen=True, slots=True)
class Name:
    """A context name (attackers, defender_terrain.shift), a unit attribute,
    capability or state inside where/of, or a definition's name."""

    span: Span = _span()
    path: str = ""


@dataclass(frozen=True, slots=True)
class Call:
    """count/any/all/sum/max/min(collection where condition of value), odds(a, b), floor(x)."""

    span: Span = _span()
    function: Text = Text()
    args: tuple = ()
    where: object = None
    of: object = None


@dataclass(frozen=True, slots=True)
class Unary:
    span: Span = _span()
    op: str = "-"          # "-" or "not"
    operand: object = None


@dataclass(frozen=True, slots=True)
class Binary:
    span: Span = _span()
    op: str = "+"          # + - * / < <= > >= == != and or
    left: object = None
    right: object = None


@dataclass(frozen=True, slots=True)
class Is:
    """`armor-advantage is attacker`: a definition's case compared with one of its words."""

    span: Span = _span()
    operand: object = None
    word: Text = Text()


Expr = Number | OddsLiteral | Name | Call | Unary | Binary | Is


@dataclass(frozen=True, slots=True)
class Case:
    span: Span = _span()
    result: Text = Text()
    condition: object = None     # None: otherwise


@dataclass(frozen=True, slots=True)
class Definition:
    """`define name = expr`, or `define name { word when cond ... word otherwise }`."""

    span: Span = _span()
    name: Text = Text()
    expr: object = None
    cases: tuple[Case, ...] = ()
    text: str = field(default="", compare=False)     # as written, for comments in generated code


# ---- rules ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Rule:
    """A numbered rule (`rule 6.0c`) or an unnumbered section (`section rounding`)."""

    span: Span = _span()
    id: Text = Text()
    numbered: bool = True
    override: bool = False
    title: Text | None = None
    summary: Text | None = None
    parameters: tuple[Parameter, ...] = ()
    notes: tuple[Text, ...] = ()
    see: tuple[Text, ...] = ()
    requires: tuple[Text, ...] = ()   # parameters every game of the series must set
    definitions: tuple[Definition, ...] = ()


@dataclass(frozen=True, slots=True)
class Rounding:
    span: Span = _span()
    name: Text = Text()
    spec: tuple[Text, ...] = ()   # each clause, words joined by a space
    cites: tuple[Text, ...] = ()


# ---- unit types, situations, modifiers, shifts --------------------------------
@dataclass(frozen=True, slots=True)
class UnitType:
    span: Span = _span()
    name: Text = Text()
    capabilities: tuple[Text, ...] = ()


@dataclass(frozen=True, slots=True)
class UnitTypes:
    span: Span = _span()
    override: bool = False
    cites: tuple[Text, ...] = ()
    types: tuple[UnitType, ...] = ()


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """`unit states: dg, ...`, `combat situations: ...`, `combat amounts: ...`."""

    span: Span = _span()
    kind: str = "states"      # states, situations, amounts
    cites: tuple[Text, ...] = ()
    names: tuple[Text, ...] = ()


@dataclass(frozen=True, slots=True)
class Modifier:
    span: Span = _span()
    name: Text = Text()
    value: int = 0
    side: str = "both"        # attacker, defender, both: the side of the CRT read
    condition: object = None
    text: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Modifiers:
    span: Span = _span()
    override: bool = False
    title: Text | None = None
    cites: tuple[Text, ...] = ()
    cap: int | None = None
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True, slots=True)
class Shift:
    span: Span = _span()
    source: Text = Text()
    amount: object = None     # an expression: + right (attacker), - left (defender)
    maximum: int | None = None
    condition: object = None
    text: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Shifts:
    span: Span = _span()
    override: bool = False
    title: Text | None = None
    cites: tuple[Text, ...] = ()
    per_side: int | None = None
    shifts: tuple[Shift, ...] = ()
    before_limits: bool = False   # shift the odds themselves, then clamp to the table


@dataclass(frozen=True, slots=True)
class UnitFactor:
    """Multiply each attacking (or defending) unit's strength by `factor` when `condition` holds for it."""

    span: Span = _span()
    name: Text = Text()
    role: str = "attack"       # attack: attacking units' attack; defense: defending units' defense
    factor: object = None      # an expression (a number; may read the rulebook's parameters)
    condition: object = None   # an expression over the unit
    text: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class UnitFactors:
    span: Span = _span()
    override: bool = False
    title: Text | None = None
    cites: tuple[Text, ...] = ()
    factors: tuple[UnitFactor, ...] = ()


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A change to the result read from the table: `target` by `amount` when `condition`."""

    span: Span = _span()
    name: Text = Text()
    target: str = "defender-retreat"
    amount: int = 0
    condition: object = None
    text: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Adjustments:
    span: Span = _span()
    override: bool = False
    title: Text | None = None
    cites: tuple[Text, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()


@dataclass(frozen=True, slots=True)
class Labels:
    """What a chart prints for each key, in one language."""

    span: Span = _span()
    lang: Text = Text()
    language: Text | None = None
    labels: tuple[tuple[Text, Text], ...] = ()


# ---- sequence of play ----------------------------------------------------
@dataclass(frozen=True, slots=True)
class Phase:
    span: Span = _span()
    name: Text = Text()
    cites: tuple[Text, ...] = ()
    activities: tuple[Text, ...] = ()
    note: Text | None = None


@dataclass(frozen=True, slots=True)
class PlayerTurnSlot:
    """`player turn first` inside the game turn: one run of the player turn."""

    span: Span = _span()
    name: Text = Text()


@dataclass(frozen=True, slots=True)
class TurnBlock:
    span: Span = _span()
    kind: Text = Text()     # "game" or "player"
    items: tuple[Phase | PlayerTurnSlot, ...] = ()


@dataclass(frozen=True, slots=True)
class SequenceOfPlay:
    span: Span = _span()
    override: bool = False
    cites: tuple[Text, ...] = ()
    blocks: tuple[TurnBlock, ...] = ()


# ---- terrain effects chart -----------------------------------------------
@dataclass(frozen=True, slots=True)
class MovementCell:
    """kind: cost (1, 1/2), add (+1), prohibited (P), other (ot), road-like, negates."""

    span: Span = _span()
    kind: str = "cost"
    amount: Fraction | None = None
    target: Text | None = None


@dataclass(frozen=True, slots=True)
class CombatCell:
    """kind: none (ne, -), prohibited (P), other (ot), multiply (Ax1/2 Dx2)."""

    span: Span = _span()
    kind: str = "none"
    attacker: Fraction | None = None
    defender: Fraction | None = None
    shift: int = 0             # column shift: - left (1L), + right (1R)


@dataclass(frozen=True, slots=True)
class TerrainRow:
    span: Span = _span()
    kind: str = "hex"          # hex, hexside or road
    name: Text = Text()
    movement: MovementCell = MovementCell()
    combat: CombatCell = CombatCell()
    level: int | None = None   # terrain level (supply tables, elevation)
    line: Text | None = None   # the odds line of a terrain-line CRT it reads


@dataclass(frozen=True, slots=True)
class TerrainChart:
    span: Span = _span()
    override: bool = False
    title: Text | None = None
    cites: tuple[Text, ...] = ()
    rows: tuple[TerrainRow, ...] = ()


# ---- combat results table ------------------------------------------------
@dataclass(frozen=True, slots=True)
class DiceRow:
    span: Span = _span()
    label: Text = Text()               # "2", "3-4", "11"
    cells: tuple[Text, ...] = ()


@dataclass(frozen=True, slots=True)
class OddsLine:
    """A row of odds columns; `name` is the terrain line it serves, in a terrain-line table."""

    span: Span = _span()
    name: Text | None = None
    columns: tuple[Text, ...] = ()


@dataclass(frozen=True, slots=True)
class AttackerSide:
    """The attacker-loss side of a dual-sided table: columns by total defense strength."""

    span: Span = _span()
    columns: tuple[Text, ...] = ()     # strength ranges: 1-4, 5-8, 21+
    rows: tuple[DiceRow, ...] = ()


@dataclass(frozen=True, slots=True)
class ResultsTable:
    span: Span = _span()
    override: bool = False
    title: Text | None = None
    cites: tuple[Text, ...] = ()
    dice: Text = Text()
    columns: tuple[Text, ...] = ()     # the odds columns (of the first line)
    rows: tuple[DiceRow, ...] = ()     # the (defender-side) results
    notation: Text | None = None       # steps-first (D2r1) or retreat-first (D2(1))
    lines: tuple[OddsLine, ...] = ()   # every odds row; more than one in a terrain-line table
    attacker: AttackerSide | None = None
    sides: tuple[Text, ...] = ()       # side names as written, for a dual-sided table


@dataclass(frozen=True, slots=True)
class LookupTable:
    """A chart looked up by a key (1-D) or by a row and a column key (2-D)."""

    span: Span = _span()
    override: bool = False
    name: Text = Text()
    title: Text | None = None
    cites: tuple[Text, ...] = ()
    header: tuple[Text, ...] = ()      # key name (or row/column names), then column labels
    rows: tuple[tuple[Text, ...], ...] = ()


# ---- the rulebook ----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Rulebook:
    span: Span = _span()
    kind: Text = Text()
    id: Text = Text()
    title: Text = Text()
    version: Text | None = None
    extends: Text | None = None
    rules: tuple[Rule, ...] = ()
    unit_types: tuple[UnitTypes, ...] = ()
    vocabulary: tuple[Vocabulary, ...] = ()
    modifiers: tuple[Modifiers, ...] = ()
    shifts: tuple[Shifts, ...] = ()
    adjustments: tuple[Adjustments, ...] = ()
    unit_factors: tuple[UnitFactors, ...] = ()
    rounding: tuple[Rounding, ...] = ()
    sequence: tuple[SequenceOfPlay, ...] = ()
    terrain: tuple[TerrainChart, ...] = ()
    results: tuple[ResultsTable, ...] = ()
    tables: tuple[LookupTable, ...] = ()
    labels: tuple[Labels, ...] = ()

    @property
    def path(self) -> str:
        return self.span.path


# ---- the resolved rulebook: what is in effect after overrides ----------------
@dataclass(frozen=True, slots=True)
class Effective:
    """A definition in effect, with the rulebook it comes from."""

    node: object
    origin: str                  # id of the rulebook whose definition is in effect


@dataclass(frozen=True, slots=True)
class EffectiveParameter:
    name: str
    value: object                # typed: Quantity, int, Fraction, bool, str, tuple
    rule: str
    origin: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class Resolved:
    rulebook: Rulebook
    ancestors: tuple[Rulebook, ...]             # nearest first
    rules: tuple[Effective, ...]                # Effective(Rule), in rule order
    parameters: tuple[EffectiveParameter, ...]  # by name
    rounding: Effective | None = None
    threshold: object = None                    # Fraction: where the rounding rounds up
    sequence: Effective | None = None
    terrain: Effective | None = None
    results: Effective | None = None
    favour_defender: bool = False               # odds round for the defender
    modifiers: Effective | None = None
    shifts: Effective | None = None
    tables: tuple[Effective, ...] = ()
    vocabulary: object = None                   # expressions.Vocabulary
    definitions: tuple = ()                     # (Definition, kind, rule id, origin), in dependency order
    adjustments: Effective | None = None
    unit_factors: Effective | None = None

    @property
    def id(self) -> str:
        return self.rulebook.id.value
