"""Graphs (networkx node-link JSON, GraphML) as boards.

Two cases:

- **A Boardwright export** (the header says ``"format": "boardwright-compiled"``) carries
  its board in the header's ``board`` (:mod:`referee.export.carry`). The board is
  rebuilt from it and compiled, and its graph must equal the file's — node ids,
  relations, every attribute; a graph changed since (in another tool) is refused,
  one line saying how many nodes and edges differ (``--graph-only`` takes it as it is).
- **Any other graph** (or ``--graph-only``) becomes a *graph-only board*: every node a
  ``point`` (or the ``junction``/``door`` its ``kind`` attribute names) at its
  position, every edge a straight ``path`` between its ends; attributes become
  properties through the vocabulary (:mod:`.props`). Positions are the nodes' ``x``
  and ``y`` (or ``pos``) attributes, ``--mm-per-unit`` mm each; when a node has none,
  every node is laid out by a networkx layout (``--layout``, seeded, so the same
  file gives the same board) in a :data:`LAYOUT_MM` square.

GraphML is read by networkx after :func:`.sources.check_xml` (no DTD, bounded depth).

Notes
-----
Linear in nodes and edges, plus the layout (spring: O(n²) per iteration) when one is needed.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import networkx as nx
import shapely

from ..compiler import compile_board
from ..export.graphml import from_graphml
from ..model import MAX_FEATURES, Board
from ..safeio import loads_json
from ..vocabulary import plugins
from .build import Builder, read_block, unreferenced_images
from .result import ImportRefused, ImportResult, Losses, Problems
from .settings import LAYOUTS, ImportSettings, Progress
from .sources import check_xml, read_input

#: the side of the square laid-out graphs fill (mm)
LAYOUT_MM = 600.0
_NODE_KINDS = ("point", "junction", "door")
#: node attributes the compiler writes (not properties of a feature)
_DERIVED_NODE = ("x", "y", "pos", "kind", "tile", "feature", "road", "city_space", "port")
#: edge attributes the compiler writes on a path
_DERIVED_EDGE = ("u", "v", "key", "length", "bearings", "bearing_u", "bearing_v", "tiles", "id")


def read_node_link(
    path: Path, settings: ImportSettings, progress: Progress | None = None
) -> ImportResult:
    """Read networkx node-link JSON (``edges`` or ``links``)."""
    where = str(path)
    data = loads_json(read_input(path), where, error=ImportRefused)
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
        raise ImportRefused("not node-link JSON (no nodes list)", location=where)
    key = "edges" if "edges" in data else "links"
    edges = data.get(key, [])
    if not isinstance(edges, list):
        raise ImportRefused(f"{key} must be a list", location=where)
    if len(data["nodes"]) + len(edges) > MAX_FEATURES:
        raise ImportRefused(
            f"{len(data['nodes']) + len(edges)} nodes and edges is more than a board holds "
            f"({MAX_FEATURES})",
            code="too_large",
            location=where,
        )
    for i, n in enumerate(data["nodes"]):
        if not isinstance(n, dict) or "id" not in n:
            raise ImportRefused(f"nodes[{i}] is not an object with an id", location=where)
    for i, e in enumerate(edges):
        if not isinstance(e, dict) or "source" not in e or "target" not in e:
            raise ImportRefused(
                f"{key}[{i}] is not an object with source and target", location=where
            )
    try:
        g = nx.node_link_graph(data, edges=key)
    except (KeyError, TypeError, ValueError, nx.NetworkXError) as exc:
        raise ImportRefused(
            f"not a graph networkx reads ({type(exc).__name__}: {exc})", location=where
        ) from None
    return _from_graph(g, "node-link", where, settings, progress)


def read_graphml(
    path: Path, settings: ImportSettings, progress: Progress | None = None
) -> ImportResult:
    """Read GraphML (networkx's reader; Boardwright's ``json:`` attributes decoded)."""
    where = str(path)
    data = read_input(path)
    root = check_xml(data, where)
    n = sum(1 for el in root.iter() if el.tag.rsplit("}", 1)[-1] in ("node", "edge"))
    if n > MAX_FEATURES:
        raise ImportRefused(
            f"{n} nodes and edges is more than a board holds ({MAX_FEATURES})",
            code="too_large",
            location=where,
        )
    try:
        g = from_graphml(data.decode("utf-8"))
    except (
        UnicodeDecodeError,
        ValueError,
        KeyError,
        TypeError,
        ET.ParseError,
        nx.NetworkXError,
    ) as exc:
        raise ImportRefused(
            f"not GraphML networkx reads ({type(exc).__name__}: {str(exc)[:120]})", location=where
        ) from None
    return _from_graph(g, "graphml", where, settings, progress)


def _canon(d: Any) -> str:
    return json.dumps(d, sort_keys=True, default=str)


def graph_difference(a: nx.Graph, b: nx.Graph) -> tuple[int, int]:
    """How many nodes and edges are not the same in both graphs: missing from one, or
    with other attributes (an edge is its two ends and its key)."""

    def nodes(g: nx.Graph) -> dict[str, str]:
        return {str(n): _canon(d) for n, d in g.nodes(data=True)}

    def edges(g: nx.Graph) -> dict[tuple[str, str, str], list[str]]:
        out: dict[tuple[str, str, str], list[str]] = {}
        multi = g.is_multigraph()
        for e in g.edges(keys=True, data=True) if multi else g.edges(data=True):
            lo, hi = sorted((str(e[0]), str(e[1])))
            out.setdefault((lo, hi, str(e[2]) if multi else ""), []).append(_canon(e[-1]))
        return out

    na, nb, ea, eb = nodes(a), nodes(b), edges(a), edges(b)
    n = sum(1 for k in na.keys() | nb.keys() if na.get(k) != nb.get(k))
    m = sum(1 for k in ea.keys() | eb.keys() if sorted(ea.get(k, [])) != sorted(eb.get(k, [])))
    return n, m


def _from_graph(
    g: nx.Graph, fmt: str, where: str, settings: ImportSettings, progress: Progress | None
) -> ImportResult:
    problems, losses = Problems(where), Losses()
    header = g.graph
    ours = header.get("format") == "boardwright-compiled"
    if ours and header.get("board") is not None and not settings.graph_only:
        base = read_block(header["board"], problems)
        problems.check()
        assert base is not None
        if settings.rules is not None:
            base.meta["rules"] = settings.rules
        compiled = compile_board(base)
        nodes, edges = graph_difference(compiled.graph, g)
        if nodes or edges:
            raise ImportRefused(
                f"the graph differs from the board it carries ({nodes} nodes and {edges} edges; "
                "changed in another tool?): --graph-only takes the graph as it is",
                code="graph_changed",
                location=where,
            )
        unreferenced_images(base, losses)
        return ImportResult(base, fmt, where, losses.lines())
    return _graph_only(g, fmt, where, settings, problems, losses, ours, progress)


def _positions(g: nx.Graph, settings: ImportSettings, where: str) -> dict[Any, tuple[float, float]]:
    pos: dict[Any, tuple[float, float]] = {}
    k = settings.mm_per_unit
    for n, d in g.nodes(data=True):
        x, y = d.get("x"), d.get("y")
        if x is None and isinstance(d.get("pos"), (list, tuple)) and len(d["pos"]) >= 2:
            x, y = d["pos"][0], d["pos"][1]
        try:
            fx, fy = float(x), float(y)
        except (TypeError, ValueError):
            break
        if not (math.isfinite(fx) and math.isfinite(fy)):
            raise ImportRefused(f"node {n!r} has a position that is not finite", location=where)
        pos[n] = (fx * k, fy * k)
    else:
        return pos
    if settings.layout not in LAYOUTS:
        raise ImportRefused(
            f"unknown layout {settings.layout!r} (one of {', '.join(LAYOUTS)})", location=where
        )
    simple = nx.Graph(g)
    try:
        if settings.layout == "spring":
            raw = nx.spring_layout(simple, seed=0)
        elif settings.layout == "kamada-kawai":
            raw = nx.kamada_kawai_layout(simple)
        elif settings.layout == "circular":
            raw = nx.circular_layout(simple)
        elif settings.layout == "shell":
            raw = nx.shell_layout(simple)
        elif settings.layout == "spectral":
            raw = nx.spectral_layout(simple)
        else:
            raw = nx.planar_layout(simple)
    except nx.NetworkXException as exc:
        raise ImportRefused(f"{settings.layout} layout: {exc}", location=where) from None
    xs = [float(p[0]) for p in raw.values()] or [0.0]
    ys = [float(p[1]) for p in raw.values()] or [0.0]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    margin = LAYOUT_MM * 0.05
    f = (LAYOUT_MM - 2 * margin) / span
    return {
        n: (
            round(margin + (float(p[0]) - min(xs)) * f, 3),
            round(margin + (max(ys) - float(p[1])) * f, 3),
        )
        for n, p in raw.items()
    }


def _graph_only(
    g: nx.Graph,
    fmt: str,
    where: str,
    settings: ImportSettings,
    problems: Problems,
    losses: Losses,
    ours: bool,
    progress: Progress | None,
) -> ImportResult:
    pos = _positions(g, settings, where)
    builder = Builder(problems, losses)
    fid_of: dict[Any, str] = {}
    for i, (n, d) in enumerate(g.nodes(data=True)):
        kind = d.get("kind")
        if kind not in _NODE_KINDS:
            if kind is not None:
                losses.add(f"kind {kind}", f"{kind} nodes: points (a graph has no shapes)")
            kind = "point"
        props = {k: v for k, v in d.items() if k not in _DERIVED_NODE}
        if ours:
            props.pop("feature", None)
        f = builder.feature(str(kind), shapely.Point(pos[n]), props, f"node {n!r}", str(n), "n")
        if f is not None:
            fid_of[n] = f.id
        if progress is not None and i % 1000 == 0:
            progress(i, g.number_of_nodes() + g.number_of_edges())
    edges = g.edges(data=True)
    for u, v, d in edges:
        if u == v or pos[u] == pos[v]:
            losses.add(
                "loop", "edges from a node to itself (or to a node at the same place): left out"
            )
            continue
        props = {k: val for k, val in d.items() if not (ours and k in _DERIVED_EDGE)}
        rel = props.get("relation")
        if ours:
            props.pop("relation", None)
            if rel not in (None, "path"):
                losses.add(
                    f"rel {rel}", f"{rel} relations: paths (a graph-only board has paths only)"
                )
        builder.feature(
            "path", shapely.LineString([pos[u], pos[v]]), props, f"edge {u!r}-{v!r}", None, "e"
        )
    meta: dict[str, Any] = {"name": header_name(g, where), "width": LAYOUT_MM, "height": LAYOUT_MM}
    if pos:
        meta["width"] = max(LAYOUT_MM, max(x for x, _ in pos.values()))
        meta["height"] = max(LAYOUT_MM, max(y for _, y in pos.values()))
    rules = settings.rules if settings.rules is not None else g.graph.get("rules")
    if isinstance(rules, str):
        if rules not in plugins():
            problems.add("", f"unknown rules {rules!r} (installed: {', '.join(plugins())})")
        meta["rules"] = rules
    board = builder.board(Board(), meta)
    return ImportResult(board, fmt, where, losses.lines())


def header_name(g: nx.Graph, where: str) -> str:
    name = g.graph.get("name")
    return name if isinstance(name, str) and name else Path(where).stem
