"""Determinisation: the only games a bot searches are built from what one player sees.

A bot must never read hidden state (other players' hands, the order of a face-down
pile, the generator that will roll the next dice). Each game says how to build a
complete, playable game from one player's view through the kit's hook
:meth:`Game.determinise(player, rng) <referee.games.base.Game.determinise>`:
every hidden part sampled with the bot's generator — one possible world
consistent with what the player knows. The determinising MCTS searches many such
worlds and keeps the statistics of the moves they share.

Games of open information get the kit's default (a copy with a fresh generator, so
dice and shuffles are sampled rather than foreseen); a game that hides something
deals it from its view (Riddle of the Ring: :mod:`referee.games.riddle.determinize`).
A hook raises :class:`CannotDeterminise` when the view does not say enough; bots
then decide without search.
"""

from __future__ import annotations

import random
from typing import Any

from ..games.base import CannotDeterminise, Game

__all__ = ["CannotDeterminise", "determinise"]


def determinise(game: Game[Any], player: str, rng: random.Random) -> Game[Any]:
    """A playable game consistent with ``game.view(player)``; hidden parts sampled
    (the game's own :meth:`~referee.games.base.Game.determinise`).

    Raises
    ------
    CannotDeterminise
        When the view does not determine enough of the state.
    """
    world = game.determinise(player, rng)
    if world is game:
        raise CannotDeterminise(f"{type(game).__name__}.determinise returned the game itself")
    return world
