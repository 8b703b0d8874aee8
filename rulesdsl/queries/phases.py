"""`expect phases [SIDE] turn N`: the phases a game turn (or a side's player turn) has on turn N, each
skipped one with the turns it is skipped on and its rule (the generated module's sequence of play)."""
from __future__ import annotations

import types
from collections.abc import Sequence

from rulesdsl.errors import Diagnostic, suggest
from rulesdsl.model import ir
from rulesdsl.queries.base import (Answer, CheckContext, QueryKind, Unanswerable, compared, engine_call,
                                   query_words, states_answer, want, words)
from rulesdsl.runtime.engine import RulesEngine
from rulesdsl.runtime.model import Phase, PlayerTurn
from rulesdsl.runtime.ruleset import Step
from rulesdsl.runtime.situation import Situation


def text(q: ir.PhasesQuery) -> str:
    """`phases SIDE turn N`, as written."""
    return query_words(q.kind, [q.side.value if q.side is not None else "", "turn", str(q.turn)])


def ask(engine: RulesEngine, module: types.ModuleType | None, situation: Situation, q: ir.PhasesQuery) -> Answer:
    """The phases played on the turn, in order, compared with the line's."""
    game_turn = getattr(module, "GAME_TURN", None)
    if module is None or not game_turn:
        raise Unanswerable("this rulebook has no sequence of play, so no phases")
    turn, player_turn = q.turn, None if q.side is None else q.side.value
    if q.side is not None and q.side.value not in module.PLAYER_TURNS:
        raise Unanswerable(f"the sequence of play has no player turn '{q.side.value}'", q.side.span,
                           suggest(q.side.value, list(module.PLAYER_TURNS))
                           or f"its player turns are {', '.join(module.PLAYER_TURNS)}")
    played = engine_call("phases", module.phases, turn, player_turn)
    names = [phase.name for phase in played]
    ok = q.result is None or [p.value for p in q.result.phases] == names
    return compared(want(result_text, q.result), [" ".join(names) or "(no phase)"],
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


def result_text(r: ir.PhasesResult) -> str:
    """The phases, in order, as written."""
    return words(r.phases)


def check(q: ir.PhasesQuery, context: CheckContext) -> list[Diagnostic]:
    """A game turn from 1."""
    if q.turn < 1:
        return [Diagnostic(f"there is no game turn {q.turn}: the first is 1", q.span,
                           hint="write the game turn the phases are asked for, like: phases turn 3")]
    return []


QUERY = QueryKind(
    node=ir.PhasesQuery, text=text, result_text=result_text, ask=ask, check=check,
    names=lambda q: (), units=lambda q: (),
    result_hint="end it with the phases that turn has, in order, like: movement combat supply",
    states_answer=states_answer, drives=None, judged=False, answer_hexes=None)
