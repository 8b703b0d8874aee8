"""Zones of control and movement: who has a ZOC and where, what a step costs, moves along a path and the
hexes a unit can reach.

Everything here is read from the contract's parameters (`rulesdsl.runtime.contract`, those that drive
`zoc` and `move`) and from the rows of the rulebook's Terrain Effects Chart; no series is named.  `move`
and `reachable` share one step function (`_Mover.step`), so that a hex is reachable at a cost exactly
when some path of that cost is a legal move.

Choices where the parameters leave something open (each is said in the derivation where it applies):

* A road is followed when the step crosses a hexside along it (a situation's roads are such crossings).
  `roads.continuous_path_required` set to no grants the road rate on entering any hex a road runs
  through; when it is absent the road is followed only along its crossings.
* Hexside rows of kind `add` (a "+1" on the chart) always add their MPs; `movement.hexside_cost_added`
  decides for hexside rows of kind `cost`: added to the hex's cost, or else the larger of the two.
* An unbridged river is a prohibited hexside row that some `negates` row of the chart (a bridge) can
  cancel.  `movement.river_crossing_fraction` lets units with the `infantry` capability cross one for
  that share of their printed MA, on top of the hex's cost.
* `movement.mechanized_prohibited_level`: units with the `mechanized` capability may not enter a hex whose
  terrain level (the highest of its terrains') is that or more, unless the step follows a road.
* Out of supply (the `out-of-supply` state): the MA is multiplied by the mechanized factor for
  `mechanized` units where the rulebook sets one, else by the general factor.
* `movement.fractions_kept`: an allowance or a cost the engine derives from an MA (a factor, a share) keeps
  its fraction unless the rulebook says fractions are not kept (then it is dropped); an allowance a supply
  penalty halves is rounded down first where `supply.penalties_round_down` says so.
* Leaving a hex in an enemy ZOC costs `zoc.exit_cost_fraction` of the printed MA on top of the step's
  terrain (fractions dropped when `zoc.exit_cost_rounds_down`, otherwise a whole MP).
* The minimum move: a move of at most `movement.minimum_move` hexes by a unit with an MA above zero is
  legal whatever it costs, when every hex of it may be entered (terrain, enemy units, ZOC rules).
* Road movement (`mode="road"`): every step follows a road; the first road row of the chart costs
  `road_movement.road_cost`, any other road row (a trail, a track) `road_movement.trail_cost`; no hex of
  the move (its start included) may be within `road_movement.enemy_distance` hexes of an enemy unit.
* Reaction (`mode="reaction"`): the non-phasing side moves `reaction.movement_fraction` of its MA.
* The moving unit's own ZOC never hinders it nor negates enemy ZOCs for it.
"""
from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import NamedTuple

from rulesdsl.core.facts import MODES

from . import effects
from .answers import Move, Reach, Refusal, Zones
from .arithmetic import Exact, exact, simplest
from .hexmap import Hex, HexMap
from .ruleset import RuleSet, Step
from .model import RuleEntry
from .situation import Counter, Situation
from .terrain import Terrain, followed_road, negated, road_cost, step_price

__all__ = ["enemy_zoc", "entry_cost", "exerts_zoc", "move", "reachable", "zoc"]

MECHANIZED = "mechanized"          # the capability word mechanized_prohibited_level and the supply factor read
RIVER_CROSSERS = "infantry"        # the capability that may cross an unbridged river for a share of the MA
OUT_OF_SUPPLY = "out-of-supply"    # the state the out-of-supply movement factors apply to
SIZE_TABLE = "unit-sizes"          # the rulebook table whose order ranks formation sizes

Log = Callable[[Step], None]


_UNKNOWN: tuple[Exact, bool, str] = (0, False, "")    # a memo's miss: a fresh object, never a stored value




def _nolog(step: Step) -> None:
    return None


def _mp(value: Fraction) -> str:
    return f"{value} MP"


# ---- ZOC ----------------------------------------------------------------------------------------------
def _amount_said(rules: RuleSet, amount: effects.Amount) -> str:
    """A `cost` effect's amount in a derivation: +1 MP, at least 1 MP, at most 6 MP, x 1/2 rounded down."""
    value = rules.amount_of(amount)
    if amount.how == "times":
        return f"x {value}{' rounded down' if amount.rounded_down else ''}"
    said = {"add": "+" if value >= 0 else "", "min": "at least ", "max": "at most "}.get(amount.how, "")
    return said + (_mp(value) if amount.unit in (None, "MP") else f"{value} {amount.unit}")


def _size_rank(rules: RuleSet) -> dict[str, int] | None:
    """Formation sizes by rank, smallest first, from the rulebook's unit-sizes table."""
    table = rules.tables.get(SIZE_TABLE)
    if table is None:
        return None
    row = table.rows.get("size") or next(iter(table.rows.values()), ())
    ranks = {str(symbol).lower(): index for index, symbol in enumerate(table.columns)}   # XX, III ...
    ranks.update({str(name).lower(): index for index, name in enumerate(row)})          # division, regiment ...
    return ranks


def _largest_size(rules: RuleSet, situation: Situation) -> int | None:
    ranks = _size_rank(rules)
    if ranks is None:
        return None
    known = [ranks[u.size.lower()] for u in situation.units if u.size and u.size.lower() in ranks]
    return max(known) if known else None


def exerts_zoc(rules: RuleSet, situation: Situation, unit: Counter) -> tuple[bool, Step]:
    """Whether `unit` has a ZOC, and the step that decided it."""
    found = rules.effect_holding("exert-zoc", {**effects.unit_facts(unit), **effects.time_facts(rules.turn_sets, situation)}) \
        if rules.effects_on("exert-zoc") else None
    if found is not None and found[1].kind == "forbid":
        return False, rules.cite_effect(*found, f"rule {found[0].id}: {unit} exerts no ZOC")
    if rules.terrain is not None:
        fort = next((r for r in _rows(rules, situation.terrain_at(unit.hex), "hex") if r.exerts_no_zoc), None)
        if fort is not None:
            return False, rules.cite_chart(f"{unit} is in the {fort.name} of {unit.hex}: a unit there exerts "
                                           "no ZOC")
    least = rules.amount("zoc.min_attack_strength")
    if least is not None:
        if not unit.has_attack_strength:
            return False, rules.cite("zoc.min_attack_strength", f"{unit} has no printed Attack Strength, so no ZOC")
        if unit.attack < least:
            return False, rules.cite("zoc.min_attack_strength",
                                     f"{unit} attacks at {unit.attack}, below {least}: no ZOC")
    if rules.flag("zoc.largest_formation_only"):
        ranks = _size_rank(rules)
        largest = _largest_size(rules, situation)
        if ranks is None or largest is None:
            return True, rules.cite("zoc.largest_formation_only",
                                    f"{unit} has a ZOC: no formation sizes are known to rank it against")
        size = unit.size.lower()
        if size not in ranks:
            return True, rules.cite("zoc.largest_formation_only",
                                    f"{unit} has a ZOC: its size is not given, so it is taken as the largest "
                                    "formation")
        row = rules.tables[SIZE_TABLE].rows
        named = row.get("size") or next(iter(row.values()), ())
        names = {rank: str(name) for rank, name in enumerate(named)}
        if ranks[size] < largest:
            return False, rules.cite("zoc.largest_formation_only",
                                     f"{unit} is a {size}, smaller than the largest formation in play "
                                     f"({names.get(largest, largest)}): no ZOC")
        return True, rules.cite("zoc.largest_formation_only",
                                f"{unit} is a {size}, the largest formation in play: it has a ZOC")
    if least is None:
        return True, rules.cite("zoc.min_attack_strength", f"{unit} has a ZOC (no least Attack Strength)")
    return True, rules.cite("zoc.min_attack_strength", f"{unit} has a ZOC")


