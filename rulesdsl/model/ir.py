"""The rulebook model: plain, immutable data.

Every node's first field is its :class:`~rulesdsl.errors.Span`, kept out of
equality, so two parses of the same meaning compare equal whatever their
layout.  Nothing here depends on Lark.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar, Generic, Iterator, Mapping, NamedTuple, TypeVar, Union, get_args, get_origin, get_type_hints

from rulesdsl.errors import Span

from rulesdsl.core.units import unit_text


_NOWHERE = Span("<nowhere>")


def _span() -> Any:
    return field(default=_NOWHERE, compare=False, repr=False)


def _as_written() -> Any:
    """The source text of a node, kept for messages and generated comments; not part of its meaning."""
    return field(default="", compare=False)


# ---- kinds ------------------------------------------------------------------------
class Kind(StrEnum):
    """A kind of node: compares equal to, prints and reprs as the word the rulebook writes for it."""

    def __repr__(self) -> str:
        return repr(self.value)


class MoveKind(Kind):
    COST = "cost"
    ADD = "add"
    PROHIBITED = "prohibited"
    OTHER = "other"
    ROAD_LIKE = "road-like"
    NEGATES = "negates"


class CombatKind(Kind):
    NONE = "none"
    PROHIBITED = "prohibited"
    OTHER = "other"
    MULTIPLY = "multiply"


class Crossing(Kind):
    """When a hexside feature's column shift and DRM apply: when any attacking hex attacks across it (the
    default), or only when every attacking hex does (`all-across`)."""
    ANY = "any-across"
    ALL = "all-across"


class TerrainKind(Kind):
    HEX = "hex"
    HEXSIDE = "hexside"
    ROAD = "road"


class VocabularyKind(Kind):
    STATES = "states"
    SITUATIONS = "situations"
    AMOUNTS = "amounts"


class ParamKind(Kind):
    """What a declared parameter takes (`parameters { name KIND ... }`)."""
    QUANTITY = "quantity"    # 2 MP
    MODIFIER = "modifier"    # +2 MP
    COUNT = "count"          # 3
    NUMBER = "number"        # 1/2
    FLAG = "flag"            # yes / no
    CHOICE = "choice"        # one word of the options
    ORDER = "order"          # a list of words of the options
    RESULT = "result"        # a combat result code


class Reason(Kind):
    """Why no engine function reads a declared parameter (`descriptive REASON` in its declaration)."""
    TABLE_TALK = "table-talk"    # a procedure the players carry out at the table (announcing attacks first)
    COMPONENTS = "components"    # the physical counters, markers and map
    INTENT = "intent"            # a choice or intent the engine cannot know
    OUT_OF_SCOPE = "out-of-scope"   # a mechanic the engine does not model (set-up, reinforcements, victory, air)


class Side(Kind):
    """The side of the CRT a die roll modifier reads."""
    ATTACKER = "attacker"
    DEFENDER = "defender"
    BOTH = "both"


class Role(Kind):
    """Whose strength a strength factor multiplies: attacking units' attack or defending units' defense."""
    ATTACK = "attack"
    DEFENSE = "defense"


class ResultField(Kind):
    ATTACKER_STEPS = "attacker-steps"
    ATTACKER_RETREAT = "attacker-retreat"
    DEFENDER_STEPS = "defender-steps"
    DEFENDER_RETREAT = "defender-retreat"


class CodeEffect(Kind):
    """What a declared result code does (`result codes`)."""
    LOSES = "loses"                 # a side loses steps, units, or all its units
    RETREATS = "retreats"
    ADVANCES = "advances"
    BECOMES = "becomes"             # a side takes a state: disrupted, dg ...
    EXCHANGE = "exchange"
    NO_EFFECT = "no effect"
    NOT_ALLOWED = "not allowed"     # the attack may not be made
    BREAKTHROUGH = "breakthrough"


class EffectKind(Kind):
    """What a rule's effect does to the question it names (`forbid react when ...`)."""
    FORBID = "forbid"
    ALLOW = "allow"      # lifts every `forbid` on the same question, where its own condition holds
    COST = "cost"        # changes what the question prices (entering a hex): by its amount
    EXEMPT = "exempt"    # spares the units from what the question imposes (a retreat's step loss); as forbid
    STOP = "stop"        # the unit may enter the hex, and goes no further (an advance into rubble)
    ELIMINATE = "eliminate"  # the unit is eliminated instead of paying what the question imposes (a step)


class AmountHow(Kind):
    """How a `cost` effect's amount changes a price or an allowance: `3 MP` sets, `times 1/2` multiplies,
    `min 1 MP` raises to at least, `max 6 MP` lowers to at most, `+1 MP` adds (applied in that order)."""
    SET = "set"
    TIMES = "times"
    AT_LEAST = "min"
    AT_MOST = "max"
    ADD = "add"


class UnaryOp(Kind):
    NEG = "-"
    NOT = "not"


class BinaryOp(Kind):
    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    EQ = "=="
    NE = "!="
    AND = "and"
    OR = "or"


class ExpectKind(Kind):
    """What an `expect` line of an example asks the rules engine."""
    MOVE = "move"
    REACH = "reach"
    ZOC = "zoc"
    STACK = "stack"
    SUPPLY = "supply"
    OVERRUN = "overrun"
    EXPLOIT = "exploit"
    ATTACK = "attack"
    RETREAT = "retreat"
    ADVANCE = "advance"
    COMBAT = "combat"
    ENGAGE = "engage"
    PHASES = "phases"
    LOSSES = "losses"


class DoneKind(Kind):
    """What a `done` line of a situation says was already made."""
    OVERRUN = "overrun"
    ATTACK = "attack"


class StackFate(Kind):
    """What the rules do with the units over a stacking limit (`expect stack ... destroyed`)."""
    DESTROYED = "destroyed"      # they are destroyed
    LEAVE = "leave"              # they must leave the hex; none is destroyed
    UNDONE = "undone"            # the overrun that broke the limit is taken back


class OnlyRole(Kind):
    """Which side of a combat a one-side TEC cell names: the defender's or the attacker's."""
    DEFENDING = "defending"
    ATTACKING = "attacking"


class Ruling(Kind):
    """The yes/no part of what an `expect` line says the rules answer."""
    LEGAL = "legal"
    ILLEGAL = "illegal"
    ALLOWED = "allowed"
    REFUSED = "refused"
    IN = "in"
    OUT = "out"
    ISOLATED = "isolated"       # out of supply and cut off (isolation.friendly_unit_range)
    ELIMINATED = "eliminated"


