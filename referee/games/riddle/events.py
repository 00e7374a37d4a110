"""Riddle of the Ring events: the texts of the kit's event constructor
(:meth:`~referee.games.base.Game.event`, :mod:`referee.games.events`).

The rules modules build every event with ``g.event(type, **fields)``, the text
filled from :data:`EVENTS` (``RiddleGame.EVENTS``). What only some players may know
(the cards of an exchange, a hand seen, the cards picked up) goes into the event's
own fields with the kit's ``private`` audience, and everybody else sees the
``public`` stand-in without those fields (:func:`told`). Every secret here is
something each player of its audience knows anyway (both sides of an exchange, the
card a draw or a wrong Riddle moved).
"""

from __future__ import annotations

from typing import Any

from ..events import Event
from .protocol import Riddle

#: event type -> its text (a template over the event's fields, see the kit's ``EVENTS``)
EVENTS: dict[str, str] = {
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


def told(g: Riddle, name: str, audience: list[str], secret: dict[str, Any], **fields: Any) -> Event:
    """The kit's event ``name`` (:meth:`~referee.games.base.Game.event`) that the players
    of ``audience`` see whole, with the fields of ``secret``, and everybody else as its
    ``public`` stand-in, the same event without them (the kit's one ``private``
    convention: each secret is something every player of the audience knows)."""
    return g.event(name, private=audience, public=g.event(name, **fields), **fields, **secret)