def _raw_zoc(rules: RuleSet, situation: Situation, side: str, exclude: str | None,
             steps: list[Step]) -> dict[Hex, list[str]]:
    """The hexes each of `side`'s units (but `exclude`) holds in its ZOC."""
    reach = rules.amount("zoc.range")
    held: dict[Hex, list[str]] = {}
    if reach is None or reach < 1:
        steps.append(rules.cite("zoc.range", f"{side}'s units have no ZOC"))
        return held
    for unit in situation.friends_of(side):
        if unit.name == exclude:
            continue
        has, why = exerts_zoc(rules, situation, unit)
        steps.append(why)
        if not has:
            continue
        for hex in _zoc_hexes(rules, situation, unit, int(reach), steps):
            held.setdefault(hex, []).append(unit.name)
    return held


def _zoc_hexes(rules: RuleSet, situation: Situation, unit: Counter, reach: int, steps: list[Step]) -> list[Hex]:
    limited = rules.flag("zoc.limited_by_terrain")
    barred = rules.terrain is not None and any(r.no_zoc for r in rules.terrain.rows)
    if not limited and not barred:
        return [h for h in situation.map.within(unit.hex, reach) if h != unit.hex]
    # stepping out from the unit's own hex: never into a `no-zoc` hex nor across a `no-zoc` hexside, and where
    # ZOCs are limited by terrain, only into hexes the unit could enter in regular movement
    found: dict[Hex, int] = {unit.hex: 0}
    frontier = [unit.hex]
    for depth in range(1, reach + 1):
        if not frontier:        # nothing new was reached: a longer range reaches nothing more
            break
        following = []
        for here in frontier:
            for there in situation.neighbours(here):
                if there in found:
                    continue
                barrier = _zoc_barrier(rules, situation, here, there) if barred else None
                if barrier is not None:
                    steps.append(rules.cite_chart(f"{unit}'s ZOC does not extend {barrier}"))
                    continue
                if limited and _terrain(rules, situation, unit, here, there, _nolog).cost is None:
                    steps.append(rules.cite("zoc.limited_by_terrain",
                                            f"{unit}'s ZOC does not reach {there} from {here}: it could not "
                                            "enter it"))
                    continue
                found[there] = depth
                following.append(there)
        frontier = following
    return sorted(h for h in found if h != unit.hex)


def _zoc_barrier(rules: RuleSet, situation: Situation, here: Hex, there: Hex) -> str | None:
    """What keeps a ZOC in `here` from extending into `there`, in words: a hexside between them whose TEC row
    says `no-zoc` (unless another feature there negates it, a bridge its river), or the terrain of `there`."""
    features = _rows(rules, situation.hexside_features(here, there), "hexside")
    cancelled = negated(features)
    side = next((r for r in features if r.no_zoc and r.name.lower() not in cancelled), None)
    if side is not None:
        return f"across the {side.name} between {here} and {there}"
    ground = next((r for r in _rows(rules, situation.terrain_at(there), "hex") if r.no_zoc), None)
    if ground is not None:
        return f"into the {ground.name} of {there}"
    return None


def zoc(rules: RuleSet, situation: Situation, side: str, *, mover: str | None = None) -> Zones:
    """The hexes in the ZOCs of `side`'s units, whom they hinder, where friendly ZOCs cancel them, and how
    many ZOCs count in each hex.  `mover`: a unit whose own ZOC is left out (it moves with the unit)."""
    steps: list[Step] = []
    held = _raw_zoc(rules, situation, side, mover, steps)
    hexes = {h: tuple(n) for h, n in sorted(held.items())}
    if not hexes:
        return Zones(side, hexes, tuple(steps), hinders=frozenset(), weight={})
    others = frozenset(s for s in situation.sides() if s != side)
    if rules.flag("zoc.affects_friendly"):
        hinders = others | {side}
        steps.append(rules.cite("zoc.affects_friendly", f"{side}'s ZOCs hinder its own units too"))
    else:
        hinders = others
        steps.append(rules.cite("zoc.affects_friendly", f"{side}'s ZOCs do not hinder its own units"))
    negated: set[Hex] = set()
    if rules.flag("zoc.friendly_negates_enemy"):
        for other in sorted(others):
            theirs = _raw_zoc(rules, situation, other, mover, [])
            cancelled = sorted(set(theirs) & set(hexes))
            negated.update(cancelled)
            if cancelled:
                steps.append(rules.cite("zoc.friendly_negates_enemy",
                                        f"{other}'s own ZOCs cancel {side}'s in "
                                        f"{', '.join(map(str, cancelled))}"))
    else:
        steps.append(rules.cite("zoc.friendly_negates_enemy", "friendly ZOCs do not cancel enemy ZOCs"))
    if rules.flag("zoc.multiple_cumulative"):
        weight = {h: len(n) for h, n in hexes.items()}
        steps.append(rules.cite("zoc.multiple_cumulative", "several ZOCs in a hex add their effects"))
    else:
        weight = {h: 1 for h in hexes}
        steps.append(rules.cite("zoc.multiple_cumulative", "several ZOCs in a hex count as one"))
    return Zones(side, hexes, tuple(steps), hinders=hinders, negated=frozenset(negated), weight=weight)


def _hindering(rules: RuleSet, situation: Situation, side: str, mover: str | None,
               steps: list[Step]) -> dict[Hex, tuple[int, tuple[str, ...]]]:
    """The hexes whose ZOCs hinder a unit of `side` (the `mover`), with how many count there and whose."""
    found: dict[Hex, tuple[int, tuple[str, ...]]] = {}
    for other in situation.sides() or (side,):
        zones = zoc(rules, situation, other, mover=mover)
        steps.extend(zones.steps)
        if side not in zones.hinders:
            continue
        for hex, units in zones.hexes.items():
            if other != side and hex in zones.negated:
                continue
            weight, names = found.get(hex, (0, ()))
            found[hex] = (weight + zones.weight.get(hex, 1), names + units)
    return found


def enemy_zoc(rules: RuleSet, situation: Situation, side: str) -> set[Hex]:
    """The hexes in any enemy ZOC of `side` (those that friendly ZOCs cancel left out, where they do)."""
    hexes: set[Hex] = set()
    for other in situation.sides():
        if other != side:
            zones = zoc(rules, situation, other)
            hexes.update(h for h in zones.hexes if h not in zones.negated)
    return hexes


def _recording(log: Log, said: list[Step]) -> Log:
    """`log`, keeping in `said` each step it is given."""
    def logged(step: Step) -> None:
        said.append(step)
        log(step)
    return logged


def _refused(log: Log, step: Step, reason: str) -> Refusal:
    """Log `step`, the one deciding a refusal, and return the refusal citing its rule: the refusal is
    recorded where it is made, not found again from the steps' text."""
    log(step)
    return Refusal.citing(reason, step)


# ---- terrain ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Price:
    cost: Fraction | None
    road: str | None = None        # the road row followed, if any
    refusal: Refusal | None = None
    stop: str | None = None        # what ends the move there, if anything: "the swamp", "crossing the dyke"


def _rows(rules: RuleSet, names: Sequence[str], kind: str) -> list[Terrain]:
    chart = rules.terrain
    assert chart is not None
    rows = []
    for name in names:
        if name in chart and chart[name].kind == kind:
            rows.append(chart[name])
    return rows


def _first_road(rules: RuleSet) -> Terrain | None:
    chart = rules.terrain
    return next((r for r in chart.rows if r.kind == "road"), None) if chart is not None else None


def _river_rows(rules: RuleSet) -> set[str]:
    """Prohibited hexside rows a `negates` row can cancel: water barriers that bridges cross."""
    chart = rules.terrain
    if chart is None:
        return set()
    targets = negated(chart.rows)
    return {r.name.lower() for r in chart.rows
            if r.kind == "hexside" and r.movement.kind == "prohibited" and r.name.lower() in targets}


