"""A world a bot may search: the game as one player sees it, the pile's order sampled.

Ringgeister hides one thing from every player: the order of the face-down pile
(rulebook 1.2, 3.1). :func:`determinise` is the kit's determinisation hook
(:mod:`referee.bots.determinize`): it rebuilds a playable game from a view with the
pile's cards in an order drawn from the bot's generator — their order in the view is
never read (the cards are sorted before the shuffle) — and a fresh generator for the
reshuffles to come.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...compiler import CompiledBoard

if TYPE_CHECKING:
    from .game import RinggeisterGame


def determinise(
    view: dict[str, Any], compiled: CompiledBoard, rng: random.Random
) -> RinggeisterGame:
    """A game consistent with ``view``: the face-down pile shuffled with ``rng``.

    Notes
    -----
    One :meth:`~referee.games.base.Game.from_json` (about 2 ms on the default board).
    """
    from .game import RinggeisterGame

    state = dict(view["state"])
    cards = dict(state["cards"])
    pile = sorted(cards["pile"])
    rng.shuffle(pile)
    cards["pile"] = pile
    state["cards"] = cards
    data = {**view, "state": state}
    if isinstance(data.get("rng"), int):
        data["rng"] = rng.getrandbits(64)
    return RinggeisterGame.from_json(data, compiled)
