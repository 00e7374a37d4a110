"""Our compiled-board JSON: networkx node-link data with a versioned ``graph`` header.

:func:`to_node_link` / :func:`from_node_link` are a lossless pair (``edges="edges"``
passed explicitly); the JSON Schema is ``referee/schema/compiled.schema.json``
(:func:`referee.export.compiled_schema`) and :data:`COMPILED_VERSION` is the version it
describes. The header's ``board`` is what a graph has no place for — the geometry,
the tile assets, placements and settings (:func:`referee.export.carry.board_block`),
so that ``referee import node-link`` rebuilds the board.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from ..compiler import CompiledBoard
from .carry import board_block

COMPILED_FORMAT = "boardwright-compiled"
COMPILED_VERSION = 1


def to_node_link(compiled: CompiledBoard) -> dict[str, Any]:
    """networkx node-link data of the compiled graph, with a versioned header."""
    data: dict[str, Any] = nx.node_link_data(compiled.graph, edges="edges")
    data["graph"] = {
        "format": COMPILED_FORMAT,
        "version": COMPILED_VERSION,
        "name": compiled.board.name,
        "rules": compiled.board.rules,
        "board_hash": compiled.hash,
        "turns": {p.id: p.turns for p in compiled.board.placements},
        "board": board_block(compiled, None),
    }
    return data


def from_node_link(data: dict[str, Any]) -> nx.MultiGraph:
    """The graph back from :func:`to_node_link` output."""
    return nx.node_link_graph(data, edges="edges", multigraph=True)


__all__ = ["COMPILED_FORMAT", "COMPILED_VERSION", "from_node_link", "to_node_link"]
