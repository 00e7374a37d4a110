"""Riddle of the Ring, what players see: per-player views (own hand, partners'
hands with table talk / Variation 4, what was seen), private event parts, the state
invariants and the card census."""

from __future__ import annotations

from typing import Any

from .. import state as declared
from ..cards import faces
from . import exchanges, turn
from .common import SIDE
from .protocol import Riddle


def view(g: Riddle, player: str | None = None) -> dict[str, Any]:
    """What ``player`` may see (``None``: what every onlooker sees).

    Shows positions, hand sizes, table cards, the cities each player last picked up
    at, what the turn has done so far (``this_turn``), the top of the discard stack
    and the battle on the table to everybody; a player's own hand, his hidden cards and
    what he has seen by clairvoyance or in battle only to him (and, with table
    talk or Variation 4, to his partners).
    """
    if g.opts["enhanced_two"] and player in ("hobbits", "riders"):
        # Variation 14: a side sees only the hand of the character it is using now
        acting = g._by[g.acting] if g.phase != "character" else None
        player = acting.name if acting is not None and SIDE[acting.kind] == player else None
    elif player is not None:
        g.player(player)
    me = g._by.get(player) if player else None
    partners: set[str] = set()
    if me is not None and g.opts["partners"]:
        mates = [q for q in g.seats if q.kind == me.kind and q is not me]
        if g.opts["table_talk"]:
            partners = {q.name for q in mates}
        elif g.opts["partner_clairvoyance"] and me.pos and "C" in g.info.letters.get(me.pos, ()):
            partners = {
                q.name
                for q in mates
                if q.pos and q.status == "board" and "C" in g.info.letters.get(q.pos, ())
            }
    players = []
    for q in g.seats:
        d: dict[str, Any] = {
            "name": q.name,
            "kind": q.kind,
            "pos": q.pos,
            "status": "out" if q.out else q.status,
            "hand_count": len(q.hand),
            "table": sorted(q.table),
            "captor": q.captor,
            "away_turns": q.away,
            "waiting_on_goal": q.goal_wait,
            "picked_up_at": list(q.cities),
            "hidden_counts": {
                s: len(h[q.name]) for s, h in sorted(g.hidden.items()) if q.name in h
            },
        }
        if me is not None and (q is me or q.name in partners):
            d["hand"] = sorted(q.hand)
        players.append(d)
    out: dict[str, Any] = {
        "rules": g.rules,
        "viewer": player,
        "turn": g.turn_no,
        "round": g.round_no,
        "on_turn": g.me.name,
        "to_move": g.to_move if g.result is None else None,
        "phase": g.phase,
        "roll": g.t.roll or None,
        "power_plays": g.t.pp,
        "exchanges_due": list(g.t.pending),
        "this_turn": {
            "die_used": g.t.die_used,
            "stopped": g.t.stopped,
            "moved": g.t.moved,
            "start": g.t.start,
            "exchanged": list(g.t.exchanged),
            "battled": list(g.t.battled),
            "hid": g.t.hid,
            "found": g.t.found,
            "interrogated": list(g.t.interrogated),
            "must_discard": g.t.must_discard,
        },
        "players": players,
        "draw_count": len(g.draw_pile),
        "discard_count": len(g.discard_pile),
        "discard_top": g.discard_pile[-1] if g.discard_pile else None,
        "options": {k: v for k, v in g.opts.items() if v},
        "outcome": None if g.result is None else g.result.to_json(),
    }
    if g.sub is not None and g.sub.get("kind") == "battle" and "defender" in g.sub:
        out["battle"] = {
            "attacker": g.me.name,
            "defender": g.sub["defender"],
            "attacker_forces": list(g.sub["att"]) + [f"city:{c}" for c in g.sub["att_cities"]],
            "defender_forces": list(g.sub["dfn"]) + [f"city:{c}" for c in g.sub["def_cities"]],
            "total": g.sub["total"],
            "to_match": g.sub["need"],
        }
    shown = [c for q in players for c in (*q["table"], *q.get("hand", ()))]
    if g.discard_pile:
        shown.append(g.discard_pile[-1])
    if me is not None:
        out["hand"] = sorted(me.hand)
        shown += out["hand"]
        out["hidden"] = {s: sorted(h[me.name]) for s, h in sorted(g.hidden.items()) if me.name in h}
        out["seen"] = [declared.encode(s) for s in g.seen.get(me.name, [])]
        if g.phase == "choose" and me is g.me and g.sub is not None:
            out["choosing_from"] = sorted(g._by[g.sub["target"]].hand)
        if (
            g.phase == "pexchange"
            and g.sub is not None
            and g.sub["mode"] == "c"
            and g.sub["turn"] == me.name
        ):
            out["choosing_from"] = sorted(exchanges.pex(g)[2].hand)
        if (
            g.phase == "pexchange"
            and g.sub is not None
            and g.sub["mode"] == "b"
            and me.name in (g.me.name, g.sub["with"])
        ):
            # Variation 2b: the two partners know the titles asked and the answers
            out["requests"] = {
                "asked": dict(g.sub["asks"]),
                "answers": dict(g.sub["answers"]),
            }
        shown += out.get("choosing_from", [])
    out["cards"] = faces(shown, lambda c: g.deck.type_of[c].face() if c in g.deck.type_of else None)
    return out


def invariants(g: Riddle) -> list[str]:
    """Broken invariants (empty when all hold): each of the deck's cards exactly once;
    nobody but the player on turn over 10 cards (wrong-Riddle gains aside); markers
    where their status says; no Friendly Exchange due with or by a player who holds no
    cards; at most 2 Power Plays."""
    bad = []
    cards = all_cards(g)
    if sorted(cards) != sorted(g.deck.instances):
        bad.append(
            f"cards: {len(cards)} accounted for, {len(set(cards))} different, "
            f"deck has {len(g.deck.instances)}"
        )
    for i, q in enumerate(g.seats):
        if i != g.cur and turn.over_hand_limit(len(q.hand), q.riddle_extra):
            bad.append(f"{q.name} holds {len(q.hand)} cards after his turn")
        if q.out:
            continue
        if q.status == "board" and q.pos is None:
            bad.append(f"{q.name} is on the board nowhere")
        if q.status == "limbo" and q.pos is not None:
            bad.append(f"{q.name} is in Limbo but on {q.pos}")
        if q.status == "captive":
            cap = g._by.get(q.captor or "")
            if cap is None or cap.pos != q.pos:
                bad.append(f"{q.name} is a captive away from his captor")
    if g.t.pending and not g.me.hand:
        bad.append(f"{g.me.name} holds no cards, so no Friendly Exchange is due")
    for n in g.t.pending:
        if n in g._by and not g._by[n].hand:
            bad.append(f"{n} holds no cards, so no Friendly Exchange with him is due")
    if g.t.pp > 2:
        bad.append(f"{g.t.pp} Power Plays this turn")
    return bad


def all_cards(g: Riddle) -> list[str]:
    """Every card instance wherever it is (for the 80-card invariant)."""
    out = list(g.draw_pile) + list(g.discard_pile)
    for q in g.seats:
        out += q.hand + q.table
    for h in g.hidden.values():
        for cs in h.values():
            out += cs
    if g.sub is not None and g.sub.get("kind") == "battle" and "att" in g.sub:
        out += list(g.sub["att"]) + list(g.sub["dfn"])
    return out
