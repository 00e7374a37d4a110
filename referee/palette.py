"""The colours of the compiled graph, one palette for every picture of it.

``referee render --graph`` (:mod:`referee.render`) and the editor's compiled-graph
overlay (``editor/items.py``, through ``editor/style.py``) both draw relations in these
colours, so a board looks the same in a browser and on the canvas. Qt-free: plain
``#rrggbb`` strings.

Relations (see :mod:`referee.compiler`): ``path`` magenta, ``touch`` green, ``road``
orange, ``dot`` red, ``dot_river`` blue, ``next`` violet, ``arrival`` teal.
"""

from __future__ import annotations

from typing import Final

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
