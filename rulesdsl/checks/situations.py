"""Situations as written (`example` blocks, `rulesdsl explain`) to the rules engine's runtime `Situation`.

Three things live here, each reading only the model (`ir.Situation`):

- `check_example` / `check_situation`: what can be checked of a situation by itself, without the rules
  (validate.CHECKS): hex numbers, hexes on the declared map, hexsides between touching hexes, counters of
  three numbers, unit names given once, every unit an `expect` line names placed on the map, one map, one
  phasing side, one phase, a result on every `expect` line of an example;
- `build`: the runtime `Situation`, with every terrain, hexside feature and road checked against the
  Terrain Effects Chart in effect ("did you mean"), or the positioned diagnostics that stop it;
- `unit_text`, `done_text`, `lines`: a unit, a `done` line and a whole situation as the notation writes them,
  from the model (messages, `diff`, `explain`); each query kind's own words, and its checks, are its module's
  in rulesdsl.queries (`query_text` and `result_text` re-exported here).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from rulesdsl.language.limits import MAX_MAP_HEXES, MAX_MOVEMENT_POINTS, MAX_SITUATION_UNITS
from rulesdsl.model import ir
from rulesdsl.model.catalogue import parameter_text
from rulesdsl.queries import CheckContext, query_text, result_text
from rulesdsl.queries import check as check_expectation
from rulesdsl.errors import Diagnostic, Span, suggest
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.situation import NOTHING_YET, Counter, Record, Situation

__all__ = ["build", "check_example", "check_situation", "done_text", "history", "query_text", "result_text", "unit_text"]


# ---- the notation, from the model ----------------------------------------------------------------------
def _words(texts: Iterable[ir.Text]) -> str:
    return " ".join(t.value for t in texts)


def unit_text(unit: ir.SituationUnit) -> str:
    """A unit line after its name: `allies 3-2-9 at 23.15 steps 2 ...`."""
    parts = [unit.side.value, "-".join(s.value for s in unit.strengths), "at", unit.hex.value]
    if unit.steps is not None:
        parts += ["steps", str(unit.steps)]
    if unit.type is not None:
        parts += ["type", unit.type.value]
    if unit.size is not None:
        parts += ["size", unit.size.value]
    if unit.capabilities:
        parts += ["can", ", ".join(c.value for c in unit.capabilities)]
    if unit.states:
        parts += ["marked", ", ".join(s.value for s in unit.states)]
    if unit.started is not None:
        parts += ["started", unit.started.value]
    if unit.no_attack_strength:
        parts.append("no-attack-strength")
    return " ".join(parts)


def done_text(done: ir.Done) -> str:
    """A `done` line as the notation writes it, after its keyword."""
    return " ".join([str(done.kind), *(u.value for u in done.units), "on", done.hex.value,
                     *(["in", done.phase.value] if done.phase is not None else [])])


def lines(situation: ir.Situation) -> dict[str, str]:
    """A situation as {line key: what it says}, keyed by meaning (diff)."""
    out: dict[str, str] = {}
    if situation.notes:
        out["notes"] = " / ".join(n.value for n in situation.notes)
    for i, area in enumerate(situation.maps):
        out["map" if i == 0 else f"map {i + 1}"] = f"{area.first.value} - {area.last.value} {_words(area.terrain)}".strip()
    for item in situation.hexes:
        marked = f" marked {', '.join(m.value for m in item.markers)}" if item.markers else ""
        _put(out, f"hex {item.hex.value}", _words(item.terrain) + marked)
    for side in situation.hexsides:
        _put(out, f"hexside {side.hexside.value}", _words(side.features))
    for road in situation.roads:
        _put(out, f"road {road.road.value if road.road else ''}".strip(), _words(road.hexes))
    for source in situation.sources:
        _put(out, f"source {source.side.value}", _words(source.hexes))
    for name in ("phasing", "phase", "turn"):
        if getattr(situation, name):
            out[name] = _words(getattr(situation, name))
    for unit in situation.units:
        _put(out, f"unit {unit.name.value}", unit_text(unit))
    for done in situation.done:
        _put(out, "done", done_text(done))
    for parameter in situation.assumed:
        _put(out, f"assume {parameter.name.value}", parameter_text(parameter))
    for expectation in situation.expectations:
        _put(out, f"expect {query_text(expectation)}", result_text(expectation) or "(query)")
    return out


def _put(out: dict[str, str], key: str, value: str) -> None:
    n, original = 2, key
    while key in out:
        key = f"{original} ({n})"
        n += 1
    out[key] = value


# ---- checks of a situation by itself ------------------------------------------------------------------
def _hex(text: ir.Text, problems: list[Diagnostic]) -> Hex | None:
    try:
        return Hex.parse(text.value)
    except ValueError:
        problems.append(Diagnostic(f"'{text.value}' is not a hex number", text.span,
                                   hint="write a hex as its hexrow, a point and the hex in it, like 23.15 or A10.10"))
        return None


def _strength(text: ir.Text) -> Fraction | None:
    try:
        num, _, den = text.value.partition("/")
        value = Fraction(int(num), int(den) if den else 1)
    except (ValueError, ZeroDivisionError):
        return None
    return value


def area_of(situation: ir.Situation, problems: list[Diagnostic]) -> HexMap | None:
    """The map a situation declares (its first `map` line), or None after reporting why there is none."""
    if not situation.maps and situation.expectations and \
            all(e.kind == ir.ExpectKind.PHASES for e in situation.expectations):
        return HexMap.rectangle(1, 1)      # the sequence of play is the same on any map: it asks for none
    if not situation.maps:
        problems.append(Diagnostic("a situation needs a map", situation.span,
                                   hint="give the playable hexes and their terrain, like: map 1.01 - 10.10 open"))
        return None
    area = situation.maps[0]
    first, last = _hex(area.first, problems), _hex(area.last, problems)
    if first is None or last is None:
        return None
    if first.map != last.map or first.column > last.column or first.row > last.row:
        problems.append(Diagnostic(f"the map {first} - {last} is no rectangle", area.span,
                                   hint="give the lower-left hex first and the upper-right hex last, on one map "
                                        "sheet, like: map 22.14 - 27.19"))
        return None
    size = (last.column - first.column + 1) * (last.row - first.row + 1)
    if size > MAX_MAP_HEXES:
        problems.append(Diagnostic(f"the map {first} - {last} has {size:,} hexes, more than the {MAX_MAP_HEXES:,} "
                                   f"a situation may have", area.span,
                                   hint="give only the part of the map the example is about: its first line "
                                        "names the lower-left and upper-right hexes of that part"))
        return None
    return HexMap.rectangle(last.column, last.row, letter=first.map, first_column=first.column,
                            first_row=first.row)


def game_turn(text: ir.Text) -> int | None:
    """`turn 3`: the game turn a situation is on; None when it is no whole number from 1."""
    return int(text.value) if re.fullmatch(r"[0-9]+", text.value) and int(text.value) >= 1 else None


def check_example(example: ir.Example) -> list[Diagnostic]:
    return check_situation(example.situation, query=False)


def check_situation(situation: ir.Situation, query: bool = True) -> list[Diagnostic]:
    """What is wrong with a situation by itself; `query`: its `expect` lines may leave out the result
    (`rulesdsl explain`), else each must give one."""
    problems: list[Diagnostic] = []
    _lines_once(situation, problems)
    board = _Board(situation, area_of(situation, problems), problems)
    _map_features(situation, board)
    if len(situation.units) > MAX_SITUATION_UNITS:    # the parser's limits refuse it first; a model built otherwise
        problems.append(Diagnostic(f"a situation has more than {MAX_SITUATION_UNITS:,} units",
                                   situation.units[MAX_SITUATION_UNITS].span,
                                   "give only the units the example is about: every question the engine answers "
                                   "reads each of them"))
        return problems
    names = _units(situation, board)
    _done_lines(situation, names, board)
    _assumed_once(situation, problems)
    for expectation in situation.expectations:
        problems += check_expectation(expectation, CheckContext(names, board.on_map, board.edge), query)
    return problems


def _lines_once(situation: ir.Situation, problems: list[Diagnostic]) -> None:
    """A situation's map, phasing, phase and turn lines: one each, and the turn a game turn."""
    for extra in situation.maps[1:]:
        problems.append(Diagnostic("a situation has one map", extra.span, hint="give one map line: FIRST - LAST"))
    for name in ("phasing", "phase", "turn"):
        for extra in getattr(situation, name)[1:]:
            problems.append(Diagnostic(f"a situation has one '{name}' line", extra.span))
    for turn in situation.turn[:1]:
        if game_turn(turn) is None:
            problems.append(Diagnostic(f"'{turn.value}' is not a game turn", turn.span,
                                       "a game turn is a whole number from 1: turn 3"))


