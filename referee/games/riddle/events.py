"""Riddle of the Ring events in the kit's shape (:mod:`referee.games.events`).

The rules modules build an event as a dict of the game's fields with ``"event"``
(its type) and, for what only some players may know, ``"private"``: player ->
what he learns. :func:`emit` turns it into ``{"type", "text", ...}``: the text
comes from :data:`TEXTS`; a private part becomes the field ``secret`` of the whole
event, shown to the players it names (``private`` audience), while everybody else
sees the ``public`` stand-in without it. Every private part here is something each
player it names knows anyway (both sides of an exchange, the card a Riddle or a
draw moved), so showing the whole ``secret`` to each of them reveals nothing more.
"""

from __future__ import annotations

from typing import Any

from ..events import Event

#: event type -> its text (``str.format`` over the event's fields; missing ones empty)
TEXTS: dict[str, str] = {
    "battle": "{player} attacks {defender}",
    "battle_match": "{player} matches with {force} ({points} point(s))",
    "battle_over": "the battle of {attacker} against {defender} ends: {result}",
    "battle_round": "{player} presents {force} ({points} point(s), {total} in all)",
    "bring_in": "the {side} bring in {player}",
    "captive_hidden_cards": "{player} takes the cards {captive} hid here",
    "clairvoyance": "{player} looks at the hand of {target}",
    "deal": "each player is dealt his cards",
    "discard": "{player} discards {card}",
    "draw": "{player} draws a card from {target}",
    "escape": "{player} leaves Limbo or captivity",
    "exchange": "{player} has a Friendly Exchange with {with}",
    "exchanges_due": "{player} must have Friendly Exchanges",
    "find": "{player} finds a card {from} hid at {space}",
    "first_player": "{player} plays first",
    "game_over": "the game is over: {result}",
    "give": "{player} gives {target} his own card",
    "gollum": "{player} sends Gollum after The Ring of {target}",
    "hide": "{player} hides a card at {space}",
    "limbo": "{player} goes to Limbo",
    "captive": "{player} is taken captive by {by}",
    "move": "{player} moves from {from} to {to}",
    "out_of_game": "{player} drops out of the game",
    "partner_exchange": "{player} exchanges with his partner {with}",
    "partners_share": "{player} and {with} show each other their hands",
    "pass": "{player} passes",
    "peek": "{player} sees the cards hidden at {space}",
    "pickup": "{player} picks up {count} card(s)",
    "placed": "{player} is placed on {at}",
    "prisoner_follows": "{player}, prisoner of {with}, follows him",
    "release": "{player} sets {captive} free",
    "request": "{player} asks his partner for a card",
    "request_answer": "{player} answers his partner's request",
    "resisted": "{target} resists the clairvoyance of {player}",
    "retrieve": "{player} takes back a card hidden at {space}",
    "riddle": "{player} riddles {target}",
    "riddle_over": "{player} ends the Riddle",
    "roll": "{player} rolls {die}",
    "seen": "{player} sees the hand of {target}",
    "side_to_choose": "the {side} choose a character",
    "take": "{player} takes a card from {target}",
    "turn": "turn {turn}: {player} to play",
    "turn_over": "{player} ends his turn",
}


class _Fields(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return ""


def make(fields: dict[str, Any]) -> Event:
    """The kit event of ``fields`` (``"event"``: the type; ``"private"``: see module).

    The same value as :func:`referee.games.events.event` builds, made in one pass (the
    referee makes a few per move)."""
    kind = str(fields["event"])
    e: Event = {"type": kind, "text": TEXTS.get(kind, kind).format_map(_Fields(fields))}
    secret = None
    for k, v in fields.items():
        if k == "private":
            secret = v
        elif k != "event":
            e[k] = v
    if secret is None:
        return e
    public = dict(e)
    e["secret"] = secret
    e["private"] = list(secret)
    e["public"] = public
    return e


def emit(ev: list[Event], fields: dict[str, Any]) -> Event:
    """Append the kit event of ``fields`` to ``ev`` and return it."""
    e = make(fields)
    ev.append(e)
    return e
