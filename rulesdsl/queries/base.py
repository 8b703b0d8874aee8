"""What every kind of worked-example query shares: the engine's answer (`Answer`), the refusal of a query
the engine cannot answer (`Unanswerable`), the one way a kind calls the engine (`engine_call`), the notation's
words for numbers, hexes and sets, and `QueryKind`, the operations each kind's module gives the registry.

Each kind's module (`move.py`, `stack.py` ...) prints its query and result back, asks the engine and
compares the answer, checks the line by itself and says what mutation testing needs to know of it.
"""
from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesdsl.errors import Diagnostic, Span
from rulesdsl.model import ir
from rulesdsl.runtime.combat import DivisionByZero
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.ruleset import Step
from rulesdsl.runtime.situation import Situation

__all__ = ["Answer", "CheckContext", "QueryKind", "REFUSALS", "Unanswerable", "compared", "engine_call",
           "fraction_text", "hex_set", "hexes_on_map", "hexes_result", "hexes_text", "number", "odds_word",
           "plain_result", "query_words", "ruling_word", "set_text", "states_answer", "want", "words"]


@dataclass(frozen=True)
class Answer:
    """What the engine answered to one query: in the notation's words (`computed`, shaped like the expected
    result when there is one), the answer record as data, and its derivation."""

    computed: str
    data: dict[str, Any]
    steps: tuple[Step, ...] = ()
    matches: bool = True
    mismatch: str = ""        # `expected ..., computed ...` when it differs


class Unanswerable(Exception):
    """The engine cannot answer this query (a stage not implemented yet, or a situation it refuses).
    `span` and `hint`: where in the line the problem is and what to do, when the query itself is wrong."""

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None):
        super().__init__(message)
        self.span, self.hint = span, hint


# What the engine raises on purpose for a situation it refuses: a stage not written yet (NotImplementedError),
# a situation or rulebook value it cannot take (ValueError, and runtime.combat.RulesInputError under it), a
# name, table or rule the rulebook lacks (LookupError, KeyError under it), and a rulebook expression that
# divides by 0 as the game was played (runtime.combat.DivisionByZero).  Anything else is a bug in the engine:
# it propagates (the command line reports it as an internal error), never a diagnostic at an expect line.
REFUSALS: tuple[type[Exception], ...] = (NotImplementedError, ValueError, LookupError, DivisionByZero)


