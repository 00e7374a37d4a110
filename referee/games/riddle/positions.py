"""Riddle of the Ring positions: a situation written by hand (:class:`.state.RiddlePosition`).

A position names the player on turn and whether he has rolled, where each marker
stands, the hands and table cards, who is in Limbo or captive, the piles (top card
first), hidden cards and the cities last picked up at. Without ``turn_state``,
loading one begins the turn of ``to_move`` as the rules do (a marker not yet placed
enters at the Shire; a player in Limbo rolls to leave it), and phase ``main`` with a
``roll`` means he has rolled. With ``turn_state`` (and ``activity``), the turn in
progress is taken as it is: :func:`dump` writes them, so the position of any state
sets up the same legal moves. What players have seen of others' hands is not part of
a position.

Variation 14 (``enhanced_two``: sides choosing characters) has no positions.
"""

from __future__ import annotations

from typing import Any

from ...errors import StateError
from ..names import unknown
from . import flow, names
from .common import HOBBITS, MARKERS
from .protocol import Riddle
from .state import Player, RiddlePosition


def _bad(where: str, what: str) -> StateError:
    return StateError(f"position.{where}: {what}", code="bad_state")


def load(g: Riddle, pos: RiddlePosition) -> None:
    """Fill the blank game ``g`` (players = markers in seating order) from ``pos``.

    Raises
    ------
    StateError
        ``bad_state``: an unknown marker or space, a card listed twice or unknown
        (one line naming the field); the rest is checked by :meth:`~.game.RiddleGame.validate`.
    """
    if g.opts["enhanced_two"]:
        raise _bad("options", "Variation 14 (enhanced_two) games have no positions")
    for i, n in enumerate(g.players):
        if n not in MARKERS:
            raise _bad(f"players[{i}]", f"{n!r} is no marker ({', '.join(MARKERS)})")
    g.seats = [Player(n, "hobbit" if n in HOBBITS else "rider") for n in g.players]
    g._index()

    def player(n: str, where: str) -> None:
        if n not in g._by:
            raise unknown(f"position.{where}", "player of this game", n, g.players)

    for key, table in (
        ("places", pos.places),
        ("hands", pos.hands),
        ("tables", pos.tables),
        ("cities", pos.cities),
        ("captives", pos.captives),
        ("away", pos.away),
        ("riddle_extra", pos.riddle_extra),
    ):
        for n in table:
            player(n, f"{key}.{n}")
    for n, captor in pos.captives.items():
        player(captor, f"captives.{n}")
    for i, n in enumerate(pos.limbo):
        player(n, f"limbo[{i}]")
    player(pos.to_move, "to_move")
    spaces = set(g.info.terrain) | g.info.dots

    def space(value: object, where: str) -> str:
        return names.space(g.compiled, spaces, value, f"position.{where}")

    for n, node in pos.places.items():
        if node is not None:
            g._by[n].pos, g._by[n].status = space(node, f"places.{n}"), "board"
    for n in pos.limbo:
        p = g._by[n]
        if p.pos is not None:
            raise _bad(f"limbo.{n}", f"{n} is in Limbo and on {p.pos}")
        p.status = "limbo"
    for n, captor in pos.captives.items():
        cap = g._by.get(captor)
        if cap is None or cap.pos is None:
            raise _bad(f"captives.{n}", f"{captor!r} is no player on the board")
        p = g._by[n]
        p.status, p.captor, p.pos = "captive", captor, cap.pos
    for s, per in pos.hidden.items():
        for n in per:
            player(n, f"hidden.{s}.{n}")
    piles: list[tuple[str, list[str]]] = [
        *((f"hands.{n}", list(c)) for n, c in pos.hands.items()),
        *((f"tables.{n}", list(c)) for n, c in pos.tables.items()),
        ("draw", list(pos.draw)),
        ("discard", list(pos.discard)),
        *((f"hidden.{s}.{n}", list(c)) for s, per in pos.hidden.items() for n, c in per.items()),
    ]
    cards = names.CardNames(g.deck)
    battle = pos.activity if pos.activity and pos.activity.get("kind") == "battle" else {}
    for where, lst in [*piles, *((f"activity.{k}", battle.get(k)) for k in ("att", "dfn"))]:
        for i, c in enumerate(lst if isinstance(lst, list) else ()):
            cards.claim(c, f"position.{where}[{i}]")
    read = {
        where: [cards.read(c, f"position.{where}[{i}]") for i, c in enumerate(lst)]
        for where, lst in piles
    }
    for n in pos.hands:
        g._by[n].hand = read[f"hands.{n}"]
    for n in pos.tables:
        g._by[n].table = read[f"tables.{n}"]
    for n, cities in pos.cities.items():
        if len(cities) > 2:
            raise _bad(
                f"cities.{n}",
                f"the last two cities picked up at, not {len(cities)} (only they bar a city)",
            )
        g._by[n].cities = [space(c, f"cities.{n}[{i}]") for i, c in enumerate(cities)]
    g.draw_pile = list(reversed(read["draw"]))
    rest = [c for c in g.deck.instances if c not in cards.placed]
    if pos.draw_rest:
        g._shuffle(rest)
        g.draw_pile = rest + g.draw_pile  # under the listed ones (the top is the end)
    elif rest:
        raise _bad(
            "draw",
            f"{len(rest)} card(s) of the deck are nowhere (e.g. {', '.join(rest[:3])}): "
            "list them, or set draw_rest: true to deal the rest from the seed",
        )
    g.discard_pile = list(reversed(read["discard"]))
    g.hidden = {}
    for s, per in pos.hidden.items():
        sid = space(s, f"hidden.{s}")
        for n in per:
            if read[f"hidden.{s}.{n}"]:
                g.hidden.setdefault(sid, {})[n] = read[f"hidden.{s}.{n}"]
    g.cur = g.players.index(pos.to_move)
    g.order = [g.seats[(g.cur + k) % len(g.seats)].name for k in range(len(g.seats))]
    g.seen = {p.name: [] for p in g.seats}
    g.round_no = pos.round
    counts: tuple[tuple[str, dict[str, int]], ...] = (
        ("away", pos.away),
        ("riddle_extra", pos.riddle_extra),
    )
    for key, numbers in counts:
        for n, v in numbers.items():
            setattr(g._by[n], key, v)
    for key, listed in (
        ("waiting_on_goal", pos.waiting_on_goal),
        ("goal_seen", pos.goal_seen),
        ("free_next", pos.free_next),
        ("out", pos.out),
    ):
        for i, n in enumerate(listed):
            player(n, f"{key}[{i}]")
            setattr(g._by[n], "goal_wait" if key == "waiting_on_goal" else key, True)
    if pos.turn_state is not None:  # a turn in progress, as it is
        g.turn_no = pos.turn
        g.t, g.phase, g.sub = pos.turn_state, pos.phase, pos.activity
        if g.t.start is not None:
            g.t.start = space(g.t.start, "turn_state.start")
        return
    if pos.activity is not None:
        raise _bad("activity", "an activity belongs to a turn in progress (give turn_state)")
    g.turn_no = pos.turn - 1
    ev: list[dict[str, Any]] = []
    flow.begin_turn(g, ev)
    g.setup_events = ev
    if pos.phase == "main":
        if g.phase != "start" or not 1 <= pos.roll <= 6:
            raise _bad("phase", "main needs a roll of 1 to 6 by a player on the board")
        g.t.roll, g.phase = pos.roll, "main"
    elif pos.phase != "start":
        raise _bad("phase", f"{pos.phase} is a turn in progress: give turn_state")
    elif pos.roll:
        raise _bad("roll", "a roll belongs to phase main")


