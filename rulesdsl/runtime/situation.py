"""A situation on the map: hexes and their terrain, hexsides, roads, and the counters on them.

The rules engine (`rulesdsl.runtime.engine`) answers questions about a `Situation`; `example` blocks and
`rulesdsl explain` build one from the situation notation.  Everything here is plain immutable data: moving a
unit gives a new situation (`Situation.moved`).

Terrain names are the rows of the rulebook's Terrain Effects Chart: a hex holds one or more hex terrains
(woods, or open and a town), a hexside holds hexside features (stream, river and bridge), and a road is a
road-kind row running across a hexside between two hexes, so that "following the road" is a property of
the step from one hex to the next.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import KW_ONLY, dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType

from .hexmap import Hex, HexMap, Hexside

__all__ = ["NOTHING_YET", "Counter", "Record", "Situation"]

_EMPTY_SIDES: Mapping[Hexside, tuple[str, ...]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Counter:
    """A unit on the map, as its counter shows it.

    attack, defense, movement: the printed values (an SCS counter's 3-2-9); `has_attack_strength` is False for
    a value that is not an Attack Strength (barrage, supply range, defense only: rule 2.0a of the SCS).
    capabilities: what the counter says the unit may do, by the rulebook's words: `exploit` for the yellow
    box, `mechanized`, `armored`, `foot`, `artillery` ...  states: markers on it (out-of-supply, disrupted).
    """

    name: str
    side: str
    hex: Hex
    _: KW_ONLY
    attack: Fraction = Fraction(0)
    defense: Fraction = Fraction(0)
    movement: Fraction = Fraction(0)
    steps: int = 1
    type: str = ""
    size: str = ""
    capabilities: frozenset[str] = frozenset()
    states: frozenset[str] = frozenset()
    has_attack_strength: bool = True

    def __post_init__(self) -> None:
        values: tuple[tuple[str, object], ...] = (
            ("attack", self.attack), ("defense", self.defense), ("movement", self.movement))
        for name, value in values:    # named one by one: mypy --strict with no Any (tests/test_types.py)
            if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
                raise TypeError(f"unit {self.name}: {name} must be an int or a Fraction, not {value!r}")
            exact: Fraction = Fraction(value)
            object.__setattr__(self, name, exact)
        if self.steps < 1:
            raise ValueError(f"unit {self.name}: a unit on the map has at least one step, not {self.steps}")
        capabilities: frozenset[str] = frozenset(self.capabilities)
        states: frozenset[str] = frozenset(self.states)
        object.__setattr__(self, "capabilities", capabilities)
        object.__setattr__(self, "states", states)

    def can(self, capability: str) -> bool:
        """Whether the counter shows `capability` (or is of that type)."""
        return capability in self.capabilities or capability == self.type

    def __str__(self) -> str:
        return f"unit {self.name}"


@dataclass(frozen=True, slots=True)
class Record:
    """What has already happened, for the rules that count it; every field defaults to "nothing yet".

    overruns: unit -> overruns it made this phase.  overrun_targets: hex -> times it was overrun this
    phase.  overran: units that made an overrun this player turn.  attacks: unit -> attacks it made this
    Combat Phase.  attacked: unit -> times it was attacked this Combat Phase.  turn_attacks: unit ->
    attacks it made this player turn, overruns included.  targets: unit -> the hex it attacks (or attacked)
    in another attack this phase.  overrun_hexes: unit -> the hex it overran this phase (the last).  `overrun`
    and `attack` give the record after one more of either.
    """

    overruns: Mapping[str, int] = field(default_factory=dict)
    overrun_targets: Mapping[Hex, int] = field(default_factory=dict)
    overran: frozenset[str] = frozenset()
    attacks: Mapping[str, int] = field(default_factory=dict)
    attacked: Mapping[str, int] = field(default_factory=dict)
    turn_attacks: Mapping[str, int] = field(default_factory=dict)
    targets: Mapping[str, Hex] = field(default_factory=dict)
    overrun_hexes: Mapping[str, Hex] = field(default_factory=dict)    # unit -> the hex it overran this phase

    def __post_init__(self) -> None:
        counts: dict[str, Mapping[str, int]] = {"overruns": self.overruns, "attacks": self.attacks,
                                                "attacked": self.attacked, "turn_attacks": self.turn_attacks}
        for name, mapping in counts.items():
            frozen: Mapping[str, int] = MappingProxyType(dict(mapping))
            object.__setattr__(self, name, frozen)
        hexes: Mapping[Hex, int] = MappingProxyType(dict(self.overrun_targets))
        object.__setattr__(self, "overrun_targets", hexes)
        targets: Mapping[str, Hex] = MappingProxyType(dict(self.targets))
        object.__setattr__(self, "targets", targets)
        overrun_hexes: Mapping[str, Hex] = MappingProxyType(dict(self.overrun_hexes))
        object.__setattr__(self, "overrun_hexes", overrun_hexes)
        overran: frozenset[str] = frozenset(self.overran)
        object.__setattr__(self, "overran", overran)

    def overrun(self, units: Iterable[str], target: Hex, *, this_phase: bool = True) -> Record:
        """The record after `units` overran `target`, in this phase or an earlier one of the player turn."""
        units = tuple(units)
        turn = {**self.turn_attacks, **{u: self.turn_attacks.get(u, 0) + 1 for u in units}}
        if not this_phase:
            return replace(self, overran=self.overran | set(units), turn_attacks=turn)
        return replace(self, overruns={**self.overruns, **{u: self.overruns.get(u, 0) + 1 for u in units}},
                       overrun_targets={**self.overrun_targets, target: self.overrun_targets.get(target, 0) + 1},
                       overrun_hexes={**self.overrun_hexes, **{u: target for u in units}},
                       overran=self.overran | set(units), turn_attacks=turn)

    def attack(self, units: Iterable[str], target: Hex, defenders: Iterable[str], *,
               this_phase: bool = True) -> Record:
        """The record after `units` attacked `defenders` in `target`, in this phase or an earlier one."""
        units = tuple(units)
        turn = {**self.turn_attacks, **{u: self.turn_attacks.get(u, 0) + 1 for u in units}}
        if not this_phase:
            return replace(self, turn_attacks=turn)
        return replace(self, attacks={**self.attacks, **{u: self.attacks.get(u, 0) + 1 for u in units}},
                       attacked={**self.attacked, **{d: self.attacked.get(d, 0) + 1 for d in defenders}},
                       targets={**self.targets, **{u: target for u in units}}, turn_attacks=turn)


NOTHING_YET = Record()


@dataclass(frozen=True, slots=True)
class Situation:
    """The map, what is on it, and whose turn it is.

    terrain: each hex's terrain names; a hex on the map but not listed has the `default_terrain`.  markers:
    the markers on a hex (rubble, interdicted), which a rule's condition reads (`hex is rubble`).
    hexsides: the features on a hexside (stream, river, bridge).  roads: the road row a road crossing a
    hexside belongs to (so a road through 26.16, 26.17, 26.18 is two entries).  supply_sources: the hexes a
    side traces supply to.  phasing: the side whose player turn it is; phase: the phase being played
    (movement, combat, exploitation ...).  started_in: where each unit began the phase, when it differs
    from where it stands (for the rules on units that start a phase in an enemy ZOC).  history: the
    overruns and attacks already made this phase and player turn.  turn: the game turn (1 the first), for the
    parameters a rulebook sets on some turns only (night, mud); None: an ordinary turn, the values of every turn.
    """

    map: HexMap
    _: KW_ONLY
    terrain: Mapping[Hex, tuple[str, ...]] = field(default_factory=dict)
    default_terrain: tuple[str, ...] = ()
    markers: Mapping[Hex, frozenset[str]] = field(default_factory=dict)
    hexsides: Mapping[Hexside, tuple[str, ...]] = field(default_factory=dict)
    roads: Mapping[Hexside, str] = field(default_factory=dict)
    units: tuple[Counter, ...] = ()
    supply_sources: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    phasing: str = ""
    phase: str = "movement"
    started_in: Mapping[str, Hex] = field(default_factory=dict)
    history: Record = NOTHING_YET
    turn: int | None = None
    # indexes made once (the engine asks of every hex and unit): the units by name and by hex, and the first
    # road crossing touching each hex; a situation of n units is read in O(n), not O(n) per question
    _by_name: Mapping[str, Counter] = field(init=False, repr=False, compare=False)
    _by_hex: Mapping[Hex, tuple[Counter, ...]] = field(init=False, repr=False, compare=False)
    _road_hexes: Mapping[Hex, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # typed locals first: object.__setattr__ takes Any, which mypy's no-Any check refuses
        terrain: Mapping[Hex, tuple[str, ...]] = MappingProxyType(dict(self.terrain))
        markers: Mapping[Hex, frozenset[str]] = MappingProxyType({h: frozenset(m) for h, m in self.markers.items()})
        hexsides: Mapping[Hexside, tuple[str, ...]] = MappingProxyType(dict(self.hexsides))
        roads: Mapping[Hexside, str] = MappingProxyType(dict(self.roads))
        sources: Mapping[str, frozenset[Hex]] = MappingProxyType(
            {k: frozenset(v) for k, v in self.supply_sources.items()})
        started_in: Mapping[str, Hex] = MappingProxyType(dict(self.started_in))
        units: tuple[Counter, ...] = tuple(self.units)
        object.__setattr__(self, "terrain", terrain)
        object.__setattr__(self, "markers", markers)
        object.__setattr__(self, "hexsides", hexsides)
        object.__setattr__(self, "roads", roads)
        object.__setattr__(self, "supply_sources", sources)
        object.__setattr__(self, "started_in", started_in)
        object.__setattr__(self, "units", units)
        if self.turn is not None and (isinstance(self.turn, bool) or not isinstance(self.turn, int) or self.turn < 1):
            raise ValueError(f"a game turn is a whole number from 1, not {self.turn!r}")
        by_name: dict[str, Counter] = {}
        by_hex: dict[Hex, list[Counter]] = {}
        duplicates: set[str] = set()
        for counter in units:
            if counter.name in by_name:
                duplicates.add(counter.name)
            by_name.setdefault(counter.name, counter)
            by_hex.setdefault(counter.hex, []).append(counter)
        if duplicates:
            raise ValueError(f"two units are named {min(duplicates)!r}")
        road_hexes: dict[Hex, str] = {}
        for side, road in roads.items():
            road_hexes.setdefault(side.low, road)
            road_hexes.setdefault(side.high, road)
        names: Mapping[str, Counter] = MappingProxyType(by_name)
        stacks: Mapping[Hex, tuple[Counter, ...]] = MappingProxyType({h: tuple(c) for h, c in by_hex.items()})
        road_at: Mapping[Hex, str] = MappingProxyType(road_hexes)
        object.__setattr__(self, "_by_name", names)
        object.__setattr__(self, "_by_hex", stacks)
        object.__setattr__(self, "_road_hexes", road_at)
        for hex in list(self.terrain) + [u.hex for u in self.units]:
            if hex not in self.map:
                raise ValueError(f"hex {hex} is not on the map")
        for side in list(self.hexsides) + list(self.roads):
            if not self.map.adjacent(side.low, side.high):
                raise ValueError(f"hexes {side.low} and {side.high} do not touch: {side} is no hexside")

    # ---- reading --------------------------------------------------------------------------------------
    def unit(self, name: str) -> Counter:
        unit = self._by_name.get(name)
        if unit is None:
            raise KeyError(f"no unit {name!r} in this situation")
        return unit

    def units_at(self, hex: Hex) -> tuple[Counter, ...]:
        return self._by_hex.get(hex, ())

    def sides(self) -> tuple[str, ...]:
        sides: dict[str, None] = {u.side: None for u in self.units}    # in order of first appearance
        return tuple(sides)

    def enemies_of(self, side: str) -> tuple[Counter, ...]:
        return tuple(u for u in self.units if u.side != side)

    def friends_of(self, side: str) -> tuple[Counter, ...]:
        return tuple(u for u in self.units if u.side == side)

    def occupied_by_enemy(self, hex: Hex, side: str) -> bool:
        return any(u.side != side for u in self.units_at(hex))

    def occupied_by_friend(self, hex: Hex, side: str) -> bool:
        return any(u.side == side for u in self.units_at(hex))

    def terrain_at(self, hex: Hex) -> tuple[str, ...]:
        return self.terrain.get(hex, self.default_terrain)

    def markers_at(self, hex: Hex) -> frozenset[str]:
        return self.markers.get(hex, frozenset())

    def hexside_features(self, a: Hex, b: Hex) -> tuple[str, ...]:
        if not self.hexsides:       # the searches ask of every step: no hexside is built for an empty map
            return ()
        return self.hexsides.get(Hexside.between(a, b), ())

    def road_between(self, a: Hex, b: Hex) -> str | None:
        """The road (its TEC row) the step from `a` to `b` follows, or None."""
        if not self.roads:
            return None
        return self.roads.get(Hexside.between(a, b))

    def has_road(self, hex: Hex) -> bool:
        return hex in self._road_hexes

    def road_at(self, hex: Hex) -> str | None:
        """The road (its TEC row) of the first road crossing that touches `hex`, or None."""
        return self._road_hexes.get(hex)

    def start_of(self, unit: Counter) -> Hex:
        """Where `unit` began the phase."""
        return self.started_in.get(unit.name, unit.hex)

    def neighbours(self, hex: Hex) -> tuple[Hex, ...]:
        return self.map.neighbours(hex)

    def __iter__(self) -> Iterator[Counter]:
        return iter(self.units)

    # ---- changing -------------------------------------------------------------------------------------
    def moved(self, names: Iterable[str], to: Hex) -> Situation:
        """The situation after the units `names` move to `to` (where they began the phase is kept)."""
        names = set(names)
        started = dict(self.started_in)
        units = []
        for unit in self.units:
            if unit.name in names:
                started.setdefault(unit.name, unit.hex)
                unit = replace(unit, hex=to)
            units.append(unit)
        return replace(self, units=tuple(units), started_in=started)

    def without(self, names: Iterable[str]) -> Situation:
        names = set(names)
        return replace(self, units=tuple(u for u in self.units if u.name not in names))
