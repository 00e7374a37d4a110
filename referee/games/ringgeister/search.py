"""Where a light figure may stop (rulings 2–6): the breadth-first search of a move.

The search runs on the integer path view (:mod:`.view`): :func:`search` finds every
point a figure may stop on with the parent map of the first (fewest hops) arrival at
each; :func:`destinations` (``legal_moves``, ``check``, the end of a turn) reads its
points, :func:`route` (the route a pushed move reports) and the explanation of a
rejected move its parents — one search per figure and state serves them all.

Searches are kept per game state (``game._dest_cache``, dropped by every change of
the state), with what they read from the face-up card and the counters
(:func:`_context`, once per state). Two thirds of Gandalf's arrivals are on points with
one way on; their successor is queued without a look-up (nothing else leads there).
Tried and measured, and left out:

- searching all figures of a state in one call (slower than one call each);
- a memo across states: kept until a figure touched a point the search looked at, it
  served 17 % of Gandalf's searches; kept per figure and turn configuration and reused
  while the nodes it read hold the same figures, it served 68 % of all searches, but
  recording what a search read cost more than the reuse saved (0.9x);
- runs of points walked as chains precomputed per turn configuration (faster per
  search once built, but in self-play tiles turn every ~40 moves and rebuilding the
  chains cost more than they saved: 0.8x);
- a search for the points alone, without parents, walking runs of points in any order
  (``legal_moves`` 1.1x), with routes searched when a move is pushed: pushing then
  cost more than ``legal_moves`` saved (self-play 0.97x). The route a move reports is
  the first arrival of the breadth-first search, so the search that finds the points
  keeps the parents too.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from .moves import Move
from .view import DOOR, JUNCTION, POINT

if TYPE_CHECKING:
    from .protocol import Ringgeister

Found = tuple[dict[int, int], dict[int, int | None]]
#: what every search of a state reads from the face-up card and the counters:
#: (the Ringbearer's colour, the symbol of the doors open or None, the colours that
#: still have counters on the board); kept with the searches under this key
Context = tuple[str, str | None, frozenset[str]]
_CONTEXT = -1

_NO_RELAX: frozenset[str] = frozenset()


def search(g: Ringgeister, f: int, relax: frozenset[str] = _NO_RELAX, until: int = -1) -> Found:
    """Where light figure ``f`` may stop (rulings 2–6), with a parent map for routes.

    ``relax`` switches single restrictions off to explain a rejected move:
    ``black`` (black figures block), ``spider``, ``gallery`` (closed doors),
    ``goal`` (Ringbearer only), ``stop`` (must stop at the first free point /
    Gandalf at the first free black point). With ``until``, the search ends at the
    first arrival at that point (its route is final then) and is not kept.

    Returns ``(dests, parents)``: ``dests[node] = key`` of the first (fewest
    hops) arrival, ``parents[key] = previous key`` (None at the start); a key
    numbers an arrival ``(node, edge arrived by)`` (edge −1: through a gallery),
    read back with ``g.v.arrival_node[key]`` and ``g.v.arrival_edge[key]``.

    Notes
    -----
    Breadth-first over arrivals on the integer path view (numbered arrivals: set
    look-ups without hashing tuples): O(V + E) at worst (Gandalf), a few nodes for
    a coloured figure.
    """
    if not relax:
        cache = g._dest_cache
        hit = cache.get(f)
        if hit is not None:  # a full search of this state, kept
            found: Found = hit[0]
            return found
        if until < 0:
            found = _search(g, f, relax, until)
            cache[f] = [found, None]
            return found
    return _search(g, f, relax, until)


def _search(g: Ringgeister, f: int, relax: frozenset[str], until: int) -> Found:
    """:func:`search` without its cache."""
    v = g.v
    s = g.specs[f]
    start = g.pos[f]
    occ = g.occ
    fig = s.figure
    gandalf = fig == "gandalf"
    ringbearer_colour, sym, with_counters = _context(g)
    if fig == "hobbit":
        ringbearer = s.colour == ringbearer_colour
        spider_ok = s.colour not in with_counters
    else:
        ringbearer = spider_ok = False
    if relax:
        spider_ok = spider_ok or "spider" in relax
        relax_black = "black" in relax
        relax_stop = "stop" in relax
        relax_goal = "goal" in relax
        open_all = "gallery" in relax
    else:
        relax_black = relax_stop = relax_goal = open_all = False
    # ruling 6: the spider's path
    if spider_ok:
        inc, after, one = v.open_next, v.open_after, v.open_one
    else:
        inc, after, one = v.safe_next, v.safe_after, v.safe_one
    kind, goal = v.kind, v.goal
    # ruling 2/3: the free points that end the move (Gandalf passes free grey points)
    stops = v.no_nodes if relax_stop else v.black if gandalf else v.all_nodes
    at_node = v.arrival_node
    light, small = g.light, g.small
    dests: dict[int, int] = {}
    parents: dict[int, int | None] = {}
    queue: list[int] = []
    if start >= 0:
        for _, key in inc[start]:
            if key not in parents:
                parents[key] = None
                queue.append(key)
    for key in queue:  # breadth first: the list grows while it is read
        node = at_node[key]
        k = kind[node]
        if k == POINT:
            o = occ[node]
            if node == start:
                pass  # its own point: passes over it, never stops there
            else:
                if o < 0:
                    if goal[node] and not ringbearer and not relax_goal:
                        continue  # ruling 6: only the Ringbearer Hobbit enters the goal
                    if node not in dests:
                        dests[node] = key
                        if node == until:
                            break  # its first arrival: the route is final
                    if stops[node]:
                        continue  # ruling 2/3: stop at the first free (black) point
                elif not light[o]:
                    if not (relax_black or (ringbearer and small[o])):
                        continue  # ruling 2: black figures block; Ringbearer jumps Gollum, Orcs
                # light figure: jump over it (ruling 2)
                k2 = one[key]
                if k2 >= 0:
                    # one way on from a point on two paths: nothing else leads to the
                    # arrival beyond (only the figure's own point, handled above, leads
                    # back to arrivals queued already), so it needs no look-up
                    parents[k2] = key
                    queue.append(k2)
                    continue
        elif k == DOOR:
            ds = v.symbol[node]
            if ds is not None and (open_all or ds == sym):
                for d2 in v.doors[ds]:  # ruling 5: continue from any other door
                    if d2 != node:
                        k2 = v.door_arrival[d2]
                        if k2 not in parents:
                            parents[k2] = key
                            queue.append(k2)
        elif k != JUNCTION:
            continue  # dead end (light figures do not turn about) or off the network
        for k2 in after[key]:  # every path on but the one it came by
            if k2 not in parents:
                parents[k2] = key
                queue.append(k2)
    return dests, parents


def _context(g: Ringgeister) -> Context:
    """The card's and the counters' part of a search, once per state (rulings 5, 6).

    Notes
    -----
    O(C) for C counters on the first search of a state, O(1) after: it is kept in
    ``g._dest_cache``, which every change of the state drops.
    """
    cache = g._dest_cache
    ctx: Context | None = cache.get(_CONTEXT)
    if ctx is None:
        card = g.cards[g.face_up]
        image = card.image
        ctx = cache[_CONTEXT] = (
            card.ringbearer,
            image if image == "moon" or image == "star" else None,  # a storm opens none
            frozenset([c["colour"] for c in g.counters if not c["removed"]]),
        )
    return ctx


def destinations(g: Ringgeister, f: int) -> Collection[int]:
    """The points light figure ``f`` may stop on (rulings 2–6), cached per state.

    The arrivals of :func:`search`, whose parent map is kept with them: the move
    pushed next finds its route there (:func:`route`).

    Notes
    -----
    O(V + E) at worst (Gandalf), a few nodes for a coloured figure.
    """
    return search(g, f)[0]


def can_move(g: Ringgeister, f: int) -> bool:
    """Whether light figure ``f`` has a point to stop on."""
    return bool(destinations(g, f))


def step_moves(g: Ringgeister, f: int) -> tuple[Move, ...]:
    """The step moves of light figure ``f``, destinations in id order (cached per state)."""
    cache = g._dest_cache
    hit = cache.get(f)
    if hit is None:
        hit = cache[f] = [_search(g, f, _NO_RELAX, -1), None]
    elif hit[1] is not None:
        known: tuple[Move, ...] = hit[1]
        return known
    dests = hit[0][0]
    v = g.v
    fid = g.specs[f].id
    made = v.step_moves.get(fid)
    if made is None:  # moves are immutable values: one per figure and point
        ids, kind = v.ids, v.static_kind
        made = v.step_moves[fid] = [
            Move("step", fid, ids[i]) if kind[i] == POINT else None for i in range(v.n)
        ]
    moves = hit[1] = tuple([made[d] for d in sorted(dests, key=v.rank.__getitem__)])
    return moves


def route(g: Ringgeister, f: int, dest: int) -> list[int]:
    """The nodes from figure ``f``'s point to ``dest`` along the search's first arrival.

    Searches with parents only as far as ``dest`` (unless a full search is kept).
    """
    found = search(g, f, until=dest)  # the kept full search, or one as far as ``dest``
    dests, parents = found
    at_node = g.v.arrival_node
    key: int | None = dests[dest]
    back: list[int] = []
    while key is not None:
        back.append(at_node[key])
        key = parents[key]
    back.append(g.pos[f])
    return back[::-1]
