"""The track games' board vocabulary (Mount Doom and the cooperative game).

Both modules declare these in their ``RULES`` (``props``, ``symbols``): event
spaces, stage goals, the index of a point along its track, a space's role on its
track and an encounter-row position's symbol (so the editor's Inspector edits them).
"""

from __future__ import annotations

from typing import Any

from ..vocabulary import Symbol

#: feature kind -> property -> spec (the shape of :data:`referee.model.PROP_SPECS`)
PROPS: dict[str, dict[str, dict[str, Any]]] = {
    "point": {
        "event": {"type": "str"},
        "stage_goal": {"type": "bool"},
        "index": {"type": "int"},
        # what a space is on its track (the resolve track's ends, the Ring's start,
        # Sauron's eye, Isengard's and Minas Morgul's figures' spaces…)
        "role": {"type": "str"},
        # what an empty encounter-row position shows
        "symbol": {"type": "str"},
    },
}

#: stage goals ringed in red, event spaces marked
SYMBOLS: dict[str, Symbol] = {
    "point.stage_goal": Symbol(colour="#c62828", shape="ring", size=5.0, title="stage goal"),
    "point.event": Symbol("!", "#6d4c41", "text", size=3.0, title="event space"),
    # a card lying on a card slot (the encounter row): drawn as a square card
    "card": Symbol("", "#fffdf6", "square", 7.5, stroke="#6b5a3a", title="card"),
}
#: the figures that walk the tracks, as big as a track space (the colour and label
#: are each figure's own: :attr:`referee.vocabulary.FigureView.colour`)
for _fid in (
    "ringbearer", "aragorn", "legolas", "gimli", "merry-pippin", "one-ring",
    "frodo", "sam", "pippin", "merry", "fatty", "sauron", "journey",
):  # fmt: skip
    SYMBOLS[_fid] = Symbol(colour="#9e9e9e", size=5.6, stroke="#111111")


__all__ = ["PROPS", "SYMBOLS"]