@dataclass(frozen=True, slots=True, kw_only=True)
class Text:
    """A positioned name, id or string."""

    span: Span = _span()
    value: str


# ---- values --------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Quantity:
    """A number with an optional unit; `signed` when written with + or -."""

    span: Span = _span()
    amount: Fraction
    unit: Text | None
    signed: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Words:
    """One word (yes, A1, rightmost) or a comma-separated list of them."""

    span: Span = _span()
    words: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Quoted:
    span: Span = _span()
    value: str


Value = Quantity | Words | Quoted


@dataclass(frozen=True, slots=True, kw_only=True)
class Parameter:
    span: Span = _span()
    name: Text
    value: Value
    # `zoc.entry_cost = +0 MP  on night`: the value on those game turns only (the turns a phase names); None:
    # the value on every turn no turn-limited value of the parameter covers
    turns: PhaseTurns | None = None


# ---- expressions -------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Number:
    span: Span = _span()
    value: Fraction


@dataclass(frozen=True, slots=True, kw_only=True)
class OddsLiteral:
    """4:1 in an expression: the ratio attack/defense."""

    span: Span = _span()
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Name:
    """A context name (attackers, defender_terrain.shift), a unit attribute,
    capability or state inside where/of, or a definition's name."""

    span: Span = _span()
    path: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Call:
    """count/any/all/sum/max/min(collection where condition of value), odds(a, b), floor(x)."""

    span: Span = _span()
    function: Text
    args: tuple[Expr, ...]
    where: Expr | None
    of: Expr | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Unary:
    span: Span = _span()
    op: UnaryOp
    operand: Expr


@dataclass(frozen=True, slots=True, kw_only=True)
class Binary:
    span: Span = _span()
    op: BinaryOp
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, kw_only=True)
class Is:
    """`armor-advantage is attacker`: a definition's case compared with one of its words."""

    span: Span = _span()
    operand: Expr
    word: Text


Expr = Union[Number, OddsLiteral, Name, Call, Unary, Binary, Is]


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    span: Span = _span()
    result: Text
    condition: Expr | None     # None: otherwise


@dataclass(frozen=True, slots=True, kw_only=True)
class Definition:
    """`define name = expr`, or `define name { word when cond ... word otherwise }`."""

    span: Span = _span()
    name: Text
    expr: Expr | None                # None: a definition by cases
    cases: tuple[Case, ...]
    text: str = _as_written()


# ---- rules ---------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Effect:
    """`forbid exert-zoc when unit is artillery`: what a rule does (`kind`) to a question the rules engine
    answers (`question`: exert-zoc, react ...), for the units its `condition` holds of.  The condition reads
    the facts the question knows (rulesdsl/core/facts.py)."""

    span: Span = _span()
    kind: EffectKind
    question: Text
    condition: Expr
    amount: EffectAmount | None = None      # a `cost` effect's: +1 MP
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class EffectAmount:
    """`+1 MP`, `3 MP`, `min 1 MP`, `max isolation.mechanized_movement_allowance`, `times 1/2 rounded down`:
    what a `cost` effect does to a price or an allowance, its unit as written, or the parameter whose value
    it is (then `value` is that value in effect, which codegen reads from the resolved rulebook)."""

    span: Span = _span()
    how: AmountHow
    value: Fraction | None           # None: the parameter's value
    unit: Text | None
    parameter: Text | None = None
    rounded_down: bool = False      # `times 1/2 rounded down`: the product's fraction dropped


@dataclass(frozen=True, slots=True, kw_only=True)
class Descriptive:
    """`descriptive table-talk "..."` in a rule: the rule states no mechanic the engine can execute, the
    reason why, and the author's words on it (`rulesdsl coverage` counts it as accounted for)."""

    span: Span = _span()
    reason: Reason
    why: Text | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Rule:
    """A numbered rule (`rule 6.0c`) or an unnumbered section (`section rounding`)."""

    span: Span = _span()
    id: Text
    numbered: bool
    override: bool
    title: Text | None
    summary: Text | None
    parameters: tuple[Parameter, ...]
    notes: tuple[Text, ...]
    see: tuple[Text, ...]
    requires: tuple[Text, ...]   # parameters every game of the series must set
    definitions: tuple[Definition, ...]
    effects: tuple[Effect, ...]         # what it forbids, and when: executed by the rules engine
    extra_summaries: tuple[Text, ...]   # summaries after the first: an error validate reports
    descriptive: Descriptive | None = None   # why the engine executes none of it
    executed_by: Text | None = None   # `executed by retreat`: the engine's own behaviour, which examples ask
    amend: bool = False   # `amend rule`: changes only the parameters it lists (and its summary, if given)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rounding:
    span: Span = _span()
    name: Text
    spec: tuple[Text, ...]   # each clause, words joined by a space
    cites: tuple[Text, ...]


