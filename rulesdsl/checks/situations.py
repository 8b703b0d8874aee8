"""Situations as written (`example` blocks, `rulesdsl explain`) to the rules engine's runtime `Situation`.

Three things live here, each reading only the model (`ir.Situation`):

- `check_example` / `check_situation`: what can be checked of a situation by itself, without the rules
  (validate.CHECKS): hex numbers, hexes on the declared map, hexsides between touching hexes, counters of
  three numbers, unit names given once, every unit an `expect` line names placed on the map, one map, one
  phasing side, one phase, a result on every `expect` line of an example;
- `build`: the runtime `Situation`, with every terrain, hexside feature and road checked against the
  Terrain Effects Chart in effect ("did you mean"), or the positioned diagnostics that stop it;
- `query_text`, `result_text`, `unit_text`: a query, a result and a unit as the notation writes them, from
  the model (messages, `diff`, `explain`).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction

from rulesdsl.language.limits import MAX_MAP_HEXES, MAX_MOVEMENT_POINTS, MAX_RETREAT_HEXES, MAX_SITUATION_UNITS
from rulesdsl.model import ir
from rulesdsl.model.catalogue import parameter_text
from rulesdsl.errors import Diagnostic, Span, suggest
from rulesdsl.runtime.hexmap import Hex, HexMap, Hexside
from rulesdsl.runtime.situation import NOTHING_YET, Counter, Record, Situation

__all__ = ["build", "check_example", "check_situation", "done_text", "history", "query_text", "result_text", "unit_text"]


# ---- the notation, from the model ----------------------------------------------------------------------
def _number(value: Fraction) -> str:
    return str(value)


def _words(texts: Iterable[ir.Text]) -> str:
    return " ".join(t.value for t in texts)


def query_text(expectation: ir.Expectation) -> str:
    """The query of an `expect` line as the notation writes it (what `rulesdsl explain` takes)."""
    e = expectation
    parts: list[str] = [str(e.kind)]
    if e.kind == ir.ExpectKind.ZOC:
        parts.append(e.side.value if e.side is not None else "")
    elif e.kind == ir.ExpectKind.PHASES:
        parts += [e.side.value if e.side is not None else "", "turn", "" if e.count is None else str(e.count)]
    elif e.kind != ir.ExpectKind.STACK:
        parts += [u.value for u in e.units]
    if e.kind in (ir.ExpectKind.MOVE, ir.ExpectKind.STACK):
        parts += [h.value for h in e.hexes]
    if e.mode is not None:
        parts += ["mode", e.mode.value]
    if e.saved is not None:
        parts += ["saved", _number(e.saved)]
    if e.moment is not None:
        parts += ["when", e.moment.value]
    if e.kind == ir.ExpectKind.STACK:
        parts += ["by", *(u.value for u in e.units)] if e.units else []
        parts += ["arrived", *(u.value for u in e.arrived)] if e.arrived else []
    elif e.kind == ir.ExpectKind.OVERRUN:
        hexes = [h.value for h in e.hexes] + ["", ""]
        parts += ["from", hexes[0], "on", hexes[1]]
    elif e.kind in (ir.ExpectKind.ATTACK, ir.ExpectKind.COMBAT, ir.ExpectKind.ENGAGE):
        parts += ["on", *(h.value for h in e.hexes)]
        if e.declared:
            parts += ["with", ", ".join(d.value for d in e.declared)]
        if e.kind == ir.ExpectKind.ENGAGE and e.others:
            parts += ["defending", *(u.value for u in e.others)]
        if e.arrived:
            parts += ["arrived", *(u.value for u in e.arrived)]
    elif e.kind == ir.ExpectKind.RETREAT:
        parts.append("" if e.count is None else str(e.count))
        if e.others:
            parts += ["from", *(u.value for u in e.others)]
    elif e.kind == ir.ExpectKind.ADVANCE:
        parts += ["into", *(h.value for h in e.hexes[:1]), "after", "" if e.count is None else str(e.count)]
        if e.destroyed:
            parts.append("destroyed")
        # in the grammar's order: overrun, breakthrough, via, refuse
        parts += ["overrun"] if e.overrun else []
        parts += ["breakthrough"] if e.breakthrough else []
        parts += ["via", *(h.value for h in e.hexes[1:])] if len(e.hexes) > 1 else []
    if e.refuse is not None:
        parts += ["refuse", str(e.refuse)]
    if e.overrun and e.kind != ir.ExpectKind.ADVANCE:
        parts.append("overrun")
    if e.forced:
        parts.append("forced")
    if e.breakthrough and e.kind != ir.ExpectKind.ADVANCE:
        parts.append("breakthrough")
    if e.given is not None:
        parts += ["result", e.given.value]
    # what no query of its kind reads (the grammar writes none): shown all the same, so nothing is hidden
    if e.kind not in (ir.ExpectKind.MOVE, ir.ExpectKind.STACK, ir.ExpectKind.OVERRUN, ir.ExpectKind.ATTACK,
                      ir.ExpectKind.COMBAT, ir.ExpectKind.ADVANCE, ir.ExpectKind.ENGAGE):
        parts += [h.value for h in e.hexes]
    if e.kind not in (ir.ExpectKind.ZOC, ir.ExpectKind.PHASES) and e.side is not None:
        parts.append(e.side.value)
    if e.kind not in (ir.ExpectKind.RETREAT, ir.ExpectKind.ADVANCE, ir.ExpectKind.PHASES) and e.count is not None:
        parts.append(str(e.count))
    if e.kind not in (ir.ExpectKind.RETREAT, ir.ExpectKind.ENGAGE) and e.others:
        parts += ["from", *(u.value for u in e.others)]
    if e.kind != ir.ExpectKind.ADVANCE and e.destroyed:
        parts.append("destroyed")
    return " ".join(p for p in parts if p)


def odds_word(odds: str) -> str:
    """What a combat's odds are called as written: 'odds' (3:1), or 'difference' for a differential
    table's attack minus defense (+3, 0, -2)."""
    return "odds" if ":" in odds or odds == "-" else "difference"