@dataclass(frozen=True)
class _Board:
    """The situation's map (None: it has no valid map line) and where the problems its hexes raise go."""

    situation: ir.Situation
    area: HexMap | None
    problems: list[Diagnostic]

    def on_map(self, text: ir.Text) -> Hex | None:
        """The hex `text` names, when it is one and on the map (else a problem, and None)."""
        hex = _hex(text, self.problems)
        if hex is not None and self.area is not None and hex not in self.area:
            first, last = self.situation.maps[0].first.value, self.situation.maps[0].last.value
            self.problems.append(Diagnostic(f"hex {text.value} is off the map", text.span,
                                            hint=f"the map is {first} - {last}"))
            return None
        return hex

    def touching(self, a: Hex | None, b: Hex | None, span: Span) -> None:
        """A problem when two hexes a hexside or a road step lies between do not touch."""
        if a is not None and b is not None and self.area is not None and (a == b or not self.area.adjacent(a, b)):
            self.problems.append(Diagnostic(f"hexes {a} and {b} do not touch", span,
                                            hint="a hexside and each step of a road lie between two hexes that "
                                                 "touch"))

    def edge(self, here: ir.Text, there: ir.Text) -> bool:
        """Whether `there` lies just across the map's edge from `here`, a hex of the map."""
        a, b = _hex(here, []), _hex(there, [])
        return self.area is not None and a is not None and b is not None and self.area.beyond_edge(a, b)


