"""Exports of compiled boards: node-link JSON, GraphML, GeoJSON.

networkx is the exchange form: :func:`to_node_link` / :func:`from_node_link` are a
lossless pair (``edges="edges"`` passed explicitly); GraphML flattens dict and list
attributes to JSON strings, which :func:`from_graphml` decodes again.
"""

from __future__ import annotations

import io
import json
from typing import Any

import networkx as nx

from ..compiler import CompiledBoard
from ..errors import UsageError
from ..geometry import geometry_to_json

COMPILED_FORMAT = "boardwright-compiled"
COMPILED_VERSION = 1


def to_node_link(compiled: CompiledBoard) -> dict[str, Any]:
    """networkx node-link data of the compiled graph, with a versioned header."""
    data = nx.node_link_data(compiled.graph, edges="edges")
    data["graph"] = {"format": COMPILED_FORMAT, "version": COMPILED_VERSION,
                     "name": compiled.board.name, "rules": compiled.board.rules,
                     "board_hash": compiled.hash,
                     "turns": {p.id: p.turns for p in compiled.board.placements}}
    return data


def from_node_link(data: dict[str, Any]) -> nx.MultiGraph:
    """The graph back from :func:`to_node_link` output."""
    return nx.node_link_graph(data, edges="edges", multigraph=True)


_JSON_PREFIX = "json:"


def to_graphml(compiled: CompiledBoard) -> str:
    g = nx.MultiGraph()
    for n, d in compiled.graph.nodes(data=True):
        g.add_node(n, **{k: _flat(v) for k, v in d.items() if v is not None})
    for u, v, k, d in compiled.graph.edges(keys=True, data=True):
        g.add_edge(u, v, key=k, **{a: _flat(b) for a, b in d.items() if b is not None})
    buf = io.BytesIO()
    nx.write_graphml(g, buf, encoding="utf-8")
    return buf.getvalue().decode("utf-8")


def _flat(v: Any) -> Any:
    if isinstance(v, (dict, list, tuple)):
        return _JSON_PREFIX + json.dumps(v, sort_keys=True)
    return v


def from_graphml(text: str) -> nx.MultiGraph:
    """Read our GraphML back, decoding the JSON-encoded attributes."""
    g = nx.read_graphml(io.BytesIO(text.encode("utf-8")), force_multigraph=True)
    for _, d in g.nodes(data=True):
        _unflat(d)
    for _, _, d in g.edges(data=True):
        _unflat(d)
    return g


def _unflat(d: dict[str, Any]) -> None:
    for k, v in list(d.items()):
        if isinstance(v, str) and v.startswith(_JSON_PREFIX):
            d[k] = json.loads(v[len(_JSON_PREFIX):])


def to_geojson(compiled: CompiledBoard) -> dict[str, Any]:
    """Every feature in world coordinates with its properties (a FeatureCollection)."""
    feats = []
    for nid, (owner, f) in compiled.features.items():
        props = {"id": nid, "kind": f.kind, "tile": owner, **f.props}
        feats.append({"type": "Feature", "id": nid, "geometry": geometry_to_json(f.geometry),
                      "properties": props})
    return {"type": "FeatureCollection", "name": compiled.board.name, "features": feats}


def write_compiled(compiled: CompiledBoard, fmt: str) -> str:
    """The compiled board as text in ``fmt`` (node-link, graphml or geojson)."""
    if fmt == "node-link":
        return json.dumps(to_node_link(compiled), indent=1, ensure_ascii=False) + "\n"
    if fmt == "graphml":
        return to_graphml(compiled)
    if fmt == "geojson":
        return json.dumps(to_geojson(compiled), ensure_ascii=False) + "\n"
    raise UsageError(f"unknown format {fmt!r}")
