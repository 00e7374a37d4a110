"""The difference between two versions of a board, in the game's words.

:func:`diff_boards` compiles both versions and compares

- the **placements** (a tile turned, moved, swapped for another tile, placed or taken
  away), the embedded **tile assets** (a tile's drawing edited), the
  **free-standing features** and the board **metadata** — the *causes*;
- the compiled **nodes** (added, removed, moved, properties changed) and **edges**
  (added, removed, attributes changed) — the *effects* on the graph.

Every graph change is explained by the causes that touch it: a path edge lists the
tiles its chain runs over (``tiles``), a node belongs to a tile (``tile``), so
``path t07/c–t08/c removed: tile t08 turned (1 → 3)``. A change no cause explains
(the compiler changed, say) is reported without a reason.

Edges are matched by relation and end nodes; several edges of one relation between
the same two nodes are matched by key, then in order. Path bearings are compared
rounded to 0.01°, lengths to 0.01 mm, positions to 0.001 mm.

Notes
-----
Linear in nodes + edges after the two compiles.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .compiler import CompiledBoard, compile_board
from .model import Board

_POS_ATTRS = ("x", "y")
_EDGE_IGNORE = ("u", "v", "bearings")  # orientation bookkeeping, implied by bearing_u/v


def _round(v: Any) -> Any:
    if isinstance(v, float):
        return round(v, 2)
    if isinstance(v, list):
        return [_round(x) for x in v]
    if isinstance(v, dict):
        return {k: _round(x) for k, x in v.items()}
    return v


def _fmt(v: Any) -> str:
    if isinstance(v, str):
        return v
    return json.dumps(v, sort_keys=True)


@dataclass
class Change:
    """One difference: ``what`` (``placement``, ``tile_asset``, ``feature``, ``meta``,
    ``node``, ``edge``), ``action`` (``added``, ``removed``, ``changed``, ``turned``,
    ``moved``, ``swapped``), the thing's id, details and the reasons found."""

    what: str
    action: str
    id: str
    text: str
    details: dict[str, Any] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return self.text + (f": {'; '.join(self.reasons)}" if self.reasons else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "what": self.what,
            "action": self.action,
            "id": self.id,
            "text": str(self),
            "details": self.details,
            "reasons": self.reasons,
        }


