"""The sweep of the frontier DP: the order of the tiles and the per-step position tables.

The frontier DP (:mod:`.exact`) gives the tiles their turns one at a time. After
step *j* only the vertices that a processed tile and a still-unprocessed tile
both touch (the *frontier*), plus the permanent vertices (``SRC`` and the
targets), can still matter; the DP state is a partition of that *active list*.
The number of states grows quickly with its length, so the order matters: on a
grid swept row by row the frontier is about one row of ports.

:func:`make_plan` compiles an order into :class:`Step` tables (which positions of
the active list each turn class joins, which positions leave), so that the DP
itself never looks a vertex up.

Notes
-----
:func:`choose_order` tries 8 straight sweeps and a greedy order grown from each of
their first tiles, and scores each candidate with :func:`order_cost` in
O(V + n) (V vertices, n tiles); the greedy growth costs O(n) numpy work per tile
added, so the choice is O(n²) numpy work at most, about 10 ms for 80 tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .structure import Problem, TileVar


@dataclass
class Step:
    """One tile of the sweep, as positions in the active list."""

    tile: int  # index into problem.tiles
    n_in: int  # size of the incoming active list
    n_new: int  # vertices entering at this step (appended)
    options: list[tuple[tuple[tuple[int, ...], int], ...]]  # per class: (positions, points)
    new_weight: tuple[int, ...]  # points of the entering vertices
    keep: tuple[int, ...]  # positions (in incoming+new) of the outgoing list
    n_perm: int  # permanent vertices (always first)
    open_pos: tuple[int, ...]  # outgoing positions a later tile still touches


@dataclass
class Plan:
    """A sweep order compiled into steps."""

    order: list[int]
    steps: list[Step]
    perm: list[int]  # permanent vertex ids: src first, then targets
    width: int  # widest active list
    src_weight: int


def _touch(problem: Problem) -> list[set[int]]:
    return [{v for c in t.classes for vs, _ in c.hyperedges for v in vs} for t in problem.tiles]


def _activity(problem: Problem, order: Sequence[int]) -> tuple[dict[int, int], dict[int, int]]:
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for j, ti in enumerate(order):
        for c in problem.tiles[ti].classes:
            for vs, _ in c.hyperedges:
                for v in vs:
                    first.setdefault(v, j)
                    last[v] = j
    return first, last


def order_cost(problem: Problem, order: Sequence[int], perm: Sequence[int]) -> tuple[int, int]:
    """(widest frontier, sum of frontier sizes) of a sweep order.

    The frontier after step *j* holds the permanent vertices and every other vertex
    with ``first <= j < last``; a difference array over the steps counts them in
    O(V + n).
    """
    first, last = _activity(problem, order)
    ps = set(perm)
    diff = np.zeros(len(order) + 1, dtype=np.int64)
    for v, f in first.items():
        if v not in ps and last[v] > f:
            diff[f] += 1
            diff[last[v]] -= 1
    sizes = len(ps) + np.cumsum(diff[: len(order)])
    if not len(order):
        return (len(ps), 0)
    return (int(sizes.max()), int(sizes.sum()))


def _greedy(
    start: int,
    touch: list[set[int]],
    tiles_of: dict[int, list[int]],
    uses: dict[int, int],
    xy: np.ndarray,
) -> list[int]:
    """Grow an order from ``start``: always add the tile that opens the fewest vertices.

    Ties go to the tile nearest the last one added, then to the lowest index. The
    number a tile would open is kept up to date as the tiles around it are added
    (only tiles sharing a vertex with the added one change).
    """
    n = len(touch)
    seen: dict[int, int] = {}

    def opens(i: int) -> int:
        out = 0
        for v in touch[i]:
            k = seen.get(v, 0) + 1
            if k == 1 and uses[v] > 1:
                out += 1
            elif k == uses[v] and k > 1:
                out -= 1
        return out

    opened = np.array([opens(i) for i in range(n)], dtype=np.float64)
    left = np.ones(n, dtype=bool)
    order: list[int] = []
    i = start
    idx = np.arange(n)
    while True:
        order.append(i)
        left[i] = False
        changed: set[int] = set()
        for v in touch[i]:
            seen[v] = seen.get(v, 0) + 1
            changed.update(tiles_of[v])
        for t in changed:
            if left[t]:
                opened[t] = opens(t)
        if len(order) == n:
            return order
        cand = idx[left]
        d = ((xy[cand] - xy[i]) ** 2).sum(axis=1)
        i = int(cand[np.lexsort((cand, d, opened[cand]))[0]])


def choose_order(problem: Problem, perm: Sequence[int]) -> list[int]:
    """A sweep order with a narrow frontier.

    Tries sweeps along rows, columns and both diagonals (each way) and a greedy
    order (:func:`_greedy`) grown from the first tile of each of those sweeps, and
    keeps the one with the smallest (widest frontier, sum of frontier sizes).
    """
    n = len(problem.tiles)
    if n == 0:
        return []
    tiles = problem.tiles
    cands: list[list[int]] = []
    keys: list[Callable[[TileVar], tuple[float, float]]] = [
        lambda t: (t.y, t.x),
        lambda t: (t.x, t.y),
        lambda t: (t.x + t.y, t.x),
        lambda t: (t.x - t.y, t.y),
    ]
    for key in keys:
        o = sorted(range(n), key=lambda i: key(tiles[i]))
        cands.extend([o, o[::-1]])
    ps = set(perm)
    touch = [s - ps for s in _touch(problem)]
    uses: dict[int, int] = {}
    tiles_of: dict[int, list[int]] = {}
    for i, s in enumerate(touch):
        for v in s:
            uses[v] = uses.get(v, 0) + 1
            tiles_of.setdefault(v, []).append(i)
    xy = np.array([(t.x, t.y) for t in tiles], dtype=np.float64)
    for start in sorted({o[0] for o in cands}):
        cands.append(_greedy(start, touch, tiles_of, uses, xy))
    return min(cands, key=lambda o: order_cost(problem, o, perm))


def make_plan(
    problem: Problem, with_targets: bool = True, order: Sequence[int] | None = None
) -> Plan:
    """Compile the sweep into per-step position tables."""
    perm = [problem.src]
    if with_targets:
        for t in problem.targets:
            if t not in perm:
                perm.append(t)
    if order is None:
        order = choose_order(problem, perm)
    first, last = _activity(problem, order)
    ps = set(perm)
    entering: dict[int, list[int]] = {}
    for v, f in first.items():
        if v not in ps:
            entering.setdefault(f, []).append(v)
    active = list(perm)
    steps: list[Step] = []
    width = len(active)
    for j, ti in enumerate(order):
        new = sorted(entering.get(j, ()))
        combined = active + new
        pos = {v: p for p, v in enumerate(combined)}
        opts = []
        for c in problem.tiles[ti].classes:
            opts.append(tuple((tuple(pos[v] for v in vs), w) for vs, w in c.hyperedges))
        keep = tuple(p for p, v in enumerate(combined) if v in ps or last[v] > j)
        active = [combined[p] for p in keep]
        open_pos = tuple(p for p, v in enumerate(active) if last.get(v, -1) > j)
        steps.append(
            Step(
                ti,
                len(combined) - len(new),
                len(new),
                opts,
                tuple(problem.weight[v] for v in new),
                keep,
                len(perm),
                open_pos,
            )
        )
        width = max(width, len(combined))
    return Plan(list(order), steps, perm, width, problem.weight[problem.src])