def _supply_share(rules: RuleSet, amount: Fraction, what: str, log: Log) -> Fraction:
    """An allowance a supply penalty cuts: rounded down where the rulebook rounds supply penalties down, else
    with its fraction kept or dropped as movement keeps fractions."""
    if amount.denominator != 1 and rules.value("supply.penalties_round_down") is True:
        log(rules.cite("supply.penalties_round_down", f"{what}: {amount}, a supply penalty, rounded down to "
                                                      f"{math.floor(amount)}"))
        return Fraction(math.floor(amount))
    return _share(rules, amount, what, log)


def _share(rules: RuleSet, amount: Fraction, what: str, log: Log) -> Fraction:
    """`amount` (derived from an MA) with its fraction kept or dropped as the rulebook says."""
    if amount.denominator == 1:
        return amount
    kept = rules.value("movement.fractions_kept")
    if kept is False:
        log(rules.cite("movement.fractions_kept", f"{what}: {amount} drops its fraction, {math.floor(amount)}"))
        return Fraction(math.floor(amount))
    log(rules.cite("movement.fractions_kept", f"{what}: {amount}, its fraction kept"))
    return amount


def _road_followed(rules: RuleSet, situation: Situation, source: Hex, target: Hex, log: Log) -> str | None:
    way = situation.road_between(source, target)
    if way is not None:
        if rules.value("roads.continuous_path_required") is not False:
            log(rules.cite("roads.continuous_path_required",
                           f"{source} to {target} follows the {way} across their hexside: the road rate applies"))
        return way
    if situation.has_road(target) and situation.roads:
        if rules.value("roads.continuous_path_required") is False:
            road = situation.road_at(target)
            log(rules.cite("roads.continuous_path_required",
                           f"{target} has a {road}: the road rate applies without following it"))
            return road
        log(rules.cite("roads.continuous_path_required",
                       f"{target} has a road, but {source} to {target} does not follow it: no road rate"))
    return None


def _terrain(rules: RuleSet, situation: Situation, unit: Counter, source: Hex, target: Hex, log: Log, *,
             road: bool = True, mode: str = "regular") -> _Price:
    """The terrain cost for `unit` to step from `source` into `target` (no ZOC costs), or why it may not.
    The chart's price is terrain.step_price, the very one the generated `entry_cost` gives; what depends on
    the unit (a mechanized unit's terrain levels, crossing an unbridged river) and road movement are here."""
    said: list[Step] = []      # the steps logged: the chart's prohibition cites the last, the one deciding it
    log = _recording(log, said)
    chart = rules.terrain
    if chart is None or not len(chart):
        log(rules.cite_chart(f"{target}: 1 MP (this rulebook has no Terrain Effects Chart)"))
        return _Price(Fraction(1))
    hex_rows = _rows(rules, situation.terrain_at(target), "hex")
    features = _rows(rules, situation.hexside_features(source, target), "hexside")
    cancelled = negated(features)
    sides = [r for r in features if r.movement.kind != "negates" and r.name.lower() not in cancelled]
    way = _road_followed(rules, situation, source, target, log) if road else None
    if mode == "road":
        if way is None:
            return _Price(None, refusal=_refused(
                log, rules.cite("road_movement.ma_multiple", f"{target}: road movement must follow a road"),
                f"road movement must follow a road into {target}"))

    def note(parameter: str | None, text: str) -> None:
        log(rules.cite(parameter, text) if parameter is not None else rules.cite_chart(text))

    row = followed_road(chart.rows, way) if way is not None else None
    blocked = any(r.movement.kind == "prohibited" for r in hex_rows)
    level = max((r.level for r in hex_rows if r.level is not None), default=None)
    if level is not None and unit.can(MECHANIZED) and (way is not None or not blocked):
        limit = rules.amount("movement.mechanized_prohibited_level")
        if limit is not None and level >= limit:
            if way is None:
                return _Price(None, refusal=_refused(
                    log, rules.cite("movement.mechanized_prohibited_level",
                                    f"{target} is level {level}: {unit} is mechanized and no road leads in"),
                    f"{target} (level {level}) is closed to mechanized units off the road"))
            log(rules.cite("movement.mechanized_prohibited_level",
                           f"{target} is level {level}, but {unit} enters it along the {way}"))
    if way is not None and mode == "road":
        closed = next((r for r in [*hex_rows, *sides] if r.movement.kind == "prohibited"), None)
        if closed is not None:
            if not rules.flag("roads.negate_prohibited"):
                return _Price(None, refusal=_refused(
                    log, rules.cite("roads.negate_prohibited", f"{target}: the {way} does not open the {closed.name}"),
                    f"{target} may not be entered: {closed.name} is prohibited"))
            log(rules.cite("roads.negate_prohibited", f"{target}: the {way} opens the {closed.name}"))
        first = _first_road(rules)
        name = "road_movement.road_cost" if first is not None and row is first else "road_movement.trail_cost"
        rate = rules.amount(name)
        if rate is None:
            rate = road_cost(row, hex_rows, str(target), note)
            log(rules.cite(name, f"{target}: {_mp(rate)} along the {way}, the chart's rate"))
        else:
            log(rules.cite(name, f"{target}: {_mp(rate)} along the {way} in road movement"))
        return _Price(rate, road=way)
    rivers = _river_rows(rules)

    def cross(side: Terrain) -> Fraction | None:
        """The extra MPs for `unit` to cross the prohibited hexside `side`, or None (it may not)."""
        share = rules.amount("movement.river_crossing_fraction") if side.name.lower() in rivers else None
        if share is not None and unit.can(RIVER_CROSSERS):
            extra = _share(rules, share * unit.movement, f"crossing the {side.name}", log)
            log(rules.cite("movement.river_crossing_fraction",
                           f"{unit} crosses the unbridged {side.name} for {share} of its MA: +{_mp(extra)}"))
            return extra
        assisted = rules.amount("movement.assisted_river_crossing_fraction") if side.name.lower() in rivers else None
        engineers = [u for u in situation.units_at(source)
                     if u.side == unit.side and u.name != unit.name and u.can("engineer")]
        if assisted is not None and engineers and (unit.can("armored") or unit.can("artillery")):
            extra = _share(rules, assisted * unit.movement, f"crossing the {side.name} with an engineer", log)
            log(rules.cite("movement.assisted_river_crossing_fraction",
                           f"{unit} crosses the unbridged {side.name} with {engineers[0]} for {assisted} of "
                           f"its MA: +{_mp(extra)}"))
            return extra
        if assisted is not None and engineers:
            log(rules.cite("movement.assisted_river_crossing_fraction",
                           f"{engineers[0]} helps armor and artillery across the {side.name}, not {unit}"))
        if share is not None:
            log(rules.cite("movement.river_crossing_fraction",
                           f"{unit} may not cross the unbridged {side.name}: it is not {RIVER_CROSSERS}"))
        else:
            log(rules.cite_chart(f"{source}/{target}: the {side.name} hexside is prohibited"))
        return None

    price = step_price(hex_rows, sides, row, way, rules.flag, note, target=str(target), source=str(source),
                       cross=cross)
    stop = _stops(rules, price.stop, target, log) if price.cost is not None else None
    refusal = None if price.reason is None else \
        Refusal.citing(price.reason, said[-1]) if said else Refusal(price.reason)
    return _Price(price.cost, road=way, refusal=refusal, stop=stop)


def _stops(rules: RuleSet, row: Terrain | None, target: Hex, log: Log) -> str | None:
    """What ends the move in `target`, in words, when `row` (the terrain entered, a hexside crossed) says
    `stop`."""
    if row is None:
        return None
    reason = f"the {row.name}" if row.kind == "hex" else f"crossing the {row.name}"
    log(rules.cite_chart(f"{target}: {reason} ends the move there"))
    return reason