def engine_call(what: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`call(*args, **kwargs)`, one of the engine's questions; a refusal of the engine (REFUSALS) becomes
    Unanswerable, named by `what` (the query's kind)."""
    try:
        return call(*args, **kwargs)
    except NotImplementedError:
        raise Unanswerable(f"the engine cannot answer '{what}' yet") from None
    except DivisionByZero as exc:
        raise Unanswerable(f"the engine failed on this {what}: {type(exc).__name__}: {exc}") from None
    except (ValueError, LookupError) as exc:
        raise Unanswerable(f"the engine cannot answer this {what}: {exc}") from None


# ---- the notation's words -------------------------------------------------------------------------------
def number(value: Fraction) -> str:
    """A number as the notation writes it: 2, 1/2."""
    return str(value)


def words(texts: Iterable[ir.Text]) -> str:
    """Written words, space-separated."""
    return " ".join(t.value for t in texts)


def fraction_text(value: Fraction | None) -> str:
    """An MP cost as a move's answer writes it; x: the hex may not be entered (the reason says why)."""
    return "x" if value is None else str(value)


def hexes_text(items: Iterable[Hex]) -> list[str]:
    """Hexes as their numbers."""
    return [str(h) for h in items]


def set_text(inside: Sequence[str], outside: Sequence[str]) -> str:
    """A set of hexes as an expect line pins it: those in, then `not` and those out."""
    return " ".join([*inside, *(["not", *outside] if outside else [])])


def odds_word(odds: str) -> str:
    """What a combat's odds are called as written: 'odds' (3:1), or 'difference' for a differential
    table's attack minus defense (+3, 0, -2)."""
    return "odds" if ":" in odds or odds == "-" else "difference"


def query_words(e: ir.Expectation, head: Sequence[str], middle: Sequence[str], own: frozenset[str]) -> str:
    """A query as the notation writes it: its kind, `head` (what follows the kind word), the modifiers any
    query may carry, `middle` (the kind's own clauses), more modifiers, then each field named in no clause of
    its kind (not in `own`) that is set all the same: the grammar writes none, shown so that nothing is hidden."""
    parts: list[str] = [str(e.kind), *head]
    parts += ["mode", e.mode.value] if e.mode is not None else []
    parts += ["saved", number(e.saved)] if e.saved is not None else []
    parts += ["when", e.moment.value] if e.moment is not None else []
    parts += middle
    parts += ["refuse", str(e.refuse)] if e.refuse is not None else []
    parts += ["overrun"] if e.overrun and "overrun" not in own else []
    parts += ["forced"] if e.forced else []
    parts += ["breakthrough"] if e.breakthrough and "breakthrough" not in own else []
    parts += ["result", e.given.value] if e.given is not None else []
    parts += [h.value for h in e.hexes] if "hexes" not in own else []
    parts += [e.side.value] if e.side is not None and "side" not in own else []
    parts += [str(e.count)] if e.count is not None and "count" not in own else []
    parts += ["from", *(u.value for u in e.others)] if e.others and "others" not in own else []
    parts += ["destroyed"] if e.destroyed and "destroyed" not in own else []
    return " ".join(p for p in parts if p)


def plain_result(r: ir.ExpectedResult, within: Sequence[str] = (), amount_word: str | None = "cost",
                 after: Sequence[str] = ()) -> str:
    """A result as the notation writes it, every field that is set in the grammar's order: `within` is the
    kind's hexes (or a retreat's loss and path), `amount_word` names `amount` (None: `within` says it),
    `after` what follows the amount (an advance's `to`)."""
    parts: list[str] = ["costs", *(number(c) for c in r.costs)] if r.costs else []
    parts += ["total", number(r.total)] if r.total is not None else []
    parts += within
    parts += [str(r.ruling)] if r.ruling is not None else []
    parts += ["[" + words(r.refused_by) + "]"] if r.refused_by is not None else []
    parts += [amount_word, number(r.amount)] if amount_word is not None and r.amount is not None else []
    parts += after
    parts += ["must-enter"] if r.must_enter else []
    for word, value in (("left", r.remaining), ("mp", r.allowance), ("unready-above", r.unready_above),
                        ("size", r.size)):
        parts += [word, number(value)] if value is not None else []
    parts += ["must-attack", words(r.must_attack) or "none"] if r.must_attack is not None else []
    parts += ["excess", words(r.excess) or "chosen"] if r.excess is not None else []
    parts += [str(r.fate)] if r.fate is not None else []
    parts += [odds_word(r.odds.value), r.odds.value] if r.odds is not None else []
    parts += ["column", r.column.value] if r.column is not None else []
    if r.dice is not None:
        parts += ["roll", "white", str(r.dice[0]), "red", str(r.dice[1])]
    elif r.roll is not None:
        parts += ["roll", str(r.roll)]
    parts += ["result", r.outcome.value] if r.outcome is not None else []
    parts += ["exchange", number(r.exchange)] if r.exchange is not None else []
    parts += [p.value for p in r.phases]
    return " ".join(parts)


def hexes_result(r: ir.ExpectedResult) -> str:
    """A result whose hexes are a set (reach, zoc, and the kinds that write none): those in, `not` those out."""
    return plain_result(r, [*(h.value for h in r.hexes), *(["not", words(r.absent)] if r.absent else [])])


# ---- asking and comparing -------------------------------------------------------------------------------
def ruling_word(expected: ir.Ruling | None, value: bool, yes: ir.Ruling, no: ir.Ruling) -> tuple[str, bool]:
    """The ruling the engine gave (`yes` when `value`), and whether it is the one expected (None: any)."""
    word = yes if value else no
    return str(word), expected is None or expected == word


def compared(want: str, shown: Sequence[str], data: dict[str, Any], steps: Iterable[Step], ok: bool) -> Answer:
    """The answer of `shown` words; its mismatch says `expected want, computed ...` when not `ok`."""
    computed = " ".join(shown)
    return Answer(computed, data, tuple(steps), ok, "" if ok else f"expected {want}, computed {computed}")


def states_answer(result: ir.ExpectedResult) -> bool:
    """Whether a result states what the rules answer: every result does, but a combat's that gives only the
    roll to read (an input)."""
    return True


def hex_set(inside: set[Hex], r: ir.ExpectedResult | None) -> tuple[str, bool]:
    """A set of hexes answered (reach, zoc) as the line pins it: the hexes it names, in or `not` in, and
    whether each is where the line says (all of them, when it names none)."""
    if r is None:
        return " ".join(sorted(str(h) for h in inside)) or "(none)", True
    asked = [Hex.parse(h.value) for h in (*r.hexes, *r.absent)]
    shown = set_text([str(h) for h in asked if h in inside], [str(h) for h in asked if h not in inside])
    ok = all(Hex.parse(h.value) in inside for h in r.hexes) and not any(Hex.parse(h.value) in inside for h in r.absent)
    return shown, ok


def want(result_text: Callable[[ir.ExpectedResult], str], r: ir.ExpectedResult | None) -> str:
    """The result a line expects, as written ("" when it gives none)."""
    return "" if r is None else result_text(r)


# ---- checks of a line by itself -------------------------------------------------------------------------
@dataclass(frozen=True)
class CheckContext:
    """What a kind's check reads of the situation around its line: the units by name, `on_map` (reports a
    hex that is off the map or no hex number, to the situation's diagnostics), and `edge` (whether a hex
    lies just across the map's edge from another; None: no hex may)."""

    names: Mapping[str, ir.SituationUnit]
    on_map: Callable[[ir.Text], Hex | None]
    edge: Callable[[ir.Text, ir.Text], bool] | None = None


def hexes_on_map(e: ir.Expectation, context: CheckContext, start: ir.Text | None = None) -> None:
    """Report each hex of the query that is off the map, but its last when it lies just across the map's edge
    from the hex before it (`start`, where the query names one hex: a move's unit's hex): a move may end
    there, the rules say whether units may leave the map."""
    before = (e.hexes[-2] if len(e.hexes) > 1 else start) if e.hexes else None
    for hex in e.hexes:
        if hex is e.hexes[-1] and before is not None and context.edge is not None and context.edge(before, hex):
            continue
        context.on_map(hex)


# ---- a kind's operations --------------------------------------------------------------------------------
Ask = Callable[[RulesEngine, "types.ModuleType | None", Situation, ir.Expectation], Answer]


@dataclass(frozen=True)
class QueryKind:
    """One kind of `expect` query and every operation the compiler needs of it.

    `text`: the query printed back; `result_text`: its result printed back; `ask`: the engine's answer,
    compared with the result (Unanswerable when the engine refuses); `check`: what is wrong with the line by
    itself, its result's own checks included (its hexes reported through the context's on_map);
    `result_hint`: what a line with no result should end with; `states_answer`: whether a result states an
    answer (not only inputs); `drives`: the engine question (runtime.contract's `drives`) it asks, for
    mutation testing (None: it asks none of them by itself); `judged`: the generated combat engine judges it
    (what it reads is not all recorded by the rule set); `answer_hexes`: the field of its answer's data that
    is a set of hexes, if any (a mutation's difference is said as hexes that came or went)."""

    kind: ir.ExpectKind
    text: Callable[[ir.Expectation], str]
    result_text: Callable[[ir.ExpectedResult], str]
    ask: Ask
    check: Callable[[ir.Expectation, CheckContext], list[Diagnostic]]
    result_hint: str
    states_answer: Callable[[ir.ExpectedResult], bool]
    drives: str | None
    judged: bool
    answer_hexes: str | None

