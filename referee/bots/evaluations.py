"""Evaluations for the ``greedy`` bot and for MCTS leaves: the games' own.

Each rules module declares its evaluation with the game kit's hook
``Game.evaluate(player) -> float | None`` (0 to 1, reading only what the player
may see and the board; ``docs/game-kit.md``): :func:`evaluate` and :func:`reward`
ask it. A game that declares none gets a neutral 0 (``greedy`` then plays like
``random``, ``mcts`` relies on its rollouts).

Transitional: the Ringgeister evaluation still lives here, in :data:`EVALUATIONS`
(its rules module is taking it over), on its own scale (:data:`SCALE` says what
one "unit" of advantage is, so MCTS can squash it into a reward).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..compiler import CompiledBoard
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


# ====================================================================== Ringgeister
def _xy(compiled: CompiledBoard, node: str) -> tuple[float, float] | None:
    d = compiled.graph.nodes.get(node) if node in compiled.graph else None
    if d is None or "x" not in d:
        return None
    return float(d["x"]), float(d["y"])


def _ringgeister_goal(compiled: CompiledBoard) -> tuple[float, float]:
    def build() -> tuple[float, float]:
        for _, d in compiled.graph.nodes(data=True):
            if d.get("goal"):
                return float(d["x"]), float(d["y"])
        return 0.0, 0.0

    return compiled.derived("bots.ringgeister.goal", build)


def ringgeister(game: Game[Any], player: str) -> float:
    """Ringgeister: the player's Hobbit near the goal, more so while it is the
    Ringbearer; counters of the player's colour still on the board (the spider's
    path stays closed to his Hobbit) and opponents' Hobbits near the goal count
    against. Unit: about 100 mm (one tile pitch)."""
    view = game.view(player)
    if isinstance(view.get("state"), dict):  # the game kit's state files nest the state
        view = {**view["state"], "players": view.get("players")}
    figures: dict[str, str] = view.get("figures") or {}
    card = str((view.get("cards") or {}).get("face_up") or "")
    bearer = card.split("-", 1)[0]
    goal = _ringgeister_goal(game.compiled)
    diag = 1000.0

    def closeness(colour: str) -> float:
        node = figures.get(f"hobbit-{colour}")
        xy = _xy(game.compiled, node) if node else None
        if xy is None:
            return 0.0
        return 1.0 - math.dist(xy, goal) / diag

    colours = [str(c) for c in view.get("players") or []]
    counters = view.get("counters") or []
    left = dict.fromkeys(colours, 0)
    for c in counters:
        if not c.get("removed") and c.get("colour") in left:
            left[c["colour"]] += 1

    def score(colour: str) -> float:
        s = closeness(colour) * (3.0 if colour == bearer else 1.0)
        return s - 0.3 * left.get(colour, 0)

    mine = score(player)
    others = [score(c) for c in colours if c != player]
    return 10.0 * (mine - (max(others) if others else 0.0))


#: rules name -> evaluation (a rules module's own ``evaluate`` takes precedence)
EVALUATIONS: dict[str, Evaluation] = {
    "ringgeister": ringgeister,
}

#: rules name -> one unit of advantage (see :func:`squash`)
SCALE: dict[str, float] = {
    "ringgeister": 1.0,
}
