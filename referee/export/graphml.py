"""The compiled graph as GraphML that networkx, igraph and rustworkx all read.

What the GraphML primer leaves to the writer, and the readers insist on:

- one ``<key>`` per attribute name and domain (``node``, ``edge``) with one
  ``attr.type``: igraph refuses a second key of the same name in a domain
  (``Duplicate attribute name found``);
- booleans written ``true`` / ``false`` (XML Schema booleans; rustworkx refuses
  Python's ``True``);
- integers ``long``, floats ``double``, strings ``string``.

Values that GraphML has no type for — lists and mappings (``letters``, ``arrival``,
``bearings``), and every value of an attribute whose values are of several types
(``heading`` is a bearing in degrees or a wind name) — are JSON text prefixed
``json:``, which :func:`from_graphml` decodes, so the graph read back equals the
compiled graph. What XML 1.0 cannot hold (control characters, lone surrogates) and
non-finite numbers are refused with a :class:`~referee.errors.BoardError` naming the
node or edge. ``None`` values are left out (GraphML has no null); the node attribute
``tile`` (``None`` for free-standing features) is restored on reading.

The graph is ``edgedefault="undirected"`` and may have parallel edges (the compiled
graph is a networkx ``MultiGraph``); an edge's ``id`` is its key in that multigraph,
and the graph's ``data`` carries the header of our compiled-board JSON (``format``,
``version``, ``name``, ``rules``, ``board_hash``) and ``board``, the geometry and
assets a graph has no place for (:func:`referee.export.carry.board_block`, JSON text).

Notes
-----
Linear in the number of nodes, edges and attributes.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any
from xml.etree import ElementTree as ET

import networkx as nx

from ..compiler import CompiledBoard
from ..errors import BoardError
from .carry import board_block

GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns"
JSON_PREFIX = "json:"

_SCALAR_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),  # before int: bool is an int
    (int, "long"),
    (float, "double"),
    (str, "string"),
)


#: Characters XML 1.0 cannot hold at all (not even escaped), and lone surrogates.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _check(value: Any, where: str) -> None:
    """Refuse what GraphML cannot carry, naming the node or edge (a :class:`BoardError`)."""
    if isinstance(value, str):
        m = _XML_ILLEGAL.search(value)
        if m:
            raise BoardError(
                f"{value[:40]!r} holds U+{ord(m.group()):04X}, which XML cannot carry",
                code="bad_text",
                location=where,
            )
    elif isinstance(value, float) and not math.isfinite(value):
        raise BoardError(f"{value} is not a finite number", code="bad_number", location=where)
    elif isinstance(value, dict):
        for k, v in value.items():
            _check(k, where)
            _check(v, where)
    elif isinstance(value, list | tuple):
        for v in value:
            _check(v, where)


def _type_name(value: Any) -> str | None:
    """The GraphML type of a scalar, or None if GraphML has none for it."""
    if isinstance(value, str) and value.startswith(JSON_PREFIX):
        return None  # written as JSON text, so reading it back cannot mistake it
    for py, name in _SCALAR_TYPES:
        if isinstance(value, py):
            return name
    return None


class _Keys:
    """The ``<key>`` declarations of one domain: one type per attribute name.

    An attribute whose values all have one GraphML type keeps it (``long`` and
    ``double`` together become ``double``); any other attribute is JSON text.
    """

    def __init__(self, domain: str, prefix: str, rows: Iterable[Mapping[str, Any]]) -> None:
        self.domain = domain
        seen: dict[str, set[str | None]] = {}
        for row in rows:
            for name, value in row.items():
                if value is not None:
                    seen.setdefault(name, set()).add(_type_name(value))
        self.types: dict[str, str | None] = {}
        for name, types in seen.items():
            if types == {"long", "double"}:
                types = {"double"}
            self.types[name] = types.pop() if len(types) == 1 else None
        self.ids = {name: f"{prefix}{i}" for i, name in enumerate(sorted(self.types))}

    def declare(self, root: ET.Element) -> None:
        for name in sorted(self.types):
            ET.SubElement(
                root,
                "key",
                {
                    "id": self.ids[name],
                    "for": self.domain,
                    "attr.name": name,
                    "attr.type": self.types[name] or "string",
                },
            )

    def data(self, parent: ET.Element, row: Mapping[str, Any], where: str) -> None:
        for name, value in row.items():
            if value is None:
                continue
            _check(name, where)
            _check(value, where)
            d = ET.SubElement(parent, "data", {"key": self.ids[name]})
            d.text = _text(value, self.types[name])


def _text(value: Any, type_name: str | None) -> str:
    if type_name is None:
        return JSON_PREFIX + json.dumps(value, sort_keys=True, ensure_ascii=False)
    if type_name == "boolean":
        return "true" if value else "false"
    if type_name == "double":
        return repr(float(value))
    return str(value)


def to_graphml(compiled: CompiledBoard) -> str:
    """The compiled graph as GraphML text (UTF-8, with an XML declaration)."""
    g = compiled.graph
    board = compiled.board
    header = {
        "format": "boardwright-compiled",
        "name": board.name,
        "rules": board.rules,
        "board_hash": compiled.hash,
        "board": board_block(compiled, None),
    }
    node_rows = [d for _, d in g.nodes(data=True)]
    edge_rows = [d for _, _, d in g.edges(data=True)]
    keys = (
        _Keys("graph", "g", [header]),
        _Keys("node", "n", node_rows),
        _Keys("edge", "e", edge_rows),
    )
    root = ET.Element("graphml", {"xmlns": GRAPHML_NS})
    for k in keys:
        k.declare(root)
    graph = ET.SubElement(root, "graph", {"id": "G", "edgedefault": "undirected"})
    # the header goes first in the file but is written last: a value XML cannot carry
    # is then reported at its node or edge, not in the header's copy of the board
    head = ET.Element("graph")
    for n, d in g.nodes(data=True):
        where = f"graphml node {n!r}"
        _check(n, where)
        keys[1].data(ET.SubElement(graph, "node", {"id": str(n)}), d, where)
    for u, v, k, d in g.edges(keys=True, data=True):
        where = f"graphml edge {u!r}-{v!r}"
        _check(k, where)
        edge = ET.SubElement(graph, "edge", {"id": str(k), "source": str(u), "target": str(v)})
        keys[2].data(edge, d, where)
    keys[0].data(head, header, "graphml graph")
    for i, el in enumerate(head):
        graph.insert(i, el)
    ET.indent(root, space=" ")
    buf = io.BytesIO()
    ET.ElementTree(root).write(buf, encoding="utf-8", xml_declaration=True)
    return buf.getvalue().decode("utf-8") + "\n"


def from_graphml(text: str) -> nx.MultiGraph:
    """Read :func:`to_graphml` output back into the compiled graph (networkx).

    The ``json:`` attributes are decoded and ``tile`` is restored where it was
    ``None``; node ids, edge keys and every attribute equal the compiled graph's.
    """
    g = nx.read_graphml(io.BytesIO(text.encode("utf-8")), force_multigraph=True)
    _decode(g.graph)
    for _, d in g.nodes(data=True):
        _decode(d)
        d.setdefault("tile", None)
    for _, _, d in g.edges(data=True):
        _decode(d)
    return g


def _decode(d: dict[str, Any]) -> None:
    for k, v in list(d.items()):
        if isinstance(v, str) and v.startswith(JSON_PREFIX):
            d[k] = json.loads(v[len(JSON_PREFIX) :])
