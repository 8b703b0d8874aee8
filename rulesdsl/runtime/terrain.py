"""Terrain Effects Charts as generated modules use them."""
from __future__ import annotations

import difflib
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

# A terrain or hexside by name, or several (a hex of woods and a road; two hexsides).
TerrainNames = str | Iterable[str]

# How the combat effects of a hex's several terrains combine (`combat.terrain_combination`):
#   cumulative        every terrain's shift adds and every multiplier multiplies;
#   most-restrictive  each effect separately takes its extreme against the attacker (the most left
#                     shift, the smallest attack and the largest defense multiplier);
#   defender-best     only the terrain whose effect is best for the defender applies (its shift first,
#                     then its defense over attack multiplier, then its DRM).
# Whatever the rule, a terrain that prohibits attacks prohibits them.  A TEC's die roll modifiers work for
# the defender, whichever sign the CRT gives them: cumulative adds them, most-restrictive takes the largest
# in size (the first written of two of one size), and defender-best ranks a larger one as better.
# Hexside features are not combined with the hex unless the rulebook says so (`combat.hexside_combination`):
#   cumulative        each hexside crossed applies on its own, on top of the hex's combined effect (see
#                     `crossed_effects`);
#   with-terrain      the hexsides an attack crosses count as more terrains of the defender's hex, for the
#                     attackers crossing them, combined with it by `combat.terrain_combination` (a ford's
#                     doubling is not cumulative with the rough hex's: see `hex_effect_across`).
COMBINATIONS = ("cumulative", "most-restrictive", "defender-best")
HEXSIDE_COMBINATIONS = ("cumulative", "with-terrain")


@dataclass(frozen=True, slots=True)
class Movement:
    """kind: cost (enter for `amount` MP), add (+`amount` MP), prohibited, other
    (use the hex's other terrain), road-like (the road's cost), negates (`target`); `stop`: entering
    (crossing) it ends the move."""

    kind: str
    amount: Fraction | None = None
    target: str | None = None
    stop: bool = False      # a unit that enters the hex (crosses the hexside) ends its move there
    # a road's cost that depends on the hex entered: `by_terrain` gives its cost into a hex of each terrain
    # named (`trail  1, forest 2`), `lower` makes it the hex's own cost where that is lower (`track  1 lower`)
    by_terrain: tuple[tuple[str, Fraction], ...] = ()
    lower: bool = False


@dataclass(frozen=True, slots=True)
class CombatEffect:
    """kind: none, prohibited, other, multiply (`attacker` and/or `defender` factor)."""

    kind: str
    attacker: Fraction | None = None
    defender: Fraction | None = None
    shift: int = 0              # column shift: - left, + right
    drm: int = 0                # die roll modifier on the roll read by odds
    across: str = "any-across"  # a hexside's shift, DRM and defender multiplier: when any attacking hex
                                # crosses it, or all-across
    role: str = ""              # `defending` or `attacking`: the effect holds only when `side` does so
    side: str = ""


@dataclass(frozen=True, slots=True)
class Terrain:
    """One row of the chart; kind is hex, hexside or road."""

    name: str
    kind: str
    movement: Movement
    combat: CombatEffect
    level: int | None = None    # terrain level, where the rulebook gives one
    line: str | None = None     # the CRT odds line this terrain reads, for terrain-line tables
    no_overrun: bool = False    # an overrun may not target a hex of it, nor cross it (a hexside)
    no_zoc: bool = False        # a ZOC does not extend into a hex of it, nor across it (a hexside)
    exerts_no_zoc: bool = False   # a unit in a hex of it exerts no ZOC (a fortress whose garrison holds its walls)


def hex_cost(rows: Iterable[Terrain]) -> Fraction | None:
    """The cost of a hex of terrains `rows` off the road: the highest of theirs; None when none gives one
    (a prohibited hex)."""
    costs = [r.movement.amount for r in rows if r.movement.kind in ("cost", "add") and r.movement.amount is not None]
    return max(costs) if costs else None


