"""The colours of the compiled graph, one palette for every picture of it.

``referee render --graph`` (:mod:`referee.render`) and the editor's compiled-graph
overlay (``editor/items.py``, through ``editor/style.py``) both draw relations in these
colours, so a board looks the same in a browser and on the canvas. Qt-free: plain
``#rrggbb`` strings.

Relations (see :mod:`referee.compiler`): ``path`` magenta, ``touch`` green, ``road``
orange, ``dot`` red, ``dot_river`` blue, ``next`` violet, ``arrival`` teal.

Feature symbols: how node kinds and properties are drawn (a black point, a wind
arrow, a door, a city) is declared by the plug-ins (``Plugin.symbols``,
:class:`~referee.vocabulary.Symbol`, read from :mod:`referee.vocabulary`) over the
:data:`GENERIC_SYMBOLS`;
:func:`feature_symbols` says which symbols draw a feature and :func:`symbol_outline`
their outline, for ``referee render`` and the editor's canvas alike, so a new game's
symbols appear in both without code in either.

Figures: :func:`figure_symbol` resolves how a figure (a game's
:class:`~referee.vocabulary.FigureView`, or a piece a project sets) is drawn from its
rules module's symbols, and :func:`stack_offset` where figures sharing a node stand,
for ``referee render`` and the editor's Playtest alike.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from shapely.geometry.base import BaseGeometry

from .geometry import bearing_degrees, unit_vector
from .vocabulary import FigureView, Symbol, plugins, symbol_table

#: Edge colour per relation.
RELATION_COLOURS: Final[dict[str, str]] = {
    "path": "#d02090",
    "touch": "#1f9d55",
    "road": "#e07b00",
    "dot": "#c0392b",
    "dot_river": "#2563eb",
    "next": "#7c3aed",
    "arrival": "#0891b2",
}
#: A relation this palette does not know yet.
UNKNOWN_RELATION: Final = "#444444"
#: A path over water (``medium`` water), drawn dashed.
WATER_PATH: Final = "#1090d0"
#: Nodes of the graph.
NODE: Final = "#111111"
#: Ports that became a dead end or a junction when the tiles were linked.
DEAD_END_PORT: Final = "#ff3030"
JUNCTION_PORT: Final = "#ffb000"


def relation_colour(relation: str) -> str:
    """The colour of an edge of ``relation`` (:data:`UNKNOWN_RELATION` for a new one)."""
    return RELATION_COLOURS.get(relation, UNKNOWN_RELATION)


# ---------------------------------------------------------------------- feature symbols
#: How node kinds look when no rules module draws them otherwise (a module's base
#: symbol for the kind, ``RulesModule.symbols["point"]``, replaces these).
GENERIC_SYMBOLS: Final[dict[str, Symbol]] = {
    "point": Symbol(colour="#bdbdbd", size=4.0, stroke="#222222", title="point"),
    "junction": Symbol(colour="#3b2a14", size=1.6),
    "door": Symbol(colour="#6d5d8c", shape="square", size=3.0, stroke="#222222", title="door"),
    "river_dot": Symbol(colour="#d32f2f", size=2.4, stroke="#5a0000", title="river dot"),
}


#: drawing layer of each shape (bottom first): direction arrows under the point they
#: leave, rings and ticks over it, texts on top
_LAYER: Final[dict[str, int]] = {
    "area": 0,
    "arrow": 1,
    "circle": 2,
    "square": 2,
    "diamond": 2,
    "triangle": 2,
    "ring": 3,
    "tick": 4,
    "text": 5,
}


@dataclass(frozen=True)
class _Rule:
    key: str
    prop: str | None  # None: the kind's base look
    value: str | None  # None: any set (truthy) value
    symbol: Symbol


def _rules_of(table: Mapping[str, Symbol]) -> dict[str, list[_Rule]]:
    by_kind: dict[str, list[_Rule]] = {}
    for key, sym in table.items():
        kind, dot, rest = key.partition(".")
        if not dot:
            by_kind.setdefault(kind, []).insert(0, _Rule(key, None, None, sym))
            continue
        prop, eq, value = rest.partition("=")
        by_kind.setdefault(kind, []).append(_Rule(key, prop, value if eq else None, sym))
    return by_kind


@cache
def _installed_rules() -> dict[str, list[_Rule]]:
    table = dict(GENERIC_SYMBOLS)
    table.update(symbol_table())  # a module's base look replaces the generic one
    return _rules_of(table)


def feature_symbols(
    kind: str, props: Mapping[str, Any], table: Mapping[str, Symbol] | None = None
) -> list[tuple[str, Symbol]]:
    """The symbols that draw a feature of ``kind`` with ``props``, bottom first.

    ``table``: symbol key -> :class:`Symbol` (default: :data:`GENERIC_SYMBOLS` and
    every installed plug-in's ``symbols``, :func:`referee.vocabulary.symbol_table`).
    The symbols that match are the kind's base look, each ``kind.prop=value`` (the
    property's value has that text: a variant, e.g. a black point) and each
    ``kind.prop`` (the property is set: a mark, e.g. magic). They are drawn in
    layers by shape (areas, arrows, filled shapes, rings, ticks, texts); within a
    layer the base first, then variants, then marks, each in table order.

    Notes
    -----
    O(symbols of the kind); the table is indexed by kind once.
    """
    rules = _installed_rules() if table is None else _rules_of(table)
    found: list[tuple[int, int, str, Symbol]] = []
    for r in rules.get(kind, ()):
        if r.prop is None:
            found.append((_LAYER[r.symbol.shape], 0, r.key, r.symbol))
            continue
        if symbol_matches(r.key, kind, props):
            found.append((_LAYER[r.symbol.shape], 2 if r.value is None else 1, r.key, r.symbol))
    found.sort(key=lambda t: (t[0], t[1]))  # stable: table order within a rank
    return [(key, sym) for _, _, key, sym in found]


def symbol_matches(key: str, kind: str, props: Mapping[str, Any]) -> bool:
    """Whether the symbol ``key`` draws a feature of ``kind`` with ``props``: ``kind``
    (always), ``kind.prop`` (the property is set: not ``None``, ``False``, ``""`` or
    ``[]``) or ``kind.prop=value`` (its value has that text)."""
    k, dot, rest = key.partition(".")
    if k != kind:
        return False
    if not dot:
        return True
    prop, eq, value = rest.partition("=")
    v = props.get(prop)
    if v is None or v is False or v == "" or v == []:
        return False
    return not eq or str(v) == value


def symbol_anchor(geometry: BaseGeometry) -> tuple[float, float]:
    """Where a symbol of a feature sits: a point itself, a line's midpoint, a polygon's
    representative point."""
    t = geometry.geom_type
    if t == "Point":
        return float(geometry.x), float(geometry.y)
    if t in ("LineString", "MultiLineString", "LinearRing"):
        p = geometry.interpolate(0.5, normalized=True)
    else:
        p = geometry.representative_point()
    return float(p.x), float(p.y)


def symbol_bearing(key: str, props: Mapping[str, Any]) -> float | None:
    """The bearing (degrees, clockwise from north) an ``arrow`` or ``tick`` symbol
    points along: the direction its property (``kind.prop``) holds, or ``None``."""
    prop = key.partition(".")[2].partition("=")[0]
    value = props.get(prop) if prop else None
    if value is None:
        return None
    try:
        return bearing_degrees(value)
    except (TypeError, ValueError):
        return None


def symbol_outline(
    sym: Symbol, x: float, y: float, bearing: float | None = None
) -> list[tuple[float, float]]:
    """The outline of a symbol centred on ``(x, y)``, in the board's frame (mm, y down).

    ``square``, ``diamond``, ``triangle``: a closed polygon; ``arrow``: the filled head
    and shaft of an arrow from the centre outwards along ``bearing``; ``tick``: the
    two ends of a line from the centre along ``bearing``; other shapes (``circle``,
    ``ring``, ``area``, ``text``): ``[]`` (a circle of radius ``size``, the feature's
    own geometry, or the label only).
    """
    r = sym.size
    if sym.shape == "square":
        return [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    if sym.shape == "diamond":
        return [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    if sym.shape == "triangle":
        return [(x, y - r), (x + 0.866 * r, y + 0.5 * r), (x - 0.866 * r, y + 0.5 * r)]
    if sym.shape in ("arrow", "tick") and bearing is not None:
        ux, uy = unit_vector(bearing)
        if sym.shape == "tick":
            return [(x, y), (x + ux * r, y + uy * r)]
        head = max(r * 0.35, 0.8)
        px, py = -uy, ux
        bx, by = x + ux * (r - head), y + uy * (r - head)
        w = head * 0.6
        return [
            (bx + px * w, by + py * w),
            (x + ux * r, y + uy * r),
            (bx - px * w, by - py * w),
        ]
    return []


# ---------------------------------------------------------------------- figures
#: the shapes a figure can take (other declared shapes draw a circle)
FIGURE_SHAPES: Final = ("circle", "square", "diamond", "triangle")
#: a figure's radius over its symbol's ``size``, by :attr:`FigureView.size` (small,
#: medium, large): a symbol's size is the radius of a medium figure
FIGURE_SCALE: Final = (0.82, 1.0, 1.18)
#: figure colours by name (a player's colour, Gandalf's white, the black figures):
#: a piece type's ``colour`` may name one
FIGURE_COLOURS: Final[dict[str, str]] = {
    "yellow": "#f4c20d",
    "orange": "#f57c00",
    "purple": "#8e24aa",
    "green": "#2e7d32",
    "white": "#fafafa",
    "black": "#212121",
}
#: a figure no rules module declares a symbol for: a disc of its own colour and label
GENERIC_FIGURE: Final = Symbol(colour="#9e9e9e", size=4.4)


def ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (``#rgb`` or ``#rrggbb``;
    black on anything else)."""
    c = colour.lstrip("#")
    if not colour.startswith("#") or len(c) not in (3, 6):
        return "#111111"
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        r, g, b = (int(c[i : i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        return "#111111"
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "#ffffff"


def rules_symbols(rules: str | None) -> Mapping[str, Symbol]:
    """The ``symbols`` of the plug-in named ``rules`` (empty for none or an unknown
    one): figure symbols are looked up in the game's own table, never in another
    game's (two games may both have a ``hobbit``)."""
    plugin = plugins().get(rules) if rules else None
    return plugin.symbols if plugin is not None else {}


def figure_symbol(view: FigureView, table: Mapping[str, Symbol] | None = None) -> Symbol:
    """How a figure is drawn, by ``referee render`` and the editor's Playtest alike.

    The symbol declared for the figure's ``id``, else for its ``kind``, in ``table``
    (the game's own symbols, :func:`rules_symbols`), else :data:`GENERIC_FIGURE`,
    resolved for this figure: its shape (one of :data:`FIGURE_SHAPES`), the figure's
    own colour (``view.colour``: a player's colour) over the symbol's, the figure's
    label over the symbol's, the radius scaled by its size (:data:`FIGURE_SCALE`),
    the symbol's outline or black/white against the fill, its name as the title.
    """
    t = table or {}
    sym = t.get(view.id) or (t.get(view.kind) if view.kind else None) or GENERIC_FIGURE
    colour = view.colour or sym.colour
    return Symbol(
        label=view.label or sym.label,
        colour=colour,
        shape=sym.shape if sym.shape in FIGURE_SHAPES else "circle",
        size=sym.size * FIGURE_SCALE[max(0, min(2, view.size))],
        stroke=sym.stroke or ("#eeeeee" if ink(colour) == "#ffffff" else "#111111"),
        title=view.name or view.id,
    )


def stack_offset(index: int, count: int, radius: float) -> tuple[float, float]:
    """Where the ``index``-th of ``count`` figures on one node is drawn, from the node:
    round a circle, neighbours just apart (``(0, 0)`` for a figure alone)."""
    if count <= 1:
        return 0.0, 0.0
    spread = radius * (1.0 if count == 2 else 1.05 / math.sin(math.pi / count))
    a = -math.pi / 2 + 2 * math.pi * index / count
    return spread * math.cos(a), spread * math.sin(a)


__all__ = [
    "DEAD_END_PORT",
    "FIGURE_COLOURS",
    "FIGURE_SCALE",
    "FIGURE_SHAPES",
    "GENERIC_FIGURE",
    "GENERIC_SYMBOLS",
    "JUNCTION_PORT",
    "NODE",
    "RELATION_COLOURS",
    "UNKNOWN_RELATION",
    "WATER_PATH",
    "feature_symbols",
    "figure_symbol",
    "ink",
    "relation_colour",
    "rules_symbols",
    "stack_offset",
    "symbol_anchor",
    "symbol_bearing",
    "symbol_matches",
    "symbol_outline",
]
