"""Live, incremental recompilation of the board being edited.

:class:`LiveCompiler` keeps one :class:`~referee.compiler.CompiledBoard` of the
document's board up to date after each edit, choosing the cheapest strategy the
edit allows:

``turn``
    a tile turned: :meth:`CompiledBoard.turn` re-links that tile's ports only.
``props``
    properties that no relation depends on (a point's colour, a space's name …):
    the node attributes are updated in place, O(1) per node.
``regions``
    free-standing spaces, rivers, river dots, bridges or roads were added, removed,
    moved, reshaped or had relation properties changed:
    :meth:`CompiledBoard.update_features` re-derives the region relations around
    them only.
``paths``
    free-standing points, junctions, doors, ports, paths, tracks or counter spaces
    changed (possibly with region features): :meth:`CompiledBoard.update_features`
    rebuilds the path network and updates the region relations incrementally.
``full``
    anything else (tiles placed, moved or removed, settings changed): a complete
    :func:`~referee.compiler.compile_board`.

Notes
-----
Commands report free-standing space edits by id, other feature edits only as
"full"; the live compiler finds what changed by comparing the free-standing
features with a snapshot taken after the previous update (geometry objects by
identity — commands replace a feature's geometry, never mutate it — and
properties by value): O(F) for F features, a few milliseconds for 10,000.
Placements, tiles and settings are compared the same way; if any of them changed
the board is compiled in full. After an incremental update ``compiled.hash`` is
recomputed on demand; playtests compile a fresh copy of the board.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from referee.compiler import CompiledBoard, compile_board
from referee.model import Board, Feature

#: properties the compiled relations depend on, per kind (others only change node attrs)
RELATION_PROPS = {
    "path": {"medium", "guard"},
    "space": {"terrain", "city"},
    "river_dot": {"city"},
    "counter_space": {"arrival"},
    "track": {"points"},
}
_REGION_KINDS = ("space", "river", "river_dot", "bridge", "road")
_NODE_FIXED = ("kind", "x", "y", "tile", "feature", "road", "port", "city_space")


@dataclass
class Change:
    """What one edit changed, as a hint for the live compiler."""

    turns: set[str] = field(default_factory=set)  # placement ids turned
    props: set[str] = field(default_factory=set)  # feature ids whose props changed
    prop_keys: set[str] = field(default_factory=set)
    spaces: set[str] = field(default_factory=set)  # free-standing spaces added/moved/removed
    full: bool = False

    def merge(self, other: Change) -> None:
        self.turns |= other.turns
        self.props |= other.props
        self.prop_keys |= other.prop_keys
        self.spaces |= other.spaces
        self.full |= other.full

    @property
    def empty(self) -> bool:
        return not (self.turns or self.props or self.spaces or self.full)


@dataclass
class _Snapshot:
    """The board as last compiled: free features, placements, tiles, settings."""

    features: dict[str, tuple[str, Any, dict[str, Any]]]
    placements: list[tuple[str, str, float, float, int]]
    tiles: dict[str, int]
    settings: dict[str, Any]

    @classmethod
    def of(cls, board: Board) -> _Snapshot:
        return cls(
            {f.id: (f.kind, f.geometry, copy.deepcopy(f.props)) for f in board.features},
            [(p.id, p.tile, p.x, p.y, p.turns) for p in board.placements],
            {k: id(t) for k, t in board.tiles.items()},
            copy.deepcopy(board.settings),
        )

    def same_frame(self, board: Board, ignore_turns: bool = False) -> bool:
        """True if placements, tiles and settings are as in the snapshot."""
        now = [(p.id, p.tile, p.x, p.y, p.turns) for p in board.placements]
        if ignore_turns:
            now = [(a, b, c, d, 0) for a, b, c, d, _ in now]
            was = [(a, b, c, d, 0) for a, b, c, d, _ in self.placements]
        else:
            was = self.placements
        return (
            now == was
            and {k: id(t) for k, t in board.tiles.items()} == self.tiles
            and board.settings == self.settings
        )

    def refresh(self, board: Board, fids: set[str]) -> None:
        """Take the features ``fids`` (and placements, tiles, settings) anew, O(len(fids))."""
        feats = {f.id: f for f in board.features if f.id in fids} if fids else {}
        for fid in fids:
            f = feats.get(fid)
            if f is None:
                self.features.pop(fid, None)
            else:
                self.features[fid] = (f.kind, f.geometry, copy.deepcopy(f.props))
        self.placements = [(p.id, p.tile, p.x, p.y, p.turns) for p in board.placements]

    def props_only(self, fids: set[str], feats: dict[str, Feature]) -> bool:
        """True if the features ``fids`` all still exist with their kind and geometry."""
        for fid in fids:
            old, f = self.features.get(fid), feats.get(fid)
            if old is None or f is None or old[0] != f.kind or old[1] is not f.geometry:
                return False
        return True

    def changed_features(self, board: Board) -> set[str]:
        """Ids of free features added, removed, or with another kind, geometry or props."""
        out: set[str] = set()
        seen = self.features
        for f in board.features:
            old = seen.get(f.id)
            if old is None or old[1] is not f.geometry or old[0] != f.kind or old[2] != f.props:
                out.add(f.id)
        if len(board.features) - len(out) != len(seen):
            now = {f.id for f in board.features}
            out.update(fid for fid in seen if fid not in now)
        return out


class LiveCompiler:
    """A compiled board kept in step with a board under edit."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.compiled: CompiledBoard = compile_board(board)
        self.last_strategy = "full"
        self.last_summary: dict[str, Any] = {}
        self._snap = _Snapshot.of(board)

    def _full(self) -> str:
        self.compiled = compile_board(self.board)
        self._snap = _Snapshot.of(self.board)
        self.last_summary = {}
        return "full"

    # ------------------------------------------------------------------ update
    def update(self, change: Change) -> str:
        """Bring the compiled board up to date after ``change``; return the strategy used."""
        self.last_strategy = self._update(change)
        return self.last_strategy

    def _update(self, change: Change) -> str:
        snap = self._snap
        if not snap.same_frame(self.board, ignore_turns=bool(change.turns)):
            return self._full()
        strategy = "props"
        if change.turns:
            if not all(self._turn_ok(pid) for pid in change.turns):
                return self._full()
            for pid in sorted(change.turns):
                self.compiled.turn(pid, self.board.placement(pid).turns, edit=True)
            strategy = "turn"
        fids = snap.changed_features(self.board)
        feats = {f.id: f for f in self.board.features}
        if (
            fids
            and fids <= change.props
            and snap.props_only(fids, feats)
            and not (change.prop_keys & _relation_keys(fids, feats))
        ):
            # only properties no relation depends on: node attributes in place
            self._update_props(fids, feats)
        elif fids:
            summary = self.compiled.update_features(fids)
            self.last_summary = summary
            strategy = "paths" if summary["paths"] else "regions"
        snap.refresh(self.board, fids)
        return strategy

    def _turn_ok(self, pid: str) -> bool:
        """A turn can be applied incrementally if the compiled board knows the tile."""
        return any(o == pid for o, _ in self.compiled.features.values())

    def _update_props(self, fids: set[str], feats: dict[str, Feature]) -> None:
        g = self.compiled.graph
        for fid in fids:
            f = feats[fid]
            self.compiled.features[fid] = (None, f)
            if fid in g:
                node = g.nodes[fid]
                for k in [k for k in node if k not in _NODE_FIXED]:
                    del node[k]
                for k, v in f.props.items():
                    if v is not None:
                        node[k] = v
        self.compiled._hash = None


def _relation_keys(fids: set[str], feats: dict[str, Feature]) -> set[str]:
    """The property keys relations depend on, for the kinds of the features ``fids``."""
    out: set[str] = set()
    for fid in fids:
        out |= RELATION_PROPS.get(feats[fid].kind, set())
    return out
