"""Riddle of the Ring, Power Plays other than battles: clairvoyance (Wizards, Elf
Rings, Palantirs, C spaces; resisting, Variation 4 sharing), Riddles, Gollum, drawing
with a Hobbit/Black Rider card, giving a player his own card and taking one of his."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..names import suggest
from . import flow, turn
from .common import illegal
from .events import told
from .moves import Move
from .protocol import Riddle
from .state import Player


def power_play(g: Riddle) -> None:
    if g.t.pp >= 2:
        raise illegal("power_plays_used", "you have had your 2 Power Plays this turn")


def target_player(g: Riddle, name: str, *, other_team: bool = False) -> Player:
    q = g.player(name)
    if q is g.me:
        raise illegal("self_target", "you cannot do this with yourself")
    if not g._reachable(q):
        raise illegal(
            "out_of_reach",
            f"{name} is in {q.status if not q.out else 'no game'}: no activities with him",
            player=name,
        )
    if other_team and g._team(g.me, q):
        raise illegal("partner", f"{name} is your partner", player=name)
    return q


def check_look(g: Riddle, card: str, name: str) -> None:
    power_play(g)
    u = g._usable(g.me, card, "clairvoyance")
    q = target_player(g, name)
    reach = u.get("reach", "any")
    if reach == "beside" and not g._near(g.me.pos, q.pos):
        raise illegal(
            "too_far",
            f"{g.ctype(card).name} sees only a player on or beside you",
            player=name,
        )
    if reach == "city" and (q.pos is None or g._city_of(q.pos) is None):
        raise illegal(
            "not_on_city", f"{g.ctype(card).name} sees only a player on a city", player=name
        )


def resist_cards(g: Riddle, q: Player) -> list[str]:
    return sorted(c for c in q.hand if g.deck.type_of[c].id in ("the_ring", q.name))


def apply_look(g: Riddle, ev: list[dict[str, Any]], card: str, name: str) -> None:
    u = g.ctype(card).use("clairvoyance")
    g.t.pp += 1
    g._after(g.me, card, u.get("after", "discard"))
    see_hand(g, ev, g._by[name], bool(u.get("resistible")), card)


def see_hand(g: Riddle, ev: list[dict[str, Any]], q: Player, resistible: bool, how: str) -> None:
    ev.append(g.event("clairvoyance", player=g.me.name, target=q.name, by=how))
    if share_cards(g, q, how) or (resistible and resist_cards(g, q)):
        g.sub = {"kind": "look", "target": q.name, "by": how}
        g.phase = "resist"
        return
    s = g._reveal(g.me, q.name, q.hand, how)
    ev.append(told(g, "seen", [g.me.name], {"seen": s}, player=g.me.name, target=q.name))


def check_clair(g: Riddle, name: str) -> None:
    if not g.opts["clairvoyance_spots"]:
        raise illegal("option_off", "C spaces are used only in the Recommended Game")
    power_play(g)
    p = g.me
    if p.pos is None or "C" not in g.info.letters.get(p.pos, ()):
        raise illegal("not_on_c_space", "you are not stopped on a C space")
    q = target_player(g, name)
    if q.name not in c_space_sees(g):
        raise illegal("too_far", f"{name} is not within 6 spaces of your C space", player=name)


def c_space_sees(g: Riddle) -> list[str]:
    """The players the player on turn, stopped on a C space, sees (within 6 spaces)."""
    p = g.me
    assert p.pos is not None
    positions = {q.name: q.pos if q.status == "board" and not q.out else None for q in g.seats}
    return turn.c_space_sees(g.mv, p.pos, positions, viewer=p.name)


def apply_clair(g: Riddle, ev: list[dict[str, Any]], name: str) -> None:
    g.t.pp += 1
    see_hand(g, ev, g._by[name], bool(g.opts["resist_c"]), "c_space")


def share_cards(g: Riddle, q: Player, how: str | None = None) -> list[str]:
    """Variation 4: a partner seen with an Elf Ring or Palantir may show his own."""
    if not (g.opts["partner_clairvoyance"] and g.opts["partners"] and g._team(g.me, q)):
        return []
    how = how if how is not None else str((g.sub or {}).get("by", ""))
    t = g.deck.type_of.get(how)
    if t is None or t.id not in ("elf_ring", "palantir"):
        return []
    return sorted(c for c in q.hand if g.deck.type_of[c].id in ("elf_ring", "palantir"))


def check_share(g: Riddle, card: str) -> None:
    q = g._by[g.sub["target"]]  # type: ignore[index]
    if card not in share_cards(g, q):
        raise illegal(
            "cannot_share",
            "Variation 4: show an Elf Ring or Palantir of your own to your partner",
            card=card,
        )


def apply_share(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    q = g._by[g.sub["target"]]  # type: ignore[index]
    a = g._reveal(g.me, q.name, q.hand, "partners")
    b = g._reveal(q, g.me.name, g.me.hand, "partners")
    ev.append(
        told(
            g,
            "partners_share",
            [g.me.name, q.name],
            {"seen": [a, b]},
            player=g.me.name,
            with_=q.name,
            shown=card,
        )
    )
    g.sub = None
    g.phase = "main"


def check_resist(g: Riddle, card: str) -> None:
    q = g._by[g.sub["target"]]  # type: ignore[index]
    if card not in resist_cards(g, q):
        raise illegal(
            "cannot_resist", "resist only with The Ring or your own character card", card=card
        )


def apply_resist(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    q = g._by[g.sub["target"]]  # type: ignore[index]
    g._reveal(g.me, q.name, [card], "resisted")
    ev.append(
        told(
            g,
            "resisted",
            [g.me.name, q.name],
            {"showed": card},
            player=g.me.name,
            target=q.name,
        )
    )
    g.sub = None
    g.phase = "main"


def check_show(g: Riddle) -> None:
    return None


def apply_show(g: Riddle, ev: list[dict[str, Any]]) -> None:
    q = g._by[g.sub["target"]]  # type: ignore[index]
    s = g._reveal(g.me, q.name, q.hand, str(g.sub["by"]))  # type: ignore[index]
    ev.append(told(g, "seen", [g.me.name], {"seen": s}, player=g.me.name, target=q.name))
    g.sub = None
    g.phase = "main"


def gen_resist(g: Riddle) -> Iterator[Move]:
    q = g._by[g.sub["target"]]  # type: ignore[index]
    for c in resist_cards(g, q):
        yield Move.of("resist", c)
    for c in share_cards(g, q):
        yield Move.of("share", c)
    yield Move.of("show")


def check_riddle(g: Riddle, card: str, name: str, title: str) -> None:
    power_play(g)
    g._usable(g.me, card, "riddle")
    if len(g.me.hand) < 2:
        raise illegal(
            "riddle_alone",
            "if the only card in your hand is a Riddle card, do "
            "not use it: you must have 1 other card to lose",
        )
    q = target_player(g, name, other_team=True)
    if not q.hand:
        raise illegal("empty_hand", f"{name} has no cards", player=name)
    check_title(g, title)


def check_title(g: Riddle, title: str) -> None:
    """Refuse a guess word that names no title (:meth:`.cards.Deck.title_word`),
    with the nearest title word."""
    if g.deck.title_word(title) is None:
        raise illegal(
            "unknown_title",
            f"no card is titled {title!r}{suggest(title, sorted(g.deck.titles))} (a "
            "title is written as card ids are, spaces as _: the_ring, mouth_of_sauron; "
            "a card's id names its title too)",
            title=title,
        )


def title_of(g: Riddle, word: str) -> str:
    """The title a checked guess ``word`` names, as moves and events write it."""
    return g.deck.title_word(word) or word


def apply_riddle(g: Riddle, ev: list[dict[str, Any]], card: str, name: str, title: str) -> None:
    g.t.pp += 1
    g._after(g.me, card, "discard")
    make_guess(g, ev, g._by[name], title_of(g, title), card)


def make_guess(g: Riddle, ev: list[dict[str, Any]], q: Player, title: str, how: str) -> None:
    p = g.me
    i = g.blind_draw(q.hand, f"{q.name}'s hand")
    c = q.hand[i]
    if g.deck.type_of[c].title == title:
        q.hand.pop(i)
        p.hand.append(c)
        ev.append(
            g.event("riddle", player=p.name, target=q.name, guess=title, right=True, card=c, by=how)
        )
        if q.hand:
            g.sub = {"kind": "riddle", "target": q.name, "by": how}
            g.phase = "riddle"
            return
    else:
        lost = g._take_random(p, q)
        if lost is not None:
            q.riddle_extra += 1
        ev.append(
            told(
                g,
                "riddle",
                [p.name, q.name],
                {"lost": lost},
                player=p.name,
                target=q.name,
                guess=title,
                right=False,
                by=how,
            )
        )
    g.sub = None
    g.phase = "main"


def check_guess(g: Riddle, title: str) -> None:
    check_title(g, title)


def apply_guess(g: Riddle, ev: list[dict[str, Any]], title: str) -> None:
    sub = g.sub or {}
    make_guess(g, ev, g._by[sub["target"]], title_of(g, title), sub["by"])


def check_stop(g: Riddle) -> None:
    return None


def apply_stop(g: Riddle, ev: list[dict[str, Any]]) -> None:
    ev.append(g.event("riddle_over", player=g.me.name))
    g.sub = None
    g.phase = "main"


def gen_riddle(g: Riddle) -> Iterator[Move]:
    for t in sorted(g.deck.titles):
        yield Move.of("guess", t)
    yield Move.of("stop")


def check_gollum(g: Riddle, card: str, name: str) -> None:
    power_play(g)
    g._usable(g.me, card, "gollum")
    if g.opts["gollum_spots"] and (g.me.pos is None or "G" not in g.info.letters.get(g.me.pos, ())):
        raise illegal("not_on_g_space", "Gollum is used only from a G space (Recommended Game)")
    target_player(g, name)


def apply_gollum(g: Riddle, ev: list[dict[str, Any]], card: str, name: str) -> None:
    g.t.pp += 1
    g._after(g.me, card, "discard")
    q = g._by[name]
    ring = next((c for c in q.hand if g.deck.type_of[c].id == "the_ring"), None)
    if ring is not None:
        q.hand.remove(ring)
        g.me.hand.append(ring)
    ev.append(g.event("gollum", player=g.me.name, target=name, got_ring=ring is not None))


def check_draw(g: Riddle, card: str, name: str) -> None:
    power_play(g)
    g._usable(g.me, card, "draw")
    q = target_player(g, name)
    if g.opts["restrict_draws"] and g.ctype(card).player_kind != q.kind:
        raise illegal(
            "restricted_draw",
            "Variation 13: draw from a Hobbit only with a "
            "Hobbit card, from a Black Rider only with a Black Rider card",
        )
    if not q.hand:
        raise illegal("empty_hand", f"{name} has no cards", player=name)


def apply_draw(g: Riddle, ev: list[dict[str, Any]], card: str, name: str) -> None:
    g.t.pp += 1
    g._after(g.me, card, "discard")
    got = g._take_random(g._by[name], g.me)
    ev.append(
        told(
            g,
            "draw",
            [g.me.name, name],
            {"card": got},
            player=g.me.name,
            target=name,
            by=card,
        )
    )


def check_give(g: Riddle, card: str) -> None:
    power_play(g)
    g._usable(g.me, card, "give_take")
    owner = g.ctype(card).id
    if owner == g.me.name:
        raise illegal("own_card", "you cannot give yourself your own card")
    if owner not in g._by:
        raise illegal("not_playing", f"{g.ctype(card).name} is not in the game")
    target_player(g, owner)


def apply_give(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    g.t.pp += 1
    q = g._by[g.ctype(card).id]
    g.me.hand.remove(card)
    q.hand.append(card)
    s = g._reveal(g.me, q.name, q.hand, card)
    ev.append(told(g, "give", [g.me.name], {"seen": s}, player=g.me.name, target=q.name, card=card))
    if len(q.hand) > 1:
        g.sub = {"kind": "give", "target": q.name, "exclude": card}
        g.phase = "choose"


def check_take(g: Riddle, card: str) -> None:
    sub = g.sub or {}
    q = g._by[sub["target"]]
    if card not in q.hand or card == sub.get("exclude"):
        raise illegal("not_in_hand", f"{q.name} has no {card} you may take", card=card)


def apply_take(g: Riddle, ev: list[dict[str, Any]], card: str) -> None:
    sub = g.sub or {}
    q = g._by[sub["target"]]
    q.hand.remove(card)
    g.me.hand.append(card)
    ev.append(g.event("take", player=g.me.name, target=q.name, card=card))
    g.sub = None
    g.phase = "main"
    if sub["kind"] == "battle":
        flow.send_away(g, ev, q, "limbo")


def gen_choose(g: Riddle) -> Iterator[Move]:
    sub = g.sub or {}
    q = g._by[sub["target"]]
    seen = set()
    for c in sorted(q.hand):
        tid = g.deck.type_of[c].id
        if c != sub.get("exclude") and tid not in seen:
            seen.add(tid)
            yield Move.of("take", c)
    if sub.get("kind") == "battle" and g.opts["captivity"]:
        yield Move.of("capture")
