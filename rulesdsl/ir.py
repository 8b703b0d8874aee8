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


@dataclass(frozen=True, slots=True)
class Rounding:
    span: Span = _span()
    name: Text = Text()
    spec: tuple[Text, ...] = ()   # each clause, words joined by a space
    cites: tuple[Text, ...] = ()


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


@dataclass(frozen=True, slots=True)
class TerrainRow:
    span: Span = _span()
    kind: str = "hex"          # hex, hexside or road
    name: Text = Text()
    movement: MovementCell = MovementCell()
    combat: CombatCell = CombatCell()


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
class ResultsTable:
    span: Span = _span()
    override: bool = False
    title: Text | None = None
    cites: tuple[Text, ...] = ()
    dice: Text = Text()
    columns: tuple[Text, ...] = ()
    rows: tuple[DiceRow, ...] = ()


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
    rounding: tuple[Rounding, ...] = ()
    sequence: tuple[SequenceOfPlay, ...] = ()
    terrain: tuple[TerrainChart, ...] = ()
    results: tuple[ResultsTable, ...] = ()

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

    @property
    def id(self) -> str:
        return self.rulebook.id.value
