"""Riddle of the Ring, battles and captivity: starting a battle, rounds of forces
(cards and Good/Evil cities), matching, settling, surrendering, the consequences
(Limbo or, Recommended Game, captivity), interrogating and releasing captives."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import flow, power_plays
from .common import illegal
from .events import told
from .moves import Move
from .protocol import Riddle
from .state import Player


def check_interrogate(g: Riddle, name: str, title: str) -> None:
    q = g.player(name)
    if not g.opts["captivity"] or q.status != "captive" or q.captor != g.me.name:
        raise illegal("not_your_captive", f"{name} is not your captive", player=name)
    if name in g.t.interrogated:
        raise illegal("once_per_turn", "you may riddle a captive once per turn")
    if not q.hand:
        raise illegal("empty_hand", f"{name} has no cards", player=name)
    power_plays.check_title(g, title)


def apply_interrogate(g: Riddle, ev: list[dict[str, Any]], name: str, title: str) -> None:
    g.t.interrogated.append(name)
    power_plays.make_guess(g, ev, g._by[name], power_plays.title_of(g, title), "captivity")


def check_capture(g: Riddle) -> None:
    if not g.opts["captivity"] or (g.sub or {}).get("kind") != "battle":
        raise illegal(
            "no_capture",
            "only the winner of a battle may take the loser captive (Recommended Game)",
        )


def apply_capture(g: Riddle, ev: list[dict[str, Any]]) -> None:
    q = g._by[g.sub["target"]]  # type: ignore[index]
    g.sub = None
    g.phase = "main"
    flow.send_away(g, ev, q, "captive")


def check_release(g: Riddle, name: str) -> None:
    q = g.player(name)
    if q.status != "captive" or q.captor != g.me.name:
        raise illegal("not_your_captive", f"{name} is not your captive", player=name)
    if q.free_next:
        raise illegal("already_released", f"{name} is already set free")


def apply_release(g: Riddle, ev: list[dict[str, Any]], name: str) -> None:
    g._by[name].free_next = True
    ev.append(g.event("release", player=g.me.name, captive=name))


def battle_cities(g: Riddle, a: Player, b: Player) -> list[tuple[str, str]]:
    spaces: set[str] = set()
    for x in (a.pos, b.pos):
        if x is not None:
            spaces.add(x)
            spaces |= g._beside(x)
    out = []
    for s in sorted(spaces):
        c = g._city_of(s)
        if c in ("good", "evil"):
            out.append((s, c))
    return out


def att_sides(defender: Player) -> tuple[str, str]:
    return ("evil", "neutral") if defender.kind == "hobbit" else ("good", "neutral")


def def_sides(defender: Player) -> tuple[str, str]:
    return ("good", "neutral") if defender.kind == "hobbit" else ("evil", "neutral")


def check_battle(g: Riddle, name: str) -> None:
    power_plays.power_play(g)
    q = power_plays.target_player(g, name, other_team=True)
    if name not in g.t.exchanged:
        raise illegal(
            "no_exchange",
            f"attack {name} only after landing on or beside him "
            "and having a Friendly Exchange with him",
            player=name,
        )
    if name in g.t.battled:
        raise illegal("battled", f"you may not attack {name} more than once per turn")
    if not g._on_board(q) or not g._near(g.me.pos, q.pos):
        raise illegal("too_far", f"{name} is not on or beside you", player=name)
    forces = gen_forces(g, "commit", g.me, att_sides(q), [], 5, q)
    if not any(not m.args[0].startswith("city:") for m in forces):
        raise illegal(
            "no_battle_card",
            "every Power Play needs at least 1 card from your hand: you hold no card "
            f"to open a battle against {name} with",
            player=name,
        )


def apply_battle(g: Riddle, ev: list[dict[str, Any]], name: str) -> None:
    g.t.pp += 1
    g.t.battled.append(name)
    g.sub = {
        "kind": "battle",
        "defender": name,
        "total": 0,
        "need": 0,
        "att": [],
        "dfn": [],
        "att_cities": [],
        "def_cities": [],
    }
    g.phase = "battle_att"
    ev.append(g.event("battle", player=g.me.name, defender=name))


def force_points(
    g: Riddle,
    who: Player,
    x: str,
    sides: tuple[str, str],
    used: list[str],
    limit: int,
    defender: Player,
    *,
    exact: bool = False,
) -> tuple[int, str | None]:
    """Points of force ``x`` (a card in ``who``'s hand or ``city:SPACE``); with
    ``exact`` the force must bring exactly ``limit`` points (the defender's answer)."""
    if x.startswith("city:"):
        space = x[5:]
        cities = dict(battle_cities(g, g.me, defender))
        if space not in cities:
            raise illegal(
                "no_city",
                f"{space} is not a Good or Evil city on or beside either player",
                space=space,
            )
        if cities[space] not in sides:
            raise illegal(
                "wrong_side", f"{space} is a {cities[space]} city: not your force", space=space
            )
        if space in used:
            raise illegal("city_used", f"you have used {space} in this battle already")
        pts = 1
    else:
        t = g._in_hand(who, x)
        if t.use("battle") is None or t.points < 1:
            raise illegal("no_battle_points", f"{t.name} has no battle points", card=x)
        if t.side not in sides:
            raise illegal(
                "wrong_side",
                f"{t.name} is {t.side}: you fight with {' and '.join(sides)} forces here",
                card=x,
            )
        if t.id == who.name and who is g.me and defender.kind == who.kind:
            raise illegal(
                "own_card",
                "you may not use your own character card to attack one of your own kind",
                card=x,
            )
        pts = t.points
    if pts > limit:
        raise illegal("too_many_points", f"{x} brings {pts} points, more than {limit}", card=x)
    if exact and pts != limit:
        raise illegal(
            "must_match",
            f"{x} brings {pts} point(s): answer a round with one card or one city "
            f"of exactly {limit}",
            card=x,
        )
    return pts, (x[5:] if x.startswith("city:") else None)


def check_commit(g: Riddle, x: str) -> None:
    sub = g.sub or {}
    d = g._by[sub["defender"]]
    if not sub["att"] and x.startswith("city:"):
        raise illegal(
            "card_first",
            "open the battle with a card from your hand: every Power Play needs one",
            space=x[5:],
        )
    force_points(g, g.me, x, att_sides(d), sub["att_cities"], 5 - sub["total"], d)


def apply_commit(g: Riddle, ev: list[dict[str, Any]], x: str) -> None:
    sub = g.sub
    assert sub is not None
    d = g._by[sub["defender"]]
    pts, city = force_points(g, g.me, x, att_sides(d), sub["att_cities"], 5 - sub["total"], d)
    if city:
        sub["att_cities"].append(city)
    else:
        g.me.hand.remove(x)
        sub["att"].append(x)
    sub["total"] += pts
    sub["need"] = pts
    g.phase = "battle_def"
    ev.append(g.event("battle_round", player=g.me.name, force=x, points=pts, total=sub["total"]))


def check_settle(g: Riddle) -> None:
    if not (g.sub or {}).get("att"):
        raise illegal(
            "card_first",
            "settle for a tie only after the defender has matched a round: open the "
            "battle with a card from your hand",
        )


def apply_settle(g: Riddle, ev: list[dict[str, Any]]) -> None:
    end_battle(g, ev, None)


def check_match(g: Riddle, x: str) -> None:
    sub = g.sub or {}
    d = g._by[sub["defender"]]
    force_points(g, d, x, def_sides(d), sub["def_cities"], sub["need"], d, exact=True)


def apply_match(g: Riddle, ev: list[dict[str, Any]], x: str) -> None:
    sub = g.sub
    assert sub is not None
    d = g._by[sub["defender"]]
    pts, city = force_points(g, d, x, def_sides(d), sub["def_cities"], sub["need"], d, exact=True)
    if city:
        sub["def_cities"].append(city)
    else:
        d.hand.remove(x)
        sub["dfn"].append(x)
    sub["need"] -= pts
    ev.append(g.event("battle_match", player=d.name, force=x, points=pts, still=sub["need"]))
    if sub["need"] == 0:
        if sub["total"] >= 5:
            end_battle(g, ev, None)
        else:
            g.phase = "battle_att"


def check_surrender(g: Riddle) -> None:
    return None


def apply_surrender(g: Riddle, ev: list[dict[str, Any]]) -> None:
    end_battle(g, ev, g.me)


def end_battle(g: Riddle, ev: list[dict[str, Any]], winner: Player | None) -> None:
    sub = g.sub
    assert sub is not None
    d = g._by[sub["defender"]]
    for who, cards in ((g.me, sub["att"]), (d, sub["dfn"])):
        for c in cards:
            if g.deck.type_of[c].battle_after == "retain":
                who.hand.append(c)
            else:
                g.discard_pile.append(c)
    ev.append(
        g.event(
            "battle_over",
            attacker=g.me.name,
            defender=d.name,
            result="won" if winner else "tie",
            points=sub["total"],
        )
    )
    g.sub = None
    g.phase = "main"
    if winner is None:
        return
    s = g._reveal(g.me, d.name, d.hand, "battle")
    ev.append(told(g, "seen", [g.me.name], {"seen": s}, player=g.me.name, target=d.name))
    if d.hand or g.opts["captivity"]:
        g.sub = {"kind": "battle", "target": d.name}
        g.phase = "choose"
    else:
        flow.send_away(g, ev, d, "limbo")


def gen_battle_att(g: Riddle) -> Iterator[Move]:
    sub = g.sub or {}
    d = g._by[sub["defender"]]
    opening = not sub["att"]
    for m in gen_forces(g, "commit", g.me, att_sides(d), sub["att_cities"], 5 - sub["total"], d):
        if not (opening and m.args[0].startswith("city:")):
            yield m
    if not opening:
        yield Move.of("settle")


def gen_battle_def(g: Riddle) -> Iterator[Move]:
    sub = g.sub or {}
    d = g._by[sub["defender"]]
    yield from gen_forces(
        g, "match", d, def_sides(d), sub["def_cities"], sub["need"], d, exact=True
    )
    yield Move.of("surrender")


def gen_forces(
    g: Riddle,
    verb: str,
    who: Player,
    sides: tuple[str, str],
    used: list[str],
    limit: int,
    d: Player,
    *,
    exact: bool = False,
) -> Iterator[Move]:
    seen = set()
    low = limit if exact else 1
    for c in sorted(who.hand):
        t = g.deck.type_of[c]
        if t.id in seen or t.use("battle") is None or not low <= t.points <= limit:
            continue
        if t.side not in sides:
            continue
        if t.id == who.name and who is g.me and d.kind == who.kind:
            continue
        seen.add(t.id)
        yield Move.of(verb, c)
    if limit >= 1 and (low <= 1):
        for s, side in battle_cities(g, g.me, d):
            if side in sides and s not in used:
                yield Move.of(verb, f"city:{s}")
