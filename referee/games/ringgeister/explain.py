"""Why a light figure cannot stop where a rejected move asked (one rule named).

Each restriction of :func:`~.search.search` is switched off alone; the one that
makes the point reachable is the reason. Otherwise all are switched off and the
first rule broken along the shortest such route is named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import IllegalMoveError
from .search import Found, search
from .view import POINT

if TYPE_CHECKING:
    from .protocol import Ringgeister


def explain(g: Ringgeister, f: int, d: int) -> None:
    """Raise the most telling reason why light figure ``f`` cannot stop on ``d``.

    First each rule is switched off alone: if that makes ``d`` reachable, that rule
    is the reason. Otherwise all are switched off and the first rule broken along
    the shortest such route is named.
    """
    v, s = g.v, g.specs[f]
    here, there = v.ids[g.pos[f]], v.ids[d]
    for relax in (
        ("black",),
        ("spider",),
        ("gallery",),
        ("goal",),
        ("stop",),
        ("black", "spider", "gallery", "goal", "stop"),
    ):
        found = search(g, f, frozenset(relax))
        if d in found[0]:
            _raise_violation(g, f, d, found)
    raise IllegalMoveError(
        f"no path leads {s.name} from {here} to {there}",
        code="no_path",
        details={"figure": s.id, "from": here, "to": there},
    )


def _raise_violation(g: Ringgeister, f: int, d: int, found: Found) -> None:
    """Walk the route to ``d`` in ``found`` and raise for the first rule it breaks."""
    v, s = g.v, g.specs[f]
    dests, parents = found
    keys: list[tuple[int, int]] = []
    key: int | None = dests[d]
    while key is not None:
        keys.append((v.arrival_node[key], v.arrival_edge[key]))
        key = parents[key]
    keys.reverse()
    start = g.pos[f]
    route = [v.ids[start]] + [v.ids[k[0]] for k in keys]
    base = {"figure": s.id, "from": v.ids[start], "to": v.ids[d], "route": route}
    hobbit = s.figure == "hobbit"
    ringbearer = g._is_ringbearer(f)
    spider_ok = hobbit and g._counters_left(s.colour or "") == 0
    image = g.card.image
    prev = start
    for node, e_in in keys:
        if e_in >= 0 and v.guard[e_in] is not None and not spider_ok:
            why = (
                "only a Hobbit may pass the spider"
                if not hobbit
                else f"{s.colour} still has {g._counters_left(s.colour or '')} counter(s) "
                "on the board"
            )
            raise IllegalMoveError(
                f"the spider blocks the secret passage: {why}",
                code="spider_blocks",
                details=base,
            )
        if e_in == -1 and v.symbol[prev] != image:
            doors = [v.ids[prev], v.ids[node]]
            raise IllegalMoveError(
                f"the dwarf gallery from {doors[0]} to {doors[1]} is closed: the face-up "
                f"card shows {image}, so only {image} doors open"
                if image != "storm"
                else f"the dwarf gallery from {doors[0]} to {doors[1]} is closed: the face-up "
                "card shows a storm, so no door opens",
                code="gallery_closed",
                details={**base, "doors": doors, "card": g.face_up},
            )
        prev = node
        if v.kind[node] != POINT or node == start:
            continue
        o = g.occ[node]
        if node == d or (o < 0 and v.goal[node] and not ringbearer):
            # the free goal: only the Ringbearer enters it, nobody jumps it (ruling 6)
            if v.goal[node] and not ringbearer:
                raise IllegalMoveError(
                    f"only the Ringbearer Hobbit ({g.ringbearer}) may enter the goal on "
                    "the Mountain of Fire",
                    code="goal_needs_ringbearer",
                    details={**base, "ringbearer": g.ringbearer},
                )
            continue
        if o >= 0 and not g.specs[o].light and not (ringbearer and g.specs[o].size < 2):
            b = g.specs[o]
            why = (
                "even the Ringbearer cannot pass a Spirit of the Ring"
                if ringbearer
                else "only the Ringbearer Hobbit jumps Gollum and Orcs"
            )
            raise IllegalMoveError(
                f"{s.name} cannot pass {b.name} on {v.ids[node]} ({why})",
                code="blocked_by_black_figure",
                details={**base, "point": v.ids[node], "black_figure": b.id},
            )
        if o < 0:
            if s.figure == "gandalf" and v.black[node]:
                raise IllegalMoveError(
                    f"Gandalf must stop at the first free black point ({v.ids[node]})",
                    code="must_stop_at_black_point",
                    details={**base, "point": v.ids[node]},
                )
            if s.figure != "gandalf":
                raise IllegalMoveError(
                    f"{s.name} must stop at the next free point ({v.ids[node]}); it may "
                    "only jump points held by light figures",
                    code="not_next_free_point",
                    details={**base, "point": v.ids[node]},
                )
    raise IllegalMoveError(
        f"{s.name} cannot reach {v.ids[d]} this turn", code="unreachable", details=base
    )