def entry_cost(rules: RuleSet, situation: Situation, unit: Counter, source: Hex, target: Hex,
               *, road: bool = True) -> Fraction | None:
    """The terrain cost for `unit` to step from `source` into the adjacent `target` (no ZOC costs); None
    when prohibited.  `road=False` prices the step as if no road ran there."""
    return _terrain(rules, situation, unit, source, target, _nolog, road=road).cost


# ---- moving -------------------------------------------------------------------------------------------
_EZOC = "an enemy ZOC"    # _State.stopped for a ZOC (a terrain's is "the swamp" or "crossing the dyke")


class _State(NamedTuple):      # a tuple: the searches hash and compare thousands of them
    hex: Hex
    exited: bool = False      # has left an enemy ZOC hex during this move
    stopped: str = ""         # what ended the move where it entered: an enemy ZOC, or a terrain that says stop
    off_map: bool = False     # has left the map


_UNSEEN: tuple[Exact, _State, int] = (0, _State(Hex("", 0, 0)), -1)     # a miss: a fresh object, never stored


class _Entry(NamedTuple):
    cost: Fraction | None
    state: _State | None
    refusal: Refusal | None = None


class _Mover:
    """One unit's move: its allowance and the enemy ZOCs that hinder it, and the step function that
    `move` and `reachable` share."""

    def __init__(self, rules: RuleSet, situation: Situation, counter: Counter, mode: str, log: Log, *,
                 first_citations: bool = False):
        self.rules, self.situation, self.unit, self.mode = rules, situation, counter, mode
        self.refusal: Refusal | None = None
        self._prices: dict[tuple[Hex, Hex], tuple[_Price, tuple[Step, ...]]] = {}
        # `reachable` keeps only the first step citing each parameter: a step's terrain price is then worked
        # out once per kind of step (see _price), not once per hexside
        self.first_citations = first_citations
        self._enemy_hexes = frozenset(u.hex for u in situation.enemies_of(counter.side))
        self.must_afford = rules.flag("movement.must_afford_entry")     # read once: asked of every step
        self._by_kind: dict[tuple[object, ...], _Price] = {}
        self._closed = rules.terrain.closed_hexsides if rules.terrain is not None else frozenset()
        self._friendly_hexes = frozenset(u.hex for u in situation.friends_of(counter.side))
        self._other_friends = frozenset(u.hex for u in situation.friends_of(counter.side) if u.name != counter.name)
        self._by_step: dict[tuple[object, ...], tuple[Exact, bool, str] | None] = {}
        self._spots: dict[Hex, int] = {}
        self._by_target: dict[tuple[bool, str, bool, bool], dict[Hex, tuple[Exact, _State, int] | None]] = {}
        self._numbers: dict[_State, int] = {}
        self._kinds: dict[tuple[object, ...], int] = {}
        self._edges = bool(situation.hexsides or situation.roads)
        # a rule's effects on entering a hex (`cost enter +1 MP when hex is rubble`), asked of every step
        self._entering = rules.effects_on("enter")
        self._unit_facts = {**effects.unit_facts(counter), **effects.time_facts(rules.turn_sets, situation)} if self._entering else {}
        self._stops: dict[str, Step] = {}     # _State.stopped by a rule's `stop enter` -> the step citing it
        zoc_steps: list[Step] = []
        self.hinder = _hindering(rules, situation, counter.side, counter.name, zoc_steps)
        self.zoc_steps = zoc_steps
        self.allowance = self._allowance(log)
        if self.refusal is None:
            self._may_move(log)
        self.minimum = self._minimum(log) if self.refusal is None else 0

    # ---- before the first hex ---------------------------------------------------------------------------
    def _allowance(self, log: Log) -> Fraction:
        rules, unit = self.rules, self.unit
        allowance = unit.movement
        log(rules.cite_rule_of("movement.minimum_move", f"{unit}'s printed Movement Allowance: {_mp(allowance)}",
                               heading=True))
        if OUT_OF_SUPPLY in unit.states:
            factor = None
            if unit.can(MECHANIZED):
                factor = rules.amount("supply.out_of_supply_mechanized_movement_factor")
                if factor is not None:
                    allowance = _supply_share(rules, allowance * factor, f"{unit}'s allowance", log)
                    log(rules.cite("supply.out_of_supply_mechanized_movement_factor",
                                   f"{unit} is mechanized and out of supply: MA x {factor} = {_mp(allowance)}"))
            if factor is None:
                factor = rules.amount("supply.out_of_supply_movement_factor")
                if factor is None:
                    log(rules.cite("supply.out_of_supply_movement_factor",
                                   f"{unit} is out of supply; no rule changes its MA"))
                else:
                    allowance = _supply_share(rules, allowance * factor, f"{unit}'s allowance", log)
                    log(rules.cite("supply.out_of_supply_movement_factor",
                                   f"{unit} is out of supply: MA x {factor} = {_mp(allowance)}"))
        if self.mode == "road":
            multiple = rules.amount("road_movement.ma_multiple")
            if multiple is None:
                self.refusal = _refused(
                    log, rules.cite("road_movement.ma_multiple", "there is no road movement in this game"),
                    "there is no road movement in this game")
                return allowance
            allowance = allowance * multiple
            log(rules.cite("road_movement.ma_multiple", f"road movement: {multiple} x MA = {_mp(allowance)}"))
        elif self.mode == "reaction":
            fraction = rules.amount("reaction.movement_fraction")
            if fraction is None:
                self.refusal = _refused(
                    log, rules.cite("reaction.movement_fraction", "there are no reaction moves in this game"),
                    "there are no reaction moves in this game")
                return allowance
            allowance = _share(rules, allowance * fraction, f"{unit}'s reaction allowance", log)
            log(rules.cite("reaction.movement_fraction", f"a reaction move: {fraction} of the MA, {_mp(allowance)}"))
        elif self.mode not in MODES:
            self.refusal = Refusal(f"unknown movement mode {self.mode!r}: one of {', '.join(MODES)}")
        return self._allowance_effects(allowance, log)

    def _allowance_effects(self, allowance: Fraction, log: Log) -> Fraction:
        """`allowance` changed by each rule's `cost allowance` that holds of the unit (an isolated
        mechanized unit's MA at most 6), each cited; a bonus in hexes is worth that many hexes of road."""
        rules, unit, situation = self.rules, self.unit, self.situation
        if not rules.effects_on("allowance"):
            return allowance
        facts = {**effects.unit_facts(unit), **effects.time_facts(rules.turn_sets, situation),
                 "mode": lambda: frozenset({self.mode}),
                 "hex": lambda: effects.hex_words(situation, unit.hex),
                 "hex.level": lambda: effects.hex_level(rules.terrain, situation, unit.hex),
                 "unit.started_in_ezoc": lambda: situation.start_of(unit) in enemy_zoc(rules, situation, unit.side)}
        holding = rules.costs_holding("allowance", facts)
        if not holding:
            return allowance
        def order(held: tuple[RuleEntry, effects.Effect]) -> int:
            return effects.ORDER.index(held[1].amount.how) if held[1].amount is not None else 0
        holding.sort(key=order)
        # a hex of road: at the road movement rate on a road move (road_movement.road_cost), else at the TEC's road's
        road, rate = _first_road(rules), rules.amount("road_movement.road_cost") if self.mode == "road" else None
        per_hex = rate if rate is not None else road.movement.amount \
            if road is not None and road.movement.amount is not None else Fraction(0)
        changed = allowance
        for entry, effect in holding:
            amount = effect.amount
            if amount is None:
                continue
            value = rules.amount_of(amount)
            said = _amount_said(rules, amount)
            if amount.unit in ("hex", "hexes"):     # a road bonus counted in hexes: that many hexes of road
                value = value * per_hex
                said += f" of road at {_mp(per_hex)} each, {_mp(value)}"
            changed = effects.priced(changed, [(amount, value)])
            log(rules.cite_effect(entry, effect, f"rule {entry.id}: {unit}'s allowance {said}: {_mp(changed)}"))
        return changed

    def _may_move(self, log: Log) -> None:
        rules, unit, situation = self.rules, self.unit, self.situation
        phasing = situation.phasing
        if self.mode == "reaction":
            if self._reaction_forbidden(log):
                return
            if phasing and unit.side == phasing:
                self.refusal = _refused(
                    log, rules.cite("reaction.movement_fraction",
                                    f"reaction moves are the non-phasing side's, not {phasing}'s"),
                    f"{unit} belongs to the phasing side: it may not make a reaction move")
                return
            if OUT_OF_SUPPLY in unit.states:
                allowed = rules.value("supply.out_of_supply_may_react")
                if allowed is False:
                    self.refusal = _refused(
                        log, rules.cite("supply.out_of_supply_may_react", f"{unit} is out of supply: no reaction move"),
                        f"{unit} is out of supply: it may not make a reaction move")
                    return
                log(rules.cite("supply.out_of_supply_may_react",
                               f"{unit} is out of supply; {'it may still react' if allowed else 'no rule bars its reaction'}"))
        elif phasing and unit.side != phasing:
            if rules.flag("movement.only_phasing_units"):
                self.refusal = _refused(
                    log, rules.cite("movement.only_phasing_units", f"only {phasing}'s units move in its phases"),
                    f"{unit} is not the phasing side's: only {phasing}'s units move now")
                return
            log(rules.cite("movement.only_phasing_units", f"{unit} may move in {phasing}'s phase"))
        if unit.name in situation.history.overrun_hexes and self.mode != "reaction":
            if rules.flag("overrun.ends_movement"):
                self.refusal = _refused(
                    log, rules.cite("overrun.ends_movement", f"{unit} overran this phase: its movement is over"),
                    f"{unit} overran this phase, which ended its movement")
                return
            log(rules.cite("overrun.ends_movement", f"{unit} overran this phase and may move on"))
        if self.mode == "road":
            self._road_distance(unit.hex, log)

    def _reaction_forbidden(self, log: Log) -> bool:
        """Whether a rule's effect forbids the unit a reaction move (`forbid react when ...`); sets the refusal."""
        unit, situation = self.unit, self.situation
        facts = {**effects.unit_facts(unit), **effects.time_facts(self.rules.turn_sets, situation)}
        facts["unit.started_in_ezoc"] = lambda: situation.start_of(unit) in enemy_zoc(self.rules, situation,
                                                                                      unit.side)
        barred = self.rules.forbidding("react", facts, log, f"{unit} may react")
        if barred is None:
            return False
        self.refusal = _refused(log, self.rules.cite_effect(*barred, f"rule {barred[0].id}: {unit} may not react"),
                                f"{unit} may not make a reaction move")
        return True

    def _road_distance(self, hex: Hex, log: Log) -> Step | None:
        """The step refusing road movement in `hex` (the enemy too near), None when it may be there; sets the
        move's refusal when `hex` is where the unit stands."""
        near = self.rules.amount("road_movement.enemy_distance")
        if near is None:
            return None
        enemies = [e for e in self.situation.enemies_of(self.unit.side)
                   if self.situation.map.distance(e.hex, hex) <= near]
        if not enemies:
            return None
        step = self.rules.cite("road_movement.enemy_distance",
                               f"{hex} is within {near} hexes of {enemies[0]}: no road movement there")
        log(step)
        if hex == self.unit.hex:
            self.refusal = Refusal.citing(f"{self.unit} stands within {near} hexes of {enemies[0]}: it may not "
                                          "road-move", step)
        return step

    def _minimum(self, log: Log) -> int:
        least = self.rules.amount("movement.minimum_move")
        if least is None or least < 1 or self.unit.movement <= 0:
            return 0
        return int(least)

    # ---- one hex --------------------------------------------------------------------------------------
    def step(self, state: _State, target: Hex, log: Log, *, neighbour: bool = False) -> _Entry:
        """Enter `target` from `state`: what it costs and the state after, or why it may not be entered.
        `neighbour`: the caller took `target` from the map's neighbours of `state.hex` (a search)."""
        here = state.hex
        barred = self._move_over(state, log)
        if barred is None:
            barred = self._not_enterable(here, target, log, neighbour=neighbour)
        if barred is not None:
            return barred
        price = self._price(here, target, log)
        if price.cost is None:
            return _Entry(None, None, price.refusal)
        cost = price.cost
        if self._entering:
            facts = self._entry_facts(here, target, price.road)
            barred = self._entry_forbidden(target, facts, log)
            if barred is not None:
                return barred
            cost = self._entry_effects(cost, target, facts, log)
            stop = self.rules.stopping("enter", facts)
            if stop is not None:
                step = self.rules.cite_effect(*stop, f"rule {stop[0].id}: {self.unit}'s move ends in {target}")
                log(step)
                self._stops[f"rule {stop[0].id}"] = step
                price = replace(price, stop=f"rule {stop[0].id}") if not price.stop else price
        cost = self._road_crowding(cost, price.road, target, log)
        leaving, entering = here in self.hinder, target in self.hinder
        exited = state.exited
        if leaving:
            cost = self._exit_cost(cost, here, log)
            barred = self._ezoc_to_ezoc(here, target, log) if entering else None
            if barred is not None:
                return barred
            exited = True
        stopped = price.stop or ""
        if entering:
            barred = self._zoc_entry_barred(state, target, leaving, log)
            if barred is not None:
                return barred
            cost = self._zoc_entry_cost(cost, target, log)
            if self._zoc_entry_stops(target, log):
                stopped = _EZOC
        return _Entry(cost, _State(target, exited, stopped))

    # ---- a rule's effects on entering a hex ------------------------------------------------------------------
    def _entry_facts(self, here: Hex, target: Hex, road: str | None) -> effects.Facts:
        """What a condition on entering `target` from `here` reads (core/facts.py: the facts at `enter`)."""
        situation = self.situation

        def words(hex: Hex) -> frozenset[str]:
            return effects.hex_words(situation, hex)
        return {**self._unit_facts,
                "unit.started_in_ezoc": lambda: situation.start_of(self.unit) in self.hinder,
                "unit.started_stacked": lambda: any(u.name != self.unit.name and u.side == self.unit.side
                                                    for u in situation.units_at(situation.start_of(self.unit))),
                "mode": lambda: frozenset({self.mode}),
                "unit.overran": lambda: self.unit.name in situation.history.overrun_hexes,
                "unit.overrun_failed": lambda: self._overrun_failed(),
                "from": lambda: words(here),
                "from.ezoc": lambda: here in self.hinder,
                "hex": lambda: words(target),
                "hex.level": lambda: effects.hex_level(self.rules.terrain, situation, target),
                "hex.next_to": lambda: frozenset(w for h in situation.neighbours(target) for w in words(h)),
                "hex.ezoc": lambda: target in self.hinder,
                "hexside": lambda: frozenset(f.lower() for f in situation.hexside_features(here, target)),
                "road": lambda: road is not None}

    def _overrun_failed(self) -> bool:
        """Whether an overrun the unit made this phase left enemy units in the hex it overran."""
        overran = self.situation.history.overrun_hexes.get(self.unit.name)
        return overran is not None and any(u.side != self.unit.side for u in self.situation.units_at(overran))

    def _entry_forbidden(self, target: Hex, facts: effects.Facts, log: Log) -> _Entry | None:
        """A rule's `forbid enter` that holds: the refusal, citing the rule and its line as written."""
        barred = self.rules.forbidding("enter", facts, log, f"{self.unit} may enter {target}")
        if barred is None:
            return None
        step = self.rules.cite_effect(*barred, f"rule {barred[0].id}: {self.unit} may not enter {target}")
        return _Entry(None, None, _refused(log, step, f"{self.unit} may not enter {target}"))

    def _entry_effects(self, cost: Fraction, target: Hex, facts: effects.Facts, log: Log) -> Fraction:
        """`cost` changed by each rule's `cost enter` that holds, each cited with its line as written."""
        holding = self.rules.costs_holding("enter", facts)
        if not holding:
            return cost
        changed = self.rules.priced(cost, holding)
        for n, (entry, effect) in enumerate(holding, 1):
            said = "" if effect.amount is None else f": {_amount_said(self.rules, effect.amount)}"
            if n == len(holding):       # the last says the price: the terrain's, as the rules' effects change it
                said += f"; {_mp(cost)} by the terrain, {_mp(changed)} in all"
            log(self.rules.cite_effect(entry, effect, f"rule {entry.id}: entering {target}{said}"))
        return changed

    def _move_over(self, state: _State, log: Log) -> _Entry | None:
        """A step's first question: whether the unit's move is over already (it left the map, or entered an
        enemy ZOC or terrain that ends its move); None when it may go on."""
        rules, unit, here = self.rules, self.unit, state.hex
        if state.off_map:
            return _Entry(None, None, Refusal(f"{unit} has left the map"))
        if state.stopped == _EZOC:
            return _Entry(None, None, _refused(
                log, rules.cite("zoc.entry_stops_movement", f"{unit} entered an enemy ZOC at {here}: its move is over"),
                f"{unit} stopped on entering the enemy ZOC at {here}"))
        if state.stopped in self._stops:
            return _Entry(None, None, _refused(log, self._stops[state.stopped],
                                               f"{unit} stopped in {here}: {state.stopped} ends its move"))
        if state.stopped:
            return _Entry(None, None, _refused(log,
                                               rules.cite_chart(f"{unit}'s move ended in {here} ({state.stopped})"),
                                               f"{unit} stopped in {here}: {state.stopped} ends its move"))
        return None

    def _not_enterable(self, here: Hex, target: Hex, log: Log, *, neighbour: bool) -> _Entry | None:
        """Why `target` may not be entered from `here` before its cost is asked: off the map or not next to
        `here` (unless a search took it from the neighbours), enemy units in it, and for road movement the
        enemy too near or friendly units it may not pass; None when nothing bars it."""
        rules, situation, unit = self.rules, self.situation, self.unit
        if not neighbour:
            if target not in situation.map:
                return self._off_map(here, target, log)
            if not situation.map.adjacent(here, target):
                return _Entry(None, None, Refusal(f"{target} is not next to {here}"))
        if target in self._enemy_hexes:
            if not rules.flag("movement.enter_enemy_hex"):
                return _Entry(None, None, _refused(
                    log, rules.cite("movement.enter_enemy_hex", f"{target} holds enemy units: it may not be entered"),
                    f"{target} holds enemy units"))
            log(rules.cite("movement.enter_enemy_hex", f"{target} holds enemy units, which may be entered"))
        if self.mode != "road":
            return None
        too_near = self._road_distance(target, log)
        if too_near is not None:
            return _Entry(None, None, Refusal.citing(f"{target} is too close to the enemy for road movement", too_near))
        if any(u.side == unit.side and u.name != unit.name for u in situation.units_at(target)):
            if rules.value("road_movement.through_friendly_units") is False:
                return _Entry(None, None, _refused(
                    log, rules.cite("road_movement.through_friendly_units",
                                    f"{target} holds friendly units: road movement may not enter it"),
                    f"{target} holds friendly units, which road movement may not pass"))
            log(rules.cite("road_movement.through_friendly_units", f"{target} holds friendly units, which road "
                           "movement may pass"))
        return None

    def _road_crowding(self, cost: Fraction, road: str | None, target: Hex, log: Log) -> Fraction:
        """`cost` with what a move along `road` (None: off the road) pays more to enter a hex that holds
        friendly units (`roads.friendly_units_extra_cost`)."""
        if road is None:
            return cost
        extra = self.rules.amount("roads.friendly_units_extra_cost")
        if extra and self.situation.occupied_by_friend(target, self.unit.side):
            log(self.rules.cite("roads.friendly_units_extra_cost",
                                f"{target}: friendly units on the {road}: +{_mp(extra)}"))
            return cost + extra
        return cost

    def _exit_cost(self, cost: Fraction, here: Hex, log: Log) -> Fraction:
        """`cost` with what leaving the enemy ZOC at `here` adds: `zoc.exit_cost_fraction` of the printed MA,
        its fraction dropped or counted whole (`zoc.exit_cost_rounds_down`); nothing without that rule."""
        rules = self.rules
        fraction = rules.amount("zoc.exit_cost_fraction")
        if fraction is None:
            log(rules.cite("zoc.exit_cost_fraction", f"leaving the enemy ZOC at {here} costs nothing of its own"))
            return cost
        share = fraction * self.unit.movement
        if share.denominator != 1 and rules.flag("zoc.exit_cost_rounds_down"):
            share = Fraction(math.floor(share))
            log(rules.cite("zoc.exit_cost_rounds_down", f"the cost to leave drops its fraction: {_mp(share)}"))
        elif share.denominator != 1:
            share = Fraction(math.ceil(share))
            log(rules.cite("zoc.exit_cost_rounds_down", f"the cost to leave counts its fraction whole: {_mp(share)}"))
        log(rules.cite("zoc.exit_cost_fraction",
                       f"leaving the enemy ZOC at {here} costs {fraction} of the printed MA: +{_mp(share)}"))
        return cost + share

    def _ezoc_to_ezoc(self, here: Hex, target: Hex, log: Log) -> _Entry | None:
        """Whether the unit may move from the enemy ZOC at `here` directly into another at `target`
        (`zoc.ezoc_to_ezoc`); None when it may."""
        rules = self.rules
        if rules.value("zoc.ezoc_to_ezoc") is False:
            return _Entry(None, None, _refused(
                log, rules.cite("zoc.ezoc_to_ezoc", f"{here} to {target}: no move from one enemy ZOC to another"),
                f"{self.unit} may not move from the enemy ZOC at {here} directly into " f"another at {target}"))
        log(rules.cite("zoc.ezoc_to_ezoc", f"{here} to {target}: moving from enemy ZOC to enemy ZOC is allowed"))
        return None

    def _zoc_entry_barred(self, state: _State, target: Hex, leaving: bool, log: Log) -> _Entry | None:
        """Entering the enemy ZOC at `target`: who exerts it, and whether the unit may enter it (a reacting
        unit, `reaction.may_enter_ezoc`; one that left an enemy ZOC this move, `zoc.reentry_after_exit`);
        None when it may."""
        rules, unit = self.rules, self.unit
        exerting: list[str] = []
        for name in self.hinder[target][1]:
            if name not in exerting:
                exerting.append(name)
        log(rules.cite("zoc.range", f"{target} is in the ZOC of {', '.join('unit ' + n for n in exerting)}"))
        if self.mode == "reaction" and not rules.flag("reaction.may_enter_ezoc"):
            return _Entry(None, None, _refused(
                log, rules.cite("reaction.may_enter_ezoc", f"{target}: reacting units may not enter enemy ZOCs"),
                f"a reacting unit may not enter the enemy ZOC at {target}"))
        if self.mode == "reaction":
            log(rules.cite("reaction.may_enter_ezoc", f"{target}: reacting units may enter enemy ZOCs"))
        if state.exited and not leaving:
            if rules.value("zoc.reentry_after_exit") is False:
                return _Entry(None, None, _refused(
                    log, rules.cite("zoc.reentry_after_exit",
                                    f"{unit} has left an enemy ZOC: it may not enter another ({target}) this phase"),
                    f"{unit} left an enemy ZOC and may not enter another at {target}"))
            log(rules.cite("zoc.reentry_after_exit", f"{unit} may enter another enemy ZOC after leaving one"))
        return None

    def _zoc_entry_cost(self, cost: Fraction, target: Hex, log: Log) -> Fraction:
        """`cost` with what entering the enemy ZOC at `target` adds (`zoc.entry_cost`), once per ZOC where
        several add their effects."""
        rules = self.rules
        extra = rules.amount("zoc.entry_cost")
        if not extra:
            log(rules.cite("zoc.entry_cost", f"{target} is in an enemy ZOC; entering it costs nothing extra"))
            return cost
        weight = self.hinder[target][0]
        times = f" x {weight} ZOCs" if weight > 1 else ""
        log(rules.cite("zoc.entry_cost", f"{target} is in an enemy ZOC: +{_mp(extra)}{times}"))
        return cost + extra * weight

    def _zoc_entry_stops(self, target: Hex, log: Log) -> bool:
        """Whether entering the enemy ZOC at `target` ends the move (`zoc.entry_stops_movement`)."""
        if self.rules.flag("zoc.entry_stops_movement"):
            log(self.rules.cite("zoc.entry_stops_movement", f"{self.unit} must stop in {target}"))
            return True
        log(self.rules.cite("zoc.entry_stops_movement", f"{self.unit} need not stop in {target}"))
        return False

    def search_steps(self, state: _State, log: Log) -> list[tuple[Exact, _State, int]]:
        """`step` into each neighbour of `state`'s hex that may be entered, for a search that keeps only the
        first step citing each parameter (`reachable`): its cost (a whole number as an int), the state after
        and that state's number (`number`: a search keys its tables by it, cheaper to hash than the state).

        Worked out once per kind of step.  What `step` decides, and every parameter it cites, depends only
        on the state's flags and whether it is in an enemy ZOC, the kind of terrain step (see `_price`), and
        what of the hex entered `_spot` names: the first step of a kind cites all its kind will, so the rest
        need not run.  A step across a prohibited hexside reads the units in `here` (engineers): it is
        always worked out."""
        situation, here = self.situation, state.hex
        kind = (state.exited, state.stopped, state.off_map, here in self.hinder)
        out: list[tuple[Exact, _State, int]] = []
        if not self.first_citations:      # every step worked out and cited in full
            for target in situation.neighbours(here):
                entry = self.step(state, target, log, neighbour=True)
                if entry.cost is not None and entry.state is not None:
                    out.append((simplest(entry.cost), entry.state, self.number(entry.state)))
            return out
        if not self._edges:       # no hexside features, no roads: the hex entered is all a step's kind needs
            row = self._by_target.get(kind)
            if row is None:
                row = self._by_target[kind] = {}
            for target in situation.neighbours(here):
                known = row.get(target, _UNSEEN)
                if known is _UNSEEN:
                    known = row[target] = self._kind_of_step(state, kind, target, (), None, log)
                if known is not None:
                    out.append(known)
            return out
        for target in situation.neighbours(here):
            features = situation.hexside_features(here, target)
            if features and any(f.lower() in self._closed for f in features):
                entry = self.step(state, target, log, neighbour=True)
                if entry.cost is not None and entry.state is not None:
                    out.append((simplest(entry.cost), entry.state, self.number(entry.state)))
                continue
            known = self._kind_of_step(state, kind, target, features, situation.road_between(here, target), log)
            if known is not None:
                out.append(known)
        return out

    def _kind_of_step(self, state: _State, kind: tuple[bool, str, bool, bool], target: Hex,
                      features: tuple[str, ...], way: str | None, log: Log) -> tuple[Exact, _State, int] | None:
        """`search_steps`' answer for one neighbour, from the step of its kind worked out first."""
        spots = self._spots
        spot = spots.get(target)
        if spot is None:
            spot = spots[target] = self._spot(target)
        key = (kind, features, way, spot)
        known = self._by_step.get(key, _UNKNOWN)
        if known is _UNKNOWN:
            entry = self.step(state, target, log, neighbour=True)
            if entry.cost is None or entry.state is None:
                known = None
            else:
                known = (simplest(entry.cost), entry.state.exited, entry.state.stopped)
            self._by_step[key] = known
        if known is None:
            return None
        after = _State(target, known[1], known[2])
        return known[0], after, self.number(after)

    def number(self, state: _State) -> int:
        """A number for `state`, the same each time it is asked of an equal state during this move."""
        return self._numbers.setdefault(state, len(self._numbers))

    def _spot(self, target: Hex) -> int:
        """What of `target` itself decides a step into it (`search_steps`), as a small number the same for
        hexes alike: its terrain and road, how many enemy ZOCs it is in, whether enemy or friendly units hold
        it, and for road movement whether the enemy is near and other friendly units are there."""
        situation, hinder = self.situation, self.hinder
        near = (self._road_distance(target, _nolog), target in self._other_friends) if self.mode == "road" else ()
        # a rule's effect on entering may read the hex's markers and its neighbours' terrain and markers
        marks = (situation.markers_at(target), frozenset(w for h in situation.neighbours(target)
                                                         for w in (*situation.terrain_at(h), *situation.markers_at(h)))) \
            if self._entering else ()
        what = (situation.terrain_at(target), situation.road_at(target) if situation.roads else None,
                hinder[target][0] if target in hinder else 0, target in self._enemy_hexes,
                target in self._friendly_hexes, near, marks)
        return self._kinds.setdefault(what, len(self._kinds))

    def _price(self, here: Hex, target: Hex, log: Log) -> _Price:
        """The terrain price of a step, worked out once per hexside and direction (its steps replayed).

        For a search that keeps only the first step citing each parameter, once per kind of step: the
        target's terrain, the hexside features crossed and the road followed decide the price and every
        parameter it cites, so the first step of a kind cites all its kind will, and the rest add nothing.
        A step across a prohibited hexside also reads the units in `here` (engineers): it is not pooled."""
        if self.first_citations:
            situation = self.situation
            features = situation.hexside_features(here, target)
            if not any(f.lower() in self._closed for f in features):
                way = situation.road_between(here, target)
                key = (situation.terrain_at(target), features, way,
                       situation.road_at(target) if way is None and situation.roads else None)
                price = self._by_kind.get(key)
                if price is None:
                    price = self._by_kind[key] = _terrain(self.rules, situation, self.unit, here, target, log,
                                                          mode=self.mode)
                return price
        known = self._prices.get((here, target))
        if known is None:
            said: list[Step] = []
            price = _terrain(self.rules, self.situation, self.unit, here, target, said.append, mode=self.mode)
            known = self._prices[(here, target)] = (price, tuple(said))
        for step in known[1]:
            log(step)
        return known[0]

    def _off_map(self, here: Hex, target: Hex, log: Log) -> _Entry:
        if not self.situation.map.beyond_edge(here, target):
            return _Entry(None, None, Refusal(f"{target} is not next to {here}"))
        if not self.rules.flag("map.off_map_movement"):
            return _Entry(None, None, _refused(
                log, self.rules.cite("map.off_map_movement", f"{target} is off the map: units may not leave it"),
                f"{target} is off the map"))
        log(self.rules.cite("map.off_map_movement", f"{self.unit} leaves the map at {here}: its move ends"))
        return _Entry(Fraction(0), _State(target, off_map=True))

    def affordable(self, spent: Exact, cost: Exact) -> bool:
        limit = simplest(self.allowance)      # whole MPs compare as ints, without Fraction's slow path
        if self.must_afford:
            return spent + cost <= limit
        return spent < limit


