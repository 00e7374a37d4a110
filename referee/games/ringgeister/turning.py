"""What happens when a figure comes to rest: missions, cards, storms, turning tiles.

Ruling 7a (the mission check), rulebook 3.1 (turning a card, reshuffling),
ruling 11 (the Great Storm, a Spirit on a black starting point).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..events import Event
    from .protocol import Ringgeister


def mission_check(g: Ringgeister, events: list[Event]) -> None:
    """Ruling 7a: remove a counter whose arrival points hold both its figures + one more."""
    v, occ, light = g.v, g.occ, g.light
    for k, c in enumerate(g.counters):
        if c["removed"] or c["space"] is None:
            continue
        arrival = v.counter_spaces.get(c["space"])
        if not arrival:
            continue
        for i in arrival:  # all of them must hold light figures
            o = occ[i]
            if o < 0 or not light[o]:
                break
        else:
            _complete(g, k, c, arrival, events)


def _complete(
    g: Ringgeister, k: int, c: dict[str, Any], arrival: list[int], events: list[Event]
) -> None:
    """Ruling 7a for one counter whose arrival points all hold light figures."""
    occ, specs = g.occ, g.specs
    on = {specs[occ[i]].id for i in arrival}
    own = {s.id for s in specs if s.coloured and s.colour == c["colour"]}
    if own <= on and len(on) > len(own):
        # replaced, never changed in place: copies share the counters
        g.counters[k] = {**c, "removed": True}
        events.append(
            g.event(
                "counter_removed",
                counter=c["id"],
                space=c["space"],
                colour=c["colour"],
                figures=sorted(on),
            )
        )


def turn_card(g: Ringgeister, events: list[Event]) -> None:
    """Rulebook 3.1: turn the next card face up (reshuffle when the pile is used up)."""
    if not g.pile:
        if not g.discard:
            events.append(g.event("card_kept"))
            return
        g.pile = g.discard
        g.discard = []
        g.rng.shuffle(g.pile)
        events.append(g.event("reshuffled", cards=len(g.pile)))
    g.discard.append(g.face_up)
    g.face_up = g.pile.pop()
    g._bump()
    events.append(
        g.event("card_turned", card=g.card.to_json(), words={"card_text": g._card_text()})
    )
    if g.card.image == "storm":
        storm(g, events)


def storm(g: Ringgeister, events: list[Event]) -> None:
    """Ruling 11: every turnable tile with nobody on it turns a quarter turn clockwise."""
    v = g.v
    occupied = {v.owner[p] for p in g.pos if p >= 0}
    turned = [t for t in v.turnable if t not in occupied]
    skipped = [t for t in v.turnable if t in occupied]
    events.append(
        g.event(
            "storm.skipped" if skipped else "storm",
            tiles=turned,
            skipped=skipped,
            words={"count": len(turned), "stay": len(skipped)},
        )
    )
    for t in turned:
        turn_tile(g, t, "storm", events, refresh=False)
    if turned:
        g.v.show(g.tile_turns)


def turn_tile(
    g: Ringgeister, pid: str, cause: str, events: list[Event], refresh: bool = True
) -> None:
    """Turn tile ``pid`` a quarter turn clockwise; ``refresh`` updates the board view.

    Without ``refresh`` the caller shows the new turns (``g.v.show``) after its last turn.
    The compiled board is turned when the game's :attr:`compiled` is read.
    """
    v = g.v
    new = (g.tile_turns[pid] + 1) % v.turn_count[pid]
    g.tile_turns[pid] = new
    if refresh:
        v.show(g.tile_turns)
    g._bump()
    events.append(
        g.event(
            "tile_turned",
            tile=pid,
            turns=new,
            cause=cause,
        )
    )
