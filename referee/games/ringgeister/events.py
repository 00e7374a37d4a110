"""Ringgeister's event sentences: the game's table of templates (``Game.EVENTS``).

Each entry is a template name — the event's type, or ``type.variant`` where one
type is told in several sentences — and its text, a :meth:`str.format` template
over the event's fields and the ``words`` only the text needs (a figure's name for
people, a point described as ``grey point t3/p2``). The rules build every event
through :meth:`~referee.games.base.Game.event` with a name of this table.
"""

from __future__ import annotations

from typing import Any

#: template name -> sentence (see the module docstring)
EVENTS: dict[str, str] = {
    # set-up and turns
    "card_turned.first": "first card: {card_text}",
    "card_turned": "card turned: {card_text}",
    "card_kept": "no other card to turn",
    "reshuffled": "all cards were turned: {cards} shuffled into a new pile",
    "counter_placed": "{player} places counter {counter} on {space}",
    "turn.begins": "all counters placed: {player} begins",
    "turn": "{player} to move",
    "pass": "{player} passes: neither coloured figure can move",
    # light figures
    "moved": "{name} moves from {from} to {where}",
    "figure_home": "{name} sets out again from white starting point {to} ({chooser}'s choice)",
    "game_won": "{name}, the Ringbearer, reaches the Mountain of Fire and destroys the Ring: "
    "{winner} wins",
    "nothing_happens": "Gandalf stops on magic point {point}: nothing happens",
    "counter_removed": "mission complete: counter {counter} leaves {space}",
    # wind and black figures
    "wind": "wind from {point} towards {towards} wakes {name} on {at}",
    "wind.gollum": "wind from {point} towards {towards} meets no black figure: Gollum plays",
    "wind.nobody": "wind from {point} towards {towards} wakes nobody",
    "black_moved": "{name} moves {hand} from {from} to {where}",
    "black_moved.caught": "{name} moves from {from} to {to}",
    "black_stays": "{name} has no land path to follow from {at}",
    "black_stays.repeats": "{name}'s route repeats without reaching a free black point: "
    "it stays on {at}",
    "encounter": "{black} ({black_size}) meets {light} ({light_size}) on {where}: {black} wins",
    "encounter.repelled": "{black} ({black_size}) meets {light} ({light_size}) on {where}: "
    "{light} repels it",
    "sent_home": "{name} is defeated and must return to a white starting point of "
    "{chooser}'s choice",
    "game_lost": "{name} has caught the Ringbearer: the Dark Lord wins, everybody loses",
    # the Great Storm and turning tiles
    "storm": "the Great Storm turns {count} tile(s)",
    "storm.skipped": "the Great Storm turns {count} tile(s); {stay} with figures on them stay",
    "tile_turned": "tile {tile} turns a quarter turn clockwise ({cause})",
}


def from_field(node: str) -> dict[str, Any]:
    """The field ``from`` of a move's event, to unpack (``**from_field(p)``): the
    kit's ``from_=`` spelling costs a copy of the fields, and moves make many."""
    return {"from": node}