def dump(g: Riddle) -> RiddlePosition:
    """The position of ``g``, the turn in progress included (see the module docs)."""
    if g.opts["enhanced_two"]:
        raise StateError("Variation 14 (enhanced_two) games have no positions", code="bad_state")
    return RiddlePosition(
        to_move=g.me.name,
        phase=g.phase,  # type: ignore[arg-type]
        roll=g.t.roll,
        turn_state=g.t,
        activity=g.sub,
        away={p.name: p.away for p in g.seats if p.away},
        riddle_extra={p.name: p.riddle_extra for p in g.seats if p.riddle_extra},
        waiting_on_goal=[p.name for p in g.seats if p.goal_wait],
        goal_seen=[p.name for p in g.seats if p.goal_seen],
        free_next=[p.name for p in g.seats if p.free_next],
        out=[p.name for p in g.seats if p.out],
        places={p.name: p.pos if p.status == "board" else None for p in g.seats},
        hands={p.name: list(p.hand) for p in g.seats},
        tables={p.name: list(p.table) for p in g.seats},
        limbo=[p.name for p in g.seats if p.status == "limbo"],
        captives={p.name: str(p.captor) for p in g.seats if p.status == "captive"},
        draw=list(reversed(g.draw_pile)),
        discard=list(reversed(g.discard_pile)),
        hidden={s: {n: list(c) for n, c in d.items()} for s, d in g.hidden.items()},
        cities={p.name: list(p.cities) for p in g.seats},
        turn=g.turn_no,
        round=g.round_no,
    )
