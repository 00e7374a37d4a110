"""What a move does: counters placed, figures home, steps and what follows a step.

A step moves the figure, may win the game (the Ringbearer on the goal), then runs
ruling 7 where the figure comes to rest (mission check, magic card, wind and the
black figure it wakes, :mod:`.black`), and passes the turn on when nothing of the
player's may move any more (ruling 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..outcome import won
from . import turning
from .black import wind
from .events import from_field
from .moves import Move
from .search import can_move, route

if TYPE_CHECKING:
    from ..events import Event
    from .protocol import Ringgeister


def place_counter(g: Ringgeister, move: Move, events: list[Event]) -> None:
    colour = g.players[g.player]
    c = next(
        c
        for c in g._counter_order()
        if c["colour"] == colour and c["space"] is None and not c["removed"]
    )
    # counters are replaced, never changed in place: copies share them
    k = g.counters.index(c)
    c = g.counters[k] = {**c, "space": move.to}
    events.append(
        g.event(
            "counter_placed",
            counter=c["id"],
            space=move.to,
            player=colour,
        )
    )
    left = [c for c in g._counter_order() if c["space"] is None and not c["removed"]]
    if left:
        # one at a time, in turn: the next player who still has a counter to place
        n = len(g.players)
        for k in range(1, n + 1):
            p = (g.player + k) % n
            if any(c["colour"] == g.players[p] for c in left):
                g.player = p
                break
    else:
        g.phase = "play"
        g.player = 0
        events.append(g.event("turn.begins", player=g.players[0]))


def home(g: Ringgeister, move: Move, events: list[Event]) -> None:
    fid, chooser = g.pending.pop(0)
    f, p = g.fidx[fid], g.v.index[move.to or ""]
    g._put(f, p)
    events.append(
        g.event(
            "figure_home", figure=fid, to=move.to, chooser=chooser, words={"name": g.specs[f].name}
        )
    )
    g._bump()
    continue_turn(g, events)


def step(g: Ringgeister, move: Move, events: list[Event]) -> None:
    v = g.v
    f = g.fidx[move.figure or ""]
    s = g.specs[f]
    d = v.index[move.to or ""]
    way = route(g, f, d)
    start = g.pos[f]
    g._lift(f)
    g._put(f, d)
    g._bump()
    events.append(
        g.event(
            "moved",
            words={"name": s.name, "where": g._where(d)},
            figure=s.id,
            **from_field(v.ids[start]),
            to=v.ids[d],
            route=[v.ids[i] for i in way],
        )
    )
    g.moved.append(s.id)
    if v.goal[d]:
        winner = s.colour or g.players[g.player]
        g._outcome = won([winner], figure=s.id, ply=g.ply + 1)
        g.phase = "over"
        events.append(g.event("game_won", winner=winner, figure=s.id, words={"name": s.name}))
        return
    after_rest(g, f, d, events)
    g._bump()  # what came to rest is final: searches from here on stay valid
    continue_turn(g, events)


def after_rest(g: Ringgeister, f: int, p: int, events: list[Event]) -> None:
    """Ruling 7: mission check, magic card, wind (and what the wind wakes)."""
    v, s = g.v, g.specs[f]
    turning.mission_check(g, events)
    if s.figure == "gandalf" and v.magic[p]:
        events.append(g.event("nothing_happens", figure=s.id, point=v.ids[p]))
        return
    if v.magic[p] and s.coloured:
        turning.turn_card(g, events)
    if g._outcome is None and v.wind[p] is not None:
        wind(g, p, events)


def continue_turn(g: Ringgeister, events: list[Event]) -> None:
    """After a move: wait for pending choices, the turn's other figure, or pass the turn.

    Changes nothing a search depends on (figures, cards, counters, tiles), so the
    searches made here are kept for the moves that follow.
    """
    if g._outcome is not None:
        g.phase = "over"
        return
    if g.pending:
        return
    if g.moved and "gandalf" not in g.moved:
        if any(can_move(g, f) for f in g._movable()):
            return
    next_player(g, events)


def next_player(g: Ringgeister, events: list[Event]) -> None:
    g.player = (g.player + 1) % len(g.players)
    g.moved = []
    events.append(g.event("turn", player=g.players[g.player]))
