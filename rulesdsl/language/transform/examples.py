"""Worked examples and situations: maps, hexes, units, and what each `expect` line asks."""
from __future__ import annotations

from dataclasses import dataclass
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
            if isinstance(item, ir.QUERY_NODES):
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
        markers: tuple[ir.Text, ...] = ()
        if terrain and isinstance(terrain[-1], tuple):      # `marked rubble, interdicted` (unit_marked)
            markers = terrain.pop()[1]
        return ("hexes", ir.HexTerrain(span=self._span(meta), hex=self._text(hex_),
                                       terrain=tuple(self._text(t) for t in terrain), markers=markers))

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

    def losses_unit(self, items: list[Any]) -> Any:
        return self._text(items[0])

    def losses_from(self, items: list[Any]) -> Any:
        return ("from", tuple(items))

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

    # ---- expect lines: each kind's query node, with its result node -------------------------------------------
    def _query(self, meta: Meta, node: type, **fields: Any) -> Any:
        """The query node `node` of an expect line, its span and text as written."""
        return node(span=self._span(meta), text=self._source(meta), **fields)

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

    def query_breakthrough(self, items: list[Any]) -> Any:
        return ("option", "breakthrough", True)

    def _said(self, meta: Meta, **parts: Any) -> _Said:
        return _Said(self._span(meta), parts)

    @staticmethod
    def _split(items: list[Any]) -> tuple[list[ir.Text], list[Any], _Said | None]:
        """The unit names at the front of a query, its other parts, and what it says the rules answer (last)."""
        said = items[-1] if items and isinstance(items[-1], _Said) else None
        rest = items[:-1] if said is not None else list(items)
        units = []
        while rest and isinstance(rest[0], ir.Text):
            units.append(rest.pop(0))
        return units, rest, said

    def _hexes(self, tokens: list[Any]) -> tuple[ir.Text, ...]:
        return tuple(self._text(t) for t in tokens)

    @v_args(meta=True)
    def expect_move(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, said = self._split(items)
        hexes, options = self._options(rest)
        result = None if said is None else ir.MoveResult(
            span=said.span, costs=said.get("costs", ()), total=said.get("total"), ruling=said.get("ruling"))
        return self._query(meta, ir.MoveQuery, unit=units[0], path=self._hexes(hexes), mode=options.get("mode"),
                           saved=options.get("saved"), result=result)

    @staticmethod
    def _hex_set(said: _Said | None) -> ir.HexSetResult | None:
        return None if said is None else ir.HexSetResult(span=said.span, hexes=said.get("hexes", ()),
                                                         absent=said.get("absent", ()))

    @v_args(meta=True)
    def expect_reach(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, said = self._split(items)
        return self._query(meta, ir.ReachQuery, unit=units[0], mode=self._options(rest)[1].get("mode"),
                           result=self._hex_set(said))

    @v_args(meta=True)
    def expect_zoc(self, meta: Meta, items: list[Any]) -> Any:
        side, *rest = items
        return self._query(meta, ir.ZocQuery, side=self._text(side), result=self._hex_set(rest[0] if rest else None))

    @v_args(meta=True)
    def expect_stack(self, meta: Meta, items: list[Any]) -> Any:
        hex_, *rest = items
        rest, options = self._options(rest)
        parts = {item[0]: item[1] for item in rest if isinstance(item, tuple)}
        said = next((item for item in rest if isinstance(item, _Said)), None)
        result = None
        if said is not None or any(key in parts for key in ("size", "excess", "fate")):
            result = ir.StackResult(span=said.span if said is not None else self._span(meta),
                                    ruling=said.get("ruling") if said is not None else None,
                                    size=parts.get("size"), excess=parts.get("excess"), fate=parts.get("fate"))
        return self._query(meta, ir.StackQuery, hex=self._text(hex_), moment=options.get("moment"),
                           by=parts.get("by", ()), arrived=parts.get("arrived", ()), result=result)

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

    def stack_size(self, items: list[Any]) -> Any:
        return ("size", self._number(items[0]))

    @v_args(meta=True)
    def expect_supply(self, meta: Meta, items: list[Any]) -> Any:
        units, _, said = self._split(items)
        result = None if said is None else ir.SupplyResult(span=said.span, ruling=said.get("ruling"))
        return self._query(meta, ir.SupplyQuery, unit=units[0], result=result)

    def _verdict(self, said: _Said | None, node: type, what: str, parts: dict[str, str]) -> Any:
        """A verdict (`allowed ...` or `refused [RULE...]`) as the result node `node` of a kind whose answer
        has the `parts` given (field: the word written); a part it does not have is an error at the part."""
        if said is None:
            return None
        for key, span in said.get("tokens", {}).items():
            if key not in parts:
                has = " and ".join(f"'{w}'" for w in parts.values())
                raise RulesError([Diagnostic(
                    f"{what} answer gives no '{self._PART_WORD[key]}'", span,
                    hint=f"{what} allowed answer gives {has}" if has else f"{what} answer is allowed or refused")])
        return node(span=said.span, ruling=said.get("ruling"), refused_by=said.get("refused_by"),
                    **{key: said.get(key) for key in parts})

    @v_args(meta=True)
    def expect_overrun(self, meta: Meta, items: list[Any]) -> Any:
        units, hexes, said = self._split(items)
        origin, target = self._hexes(hexes)
        return self._query(meta, ir.OverrunQuery, units=tuple(units), origin=origin, target=target,
                           result=self._verdict(said, ir.OverrunResult, "an overrun's",
                                                {"cost": "cost", "left": "left"}))

    @v_args(meta=True)
    def expect_exploit(self, meta: Meta, items: list[Any]) -> Any:
        units, _, said = self._split(items)
        return self._query(meta, ir.ExploitQuery, unit=units[0],
                           result=self._verdict(said, ir.ExploitResult, "an exploitation move's",
                                                {"mp": "mp", "unready_above": "unready-above"}))

    @v_args(meta=True)
    def expect_attack(self, meta: Meta, items: list[Any]) -> Any:
        units, hexes, said = self._split(items)
        return self._query(meta, ir.AttackQuery, units=tuple(units), targets=self._hexes(hexes),
                           result=self._verdict(said, ir.AttackResult, "an attack's",
                                                {"must_attack": "must-attack"}))

    @v_args(meta=True)
    def expect_combat(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, said = self._split(items)
        rest, options = self._options(rest)
        result = None if said is None else ir.CombatResult(
            span=said.span, odds=said.get("odds"), column=said.get("column"), roll=said.get("roll"),
            dice=said.get("dice"), outcome=said.get("outcome"), exchange=said.get("exchange"),
            exchange_by=said.get("exchange_by", ()))
        return self._query(meta, ir.CombatQuery, units=tuple(units), targets=self._hexes(rest),
                           declared=options.get("declared", ()), overrun=options.get("overrun", False),
                           forced=options.get("forced", False), result=result)

    def combat_with(self, items: list[Any]) -> Any:
        return ("option", "declared", tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def expect_phases(self, meta: Meta, items: list[Any]) -> Any:
        said = items.pop() if items and isinstance(items[-1], _Said) else None
        turn = items.pop()
        side = self._text(items[0]) if items else None
        result = None if said is None else ir.PhasesResult(span=said.span, phases=said.get("phases", ()))
        return self._query(meta, ir.PhasesQuery, side=side, turn=self._whole(turn), result=result)

    @v_args(meta=True)
    def phases_result(self, meta: Meta, items: list[Any]) -> Any:
        return self._said(meta, phases=tuple(self._text(t) for t in items))

    @v_args(meta=True)
    def expect_engage(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, said = self._split(items)
        rest, options = self._options(rest)
        for item in [i for i in rest if isinstance(i, tuple)]:
            options[item[0]] = item[1]
        result = None if said is None else ir.EngageResult(
            span=said.span, refused=said.get("ruling") == ir.Ruling.REFUSED,
            **{key: said.get(key, ()) for key in ("fighting", "sharing", "spared", "destroyed", "exposed")},
            terrain=said.get("terrain"), attacker_retreat=said.get("attacker_retreat"),
            defender_retreat=said.get("defender_retreat"))
        return self._query(meta, ir.EngageQuery, units=tuple(units),
                           targets=self._hexes([t for t in rest if not isinstance(t, tuple)]),
                           defending=options.get("defending", ()), arrived=options.get("arrived", ()),
                           overrun=options.get("overrun", False), given=options.get("given"), result=result)

    def engage_arrived(self, items: list[Any]) -> Any:
        return ("arrived", tuple(items))

    def engage_defending(self, items: list[Any]) -> Any:
        return ("defending", tuple(items))

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
        for key in ("attacker_retreat", "defender_retreat"):
            if key in found:
                found[key] = found[key][1]
        return self._said(meta, **found)

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
        units, rest, said = self._split(items)
        rest, options = self._options(rest)
        attackers = rest[0][1] if rest else ()
        count = None
        if units:   # the last number written is how many hexes
            count = self._whole_text(units.pop())
        result = None if said is None else ir.RetreatResult(
            span=said.span, eliminated=said.get("ruling") == ir.Ruling.ELIMINATED, loss=said.get("loss"),
            via=said.get("via", ()), closed=said.get("closed", ()), apart=said.get("apart"))
        return self._query(meta, ir.RetreatQuery, units=tuple(units), hexes=count, attackers=attackers,
                           refuse=options.get("refuse"), result=result, breakthrough=options.get("breakthrough", False))

    def retreat_from(self, items: list[Any]) -> Any:
        return ("from", tuple(items))

    @v_args(meta=True)
    def expect_losses(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, said = self._split(items)
        count = self._whole_text(units.pop()) if units else None     # the last number written is the steps
        side, *more = rest
        enemies = more[0][1] if more else ()
        result = None if said is None else ir.LossesResult(
            span=said.span, first=said.get("first", ()), chooser=said.get("by"), then=said.get("then", ()),
            then_chooser=said.get("then by"), lost=said.get("lost"))
        return self._query(meta, ir.LossesQuery, units=tuple(units), steps=count, attacking=str(side) == "attacking",
                           enemies=enemies, result=result)

    @v_args(meta=True)
    def losses_result(self, meta: Meta, items: list[Any]) -> Any:
        found: dict[str, Any] = {}
        last = ""
        for key, value, span in items:
            if key == "by" and last == "then":     # `then 4 8 by owner`: who picks the rest
                key = "then by"
            last = key
            if key in found:
                raise RulesError([Diagnostic(f"'{key}' is given twice", span,
                                             hint="give each of first, by, then and lost once")])
            found[key] = value
        return self._said(meta, **found)

    def losses_first(self, items: list[Any]) -> Any:
        return ("first", tuple(items), items[0].span)

    def losses_then(self, items: list[Any]) -> Any:
        return ("then", tuple(items), items[0].span)

    def losses_by(self, items: list[Any]) -> Any:
        chooser = self._text(items[0])
        return ("by", chooser, chooser.span)

    def losses_lost(self, items: list[Any]) -> Any:
        return ("lost", self._whole(items[0]), self._text(items[0]).span)

    @v_args(meta=True)
    def expect_advance(self, meta: Meta, items: list[Any]) -> Any:
        units, rest, said = self._split(items)
        rest, options = self._options(rest)
        via = next((item[1] for item in rest if isinstance(item, tuple) and item[0] == "via"), ())
        hex_, after, *flag = [item for item in rest if not isinstance(item, tuple)]
        result = None if said is None else ir.AdvanceResult(
            span=said.span, refused=said.get("ruling") == ir.Ruling.REFUSED, hexes=said.get("hexes"),
            to=said.get("to", ()), absent=said.get("absent", ()), must_enter=said.get("must_enter", False))
        return self._query(meta, ir.AdvanceQuery, units=tuple(units), into=self._text(hex_),
                           after=self._whole(after), destroyed=bool(flag), overrun=options.get("overrun", False),
                           breakthrough=options.get("breakthrough", False), via=via, refuse=options.get("refuse"),
                           result=result)

    def advance_via(self, items: list[Any]) -> Any:
        return ("via", tuple(self._text(t) for t in items))

    def _whole_text(self, text: ir.Text) -> int | None:
        """A unit name written where a whole number is needed (retreat's hexes): None if it is no number;
        validate reports it."""
        if not text.value.isdigit():
            return None
        return int(text.value)

    # ---- what an expect line says the rules answer: the parts, made a kind's result node above -----------------
    @v_args(meta=True)
    def move_result(self, meta: Meta, items: list[Any]) -> Any:
        costs = [self._number(t) for t in items if self._is(t, "NUMBER")]
        total = next((i[1] for i in items if isinstance(i, tuple) and i[0] == "total"), None)
        ruling = next((i.get("ruling") for i in items if isinstance(i, _Said)), None)
        return self._said(meta, costs=tuple(costs), total=total, ruling=ruling)

    def move_total(self, items: list[Any]) -> Any:
        return ("total", self._number(items[0]))

    @v_args(meta=True)
    def legal(self, meta: Meta, items: list[Any]) -> Any:
        return self._said(meta, ruling=ir.Ruling.LEGAL)

    @v_args(meta=True)
    def illegal(self, meta: Meta, items: list[Any]) -> Any:
        return self._said(meta, ruling=ir.Ruling.ILLEGAL)

    @v_args(meta=True)
    def hex_result(self, meta: Meta, items: list[Any]) -> Any:
        absent = items.pop() if items and isinstance(items[-1], list) else []
        return self._said(meta, hexes=tuple(self._text(t) for t in items), absent=tuple(absent))

    def hex_absent(self, items: list[Any]) -> Any:
        return [self._text(t) for t in items]

    @v_args(meta=True)
    def supply_in(self, meta: Meta, items: list[Any]) -> Any:
        return self._said(meta, ruling=ir.Ruling.IN)

    @v_args(meta=True)
    def supply_out(self, meta: Meta, items: list[Any]) -> Any:
        return self._said(meta, ruling=ir.Ruling.OUT)

    @v_args(meta=True)
    def supply_isolated(self, meta: Meta, items: list[Any]) -> Any:
        return self._said(meta, ruling=ir.Ruling.ISOLATED)

    @v_args(meta=True)
    def allowed(self, meta: Meta, items: list[Any]) -> Any:
        found: dict[str, Any] = {}
        tokens: dict[str, Span] = {}
        for key, value, token, part in items:
            if key in found:
                span = token.span if isinstance(token, ir.Text) else self._text(token).span
                raise RulesError([Diagnostic(f"'{self._PART_WORD[key]}' is given twice", span,
                                             hint="give each of cost, left, mp, unready-above and must-attack once")])
            found[key], tokens[key] = value, part
        return self._said(meta, ruling=ir.Ruling.ALLOWED, tokens=tokens, **found)

    _PART_WORD = {"cost": "cost", "left": "left", "mp": "mp", "must_attack": "must-attack",
                  "unready_above": "unready-above"}

    # each part of a verdict: its field, its value, where a second one is reported, and its own span
    @v_args(meta=True)
    def verdict_must(self, meta: Meta, items: list[Any]) -> Any:
        return ("must_attack", tuple(items), items[0], self._span(meta))

    @v_args(meta=True)
    def verdict_must_none(self, meta: Meta, items: list[Any]) -> Any:
        return ("must_attack", (), ir.Text(span=self._span(meta), value="must-attack"), self._span(meta))

    @v_args(meta=True)
    def verdict_cost(self, meta: Meta, items: list[Any]) -> Any:
        return ("cost", self._number(items[0]), items[0], self._span(meta))

    @v_args(meta=True)
    def verdict_left(self, meta: Meta, items: list[Any]) -> Any:
        return ("left", self._number(items[0]), items[0], self._span(meta))

    @v_args(meta=True)
    def verdict_mp(self, meta: Meta, items: list[Any]) -> Any:
        return ("mp", self._number(items[0]), items[0], self._span(meta))

    @v_args(meta=True)
    def verdict_unready(self, meta: Meta, items: list[Any]) -> Any:
        return ("unready_above", self._number(items[0]), items[0], self._span(meta))

    @v_args(meta=True)
    def refused(self, meta: Meta, items: list[Any]) -> Any:
        if items:       # `refused [6.0 6.0b]`: the rules that refuse it
            return self._said(meta, ruling=ir.Ruling.REFUSED, refused_by=tuple(items[0]))
        return self._said(meta, ruling=ir.Ruling.REFUSED)

    @v_args(meta=True)
    def retreat_loss(self, meta: Meta, items: list[Any]) -> Any:
        apart = items.pop() if items and isinstance(items[-1], bool) else None
        closed = items.pop() if items and isinstance(items[-1], list) else []
        loss, *via = items
        return self._said(meta, loss=Fraction(self._whole(loss)), via=tuple(self._text(t) for t in via),
                          closed=tuple(closed), apart=apart)

    def retreat_together(self, items: list[Any]) -> Any:
        return False

    def retreat_apart(self, items: list[Any]) -> Any:
        return True

    def retreat_not(self, items: list[Any]) -> Any:
        return [self._text(t) for t in items]

    @v_args(meta=True)
    def retreat_eliminated(self, meta: Meta, items: list[Any]) -> Any:
        return self._said(meta, ruling=ir.Ruling.ELIMINATED)

    @v_args(meta=True)
    def advance_hexes(self, meta: Meta, items: list[Any]) -> Any:
        must = bool(items) and isinstance(items[-1], Token) and items[-1].type == "MUST_ENTER"
        if must:
            items = items[:-1]
        to = items[1] if len(items) > 1 else ((), ())
        return self._said(meta, hexes=Fraction(self._whole(items[0])), to=to[0], absent=to[1], must_enter=must)

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
        if "exchange" in found:     # the least it costs, and the units that pay it (`exchange 6 by b c`)
            found["exchange"], found["exchange_by"] = found["exchange"]
        return self._said(meta, **found)

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
        return ("exchange", (self._number(items[0]), tuple(items[1:])), items[0])


@dataclass(frozen=True)
class _Said:
    """The parts of what an expect line says the rules answer, while its query is built: the grammar's result
    rules are shared by kinds (`legal`, `refused`, a set of hexes), the query's builder makes its node."""

    span: Span
    parts: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        return self.parts.get(key, default)
