"""Building the compiled graph in bulk: many nodes and edges, fast.

A 10,000-space map compiles to about 10,000 nodes and 32,000 edges. Two costs were
not the compiler's own work:

- **networkx's per-edge path.** ``MultiGraph.add_edges_from`` calls ``add_edge``
  for every edge, which looks the edge up again through three view objects and
  copies its attributes twice. :func:`add_edges` and :func:`add_nodes` write the
  same dict-of-dicts networkx documents for its graph classes (``_node[n]`` the
  attributes; ``_adj[u][v]`` one key dict shared by both ends; ``key -> attrs``),
  with the same results — a new node gets its attributes, an existing one has them
  updated; an existing edge key has its attributes updated — and clear the
  converted-graph cache as networkx's own mutators do. About a third of the time.
- **The cyclic garbage collector.** The compile creates hundreds of thousands of
  small containers that form no reference cycles (reference counting frees them),
  yet the collector runs every few hundred allocations and, whenever its oldest
  generation comes round, walks every object of the process, the board's
  geometries included: a quarter to a third of the compile.
  :func:`collector_paused` turns it off for the duration.

And one small one: ``round(x, 6)`` on every border length and node coordinate
(Python's correctly rounded decimal rounding, about half a microsecond a call);
:func:`round_all` gives the same floats, bit for bit, for a whole array at once.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import networkx as nx
import numpy as np


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the block with :mod:`gc` disabled; re-enable it after if it was enabled.

    The switch is process-wide: other threads run without the cyclic collector for
    as long as the block takes (reference counting still frees their garbage; a
    cycle made meanwhile waits for the next collection).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _changed(g: nx.MultiGraph) -> None:
    """What networkx's mutators do after a change: drop cached conversions (nx >= 3.3)."""
    cache = g.__dict__.get("__networkx_cache__")
    if cache:
        cache.clear()


def add_nodes(g: nx.MultiGraph, nodes: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """``g.add_nodes_from(nodes)`` for ``(node, attrs)`` pairs; a new node keeps the
    ``attrs`` dict itself (pass a fresh one), an existing node has its own updated.

    O(1) per node.
    """
    adj, node = g._adj, g._node
    for n, attrs in nodes:
        have = node.get(n)
        if have is None:
            adj[n] = {}
            node[n] = attrs
        else:
            have.update(attrs)
    _changed(g)


def add_edges(g: nx.MultiGraph, edges: Iterable[tuple[str, str, str, str, dict[str, Any]]]) -> None:
    """``g.add_edges_from((u, v, key, attrs) ...)`` for the compiler's
    ``(u, v, key, relation, attrs)`` edges (the relation is also in ``attrs``).

    A new edge gets a copy of ``attrs``; an existing ``(u, v, key)`` has its
    attributes updated; a missing end becomes a node without attributes. O(1) per
    edge.
    """
    adj, node = g._adj, g._node
    for u, v, key, _, attrs in edges:
        nbrs = adj.get(u)
        if nbrs is None:
            nbrs = adj[u] = {}
            node[u] = {}
        keyed = nbrs.get(v)
        if keyed is None:  # a first edge between u and v
            if v not in adj:
                adj[v] = {}
                node[v] = {}
            nbrs[v] = adj[v][u] = {key: dict(attrs)}
            continue
        data = keyed.get(key)
        if data is None:
            keyed[key] = dict(attrs)
        else:
            data.update(attrs)
    _changed(g)


def add_pair_edges(
    g: nx.MultiGraph, pairs: dict[tuple[str, str], dict[str, Any]], relation: str
) -> None:
    """``add_edges`` for the edges ``(u, v, f"{relation}:{u}|{v}", relation, attrs)`` of
    ``(u, v) -> attrs``, in that order, with the same results.

    The compiler's ``touch`` edges: most of a region map's edges, each the first edge
    between two existing nodes. Those take one step (a key dict holding a copy of
    the attributes, set at both ends) without building the edge tuples first; any
    other (a missing end, an edge already between the two) goes through
    :func:`add_edges`. O(1) per edge.
    """
    adj = g._adj
    for (u, v), attrs in pairs.items():
        try:
            nu = adj[u]
            nv = adj[v]
        except KeyError:  # a missing end
            nu = None
        if nu is None or v in nu:
            add_edges(g, [(u, v, f"{relation}:{u}|{v}", relation, attrs)])
        else:
            nu[v] = nv[u] = {f"{relation}:{u}|{v}": attrs.copy()}
    _changed(g)


def round_all(values: Iterable[float], ndigits: int) -> list[float]:
    """``[round(x, ndigits) for x in values]``, bit for bit, vectorized.

    ``round`` rounds the exact binary value half to even at ``ndigits`` decimals and
    returns the nearest float. Here ``rint(x · 10^ndigits) / 10^ndigits``: the
    division of two exact numbers is the nearest float too, and the ``rint`` sees
    the exact product's side of every half-way point unless the computed product
    lies within its rounding error of one; those few (and non-finite or huge
    values) go to ``round`` itself.
    """
    xs = list(values)
    if not 0 <= ndigits <= 22:
        return [round(x, ndigits) for x in xs]
    x = np.asarray(xs, dtype=np.float64)
    scale = float(10**ndigits)
    with np.errstate(over="ignore", invalid="ignore"):
        y = x * scale
        out: list[float] = (np.rint(y) / scale).tolist()
        near_half = np.abs(y - np.floor(y) - 0.5) <= 1e-9 + np.abs(y) * 2.0**-50
        unsure = near_half | ~np.isfinite(y) | (np.abs(y) >= 2.0**52)
    for i in np.flatnonzero(unsure).tolist():
        out[i] = round(xs[i], ndigits)
    return out