def _map_features(situation: ir.Situation, board: _Board) -> None:
    """The hexes, hexsides, roads and supply sources a situation draws: on its map, and touching where they
    must."""
    for item in situation.hexes:
        board.on_map(item.hex)
    for side in situation.hexsides:
        low, _, high = side.hexside.value.partition("/")
        a = board.on_map(ir.Text(span=side.hexside.span, value=low))
        b = board.on_map(ir.Text(span=side.hexside.span, value=high))
        board.touching(a, b, side.hexside.span)
    for road in situation.roads:
        hexes = [board.on_map(h) for h in road.hexes]
        for (a, b), text in zip(zip(hexes, hexes[1:]), road.hexes[1:]):
            board.touching(a, b, text.span)
    for source in situation.sources:
        for hex in source.hexes:
            board.on_map(hex)


def _units(situation: ir.Situation, board: _Board) -> dict[str, ir.SituationUnit]:
    """The situation's units by name (the first of a name twice), each checked: on the map, three printed
    values, an allowance within bounds, a step at least."""
    problems = board.problems
    names: dict[str, ir.SituationUnit] = {}
    for unit in situation.units:
        if unit.name.value in names:
            first = names[unit.name.value].name.span
            problems.append(Diagnostic(f"two units are named '{unit.name.value}'", unit.name.span,
                                       hint=f"the first is at line {first.line}; give each unit a name of its own"))
        names.setdefault(unit.name.value, unit)
        board.on_map(unit.hex)
        if unit.started is not None:
            board.on_map(unit.started)
        if len(unit.strengths) != 3 or any(_strength(s) is None for s in unit.strengths):
            start, end = unit.strengths[0].span, unit.strengths[-1].span
            problems.append(Diagnostic(
                f"a counter is attack-defense-movement, not '{'-'.join(s.value for s in unit.strengths)}'",
                Span(start.path, start.line, start.column, end.end_line, end.end_column),
                hint="give its three printed values, like 3-2-9 (or 1/2-2-9)"))
        elif (allowance := _strength(unit.strengths[2])) is not None and allowance > MAX_MOVEMENT_POINTS:
            problems.append(Diagnostic(f"unit {unit.name.value} has a Movement Allowance of {allowance}, more than "
                                       f"the {MAX_MOVEMENT_POINTS:,} MPs an allowance may be", unit.strengths[2].span,
                                       hint="give the counter's printed values (MAX_MOVEMENT_POINTS in limits.py)"))
        if unit.steps is not None and unit.steps < 1:
            problems.append(Diagnostic(f"unit {unit.name.value} has no steps", unit.span,
                                       hint="a unit on the map has at least one step"))
    return names


