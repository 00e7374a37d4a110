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
are left out, so the distances are upper bounds). A black figure in the way must
be woken by the wind (ruling 8): it costs the moves that bring one of the player's
light figures onto a wind point whose arrow wakes it now, or :data:`BLOCKED` when
that is more or no arrow points at it. A player who is not the Ringbearer needs a
card of his colour, turned by a coloured figure coming to rest on a magic point
(ruling 7b) while his Hobbit walks. The opponent's progress counts against. It
reads the figures, the counters, the face-up card and the tile turns — all open
information; never the order of the face-down pile.

Notes
-----
The point graph, the distances from each point a plan needs and the wind points
aimed at each black point are built once per turn configuration (a tuple of tile
turns) and kept on the board view, the :data:`KEPT` most recently used
configurations. Building one costs O(P + E) for the graph plus O(P + E) per
breadth-first search, and O(W × B) for the W wind points' rays over the B black
points; evaluating a position afterwards is a Dijkstra search per figure
(O(E log P)) with a few lookups per black figure it meets.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from heapq import heappop, heappush
from itertools import permutations
from typing import TYPE_CHECKING

from ...geometry import unit_vector
from .view import DOOR, JUNCTION, POINT, BoardView

if TYPE_CHECKING:
    from .protocol import Ringgeister

#: turn configurations whose point graphs and distances are kept
KEPT = 512
#: distance (in moves) standing for "no route now" and the scale of the remaining work
FAR = 60
#: the moves a black figure in a light figure's way costs when no wind point wakes it
#: now (it waits for a storm to turn an arrow towards it, or goes round)
BLOCKED = 6
#: what waking a black figure in the way costs besides bringing a light figure of the
#: player's onto a wind point whose arrow points at it (the wind moves it, ruling 8)
WAKE = 1
#: what a counter still on the board costs besides the moves to it: completing a
#: mission must pay at once, or the bot would hover beside it
COUNTER = 8
#: how much the best opponent's progress counts against (little: sending his figures
#: home is no way to win; racing him is)
OPPONENT = 0.05
#: a non-Ringbearer with no counter left needs the longer of his Hobbit's way to the
#: goal and his way to turn a card (a coloured figure's moves to a magic point), plus
#: WAIT × the latter: so a Hobbit waiting beside the goal is worth less than a Man
#: about to turn a card, and the bot does not park its Man on a magic point
WAIT = 0.5
#: one move of Gandalf's takes a turn, in which the Hobbit and the Man make a step each
GANDALF_MOVE = 2.0

Adjacency = list[list[int]]


class _Distances:
    """The point graphs of one turn configuration, with distances computed on demand.

    ``safe`` leaves the spider's path out (every light figure but a Hobbit with no
    counter left); ``open`` takes it.
    """

    __slots__ = ("_from", "_gandalf", "_magic", "_wakers", "black", "magic", "open", "safe")

    def __init__(self, v: BoardView) -> None:
        self.black = v.black
        self._wakers: dict[int, list[tuple[int, frozenset[int]]]] | None = None
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

    def wakers(self, v: BoardView, b: int) -> list[tuple[int, frozenset[int]]]:
        """The wind points whose arrow points at black point ``b`` (ruling 8), each with
        the black points nearer along its ray: the wind from it wakes a black figure
        on ``b`` while none of those holds a black figure (black figures rest on black
        points only). ``v`` is the board view at this turn configuration.

        Notes
        -----
        Built for every black point at the first call: O(W × B) for W wind points
        and B black points, once per turn configuration (arrows turn with tiles).
        """
        if self._wakers is None:
            self._wakers = _wakers(v)
        return self._wakers.get(b, [])

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


def _wakers(v: BoardView) -> dict[int, list[tuple[int, frozenset[int]]]]:
    """Black point -> (wind point, black points nearer along its ray) (see ``wakers``)."""
    out: dict[int, list[tuple[int, frozenset[int]]]] = {}
    blacks = [q for q in v.points if v.black[q]]
    corridor = v.corridor
    for w in v.points:
        bearing = v.wind[w]
        if bearing is None:
            continue
        ux, uy = unit_vector(bearing)
        ray: list[tuple[float, int]] = []
        for q in blacks:
            dx, dy = v.x[q] - v.x[w], v.y[q] - v.y[w]
            t = dx * ux + dy * uy
            if t > 1e-9 and abs(dx * uy - dy * ux) <= corridor:
                ray.append((t, q))
        ray.sort()
        for i, (_, q) in enumerate(ray):
            out.setdefault(q, []).append((w, frozenset(r for _, r in ray[:i])))
    return out


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


def distances(g: Ringgeister) -> _Distances:
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


def remaining(g: Ringgeister, colour: str, d: _Distances) -> float:
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
    gandalf = g.gandalfs[0] if g.gandalfs else -1
    gp = g.pos[gandalf] if gandalf >= 0 else -1
    wake = _Blockers(g, [p for p in (hp, mp) if p >= 0], gp, d)
    if not left:
        if hp < 0:
            return float(FAR)
        bearer = colour == g.ringbearer
        walk = float(_walk(g, d.open, hp, {goal}, bearer, wake).get(goal, FAR))
        if not bearer:
            # not the Ringbearer: while the Hobbit walks, a coloured figure turns the
            # next card on a magic point (ruling 7b); one standing on a magic point
            # must step off and on again
            to_magic = d.to_magic()
            turn = float(min(to_magic[p] or 2 for p in (hp, mp) if p >= 0))
            walk = max(walk, turn) + WAIT * turn
        return walk
    occ, light = g.occ, g.light
    total = 0.0
    finish = float(FAR)
    # the Hobbit's and the Man's own ways to the arrival points, around the black
    # figures standing now (each search ends once it has reached all of them)
    plans = [a for a in (v.counter_spaces.get(c["space"], []) for c in left) if len(a) >= 3]
    targets = {p for a in plans for p in a}
    dh = _walk(g, d.safe, hp, targets, colour == g.ringbearer, wake) if hp >= 0 else {}
    dm = _walk(g, d.safe, mp, targets, False, wake) if mp >= 0 else {}
    for arrivals in plans:
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


