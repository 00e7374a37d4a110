"""Where a light figure may stop (rulings 2–6): the breadth-first search of a move.

The search runs on the integer path view (:mod:`.view`). Its results are kept at
two levels:

- per game state (``game._dest_cache``, dropped by every change of the state);
- per board and tile configuration (``view.memo``, shared by every game and copy
  on the board, dropped when a tile turns): keyed by the figure, its point and
  what decides its rules (Gandalf, Ringbearer, spider, open doors), and valid while
  every point the search looked at holds the same *class* of occupant (free, light,
  small or medium black, large black). Checking that is a list comparison over the
  points the search touched, much cheaper than searching again; random play and
  tree search revisit the same situations all the time.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from .moves import Move
from .view import DOOR, JUNCTION, POINT

if TYPE_CHECKING:
    from .game import RinggeisterGame

Found = tuple[dict[int, Any], dict[Any, Any]]

#: occupant classes (``game.fclass``): what a point holds, as far as a search cares
FREE, LIGHT, BLACK_SMALL, BLACK_LARGE = range(4)

_NO_RELAX: frozenset[str] = frozenset()


def search(g: RinggeisterGame, f: int, relax: frozenset[str] = _NO_RELAX) -> Found:
    """Where light figure ``f`` may stop (rulings 2–6), with a parent map for routes.

    ``relax`` switches single restrictions off to explain a rejected move:
    ``black`` (black figures block), ``spider``, ``gallery`` (closed doors),
    ``goal`` (Ringbearer only), ``stop`` (must stop at the first free point /
    Gandalf at the first free black point).

    Returns ``(dests, parents)``: ``dests[node] = key`` of the first (fewest
    hops) arrival, ``parents[key] = previous key`` (None at the start);
    a key is ``(node, edge arrived by)`` (edge −1: through a gallery).

    Notes
    -----
    Breadth-first over (node, arrival edge) pairs on the integer path view:
    O(V + E) at worst (Gandalf), a few nodes for a coloured figure. A memo hit
    (see the module docstring) costs O(points touched).
    """
    if not relax:
        hit = g._dest_cache.get(f)
        if hit is not None:
            return hit[0]  # type: ignore[no-any-return]
    v = g.v
    s = g.specs[f]
    start = g.pos[f]
    occ = g.occ
    gandalf = s.figure == "gandalf"
    hobbit = s.figure == "hobbit"
    card = g.cards[g.face_up]
    ringbearer = hobbit and s.colour == card.ringbearer
    spider_ok = hobbit and g._counters_left(s.colour or "") == 0
    image = card.image
    sym = image if image in ("moon", "star") else None
    mkey = (s.id, start, ringbearer, spider_ok, sym)
    if not relax:
        entry = v.memo.get(mkey)
        if entry is not None:
            fclass = g.fclass
            if [fclass[occ[p]] for p in entry[0]] == entry[1]:
                g._dest_cache[f] = entry[2]
                return entry[2][0]  # type: ignore[no-any-return]
    else:
        spider_ok = spider_ok or "spider" in relax
    inc, guard, kind, black, goal = v.inc, v.guard, v.kind, v.black, v.goal
    specs = g.specs
    relax_black = "black" in relax
    relax_stop = "stop" in relax
    relax_goal = "goal" in relax
    open_all = "gallery" in relax
    dests: dict[int, Any] = {}
    parents: dict[Any, Any] = {}
    touched: list[int] = []
    queue: deque[tuple[int, int]] = deque()
    if start >= 0:
        for e, o, _, _ in inc[start]:
            if guard[e] is not None and not spider_ok:
                continue
            key = (o, e)
            if key not in parents:
                parents[key] = None
                queue.append(key)
    while queue:
        key = queue.popleft()
        node, e_in = key
        k = kind[node]
        if k == POINT:
            o = occ[node]
            if node == start:
                pass  # its own point: passes over it, never stops there
            else:
                touched.append(node)
                if o < 0:
                    if goal[node] and not ringbearer and not relax_goal:
                        continue  # ruling 6: only the Ringbearer Hobbit enters the goal
                    if node not in dests:
                        dests[node] = key
                    if relax_stop or (gandalf and not black[node]):
                        pass  # Gandalf passes free grey points (ruling 3)
                    else:
                        continue  # ruling 2/3: stop at the first free (black) point
                elif not specs[o].light:
                    if not (relax_black or (ringbearer and specs[o].size < 2)):
                        continue  # ruling 2: black figures block; Ringbearer jumps Gollum, Orcs
                # light figure: jump over it (ruling 2)
        elif k == DOOR:
            ds = v.symbol[node]
            if ds is not None and (open_all or ds == sym):
                for d2 in v.doors[ds]:  # ruling 5: continue from any other door
                    if d2 != node:
                        k2 = (d2, -1)
                        if k2 not in parents:
                            parents[k2] = key
                            queue.append(k2)
        elif k != JUNCTION:
            continue  # dead end (light figures do not turn about) or off the network
        for e, o, _, _ in inc[node]:
            if e == e_in:
                continue
            if guard[e] is not None and not spider_ok:
                continue  # ruling 6: the spider's path
            k2 = (o, e)
            if k2 not in parents:
                parents[k2] = key
                queue.append(k2)
    out = (dests, parents)
    if not relax:
        ids = v.ids
        moves = tuple(Move("step", s.id, ids[d]) for d in sorted(dests, key=ids.__getitem__))
        pts = sorted(set(touched))
        fclass = g.fclass
        v.memo[mkey] = (pts, [fclass[occ[p]] for p in pts], (out, moves))
        g._dest_cache[f] = (out, moves)
    return out


def step_moves(g: RinggeisterGame, f: int) -> tuple[Move, ...]:
    """The step moves of light figure ``f``, destinations in id order (memoised)."""
    hit = g._dest_cache.get(f)
    if hit is None:
        search(g, f)
        hit = g._dest_cache[f]
    return hit[1]  # type: ignore[no-any-return]


def route(g: RinggeisterGame, f: int, dest: int, found: Found) -> list[int]:
    """The nodes from figure ``f``'s point to ``dest`` along the search's first arrival."""
    dests, parents = found
    key = dests[dest]
    back: list[int] = []
    while key is not None:
        back.append(key[0])
        key = parents[key]
    back.append(g.pos[f])
    return back[::-1]