def _done_lines(situation: ir.Situation, names: dict[str, ir.SituationUnit], board: _Board) -> None:
    """Each `done` line: units of the situation, all of one side, at a hex on the map."""
    for done in situation.done:
        for written in done.units:
            if written.value not in names:
                board.problems.append(Diagnostic(f"no unit '{written.value}' in this situation", written.span,
                                                 hint=suggest(written.value, names) or
                                                 "place it with a unit line: unit NAME SIDE A-D-M at HEX"))
        board.on_map(done.hex)
        sides = {names[u.value].side.value for u in done.units if u.value in names}
        if len(sides) > 1:
            board.problems.append(Diagnostic(
                f"the units of one {done.kind} are of one side, not {' and '.join(sorted(sides))}", done.span,
                hint=f"write a `done {done.kind}` line for each side"))


def _assumed_once(situation: ir.Situation, problems: list[Diagnostic]) -> None:
    """Each parameter a situation assumes, assumed once."""
    assumed: dict[str, ir.Parameter] = {}
    for parameter in situation.assumed:
        earlier = assumed.setdefault(parameter.name.value, parameter)
        if earlier is not parameter:
            problems.append(Diagnostic(f"{parameter.name.value} is assumed twice", parameter.name.span,
                                       hint=f"the first is on line {earlier.span.line}: keep one"))


# ---- the runtime situation -------------------------------------------------------------------------------
def _terrain_names(chart: object, kind: str) -> list[str]:
    rows = getattr(chart, "rows", ()) if chart is not None else ()
    return [row.name for row in rows if row.kind == kind]


def terrain_problems(situation: ir.Situation, kinds: dict[str, list[str]]) -> list[Diagnostic]:
    """A situation's terrain against a Terrain Effects Chart's names by kind (hex, hexside, road): what `build`
    checks against the generated module's chart, and resolve against the chart in effect (so that an example
    naming an unknown terrain is reported in the same run as the rulebook's other errors)."""
    problems: list[Diagnostic] = []
    words = {"hex": "hex terrain", "hexside": "hexside feature", "road": "road"}

    def known(text: ir.Text, kind: str) -> None:
        if text.value not in kinds[kind]:
            others = [k for k in kinds if k != kind and text.value in kinds[k]]
            hint = (f"'{text.value}' is a {words[others[0]]} of the Terrain Effects Chart" if others else
                    suggest(text.value, kinds[kind]) or
                    f"the chart's {words[kind]}s are {', '.join(kinds[kind]) or 'none'}")
            problems.append(Diagnostic(f"unknown {words[kind]} '{text.value}'", text.span, hint=hint))

    for text in (*(t for area in situation.maps[:1] for t in area.terrain), *(t for h in situation.hexes for t in h.terrain)):
        known(text, "hex")
    for side in situation.hexsides:
        for text in side.features:
            known(text, "hexside")
    for road in situation.roads:
        if road.road is not None:
            known(road.road, "road")
        elif not kinds["road"]:
            problems.append(Diagnostic("the Terrain Effects Chart has no roads", road.span))
    return problems