def result_text(result: ir.ExpectedResult | None, kind: ir.ExpectKind | None = None) -> str:
    """What an `expect` line says the rules answer, as the notation writes it."""
    if result is None:
        return ""
    r = result
    parts: list[str] = []
    if r.costs:
        parts += ["costs", *(_number(c) for c in r.costs)]
    if r.total is not None:
        parts += ["total", _number(r.total)]
    if kind == ir.ExpectKind.ENGAGE:
        for word, names in (("fighting", r.fighting), ("sharing", r.sharing), ("spared", r.spared)):
            if names:
                parts += [word, _words(names)]
        if r.hexes:
            parts += ["terrain", r.hexes[0].value]
        if r.destroyed:
            parts += ["destroyed", _words(r.destroyed)]
        if r.exposed:
            parts += ["exposed", _words(r.exposed)]
        for side, hexes in (("attacker", r.attacker_retreat), ("defender", r.defender_retreat)):
            if hexes is not None:
                parts += [side, "retreats", str(hexes)]
        if r.must_enter:      # no engage answer has it (the grammar writes none): shown all the same
            parts.append("must-enter")
        if r.ruling is not None:
            parts.append(str(r.ruling))
        return " ".join(parts)
    if kind == ir.ExpectKind.RETREAT:
        if r.amount is not None:
            parts += ["loss", _number(r.amount)]
        if r.hexes:
            parts += ["via", _words(r.hexes)]
        if r.absent:
            parts += ["not", "via", _words(r.absent)]
        if r.apart is not None:
            parts.append("apart" if r.apart else "together")
    elif kind != ir.ExpectKind.ADVANCE:
        parts += [h.value for h in r.hexes]
        if r.absent:
            parts += ["not", _words(r.absent)]
    if r.ruling is not None:
        parts.append(str(r.ruling))
    if r.refused_by is not None:
        parts.append("[" + _words(r.refused_by) + "]")
    if kind != ir.ExpectKind.RETREAT and r.amount is not None:
        parts += ["hexes" if kind == ir.ExpectKind.ADVANCE else "cost", _number(r.amount)]
    if kind == ir.ExpectKind.ADVANCE and (r.hexes or r.absent):
        parts += ["to", *(h.value for h in r.hexes), *(["not", _words(r.absent)] if r.absent else [])]
    if r.must_enter:
        parts.append("must-enter")
    for word, value in (("left", r.remaining), ("mp", r.allowance), ("unready-above", r.unready_above),
                        ("size", r.size)):
        if value is not None:
            parts += [word, _number(value)]
    if r.must_attack is not None:
        parts += ["must-attack", _words(r.must_attack) or "none"]
    if r.excess is not None:
        parts += ["excess", _words(r.excess) or "chosen"]
    if r.fate is not None:
        parts.append(str(r.fate))
    for name in ("odds", "column"):
        value = getattr(r, name)
        if value is not None:
            parts += [odds_word(value.value) if name == "odds" else name, value.value]
    if r.dice is not None:
        parts += ["roll", "white", str(r.dice[0]), "red", str(r.dice[1])]
    elif r.roll is not None:
        parts += ["roll", str(r.roll)]
    if r.outcome is not None:
        parts += ["result", r.outcome.value]
    if r.exchange is not None:
        parts += ["exchange", _number(r.exchange)]
    parts += [p.value for p in r.phases]
    return " ".join(parts)