def road_rate(road: Terrain, hex_rows: Iterable[Terrain]) -> tuple[Fraction, str]:
    """The cost of following `road` into a hex of terrains `hex_rows`, and why, in words: its cost, its cost
    into that terrain (the highest of the hex's terrains it names), or the hex's own when lower (`lower`)."""
    rows = list(hex_rows)
    move = road.movement
    rate = move.amount if move.amount is not None else Fraction(1)
    named = {name.lower(): amount for name, amount in move.by_terrain}
    given = [(named[r.name.lower()], r.name) for r in rows if r.name.lower() in named]
    if given:
        amount, name = max(given)
        return amount, f"{_mp_text(amount)} along the {road.name} into {name}"
    if move.lower:
        own = hex_cost(rows)
        if own is not None and own < rate:
            names = "/".join(r.name for r in rows)
            return own, f"{_mp_text(own)}, the {names}'s own cost, lower than the {road.name}'s {_mp_text(rate)}"
    return rate, f"{_mp_text(rate)} along the {road.name}"


def _mp_text(amount: Fraction) -> str:
    return f"{amount} MP"


# ---- the price of a step: one computation for the engine's `move` and the chart's `entry_cost` ----------
# The parameters a step's terrain price reads, besides the chart: whether a road followed spares the hexsides
# it crosses, whether a hexside's cost (one written without `+`) adds to the hex's, whether a road opens
# prohibited terrain.  Absent, each is no, as the engine reads an absent flag.
STEP_FLAGS = ("roads.ignore_crossed_terrain", "movement.hexside_cost_added", "roads.negate_prohibited")

Flag = Callable[[str], bool]                  # a parameter's flag by name (the engine's reads it citing it)
Note = Callable[[str | None, str], None]      # a step of the derivation: the parameter applied (None: the chart)
Crossing = Callable[[Terrain], Fraction | None]   # the extra MPs for crossing a prohibited hexside, or None


def _quiet(parameter: str | None, text: str) -> None:
    pass


@dataclass(frozen=True, slots=True)
class StepPrice:
    """The terrain price of a step: its MPs (None: prohibited, `reason` says why), the road row followed, and
    the row whose movement cell says `stop`, if any."""

    cost: Fraction | None
    road: Terrain | None = None
    reason: str | None = None
    stop: Terrain | None = None


def followed_road(rows: Sequence[Terrain], way: str) -> Terrain | None:
    """The road row whose cost a step along road `way` pays: that row when it is a road of its own cost, else
    (a `road-like` row, a name off the chart) the chart's first road; None when the chart has no road."""
    named = next((r for r in rows if r.name.lower() == way.lower()), None)
    if named is not None and named.kind == "road" and named.movement.kind == "cost":
        return named
    return next((r for r in rows if r.kind == "road"), None)


