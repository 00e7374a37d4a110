"""Riddle of the Ring, Secret Spots (Recommended Game, "S" spaces): hiding,
retrieving and finding cards, and seeing hidden cards with a Wizard (a Power Play)."""

from __future__ import annotations

from typing import Any

from . import power_plays
from .common import illegal
from .events import told
from .protocol import Riddle


def check_peek(g: Riddle, card: str, space: str) -> None:
    if not g.opts["secret_spots"]:
        raise illegal("option_off", "S spaces are used only in the Recommended Game")
    power_plays.power_play(g)
    g._usable(g.me, card, "see_hidden")
    if not any(g.hidden.get(space, {}).values()):
        raise illegal("nothing_hidden", f"no cards are hidden at {space}", space=space)


def apply_peek(g: Riddle, ev: list[dict[str, Any]], card: str, space: str) -> None:
    g.t.pp += 1
    seen = {n: sorted(c) for n, c in g.hidden[space].items() if c}
    g._reveal(g.me, f"hidden:{space}", [f"{n}:{c}" for n, cs in seen.items() for c in cs], card)
    ev.append(told(g, "peek", [g.me.name], {"seen": seen}, player=g.me.name, space=space))


def on_s(g: Riddle) -> str:
    p = g.me
    if not g.opts["secret_spots"]:
        raise illegal("option_off", "S spaces are used only in the Recommended Game")
    if p.pos is None or p.status != "board" or "S" not in g.info.letters.get(p.pos, ()):
        raise illegal("not_on_s_space", "you are not stopped on an S space")
    return p.pos


def check_hide(g: Riddle, card: str) -> None:
    on_s(g)
    g._in_hand(g.me, card)
    if g.t.hid >= 4:
        raise illegal("hid_four", "you may hide 1 to 4 cards per turn")


def apply_hide(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    s = on_s(g)
    g.me.hand.remove(card)
    g.hidden.setdefault(s, {}).setdefault(g.me.name, []).append(card)
    g.t.hid += 1
    ev.append(told(g, "hide", [g.me.name], {"hid": card}, player=g.me.name, space=s))


def check_retrieve(g: Riddle, card: str) -> None:
    s = on_s(g)
    if card not in g.hidden.get(s, {}).get(g.me.name, []):
        raise illegal("not_hidden", f"you have not hidden {card} here", card=card)
    if g.t.hid:
        raise illegal(
            "hid_this_turn", "you may not hide cards and then retrieve them in the same turn"
        )


def apply_retrieve(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    s = on_s(g)
    lst = g.hidden[s][g.me.name]
    lst.remove(card)
    if not lst:
        del g.hidden[s][g.me.name]
    if not g.hidden[s]:
        del g.hidden[s]
    g.me.hand.append(card)
    ev.append(told(g, "retrieve", [g.me.name], {"got": card}, player=g.me.name, space=s))


def check_find(g: Riddle, name: str) -> None:
    s = on_s(g)
    if name == g.me.name or not g.hidden.get(s, {}).get(name):
        raise illegal("nothing_hidden", f"{name} has no cards hidden here", player=name)
    if g.t.found:
        raise illegal("once_per_turn", "you find 1 hidden card per turn")


def apply_find(g: Riddle, ev: list[dict[str, Any]], name: str) -> None:
    s = on_s(g)
    lst = g.hidden[s][name]
    c = lst.pop(g.blind_draw(lst, f"the cards {name} hid on {s}"))
    if not lst:
        del g.hidden[s][name]
    if not g.hidden[s]:
        del g.hidden[s]
    g.me.hand.append(c)
    g.t.found = True
    ev.append(told(g, "find", [g.me.name], {"got": c}, player=g.me.name, space=s, from_=name))
