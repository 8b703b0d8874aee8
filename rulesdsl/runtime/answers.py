"""What the rules engine answers: plain immutable records, each with its derivation (`steps`)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from .hexmap import Hex
from .ruleset import Step

__all__ = ["Advance", "Engagement", "Losses", "Move", "Reach", "Refusal", "Retreat", "StackCheck", "SupplyTrace",
           "Verdict", "Zones", "as_hex"]


def as_hex(hex: Hex | str) -> Hex:
    return hex if isinstance(hex, Hex) else Hex.parse(hex)


@dataclass(frozen=True, slots=True)
class Zones:
    """The hexes in a side's ZOCs, each with the units that exert it there.

    hinders: the sides whose units these ZOCs hinder (the other sides, and this one where a side's ZOCs
    affect its own units); negated: hexes where the other side's own ZOCs cancel these; weight: how many
    ZOCs count in each hex (each unit's where several ZOCs add their effects, else one)."""

    side: str
    hexes: Mapping[Hex, tuple[str, ...]]
    steps: tuple[Step, ...] = ()
    hinders: frozenset[str] = frozenset()
    negated: frozenset[Hex] = frozenset()
    weight: Mapping[Hex, int] = field(default_factory=dict)

    def __contains__(self, hex: object) -> bool:
        return hex in self.hexes


@dataclass(frozen=True, slots=True)
class Move:
    """A move along a path: the MPs each hex entered cost (None where it may not be entered), their running
    total, and whether the whole move is legal; `reason` says why not.  `allowance` is the MPs the unit
    may spend in this move (its MA as supply, the movement mode and saved MPs make it); `mode` is regular,
    road or reaction."""

    unit: str
    path: tuple[Hex, ...]
    costs: tuple[Fraction | None, ...]
    total: Fraction
    allowance: Fraction
    legal: bool
    refusals: tuple[Refusal, ...] = ()     # why not, each with the rule of the step deciding it
    steps: tuple[Step, ...] = ()
    mode: str = "regular"

    @property
    def reason(self) -> str | None:
        """Why the move is illegal, in words (None: it is legal)."""
        return "; ".join(r.reason for r in self.refusals) or None


@dataclass(frozen=True, slots=True)
class Reach:
    """The least MPs to each hex a unit may reach this phase (its own hex at 0), and for each a path of that
    cost (the hexes entered) that `move` accepts."""

    unit: str
    costs: Mapping[Hex, Fraction]
    steps: tuple[Step, ...] = ()
    paths: Mapping[Hex, tuple[Hex, ...]] = field(default_factory=dict)

    def __contains__(self, hex: object) -> bool:
        return hex in self.costs


@dataclass(frozen=True, slots=True)
class StackCheck:
    hex: Hex
    legal: bool
    size: Fraction                 # what counts against the limit, in the limit's unit
    limit: Fraction | None         # None: no limit
    unit: str                      # the limit's unit: step or unit
    excess: tuple[str, ...] = ()   # units that would have to go, when the owner does not choose
    steps: tuple[Step, ...] = ()
    # why the stack is illegal (over the limit, the wrong unit on top), each with the rule of the step deciding it
    refusals: tuple[Refusal, ...] = ()
    over: Fraction = Fraction(0)   # how far over the limit, in the limit's unit
    eliminated: bool = False       # whether the units over the limit are destroyed (else they must leave)
    owner_chooses: bool = False    # whether the owner picks them (then `excess` is empty)
    undone: bool = False           # an overrun that breaks the limit is taken back, and the move made again

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why the stack is illegal, in the order the refusals were made."""
        return tuple(r.reason for r in self.refusals)


@dataclass(frozen=True, slots=True)
class SupplyTrace:
    unit: str
    in_supply: bool
    path: tuple[Hex, ...] = ()     # a trace, from the unit to a source, when there is one
    steps: tuple[Step, ...] = ()
    isolated: bool = False         # out of supply and cut off, where the rulebook has isolation


@dataclass(frozen=True, slots=True)
class Retreat:
    """A retreat of `units` by `hexes`: the legal paths (best first), the steps lost on the best one, and
    whether the stack is eliminated.

    A path lists the hexes entered, the retreating hex excluded; `((),)` is a retreat of no hex (all refused
    or ignored).  refused: hexes turned into step losses; blocked: hexes that could not be made (the paths
    are then the longest ones open); ignored: a one-hex retreat the terrain lets the defender ignore;
    off_map: destroyed for leaving the map; split: when the units take separate paths, one retreat each;
    apart: the stack's units may each take any of the paths (they need not stay stacked), not one path all."""

    units: tuple[str, ...]
    hexes: int
    paths: tuple[tuple[Hex, ...], ...]
    loss: int
    eliminated: bool = False
    steps: tuple[Step, ...] = ()
    refused: int = 0
    blocked: int = 0
    ignored: bool = False
    off_map: bool = False
    split: tuple[Retreat, ...] = ()
    apart: bool = False

    @property
    def legal(self) -> bool:
        return bool(self.paths)


@dataclass(frozen=True, slots=True)
class Advance:
    """An advance after combat: whether it may be made, how far (the farthest any unit may go; `limits` per
    unit) and the hexes it may reach; `required`: the units must enter the vacated hex (after an overrun);
    `reason` says why not."""

    units: tuple[str, ...]
    allowed: bool
    hexes: int                     # how many hexes the advance may go
    reachable: tuple[Hex, ...] = ()
    steps: tuple[Step, ...] = ()
    limits: Mapping[str, int] = field(default_factory=dict)
    required: bool = False
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Engagement:
    """Who takes part in a combat and who suffers its result.

    attackers, defenders: the units whose strengths count; terrain_hex: the hex whose terrain the combat
    reads; sharing: units that add nothing but suffer the result; spared: units in a combat hex the result
    leaves alone; lost_if_adverse: units destroyed by any result adverse to their side.  Given the result
    read from the table: the retreats carried out, and the units destroyed beyond the step losses; given
    what an exchange costs (`Resolution.exchange`), `exchanged`: the attacking units one choice meeting its
    least loss removes (empty when the loss is counted in steps or units: the attacker chooses)."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    terrain_hex: Hex
    sharing: tuple[str, ...] = ()
    spared: tuple[str, ...] = ()
    lost_if_adverse: tuple[str, ...] = ()
    allowed: bool = True
    reasons: tuple[str, ...] = ()
    steps: tuple[Step, ...] = ()
    attacker_retreat: int = 0
    defender_retreat: int = 0
    destroyed: tuple[str, ...] = ()
    exchanged: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Refusal:
    """One reason something may not be done, made where the refusal is decided: its text, and the rule (and
    parameter) of the step that decides it. A reason that is a fact of the situation (no enemy in the hex)
    has no rule."""

    reason: str
    rule: str | None = None
    parameter: str | None = None
    origin: str | None = None      # the rulebook that sets the rule, and where (Step.origin, Step.source)
    source: str | None = None

    @classmethod
    def citing(cls, reason: str, step: Step) -> Refusal:
        """The refusal `step` decides: it cites the step's rule and parameter, and where the rule is set."""
        return cls(reason, step.rule, step.parameter, step.origin, step.source)


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether something may be done (an overrun, an exploitation move, an attack), why not (`refusals`, each
    with its rule), and what it costs where it has a cost."""

    allowed: bool
    refusals: tuple[Refusal, ...] = ()
    cost: Fraction | None = None
    steps: tuple[Step, ...] = ()
    # an overrun: `cost` is what the stack spends in the hex it overruns from (entering it and the
    # overrun); `total` adds the rest of its move there; `remaining` is what it has left after the overrun
    total: Fraction | None = None
    remaining: Fraction | None = None
    # an exploitation move: the MPs it may use (None: the rulebook does not give the whole MA), the MPs beyond
    # which it is marked unready, and for a unit that may not exploit, whether it may make the minimum move
    allowance: Fraction | None = None
    unready_above: Fraction | None = None
    minimum_move: bool = False
    # an attack: the enemy units that must also be attacked this phase
    must_also_attack: tuple[str, ...] = ()

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why not, in the order the refusals were made."""
        return tuple(r.reason for r in self.refusals)

    @property
    def refused_by(self) -> tuple[str, ...]:
        """The rules that refuse it, in the order of its refusals, each once: the rule each refusal carries. A
        refusal that is a fact of the situation (no enemy in the hex) cites no rule and adds none."""
        found: list[str] = []
        for refusal in self.refusals:
            if refusal.rule is not None and refusal.rule not in found:
                found.append(refusal.rule)
        return tuple(found)


@dataclass(frozen=True, slots=True)
class Losses:
    """A side's step losses in one combat: `asked` the result's, `lost` those its units can take (the rest
    ignored where the rules say so); `first` the units that may take the first step and who picks it
    (`chooser`: rules, owner or enemy); `then` the units that may take the second, and who picks the rest
    (`then_by`)."""

    units: tuple[str, ...]
    asked: int
    lost: int
    first: tuple[str, ...]
    chooser: str
    then: tuple[str, ...]
    then_by: str
    steps: tuple[Step, ...] = ()
