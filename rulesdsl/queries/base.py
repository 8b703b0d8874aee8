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
from typing import Any, Generic, TypeVar

from rulesdsl.errors import Diagnostic, Span
from rulesdsl.model import ir
from rulesdsl.runtime.answers import Refusal
from rulesdsl.runtime.combat import DivisionByZero
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.hexmap import Hex
from rulesdsl.runtime.ruleset import Step
from rulesdsl.runtime.situation import Situation

Q = TypeVar("Q")    # a kind's query node (ir.Query)
R = TypeVar("R")    # its result node (ir.QueryResult)

__all__ = ["Answer", "CheckContext", "QueryKind", "REFUSALS", "Unanswerable", "clause", "compared", "engine_call",
           "flag", "fraction_text", "hex_set", "hex_set_words", "hexes_text", "number", "odds_word", "on_map",
           "option", "query_words", "result_on_map", "ruling_word", "set_text", "states_answer", "verdict_words", "want", "words"]


@dataclass(frozen=True)
class Answer:
    """What the engine answered to one query: in the notation's words (`computed`, shaped like the expected
    result when there is one), the answer record as data, and its derivation."""

    computed: str
    data: dict[str, Any]
    steps: tuple[Step, ...] = ()
    matches: bool = True
    mismatch: str = ""        # `expected ..., computed ...` when it differs
    # the parameters whose steps decided a refusal in the answer (each Refusal's, recorded where it was made)
    deciders: frozenset[str] = frozenset()


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


def query_words(kind: ir.ExpectKind, *parts: Sequence[str]) -> str:
    """A query as the notation writes it: its kind's word, then its parts in the grammar's order (an empty
    word left out)."""
    return " ".join(p for p in (str(kind), *(w for part in parts for w in part)) if p)


def option(word: str, value: ir.Text | Fraction | int | None) -> list[str]:
    """An optional clause, `word VALUE`, or nothing when it is not given."""
    if value is None:
        return []
    return [word, value.value if isinstance(value, ir.Text) else str(value)]


def flag(word: str, given: bool) -> list[str]:
    """A word written or not: `overrun`, `forced`, `destroyed`."""
    return [word] if given else []


def clause(word: str, texts: Sequence[ir.Text]) -> list[str]:
    """`word TEXT...`, or nothing when there are none."""
    return [word, *(t.value for t in texts)] if texts else []


def hex_set_words(hexes: Sequence[ir.Text], absent: Sequence[ir.Text]) -> list[str]:
    """Hexes in a set, then `not` and hexes not in it, as written."""
    return [*(h.value for h in hexes), *(["not", words(absent)] if absent else [])]


def verdict_words(r: ir.OverrunResult | ir.ExploitResult | ir.AttackResult) -> list[str]:
    """`allowed` or `refused [RULE...]`, as written: what every verdict's result begins with."""
    return [str(r.ruling), *(["[" + words(r.refused_by) + "]"] if r.refused_by is not None else [])]


# ---- asking and comparing -------------------------------------------------------------------------------
def ruling_word(expected: ir.Ruling | None, value: bool, yes: ir.Ruling, no: ir.Ruling) -> tuple[str, bool]:
    """The ruling the engine gave (`yes` when `value`), and whether it is the one expected (None: any)."""
    word = yes if value else no
    return str(word), expected is None or expected == word


def compared(want: str, shown: Sequence[str], data: dict[str, Any], steps: Iterable[Step], ok: bool,
             refusals: Iterable[Refusal] = ()) -> Answer:
    """The answer of `shown` words; its mismatch says `expected want, computed ...` when not `ok`;
    `refusals`: why what was asked is refused or illegal, whose parameters decide the answer."""
    computed = " ".join(shown)
    return Answer(computed, data, tuple(steps), ok, "" if ok else f"expected {want}, computed {computed}",
                  frozenset(r.parameter for r in refusals if r.parameter is not None))


def states_answer(result: Any) -> bool:
    """Whether a result states what the rules answer: every result does, but a combat's that gives only the
    roll to read (an input)."""
    return True


def hex_set(inside: set[Hex], r: ir.HexSetResult | None) -> tuple[str, bool]:
    """A set of hexes answered (reach, zoc) as the line pins it: the hexes it names, in or `not` in, and
    whether each is where the line says (all of them, when it names none)."""
    if r is None:
        return " ".join(sorted(str(h) for h in inside)) or "(none)", True
    asked = [Hex.parse(h.value) for h in (*r.hexes, *r.absent)]
    shown = set_text([str(h) for h in asked if h in inside], [str(h) for h in asked if h not in inside])
    ok = all(Hex.parse(h.value) in inside for h in r.hexes) and not any(Hex.parse(h.value) in inside for h in r.absent)
    return shown, ok


def want(result_text: Callable[[R], str], r: R | None) -> str:
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


def on_map(context: CheckContext, hexes: Sequence[ir.Text], start: ir.Text | None = None) -> None:
    """Report each hex of a query that is off the map, but its last when it lies just across the map's edge
    from the hex before it (`start`, where the query names one hex: a move's unit's hex): a move may end
    there, the rules say whether units may leave the map."""
    before = (hexes[-2] if len(hexes) > 1 else start) if hexes else None
    for hex in hexes:
        if hex is hexes[-1] and before is not None and context.edge is not None and context.edge(before, hex):
            continue
        context.on_map(hex)


def result_on_map(context: CheckContext, hexes: Iterable[ir.Text]) -> None:
    """Report each hex a result names that is off the map (a result's hexes are where units are or go: none
    may lie across the edge)."""
    for hex in hexes:
        context.on_map(hex)


# ---- a kind's operations --------------------------------------------------------------------------------
@dataclass(frozen=True)
class QueryKind(Generic[Q, R]):
    """One kind of `expect` query (its IR node `node`, ir.Query) and every operation the compiler needs of it.

    `text`: the query printed back; `result_text`: its result printed back; `ask`: the engine's answer,
    compared with the result (Unanswerable when the engine refuses); `check`: what is wrong with the line by
    itself, its result's own checks included (its hexes, query's and result's, reported through the context's
    on_map); `names`: every unit the line names, query then result (each must be in the situation);
    `units`: the units the query is about (a move's unit, an attack's attackers; a stack's overrunning units),
    what mutation testing spreads its questions over; `result_hint`: what a line with no result should end
    with; `states_answer`: whether a result states an answer (not only inputs); `drives`: the engine question
    (the core vocabulary's `question`) it asks, for mutation testing (None: it asks none of them by itself);
    `judged`: the generated combat engine judges it (what it reads is not all recorded by the rule set);
    `answer_hexes`: the field of its answer's data that is a set of hexes, if any (a mutation's difference is
    said as hexes that came or went)."""

    node: type[Q]
    text: Callable[[Q], str]
    result_text: Callable[[R], str]
    ask: Callable[[RulesEngine, "types.ModuleType | None", Situation, Q], Answer]
    check: Callable[[Q, CheckContext], list[Diagnostic]]
    names: Callable[[Q], tuple[ir.Text, ...]]
    units: Callable[[Q], tuple[ir.Text, ...]]
    result_hint: str
    states_answer: Callable[[R], bool]
    drives: str | None
    judged: bool
    answer_hexes: str | None

    @property
    def kind(self) -> ir.ExpectKind:
        """The kind of `expect` line it answers (its node's)."""
        kind: ir.ExpectKind = getattr(self.node, "kind")
        return kind
