"""`expect phases [SIDE] turn N`: the phases a game turn (or a side's player turn) has on turn N, each
skipped one with the turns it is skipped on and its rule (the generated module's sequence of play)."""
from __future__ import annotations

import types
from collections.abc import Sequence

from rulesdsl.errors import Diagnostic, suggest
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, Unanswerable, compared, engine_call,
                                   hexes_on_map, hexes_result, query_words, states_answer, want)
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.model import Phase, PlayerTurn
from rulesdsl.runtime.ruleset import Step
from rulesdsl.runtime.situation import Situation


def text(e: ir.Expectation) -> str:
    """`phases SIDE turn N`, as written."""
    head = [e.side.value if e.side is not None else "", "turn", "" if e.count is None else str(e.count)]
    return query_words(e, head, [], frozenset({"side", "count"}))


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, e: ir.Expectation) -> Answer:
    """The phases played on the turn, in order, compared with the line's."""
    game_turn = getattr(module, "GAME_TURN", None)
    if module is None or not game_turn:
        raise Unanswerable("this rulebook has no sequence of play, so no phases")
    if e.count is None:    # the grammar writes one: a query built otherwise says so, not a TypeError
        raise Unanswerable("a phases query names the game turn, like: phases turn 3")
    turn, player_turn = e.count, None if e.side is None else e.side.value
    if e.side is not None and e.side.value not in module.PLAYER_TURNS:
        raise Unanswerable(f"the sequence of play has no player turn '{e.side.value}'", e.side.span,
                           suggest(e.side.value, list(module.PLAYER_TURNS))
                           or f"its player turns are {', '.join(module.PLAYER_TURNS)}")
    played = engine_call("phases", module.phases, turn, player_turn)
    names = [phase.name for phase in played]
    ok = e.result is None or [p.value for p in e.result.phases] == names
    return compared(want(result_text, e.result), [" ".join(names) or "(no phase)"],
                    {"turn": turn, "player_turn": player_turn, "phases": names},
                    _steps(module, game_turn, turn, player_turn), ok)


def _steps(module: types.ModuleType, game_turn: Sequence[Phase | PlayerTurn], turn: int,
           player_turn: str | None) -> list[Step]:
    """Each phase of the turn asked (with the player turn it is in when the whole game turn is asked), played or
    skipped on `turn`, with the turns it is limited to and its rule."""
    every = [(None, phase) for phase in module.PLAYER_TURNS[player_turn]] if player_turn is not None else [
        (item.name, phase) if isinstance(item, PlayerTurn) else (None, item)
        for item in game_turn for phase in (item.phases if isinstance(item, PlayerTurn) else (item,))]
    steps: list[Step] = []
    for within, phase in every:
        limits = [f"only on {phase.on_turns}"] if phase.on_turns is not None else []
        limits += [f"not on {phase.not_on_turns}"] if phase.not_on_turns is not None else []
        said = f"{within + ' ' if within else ''}{phase.name}: " \
               f"{'played' if phase.on(turn) else 'skipped'} on game turn {turn}"
        steps.append(Step(said + (f" ({'; '.join(limits)})" if limits else ""),
                          rule=phase.rules[0] if phase.rules else None))
    return steps


def result_text(r: ir.ExpectedResult) -> str:
    """The phases, in order, as written."""
    return hexes_result(r)


def check(e: ir.Expectation, context: CheckContext) -> list[Diagnostic]:
    """A game turn from 1; the query's hexes on the map."""
    hexes_on_map(e, context)
    if e.count is None or e.count < 1:
        return [Diagnostic(f"there is no game turn {e.count}: the first is 1", e.span,
                           hint="write the game turn the phases are asked for, like: phases turn 3")]
    return []


QUERY = QueryKind(
    kind=ir.ExpectKind.PHASES, text=text, result_text=result_text, ask=ask, check=check,
    result_hint="end it with the phases that turn has, in order, like: movement combat supply",
    states_answer=states_answer, drives=None, judged=False, answer_hexes=None)
