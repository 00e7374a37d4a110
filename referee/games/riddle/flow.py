"""Riddle of the Ring, turn flow: beginning and ending turns, the die, Limbo and
captivity (escaping, placing), Variation 14's choice of character, going through the
deck once (Variation 12), showing The Ring to win, and ending a turn by picking up
(city or card), discarding or passing.

Rules of the rulebook implemented here are listed in ``docs/coverage/riddle-of-the-ring.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from ..base import draw, won
from . import travel, turn
from .common import GOAL, SIDE, illegal
from .events import told
from .moves import Move
from .protocol import Riddle
from .state import Player, TurnState


def begin_turn(g: Riddle, ev: list[dict[str, Any]]) -> None:
    p = g.me
    g.turn_no += 1
    g.t = TurnState(start=p.pos)
    g.sub = None
    ev.append(g.event("turn", player=p.name, turn=g.turn_no, round=g.round_no))
    if p.status in ("limbo", "captive"):
        limit = 2 if g.opts["short_limbo"] and len(g.seats) >= 6 else 3
        if p.free_next or p.away >= limit:
            g.phase = "place"
        else:
            g.phase = "limbo"
    else:
        if p.status == "waiting":
            p.status = "board"
            p.pos = g.info.roles["shire"]
            g.t.start = p.pos
            ev.append(g.event("placed", player=p.name, at=p.pos, why="shire"))
        g.phase = "start"


def end_turn(g: Riddle, ev: list[dict[str, Any]]) -> None:
    p = g.me
    if p.status == "board" and p.pos is not None:
        keep = {
            "cloak": g.info.terrain.get(p.pos) == "forest",
            "rope": g.info.terrain.get(p.pos) == "mountain",
            "boat": g.info.is_water(p.pos),
        }
        for c in list(p.table):
            if not keep.get(g.deck.type_of[c].id, False):
                p.table.remove(c)
                g.discard_pile.append(c)
        goal = g.info.roles[GOAL[p.kind]]
        p.goal_wait = p.pos == goal
        p.goal_seen = p.goal_seen or p.goal_wait
    elif p.status in ("limbo", "captive"):
        p.away += 1
    p.riddle_extra = 0
    ev.append(g.event("turn_over", player=p.name))
    if g.opts["once_through"]:
        once_through_check(g, ev)
    if g.opts["enhanced_two"]:
        next_side(g, ev)
        return
    # next player in seating order
    n = len(g.seats)
    nxt = next(
        ((g.cur + k) % n for k in range(1, n + 1) if not g.seats[(g.cur + k) % n].out),
        None,
    )
    if nxt is None:  # pragma: no cover - everybody out
        g.result = draw(reason="no players")
        g.phase = "over"
        return
    first = g.seats.index(g._by[g.order[0]])
    if crossed(g.cur, nxt, first):
        g.round_no += 1
        if g.opts["turn_limit"] and g.round_no > g.opts["turn_limit"]:
            g.result = draw(reason="turn_limit", rounds=g.round_no - 1)
            g.phase = "over"
            ev.append(g.event("game_over", **g.result.to_json()))
            return
    g.cur = nxt
    begin_turn(g, ev)


def next_side(g: Riddle, ev: list[dict[str, Any]]) -> None:
    """Variation 14: the other side plays; after its first turn it chooses a character."""
    side = "riders" if g.side_turn == "hobbits" else "hobbits"
    if side == SIDE[g._by[g.order[0]].kind]:
        g.round_no += 1
        if g.opts["turn_limit"] and g.round_no > g.opts["turn_limit"]:
            g.result = draw(reason="turn_limit", rounds=g.round_no - 1)
            g.phase = "over"
            ev.append(g.event("game_over", **g.result.to_json()))
            return
    g.side_turn = side
    info = g.sides[side]
    if not info.started:
        info.started = True
        g.cur = g.seats.index(g._by[info.start])
        begin_turn(g, ev)
        return
    g.phase = "character"
    g.sub = None
    g.t = TurnState()
    ev.append(g.event("side_to_choose", side=side))


def side_chars(g: Riddle, side: str | None) -> list[Player]:
    return [q for q in g.seats if SIDE[q.kind] == side and not q.out]


def check_use(g: Riddle, name: str) -> None:
    q = g.player(name)
    if SIDE[q.kind] != g.side_turn or q.out or q.status == "reserve":
        raise illegal(
            "not_your_character",
            f"{name} is not an active character of the {g.side_turn}",
            player=name,
        )


def apply_use(g: Riddle, ev: list[dict[str, Any]], name: str) -> None:
    g.cur = g.seats.index(g._by[name])
    begin_turn(g, ev)


def check_bring(g: Riddle, name: str) -> None:
    q = g.player(name)
    if SIDE[q.kind] != g.side_turn or q.status != "reserve":
        raise illegal(
            "not_in_reserve",
            f"{name} is not a character of the {g.side_turn} waiting in reserve",
            player=name,
        )


def apply_bring(g: Riddle, ev: list[dict[str, Any]], name: str) -> None:
    q = g._by[name]
    q.status = "waiting"
    q.hand.extend(g._draw_cards(2))
    ev.append(told(g, "bring_in", [name], {"got": list(q.hand)}, side=g.side_turn, player=name))
    g.cur = g.seats.index(q)
    begin_turn(g, ev)


def gen_character(g: Riddle) -> Iterator[Move]:
    for q in side_chars(g, g.side_turn):
        yield Move.of("bring" if q.status == "reserve" else "use", q.name)


def crossed(a: int, b: int, first: int) -> bool:
    """Going forward from seat ``a`` to seat ``b`` reaches seat ``first``."""
    if b > a:
        return a < first <= b
    return first > a or first <= b


def once_through_check(g: Riddle, ev: list[dict[str, Any]]) -> None:
    if g.draw_pile:
        return
    for q in g.seats:
        if not q.out and not q.hand and q.status not in ("captive", "reserve"):
            q.out = True
            for c in q.table:
                g.discard_pile.append(c)
            q.table.clear()
            q.pos = None
            ev.append(g.event("out_of_game", player=q.name, why="no cards, deck gone"))
            for r in g.seats:
                if r.status == "captive" and r.captor == q.name:
                    r.status, r.captor, r.pos, r.free_next = "limbo", None, None, True
                    ev.append(g.event("prisoner_follows", player=r.name, with_=q.name))
    left = [q for q in g.seats if not q.out and q.status != "reserve"]
    if (
        g.opts["enhanced_two"]
        and left
        and len({q.kind for q in left}) == 1
        and not any(q.status == "reserve" and q.kind != left[0].kind for q in g.seats)
    ):
        win_game(g, left[0], ev, "last side in the game")
    elif len(left) == 1:
        win_game(g, left[0], ev, "last player in the game")
    elif not left:
        g.result = draw(reason="everybody out")
        g.phase = "over"


def win_game(g: Riddle, p: Player, ev: list[dict[str, Any]], how: str) -> None:
    if g.opts["enhanced_two"]:  # the players are the two sides
        g.result = won([SIDE[p.kind]], how=how, character=p.name)
    elif g.opts["partners"]:  # the team wins together
        g.result = won([q.name for q in g.seats if q.kind == p.kind], how=how, by=p.name)
    else:
        g.result = won([p.name], how=how)
    g.phase = "over"
    ev.append(g.event("game_over", **g.result.to_json()))


def check_roll(g: Riddle) -> None:
    return None


def apply_roll(g: Riddle, ev: list[dict[str, Any]]) -> None:
    r = g._die()
    p = g.me
    ev.append(g.event("roll", player=p.name, die=r))
    if g.phase == "start":
        g.t.roll = r
        g.phase = "main"
    elif r == 6:
        ev.append(g.event("escape", player=p.name, how="six"))
        g.phase = "place"
    else:
        g.phase = "limbo_rolled"


def check_reroll(g: Riddle, card: str) -> None:
    g._usable(g.me, card, "reroll")
    if g.t.die_used:
        raise illegal("die_used", "roll again only before moving with the die")


def apply_reroll(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    g._after(g.me, card, g.ctype(card).use("reroll").get("after", "discard"))
    g.t.roll = g._die()
    ev.append(g.event("roll", player=g.me.name, die=g.t.roll, by=card))


def gen_start(g: Riddle) -> Iterator[Move]:
    yield Move.of("roll")


def gen_over(g: Riddle) -> Iterator[Move]:
    return iter(())


def check_escape(g: Riddle, card: str) -> None:
    g._usable(g.me, card, "escape")


def apply_escape(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    u = g.ctype(card).use("escape")
    g._after(g.me, card, u.get("after", "discard"))
    ev.append(g.event("escape", player=g.me.name, how=card))
    g.phase = "place"


def gen_limbo_rolled(g: Riddle) -> Iterator[Move]:
    for c in g._cards_with(g.me, "escape"):
        yield Move.of("escape", c)
    yield Move.of("pass")


def place_targets(g: Riddle) -> list[str]:
    p = g.me
    captor: str | None = None
    if p.status == "captive" and p.captor is not None:
        cap = g._by.get(p.captor)
        if cap is not None and cap.pos is not None and cap.status == "board":
            captor = cap.pos
    return g.compiled.derived(
        f"riddle.place_within6:{captor}",
        lambda: sorted(turn.limbo_exit_spaces(g.mv, captor=captor)),
    )


def check_place(g: Riddle, space: str) -> None:
    space = g._node(space)
    if space not in place_targets(g):
        raise illegal(
            "too_far",
            f"{space} is not a land space within 6 spaces of where you leave Limbo/captivity",
            space=space,
        )


def apply_place(g: Riddle, ev: list[dict[str, Any]], space: str) -> None:
    p = g.me
    space = g._node(space)
    ev.append(g.event("placed", player=p.name, at=space, why=p.status))
    p.status, p.pos, p.away, p.captor, p.free_next = "board", space, 0, None, False
    g.t.start = space
    g.phase = "start"


def gen_place(g: Riddle) -> Iterator[Move]:
    for s in place_targets(g):
        yield Move.of("place", s)


def check_ring(g: Riddle) -> None:
    p = g.me
    if not any(g.deck.type_of[c].id == "the_ring" for c in p.hand):
        raise illegal("no_ring", "you do not hold The Ring")
    if p.status != "board":
        raise illegal("not_on_board", "you cannot win from Limbo or captivity")
    if g.opts["elf_ring_win"] and sum(1 for c in p.hand if g.deck.type_of[c].id == "elf_ring") >= 3:
        return
    goal = g.info.roles[GOAL[p.kind]]
    where = "the Cracks of Doom" if p.kind == "hobbit" else "Barad-Dur"
    if p.pos != goal:
        raise illegal("not_on_goal", f"show The Ring while on {where}")
    if not (p.goal_wait or g.opts["no_wait"] or (g.opts["wait_once"] and p.goal_seen)):
        raise illegal(
            "must_wait",
            f"you must first end a turn on {where}; you win on your next turn there",
        )


def apply_ring(g: Riddle, ev: list[dict[str, Any]]) -> None:
    win_game(g, g.me, ev, "the_ring")


def can_end(g: Riddle) -> None:
    p = g.me
    if p.status != "board":
        return
    if not g.t.moved and travel.has_any_move(g):
        raise illegal("must_move", "you must move at least 1 space per turn")
    if g.t.moved and p.pos == g.t.start and travel.has_any_move(g):
        # a move back here is legal only while a move on remains; should a Power
        # Play since have cost the player his means of moving, he may end here
        raise illegal("same_space", "you may not begin and end a turn on the same space")


def check_pickup(g: Riddle, what: str) -> None:
    can_end(g)
    p = g.me
    if what == "city":
        city = g._city_of(p.pos)
        if city is None:
            raise illegal("not_on_city", f"{p.pos} is not a city")
        if p.pos is None or not turn.may_pick_up(p.pos, p.cities):
            raise illegal(
                "city_used",
                f"pick up cards from at least 2 other cities before using {p.pos} again",
                space=p.pos,
            )
    else:
        g._usable(p, what, "pickup")


def apply_pickup(g: Riddle, ev: list[dict[str, Any]], what: str) -> None:
    p = g.me
    if what == "city":
        n = 3
        big = g._majority_kind() if g.opts["partners"] else None
        if big == p.kind:
            n = 2
        assert p.pos is not None
        p.cities = (p.cities + [p.pos])[-2:]  # the last two tell turn.may_pick_up enough
    else:
        u = g.ctype(what).use("pickup")
        g._after(p, what, "discard")
        n = int(u["n"])
    got = g._draw_cards(n)
    p.hand.extend(got)
    ev.append(told(g, "pickup", [p.name], {"got": got}, player=p.name, by=what, count=len(got)))
    g.t.must_discard = turn.discards_at_end_of_turn(len(p.hand), picked_up=bool(got))
    finish_turn(g, ev)


def check_pass(g: Riddle) -> None:
    if g.phase == "main":
        can_end(g)


def apply_pass(g: Riddle, ev: list[dict[str, Any]]) -> None:
    p = g.me
    if g.phase == "limbo_rolled":
        got = g._draw_cards(1)
        p.hand.extend(got)
        ev.append(
            told(g, "pickup", [p.name], {"got": got}, player=p.name, by="limbo", count=len(got))
        )
    else:
        ev.append(g.event("pass", player=p.name))
    finish_turn(g, ev)


def finish_turn(g: Riddle, ev: list[dict[str, Any]]) -> None:
    if not g.t.must_discard:
        g.t.must_discard = turn.discards_at_end_of_turn(len(g.me.hand), picked_up=False)
    if g.t.must_discard:
        g.phase = "discard"
    else:
        end_turn(g, ev)


def check_discard(g: Riddle, card: str) -> None:
    g._in_hand(g.me, card)


def apply_discard(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    p = g.me
    p.hand.remove(card)
    g.discard_pile.append(card)
    ev.append(g.event("discard", player=p.name, card=card))
    g.t.must_discard -= 1
    if not g.t.must_discard:
        end_turn(g, ev)


def gen_discard(g: Riddle) -> Iterator[Move]:
    seen = set()
    for c in sorted(g.me.hand):
        tid = g.deck.type_of[c].id
        if tid not in seen:
            seen.add(tid)
            yield Move.of("discard", c)


def send_away(
    g: Riddle, ev: list[dict[str, Any]], q: Player, status: Literal["limbo", "captive"]
) -> None:
    """Send ``q`` to Limbo or into captivity of the player on turn (with his prisoners)."""
    p = g.me
    g.discard_pile.extend(q.table)
    q.table.clear()
    q.goal_wait = False
    q.status, q.away, q.free_next = status, 0, False
    q.captor = p.name if status == "captive" else None
    q.pos = p.pos if status == "captive" else None
    ev.append(g.event("limbo" if status == "limbo" else "captive", player=q.name, by=p.name))
    for r in g.seats:
        if r.status == "captive" and r.captor == q.name:
            r.status, r.free_next = status, True
            r.captor = q.captor
            r.pos = q.pos
            ev.append(g.event("prisoner_follows", player=r.name, with_=q.name))
    if status == "limbo" and g.opts["limbo_out"] and sum(1 for r in g.seats if not r.out) >= 6:
        q.out = True
        q.pos = None
        for c in list(q.hand):
            q.hand.remove(c)
            if g.deck.type_of[c].id == "the_ring":
                p.hand.append(c)
            else:
                g.discard_pile.append(c)
        ev.append(g.event("out_of_game", player=q.name, why="Variation 10"))
