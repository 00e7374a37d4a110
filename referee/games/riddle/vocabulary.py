"""Riddle of the Ring's board vocabulary: its space properties and how they are drawn.

``RULES.props`` and ``RULES.symbols`` (see :mod:`referee.games.ringgeister.vocabulary`).
The compiler reads ``terrain`` (ocean and lake are water) and ``city`` by name when
it relates river dots to spaces; their value sets are the game's.
"""

from __future__ import annotations

from typing import Any

from ...vocabulary import Symbol


def _enum(*values: Any) -> dict[str, Any]:
    return {"type": "enum", "values": list(values)}


#: feature kind -> property -> spec (the shape of :data:`referee.model.PROP_SPECS`)
PROPS: dict[str, dict[str, dict[str, Any]]] = {
    "space": {
        "terrain": _enum("open", "forest", "mountain", "ocean", "lake"),
        "city": _enum(None, "good", "evil", "neutral"),
        "letters": {"type": "letters", "values": ["G", "C", "S"]},
        "role": _enum(None, "shire", "cracks_of_doom", "barad_dur", "exit_limbo"),
    },
}

#: terrain fills, city squares and river dots
SYMBOLS: dict[str, Symbol] = {
    "space.terrain=open": Symbol(colour="#e9e0b8", shape="area"),
    "space.terrain=forest": Symbol(colour="#86ad6c", shape="area", title="forest"),
    "space.terrain=mountain": Symbol(colour="#b3a594", shape="area", title="mountain"),
    "space.terrain=ocean": Symbol(colour="#86b6dc", shape="area", title="ocean"),
    "space.terrain=lake": Symbol(colour="#a6cff0", shape="area", title="lake"),
    "space.city=good": Symbol(colour="#2e7d32", shape="square", size=2.5, stroke="#222222"),
    "space.city=evil": Symbol(colour="#8e1b1b", shape="square", size=2.5, stroke="#222222"),
    "space.city=neutral": Symbol(colour="#555555", shape="square", size=2.5, stroke="#222222"),
    "river_dot": Symbol(colour="#d32f2f", size=2.4, stroke="#5a0000", title="river dot"),
}

__all__ = ["PROPS", "SYMBOLS"]
