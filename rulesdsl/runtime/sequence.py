"""Which phases a game turn has: the sequence of play less the phases that turn skips (`not on night`,
`on turns 2+`)."""
from __future__ import annotations

from collections.abc import Mapping

from .combat import RulesInputError, _unknown
from .model import Phase, PlayerTurn


def turn_number(turn: object) -> int:
    """A game turn as the sequence of play counts them: a whole number, 1 the first."""
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise RulesInputError(f"a game turn is a whole number from 1, not {turn!r}")
    return turn


def game_turn_on(game_turn: tuple[PlayerTurn | Phase, ...], turn: int) -> tuple[PlayerTurn | Phase, ...]:
    """The game turn `turn` as played: its own phases that happen then, and each player turn it runs with
    only the phases that happen then."""
    number = turn_number(turn)
    out: list[PlayerTurn | Phase] = []
    for item in game_turn:
        if isinstance(item, PlayerTurn):
            out.append(PlayerTurn(item.name, tuple(phase for phase in item.phases if phase.on(number))))
        elif item.on(number):
            out.append(item)
    return tuple(out)


def phases_on(game_turn: tuple[PlayerTurn | Phase, ...], player_turns: Mapping[str, tuple[Phase, ...]],
              turn: int, player_turn: str | None = None) -> tuple[Phase, ...]:
    """The phases game turn `turn` has, in order: those of `player_turn` (a name the game turn runs it
    under), or, with none, every phase of the game turn, each player turn's in its place."""
    if player_turn is not None:
        if player_turn not in player_turns:
            raise _unknown("player turn", player_turn, player_turns)
        number = turn_number(turn)
        return tuple(phase for phase in player_turns[player_turn] if phase.on(number))
    return tuple(phase for item in game_turn_on(game_turn, turn)
                 for phase in (item.phases if isinstance(item, PlayerTurn) else (item,)))
