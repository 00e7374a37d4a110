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
from dataclasses import dataclass
from typing import Any, ClassVar

from ..games.base import Game
from ..games.outcome import Outcome


@dataclass(frozen=True)
class BotParam:
    """One parameter of a bot spec (``mcts:iterations=400``): a keyword of the bot's
    constructor.

    Attributes
    ----------
    name : str
        The key in a spec and the constructor's keyword.
    type : type
        ``int`` or ``float``: how the spec's text is read.
    default : int, float or None
        What the bot takes when the spec leaves it out (``None``: none, or the
        game's own setting, see the bot's docs).
    help : str
        What it sets, for UIs and the docs.
    """

    name: str
    type: type[int] | type[float]
    default: int | float | None
    help: str


class Bot(ABC):
    """A computer player: chooses a legal move for the player to move.

    Each bot class declares what the registry (:data:`referee.bots.BOTS`) shows of it:
    its :attr:`name`, a :attr:`label` and :attr:`description` for UIs and the docs,
    and the :attr:`PARAMS` a spec may set.

    Parameters
    ----------
    seed : int
        Seeds the bot's own generator; the game's generator is never touched.
    """

    #: the name ``--bots`` uses
    name: ClassVar[str] = ""
    #: the name a UI shows (the editor's seat list: "Bot: MCTS")
    label: ClassVar[str] = ""
    #: one line: how it chooses
    description: ClassVar[str] = ""
    #: the parameters a spec may set (``name:key=value,...``)
    PARAMS: ClassVar[tuple[BotParam, ...]] = ()

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
    """The players' names in seating order (the names ``to_move`` returns): the kit's
    ``game.players``."""
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
