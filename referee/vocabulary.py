"""The board vocabulary: what plug-ins register into, read by the core without any game.

The ground floor of the referee (``docs/explanation/architecture.md``): it imports
nothing of Boardwright's, and the board model, the palette and the renderer read it
instead of the rules modules above them.

- :class:`Symbol` says how a figure, a node kind or a property is drawn, and
  :class:`FigureView` is one piece as a frontend draws it (what
  :meth:`referee.games.base.Game.figures` returns).
- :class:`Plugin` is what a plug-in registers: its name, its properties, symbols
  and printed pictures. A rules module (:class:`referee.games.registry.RulesModule`)
  is a plug-in that also brings a game.
- :func:`plugins` loads every installed plug-in once, from the entry-point group
  :data:`GROUP` (Boardwright's own games register there in its ``pyproject.toml``,
  a plug-in package in its own); the registry of rules modules
  (:func:`referee.games.registry.modules`) keeps the ones that bring a game.
- :func:`prop_specs` merges a base property table with the plug-ins' ``props``
  (:func:`referee.model.prop_table` is the one loading uses) and
  :func:`symbol_table` their ``symbols`` (:func:`referee.palette.feature_symbols`).

Plug-ins are found through package metadata, not imports, so a board loads with
every installed game's properties before any game is chosen, and the model never
imports :mod:`referee.games`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import entry_points
from typing import Any

__all__ = [
    "GROUP",
    "SHAPES",
    "FigureView",
    "Plugin",
    "PropTable",
    "Symbol",
    "installed",
    "plugins",
    "prop_specs",
    "symbol_table",
]

#: the entry-point group plug-ins register in (entry-point name = the rules name
#: boards declare in ``meta.rules``)
GROUP = "boardwright.rules"

#: feature kind -> property -> spec (``{"type": "enum", "values": [...]}``...): the
#: shape of :data:`referee.model.PROP_SPECS` and of every plug-in's ``props``
PropTable = Mapping[str, Mapping[str, Mapping[str, Any]]]

#: shapes a :class:`Symbol` can take
SHAPES = (
    "circle",
    "square",
    "diamond",
    "triangle",
    "ring",
    "arrow",
    "tick",
    "area",
    "text",
)


@dataclass(frozen=True)
class Symbol:
    """How a figure, a node kind or a property is drawn (Qt-free: ``render`` and the editor).

    A plug-in's ``symbols`` table maps a key to a symbol:

    - ``"runner"`` — a figure kind (a piece type's ``kind``, or its id);
    - ``"point"`` — every feature of that kind (its base look);
    - ``"point.magic"`` — a feature of that kind whose property is set (truthy);
    - ``"point.colour=black"`` — a feature whose property has that value (the text
      of the value: ``"door.symbol=moon"``, ``"point.goal=True"``).

    Both pictures (``referee render`` and the editor's canvas) draw every symbol
    that matches a feature, in table order, the base look first, each one over the
    last (so ``point.colour=black`` paints a black disc over the grey ``point``).

    Attributes
    ----------
    label : str
        Text printed on it (one to three characters), or the text of a ``text`` symbol.
    colour : str
        Fill colour, CSS name or ``#rrggbb``.
    shape : str
        One of :data:`SHAPES`: ``circle``, ``square``, ``diamond``, ``triangle``
        (filled, centred on the feature), ``ring`` (an outline around it), ``arrow``
        and ``tick`` (along the direction the property holds: a wind arrow outside,
        a heading inside), ``area`` (fills a polygon feature), ``text`` (the label only).
    size : float
        Radius (half the side; the length of an ``arrow`` or ``tick``), in mm.
    stroke : str, optional
        Outline colour (none if ``None``).
    title : str
        Words for the key (legend) of a rendered board; empty: left out of the key.
    """

    label: str = ""
    colour: str = "#9e9e9e"
    shape: str = "circle"
    size: float = 2.0
    stroke: str | None = None
    title: str = ""

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"unknown symbol shape {self.shape!r} (known: {', '.join(SHAPES)})")


@dataclass(frozen=True)
class FigureView:
    """One piece on the board as a frontend should draw it (see
    :meth:`referee.games.base.Game.figures`).

    Attributes
    ----------
    id : str
        Stable figure id (the key of ``Game.figures`` and ``Game.move_targets``).
    node : str
        Compiled node id the figure stands on.
    label : str
        A short label to print on it (one to three characters).
    colour : str
        Fill colour, a CSS name or ``#rrggbb``.
    side : str
        The figure's side or team (``light``/``black``, ``hobbit``/``rider``, ...).
    owner : str or None
        The player whose figure it is; ``None`` for shared or neutral pieces.
    name : str
        The figure's name in the game's words (status lines, tooltips).
    size : int
        0 small, 1 medium, 2 large.
    kind : str
        The kind of figure (``hobbit``, ``spirit``): the key of its symbol in the
        plug-in's ``symbols`` (:func:`referee.palette.figure_symbol`); empty:
        looked up by ``id`` only.
    """

    id: str
    node: str
    label: str
    colour: str = "#fafafa"
    side: str = ""
    owner: str | None = None
    name: str = ""
    size: int = 1
    kind: str = ""


@dataclass(frozen=True, kw_only=True)
class Plugin:
    """What a plug-in adds to the board vocabulary.

    Attributes
    ----------
    name : str
        The plug-in's name: the entry point's name, the rules name boards declare.
    props : mapping
        Its property vocabulary (:data:`PropTable`), merged over the generic
        :data:`referee.model.PROP_SPECS` by :func:`prop_specs`, so loading, the
        schema and the editor's inspector know its properties.
    symbols : mapping
        Figure kind, node kind or ``kind.prop[=value]`` -> :class:`Symbol`, for
        ``render`` and the editor (merged by :func:`symbol_table`).
    pictures : mapping
        Symbol key -> :class:`referee.render.pictures.Picture`: the finer
        printed-board pictures ``referee render`` draws instead of the symbols they
        stand for (the renderer reads and checks them,
        :func:`referee.render.pictures.picture_table`).
    """

    name: str
    props: PropTable = field(default_factory=dict)
    symbols: Mapping[str, Symbol] = field(default_factory=dict)
    pictures: Mapping[str, object] = field(default_factory=dict)


@cache
def installed() -> dict[str, object]:
    """Every object the entry points of :data:`GROUP` name, loaded once, by entry-point
    name in name order.

    A plug-in that fails to load is reported on stderr and left out: a broken
    plug-in must not break the referee.
    """
    found: dict[str, object] = {}
    for ep in entry_points(group=GROUP):
        try:
            found[ep.name] = ep.load()
        except Exception as exc:  # a plug-in's own bug: reported, not raised
            print(f"referee: rules module {ep.name!r} failed to load: {exc}", file=sys.stderr)
    return dict(sorted(found.items()))


@cache
def plugins() -> dict[str, Plugin]:
    """The installed plug-ins (:func:`installed` entries that are a :class:`Plugin`),
    by name in name order. Read-only: do not change it."""
    return {name: obj for name, obj in installed().items() if isinstance(obj, Plugin)}


def prop_specs(base: PropTable, found: Mapping[str, Plugin] | None = None) -> dict[str, Any]:
    """``base`` merged with the ``props`` of ``found`` (default: every installed plug-in).

    A plug-in adds kinds and properties; it never changes a property of ``base``;
    when two plug-ins declare one property, the first by name wins. A new dict each
    call (:func:`referee.model.prop_table` keeps the one loading uses).

    Notes
    -----
    O(properties of ``base`` and of the plug-ins).
    """
    out: dict[str, dict[str, Any]] = {k: dict(v) for k, v in base.items()}
    for plugin in (plugins() if found is None else found).values():
        for kind, specs in plugin.props.items():
            row = out.setdefault(kind, {})
            for key, spec in specs.items():
                row.setdefault(key, dict(spec))
    return out


@cache
def symbol_table() -> dict[str, Symbol]:
    """Every installed plug-in's ``symbols``, merged by key (the first plug-in by name
    wins a key two declare). Read-only: do not change it."""
    out: dict[str, Symbol] = {}
    for plugin in plugins().values():
        for key, sym in plugin.symbols.items():
            out.setdefault(key, sym)
    return out
