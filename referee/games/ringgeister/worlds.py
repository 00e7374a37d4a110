"""A world a bot may search: the game as one player sees it, the pile's order sampled.

Ringgeister hides one thing from every player: the order of the face-down pile
(rulebook 1.2, 3.1). :func:`determinise` is the game's side of the kit's
determinisation hook (:meth:`~referee.games.base.Game.determinise`): a copy of the
game whose pile holds the same cards in an order drawn from the bot's generator —
their order in the game is never read (the cards are sorted before the shuffle) —
and a fresh generator for the reshuffles to come.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, TypeVar

from ..rng import Rng

if TYPE_CHECKING:
    from .protocol import Ringgeister

G = TypeVar("G", bound="Ringgeister")


def determinise(g: G, player: str, rng: random.Random) -> G:
    """A copy of ``g`` with the face-down pile shuffled by ``rng`` and another seed
    (``g`` unchanged).

    Everything else of the state is open to every player, whoever ``player`` is.

    Notes
    -----
    One :meth:`~Ringgeister.copy` and a shuffle of the pile (a few µs).
    """
    world = g.copy()
    pile = sorted(world.pile)
    rng.shuffle(pile)
    world.pile = pile
    world.rng = Rng(rng.getrandbits(64))
    world.seed = rng.getrandbits(63)  # the seed is hidden too: it rebuilds the pile
    return world
