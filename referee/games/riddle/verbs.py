"""Riddle of the Ring: the explicit verb table (verb -> its check and its effect) and
the phase tables (phase -> the verbs possible in it, which the kit checks, and
phase -> the generator of its legal moves), with the listing of the main phase of a
turn.

Every move text's verb (:mod:`.moves`) has one :class:`Verb` here; the game dispatches
through :data:`VERBS` and :data:`GENERATORS`, never by name reflection.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from . import battles, exchanges, flow, power_plays, secret_spots, travel, turn
from .moves import ARITY, Move
from .protocol import Riddle


@dataclass(frozen=True)
class Verb:
    """One verb: ``check(game, *args)`` raises :class:`IllegalMoveError` (pure);
    ``apply(game, events, *args)`` makes the checked move."""

    check: Callable[..., None]
    apply: Callable[..., None]


#: verb -> its rule (every verb of :data:`.moves.ARITY`)
VERBS: dict[str, Verb] = {
    "use": Verb(flow.check_use, flow.apply_use),
    "bring": Verb(flow.check_bring, flow.apply_bring),
    "roll": Verb(flow.check_roll, flow.apply_roll),
    "reroll": Verb(flow.check_reroll, flow.apply_reroll),
    "escape": Verb(flow.check_escape, flow.apply_escape),
    "place": Verb(flow.check_place, flow.apply_place),
    "ring": Verb(flow.check_ring, flow.apply_ring),
    "pickup": Verb(flow.check_pickup, flow.apply_pickup),
    "pass": Verb(flow.check_pass, flow.apply_pass),
    "discard": Verb(flow.check_discard, flow.apply_discard),
    "move": Verb(travel.check_move, travel.apply_move),
    "ride": Verb(travel.check_ride, travel.apply_ride),
    "fly": Verb(travel.check_fly, travel.apply_fly),
    "hop": Verb(travel.check_hop, travel.apply_hop),
    "exchange": Verb(exchanges.check_exchange, exchanges.apply_exchange),
    "offer": Verb(exchanges.check_offer, exchanges.apply_offer),
    "pick": Verb(exchanges.check_pick, exchanges.apply_pick),
    "ask": Verb(exchanges.check_ask, exchanges.apply_ask),
    "noask": Verb(exchanges.check_noask, exchanges.apply_noask),
    "grant": Verb(exchanges.check_grant, exchanges.apply_grant),
    "decline": Verb(exchanges.check_decline, exchanges.apply_decline),
    "look": Verb(power_plays.check_look, power_plays.apply_look),
    "clair": Verb(power_plays.check_clair, power_plays.apply_clair),
    "share": Verb(power_plays.check_share, power_plays.apply_share),
    "resist": Verb(power_plays.check_resist, power_plays.apply_resist),
    "show": Verb(power_plays.check_show, power_plays.apply_show),
    "riddle": Verb(power_plays.check_riddle, power_plays.apply_riddle),
    "guess": Verb(power_plays.check_guess, power_plays.apply_guess),
    "stop": Verb(power_plays.check_stop, power_plays.apply_stop),
    "gollum": Verb(power_plays.check_gollum, power_plays.apply_gollum),
    "draw": Verb(power_plays.check_draw, power_plays.apply_draw),
    "give": Verb(power_plays.check_give, power_plays.apply_give),
    "take": Verb(power_plays.check_take, power_plays.apply_take),
    "interrogate": Verb(battles.check_interrogate, battles.apply_interrogate),
    "capture": Verb(battles.check_capture, battles.apply_capture),
    "release": Verb(battles.check_release, battles.apply_release),
    "battle": Verb(battles.check_battle, battles.apply_battle),
    "commit": Verb(battles.check_commit, battles.apply_commit),
    "settle": Verb(battles.check_settle, battles.apply_settle),
    "match": Verb(battles.check_match, battles.apply_match),
    "surrender": Verb(battles.check_surrender, battles.apply_surrender),
    "peek": Verb(secret_spots.check_peek, secret_spots.apply_peek),
    "hide": Verb(secret_spots.check_hide, secret_spots.apply_hide),
    "retrieve": Verb(secret_spots.check_retrieve, secret_spots.apply_retrieve),
    "find": Verb(secret_spots.check_find, secret_spots.apply_find),
}


#: phase -> the verbs possible in it (the kit refuses any other verb first,
#: :attr:`referee.games.base.Game.PHASES`)
PHASES: dict[str, frozenset[str]] = {
    "start": frozenset({"roll"}),
    "limbo": frozenset({"roll"}),
    "limbo_rolled": frozenset({"escape", "pass"}),
    "place": frozenset({"place"}),
    "main": frozenset(
        {
            "reroll",
            "move",
            "ride",
            "fly",
            "hop",
            "look",
            "clair",
            "peek",
            "riddle",
            "interrogate",
            "gollum",
            "draw",
            "give",
            "battle",
            "release",
            "hide",
            "retrieve",
            "find",
            "ring",
            "pickup",
            "pass",
        }
    ),
    "exchange": frozenset({"exchange"}),
    "character": frozenset({"use", "bring"}),
    "pexchange": frozenset({"offer", "pick", "ask", "noask", "grant", "decline"}),
    "resist": frozenset({"resist", "show", "share"}),
    "riddle": frozenset({"guess", "stop"}),
    "choose": frozenset({"take", "capture"}),
    "battle_att": frozenset({"commit", "settle"}),
    "battle_def": frozenset({"match", "surrender"}),
    "discard": frozenset({"discard"}),
    "over": frozenset(),
}

#: phase -> the generator of its legal moves
GENERATORS: dict[str, Callable[[Riddle], Iterator[Move]]] = {
    "start": flow.gen_start,
    "limbo": flow.gen_start,
    "limbo_rolled": flow.gen_limbo_rolled,
    "place": flow.gen_place,
    "main": lambda g: gen_main(g),
    "exchange": exchanges.gen_exchange,
    "character": flow.gen_character,
    "pexchange": exchanges.gen_pexchange,
    "resist": power_plays.gen_resist,
    "riddle": power_plays.gen_riddle,
    "choose": power_plays.gen_choose,
    "battle_att": battles.gen_battle_att,
    "battle_def": battles.gen_battle_def,
    "discard": flow.gen_discard,
    "over": flow.gen_over,
}
assert set(PHASES) == set(GENERATORS)

assert set(VERBS) == set(ARITY), sorted(set(VERBS) ^ set(ARITY))


def gen_main(g: Riddle) -> Iterator[Move]:
    p = g.me
    uses = g._hand_uses(p)
    ring = Move.of("ring")
    rings = g.compiled.derived(
        "riddle.ring_cards",
        lambda: frozenset(c for c in g.deck.instances if g.deck.type_of[c].id == "the_ring"),
    )
    if not rings.isdisjoint(p.hand) and g._ok(ring):
        yield ring
    moves = travel.move_list(g)
    yield from moves
    if not g.t.die_used:
        for c in uses.get("reroll", ()):
            yield Move.of("reroll", c)
    others = [q for q in g.seats if q is not p and g._reachable(q)]
    if g.t.pp < 2:
        for c in uses.get("clairvoyance", ()):
            for q in others:
                yield from g._if_ok(Move.of("look", c, q.name))
        if (
            g.opts["clairvoyance_spots"]
            and p.pos is not None
            and "C" in g.info.letters.get(p.pos, ())
        ):
            for name in power_plays.c_space_sees(g):
                yield from g._if_ok(Move.of("clair", name))
        if g.opts["secret_spots"]:
            for c in uses.get("see_hidden", ()):
                for s in sorted(g.hidden):
                    yield from g._if_ok(Move.of("peek", c, s))
        if len(p.hand) >= 2:
            for c in uses.get("riddle", ()):
                for q in others:
                    if q.hand and not g._team(p, q):
                        for t in sorted(g.deck.titles):
                            yield Move.of("riddle", c, q.name, t)
        if not g.opts["gollum_spots"] or (
            p.pos is not None and "G" in g.info.letters.get(p.pos, ())
        ):
            for c in uses.get("gollum", ()):
                for q in others:
                    yield from g._if_ok(Move.of("gollum", c, q.name))
        for c in uses.get("draw", ()):
            for q in others:
                yield from g._if_ok(Move.of("draw", c, q.name))
        for c in uses.get("give_take", ()):
            yield from g._if_ok(Move.of("give", c))
        for n in g.t.exchanged:
            yield from g._if_ok(Move.of("battle", n))
    for q in g.seats:
        if q.status == "captive" and q.captor == p.name:
            if g.opts["captivity"] and q.hand and q.name not in g.t.interrogated:
                for t in sorted(g.deck.titles):
                    yield Move.of("interrogate", q.name, t)
            if not q.free_next:
                yield Move.of("release", q.name)
    if g.opts["secret_spots"] and p.pos is not None and "S" in g.info.letters.get(p.pos, ()):
        if g.t.hid < 4:
            for c in sorted(p.hand):
                yield Move.of("hide", c)
        if not g.t.hid:
            for c in sorted(g.hidden.get(p.pos, {}).get(p.name, [])):
                yield Move.of("retrieve", c)
        if not g.t.found:
            for n in sorted(g.hidden.get(p.pos, {})):
                if n != p.name:
                    yield Move.of("find", n)
    # ending the turn
    can_end = True
    if p.status == "board":
        if (not g.t.moved or p.pos == g.t.start) and moves:
            can_end = False
    if can_end:
        city = g._city_of(p.pos)
        if city is not None and p.pos is not None and turn.may_pick_up(p.pos, p.cities):
            yield Move.of("pickup", "city")
        for c in uses.get("pickup", ()):
            yield Move.of("pickup", c)
        yield Move.of("pass")