@dataclass
class BoardDiff:
    """All differences, causes first, then nodes, then edges."""

    causes: list[Change]
    nodes: list[Change]
    edges: list[Change]

    @property
    def equal(self) -> bool:
        return not (self.causes or self.nodes or self.edges)

    def changes(self) -> list[Change]:
        return self.causes + self.nodes + self.edges

    def lines(self) -> list[str]:
        return [str(c) for c in self.changes()]

    def summary(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.changes():
            k = f"{c.what}(s) {c.action}"
            out[k] = out.get(k, 0) + 1
        return dict(sorted(out.items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "equal": self.equal,
            "summary": self.summary(),
            "causes": [c.to_json() for c in self.causes],
            "nodes": [c.to_json() for c in self.nodes],
            "edges": [c.to_json() for c in self.edges],
        }


def diff_boards(old: Board, new: Board) -> BoardDiff:
    """Compile both boards and compare them (see the module docs)."""
    return diff_compiled(compile_board(old), compile_board(new))


def diff_compiled(old: CompiledBoard, new: CompiledBoard) -> BoardDiff:
    """Compare two compiled boards (their ``board`` attributes give the causes)."""
    causes, tile_reason = _causes(old.board, new.board)
    nodes = _node_changes(old, new, tile_reason)
    edges = _edge_changes(old, new, tile_reason)
    _explain_by_neighbours(old, new, nodes + edges, tile_reason)
    return BoardDiff(causes, nodes, edges)


def _explain_by_neighbours(
    a: CompiledBoard, b: CompiledBoard, changes: list[Change], reason: dict[str, str]
) -> None:
    """Give unexplained changes the changed tiles that touch them.

    A port on an unchanged tile becomes a dead end when the tile beside it turns:
    the reason is the changed placement whose outline (before or after) lies within
    the snapping tolerance of the change's nodes.
    """
    import shapely

    outlines: list[tuple[str, Any]] = []
    for board in (a.board, b.board):
        for p in board.placements:
            if p.id in reason:
                try:
                    outlines.append((p.id, board.outline_of(p)))
                except Exception:  # an unknown tile asset: nothing to locate
                    continue
    if not outlines:
        return
    tol = max(a.tol, b.tol)
    for ch in changes:
        if ch.reasons:
            continue
        nodes = ch.details.get("nodes") or [ch.id]
        pts = []
        for n in nodes:
            for g in (a.graph, b.graph):
                if n in g:
                    pts.append(shapely.Point(g.nodes[n]["x"], g.nodes[n]["y"]))
        found: list[str] = []
        for pid, poly in outlines:
            if any(poly.distance(pt) <= tol for pt in pts) and reason[pid] not in found:
                found.append(reason[pid])
        ch.reasons.extend(found)


# ---------------------------------------------------------------------- causes
def _causes(a: Board, b: Board) -> tuple[list[Change], dict[str, str]]:
    out: list[Change] = []
    reason: dict[str, str] = {}  # placement id -> short reason
    pa = {p.id: p for p in a.placements}
    pb = {p.id: p for p in b.placements}
    for pid in sorted(pa.keys() | pb.keys()):
        p, q = pa.get(pid), pb.get(pid)
        if p is None and q is not None:
            reason[pid] = f"tile {pid} placed"
            out.append(
                Change(
                    "placement",
                    "added",
                    pid,
                    f"tile {pid} ({q.tile}) placed at ({q.x:g}, {q.y:g}) turned {q.turns}",
                )
            )
            continue
        if q is None and p is not None:
            reason[pid] = f"tile {pid} taken away"
            out.append(Change("placement", "removed", pid, f"tile {pid} ({p.tile}) taken away"))
            continue
        assert p is not None and q is not None
        parts = []
        if p.tile != q.tile:
            parts.append(f"tile {pid} swapped ({p.tile} → {q.tile})")
            out.append(
                Change("placement", "swapped", pid, parts[-1], {"old": p.tile, "new": q.tile})
            )
        if (p.x, p.y) != (q.x, q.y):
            parts.append(f"tile {pid} moved ({p.x:g}, {p.y:g}) → ({q.x:g}, {q.y:g})")
            out.append(
                Change("placement", "moved", pid, parts[-1], {"old": [p.x, p.y], "new": [q.x, q.y]})
            )
        if p.turns != q.turns:
            parts.append(f"tile {pid} turned ({p.turns} → {q.turns})")
            out.append(
                Change("placement", "turned", pid, parts[-1], {"old": p.turns, "new": q.turns})
            )
        if (
            p.tile == q.tile
            and p.tile in a.tiles
            and p.tile in b.tiles
            and a.tiles[p.tile].to_json() != b.tiles[q.tile].to_json()
        ):
            parts.append(f"tile asset {p.tile} edited")
        if parts:
            reason[pid] = ", ".join(parts)
    for key in sorted(a.tiles.keys() & b.tiles.keys()):
        if a.tiles[key].to_json() != b.tiles[key].to_json():
            out.append(Change("tile_asset", "changed", key, f"tile asset {key} edited"))
    fa = {f.id: f for f in a.features}
    fb = {f.id: f for f in b.features}
    for fid in sorted(fa.keys() | fb.keys()):
        f, g = fa.get(fid), fb.get(fid)
        if f is None and g is not None:
            reason[fid] = f"{g.kind} {fid} drawn"
            out.append(Change("feature", "added", fid, reason[fid]))
        elif g is None and f is not None:
            reason[fid] = f"{f.kind} {fid} erased"
            out.append(Change("feature", "removed", fid, reason[fid]))
        elif f is not None and g is not None and f.to_json() != g.to_json():
            what = "reshaped" if f.geometry.wkb != g.geometry.wkb else "edited"
            reason[fid] = f"{g.kind} {fid} {what}"
            out.append(Change("feature", "changed", fid, reason[fid]))
    for k in sorted(a.meta.keys() | b.meta.keys()):
        if a.meta.get(k) != b.meta.get(k):
            out.append(
                Change(
                    "meta",
                    "changed",
                    k,
                    f"board {k} changed: {_fmt(a.meta.get(k))} → {_fmt(b.meta.get(k))}",
                )
            )
    return out, reason


def _reasons(tiles: list[str | None], reason: dict[str, str]) -> list[str]:
    out: list[str] = []
    for t in tiles:
        if t and t in reason and reason[t] not in out:
            out.append(reason[t])
    return out


# ---------------------------------------------------------------------- nodes
def _node_changes(a: CompiledBoard, b: CompiledBoard, reason: dict[str, str]) -> list[Change]:
    ga, gb = a.graph, b.graph
    out: list[Change] = []
    for n in sorted(ga.nodes.keys() | gb.nodes.keys()):
        da, db = ga.nodes.get(n), gb.nodes.get(n)
        if da is None and db is not None:
            out.append(
                Change(
                    "node",
                    "added",
                    n,
                    f"{db['kind']} {n} added",
                    reasons=_reasons([db.get("tile"), n], reason),
                )
            )
        elif db is None and da is not None:
            out.append(
                Change(
                    "node",
                    "removed",
                    n,
                    f"{da['kind']} {n} removed",
                    reasons=_reasons([da.get("tile"), n], reason),
                )
            )
        elif da is not None and db is not None:
            why = _reasons([db.get("tile"), n], reason)
            if (round(da["x"], 3), round(da["y"], 3)) != (round(db["x"], 3), round(db["y"], 3)):
                out.append(
                    Change(
                        "node",
                        "moved",
                        n,
                        f"{db['kind']} {n} moved "
                        f"({da['x']:g}, {da['y']:g}) → ({db['x']:g}, {db['y']:g})",
                        {"old": [da["x"], da["y"]], "new": [db["x"], db["y"]]},
                        why,
                    )
                )
            for k in sorted((da.keys() | db.keys()) - set(_POS_ATTRS)):
                va, vb = da.get(k), db.get(k)
                if _round(va) != _round(vb):
                    out.append(
                        Change(
                            "node",
                            "changed",
                            n,
                            f"{k} of {db['kind']} {n} changed: {_fmt(va)} → {_fmt(vb)}",
                            {"property": k, "old": va, "new": vb},
                            why,
                        )
                    )
    return out


# ---------------------------------------------------------------------- edges
def _edge_groups(c: CompiledBoard) -> dict[tuple[str, str, str], list[tuple[str, dict[str, Any]]]]:
    groups: dict[tuple[str, str, str], list[tuple[str, dict[str, Any]]]] = {}
    for u, v, k, d in c.graph.edges(keys=True, data=True):
        if d["relation"] == "next":
            a, b = d["tail"], d["head"]
        else:
            a, b = sorted((u, v))
        groups.setdefault((d["relation"], a, b), []).append((k, d))
    for lst in groups.values():
        lst.sort(key=lambda t: t[0])
    return groups


def _edge_attrs(d: dict[str, Any], a: str) -> dict[str, Any]:
    """Attributes seen from end ``a`` (path bearings swapped when ``a`` is the chain's v)."""
    out = {k: _round(v) for k, v in d.items() if k not in _EDGE_IGNORE}
    if d.get("relation") == "path" and d.get("u") != a:
        out["bearing_u"], out["bearing_v"] = out.get("bearing_v"), out.get("bearing_u")
    return out


def _edge_text(rel: str, a: str, b: str) -> str:
    sep = "→" if rel == "next" else "–"
    return f"{rel} {a}{sep}{b}"


def _edge_tiles(c: CompiledBoard, a: str, b: str, d: dict[str, Any]) -> list[str | None]:
    tiles: list[str | None] = list(d.get("tiles") or [])
    for n in (a, b):
        if n in c.graph:
            tiles.append(c.graph.nodes[n].get("tile"))
            tiles.append(n)
    for key in ("river", "bridge", "road", "track"):
        if isinstance(d.get(key), str):
            tiles.append(d[key])
    return tiles


def _edge_changes(a: CompiledBoard, b: CompiledBoard, reason: dict[str, str]) -> list[Change]:
    ea, eb = _edge_groups(a), _edge_groups(b)
    out: list[Change] = []
    for grp in sorted(ea.keys() | eb.keys()):
        rel, n1, n2 = grp
        la, lb = list(ea.get(grp, [])), list(eb.get(grp, []))
        pairs: list[tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]] = []
        keys_b = {k: i for i, (k, _) in enumerate(lb)}
        rest_a = []
        for item in la:
            i = keys_b.get(item[0])
            if i is not None and lb[i] is not None:
                pairs.append((item, lb[i]))
                lb[i] = None  # type: ignore[call-overload]
            else:
                rest_a.append(item)
        rest_b = [x for x in lb if x is not None]
        while rest_a and rest_b:
            pairs.append((rest_a.pop(0), rest_b.pop(0)))
        label = _edge_text(rel, n1, n2)
        for k, d in rest_a:
            out.append(
                Change(
                    "edge",
                    "removed",
                    k,
                    f"{label} removed",
                    {"relation": rel, "nodes": [n1, n2], "attrs": d},
                    _reasons(_edge_tiles(a, n1, n2, d) + _edge_tiles(b, n1, n2, {}), reason),
                )
            )
        for k, d in rest_b:
            out.append(
                Change(
                    "edge",
                    "added",
                    k,
                    f"{label} added",
                    {"relation": rel, "nodes": [n1, n2], "attrs": d},
                    _reasons(_edge_tiles(b, n1, n2, d) + _edge_tiles(a, n1, n2, {}), reason),
                )
            )
        for (_ka, da), (kb, db) in pairs:
            xa, xb = _edge_attrs(da, n1), _edge_attrs(db, n1)
            diffs = {
                k: (xa.get(k), xb.get(k))
                for k in sorted(xa.keys() | xb.keys())
                if xa.get(k) != xb.get(k) and k != "tiles"
            }
            if set(xa.get("tiles") or []) != set(xb.get("tiles") or []):
                diffs["tiles"] = (xa.get("tiles"), xb.get("tiles"))
            if diffs:
                text = f"{label} changed: " + ", ".join(
                    f"{k} {_fmt(o)} → {_fmt(n)}" for k, (o, n) in diffs.items()
                )
                out.append(
                    Change(
                        "edge",
                        "changed",
                        kb,
                        text,
                        {
                            "relation": rel,
                            "nodes": [n1, n2],
                            "changes": {k: {"old": o, "new": n} for k, (o, n) in diffs.items()},
                        },
                        _reasons(_edge_tiles(b, n1, n2, db) + _edge_tiles(a, n1, n2, da), reason),
                    )
                )
    return out