def expectation_text(expectation: ir.Expectation) -> str:
    return " ".join(p for p in (query_text(expectation), result_text(expectation.result, expectation.kind)) if p)


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
        _put(out, f"hex {item.hex.value}", _words(item.terrain))
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
        _put(out, f"expect {query_text(expectation)}", result_text(expectation.result, expectation.kind) or "(query)")
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
    for extra in situation.maps[1:]:
        problems.append(Diagnostic("a situation has one map", extra.span, hint="give one map line: FIRST - LAST"))
    for name in ("phasing", "phase", "turn"):
        for extra in getattr(situation, name)[1:]:
            problems.append(Diagnostic(f"a situation has one '{name}' line", extra.span))
    for turn in situation.turn[:1]:
        if game_turn(turn) is None:
            problems.append(Diagnostic(f"'{turn.value}' is not a game turn", turn.span,
                                       "a game turn is a whole number from 1: turn 3"))
    area = area_of(situation, problems)

    def on_map(text: ir.Text) -> Hex | None:
        hex = _hex(text, problems)
        if hex is not None and area is not None and hex not in area:
            problems.append(Diagnostic(f"hex {text.value} is off the map", text.span,
                                       hint=f"the map is {situation.maps[0].first.value} - "
                                            f"{situation.maps[0].last.value}"))
            return None
        return hex

    def touching(a: Hex | None, b: Hex | None, span: Span) -> None:
        if a is not None and b is not None and area is not None and (a == b or not area.adjacent(a, b)):
            problems.append(Diagnostic(f"hexes {a} and {b} do not touch", span,
                                       hint="a hexside and each step of a road lie between two hexes that touch"))

    for item in situation.hexes:
        on_map(item.hex)
    for side in situation.hexsides:
        low, _, high = side.hexside.value.partition("/")
        a = on_map(ir.Text(span=side.hexside.span, value=low))
        b = on_map(ir.Text(span=side.hexside.span, value=high))
        touching(a, b, side.hexside.span)
    for road in situation.roads:
        hexes = [on_map(h) for h in road.hexes]
        for (a, b), text in zip(zip(hexes, hexes[1:]), road.hexes[1:]):
            touching(a, b, text.span)
    for source in situation.sources:
        for hex in source.hexes:
            on_map(hex)
    if len(situation.units) > MAX_SITUATION_UNITS:    # the parser's limits refuse it first; a model built otherwise
        problems.append(Diagnostic(f"a situation has more than {MAX_SITUATION_UNITS:,} units",
                                   situation.units[MAX_SITUATION_UNITS].span,
                                   "give only the units the example is about: every question the engine answers "
                                   "reads each of them"))
        return problems
    names: dict[str, ir.SituationUnit] = {}
    for unit in situation.units:
        if unit.name.value in names:
            first = names[unit.name.value].name.span
            problems.append(Diagnostic(f"two units are named '{unit.name.value}'", unit.name.span,
                                       hint=f"the first is at line {first.line}; give each unit a name of its own"))
        names.setdefault(unit.name.value, unit)
        on_map(unit.hex)
        if unit.started is not None:
            on_map(unit.started)
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
    for done in situation.done:
        for written in done.units:
            if written.value not in names:
                problems.append(Diagnostic(f"no unit '{written.value}' in this situation", written.span,
                                           hint=suggest(written.value, names) or
                                           "place it with a unit line: unit NAME SIDE A-D-M at HEX"))
        on_map(done.hex)
        sides = {names[u.value].side.value for u in done.units if u.value in names}
        if len(sides) > 1:
            problems.append(Diagnostic(f"the units of one {done.kind} are of one side, not {' and '.join(sorted(sides))}",
                                       done.span, hint=f"write a `done {done.kind}` line for each side"))
    assumed: dict[str, ir.Parameter] = {}
    for parameter in situation.assumed:
        earlier = assumed.setdefault(parameter.name.value, parameter)
        if earlier is not parameter:
            problems.append(Diagnostic(f"{parameter.name.value} is assumed twice", parameter.name.span,
                                       hint=f"the first is on line {earlier.span.line}: keep one"))
    def edge(here: ir.Text, there: ir.Text) -> bool:
        """Whether `there` lies just across the map's edge from `here`, a hex of the map."""
        a, b = _hex(here, []), _hex(there, [])
        return area is not None and a is not None and b is not None and area.beyond_edge(a, b)

    for expectation in situation.expectations:
        problems += _check_expectation(expectation, names, on_map, query, edge)
    return problems


