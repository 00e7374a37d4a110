"""Riddle of the Ring, Friendly Exchanges: the obligatory exchange after stopping on
or beside a player, and Variation 2 between partners (2a offer, 2b ask/grant/decline,
2c pick)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import power_plays
from .common import illegal
from .events import told
from .moves import Move
from .protocol import Riddle
from .state import Player

#: Variation 2b: ask for a title; grant it or decline, then select as in 2a
PEXB_STEPS: dict[str, str] = {
    "ask": "ask for a title (ask TITLE) or not (noask)",
    "answer": "answer your partner's request (grant CARD or decline)",
    "offer": "select the card you give (offer CARD)",
}


def check_exchange(g: Riddle, name: str) -> None:
    if name not in g.t.pending:
        raise illegal(
            "no_exchange_due",
            f"no Friendly Exchange with {name} is due (due: {', '.join(g.t.pending) or 'none'})",
            player=name,
        )


def apply_exchange(g: Riddle, ev: list[dict[str, Any]], name: str) -> None:
    p, q = g.me, g._by[name]
    g.t.pending.remove(name)
    mode = g.opts["partner_exchange"]
    # both hold a card: nobody is owed an exchange with a player who holds none
    # (travel.do_move; views.invariants refuses a position that says otherwise)
    if mode != "basic" and g._team(p, q):
        g.sub = {
            "kind": "pexchange",
            "with": name,
            "mode": mode,
            "turn": p.name,
            "gives": {},
        }
        if mode == "b":
            g.sub.update(step="ask", asks={}, answers={})
        g.phase = "pexchange"
        ev.append(g.event("partner_exchange", player=p.name, with_=name, mode=mode))
        return
    a = p.hand.pop(g.blind_draw(p.hand, f"{p.name}'s hand"))
    b = q.hand.pop(g.blind_draw(q.hand, f"{q.name}'s hand"))
    p.hand.append(b)
    q.hand.append(a)
    g.t.exchanged.append(name)
    ev.append(told(g, "exchange", [p.name, name], {"gave": a, "got": b}, player=p.name, with_=name))
    if not g.t.pending:
        g.phase = "main"


def gen_exchange(g: Riddle) -> Iterator[Move]:
    for n in g.t.pending:
        yield Move.of("exchange", n)


def pex(g: Riddle) -> tuple[dict[str, Any], Player, Player]:
    sub = g.sub or {}
    actor = g._by[sub["turn"]]
    other = g._by[sub["with"]] if actor is g.me else g.me
    return sub, actor, other


def check_offer(g: Riddle, card: str) -> None:
    sub, actor, _ = pex(g)
    if sub.get("mode") == "b":
        pexb_expect(g, sub, "offer", "offer")
    elif sub.get("mode") != "a":
        raise illegal("wrong_phase", "offer a card only in Variation 2a/2b exchanges")
    g._in_hand(actor, card)


def pexb_expect(g: Riddle, sub: dict[str, Any], step: str, verb: str) -> None:
    if sub.get("mode") != "b":
        raise illegal(
            "wrong_phase",
            f"{verb!r} only in Variation 2b exchanges (partner_exchange=b between partners)",
        )
    if sub.get("step") != step:
        raise illegal(
            "wrong_phase",
            f"not now in this Variation 2b exchange: {sub['turn']} is to {PEXB_STEPS[sub['step']]}",
            step=sub.get("step"),
            move=verb,
        )


def pexb_step(g: Riddle, sub: dict[str, Any]) -> bool:
    """Set ``sub["turn"]``/``sub["step"]`` to the next decision of a 2b exchange;
    ``False`` when every card to give is chosen."""
    p, q = g.me.name, str(sub["with"])
    asks, answers, gives = sub["asks"], sub["answers"], sub["gives"]
    for r in (p, q):
        if r not in asks:
            sub["turn"], sub["step"] = r, "ask"
            return True
    for giver, receiver in ((p, q), (q, p)):
        if giver not in gives:
            sub["turn"] = giver
            sub["step"] = (
                "answer" if asks[receiver] is not None and giver not in answers else "offer"
            )
            return True
    return False


def check_ask(g: Riddle, title: str) -> None:
    pexb_expect(g, pex(g)[0], "ask", "ask")
    power_plays.check_title(g, title)


def apply_ask(g: Riddle, ev: list[dict[str, Any]], title: str) -> None:
    sub, actor, other = pex(g)
    title = power_plays.title_of(g, title)
    sub["asks"][actor.name] = title
    ev.append(
        told(
            g,
            "request",
            [actor.name, other.name],
            {"title": title},
            player=actor.name,
            with_=other.name,
        )
    )
    pex_next(g, ev)


def check_noask(g: Riddle) -> None:
    pexb_expect(g, pex(g)[0], "ask", "noask")


def apply_noask(g: Riddle, ev: list[dict[str, Any]]) -> None:
    sub, actor, other = pex(g)
    sub["asks"][actor.name] = None
    ev.append(g.event("request", player=actor.name, with_=other.name, none=True))
    pex_next(g, ev)


def check_grant(g: Riddle, card: str) -> None:
    sub, actor, other = pex(g)
    pexb_expect(g, sub, "answer", "grant")
    t = g._in_hand(actor, card)
    title = sub["asks"][other.name]
    if t.title != title:
        raise illegal(
            "not_requested",
            f"{other.name} asked for {title}, and {card} is {t.title}",
            card=card,
            title=title,
        )


def apply_grant(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    sub, actor, other = pex(g)
    sub["answers"][actor.name] = "granted"
    sub["gives"][actor.name] = card
    ev.append(
        told(
            g,
            "request_answer",
            [actor.name, other.name],
            {"card": card},
            player=actor.name,
            with_=other.name,
            answer="granted",
        )
    )
    pex_next(g, ev)


def check_decline(g: Riddle) -> None:
    pexb_expect(g, pex(g)[0], "answer", "decline")


def apply_decline(g: Riddle, ev: list[dict[str, Any]]) -> None:
    sub, actor, other = pex(g)
    sub["answers"][actor.name] = "declined"
    ev.append(g.event("request_answer", player=actor.name, with_=other.name, answer="declined"))
    pex_next(g, ev)


def check_pick(g: Riddle, card: str) -> None:
    sub, _actor, other = pex(g)
    if sub.get("mode") != "c":
        raise illegal("wrong_phase", "pick a card only in Variation 2c exchanges")
    if card not in other.hand:
        raise illegal("not_in_hand", f"{other.name} does not hold {card}", card=card)


def apply_offer(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    sub, actor, _ = pex(g)
    sub["gives"][actor.name] = card
    pex_next(g, ev)


def apply_pick(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    sub, _actor, other = pex(g)
    sub["gives"][other.name] = card
    pex_next(g, ev)


def pex_next(g: Riddle, ev: list[dict[str, Any]]) -> None:
    sub = g.sub
    assert sub is not None
    p, q = g.me, g._by[sub["with"]]
    if sub["mode"] == "b":
        if pexb_step(g, sub):
            return
    elif sub["turn"] == p.name:
        sub["turn"] = q.name
        return
    a, b = sub["gives"][p.name], sub["gives"][q.name]
    p.hand.remove(a)
    q.hand.remove(b)
    p.hand.append(b)
    q.hand.append(a)
    g.t.exchanged.append(q.name)
    ev.append(
        told(
            g,
            "exchange",
            [p.name, q.name],
            {"gave": a, "got": b},
            player=p.name,
            with_=q.name,
            mode=sub["mode"],
        )
    )
    g.sub = None
    g.phase = "exchange" if g.t.pending else "main"


def gen_pexchange(g: Riddle) -> Iterator[Move]:
    sub, actor, other = pex(g)
    if sub["mode"] == "b":
        if sub["step"] == "ask":
            yield Move.of("noask")
            for t in sorted(g.deck.titles):
                yield Move.of("ask", t)
            return
        if sub["step"] == "answer":
            title = sub["asks"][other.name]
            for c in sorted(actor.hand):
                if g.deck.type_of[c].title == title:
                    yield Move.of("grant", c)
            yield Move.of("decline")
            return
    if sub["mode"] in ("a", "b"):
        for c in sorted(actor.hand):
            yield Move.of("offer", c)
    else:
        for c in sorted(other.hand):
            yield Move.of("pick", c)