def move(rules: RuleSet, situation: Situation, unit: str, path: Sequence[Hex], *, mode: str = "regular",
         saved: Fraction | int = 0) -> Move:
    """Price a move of `unit` along `path` (the hexes entered, its own hex optionally first) and say whether
    the rules allow it.  `saved`: MPs the unit claims to have kept from an earlier phase or unit."""
    counter = situation.unit(unit)
    hexes = list(path)
    if hexes and hexes[0] == counter.hex:
        hexes = hexes[1:]
    steps: list[Step] = []
    mover = _Mover(rules, situation, counter, mode, steps.append)
    allowance = mover.allowance

    def answer(costs: list[Fraction | None], total: Fraction, refusal: Refusal | None) -> Move:
        return Move(unit, tuple(hexes), tuple(costs), total, allowance, refusal is None,
                    () if refusal is None else (refusal,), tuple(steps), mode=mode)

    if mover.refusal is not None:
        return answer([], Fraction(0), mover.refusal)
    if saved:
        if not rules.flag("movement.may_save_mp"):
            return answer([], Fraction(0), _refused(
                steps.append, rules.cite("movement.may_save_mp",
                                         f"{counter} may not use {_mp(Fraction(saved))} saved earlier"),
                "MPs may not be saved or passed on"))
        allowance += Fraction(saved)
        mover.allowance = allowance
        steps.append(rules.cite("movement.may_save_mp",
                                f"{counter} adds {_mp(Fraction(saved))} saved earlier: {_mp(allowance)}"))
    state = _State(counter.hex)
    costs: list[Fraction | None] = []
    total = Fraction(0)
    short = len(hexes) <= mover.minimum
    for hex in hexes:
        entry = mover.step(state, hex, steps.append)
        if entry.cost is None or entry.state is None:
            costs.append(None)
            return answer(costs, total, entry.refusal or Refusal(f"{hex} may not be entered"))
        costs.append(entry.cost)
        if not mover.affordable(total, entry.cost):
            if not short:
                left = allowance - total
                total += entry.cost
                if rules.flag("movement.must_afford_entry"):
                    return answer(costs, total, _refused(
                        steps.append, rules.cite("movement.must_afford_entry",
                                                 f"{hex} costs {_mp(entry.cost)}: {counter} has only {_mp(left)} left"),
                        f"{total} MP is more than the allowance of {allowance}"))
                return answer(costs, total, _refused(
                    steps.append, rules.cite("movement.must_afford_entry", f"{counter} has no MPs left to enter {hex}"),
                    f"{counter} has spent its allowance of {allowance} before {hex}"))
            steps.append(rules.cite("movement.minimum_move",
                                    f"{hex} costs {_mp(entry.cost)}, more than {counter} has left, but a move of "
                                    f"{len(hexes)} hex may always be made"))
        elif total + entry.cost > allowance:
            steps.append(rules.cite("movement.must_afford_entry",
                                    f"{hex}: {counter} had MPs left, so it may enter although it costs more"))
        total += entry.cost
        steps.append(rules.cite_chart(f"{hex}: {_mp(entry.cost)}, {_mp(total)} in all"))
        state = entry.state
    left = max(allowance - total, Fraction(0))
    if rules.flag("movement.may_save_mp"):
        steps.append(rules.cite("movement.may_save_mp", f"{counter} keeps its {_mp(left)} unused"))
    else:
        steps.append(rules.cite("movement.may_save_mp", f"{counter}'s {_mp(left)} unused are lost"))
    return answer(costs, total, None)