def _check_expectation(e: ir.Expectation, names: Mapping[str, ir.SituationUnit],
                       on_map: Callable[[ir.Text], Hex | None], query: bool,
                       edge: Callable[[ir.Text, ir.Text], bool] | None = None) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    for unit in (*e.units, *e.others, *e.arrived):
        if unit.value not in names:
            problems.append(Diagnostic(f"no unit '{unit.value}' in this situation", unit.span,
                                       hint=suggest(unit.value, names) or
                                       "place it with a unit line: unit NAME SIDE A-D-M at HEX"))
    if e.result is not None and (e.result.excess or e.result.must_attack):
        for unit in (*(e.result.excess or ()), *(e.result.must_attack or ())):
            if unit.value not in names:
                problems.append(Diagnostic(f"no unit '{unit.value}' in this situation", unit.span,
                                           hint=suggest(unit.value, names) or "name the units of the stack"))
    if e.kind == ir.ExpectKind.STACK and e.units and (e.moment is None or e.moment.value != "overrun"):
        problems.append(Diagnostic("`by` names the units of an overrun: it goes with `when overrun`", e.units[0].span,
                                   hint=f"write: stack {e.hexes[0].value if e.hexes else 'HEX'} when overrun by "
                                        f"{_words(e.units)}"))
    mover = names.get(e.units[0].value) if e.kind == ir.ExpectKind.MOVE and e.units else None
    before = (e.hexes[-2] if len(e.hexes) > 1 else mover.hex if mover is not None else None) if e.hexes else None
    for hex in e.hexes:
        if hex is e.hexes[-1] and before is not None and edge is not None and edge(before, hex):
            continue     # a move may end across the map's edge: the rules say whether units may leave it
        on_map(hex)
    if e.result is not None:
        for hex in (*e.result.hexes, *e.result.absent):
            on_map(hex)
    if e.kind == ir.ExpectKind.RETREAT and (e.count is None or not e.units):
        problems.append(Diagnostic("a retreat is: retreat UNIT... HEXES", e.span,
                                   hint="name the retreating units, then how many hexes, like: retreat 7 2"))
    if e.kind in (ir.ExpectKind.RETREAT, ir.ExpectKind.ADVANCE) and e.count is not None \
            and e.count > MAX_RETREAT_HEXES:
        what = "a retreat" if e.kind == ir.ExpectKind.RETREAT else "the retreat an advance follows"
        problems.append(Diagnostic(f"{what} of {e.count} hexes is longer than the {MAX_RETREAT_HEXES} a retreat may be",
                                   e.span, hint="printed results retreat at most 4 or 5 (MAX_RETREAT_HEXES in "
                                                "limits.py)"))
    if e.kind == ir.ExpectKind.PHASES and (e.count is None or e.count < 1):
        problems.append(Diagnostic(f"there is no game turn {e.count}: the first is 1", e.span,
                                   hint="write the game turn the phases are asked for, like: phases turn 3"))
    if e.result is None and not query:
        problems.append(Diagnostic(f"this expect line says nothing of what the rules answer", e.span,
                                   hint=_RESULT_HINTS[e.kind]))
    elif e.result is not None:
        problems += _check_result(e)
    return problems


_RESULT_HINTS = {
    ir.ExpectKind.MOVE: "end it with what the move costs, like: costs 1 2 3, or with legal or illegal",
    ir.ExpectKind.REACH: "end it with the hexes in reach, then `not` and those out of reach",
    ir.ExpectKind.ZOC: "end it with the hexes in the side's ZOCs, then `not` and those outside",
    ir.ExpectKind.STACK: "end it with legal or illegal",
    ir.ExpectKind.SUPPLY: "end it with in or out",
    ir.ExpectKind.OVERRUN: "end it with allowed (cost N) or refused",
    ir.ExpectKind.EXPLOIT: "end it with allowed or refused",
    ir.ExpectKind.ATTACK: "end it with allowed or refused",
    ir.ExpectKind.RETREAT: "end it with loss N (via HEX...) or eliminated",
    ir.ExpectKind.ADVANCE: "end it with hexes N or refused",
    ir.ExpectKind.COMBAT: "end it with odds, column, roll and result, like: odds 3:1 roll 4 result D1",
    ir.ExpectKind.ENGAGE: "end it with who fights, shares, is spared or destroyed, like: fighting 7 sharing 3, "
                          "or with refused",
    ir.ExpectKind.PHASES: "end it with the phases that turn has, in order, like: movement combat supply",
}


def _check_result(e: ir.Expectation) -> list[Diagnostic]:
    r = e.result
    assert r is not None
    off_table = r.column is not None and r.column.value in ("below", "above")    # a result of its own, no roll
    if e.kind == ir.ExpectKind.COMBAT and r.roll is None and r.dice is None and r.outcome is not None \
            and not off_table:
        return [Diagnostic("a combat result needs the roll it is read at", r.span,
                           hint="give the roll before the result, like: roll 4 result D1")]
    if e.kind == ir.ExpectKind.COMBAT and r.exchange is not None and r.roll is None and r.dice is None \
            and not off_table:
        return [Diagnostic("what an exchange costs needs the roll its result is read at", r.span,
                           hint="give the roll and the result before it, like: roll 2 result EX exchange 6")]
    return []


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
