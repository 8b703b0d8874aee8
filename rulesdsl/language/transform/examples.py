"""Worked examples and situations: maps, hexes, units, and what each `expect` line asks."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from lark import Token, v_args
from lark.tree import Meta

from rulesdsl.errors import Diagnostic, RulesError, Span
from rulesdsl.language.transform.base import Builder, number
from rulesdsl.model import ir


class ExampleBuilder(Builder):
    """Each method builds the IR node of the grammar rule it is named after."""

    _SITUATION_FIELDS = ("notes", "maps", "hexes", "hexsides", "roads", "sources", "phasing", "phase", "units",
                         "done", "assumed", "expectations", "turn")

    def _situation(self, meta: Meta, items: list[Any]) -> ir.Situation:
        body: dict[str, list[Any]] = {name: [] for name in self._SITUATION_FIELDS}
        for item in items:
            if isinstance(item, ir.Expectation):
                body["expectations"].append(item)
            else:
                body[item[0]].append(item[1])
        return ir.Situation(span=self._span(meta), **{k: tuple(v) for k, v in body.items()})

    @v_args(meta=True)
    def situation(self, meta: Meta, items: list[Any]) -> Any:
        return self._situation(meta, items)

    @v_args(meta=True)
    def example(self, meta: Meta, items: list[Any]) -> Any:
        title, *items = items
        cites = items.pop(0) if items and isinstance(items[0], tuple) and \
            all(isinstance(c, ir.Text) for c in items[0]) else ()
        return ir.Example(span=self._span(meta), title=self._text(title), cites=cites,
                          situation=self._situation(meta, items))

    def situation_note(self, items: list[Any]) -> Any:
        return ("notes", self._text(items[0]))

    @v_args(meta=True)
    def situation_map(self, meta: Meta, items: list[Any]) -> Any:
        first, last, *terrain = items
        return ("maps", ir.MapArea(span=self._span(meta), first=self._text(first), last=self._text(last),
                                   terrain=tuple(self._text(t) for t in terrain)))

    @v_args(meta=True)
    def situation_hex(self, meta: Meta, items: list[Any]) -> Any:
        _, hex_, *terrain = items
        return ("hexes", ir.HexTerrain(span=self._span(meta), hex=self._text(hex_),
                                       terrain=tuple(self._text(t) for t in terrain)))

    @v_args(meta=True)
    def situation_hexside(self, meta: Meta, items: list[Any]) -> Any:
        _, side, *features = items
        return ("hexsides", ir.HexsideFeatures(span=self._span(meta), hexside=self._text(side),
                                               features=tuple(self._text(t) for t in features)))

    @v_args(meta=True)
    def situation_road(self, meta: Meta, items: list[Any]) -> Any:
        road = self._text(items.pop(0)) if self._is(items[0], "NAME") else None
        return ("roads", ir.RoadLine(span=self._span(meta), road=road, hexes=tuple(self._text(t) for t in items)))

    @v_args(meta=True)
    def situation_source(self, meta: Meta, items: list[Any]) -> Any:
        side, *hexes = items
        return ("sources", ir.SupplySource(span=self._span(meta), side=self._text(side),
                                           hexes=tuple(self._text(t) for t in hexes)))

    def situation_phasing(self, items: list[Any]) -> Any:
        return ("phasing", self._text(items[0]))

    def situation_phase(self, items: list[Any]) -> Any:
        return ("phase", self._text(items[0]))

    def situation_turn(self, items: list[Any]) -> Any:
        return ("turn", self._text(items[0]))

    def _done(self, meta: Meta, kind: ir.DoneKind, items: list[Any]) -> Any:
        phase = items.pop()[1] if items and isinstance(items[-1], tuple) else None
        *units, hex_ = items
        return ("done", ir.Done(span=self._span(meta), kind=kind, units=tuple(units), hex=self._text(hex_),
                                phase=phase))

    @v_args(meta=True)
    def situation_done_overrun(self, meta: Meta, items: list[Any]) -> Any:
        return self._done(meta, ir.DoneKind.OVERRUN, items)

    @v_args(meta=True)
    def situation_done_attack(self, meta: Meta, items: list[Any]) -> Any:
        return self._done(meta, ir.DoneKind.ATTACK, items)

    @v_args(meta=True)
    def situation_assume(self, meta: Meta, items: list[Any]) -> Any:
        name, value = items
        return ("assumed", ir.Parameter(span=self._span(meta), name=self._text(name), value=value))

    def done_phase(self, items: list[Any]) -> Any:
        return ("phase", self._text(items[0]))

    def unit_name(self, items: list[Any]) -> Any:
        return self._text(items[0])

    @v_args(meta=True)
    def situation_unit(self, meta: Meta, items: list[Any]) -> Any:
        name, side, counter, hex_, *options = items
        found: dict[str, Any] = {"steps": None, "type": None, "size": None, "capabilities": (), "states": (),
                                 "started": None, "no_attack_strength": False}
        for option in options:
            if self._is(option, "NO_ATTACK"):
                found["no_attack_strength"] = True
            else:
                found[option[0]] = option[1]
        counter_text = self._text(counter)
        strengths, column = [], counter_text.span.column
        for part in str(counter).split("-"):
            span = Span(self.path, counter_text.span.line, column, counter_text.span.line, column + len(part))
            strengths.append(ir.Text(span=span, value=part))
            column += len(part) + 1
        return ("units", ir.SituationUnit(span=self._span(meta), name=name, side=self._text(side),
                                          strengths=tuple(strengths), hex=self._text(hex_), **found))

    def unit_steps(self, items: list[Any]) -> Any:
        return ("steps", self._whole(items[0]))

    def unit_kind(self, items: list[Any]) -> Any:
        return ("type", self._text(items[0]))

    def unit_size(self, items: list[Any]) -> Any:
        return ("size", self._text(items[0]))

    def unit_can(self, items: list[Any]) -> Any:
        return ("capabilities", tuple(self._text(t) for t in items))

    def unit_marked(self, items: list[Any]) -> Any:
        return ("states", tuple(self._text(t) for t in items))

    def unit_started(self, items: list[Any]) -> Any:
        return ("started", self._text(items[0]))

    def _expect(self, meta: Meta, kind: ir.ExpectKind, result: ir.ExpectedResult | None, *,
                units: tuple[ir.Text, ...] = (), side: ir.Text | None = None, hexes: tuple[ir.Text, ...] = (),
                count: int | None = None, others: tuple[ir.Text, ...] = (), destroyed: bool = False,
                options: dict[str, Any] | None = None) -> ir.Expectation:
        return ir.Expectation(span=self._span(meta), kind=kind, units=units, side=side, hexes=hexes, count=count,
                              others=others, destroyed=destroyed, result=result, text=self._source(meta),
                              **(options or {}))

    @staticmethod
    def _options(rest: list[Any]) -> tuple[list[Any], dict[str, Any]]:
        """A query's optional parts (`mode road`, `when overrun`, `refuse 1`, `overrun`, `forced`) apart from the
        rest."""
        options = {item[1]: item[2] for item in rest if isinstance(item, tuple) and item[:1] == ("option",)}
        return [item for item in rest if not (isinstance(item, tuple) and item[:1] == ("option",))], options

    def query_mode(self, items: list[Any]) -> Any:
        return ("option", "mode", self._text(items[0]))

    def query_saved(self, items: list[Any]) -> Any:
        return ("option", "saved", self._number(items[0]))

    def query_moment(self, items: list[Any]) -> Any:
        return ("option", "moment", self._text(items[0]))

    def query_refuse(self, items: list[Any]) -> Any:
        return ("option", "refuse", self._whole(items[0]))

    def query_overrun(self, items: list[Any]) -> Any:
        return ("option", "overrun", True)

    def query_forced(self, items: list[Any]) -> Any:
        return ("option", "forced", True)

    def _result(self, meta: Meta, **fields: Any) -> ir.ExpectedResult:
        values: dict[str, Any] = {"ruling": None, "costs": (), "total": None, "hexes": (), "absent": (),
                                  "amount": None, "remaining": None, "allowance": None, "size": None,
                                  "odds": None, "column": None, "roll": None, "outcome": None}
        values.update(fields)
        return ir.ExpectedResult(span=self._span(meta), **values)

    @staticmethod
    def _split(items: list[Any]) -> tuple[list[ir.Text], list[Any], ir.ExpectedResult | None]:
        """The unit names at the front of a query, its other parts, and its result (last, if any)."""
        result = items[-1] if items and isinstance(items[-1], ir.ExpectedResult) else None
        rest = items[:-1] if result is not None else list(items)
        units = []
        while rest and isinstance(rest[0], ir.Text):
            units.append(rest.pop(0))
        return units, rest, result

    @v_args(meta=True)
    def expect_move(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        hexes, options = self._options(rest)
        return self._expect(meta, ir.ExpectKind.MOVE, result, units=tuple(units),
                            hexes=tuple(self._text(t) for t in hexes), options=options)

    @v_args(meta=True)
    def expect_reach(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.REACH, result, units=tuple(units), options=self._options(rest)[1])

    @v_args(meta=True)
    def expect_zoc(self, meta: Meta, items: list[Any]) -> Any:
        side, *rest = items
        return self._expect(meta, ir.ExpectKind.ZOC, rest[0] if rest else None, side=self._text(side))

    @v_args(meta=True)
    def expect_stack(self, meta: Meta, items: list[Any]) -> Any:
        hex_, *rest = items
        rest, options = self._options(rest)
        parts = {item[0]: item[1] for item in rest if isinstance(item, tuple)}
        result = next((item for item in rest if isinstance(item, ir.ExpectedResult)), None)
        answer = {key: parts[key] for key in ("size", "excess", "fate") if key in parts}
        if answer:
            result = replace(result, **answer) if result is not None else self._result(meta, **answer)
        return self._expect(meta, ir.ExpectKind.STACK, result, hexes=(self._text(hex_),),
                            units=parts.get("by", ()), options=options | (
                                {"arrived": parts["arrived"]} if "arrived" in parts else {}))

    def stack_by(self, items: list[Any]) -> Any:
        return ("by", tuple(items))

    def stack_excess(self, items: list[Any]) -> Any:
        return ("excess", tuple(items))

    def stack_chosen(self, items: list[Any]) -> Any:
        return ("excess", ())

    def stack_fate(self, items: list[Any]) -> Any:
        return ("fate", ir.StackFate.DESTROYED)

    def stack_leave(self, items: list[Any]) -> Any:
        return ("fate", ir.StackFate.LEAVE)

    def stack_undone(self, items: list[Any]) -> Any:
        return ("fate", ir.StackFate.UNDONE)

    @v_args(meta=True)
    def expect_supply(self, meta: Meta, items: list[Any]) -> Any:
        units, _, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.SUPPLY, result, units=tuple(units))

    @v_args(meta=True)
    def expect_overrun(self, meta: Meta, items: list[Any]) -> Any:
        units, hexes, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.OVERRUN, result, units=tuple(units),
                            hexes=tuple(self._text(t) for t in hexes))

    @v_args(meta=True)
    def expect_exploit(self, meta: Meta, items: list[Any]) -> Any:
        units, _, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.EXPLOIT, result, units=tuple(units))

    @v_args(meta=True)
    def expect_attack(self, meta: Meta, items: list[Any]) -> Any:
        units, hexes, result = self._split(items)
        return self._expect(meta, ir.ExpectKind.ATTACK, result, units=tuple(units),
                            hexes=tuple(self._text(t) for t in hexes))

    @v_args(meta=True)
    def expect_combat(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        rest, options = self._options(rest)
        return self._expect(meta, ir.ExpectKind.COMBAT, result, units=tuple(units),
                            hexes=tuple(self._text(t) for t in rest), options=options)

    @v_args(meta=True)
    def expect_phases(self, meta: Meta, items: list[Any]) -> Any:
        result = items.pop() if items and isinstance(items[-1], ir.ExpectedResult) else None
        turn = items.pop()
        side = self._text(items[0]) if items else None
        return self._expect(meta, ir.ExpectKind.PHASES, result, side=side, count=self._whole(turn))

    @v_args(meta=True)
    def phases_result(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, phases=tuple(self._text(t) for t in items))

    def combat_with(self, items: list[Any]) -> Any:
        return ("option", "declared", tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def expect_engage(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        rest, options = self._options(rest)
        for item in [i for i in rest if isinstance(i, tuple)]:
            options[item[0]] = item[1]
        hexes = [self._text(t) for t in rest if not isinstance(t, tuple)]
        return self._expect(meta, ir.ExpectKind.ENGAGE, result, units=tuple(units), hexes=tuple(hexes),
                            others=options.pop("others", ()), options=options)

    def engage_arrived(self, items: list[Any]) -> Any:
        return ("arrived", tuple(items))

    def engage_defending(self, items: list[Any]) -> Any:
        return ("others", tuple(items))

    def engage_given(self, items: list[Any]) -> Any:
        return ("given", self._text(items[0]))

    @v_args(meta=True)
    def engage_result(self, meta: Meta, items: list[Any]) -> Any:
        found: dict[str, Any] = {}
        for key, value in items:
            if key in found:
                raise RulesError([Diagnostic(f"'{key.replace('_', ' ')}' is given twice", value[0].span if isinstance(value, tuple)
                                             else value.span, hint="give each part of the answer once")])
            found[key] = value
        if "terrain" in found:
            found["hexes"] = (found.pop("terrain"),)
        for key in ("attacker_retreat", "defender_retreat"):
            if key in found:
                found[key] = found[key][1]
        return self._result(meta, **found)

    def engage_retreats(self, items: list[Any]) -> Any:
        side, number = items
        if str(side) == "both":
            raise RulesError([Diagnostic("say which side retreats: attacker or defender", self._text(side).span,
                                         hint="like: attacker retreats 1 defender retreats 0")])
        return (f"{side}_retreat", (self._text(side), self._whole(number)))

    def engage_fighting(self, items: list[Any]) -> Any:
        return ("fighting", tuple(items))

    def engage_sharing(self, items: list[Any]) -> Any:
        return ("sharing", tuple(items))

    def engage_spared(self, items: list[Any]) -> Any:
        return ("spared", tuple(items))

    def engage_destroyed(self, items: list[Any]) -> Any:
        return ("destroyed", tuple(items[1:]))

    def engage_exposed(self, items: list[Any]) -> Any:
        return ("exposed", tuple(items))

    def engage_terrain(self, items: list[Any]) -> Any:
        return ("terrain", self._text(items[0]))

    @v_args(meta=True)
    def expect_retreat(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        rest, options = self._options(rest)
        others = rest[0][1] if rest else ()
        count = None
        if units:   # the last number written is how many hexes
            last = units.pop()
            count = self._whole_text(last)
        return self._expect(meta, ir.ExpectKind.RETREAT, result, units=tuple(units), count=count, others=others,
                            options=options)

    def retreat_from(self, items: list[Any]) -> Any:
        return ("from", tuple(items))

    @v_args(meta=True)
    def expect_advance(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, result = self._split(items)
        rest, options = self._options(rest)
        via = next((item[1] for item in rest if isinstance(item, tuple) and item[0] == "via"), ())
        hex_, after, *flag = [item for item in rest if not isinstance(item, tuple)]
        return self._expect(meta, ir.ExpectKind.ADVANCE, result, units=tuple(units),
                            hexes=(self._text(hex_), *via), count=self._whole(after), destroyed=bool(flag),
                            options=options)

    def query_breakthrough(self, items: list[Any]) -> Any:
        return ("option", "breakthrough", True)

    def advance_via(self, items: list[Any]) -> Any:
        return ("via", tuple(self._text(t) for t in items))

    def _whole_text(self, text: ir.Text) -> int | None:
        """A unit name written where a whole number is needed (retreat's hexes): None if it is no number;
        validate reports it."""
        if not text.value.isdigit():
            return None
        return int(text.value)

    @v_args(meta=True)
    def move_result(self, meta: Meta, items: list[Any]) -> Any:
        costs = [self._number(t) for t in items if self._is(t, "NUMBER")]
        total = next((i[1] for i in items if isinstance(i, tuple) and i[0] == "total"), None)
        ruling = next((i.ruling for i in items if isinstance(i, ir.ExpectedResult)), None)
        return self._result(meta, costs=tuple(costs), total=total, ruling=ruling)

    def move_total(self, items: list[Any]) -> Any:
        return ("total", self._number(items[0]))

    @v_args(meta=True)
    def legal(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.LEGAL)

    @v_args(meta=True)
    def illegal(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.ILLEGAL)

    @v_args(meta=True)
    def hex_result(self, meta: Meta, items: list[Any]) -> Any:
        absent = items.pop() if items and isinstance(items[-1], list) else []
        return self._result(meta, hexes=tuple(self._text(t) for t in items), absent=tuple(absent))

    def hex_absent(self, items: list[Any]) -> Any:
        return [self._text(t) for t in items]

    @v_args(meta=True)
    def supply_in(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.IN)

    @v_args(meta=True)
    def supply_out(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.OUT)

    @v_args(meta=True)
    def allowed(self, meta: Meta, items: list[Any]) -> Any:
        found: dict[str, Any] = {}
        for key, value, token in items:
            if key in found:
                span = token.span if isinstance(token, ir.Text) else self._text(token).span
                raise RulesError([Diagnostic(f"'{self._PART_WORD[key]}' is given twice", span,
                                             hint="give each of cost, left, mp, unready-above and must-attack once")])
            found[key] = value
        return self._result(meta, ruling=ir.Ruling.ALLOWED, **found)

    _PART_WORD = {"amount": "cost", "remaining": "left", "allowance": "mp", "must_attack": "must-attack",
                  "unready_above": "unready-above"}

    def verdict_must(self, items: list[Any]) -> Any:
        return ("must_attack", tuple(items), items[0])

    @v_args(meta=True)
    def verdict_must_none(self, meta: Meta, items: list[Any]) -> Any:
        return ("must_attack", (), ir.Text(span=self._span(meta), value="must-attack"))

    def verdict_cost(self, items: list[Any]) -> Any:
        return ("amount", self._number(items[0]), items[0])

    def verdict_left(self, items: list[Any]) -> Any:
        return ("remaining", self._number(items[0]), items[0])

    def verdict_mp(self, items: list[Any]) -> Any:
        return ("allowance", self._number(items[0]), items[0])

    def verdict_unready(self, items: list[Any]) -> Any:
        return ("unready_above", self._number(items[0]), items[0])

    def stack_size(self, items: list[Any]) -> Any:
        return ("size", self._number(items[0]))

    @v_args(meta=True)
    def refused(self, meta: Meta, items: list[Any]) -> Any:
        if items:       # `refused [6.0 6.0b]`: the rules that refuse it
            return self._result(meta, ruling=ir.Ruling.REFUSED, refused_by=tuple(items[0]))
        return self._result(meta, ruling=ir.Ruling.REFUSED)

    @v_args(meta=True)
    def retreat_loss(self, meta: Meta, items: list[Any]) -> Any:
        apart = items.pop() if items and isinstance(items[-1], bool) else None
        closed = items.pop() if items and isinstance(items[-1], list) else []
        loss, *via = items
        return self._result(meta, amount=Fraction(self._whole(loss)), hexes=tuple(self._text(t) for t in via),
                            absent=tuple(closed), apart=apart)

    def retreat_together(self, items: list[Any]) -> Any:
        return False

    def retreat_apart(self, items: list[Any]) -> Any:
        return True

    def retreat_not(self, items: list[Any]) -> Any:
        return [self._text(t) for t in items]

    @v_args(meta=True)
    def retreat_eliminated(self, meta: Meta, items: list[Any]) -> Any:
        return self._result(meta, ruling=ir.Ruling.ELIMINATED)

    @v_args(meta=True)
    def advance_hexes(self, meta: Meta, items: list[Any]) -> Any:
        must = bool(items) and isinstance(items[-1], Token) and items[-1].type == "MUST_ENTER"
        if must:
            items = items[:-1]
        to = items[1] if len(items) > 1 else ((), ())
        return self._result(meta, amount=Fraction(self._whole(items[0])), hexes=to[0], absent=to[1],
                            must_enter=must)

    def advance_to(self, items: list[Any]) -> Any:
        absent = items.pop() if items and isinstance(items[-1], list) else []
        return tuple(self._text(t) for t in items), tuple(absent)

    @v_args(meta=True)
    def combat_result(self, meta: Meta, items: list[Any]) -> Any:
        found: dict[str, Any] = {}
        for key, value, token in items:
            if key in found:
                raise RulesError([Diagnostic(f"'{key.replace('_', ' ')}' is given twice", self._text(token).span,
                                             hint="give each of odds, column, roll, result and exchange once")])
            found[key] = value
        if isinstance(found.get("roll"), tuple):      # the dice apart (their sum is what the table reads)
            found["dice"] = found.pop("roll")
        return self._result(meta, **found)

    def combat_odds(self, items: list[Any]) -> Any:
        return ("odds", self._text(items[0]), items[0])

    def combat_column(self, items: list[Any]) -> Any:
        return ("column", self._text(items[0]), items[0])

    def combat_roll(self, items: list[Any]) -> Any:
        return ("roll", self._whole(items[0]), items[0])

    def combat_dice(self, items: list[Any]) -> Any:
        """`roll white 3 red 5`: each die apart, for a rulebook that reads them (the total is their sum)."""
        dice = []
        for token in items:
            value = self._whole(token)
            if not 1 <= value <= 6:
                raise RulesError([Diagnostic(f"a die shows 1 to 6, not {value}", self._text(token).span,
                                             hint="give each die as it landed, like: roll white 3 red 5")])
            dice.append(value)
        return ("roll", (dice[0], dice[1]), items[0])

    def combat_outcome(self, items: list[Any]) -> Any:
        return ("outcome", self._text(items[0]), items[0])

    def combat_exchange(self, items: list[Any]) -> Any:
        return ("exchange", self._number(items[0]), items[0])