def reachable(rules: RuleSet, situation: Situation, unit: str, *, mode: str = "regular") -> Reach:
    """The hexes `unit` may reach this phase, each at its least cost, with one path of that cost: a
    Dijkstra over (hex, whether it has left an enemy ZOC, whether it has had to stop), with the same step
    function as `move`, plus the hexes of the minimum move."""
    counter = situation.unit(unit)
    cited: dict[str | None, Step] = {}
    preamble: list[Step] = []

    def remember(step: Step) -> None:     # one step per parameter, the first met
        if step.parameter is not None and step.parameter not in cited:
            cited[step.parameter] = step

    mover = _Mover(rules, situation, counter, mode, preamble.append, first_citations=True)
    start = _State(counter.hex)
    if mover.refusal is not None:
        return Reach(unit, {counter.hex: Fraction(0)}, tuple(preamble) + (Step(mover.refusal.reason),),
                     paths={counter.hex: ()})
    # MPs as exact numbers, whole ones as ints (cheap to add and compare); Fractions again in the answer.  The
    # tables are keyed by each state's number (`_Mover.number`), cheaper to hash than the state
    first = mover.number(start)
    states: dict[int, _State] = {first: start}
    best: dict[int, Exact] = {first: 0}
    came: dict[int, tuple[int, int]] = {first: (-1, 0)}    # the state before (-1: none), and hexes so far
    order = itertools.count()
    queue: list[tuple[Exact, int, int]] = [(0, next(order), first)]
    steps_from = mover.search_steps
    limit, must_afford = simplest(mover.allowance), mover.must_afford     # as `affordable` compares
    while queue:
        spent, _, number = heapq.heappop(queue)
        if best[number] < spent:
            continue
        length = came[number][1] + 1
        for cost, after, then in steps_from(states[number], remember):
            total = spent + cost
            if total > limit if must_afford else spent >= limit:
                continue
            if total < best.get(then, total + 1):
                best[then] = total
                came[then] = (number, length)
                states[then] = after
                heapq.heappush(queue, (total, next(order), then))
    chosen: dict[Hex, int] = {}
    for number, spent in best.items():
        hex = states[number].hex
        other = chosen.get(hex)
        if other is None or spent < best[other] or (spent == best[other] and came[number][1] < came[other][1]):
            chosen[hex] = number
    costs: dict[Hex, Fraction] = {}
    paths: dict[Hex, tuple[Hex, ...]] = {}
    built: dict[int, tuple[Hex, ...]] = {first: ()}
    for hex, number in chosen.items():
        costs[hex], paths[hex] = exact(best[number]), _path(came, states, built, number)
    # the minimum move: paths of at most that many hexes, whatever they cost.  A state is stepped on from only
    # when reached for less than before (a path of fewer hexes and no more MPs is as good a minimum move), so
    # the frontier empties once nothing new is reached, however long the minimum move
    frontier: dict[_State, tuple[Fraction, tuple[Hex, ...]]] = {start: (Fraction(0), ())}
    least: dict[_State, Fraction] = {start: Fraction(0)}
    for _depth in range(mover.minimum):
        if not frontier:
            break
        following: dict[_State, tuple[Fraction, tuple[Hex, ...]]] = {}
        for state, (spent, hexes) in frontier.items():
            for target in situation.neighbours(state.hex):
                entry = mover.step(state, target, remember)
                if entry.cost is None or entry.state is None:
                    continue
                total, path = spent + entry.cost, hexes + (target,)
                if target not in costs or total < costs[target]:
                    if target not in costs:
                        remember(rules.cite("movement.minimum_move",
                                            f"{target} is reached by the minimum move, for {_mp(total)}"))
                    costs[target], paths[target] = total, path
                known = least.get(entry.state)
                if known is not None and known <= total:
                    continue
                least[entry.state] = total
                following[entry.state] = (total, path)
        frontier = following
    steps = tuple(preamble) + tuple(cited.values()) + (
        rules.cite_chart(f"{len(costs) - 1} hexes reachable within {_mp(mover.allowance)}"),)
    return Reach(unit, dict(sorted(costs.items(), key=_by_hex)), steps, paths=dict(sorted(paths.items(), key=_by_hex)))


def _by_hex(item: tuple[Hex, object]) -> tuple[str, int, int]:
    hex = item[0]       # Hex order, without the dataclass's slower comparison
    return hex.map, hex.column, hex.row


def _path(came: dict[int, tuple[int, int]], states: dict[int, _State], built: dict[int, tuple[Hex, ...]],
          number: int) -> tuple[Hex, ...]:
    """The hexes entered on the way to state `number`, by the states each came from (`built`: the paths known)."""
    stack: list[int] = []
    while number not in built:
        stack.append(number)
        number = came[number][0]
    path = built[number]
    for number in reversed(stack):
        path = built[number] = path + (states[number].hex,)
    return path
