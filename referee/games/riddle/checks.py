"""Riddle of the Ring: what loading checks of a state's *meaning* (:func:`problems`).

:mod:`.state` declares the state's *structure*; :func:`problems` checks every
reference in it — to a player, a space, a card or an index — so that a hand-edited
impossible state is refused with one line (``StateError`` code ``bad_state``)
instead of failing later.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .protocol import Riddle
from .state import ACTIVITIES


def problems(g: Riddle) -> list[str]:
    """What is impossible in ``g``'s state, one line each naming the field (empty: none).

    Checks every reference (players, spaces, cards, indices, activity) and that the
    deck's cards are each accounted for exactly once. The rules' own invariants
    (:func:`.views.invariants`) are checked after these.
    """
    bad: list[str] = []
    names = [p.name for p in g.seats]
    known = set(names)
    if len(known) != len(names):
        bad.append(f"state.seats: a marker is listed twice ({', '.join(names)})")
    if not g.seats:
        return [*bad, "state.seats: no players"]
    if not 0 <= g.cur < len(g.seats):
        bad.append(f"state.cur: {g.cur} is not a seat (0 to {len(g.seats) - 1})")
    spaces = set(g.info.terrain) | g.info.dots
    for i, p in enumerate(g.seats):
        where = f"state.seats[{i}]"
        if p.pos is not None and p.pos not in spaces:
            bad.append(f"{where}.pos: {p.pos!r} is no space of this board")
        if p.captor is not None and p.captor not in known:
            bad.append(f"{where}.captor: no player {p.captor!r}")
        if p.status == "captive" and p.captor is None:
            bad.append(f"{where}.captor: a captive needs his captor")
        for c in p.cities:
            if c not in spaces:
                bad.append(f"{where}.cities: {c!r} is no space of this board")
        if (p.kind == "hobbit") != (p.name in ("frodo", "sam", "merry", "pippin")):
            bad.append(f"{where}.kind: {p.name} is no {p.kind}")
    for n in g.order:
        if n not in known:
            bad.append(f"state.order: no player {n!r}")
    for where, lst in (("pending", g.t.pending), ("exchanged", g.t.exchanged)):
        for n in lst:
            if n not in known:
                bad.append(f"state.t.{where}: no player {n!r}")
    if g.t.start is not None and g.t.start not in spaces:
        bad.append(f"state.t.start: {g.t.start!r} is no space of this board")
    me = g.seats[g.cur] if 0 <= g.cur < len(g.seats) else None
    if (
        me is not None
        and me.status == "board"
        and g.t.start is None
        and g.phase not in ("character", "over")
    ):
        bad.append(f"state.t.start: {me.name} is on the board: say where his turn began")
    if me is not None and me.status == "board" and me.pos is None:
        bad.append(f"state.seats[{g.cur}].pos: {me.name} is on the board: say where")
    for s, per in g.hidden.items():
        if s not in spaces:
            bad.append(f"state.hidden: {s!r} is no space of this board")
        for n in per:
            if n not in known:
                bad.append(f"state.hidden.{s}: no player {n!r}")
    for n in g.seen:
        if n not in known:
            bad.append(f"state.seen: no player {n!r}")
    bad += _activity_problems(g, known)
    bad += _card_problems(g)
    return bad


#: phase -> the activities it runs on, and the keys they must have
PHASE_ACTIVITY: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "battle_att": (
        ("battle",),
        ("defender", "total", "need", "att", "dfn", "att_cities", "def_cities"),
    ),
    "battle_def": (
        ("battle",),
        ("defender", "total", "need", "att", "dfn", "att_cities", "def_cities"),
    ),
    "resist": (("look",), ("target", "by")),
    "riddle": (("riddle",), ("target", "by")),
    "choose": (("give", "battle"), ("target",)),
    "pexchange": (("pexchange",), ("with", "mode", "turn", "gives")),
}


def _activity_problems(g: Riddle, known: set[str]) -> list[str]:
    sub = g.sub
    need = PHASE_ACTIVITY.get(g.phase)
    if sub is None:
        if need is not None:
            return [f"state.sub: phase {g.phase} needs its activity ({' or '.join(need[0])})"]
        return []
    kind = sub.get("kind")
    if kind not in ACTIVITIES:
        return [f"state.sub.kind: {kind!r} is none of {', '.join(ACTIVITIES)}"]
    if need is not None:
        if kind not in need[0]:
            return [f"state.sub.kind: phase {g.phase} runs on {' or '.join(need[0])}, not {kind}"]
        missing = [k for k in need[1] if k not in sub]
        if missing:
            return [f"state.sub: {kind} in phase {g.phase} lacks {', '.join(missing)}"]
        if kind == "pexchange":
            if sub["mode"] not in ("a", "b", "c") or not isinstance(sub["gives"], dict):
                return ["state.sub: a partner exchange needs mode a, b or c and gives"]
            if sub["mode"] == "b" and not all(
                isinstance(sub.get(k), dict) for k in ("asks", "answers")
            ):
                return ["state.sub: a Variation 2b exchange needs step, asks and answers"]
            if sub["mode"] == "b" and sub.get("step") not in ("ask", "answer", "offer"):
                return [f"state.sub.step: {sub.get('step')!r} is none of ask, answer, offer"]
    bad = []
    for key in ("target", "defender", "with", "turn"):
        if key in sub and sub[key] not in known:
            bad.append(f"state.sub.{key}: no player {sub[key]!r}")
    for key in ("att", "dfn", "att_cities", "def_cities"):
        if key in sub and not (
            isinstance(sub[key], list) and all(isinstance(x, str) for x in sub[key])
        ):
            bad.append(f"state.sub.{key}: expected a list of ids")
    for key in ("total", "need"):
        if key in sub and (
            isinstance(sub[key], bool) or not isinstance(sub[key], int) or not 0 <= sub[key] <= 5
        ):
            bad.append(f"state.sub.{key}: expected 0 to 5, got {sub[key]!r}")
    return bad


def _card_places(g: Riddle) -> list[tuple[str, Any]]:
    """``(field, card)`` for every card wherever the state keeps it."""
    out: list[tuple[str, Any]] = [("state.draw", c) for c in g.draw_pile]
    out += [("state.discard", c) for c in g.discard_pile]
    for i, p in enumerate(g.seats):
        out += [(f"state.seats[{i}].hand", c) for c in p.hand]
        out += [(f"state.seats[{i}].table", c) for c in p.table]
    for s, per in g.hidden.items():
        for n, cs in per.items():
            out += [(f"state.hidden.{s}.{n}", c) for c in cs]
    if g.sub is not None and g.sub.get("kind") == "battle":
        for key in ("att", "dfn"):
            cs = g.sub.get(key, [])
            if not isinstance(cs, list):
                continue
            out += [(f"state.sub.{key}", c) for c in cs]
    return out


def _card_problems(g: Riddle) -> list[str]:
    """Every card of the deck exactly once, and nothing that is not a card."""
    deck = Counter(g.deck.instances)
    places = _card_places(g)
    bad = []
    for where, c in places:
        if c not in deck:
            bad.append(f"{where}: {c!r} is no card of the deck")
    seen: dict[Any, list[str]] = {}
    for where, c in places:
        seen.setdefault(c, []).append(where)
    for c, wheres in seen.items():
        if c in deck and len(wheres) > deck[c]:
            bad.append(f"cards: {c} is in more than one place ({', '.join(wheres)})")
    missing = sorted(c for c in deck if len(seen.get(c, ())) < deck[c])
    if missing:
        bad.append(
            f"cards: {len(missing)} card(s) accounted for nowhere (e.g. {', '.join(missing[:3])})"
        )
    return bad