# ---- unit types, situations, modifiers, shifts --------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class UnitType:
    span: Span = _span()
    name: Text
    capabilities: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitTypes:
    span: Span = _span()
    override: bool
    cites: tuple[Text, ...]
    types: tuple[UnitType, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Vocabulary:
    """`unit states: dg, ...`, `combat situations: ...`, `combat amounts: ...`."""

    span: Span = _span()
    kind: VocabularyKind
    cites: tuple[Text, ...]
    names: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ParameterDeclaration:
    """`zoc.entry_cost  modifier MP  "the extra MPs to enter a hex in an enemy ZOC"`: a parameter a rule
    may set, what it takes, and what it means in players' words."""

    span: Span = _span()
    name: Text
    kind: ParamKind
    unit: Text | None            # quantity and modifier: the unit, as written (MP, steps, hexes)
    options: tuple[Text, ...]    # choice and order: the words the value may use
    meaning: Text
    descriptive: Reason | None = None   # `descriptive REASON`: no engine function reads it, and why


@dataclass(frozen=True, slots=True, kw_only=True)
class ParameterDeclarations:
    """`parameters "Title" [cites] { ... }`: the vocabulary of parameters a rulebook adds; every rulebook that
    extends it may set them."""

    span: Span = _span()
    title: Text | None
    cites: tuple[Text, ...]
    declarations: tuple[ParameterDeclaration, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Modifier:
    span: Span = _span()
    name: Text
    value: int
    side: Side
    condition: Expr
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class Modifiers:
    span: Span = _span()
    override: bool
    title: Text | None
    cites: tuple[Text, ...]
    cap: int | None
    modifiers: tuple[Modifier, ...]
    amend: bool = False   # `amend die roll modifiers`: replaces (or adds) only the DRMs it lists


@dataclass(frozen=True, slots=True, kw_only=True)
class Shift:
    span: Span = _span()
    source: Text
    amount: Expr       # + right (attacker), - left (defender)
    maximum: int | None
    condition: Expr | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class Shifts:
    span: Span = _span()
    override: bool
    title: Text | None
    cites: tuple[Text, ...]
    per_side: int | None
    shifts: tuple[Shift, ...]
    before_limits: bool   # shift the odds themselves, then clamp to the table


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitFactor:
    """Multiply each attacking (or defending) unit's strength by `factor` when `condition` holds for it; or,
    `at most`, hold it to `factor`; `rounded down`: the unit's strength rounded down after it."""

    span: Span = _span()
    name: Text
    role: Role
    factor: Expr        # a number; may read the rulebook's parameters
    condition: Expr     # over the unit
    cap: bool = False           # `at most N`: the strength is at most the factor
    round_down: bool = False    # `rounded down`: unit by unit, before the side's strengths are added
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitFactors:
    span: Span = _span()
    override: bool
    title: Text | None
    cites: tuple[Text, ...]
    factors: tuple[UnitFactor, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjustment:
    """A change to the result read from the table: `target` by `amount` when `condition`."""

    span: Span = _span()
    name: Text
    target: ResultField
    amount: int
    condition: Expr
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjustments:
    span: Span = _span()
    override: bool
    title: Text | None
    cites: tuple[Text, ...]
    adjustments: tuple[Adjustment, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Labels:
    """What a chart prints for each key, in one language."""

    span: Span = _span()
    lang: Text
    language: Text | None
    labels: tuple[tuple[Text, Text], ...]


# ---- sequence of play ----------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseTurns:
    """`not on night`, `on turns 2+`: the game turns a phase happens on (`on`) or is skipped on (`not on`),
    a turn set of the sequence of play or turns listed as written (3, 5-8, 11+); a parameter's value on some
    turns only says them the same way (`on` only: validate)."""

    span: Span = _span()
    negated: bool             # `not on`: every turn but these
    set: Text | None          # `on night`: the turn set of that name
    turns: tuple[Text, ...]   # `on turns 1 3 5-8 11+`: the turns themselves (empty for a set)


@dataclass(frozen=True, slots=True, kw_only=True)
class Phase:
    span: Span = _span()
    name: Text
    cites: tuple[Text, ...]
    activities: tuple[Text, ...]
    note: Text | None
    turns: PhaseTurns | None = None    # None: the phase happens every game turn


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnSet:
    """`turns night 3 6 9 12` in a sequence of play: game turns named for the phases that happen, or are
    skipped, on them; each as written: a turn (3), a range (5-8), or a turn and every later one (11+)."""

    span: Span = _span()
    name: Text
    turns: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerTurnSlot:
    """`player turn first` inside the game turn: one run of the shared player turn, or, when the sides
    play different phases, `player turn german`: that side's player turn."""

    span: Span = _span()
    name: Text


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnBlock:
    span: Span = _span()
    kind: Text     # "game" or "player"
    items: tuple[Phase | PlayerTurnSlot, ...]
    side: Text | None = None     # `player turn german { ... }`: the side that plays it; None: every side


@dataclass(frozen=True, slots=True, kw_only=True)
class SequenceOfPlay:
    span: Span = _span()
    override: bool
    cites: tuple[Text, ...]
    blocks: tuple[TurnBlock, ...]
    amend: bool = False   # `amend sequence of play`: replaces only the phases it lists, in their turn
    turn_sets: tuple[TurnSet, ...] = ()    # `turns night 3 6 9 12`, in the order written


# ---- terrain effects chart -----------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class TerrainCost:
    """`forest 2` in a road's movement cell (`trail  1, forest 2`): the road's cost into a hex of that terrain."""

    span: Span = _span()
    terrain: Text
    amount: Fraction


@dataclass(frozen=True, slots=True, kw_only=True)
class MovementCell:
    """kind: cost (1, 1/2), add (+1), prohibited (P), other (ot), road-like, negates."""

    span: Span = _span()
    kind: MoveKind
    amount: Fraction | None      # cost and add
    target: Text | None          # negates
    stop: bool = False           # `2 stop`: a unit that enters the hex (crosses the hexside) ends its move there
    by_terrain: tuple[TerrainCost, ...] = ()   # a road's: `trail  1, forest 2`: its cost into a hex of forest is 2
    lower: bool = False          # a road's: `track  1 lower`: 1 or the hex's own cost, whichever is lower


@dataclass(frozen=True, slots=True, kw_only=True)
class OnlyFor:
    """`defending allies` after a TEC combat cell: its effects hold only when that side defends (`attacking`:
    attacks); other sides fight there as if the cell said ne."""

    span: Span = _span()
    role: OnlyRole
    side: Text


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatCell:
    """kind: none (ne, -), prohibited (P), other (ot), multiply (Ax1/2 Dx2, and shifts and DRMs: 1L -1)."""

    span: Span = _span()
    kind: CombatKind
    attacker: Fraction | None
    defender: Fraction | None = None
    shift: int             # column shift: - left (1L), + right (1R)
    repeated: tuple[Text, ...]   # a second shift, DRM or multiplier of one side: an error validate reports
    drm: int = 0           # die roll modifier on the roll read by odds (-1, +1)
    across: Crossing = Crossing.ANY   # a hexside's shift and DRM: when any, or every (all-across), attacker crosses
    only: OnlyFor | None = None       # `defending allies`: the effects hold only when that side defends (attacks)


@dataclass(frozen=True, slots=True, kw_only=True)
class TerrainRow:
    span: Span = _span()
    kind: TerrainKind | None   # None: written before any heading, an error validate reports
    name: Text
    movement: MovementCell
    combat: CombatCell
    level: int | None   # terrain level (supply tables, elevation)
    line: Text | None   # the odds line of a terrain-line CRT it reads
    no_overrun: bool = False   # `no-overrun`: an overrun may not target a hex of it, nor cross it (a hexside)
    no_zoc: bool = False       # `no-zoc`: a ZOC does not extend into a hex of it, nor across it (a hexside)
    exerts_no_zoc: bool = False   # `exerts-no-zoc` (a hex): a unit in a hex of it exerts no ZOC (a fortress)


@dataclass(frozen=True, slots=True, kw_only=True)
class TerrainCell:
    """`woods  combat 2L` in an amendment: one cell of an inherited row; the row's other cell as inherited."""

    span: Span = _span()
    kind: TerrainKind | None   # the heading it is under (None: an error validate reports)
    name: Text
    movement: MovementCell | None   # the cell given: movement ...
    combat: CombatCell | None       # ... or combat


@dataclass(frozen=True, slots=True, kw_only=True)
class TerrainChart:
    span: Span = _span()
    override: bool
    title: Text | None
    cites: tuple[Text, ...]
    rows: tuple[TerrainRow, ...]
    amend: bool = False   # `amend terrain effects chart`: replaces (or adds) only the rows it lists
    cells: tuple[TerrainCell, ...] = ()   # an amendment's single cells (validate: only in an amendment)
    for_examples: bool = False   # `for examples`: a series' chart for its worked examples; no card prints it


# ---- combat results table ------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class DiceRow:
    span: Span = _span()
    label: Text               # "2", "3-4", "11"
    cells: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class OddsLine:
    """A row of odds columns; `name` is the terrain line it serves, in a terrain-line table."""

    span: Span = _span()
    name: Text | None
    columns: tuple[Text, ...]
    differential: bool = False    # `difference`: ranges of attack minus defense (-6..-5, 0, +12..), not odds


class AttackerSide(NamedTuple):
    """The attacker-loss side of a dual-sided table, read by total defense strength: a view of its
    TableSide (ResultsTable.attacker), not a node of its own."""

    span: Span
    columns: tuple[Text, ...]     # strength ranges: 1-4, 5-8, 21+
    rows: tuple[DiceRow, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Grid:
    """A one-sided table's odds rows and dice rows."""

    span: Span = _span()
    lines: tuple[OddsLine, ...]   # every odds row; more than one in a terrain-line table
    rows: tuple[DiceRow, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSide:
    """`defender side { odds ... }` or `attacker side { defense ... }` as written."""

    span: Span = _span()
    side: Text                           # attacker, defender (or both, an error)
    odds: OddsLine | None                # an 'odds' header row
    strengths: tuple[Text, ...] | None   # a 'defense' header row
    rows: tuple[DiceRow, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultsTable:
    span: Span = _span()
    override: bool
    title: Text | None
    cites: tuple[Text, ...]
    dice: Text
    notation: Text | None       # steps-first (D2r1) or retreat-first (D2(1))
    grid: Grid | None             # a one-sided table
    sides: tuple[TableSide, ...]  # the side blocks of a dual-sided table, as written
    amend: bool = False   # `amend combat results table`: one odds row and the cells it changes; dice ""
    for_examples: bool = False   # `for examples`: a series' table for its worked examples; no card prints it

    # What the table reads, whichever way it is written: views of `grid` or `sides`, not fields, so the
    # model holds each cell once.
    def _side(self, name: str) -> TableSide | None:
        return next((s for s in self.sides if s.side.value == name), None)

    @property
    def lines(self) -> tuple[OddsLine, ...]:
        """The odds rows: the grid's, or the defender side's header."""
        if self.grid is not None:
            return self.grid.lines
        defender = self._side("defender")
        return (defender.odds,) if defender is not None and defender.odds is not None else ()

    @property
    def differential(self) -> bool:
        """Whether the columns are differences (attack minus defense), not odds."""
        return bool(self.lines) and self.lines[0].differential

    @property
    def columns(self) -> tuple[Text, ...]:
        """The odds columns (of the first line)."""
        return self.lines[0].columns if self.lines else ()

    @property
    def rows(self) -> tuple[DiceRow, ...]:
        """The (defender-side) results."""
        if self.grid is not None:
            return self.grid.rows
        defender = self._side("defender")
        return defender.rows if defender is not None and defender.odds is not None else ()

    @property
    def attacker(self) -> AttackerSide | None:
        side = self._side("attacker")
        if side is None or side.strengths is None:
            return None
        return AttackerSide(side.span, side.strengths, side.rows)


@dataclass(frozen=True, slots=True, kw_only=True)
class CodeClause:
    """One part of a code's meaning: `defender loses all`, `attacker retreats 2`, `exchange`."""

    span: Span = _span()
    effect: CodeEffect
    side: Side | None        # None for exchange, no effect, not allowed, breakthrough
    amount: int | None       # loses/retreats/advances: how many; None with `loses all`
    word: Text | None        # the unit counted (steps, units, hexes) or, with becomes, the state


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultCode:
    """`DE  defender loses all`: a code a CRT cell may hold, and what it means."""

    span: Span = _span()
    code: Text
    clauses: tuple[CodeClause, ...]
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultCodes:
    """`result codes [7.1] family steps-first { ... }`: the codes a CRT prints, and their meaning; `family`
    takes in every code of a standard notation besides the declared ones."""

    span: Span = _span()
    override: bool
    title: Text | None
    cites: tuple[Text, ...]
    family: Text | None
    codes: tuple[ResultCode, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class LookupTable:
    """A chart looked up by a key (1-D) or by a row and a column key (2-D)."""

    span: Span = _span()
    override: bool
    name: Text
    title: Text | None
    cites: tuple[Text, ...]
    header: tuple[Text, ...]      # key name (or row/column names), then column labels
    rows: tuple[tuple[Text, ...], ...]


# ---- worked examples -----------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class MapArea:
    """`map 22.14 - 27.19 open`: the playable hexes (a rectangle, corners inclusive) and the default terrain."""

    span: Span = _span()
    first: Text
    last: Text
    terrain: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HexTerrain:
    """`hex 26.16 open town`: a hex's terrain, TEC hex rows; `marked rubble`: the markers on it, which a
    rule's condition reads (`hex is rubble`)."""

    span: Span = _span()
    hex: Text
    terrain: tuple[Text, ...]
    markers: tuple[Text, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class HexsideFeatures:
    """`hexside 23.16/24.16 river bridge`: the TEC hexside rows on a hexside."""

    span: Span = _span()
    hexside: Text
    features: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoadLine:
    """`road [trail] 26.16 26.17 26.18`: a road along these hexes, in order; `road` None: the TEC's first road row."""

    span: Span = _span()
    road: Text | None
    hexes: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SupplySource:
    """`source allies 22.14 22.15`: the hexes a side traces supply to."""

    span: Span = _span()
    side: Text
    hexes: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SituationUnit:
    """`unit 7 axis 2-3-5 at 25.16 steps 2 type armor size division can exploit marked dg started 25.17`."""

    span: Span = _span()
    name: Text
    side: Text
    strengths: tuple[Text, ...]    # the counter's attack, defense and MA, as written (validate: three numbers)
    hex: Text
    steps: int | None
    type: Text | None
    size: Text | None
    capabilities: tuple[Text, ...]
    states: tuple[Text, ...]
    started: Text | None           # where it began the phase, when it moved
    no_attack_strength: bool       # its first value is no Attack Strength


@dataclass(frozen=True, slots=True, kw_only=True)
class Done:
    """`done overrun 5 6 on 10.08 in movement`: an overrun or an attack already made this player turn, for the
    rules that count them; `phase` None: in the situation's own phase."""

    span: Span = _span()
    kind: DoneKind
    units: tuple[Text, ...]
    hex: Text
    phase: Text | None


# ---- worked examples' queries: one node pair per kind of `expect` line ----------
# Each kind of query is a node with only the fields it has, and its result (what the line says the rules
# answer) a node of its own; `kind` is a class constant, not a field.  The behaviour of each kind (printing it
# back, asking the engine, comparing, its checks, what mutation testing needs) is its module in
# rulesdsl/queries, registered by kind; tests/test_queries.py fails when a kind lacks its pair, its builder
# or its module.
@dataclass(frozen=True, slots=True, kw_only=True)
class MoveResult:
    """`costs N... [total N] [legal|illegal]`, or a ruling alone."""

    span: Span = _span()
    costs: tuple[Fraction, ...]    # MPs per hex entered
    total: Fraction | None         # MPs in all
    ruling: Ruling | None          # legal, illegal


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveQuery:
    """`move UNIT HEX... [mode M] [saved N]`: what a move along a path costs, and whether it is legal."""

    kind: ClassVar[ExpectKind] = ExpectKind.MOVE
    span: Span = _span()
    unit: Text
    path: tuple[Text, ...]
    mode: Text | None              # the movement mode (`mode road`); None: regular
    saved: Fraction | None         # MPs the unit claims to have kept from an earlier phase (`saved 2`)
    result: MoveResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class HexSetResult:
    """`HEX... [not HEX...]`: hexes in a set the rules answer (reach, zoc), and hexes not in it."""

    span: Span = _span()
    hexes: tuple[Text, ...]
    absent: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReachQuery:
    """`reach UNIT [mode M]`: the hexes a unit may reach this phase."""

    kind: ClassVar[ExpectKind] = ExpectKind.REACH
    span: Span = _span()
    unit: Text
    mode: Text | None
    result: HexSetResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class ZocQuery:
    """`zoc SIDE`: the hexes in a side's zones of control."""

    kind: ClassVar[ExpectKind] = ExpectKind.ZOC
    span: Span = _span()
    side: Text
    result: HexSetResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class StackResult:
    """`[legal|illegal] [size N] [excess UNIT...|excess chosen] [destroyed|leave|undone]`."""

    span: Span = _span()
    ruling: Ruling | None              # legal, illegal
    size: Fraction | None              # in what the stacking limit counts
    excess: tuple[Text, ...] | None    # the units over the limit, bottom first; () when the owner picks them
                                       # (`excess chosen`); None: not compared
    fate: StackFate | None             # what becomes of the excess


@dataclass(frozen=True, slots=True, kw_only=True)
class StackQuery:
    """`stack HEX [when MOMENT] [by UNIT...] [arrived UNIT...]`: a hex's stack against the stacking limit."""

    kind: ClassVar[ExpectKind] = ExpectKind.STACK
    span: Span = _span()
    hex: Text
    moment: Text | None            # when the limit is checked (`when overrun`); None: at the phase's end
    by: tuple[Text, ...]           # the units overrunning from the hex (with `when overrun`)
    arrived: tuple[Text, ...]      # units that came into the hex by a retreat
    result: StackResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class SupplyResult:
    """`in` or `out`."""

    span: Span = _span()
    ruling: Ruling


@dataclass(frozen=True, slots=True, kw_only=True)
class SupplyQuery:
    """`supply UNIT`: whether a unit traces a supply path."""

    kind: ClassVar[ExpectKind] = ExpectKind.SUPPLY
    span: Span = _span()
    unit: Text
    result: SupplyResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class OverrunResult:
    """`allowed [cost N] [left N]` or `refused [RULE...]`."""

    span: Span = _span()
    ruling: Ruling                      # allowed, refused
    refused_by: tuple[Text, ...] | None  # the rules that refuse it (`refused [6.0 6.0b]`); None: not compared
    cost: Fraction | None               # MPs spent in the hex it is made from
    left: Fraction | None               # MPs left after it


@dataclass(frozen=True, slots=True, kw_only=True)
class OverrunQuery:
    """`overrun UNIT... from HEX on HEX`: whether the units may overrun a hex from the one beside it."""

    kind: ClassVar[ExpectKind] = ExpectKind.OVERRUN
    span: Span = _span()
    units: tuple[Text, ...]
    origin: Text                   # the hex it is made from (`from`)
    target: Text                   # the hex overrun (`on`)
    result: OverrunResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class ExploitResult:
    """`allowed [mp N] [unready-above N]` or `refused [RULE...]`."""

    span: Span = _span()
    ruling: Ruling
    refused_by: tuple[Text, ...] | None
    mp: Fraction | None                 # the MPs the unit may use
    unready_above: Fraction | None      # moving more MPs than this marks the unit unready


@dataclass(frozen=True, slots=True, kw_only=True)
class ExploitQuery:
    """`exploit UNIT`: whether a unit may move in the exploitation phase, and how far."""

    kind: ClassVar[ExpectKind] = ExpectKind.EXPLOIT
    span: Span = _span()
    unit: Text
    result: ExploitResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackResult:
    """`allowed [must-attack UNIT...|must-attack none]` or `refused [RULE...]`."""

    span: Span = _span()
    ruling: Ruling
    refused_by: tuple[Text, ...] | None
    must_attack: tuple[Text, ...] | None   # the enemy units that must be attacked too; None: not compared


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackQuery:
    """`attack UNIT... on HEX...`: whether the units may attack the hexes."""

    kind: ClassVar[ExpectKind] = ExpectKind.ATTACK
    span: Span = _span()
    units: tuple[Text, ...]
    targets: tuple[Text, ...]
    result: AttackResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class RetreatResult:
    """`loss N [via HEX...] [not via HEX...] [together|apart]` or `eliminated`."""

    span: Span = _span()
    eliminated: bool
    loss: Fraction | None
    via: tuple[Text, ...]              # a path the rules leave open
    closed: tuple[Text, ...]           # a path they do not (`not via`)
    apart: bool | None                 # the units may part (`apart`) or keep together (`together`); None: not compared


@dataclass(frozen=True, slots=True, kw_only=True)
class RetreatQuery:
    """`retreat UNIT... HEXES [from UNIT...] [breakthrough] [refuse N]`: a retreat's loss and paths."""

    kind: ClassVar[ExpectKind] = ExpectKind.RETREAT
    span: Span = _span()
    units: tuple[Text, ...]
    hexes: int | None              # hexes to retreat (None: the last word was no number; checks report it)
    attackers: tuple[Text, ...]    # the units it retreats from (`from`)
    refuse: int | None             # hexes taken as step losses instead (`refuse 1`)
    result: RetreatResult | None
    breakthrough: bool = False     # the result is a breakthrough (`breakthrough`)
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class AdvanceResult:
    """`hexes N [to HEX... not HEX...] [must-enter]` or `refused`."""

    span: Span = _span()
    refused: bool
    hexes: Fraction | None         # how far it may advance
    to: tuple[Text, ...]           # hexes it may enter
    absent: tuple[Text, ...]       # hexes it may not (`not`)
    must_enter: bool               # the units must enter the vacated hex (after an overrun)


@dataclass(frozen=True, slots=True, kw_only=True)
class AdvanceQuery:
    """`advance UNIT... into HEX after N [destroyed] [overrun] [breakthrough] [via HEX...] [refuse N]`."""

    kind: ClassVar[ExpectKind] = ExpectKind.ADVANCE
    span: Span = _span()
    units: tuple[Text, ...]
    into: Text                     # the hex the loser vacated
    after: int                     # the hexes of the retreat it follows
    destroyed: bool                # the defender was destroyed
    overrun: bool                  # after an overrun
    breakthrough: bool             # after a breakthrough result
    via: tuple[Text, ...]          # the loser's retreat path
    refuse: int | None             # hexes of that retreat taken as step losses
    result: AdvanceResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatResult:
    """`odds 3:1 column 3:1 roll 4 result D1 exchange 6 by b c`, each part given or not."""

    span: Span = _span()
    odds: Text | None
    column: Text | None
    roll: int | None               # the dice total the table is read at
    dice: tuple[int, int] | None   # the white and the red die apart (`roll white 3 red 5`); `roll` is then None
    outcome: Text | None
    exchange: Fraction | None      # the least an exchange costs the attacker (combat.exchange_measure)
    exchange_by: tuple[Text, ...] = ()   # the attacking units that pay it (`exchange 6 by b c`)


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatQuery:
    """`combat UNIT... on HEX... [with SITUATION, ...] [overrun] [forced]`: a combat's odds, column, result."""

    kind: ClassVar[ExpectKind] = ExpectKind.COMBAT
    span: Span = _span()
    units: tuple[Text, ...]
    targets: tuple[Text, ...]
    declared: tuple[Text, ...]     # the combat situations the players declare (`with river-assault`)
    overrun: bool                  # an overrun's combat
    forced: bool                   # an attack the rules require (combat.below_table_forced)
    result: CombatResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class EngageResult:
    """`fighting UNIT... sharing UNIT... spared UNIT... terrain HEX destroyed UNIT... exposed UNIT...
    attacker retreats N defender retreats N`, each part given or not, or `refused`."""

    span: Span = _span()
    refused: bool
    fighting: tuple[Text, ...]     # the defenders whose strength counts
    sharing: tuple[Text, ...]      # units that add nothing but share the result
    spared: tuple[Text, ...]       # units in a combat hex the result leaves alone
    terrain: Text | None           # the hex whose terrain counts
    destroyed: tuple[Text, ...]    # units destroyed beyond the steps lost
    exposed: tuple[Text, ...]      # units any adverse result destroys (over the stacking limit)
    attacker_retreat: int | None   # the hexes each side retreats, as carried out; None: not compared
    defender_retreat: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class EngageQuery:
    """`engage UNIT... on HEX... [defending UNIT...] [arrived UNIT...] [overrun] [result R]`."""

    kind: ClassVar[ExpectKind] = ExpectKind.ENGAGE
    span: Span = _span()
    units: tuple[Text, ...]
    targets: tuple[Text, ...]
    defending: tuple[Text, ...]    # the defenders the owner names
    arrived: tuple[Text, ...]      # units that retreated into a target hex before it was attacked
    overrun: bool
    given: Text | None             # the result read from the table (`result D1r1`)
    result: EngageResult | None
    text: str = _as_written()


@dataclass(frozen=True, slots=True, kw_only=True)
class PhasesResult:
    """The phases a turn has, in order."""

    span: Span = _span()
    phases: tuple[Text, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PhasesQuery:
    """`phases [SIDE] turn N`: the phases of a game turn (or of a side's player turn) on turn N."""

    kind: ClassVar[ExpectKind] = ExpectKind.PHASES
    span: Span = _span()
    side: Text | None              # the player turn; None: the whole game turn
    turn: int
    result: PhasesResult | None
    text: str = _as_written()


# An `expect` line's query (its result inside it; None: a bare query, as `rulesdsl explain` takes).
@dataclass(frozen=True, slots=True, kw_only=True)
class LossesResult:
    """`first UNIT... [by CHOOSER] [then UNIT... [by CHOOSER]] [lost N]`: who may take the first step and who
    picks it, who may take the second and who picks the rest, and how many steps are lost."""

    span: Span = _span()
    first: tuple[Text, ...]
    chooser: Text | None           # rules, owner or enemy
    then: tuple[Text, ...]
    then_chooser: Text | None = None
    lost: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class LossesQuery:
    """`losses UNIT... STEPS attacking|defending [from UNIT...]`: who of one side's units takes its step losses."""

    kind: ClassVar[ExpectKind] = ExpectKind.LOSSES
    span: Span = _span()
    units: tuple[Text, ...]
    steps: int | None              # the steps the result takes (None: the last word was no number; checks report it)
    attacking: bool                # the side attacked (`attacking`), else it defended (`defending`)
    enemies: tuple[Text, ...]      # the other side's units in the combat (`from`)
    result: LossesResult | None
    text: str = _as_written()


Query = Union[MoveQuery, ReachQuery, ZocQuery, StackQuery, SupplyQuery, OverrunQuery, ExploitQuery, AttackQuery,
              RetreatQuery, AdvanceQuery, CombatQuery, EngageQuery, PhasesQuery, LossesQuery]
QueryResult = Union[MoveResult, HexSetResult, StackResult, SupplyResult, OverrunResult, ExploitResult, AttackResult,
                    RetreatResult, AdvanceResult, CombatResult, EngageResult, PhasesResult, LossesResult]
QUERY_NODES: tuple[type, ...] = get_args(Query)
VERDICTS = (OverrunResult, ExploitResult, AttackResult)    # the results that may name the rules refusing it
QUERY_TYPES: dict[ExpectKind, type] = {getattr(t, "kind"): t for t in QUERY_NODES}
assert set(QUERY_TYPES) == set(ExpectKind) and len(QUERY_TYPES) == len(QUERY_NODES), \
    "every ExpectKind has one query node in Query"


@dataclass(frozen=True, slots=True, kw_only=True)
class Situation:
    """A situation as written: an example's body, or a file `rulesdsl explain` reads."""

    span: Span = _span()
    notes: tuple[Text, ...]
    maps: tuple[MapArea, ...]            # validate: exactly one
    hexes: tuple[HexTerrain, ...]
    hexsides: tuple[HexsideFeatures, ...]
    roads: tuple[RoadLine, ...]
    sources: tuple[SupplySource, ...]
    phasing: tuple[Text, ...]            # validate: at most one
    phase: tuple[Text, ...]              # validate: at most one
    units: tuple[SituationUnit, ...]
    done: tuple[Done, ...]               # what was already made this phase and player turn
    assumed: tuple[Parameter, ...]       # values the situation takes as given (`assume stacking.limit = 6 steps`)
    expectations: tuple[Query, ...]
    turn: tuple[Text, ...] = ()          # `turn 3`: the game turn it is (validate: at most one, a turn from 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class Example:
    """`example "Title" [cites] { ... }`: a worked example, run against the resolved rules by `rulesdsl check`."""

    span: Span = _span()
    title: Text
    cites: tuple[Text, ...]
    situation: Situation


# ---- the player-aid card -------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Swatch:
    """`swatch woods "#3a7d44" hatch`: the colour (and pattern) a card shows beside a terrain's TEC row."""

    span: Span = _span()
    terrain: Text
    colour: Text              # as written: "#3a7d44", "#3a7"; validate checks it
    pattern: Text | None      # hatch, cross, dots, waves; None: plain


@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    """`card { sides 2 / paper a4 / reminders: odds zoc / swatch woods "#3a7d44" hatch / charts: turns }`: how
    the rulebook's player-aid card is printed.  Every line is optional; a game without one takes its series'."""

    span: Span = _span()
    sides: int | None              # the most sheet sides the card may take
    paper: Text | None             # a4, letter
    reminders: tuple[Text, ...]    # the reminders panel's topics, in the order printed
    swatches: tuple[Swatch, ...]
    charts: tuple[Text, ...]       # optional charts: lookup tables printed as a turn track or a schedule
    repeated: tuple[Text, ...]     # a setting written a second time (its keyword): an error validate reports
    sides_span: Span = _span()     # where `sides` is given, for validate's message


# ---- the rulebook ----------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class NotWhole:
    """A number written where a whole one is needed: the field holds its whole part, validate reports it."""

    span: Span = _span()
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Rulebook:
    span: Span = _span()
    kind: Text
    id: Text
    title: Text
    version: Text | None
    extends: Text | None
    rules: tuple[Rule, ...]
    unit_types: tuple[UnitTypes, ...]
    vocabulary: tuple[Vocabulary, ...]
    parameter_declarations: tuple[ParameterDeclarations, ...]
    modifiers: tuple[Modifiers, ...]
    shifts: tuple[Shifts, ...]
    adjustments: tuple[Adjustments, ...]
    unit_factors: tuple[UnitFactors, ...]
    rounding: tuple[Rounding, ...]
    sequence: tuple[SequenceOfPlay, ...]
    terrain: tuple[TerrainChart, ...]
    results: tuple[ResultsTable, ...]
    result_codes: tuple[ResultCodes, ...]
    tables: tuple[LookupTable, ...]
    labels: tuple[Labels, ...]
    examples: tuple[Example, ...]
    card: tuple[Card, ...]
    # how numbers were mis-written, not what the rulebook means: out of equality and of the statements
    not_whole: tuple[NotWhole, ...] = field(compare=False, repr=False)

    @property
    def path(self) -> str:
        return self.span.path

    def statements(self) -> Iterator[Statement]:
        """Every top-level block of the rulebook, grouped by kind in the order of STATEMENTS."""
        for name in STATEMENT_FIELD.values():
            yield from getattr(self, name)


Statement = Union[Rule, UnitTypes, Vocabulary, ParameterDeclarations, Modifiers, Shifts, Adjustments, UnitFactors, Rounding,
                  SequenceOfPlay, TerrainChart, ResultsTable, ResultCodes, LookupTable, Labels, Example, Card]

# The statement kinds, read off Rulebook's fields (each a tuple of one kind of block): adding a block kind
# is adding a field there, and every consumer that dispatches on STATEMENTS must then handle it
# (tests/test_walk.py checks each consumer's table).
STATEMENT_FIELD: dict[type, str] = {}
for _field in fields(Rulebook):
    _hint = get_type_hints(Rulebook)[_field.name]
    if _field.compare and get_origin(_hint) is tuple:
        STATEMENT_FIELD[get_args(_hint)[0]] = _field.name
STATEMENTS: tuple[type, ...] = tuple(STATEMENT_FIELD)
assert set(STATEMENTS) == set(get_args(Statement)), "Statement and Rulebook's fields disagree"

# Every node type of the model (every dataclass of this module but the resolved wrappers).
NODES: tuple[type, ...] = tuple(
    obj for obj in list(globals().values())
    if isinstance(obj, type) and is_dataclass(obj) and obj.__module__ == __name__
    and obj.__name__ not in ("Effective", "EffectiveParameter", "Resolved", "Amended"))


# ---- the resolved rulebook: what is in effect after overrides ----------------
N = TypeVar("N", covariant=True)


@dataclass(frozen=True, slots=True)
class Amended:
    """One item of a definition in effect that an `amend` changed: its own provenance."""

    key: str        # a parameter's name, a terrain row's name, a CRT cell as "3:1 x 4"
    text: str       # what is in effect, as written: "A1", "woods 3 Dx2", "D1r2"
    origin: str     # id of the rulebook whose amendment is in effect
    span: Span = _span()
    cites: tuple[str, ...] = ()     # the rules the amendment cites (`amend die roll modifiers [G1.2]`)


@dataclass(frozen=True, slots=True)
class Effective(Generic[N]):
    """A definition in effect, with the rulebook it comes from (and the items amendments changed)."""

    node: N
    origin: str                  # id of the rulebook whose definition is in effect
    amended: tuple[Amended, ...] = ()   # items another rulebook amended, nearest amendment in effect

    def item_origin(self, key: str) -> str:
        """The rulebook an item of this definition comes from."""
        return next((a.origin for a in self.amended if a.key == key), self.origin)

    def item_cites(self, key: str) -> tuple[str, ...] | None:
        """The rules the amendment that changed an item cites; None when no amendment changed it (or cited)."""
        return next((a.cites for a in self.amended if a.key == key and a.cites), None)


@dataclass(frozen=True, slots=True)
class EffectiveParameter:
    name: str
    value: object                # typed: Quantity, int, Fraction, bool, str, tuple
    rule: str
    origin: str
    span: Span = _span()
    on_turns: tuple[EffectiveTurnValue, ...] = ()   # its values on some game turns only, in rule order


@dataclass(frozen=True, slots=True)
class EffectiveTurnValue:
    """A parameter's value on some game turns only (`zoc.entry_cost = +0 MP  on night`), resolved: the turns
    as written, their spans ((3, 3), (9, None): 9 and every later turn), the value and the rule that sets it."""

    turns: PhaseTurns
    spans: tuple[tuple[int, int | None], ...]
    value: object
    rule: str
    origin: str
    span: Span = _span()


# ---- what resolution knows of a rulebook's chain -------------------------------------------

@dataclass(frozen=True, slots=True)
class ParamType:
    """What a parameter takes: quantity (2 MP), modifier (+2 MP), count (3), number (1/2), flag (yes/no),
    choice (one word of `options`), order (a list of words of `options`), result (a CRT code, like A1)."""

    kind: ParamKind
    unit: str | None = None            # canonical (a key of UNITS), for quantity and modifier
    options: tuple[str, ...] = ()      # for choice and order

    def describe(self) -> str:
        return {
            "quantity": f"a quantity in {self.unit} (like {unit_text(2, self.unit)})",
            "modifier": f"a signed change in {self.unit} (like {unit_text('+2', self.unit)})",
            "count": "a whole number (like 3)",
            "number": "a number (like 1/2)",
            "flag": "yes or no",
            "choice": "one of " + ", ".join(self.options),
            "order": "a comma-separated list of " + ", ".join(self.options),
            "result": "a combat result (like A1 or D1r2)",
        }[self.kind]

    def example(self, amount: int = 1) -> str:
        """A value of this type, as a rulebook writes it: '1 step', '+1 MP', 'yes', the first option."""
        if self.kind == ParamKind.QUANTITY:
            return unit_text(amount, self.unit)
        if self.kind == ParamKind.MODIFIER:
            return unit_text(f"+{amount}", self.unit)
        return {"count": str(amount), "number": "1/2", "flag": "yes", "result": "A1",
                "choice": self.options[0] if self.options else "",
                "order": ", ".join(self.options[:2])}[self.kind]

    def declared(self) -> str:
        """The type as a `parameters` block writes it: 'modifier MP', 'choice a, b', 'flag'."""
        if self.unit is not None:
            return f"{self.kind} {self.unit}"
        return f"{self.kind} {', '.join(self.options)}".strip()


@dataclass(frozen=True, slots=True)
class Declared:
    """A parameter of a rulebook's vocabulary: its type, its meaning, and where it is declared."""

    name: str
    type: ParamType
    meaning: str
    origin: str                  # the id of the rulebook that declares it, or CORE
    span: Span | None = None     # the core vocabulary's: in the installed rulesdsl/core/vocabulary.rules
    descriptive: Reason | None = None   # why no engine function reads it (`descriptive REASON`)


CORE = "core"


@dataclass
class Names:
    """What a resolved rulebook declares that expressions may name (not the `unit states:` node Vocabulary)."""

    unit_types: dict[str, tuple[str, ...]] = field(default_factory=dict)   # type -> capabilities
    states: set[str] = field(default_factory=set)
    parameters: dict[str, str] = field(default_factory=dict)                # parameter in effect -> kind
    situations: set[str] = field(default_factory=set)
    amounts: set[str] = field(default_factory=set)
    terrain: dict[str, str] = field(default_factory=dict)                  # name -> hex/hexside/road
    definitions: dict[str, Definition] = field(default_factory=dict)

    @property
    def unit_words(self) -> set[str]:
        words = set(self.unit_types)
        for capabilities in self.unit_types.values():
            words |= set(capabilities)
        return words | self.states



@dataclass(frozen=True, slots=True)
class Resolved:
    rulebook: Rulebook
    ancestors: tuple[Rulebook, ...]             # nearest first
    rules: tuple[Effective[Rule], ...]                # Effective(Rule), in rule order
    parameters: tuple[EffectiveParameter, ...]  # by name
    rounding: Effective[Rounding] | None = None
    threshold: Fraction | None = None           # where the rounding rounds up
    sequence: Effective[SequenceOfPlay] | None = None
    terrain: Effective[TerrainChart] | None = None
    results: Effective[ResultsTable] | None = None
    favour_defender: bool = False               # odds round for the defender
    modifiers: Effective[Modifiers] | None = None
    shifts: Effective[Shifts] | None = None
    tables: tuple[Effective[LookupTable], ...] = ()
    vocabulary: Names = field(kw_only=True)      # what expressions may name
    definitions: tuple[tuple[Definition, str, str, str], ...] = ()   # (Definition, kind, rule id, origin),
                                                                      # in dependency order
    adjustments: Effective[Adjustments] | None = None
    unit_factors: Effective[UnitFactors] | None = None
    result_codes: Effective[ResultCodes] | None = None
    declared: Mapping[str, Declared] = field(default_factory=dict, kw_only=True)   # the parameters it may set

    @property
    def id(self) -> str:
        return self.rulebook.id.value
