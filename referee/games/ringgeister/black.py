"""Black figures: the wind that wakes one (ruling 8) and its move (rulings 9–11, 13).

A woken black figure follows the hand of the face-up card from its heading, keeps
as straight as it can (turning right where the arrows force it), turns about at
dead ends and in front of a light figure that repels it, and stops on the first
black point free of black figures **other than the one it started from** (ruling
13: a repelled figure passes its own vacated start like any other point). Only a
route that repeats without finding one leaves it where it started (ruling 9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...geometry import COMPASS, turn_angle, unit_vector
from ..outcome import lost
from .events import from_field
from .pieces import SIZE_NAMES
from .view import DEAD_END, POINT

if TYPE_CHECKING:
    from ..events import Event
    from .protocol import Ringgeister


def _compass(bearing: float) -> str:
    k = round(bearing / 90.0) % 4
    return COMPASS[k] if abs(bearing - 90.0 * round(bearing / 90.0)) < 1e-6 else f"{bearing:g}°"


def wind(g: Ringgeister, p: int, events: list[Event]) -> None:
    """Ruling 8: the nearest black figure within the corridor of the ray plays, else Gollum."""
    v = g.v
    bearing = v.wind[p]
    assert bearing is not None
    ux, uy = unit_vector(bearing)
    px, py = v.x[p], v.y[p]
    corridor = v.corridor
    best: tuple[float, str, int] | None = None
    for f in g.black_figs:
        q = g.pos[f]
        if q < 0:
            continue
        dx, dy = v.x[q] - px, v.y[q] - py
        t = dx * ux + dy * uy
        if t <= 1e-9 or abs(dx * uy - dy * ux) > corridor:
            continue
        cand = (t, g.specs[f].id, f)
        if best is None or cand < best:
            best = cand
    towards = _compass(bearing)
    if best is not None:
        f = best[2]
        events.append(
            g.event(
                "wind",
                point=v.ids[p],
                towards=towards,
                figure=g.specs[f].id,
                distance=round(best[0], 3),
                words={"name": g.specs[f].name, "at": v.ids[g.pos[f]]},
            )
        )
    elif g.gollum >= 0 and g.pos[g.gollum] >= 0:
        f = g.gollum
        events.append(
            g.event(
                "wind.gollum",
                point=v.ids[p],
                towards=towards,
                figure=g.specs[f].id,
                distance=None,
            )
        )
    else:
        events.append(g.event("wind.nobody", point=v.ids[p], towards=towards, figure=None))
        return
    black_move(g, f, events)


def _exit_towards(g: Ringgeister, node: int, target: float) -> tuple[int, int, float, float] | None:
    # rows list their paths in key order: on a tie the first (its key sorts first) wins
    best: tuple[float, tuple[int, int, float, float]] | None = None
    for t in g.v.land_inc[node]:
        diff = abs(turn_angle(target, t[2]))
        if best is None or diff < best[0]:
            best = (diff, t)
    return best[1] if best else None


def _reverse(g: Ringgeister, e: int, node: int, frm: int) -> tuple[int, int, float, float]:
    """The entry of edge ``e`` leaving ``node`` back towards ``frm`` (turning about)."""
    row = g.v.inc[node]
    for t in row:
        if t[0] == e and t[1] == frm:
            return t
    return next(t for t in row if t[0] == e)


def black_move(g: Ringgeister, f: int, events: list[Event]) -> None:
    """Rulings 9–11: the woken black figure's move, its encounters, a Spirit's turn."""
    v, s = g.v, g.specs[f]
    specs, occ = g.specs, g.occ
    start = g.pos[f]
    hand = g.card.hand
    heading = v.heading[start] if v.heading[start] is not None else v.wind[start]
    first = None
    if heading is not None:
        target = heading if hand == "forward" else (heading + 180.0) % 360.0
        first = _exit_towards(g, start, target)
    if first is None:
        events.append(g.event("black_stays", figure=s.id, at=v.ids[start], words={"name": s.name}))
        return
    g._lift(f)
    e, to, _, b_in = first
    frm = start
    repelled = False
    seen: set[tuple[int, int, bool]] = set()
    route = [start]
    final = -1
    looped = False
    kind, black, land_inc, forced = v.kind, v.black, v.land_inc, v.forced_right
    steps = v.black_next  # where each arrival leads on at these turns (figures aside)
    while True:
        state = (e, to, repelled)
        if state in seen:
            looped = True
            final = start
            break
        seen.add(state)
        node = to
        route.append(node)
        k = kind[node]
        if k == POINT:
            o = occ[node]
            if o >= 0 and specs[o].light:
                ls = specs[o]
                on_black = black[node]
                if s.size > ls.size:
                    black_wins = True
                elif s.size == ls.size:
                    black_wins = on_black
                else:
                    black_wins = False
                events.append(
                    g.event(
                        "encounter" if black_wins else "encounter.repelled",
                        black_figure=s.id,
                        light_figure=ls.id,
                        point=v.ids[node],
                        point_colour="black" if on_black else "grey",
                        winner="black" if black_wins else "light",
                        words={
                            "black": s.name,
                            "black_size": SIZE_NAMES[s.size],
                            "light": ls.name,
                            "light_size": SIZE_NAMES[ls.size],
                            "where": g._where(node),
                        },
                    )
                )
                if black_wins:
                    caught_ringbearer = s.figure == "spirit" and g._is_ringbearer(o)
                    g._lift(o)
                    if caught_ringbearer:
                        g._put(f, node)
                        g._outcome = lost(
                            reason="ringbearer_caught", figure=ls.id, by=s.id, ply=g.ply + 1
                        )
                        g.phase = "over"
                        events.append(
                            g.event(
                                "black_moved.caught",
                                words={"name": s.name},
                                figure=s.id,
                                **from_field(v.ids[start]),
                                to=v.ids[node],
                                route=[v.ids[i] for i in route],
                                hand=hand,
                            )
                        )
                        events.append(
                            g.event("game_lost", figure=ls.id, by=s.id, words={"name": s.name})
                        )
                        return
                    chooser = g._chooser_for(o)
                    g.pending.append((ls.id, chooser))
                    events.append(
                        g.event("sent_home", figure=ls.id, chooser=chooser, words={"name": ls.name})
                    )
                    if on_black:
                        final = node  # ruling 10: takes its place and stops
                        break
                else:
                    repelled = True  # ruling 10: turns about in front of it, goes on
                    e, to, _, b_in = _reverse(g, e, node, frm)
                    frm = node
                    route.pop()  # it never entered the light figure's point
                    continue
            elif o < 0 and black[node] and node != start:
                # rulings 9, 13: the first *new* black point not held by a black figure
                # (its own vacated start is passed like any other point)
                final = node
                break
        arrived = (e, node, frm, b_in)
        nxt = steps.get(arrived)
        if nxt is None:
            exits = [t for t in land_inc[node] if t[0] != e]
            if k == DEAD_END or not exits:
                nxt = _reverse(g, e, node, frm)  # ruling 9: turns about at a dead end
            elif forced[node]:  # ties: the first in the row, whose path key sorts first
                nxt = max(exits, key=lambda t: turn_angle(b_in, t[2]))
            else:
                nxt = min(exits, key=lambda t: abs(turn_angle(b_in, t[2])))
            steps[arrived] = nxt
        e, to, _, b_in = nxt
        frm = node
    g._put(f, final)
    if looped:
        events.append(
            g.event("black_stays.repeats", figure=s.id, at=v.ids[start], words={"name": s.name})
        )
        return
    events.append(
        g.event(
            "black_moved",
            words={"name": s.name, "where": g._where(final)},
            figure=s.id,
            **from_field(v.ids[start]),
            to=v.ids[final],
            route=[v.ids[i] for i in route],
            hand=hand,
        )
    )
    if s.figure == "spirit" and v.start[final] == "black":
        pid = v.owner[final]
        if pid is not None and pid in v.turnable:
            g._turn_tile(pid, f"{s.name} on black starting point {v.ids[final]}", events)
