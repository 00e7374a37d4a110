"""The track games' board vocabulary (Mount Doom and the cooperative game).

Both modules declare these in their ``RULES`` (``props``, ``symbols``): event
spaces, stage goals and the index of a point along its track.
"""

from __future__ import annotations

from typing import Any

from ..vocabulary import Symbol

#: feature kind -> property -> spec (the shape of :data:`referee.model.PROP_SPECS`)
PROPS: dict[str, dict[str, dict[str, Any]]] = {
    "point": {"event": {"type": "str"}, "stage_goal": {"type": "bool"}, "index": {"type": "int"}},
}

#: stage goals ringed in red, event spaces marked
SYMBOLS: dict[str, Symbol] = {
    "point.stage_goal": Symbol(colour="#c62828", shape="ring", size=5.0, title="stage goal"),
    "point.event": Symbol("!", "#6d4c41", "text", size=3.0, title="event space"),
    # a card lying on a card slot (the encounter row): drawn as a square card
    "card": Symbol("", "#fffdf6", "square", 7.5, stroke="#6b5a3a", title="card"),
}

__all__ = ["PROPS", "SYMBOLS"]
