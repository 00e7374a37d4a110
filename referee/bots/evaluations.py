"""Per-game evaluations for the ``greedy`` bot and for MCTS leaves.

An evaluation scores a position for one player: higher is better, on any scale
(:data:`SCALE` says what one "unit" of advantage is, so MCTS can squash it into a
reward). It reads only what the player may see (``game.view(player)``) and public
board data.

A rules module takes its evaluation over with the game kit's hook
``Game.evaluate(player) -> float | None`` (0 to 1): :func:`evaluate` and
:func:`reward` prefer it whenever it returns a value. Until the rules modules declare one, the evaluations
live here, keyed by rules name (:data:`EVALUATIONS`); a game with neither gets a
neutral 0 (``greedy`` then plays like ``random``, ``mcts`` relies on its rollouts).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from typing import Any

from ..compiler import CompiledBoard
from ..games.base import Game

Evaluation = Callable[[Game[Any], str], float]


def declared(game: Game[Any], player: str) -> float | None:
    """The game's own evaluation (the kit's ``evaluate(player)``, 0 to 1), or ``None``."""
    own = getattr(game, "evaluate", None)
    if not callable(own):
        return None
    value = own(player)
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


# ====================================================================== Riddle
def _touch_distance(compiled: CompiledBoard, role: str) -> dict[str, int]:
    """Spaces' ``touch``/``road`` steps to the space with ``role`` (BFS, cached per board)."""

    def build() -> dict[str, int]:
        g = compiled.graph
        goal = next((n for n, d in g.nodes(data=True) if d.get("role") == role), None)
        if goal is None:
            return {}
        dist = {goal: 0}
        todo = deque([goal])
        while todo:
            n = todo.popleft()
            for m in g.neighbors(n):
                if m not in dist:
                    dist[m] = dist[n] + 1
                    todo.append(m)
        return dist

    return compiled.derived(f"bots.riddle.distance.{role}", build)


_RIDDLE_GOAL = {"hobbit": "cracks_of_doom", "rider": "barad_dur"}


def _cities(compiled: CompiledBoard) -> frozenset[str]:
    return compiled.derived(
        "bots.riddle.cities",
        lambda: frozenset(n for n, d in compiled.graph.nodes(data=True) if d.get("city")),
    )


def riddle(game: Game[Any], player: str) -> float:
    """Riddle of the Ring, in the rulebook's own advice: without The Ring, gather
    cards (each card in hand, standing on a city to pick up from, a little for
    heading to one's goal); holding The Ring, go to one's goal (Cracks of Doom for
    Hobbits, Barad-Dur for Black Riders) and wait there. Limbo and captivity cost;
    the best opponent's standing (as far as the viewer sees it) counts against.
    Unit: about one card."""
    view = game.view(player)
    far = 40.0
    cities = _cities(game.compiled)

    def score(q: dict[str, Any]) -> float:
        if q.get("status") in ("out", "reserve"):
            return -far
        role = _RIDDLE_GOAL.get(str(q.get("kind")), "cracks_of_doom")
        dist = _touch_distance(game.compiled, role)
        ring = "the_ring" in (q.get("hand") or ())
        cards = min(int(q.get("hand_count", 0)), 10)
        pos = q.get("pos")
        if q.get("status") in ("limbo", "captive") or pos is None:
            return -15.0 + 0.5 * cards
        d = float(dist.get(str(pos), far))
        if ring:
            return 20.0 - 1.5 * d + (15.0 if q.get("waiting_on_goal") else 0.0) + 0.3 * cards
        return cards + (1.5 if pos in cities else 0.0) - 0.1 * d

    players = [q for q in view.get("players") or [] if isinstance(q, dict)]
    me = next((q for q in players if q.get("name") == player), None)
    if me is None:
        return 0.0
    me = {**me, "hand": view.get("hand") or me.get("hand") or []}
    mine = score(me)
    team = bool((view.get("options") or {}).get("partners"))
    others = [
        score(q) for q in players if q is not me and not (team and q.get("kind") == me.get("kind"))
    ]
    return mine - 0.5 * (max(others) if others else 0.0)


# ====================================================================== track games
def team_value(game: Game[Any], player: str) -> float:
    """The cooperative games' own ``value()`` heuristic (the same for every seat)."""
    value = getattr(game, "value", None)
    return float(value()) if callable(value) else 0.0


#: rules name -> evaluation (a rules module's own ``evaluate`` takes precedence)
EVALUATIONS: dict[str, Evaluation] = {
    "riddle": riddle,
    "mount-doom": team_value,
    "lotr-coop": team_value,
}

#: rules name -> one unit of advantage (see :func:`squash`)
SCALE: dict[str, float] = {
    "riddle": 3.0,
    "mount-doom": 15.0,
    "lotr-coop": 15.0,
}