def build(situation: ir.Situation, chart: object = None) -> tuple[Situation | None, list[Diagnostic]]:
    """The runtime situation, with its terrain checked against `chart` (a runtime TerrainEffectsChart, or
    None to check no terrain), or None and the diagnostics that stop it."""
    problems = check_situation(situation)
    if problems:
        return None, problems
    area = area_of(situation, problems)
    assert area is not None
    if chart is not None:
        problems += terrain_problems(situation, {kind: _terrain_names(chart, kind) for kind in ("hex", "hexside", "road")})
        if problems:
            return None, problems
    roads: dict[Hexside, str] = {}
    for road in situation.roads:
        name = road.road.value if road.road is not None else (_terrain_names(chart, "road") or ["road"])[0]
        hexes = [Hex.parse(h.value) for h in road.hexes]
        for a, b in zip(hexes, hexes[1:]):
            roads[Hexside.between(a, b)] = name
    units = []
    for unit in situation.units:
        attack, defense, movement = (_strength(s) or Fraction(0) for s in unit.strengths)
        units.append(Counter(unit.name.value, unit.side.value, Hex.parse(unit.hex.value), attack=attack,
                             defense=defense, movement=movement, steps=unit.steps or 1,
                             type=unit.type.value if unit.type else "", size=unit.size.value if unit.size else "",
                             capabilities=frozenset(c.value for c in unit.capabilities),
                             states=frozenset(s.value for s in unit.states),
                             has_attack_strength=not unit.no_attack_strength))
    sides = list(dict.fromkeys(u.side for u in units))
    runtime = Situation(
        area,
        terrain={Hex.parse(h.hex.value): tuple(t.value for t in h.terrain) for h in situation.hexes},
        markers={Hex.parse(h.hex.value): frozenset(m.value for m in h.markers) for h in situation.hexes if h.markers},
        default_terrain=tuple(t.value for t in situation.maps[0].terrain) if situation.maps else (),
        hexsides={Hexside.parse(s.hexside.value): tuple(t.value for t in s.features) for s in situation.hexsides},
        roads=roads,
        units=tuple(units),
        supply_sources={s.side.value: frozenset(Hex.parse(h.value) for h in s.hexes) for s in situation.sources},
        phasing=situation.phasing[0].value if situation.phasing else (sides[0] if sides else ""),
        phase=situation.phase[0].value if situation.phase else "movement",
        turn=game_turn(situation.turn[0]) if situation.turn else None,
        started_in={u.name.value: Hex.parse(u.started.value) for u in situation.units if u.started is not None},
    )
    return replace(runtime, history=history(situation, runtime)), []


def history(situation: ir.Situation, runtime: Situation) -> Record:
    """What the `done` lines say was made before: an overrun or attack `in` another phase than the
    situation's own counts only for the player turn; an attack's defenders are the enemy units now in its hex."""
    record = NOTHING_YET
    for done in situation.done:
        units = [u.value for u in done.units]
        hex = Hex.parse(done.hex.value)
        this_phase = done.phase is None or done.phase.value == runtime.phase
        if done.kind == ir.DoneKind.OVERRUN:
            record = record.overrun(units, hex, this_phase=this_phase)
        else:
            side = runtime.unit(units[0]).side
            defenders = [u.name for u in runtime.units_at(hex) if u.side != side]
            record = record.attack(units, hex, defenders, this_phase=this_phase)
    return record