def step_price(hex_rows: Sequence[Terrain], sides: Sequence[Terrain], road: Terrain | None, way: str | None,
               flag: Flag, note: Note = _quiet, *, target: str = "the hex", source: str = "",
               cross: Crossing | None = None) -> StepPrice:
    """The MPs to enter a hex of terrains `hex_rows` across hexside features `sides` (those no other hexside
    crossed negates), following road `way` (its row `road`, see followed_road) or no road (None).

    Along a road: the road's rate (into that terrain, or the hex's own if lower: road_rate); prohibited terrain
    stays closed unless `roads.negate_prohibited`; the hexsides crossed are spared where
    `roads.ignore_crossed_terrain` says so, else each adds its cost.  Off the road: the highest cost of the
    hex's terrains (1 when none gives one), then each hexside crossed: a `+` one adds its MPs, one of a cost
    adds it where `movement.hexside_cost_added` says so, else the larger cost applies; a prohibited one
    closes the step unless `cross` gives the extra MPs for crossing it (a unit's river crossing)."""
    blocked_hex = next((r for r in hex_rows if r.movement.kind == "prohibited"), None)
    blocked_side = next((r for r in sides if r.movement.kind == "prohibited"), None)
    if way is not None:
        blocked = blocked_hex or blocked_side
        if blocked is not None:
            if not flag("roads.negate_prohibited"):
                note("roads.negate_prohibited", f"{target}: the {way} does not open the {blocked.name}")
                return StepPrice(None, reason=f"{target} may not be entered: {blocked.name} is prohibited")
            note("roads.negate_prohibited", f"{target}: the {way} opens the {blocked.name}")
        rate = road_cost(road, hex_rows, target, note)
        if flag("roads.ignore_crossed_terrain"):
            note("roads.ignore_crossed_terrain", f"{target}: {_mp_text(rate)} along the {way}, its terrain and "
                                                 "hexside ignored")
            return StepPrice(rate, road=road)
        cost = rate
        for side in sides:
            if side.movement.kind in ("add", "cost") and side.movement.amount is not None:
                cost += side.movement.amount
                note("roads.ignore_crossed_terrain",
                     f"{target}: the {way} does not spare the {side.name}: +{_mp_text(side.movement.amount)}")
        note("roads.ignore_crossed_terrain", f"{target}: {_mp_text(cost)} along the {way}")
        return StepPrice(cost, road=road, stop=stops(sides))
    if blocked_hex is not None:
        note(None, f"{target}: {blocked_hex.name} is prohibited terrain")
        return StepPrice(None, reason=f"{target} may not be entered: {blocked_hex.name} is prohibited")
    own = hex_cost(hex_rows)
    cost = own if own is not None else Fraction(1)
    names = "/".join(r.name for r in hex_rows) or "terrain"
    note(None, f"{target}: {names}, {_mp_text(cost)}")
    for side in sides:
        kind, amount = side.movement.kind, side.movement.amount
        if kind == "prohibited":
            extra = cross(side) if cross is not None else None
            if extra is None:
                if cross is None:
                    note(None, f"{source}/{target}: the {side.name} hexside is prohibited")
                between = f" between {source} and {target}" if source else ""
                return StepPrice(None, reason=f"the {side.name}{between} may not be crossed")
            cost += extra
            continue
        if amount is None:
            continue
        if kind == "add":
            cost += amount
            step = f"{target}: +{_mp_text(amount)} for the {side.name}"
            if flag("movement.hexside_cost_added"):
                note("movement.hexside_cost_added", step)
            else:
                note(None, step + " (the chart adds it)")
        elif kind == "cost":
            if flag("movement.hexside_cost_added"):
                cost += amount
                note("movement.hexside_cost_added", f"{target}: +{_mp_text(amount)} for the {side.name}")
            else:
                cost = max(cost, amount)
                note("movement.hexside_cost_added",
                     f"{target}: the {side.name} is not added: the larger cost, {_mp_text(cost)}")
    return StepPrice(cost, stop=stops([*hex_rows, *sides]))


def road_cost(road: Terrain | None, hex_rows: Sequence[Terrain], target: str = "the hex",
              note: Note = _quiet) -> Fraction:
    """The MPs of following `road` into a hex of terrains `hex_rows` (1 with no road row); a road whose cost
    depends on the terrain entered (`trail  1, forest 2`, `track  1 lower`) says which, citing the chart."""
    if road is None or road.movement.amount is None:
        return Fraction(1)
    if not (road.movement.by_terrain or road.movement.lower):
        return road.movement.amount
    rate, why = road_rate(road, hex_rows)
    note(None, f"{target}: {why}")
    return rate


def stops(rows: Iterable[Terrain]) -> Terrain | None:
    """The first of `rows` (the terrain entered, the hexsides crossed) whose movement cell says `stop`."""
    return next((r for r in rows if r.movement.stop), None)


