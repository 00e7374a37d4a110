"""Ringgeister's board vocabulary: its feature properties and how they are drawn.

``RULES.props`` and ``RULES.symbols`` (:class:`~referee.games.registry.RulesModule`,
a :class:`~referee.vocabulary.Plugin`): the loader, the project schema and the
editor's inspector read the properties through :func:`referee.model.prop_table`; ``referee render`` and the
editor's canvas draw the symbols (:func:`referee.palette.feature_symbols`).
"""

from __future__ import annotations

from typing import Any

from ...vocabulary import Symbol
from .frontend import FIGURE_LETTERS

_DIRECTION = {"type": "direction"}  # compass letter N/E/S/W or a bearing in degrees
_BOOL = {"type": "bool"}


def _enum(*values: Any) -> dict[str, Any]:
    return {"type": "enum", "values": list(values)}


#: feature kind -> property -> spec (the shape of :data:`referee.model.PROP_SPECS`)
PROPS: dict[str, dict[str, dict[str, Any]]] = {
    "point": {
        "colour": _enum("grey", "black"),
        "wind": _DIRECTION,
        "heading": _DIRECTION,
        "magic": _BOOL,
        "start": _enum(None, "white", "black"),
        "goal": _BOOL,
    },
    "junction": {"forced_right": _BOOL},
    "door": {"symbol": _enum("moon", "star")},
    "path": {"guard": _enum(None, "spider")},
}

#: how Ringgeister's points, doors, forks and the spider's passage are drawn
SYMBOLS: dict[str, Symbol] = {
    "point": Symbol(colour="#bdbdbd", size=4.0, stroke="#222222", title="grey point"),
    "point.colour=black": Symbol(colour="#262626", size=4.0, stroke="#000000", title="black point"),
    "point.start=white": Symbol(colour="#f5f5f5", shape="ring", size=4.0, title="white start"),
    "point.start=black": Symbol(colour="#222222", shape="ring", size=4.6, title="black start"),
    "point.wind": Symbol(colour="#1e88e5", shape="arrow", size=8.5, title="wind"),
    "point.heading": Symbol(colour="#ffffff", shape="tick", size=3.5),
    "point.magic": Symbol(colour="#7e57c2", shape="ring", size=5.3, title="magic point"),
    "point.goal": Symbol("◎", "#b71c1c", "text", size=5.0, title="goal"),
    "junction.forced_right": Symbol("↻", "#111111", "text", size=3.5, title="three arrows"),
    "door": Symbol(colour="#6d5d8c", shape="square", size=3.0, stroke="#222222"),
    "door.symbol=moon": Symbol("☾", "#ffffff", "text", size=4.0, title="door: moon"),
    "door.symbol=star": Symbol("★", "#ffffff", "text", size=4.0, title="door: star"),
    "path.guard=spider": Symbol(
        colour="#c62828", size=3.0, stroke="#111111", title="spider's passage"
    ),
}

#: how Ringgeister's figures are drawn, by kind (:attr:`FigureView.kind`): the light
#: side round, Gollum a diamond, Orcs triangles, the Ring spirits squares; each
#: figure is filled with its own colour (its player's, Gandalf white, black ones black)
FIGURE_SYMBOLS: dict[str, Symbol] = {
    "hobbit": Symbol(FIGURE_LETTERS["hobbit"], "#f4c20d", "circle", 4.4, title="Hobbit"),
    "man": Symbol(FIGURE_LETTERS["man"], "#f4c20d", "circle", 4.4, title="Man"),
    "gandalf": Symbol(FIGURE_LETTERS["gandalf"], "#fafafa", "circle", 4.4, title="Gandalf"),
    "gollum": Symbol(FIGURE_LETTERS["gollum"], "#8d8d6a", "diamond", 5.0, title="Gollum"),
    "orc": Symbol(FIGURE_LETTERS["orc"], "#212121", "triangle", 5.6, title="Orc"),
    "spirit": Symbol(FIGURE_LETTERS["spirit"], "#212121", "square", 4.0, title="Ring spirit"),
    "counter": Symbol("", "#f4c20d", "diamond", 4.2, title="mission counter"),
}
SYMBOLS.update(FIGURE_SYMBOLS)

__all__ = ["FIGURE_SYMBOLS", "PROPS", "SYMBOLS"]
