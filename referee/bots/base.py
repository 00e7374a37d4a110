"""What every bot shares: the :class:`Bot` interface, seats and rewards.

A bot plays through the public :class:`~referee.games.base.Game` protocol only
(``legal_moves``, ``push``, ``copy``, ``outcome``, ``to_move``, ``view``, and the
bot hooks ``evaluate`` and ``determinise``), so a new rules module gets bots for
free. A bot is seeded; given the same seed, game and
budget in iterations it chooses the same moves.

Outcomes are the kit's :class:`~referee.games.outcome.Outcome`: a seat wins when
it is among the outcome's ``winners``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any

from ..games.base import Game
from ..games.outcome import Outcome


class Bot(ABC):
    """A computer player: chooses a legal move for the player to move.

    Parameters
    ----------
    seed : int
        Seeds the bot's own generator; the game's generator is never touched.
    """

    #: the name ``--bots`` uses
    name: str = ""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, game: Game[Any]) -> Any:
        """A legal move for ``game.to_move`` (the game is not changed)."""

    def describe(self) -> str:
        """The bot as ``--bots`` writes it (``mcts:iterations=200``)."""
        return self.name


def seats(game: Game[Any]) -> list[str]:
    """The players' names in seating order (the kit's ``game.players``: the names
    ``to_move`` returns)."""
    return list(game.players)


def searched(game: Game[Any]) -> list[Any]:
    """The moves a bot considers: the kit's ``search_moves()`` hook (every legal
    move unless the game leaves out moves that never help, e.g. free discards)."""
    return list(game.search_moves())


def winners(outcome: Outcome | None, seat_names: list[str]) -> list[str]:
    """The seats that won ``outcome`` (empty while the game goes on, on a loss or
    draw), in seating order."""
    if outcome is None or outcome.result != "won":
        return []
    return [s for s in seat_names if outcome.won_by(s)]


def cooperative(game: Game[Any]) -> bool:
    """Whether all the players of ``game`` win or lose together (the kit's
    ``Game.cooperative``, which the track games set)."""
    return bool(game.cooperative)


def rewards(
    outcome: Outcome, seat_names: list[str], game: Game[Any] | None = None
) -> dict[str, float]:
    """Each seat's reward for a finished game, in [0, 1].

    A winner gets 1 and a seat beaten by another 0. When nobody won, a draw gives
    every seat 0.5 and a loss for everybody (Ringgeister's caught Ringbearer) 0.25 —
    better than watching an opponent win, worse than a draw. In a cooperative game
    every seat gets the team's result: 1 for a win, 0 for a loss.
    """
    won = winners(outcome, seat_names)
    if won:
        return {s: (1.0 if s in won else 0.0) for s in seat_names}
    if outcome.result == "draw":
        return dict.fromkeys(seat_names, 0.5)
    team = game is not None and cooperative(game)
    return dict.fromkeys(seat_names, 0.0 if team or len(seat_names) == 1 else 0.25)
