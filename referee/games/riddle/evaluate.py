"""Riddle of the Ring for bots: how well a player stands, from what he sees.

The kit's hook ``Game.evaluate(player)`` (``docs/game-kit.md``): the ``greedy`` bot
plays the move whose result it likes best, ``mcts`` scores the leaves of its search
with it. It reads only ``view(player)`` and the board, so it may be called on the
worlds :mod:`.determinize` deals (and never learns more than the player knows).

The score follows the rulebook's advice ("How to Get Started Quickly", the
Questions & Answers): build up a hand at the cities, then carry The Ring to one's
goal (the Cracks of Doom for Hobbits, Barad-Dur for Black Riders), end a turn there
and show it on the next.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any

from ...compiler import CompiledBoard
from .protocol import Riddle
from .turn import may_pick_up

#: each kind's goal (a space role)
GOAL = {"hobbit": "cracks_of_doom", "rider": "barad_dur"}
#: the advantage (in cards) that lifts the logistic of :func:`evaluate` by about a half
UNIT = 4.0
#: steps to the goal at which carrying The Ring counts nothing yet
RING_STEPS = 30.0
#: the distance of a space the goal cannot be reached from
FAR = 40.0
#: what one step farther from a city to pick up at costs (in cards)
CITY_STEP = 0.25


def steps_from(compiled: CompiledBoard, source: str) -> dict[str, int]:
    """Every space's ``touch``/``road`` steps from ``source`` (BFS, O(V + E))."""
    g = compiled.graph
    dist = {source: 0}
    todo = deque([source])
    while todo:
        n = todo.popleft()
        for m in g.neighbors(n):
            if m not in dist:
                dist[m] = dist[n] + 1
                todo.append(m)
    return dist


def distances(compiled: CompiledBoard, role: str) -> dict[str, int]:
    """Spaces' ``touch``/``road`` steps to the space with ``role`` (BFS, cached per board).

    Notes
    -----
    O(V + E) once per board and role.
    """

    def build() -> dict[str, int]:
        g = compiled.graph
        goal = next((n for n, d in g.nodes(data=True) if d.get("role") == role), None)
        return {} if goal is None else steps_from(compiled, goal)

    return compiled.derived(f"riddle.bots.distance.{role}", build)


def cities(compiled: CompiledBoard) -> frozenset[str]:
    """The city spaces of the board (cached per board)."""
    return compiled.derived(
        "riddle.bots.cities",
        lambda: frozenset(n for n, d in compiled.graph.nodes(data=True) if d.get("city")),
    )


def nearest_cities(compiled: CompiledBoard) -> dict[str, list[tuple[int, str]]]:
    """Space -> its three nearest cities as ``(steps, city)``, nearest first (cached
    per board; three, because the pick-up rule bars at most two).

    Notes
    -----
    One BFS per city, O(C (V + E)), once per board.
    """

    def build() -> dict[str, list[tuple[int, str]]]:
        near: dict[str, list[tuple[int, str]]] = {}
        for c in sorted(cities(compiled)):
            for n, d in steps_from(compiled, c).items():
                near.setdefault(n, []).append((d, c))
        return {n: sorted(lst)[:3] for n, lst in near.items()}

    return compiled.derived("riddle.bots.nearest_cities", build)


def to_pick_up(compiled: CompiledBoard, pos: str, used: list[str]) -> float:
    """Steps from ``pos`` to the nearest city its player may pick up at (``used``:
    the cities he last picked up at; :data:`FAR` when none is known)."""
    for d, c in nearest_cities(compiled).get(pos, ()):
        if may_pick_up(c, used):
            return float(d)
    return FAR


def standing(compiled: CompiledBoard, q: dict[str, Any]) -> float:
    """How well one player of a view builds up his hand, about one unit per card
    (``q``: his entry of ``players``).

    Every card counts (picking up is how The Ring comes out of the deck, so cards
    count past the limit of 10 until the discard); so does standing on a city he
    may pick up at, or else being few steps from one, and a little heading to his
    goal (the city he has just picked up at still counts as one). Limbo and
    captivity cost.
    """
    if q.get("status") in ("out", "reserve"):
        return -FAR
    cards = min(int(q.get("hand_count", 0)), 13)
    pos = q.get("pos")
    if q.get("status") in ("limbo", "captive") or pos is None:
        return -15.0 + 0.5 * cards
    d = float(distances(compiled, goal_of(q)).get(str(pos), FAR))
    used = list(q.get("picked_up_at") or ())
    # the city just picked up at still counts: picking up must not look worse than
    # passing there (with a full hand, it is how The Ring comes out of the deck)
    city = 0.0 if used[-1:] == [pos] else to_pick_up(compiled, str(pos), used)
    return cards + (2.0 if city == 0 else -CITY_STEP * min(city, 12.0)) - 0.1 * d


def goal_of(q: dict[str, Any]) -> str:
    """The role of the goal of a player of a view."""
    return GOAL.get(str(q.get("kind")), "cracks_of_doom")


def carrying(compiled: CompiledBoard, q: dict[str, Any]) -> float:
    """How far a player holding The Ring has carried it, 0 to 1: 0.75 for the
    steps to his goal (nothing at :data:`RING_STEPS` or more), 0.25 more for having
    ended a turn there (he shows it on his next turn and wins)."""
    pos = q.get("pos")
    if q.get("status") != "board" or pos is None:
        return 0.0
    d = float(distances(compiled, goal_of(q)).get(str(pos), FAR))
    return 0.75 * max(0.0, 1.0 - d / RING_STEPS) + (0.25 if q.get("waiting_on_goal") else 0.0)


def evaluate(g: Riddle, player: str) -> float | None:
    """``player``'s standing in ``g``, 0 to 1, from his own view (the kit's hook).

    Holding The Ring (he or a partner whose hand he sees) puts a player above
    anything else: 0.6 to 1 as it is carried to the goal (:func:`carrying`).
    Without it, his hand and position against the best opponent's as he sees them
    (:func:`standing`, partners are not opponents) through a logistic into 0 to
    0.6 (0.3 when even, :data:`UNIT` cards of advantage about 0.44). ``None`` for a
    name that is not a player (a Variation 14 side).

    Notes
    -----
    O(players) after the board's distance tables (built once per board).
    """
    if player not in g._by:
        return None
    view = g.view(player)
    compiled = g.compiled
    players = [q for q in view.get("players") or [] if isinstance(q, dict)]
    me = next(q for q in players if q.get("name") == player)
    team = bool((view.get("options") or {}).get("partners"))
    mates = [q for q in players if q is me or (team and q.get("kind") == me.get("kind"))]
    hands = {player: view.get("hand") or []}
    bearer = next(
        (q for q in mates if "the_ring" in (hands.get(str(q["name"])) or q.get("hand") or ())),
        None,
    )
    if bearer is not None:
        return 0.6 + 0.4 * carrying(compiled, bearer)
    others = [standing(compiled, q) for q in players if q not in mates]
    raw = standing(compiled, me) - 0.5 * (max(others) if others else 0.0)
    z = max(-30.0, min(30.0, raw / UNIT))
    return 0.6 / (1.0 + math.exp(-z))
