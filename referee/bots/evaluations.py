"""Evaluations for the ``greedy`` bot and for MCTS leaves: the games' own.

Each rules module declares its evaluation with the game kit's hook
``Game.evaluate(player) -> float | None`` (0 to 1, reading only what the player
may see and the board; ``docs/game-kit.md``): :func:`evaluate` and :func:`reward`
ask it. A game that declares none gets a neutral 0 (``greedy`` then plays like
``random``, ``mcts`` relies on its rollouts).

Every shipped game now declares its own (Ringgeister's is
:mod:`referee.games.ringgeister.evaluate`); :data:`EVALUATIONS` stays for a heuristic
kept here by rules name, on its own scale (:data:`SCALE` says what one "unit" of
advantage is, so MCTS can squash it into a reward).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..games.base import Game

Evaluation = Callable[[Game[Any], str], float]


def declared(game: Game[Any], player: str) -> float | None:
    """The game's own evaluation (the kit's ``evaluate(player)``, 0 to 1), or ``None``."""
    value = game.evaluate(player)
    return None if value is None else float(value)


def heuristic(game: Game[Any], player: str) -> float:
    """The evaluation kept here for ``game``'s rules (:data:`EVALUATIONS`), else 0."""
    fn = EVALUATIONS.get(game.rules)
    return fn(game, player) if fn is not None else 0.0


def evaluate(game: Game[Any], player: str) -> float:
    """How well ``player`` stands in ``game`` (higher is better; not for finished games).

    Notes
    -----
    The game's own ``evaluate(player)`` when it returns a value, else
    :data:`EVALUATIONS` by rules name, else 0.
    """
    own = declared(game, player)
    return own if own is not None else heuristic(game, player)


def reward(game: Game[Any], player: str, base: float) -> float:
    """A reward in [0, 1] for an unfinished search leaf.

    The game's own evaluation is one already; a heuristic of :data:`EVALUATIONS` is
    turned into one by squashing its change since the root (``base``).
    """
    own = declared(game, player)
    if own is not None:
        return min(1.0, max(0.0, own))
    return squash(heuristic(game, player) - base, scale(game))


def scale(game: Game[Any]) -> float:
    """One unit of advantage for ``game``'s heuristic (MCTS squashes ``delta / scale``)."""
    return SCALE.get(game.rules, 1.0)


def squash(delta: float, unit: float) -> float:
    """A reward in (0, 1) for an advantage ``delta`` (logistic, 0.5 at no change)."""
    z = max(-30.0, min(30.0, delta / unit))
    return 1.0 / (1.0 + math.exp(-z))


#: rules name -> evaluation (a rules module's own ``evaluate`` takes precedence)
EVALUATIONS: dict[str, Evaluation] = {}

#: rules name -> one unit of advantage (see :func:`squash`)
SCALE: dict[str, float] = {}