class _Blockers(dict[int, int]):
    """What a black figure costs a light figure of the player's it stands in the way
    of, by its point (reckoned when first asked: ``blockers[point]``).

    :data:`WAKE` plus the moves of the nearest of the player's figures at ``own``
    (his Hobbit and Man) or of Gandalf at ``gandalf`` (:data:`GANDALF_MOVE` steps a
    move; not to a magic point, where he triggers nothing) to a wind point, free of
    black figures, whose arrow wakes the figure now (no black figure nearer along
    the ray, ruling 8); :data:`BLOCKED` when that is more, or no wind point wakes
    it. Without this a figure in the way costs the same however near a waking wind
    point is, and the bot stalls beside it.

    Notes
    -----
    One breadth-first search per wind point (kept per turn configuration), then a
    few lookups per wind point aimed at the figure, once per position and point
    (later asks are dictionary hits).
    """

    __slots__ = ("_d", "_gandalf", "_held", "_own", "_v")

    def __init__(self, g: Ringgeister, own: list[int], gandalf: int, d: _Distances) -> None:
        super().__init__()
        self._d, self._v, self._own, self._gandalf = d, g.v, own, gandalf
        self._held = {p for p in (g.pos[f] for f in g.black_figs) if p >= 0}

    def __missing__(self, b: int) -> int:
        d, held, gandalf = self._d, self._held, self._gandalf
        best = BLOCKED
        for w, nearer in d.wakers(self._v, b):
            if w in held or not held.isdisjoint(nearer):
                continue  # a black figure on the wind point, or nearer along its ray
            to_w = d.from_point(w, spider=False)
            for p in self._own:
                steps = WAKE + (to_w[p] or 2)  # standing there: off and on again
                if steps < best:
                    best = steps
            if gandalf >= 0 and not self._v.magic[w]:
                steps = WAKE + int(GANDALF_MOVE * (d.gandalf_from(w)[gandalf] or 2))
                if steps < best:
                    best = steps
        self[b] = best
        return best


def _walk(
    g: Ringgeister,
    adj: Adjacency,
    src: int,
    goals: set[int],
    bearer: bool,
    blocked: dict[int, int] | None = None,
) -> dict[int, int]:
    """A figure's moves from ``src`` to the points of ``adj``, where a point held by a
    black figure it cannot jump costs ``blocked[point]`` more moves (the wind must
    move it away, see :class:`_Blockers`; :data:`BLOCKED` without them), or it goes
    round. The search stops once every point of ``goals`` is reached (their moves
    are then final); points not in the result are out of reach or were not needed.

    Notes
    -----
    Dijkstra on the point graph: O(E log P), per position; stopping at the goals
    leaves out the far side of the board, which a plan never asks about.
    """
    occ, light, small = g.occ, g.light, g.small
    limit = FAR * 4
    best = {src: 0}
    seen = best.get
    done: dict[int, int] = {}
    heap = [(0, src)]
    want = len(goals)
    push, pop = heappush, heappop
    while heap:
        c, a = pop(heap)
        if a in done:
            continue
        done[a] = c
        if a in goals:
            want -= 1
            if not want:
                break
        c += 1
        for b in adj[a]:
            o = occ[b]
            if o < 0 or light[o] or (bearer and small[o]):
                nc = c
            else:
                nc = c + (blocked[b] if blocked is not None else BLOCKED)
            if nc < seen(b, limit):
                best[b] = nc
                push(heap, (nc, b))
    return done


def _figure(g: Ringgeister, colour: str, figure: str) -> int:
    """The index of ``colour``'s figure of kind ``figure`` (-1 if none)."""
    f = g.fidx.get(f"{figure}-{colour}", -1)
    if f >= 0 and g.specs[f].figure == figure:
        return f
    return next((f for f in g.own.get(colour, []) if g.specs[f].figure == figure), -1)


def _progress(left: float) -> float:
    """1 − ``left`` / :data:`FAR` down to a third, then a tail that keeps falling (the
    curve and its slope continuous): ``(4/27) / x²`` for x = ``left`` / FAR above 2/3.

    A player far from his goal (his figures penned in, his counter far away) still
    sees which moves bring it nearer; clipped at 0 every move looked the same and
    the bot wandered until the move limit.
    """
    x = max(0.0, left) / FAR
    return 1.0 - x if x <= 2.0 / 3.0 else (4.0 / 27.0) / (x * x)


def evaluate(g: Ringgeister, player: str) -> float | None:
    """How well ``player`` stands, 0 to 1 (see the module docs); ``None`` while the
    counters are being placed (the plan starts once they lie on the board).

    0.3 + 0.6 × the player's progress − ``OPPONENT`` × the best opponent's, where progress
    is 1 − :func:`remaining` / :data:`FAR` with a falling tail past 2/3 of FAR (never
    flat, :func:`_progress`); a player whose Hobbit is
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
        p = _progress(left)
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