def in_chart_order(rows: Iterable[Terrain], chart: Sequence[Terrain]) -> list[Terrain]:
    """`rows` in the order of the chart's rows `chart` (by name; a row off the chart last)."""
    place: dict[str, int] = {row.name: index for index, row in enumerate(chart)}

    def rank(row: Terrain) -> int:
        return place.get(row.name, len(place))
    return sorted(rows, key=rank)


def negated(rows: Iterable[Terrain]) -> frozenset[str]:
    """The names, in lower case, of the rows that a `negates` row among `rows` cancels (a bridge's river)."""
    return frozenset(r.movement.target.lower() for r in rows if r.movement.kind == "negates" and r.movement.target)


class TerrainEffectsChart(Mapping[str, Terrain]):
    """The chart's rows by name; names match case-insensitively."""

    def __init__(self, rows: Iterable[Terrain], rule: str | None = None, flags: Iterable[str] = ()):
        self.rows = tuple(rows)
        self.rule = rule      # the rule the chart applies, for the engine's steps (its first cite)
        # the parameters of STEP_FLAGS the rulebook sets to yes: entry_cost prices a step as the engine does
        # under them (the engine itself reads them from its RuleSet, citing each)
        self.flags = frozenset(flags)
        unknown = self.flags - set(STEP_FLAGS)
        if unknown:
            raise ValueError(f"not a flag of a step's price: {', '.join(sorted(unknown))}")
        self._by_name = {row.name.lower(): row for row in self.rows}
        # the names, in lower case, of the hexes and hexside features closed to movement (the searches ask)
        self.closed_hexes = frozenset(r.name.lower() for r in self.rows
                                      if r.kind == "hex" and r.movement.kind == "prohibited")
        self.closed_hexsides = frozenset(r.name.lower() for r in self.rows
                                         if r.kind == "hexside" and r.movement.kind == "prohibited")
        # answers already worked out, by question: the chart never changes, so each is worked out once
        self._costs: dict[Hashable, float | None] = {}
        self._asked: dict[Hashable, float | None] = {}     # entry costs by the question exactly as asked
        self._effects: dict[Hashable, CombatEffect] = {}
        self._across: dict[Hashable, CombatEffect] = {}
        self._multipliers: dict[Hashable, Fraction | None] = {}
        self._crossed: dict[Hashable, tuple[Terrain, ...]] = {}
        # the rows whose combat effect holds for one side only (`1L defending allies`), and the chart as each
        # pair of sides fights on it
        self.one_side = tuple(r for r in self.rows if r.combat.side)
        self._views: dict[tuple[str, str], TerrainEffectsChart] = {}

    def level(self, names: Iterable[str]) -> int | None:
        """The highest terrain level of the hex terrains `names` on the chart; None when none has one."""
        levels = [level for n in names if n in self and (level := self[n].level) is not None]
        return max(levels, default=None)

    def for_sides(self, attacker: str, defender: str) -> TerrainEffectsChart:
        """The chart as `attacker` attacking `defender` fights on it: a row whose combat effect holds for one
        side only has no effect for the other.  The chart itself when no row is for one side.  Raises
        ValueError when a row needs a side the combat does not give."""
        if not self.one_side:
            return self
        key = (attacker, defender)
        view = self._views.get(key)
        if view is None:
            rows = []
            for row in self.rows:
                effect = row.combat
                if effect.side:
                    given = defender if effect.role == "defending" else attacker
                    if not given:
                        raise ValueError(f"terrain {row.name!r} has its combat effect only when {effect.side} is "
                                         f"{effect.role}: the combat must say which side "
                                         f"{'defends' if effect.role == 'defending' else 'attacks'}")
                    if given != effect.side:
                        row = replace(row, combat=CombatEffect("none"))
                rows.append(row)
            view = self._views[key] = TerrainEffectsChart(rows, self.rule, self.flags)
            view.one_side = ()     # the sides are settled: a row kept is one whose side fights here
        return view

    def __getitem__(self, name: str) -> Terrain:
        try:
            return self._by_name[name.lower()]
        except (KeyError, AttributeError):
            close = difflib.get_close_matches(str(name).lower(), self._by_name, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise KeyError(f"no terrain {name!r} on this chart{hint}") from None

    def __iter__(self) -> Iterator[str]:
        return (row.name for row in self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._by_name

    def _hexsides(self, hexsides: TerrainNames) -> tuple[list[Terrain], frozenset[str]]:
        if isinstance(hexsides, str):
            hexsides = (hexsides,)
        sides = [self[h] for h in hexsides]
        for side in sides:
            if side.kind != "hexside":
                raise ValueError(f"{side.name!r} is {side.kind} terrain, not a hexside feature: pass it as the "
                                 "hex's terrain")
        cancelled = negated(sides)
        return [s for s in sides if s.name.lower() not in cancelled], cancelled

    def _hex(self, terrain: TerrainNames) -> list[Terrain]:
        names = (terrain,) if isinstance(terrain, str) else tuple(terrain)
        rows = [self[n] for n in names]
        for row in rows:
            if row.kind == "hexside":
                raise ValueError(f"{row.name!r} is a hexside feature, not hex terrain: pass it in hexsides")
        return [r for r in rows if r.kind != "road"] or rows

    def road(self, road: bool | str) -> Terrain:
        roads = [r for r in self.rows if r.kind == "road"]
        if isinstance(road, str):
            return self[road]
        if not roads:
            raise LookupError("this chart has no roads")
        return roads[0]

    def entry_cost(self, terrain: TerrainNames, hexsides: TerrainNames = (), road: bool | str = False,
                   ezoc_cost: Fraction | int = Fraction(0)) -> float | None:
        """MPs to enter a hex of `terrain` across `hexsides`; None when prohibited (see _entry_cost)."""
        asked = (terrain, hexsides, road, ezoc_cost)
        try:        # the question as asked, before its names are put in lower case (equal as asked: equal after)
            return self._asked[asked]
        except (KeyError, TypeError):       # TypeError: a list of names, which is no key
            pass
        key = (_key(terrain), _key(hexsides), _key(road), ezoc_cost)
        try:
            cost = self._costs[key]
        except KeyError:
            cost = self._costs[key] = self._entry_cost(terrain, hexsides, road, ezoc_cost)
        if len(self._asked) < 4096:
            try:
                self._asked[asked] = cost
            except TypeError:
                pass
        return cost

    def _entry_cost(self, terrain: TerrainNames, hexsides: TerrainNames, road: bool | str,
                    ezoc_cost: Fraction | int) -> float | None:
        """MPs to enter a hex of `terrain` across `hexsides`; None when prohibited.  The price is the engine's
        (step_price, which `move` pays), under the flags this chart was made with (`flags`)."""
        sides, _ = self._hexsides(hexsides)
        rows = self._hex(terrain)
        way: str | None = None
        row: Terrain | None = None
        if road:
            row = followed_road(self.rows, self.road(road).name)
            way = row.name if row is not None else None
        elif not any(r.movement.kind in ("cost", "add", "prohibited") for r in rows):
            raise ValueError(f"{terrain!r} takes the cost of the hex's other terrain: name that terrain too")
        price = step_price([r for r in rows if r.kind == "hex"], sides, row, way, self.flags.__contains__)
        return None if price.cost is None else float(price.cost + ezoc_cost)

    def hex_effect(self, terrain: TerrainNames, combination: str = "cumulative") -> CombatEffect:
        """The combat effect of a hex holding one or several terrains, combined by `combination`."""
        key = (_key(terrain), combination)
        try:
            return self._effects[key]
        except KeyError:
            effect = self._effects[key] = self._hex_effect(terrain, combination)
            return effect

    def _hex_effect(self, terrain: TerrainNames, combination: str) -> CombatEffect:
        return _combined([r.combat for r in self._in_order(self._hex(terrain))], combination)

    def _in_order(self, rows: Iterable[Terrain]) -> list[Terrain]:
        """`rows` in the chart's order: a combination whose terrains tie (defender-best's two terrains equally
        good, most-restrictive's -1 and +1 DRMs) takes the same one however the caller orders the names."""
        return in_chart_order(rows, self.rows)

    def hex_effect_across(self, terrain: TerrainNames, hexsides: TerrainNames,
                          combination: str = "cumulative") -> CombatEffect:
        """The combat effect of a hex with the hexside features an attack crosses counted as more of its
        terrains (`combat.hexside_combination = with-terrain`), all combined by `combination`: a ford's
        Dx2 with a rough hex's Dx2 is Dx2 under most-restrictive.  A hexside another one crossed negates
        (a bridge's river) counts for nothing."""
        key = (_key(terrain), _key(hexsides), combination)
        try:
            return self._across[key]
        except KeyError:
            rows = self._in_order(self._hex(terrain) + self._hexsides(hexsides)[0])
            effect = self._across[key] = _combined([r.combat for r in rows], combination)
            return effect

    def crossed_effects(self, crossings: Iterable[TerrainNames]) -> tuple[Terrain, ...]:
        """The hexside features whose column shift, DRM or defender multiplier applies to an attack, given
        the hexsides each attacking hex crosses: a feature applies when any attacking hex crosses it (and no
        other hexside it crosses negates it), an `all-across` one only when every attacking hex does.  In
        chart order.  (An attacker multiplier applies hex by hex: attack_multiplier.)"""
        asked: tuple[tuple[str, ...], ...] = tuple((c,) if isinstance(c, str) else tuple(c) for c in crossings)
        key = _key(asked)
        try:
            return self._crossed[key]
        except KeyError:
            found = self._crossed[key] = self._crossed_effects(asked)
            return found

    def _crossed_effects(self, crossings: tuple[tuple[str, ...], ...]) -> tuple[Terrain, ...]:
        crossed = [{s.name for s in self._hexsides(c)[0]} for c in crossings]
        found = []
        for row in self.rows:
            if row.kind != "hexside" or not (row.combat.shift or row.combat.drm or row.combat.defender is not None):
                continue
            if row.combat.kind != "multiply" or not crossed:
                continue
            test = all if row.combat.across == "all-across" else any
            if test(row.name in names for names in crossed):
                found.append(row)
        return tuple(found)

    def attack_multiplier(self, terrain: TerrainNames, hexsides: TerrainNames = (),
                          combination: str = "cumulative", with_terrain: bool = False) -> float | None:
        """The factor on attackers: the hex's and each hexside's (with_terrain: the hexsides combined with
        the hex by `combination`, `combat.hexside_combination = with-terrain`); None when attacking is
        prohibited."""
        factor = self.attack_factor(terrain, hexsides, combination, with_terrain)
        return None if factor is None else float(factor)

    def defense_multiplier(self, terrain: TerrainNames, hexsides: TerrainNames = (),
                           combination: str = "cumulative", with_terrain: bool = False) -> float | None:
        """The factor on the defender's strength; None when attacking into it is prohibited."""
        factor = self.defense_factor(terrain, hexsides, combination, with_terrain)
        return None if factor is None else float(factor)

    def attack_factor(self, terrain: TerrainNames, hexsides: TerrainNames = (),
                      combination: str = "cumulative", with_terrain: bool = False) -> Fraction | None:
        """attack_multiplier, exactly (a third stays a third)."""
        return self._side_multiplier("attacker", terrain, hexsides, combination, with_terrain)

    def defense_factor(self, terrain: TerrainNames, hexsides: TerrainNames = (),
                       combination: str = "cumulative", with_terrain: bool = False) -> Fraction | None:
        """defense_multiplier, exactly."""
        return self._side_multiplier("defender", terrain, hexsides, combination, with_terrain)

    def _side_multiplier(self, side: str, terrain: TerrainNames, hexsides: TerrainNames,
                         combination: str, with_terrain: bool = False) -> Fraction | None:
        key = (side, _key(terrain), _key(hexsides), combination, with_terrain)
        try:
            return self._multipliers[key]
        except KeyError:
            factor = self._multipliers[key] = self._work_out_multiplier(side, terrain, hexsides, combination,
                                                                        with_terrain)
            return factor

    def _work_out_multiplier(self, side: str, terrain: TerrainNames, hexsides: TerrainNames,
                             combination: str, with_terrain: bool) -> Fraction | None:
        if with_terrain:
            effect = self.hex_effect_across(terrain, hexsides, combination)
            return None if effect.kind == "prohibited" else _factor(effect, side)
        hex_ = self.hex_effect(terrain, combination)
        if hex_.kind == "prohibited":
            return None
        factor = self._multiplier(side, self._hexsides(hexsides)[0])
        return None if factor is None else _factor(hex_, side) * factor

    @staticmethod
    def _multiplier(side: str, rows: list[Terrain]) -> Fraction | None:
        factor = Fraction(1)
        for row in rows:
            if row.combat.kind == "prohibited":
                return None
            value = row.combat.attacker if side == "attacker" else row.combat.defender
            if row.combat.kind == "multiply" and value is not None:
                factor *= value
        return factor


def _key(value: object) -> Hashable:
    """A question's argument as a cache key: names in lower case (names match case-insensitively), a list
    or tuple of them as a tuple."""
    if isinstance(value, str):
        return value.lower()
    if isinstance(value, (list, tuple)):
        return tuple(v.lower() if isinstance(v, str) else _key(v) for v in value)
    if isinstance(value, Hashable):
        return value
    raise TypeError(f"a terrain name or a sequence of them, not {type(value).__name__}")


def _combined(rows: list[CombatEffect], combination: str) -> CombatEffect:
    """The combat effects of several terrains (a hex's, and with `with-terrain` the hexsides crossed) as one,
    combined by `combination` (see COMBINATIONS)."""
    if combination not in COMBINATIONS:
        raise ValueError(f"unknown terrain combination {combination!r}: one of {', '.join(COMBINATIONS)}")
    effects = [e for e in rows if e.kind != "other"]
    if any(e.kind == "prohibited" for e in effects):
        return CombatEffect("prohibited")
    attack = [_factor(e, "attacker") for e in effects] or [Fraction(1)]
    defense = [_factor(e, "defender") for e in effects] or [Fraction(1)]
    shifts = [e.shift for e in effects] or [0]
    drms = [e.drm for e in effects] or [0]
    if combination == "most-restrictive":
        factors, shift = (min(attack), max(defense)), min(shifts)
        drm = max(drms, key=abs)
    elif combination == "defender-best":
        ranked: list[tuple[int, Fraction, Fraction, int, int]] = sorted(
            (shifts[i], -defense[i], attack[i], -abs(drms[i]), i) for i in range(len(shifts)))
        best = ranked[0][4]
        factors, shift, drm = (attack[best], defense[best]), shifts[best], drms[best]
    else:
        factors, shift, drm = (_product(attack), _product(defense)), sum(shifts), sum(drms)
    kind = "multiply" if factors[0] != 1 or factors[1] != 1 else "none"
    return CombatEffect(kind, factors[0], factors[1], shift, drm)


def _factor(effect: CombatEffect, side: str) -> Fraction:
    value = effect.attacker if side == "attacker" else effect.defender
    return Fraction(value) if effect.kind == "multiply" and value is not None else Fraction(1)


def _product(values: list[Fraction]) -> Fraction:
    result = Fraction(1)
    for value in values:
        result *= value
    return result
