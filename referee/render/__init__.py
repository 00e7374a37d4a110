"""Draw a board as SVG, headless (no Qt, no display): ``referee render``.

One renderer for every kind of board the compiler knows:

- **tiles** (Ringgeister): outlines with a ground colour, terrain art (forest,
  mountain, water, rock, …), paths on land and water, grey and black points,
  starting points (white ring; black ring with five arrows), the goal, wind
  arrows, headings of black points, magic points (white rectangle), dwarf doors
  with their symbol (moon, star), junctions and forks with three black arrows,
  hexagonal counter spaces linked to their arrival points, ports;
- **region maps** (Riddle of the Ring): spaces filled by terrain, rivers, river
  dots, bridges, roads, cities, letters and names;
- **tracks** (Mount Doom, the cooperative game): the line and its numbered points;
- **figures** standing on nodes — the pieces a project sets, or a game's figures
  (:func:`render_game`) — each with its symbol from the one palette, as the
  editor's Playtest draws them; and optionally the **compiled graph** as an
  overlay (one colour per relation; port nodes that became dead ends/junctions).

Everything is drawn in board millimetres (``viewBox`` = the board), so the SVG
prints at real size. Every node carries a ``<title>`` with its id, so hovering
in a browser tells which node is which. The output is deterministic: the same
board gives the same bytes (tests compare it).

The package, by operation:

- :mod:`.svg` — the SVG document: layers, number formatting, shared definitions, glyphs;
- :mod:`.board` — :class:`BoardRenderer`: extent, ground, tiles, the key, the order;
- :mod:`.features` — the feature kinds every game shares (paths, rivers, counter spaces…);
- :mod:`.pictures` — the rules modules' printed-board pictures (``RulesModule.pictures``;
  Ringgeister's, the Riddle's and the track games' live beside their rules);
- :mod:`.symbols` — the rules modules' plain symbols no picture stands for;
- :mod:`.primitives` — what a feature's pictures draw, as data: the track boards'
  decorations the editor's canvas paints from the same elements ``render`` writes;
- :mod:`.figures` — figures and pieces; :mod:`.graph` — the compiled-graph overlay;
- :mod:`.png` — rasterising the SVG to PNG (resvg).
"""

from __future__ import annotations

from .board import BoardRenderer, figures_svg, render_game, render_svg
from .features import GROUND, LAND, TERRAIN, WATER
from .svg import FONTS

__all__ = [
    "FONTS",
    "GROUND",
    "LAND",
    "TERRAIN",
    "WATER",
    "BoardRenderer",
    "figures_svg",
    "render_game",
    "render_svg",
]
