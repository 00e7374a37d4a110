"""How well a player stands in Ringgeister: the evaluation bots search with.

The plan a sensible player follows (rulebook 2.3, rulings 6 and 7a): bring the
Hobbit and the Man of his colour onto two of the three arrival points of each of his
counters, with another light figure (usually Gandalf, who travels far) on the third;
with no counter of his colour left, walk the Hobbit through the spider's path to the
goal, and step onto it while his Hobbit is the Ringbearer.

:func:`evaluate` measures that plan in *moves*: the number of point-to-point steps
(a coloured figure moves to the next point each turn, ruling 2) still to make, read
from breadth-first distances on the **point graph** of the board as its tiles are
turned now — two points are neighbours when a figure leaving one reaches the other
without passing a third point (through junctions and doors; dwarf galleries, which
open and close with the cards, and points held by light figures, which are jumped,
are left out, so the distances are upper bounds). The opponent's progress counts
against. It reads the figures, the counters, the face-up card and the tile turns —
all open information; never the order of the face-down pile.

Notes
-----
The point graph and the distances from each point a plan needs are built once per
turn configuration (a tuple of tile turns) and kept on the board view, the
:data:`KEPT` most recently used configurations. Building one costs O(P + E) for the
graph plus O(P + E) per breadth-first search; evaluating a position afterwards is a
few dictionary lookups per figure.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from heapq import heappop, heappush
from itertools import permutations
from typing import TYPE_CHECKING

from .view import DOOR, JUNCTION, POINT, BoardView

if TYPE_CHECKING:
    from .game import RinggeisterGame

#: turn configurations whose point graphs and distances are kept
KEPT = 512
#: distance (in moves) standing for "no route now" and the scale of the remaining work
FAR = 60
#: the moves a black figure in the Hobbit's way to the goal costs (until the wind moves it)
BLOCKED = 6
#: what a counter still on the board costs besides the moves to it: completing a
#: mission must pay at once, or the bot would hover beside it
COUNTER = 8
#: how much the best opponent's progress counts against (little: sending his figures
#: home is no way to win; racing him is)
OPPONENT = 0.05
#: the cost of each move between a non-Ringbearer's Man and a magic point (at most 3)
WAIT = 0.5
#: one move of Gandalf's takes a turn, in which the Hobbit and the Man make a step each
GANDALF_MOVE = 2.0

Adjacency = list[list[int]]


class _Distances:
    """The point graphs of one turn configuration, with distances computed on demand.

    ``safe`` leaves the spider's path out (every light figure but a Hobbit with no
    counter left); ``open`` takes it.
    """

    __slots__ = ("_from", "_gandalf", "_magic", "black", "magic", "open", "safe")

    def __init__(self, v: BoardView) -> None:
        self.black = v.black
        self._gandalf: dict[int, list[int]] = {}
        self.safe = _point_graph(v, spider=False)
        self.open = _point_graph(v, spider=True)
        self._from: dict[tuple[bool, int], list[int]] = {}
        self.magic = [p for p in v.points if v.magic[p]]
        self._magic: list[int] | None = None

    def gandalf_from(self, p: int) -> list[int]:
        """Gandalf's moves from every node index to ``p`` (``FAR`` where none leads).

        One move goes from a point to any point a path reaches with only grey
        points between (ruling 3: he passes grey points and stops at the first
        black one); black figures standing in the way are left out.
        """
        hit = self._gandalf.get(p)
        if hit is None:
            hit = self._gandalf[p] = _gandalf_bfs(self.safe, self.black, p)
        return hit

    def to_magic(self) -> list[int]:
        """Moves from every node index to the nearest magic point (without the spider's path)."""
        if self._magic is None:
            self._magic = _bfs(self.safe, *self.magic)
        return self._magic

    def from_point(self, p: int, spider: bool) -> list[int]:
        """Moves from ``p`` to every node index (``FAR`` where no route leads)."""
        key = (spider, p)
        hit = self._from.get(key)
        if hit is None:
            hit = self._from[key] = _bfs(self.open if spider else self.safe, p)
        return hit


def _point_graph(v: BoardView, spider: bool) -> Adjacency:
    """Point-to-point neighbours: the first points reached along the paths from each point."""
    inc = v.open_inc if spider else v.safe_inc
    kind = v.kind
    adj: Adjacency = [[] for _ in range(v.n)]
    for p in v.points:
        seen: set[tuple[int, int]] = set()
        queue = [key for _, key in inc[p]]
        seen.update(queue)
        found: set[int] = set()
        for node, e_in in queue:  # the list grows while it is read
            k = kind[node]
            if k == POINT:
                if node != p:
                    found.add(node)
                continue
            if k != JUNCTION and k != DOOR:
                continue  # a dead end: light figures do not turn about
            for e, k2 in inc[node]:
                if e != e_in and k2 not in seen:
                    seen.add(k2)
                    queue.append(k2)
        adj[p] = sorted(found)
    return adj


def _bfs(adj: Adjacency, *sources: int) -> list[int]:
    dist = [FAR] * len(adj)
    for src in sources:
        dist[src] = 0
    todo = deque(sources)
    while todo:
        a = todo.popleft()
        d = dist[a] + 1
        for b in adj[a]:
            if dist[b] > d:
                dist[b] = d
                todo.append(b)
    return dist


def _gandalf_bfs(adj: Adjacency, black: list[bool], target: int) -> list[int]:
    """Moves to ``target`` when a move may pass any number of grey points."""
    dist = [FAR] * len(adj)
    dist[target] = 0
    frontier = [target]
    k = 0
    while frontier:
        k += 1
        # every point with a path into the frontier whose points between are grey
        nxt: list[int] = []
        todo = list(frontier)
        seen = set(frontier)
        for a in todo:  # the list grows while it is read
            for b in adj[a]:
                if b in seen:
                    continue
                seen.add(b)
                if dist[b] == FAR:
                    dist[b] = k
                    nxt.append(b)
                if not black[b]:
                    todo.append(b)  # Gandalf passes a grey point: look beyond it
        frontier = nxt
    return dist


def distances(g: RinggeisterGame) -> _Distances:
    """The point graphs of ``g``'s tile turns (cached per turn configuration)."""
    g._claim()
    v = g.v
    cache: OrderedDict[tuple[int, ...], _Distances] = v.compiled.derived(
        "ringgeister.evaluate.distances", OrderedDict
    )
    key = v.key
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = _Distances(v)
        while len(cache) > KEPT:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return hit


def remaining(g: RinggeisterGame, colour: str, d: _Distances) -> float:
    """Moves left before ``colour``'s Hobbit can stand on the goal (see the module docs).

    Per counter of the colour still on the board: the cheapest way to put the Hobbit,
    the Man and a third light figure (Gandalf, a move of his worth :data:`GANDALF_MOVE`
    steps, or any light figure already there) on its three arrival points; then the
    Hobbit's way from those points (or from where it stands, with no counter left)
    through the spider's path to the goal. Each counter left costs :data:`COUNTER`
    more.
    """
    v = g.v
    goal = v.goal.index(True) if True in v.goal else -1
    if goal < 0:
        return 0.0
    to_goal = d.from_point(goal, spider=True)
    hobbit, man = _figure(g, colour, "hobbit"), _figure(g, colour, "man")
    hp, mp = g.pos[hobbit] if hobbit >= 0 else -1, g.pos[man] if man >= 0 else -1
    left = [c for c in g.counters if c["colour"] == colour and not c["removed"] and c["space"]]
    if not left:
        if hp < 0:
            return float(FAR)
        walk = float(_walk(g, d.open, hp, goal, bearer=colour == g.ringbearer).get(goal, FAR))
        if colour != g.ringbearer and mp >= 0:
            # not the Ringbearer: the Man turns cards on magic points until it is
            walk += WAIT * min(d.to_magic()[mp], 3)
        return walk
    gandalf = g.gandalfs[0] if g.gandalfs else -1
    gp = g.pos[gandalf] if gandalf >= 0 else -1
    occ, light = g.occ, g.light
    total = 0.0
    finish = float(FAR)
    # the Hobbit's and the Man's own ways, around the black figures standing now
    dh = _walk(g, d.safe, hp, -1, bearer=colour == g.ringbearer) if hp >= 0 else {}
    dm = _walk(g, d.safe, mp, -1, bearer=False) if mp >= 0 else {}
    for c in left:
        arrivals = v.counter_spaces.get(c["space"], [])
        if len(arrivals) < 3:
            continue
        best = float("inf")
        for i, j, k in permutations(range(3)):
            cost = float(dh.get(arrivals[i], FAR) + dm.get(arrivals[j], FAR))
            third = occ[arrivals[k]]
            if third >= 0 and light[third] and third not in (hobbit, man):
                pass  # another light figure stands there already
            else:
                cost += GANDALF_MOVE * d.gandalf_from(arrivals[k])[gp] if gp >= 0 else FAR
            best = min(best, cost)
        total += best + COUNTER
        finish = min(finish, min(to_goal[a] for a in arrivals))
    return total + finish


def _walk(g: RinggeisterGame, adj: Adjacency, src: int, goal: int, bearer: bool) -> dict[int, int]:
    """A figure's moves from ``src`` to the points of ``adj``, where a point held by a
    black figure it cannot jump costs :data:`BLOCKED` more moves (it waits for the
    wind to move it away, or goes round). With ``goal`` (not -1) the search stops
    there.

    Notes
    -----
    Dijkstra on the point graph: O(E log P), per position.
    """
    occ, light, small = g.occ, g.light, g.small
    best = {src: 0}
    done: dict[int, int] = {}
    heap = [(0, src)]
    while heap:
        c, a = heappop(heap)
        if a in done:
            continue
        done[a] = c
        if a == goal:
            break
        for b in adj[a]:
            o = occ[b]
            nc = c + (1 if o < 0 or light[o] or (bearer and small[o]) else 1 + BLOCKED)
            if nc < best.get(b, FAR * 4):
                best[b] = nc
                heappush(heap, (nc, b))
    return done


def _figure(g: RinggeisterGame, colour: str, figure: str) -> int:
    """The index of ``colour``'s figure of kind ``figure`` (-1 if none)."""
    f = g.fidx.get(f"{figure}-{colour}", -1)
    if f >= 0 and g.specs[f].figure == figure:
        return f
    return next((f for f in g.own.get(colour, []) if g.specs[f].figure == figure), -1)


def evaluate(g: RinggeisterGame, player: str) -> float | None:
    """How well ``player`` stands, 0 to 1 (see the module docs); ``None`` while the
    counters are being placed (the plan starts once they lie on the board).

    0.3 + 0.6 × the player's progress − ``OPPONENT`` × the best opponent's, where progress
    is 1 − :func:`remaining` / :data:`FAR` (clipped to 0..1); a player whose Hobbit is
    the Ringbearer with no counter left gains a little more the nearer it is to
    the goal (only the Ringbearer may step onto it). A position keeps above the
    0.25 a caught Ringbearer gives every player while the opponent is far from
    winning.
    """
    if g.phase != "play" or player not in g.players:
        return None
    # every seat's value of one state comes from the same figures: reckon them once
    # (a game's version changes with every move, and a copy moves on with its own)
    kept = g.__dict__.get("_bot_values")
    if kept is not None and kept[0] == g._version:
        return float(kept[1][player])
    d = distances(g)
    bearer = g.ringbearer

    def progress(colour: str) -> float:
        left = remaining(g, colour, d)
        p = max(0.0, 1.0 - left / FAR)
        if colour == bearer and g._counters_left(colour) == 0:
            p += 0.1 * max(0.0, 1.0 - left / 10.0)
        return p

    made = {c: progress(c) for c in g.players}
    values = {}
    for c in g.players:
        others = [p for o, p in made.items() if o != c]
        value = 0.3 + 0.6 * made[c] - OPPONENT * (max(others) if others else 0.0)
        values[c] = min(0.99, max(0.01, value))
    g.__dict__["_bot_values"] = (g._version, values)
    return values[player]
