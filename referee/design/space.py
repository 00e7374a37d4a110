"""What the designer leaves free: which tile lies in which slot, and its initial turn.

A **slot** is a placement of the start board (its id, centre and outline). A
**layout** gives every slot a tile and a turn: ``((tile key, turns), …)`` in the
order of the board's placements. A tile may move only to a slot of the same
outline (shape and size); a **pinned** slot keeps its tile and turn, or the tile
and turn a ``--pin SLOT=TILE@TURNS`` puts there. The slots holding a start or a
goal node are pinned (the nodes must stay where the designer put them).

Moves of the search (:meth:`Space.propose`): swap the contents of two slots of the
same outline, or give one tile another turn. Turning a tile that turns in play
does not change the census (it counts every turn of those tiles), so that move is
offered only when a measure reads the initial turns (``turns_matter``).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import UsageError
from ..model import Board

#: one slot's content: (tile key, turns)
Cell = tuple[str, int]
Layout = tuple[Cell, ...]


def layout_key(layout: Layout) -> str:
    """A short stable hash of a layout (the candidate's key in the store)."""
    text = json.dumps([list(c) for c in layout], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


@dataclass(frozen=True)
class Slot:
    id: str
    x: float
    y: float
    outline: str
    pinned: bool


@dataclass
class Space:
    """The slots, the start layout and what may change (see the module notes)."""

    board: Board
    slots: list[Slot]
    start: Layout
    turns_matter: bool = False

    # ------------------------------------------------------------------ building
    @classmethod
    def from_board(
        cls,
        board: Board,
        *,
        pins: Sequence[str] = (),
        fixed_slots: Sequence[str] = (),
        turns_matter: bool = False,
    ) -> Space:
        """The design space of ``board``.

        ``pins``: ``SLOT`` (keep what lies there) or ``SLOT=TILE`` / ``SLOT=TILE@TURNS``
        (put that tile there, taken from the tiles on the board). ``fixed_slots``: slots
        pinned as they are (those with a start or goal node).

        Raises
        ------
        UsageError
            An unknown slot or tile, a slot pinned twice, a tile pinned more often
            than the board has it, a tile pinned to a slot of another outline.
        """
        ids = [p.id for p in board.placements]
        if not ids:
            raise UsageError("the board has no placed tiles to arrange")
        known = set(ids)
        start = {p.id: (p.tile, p.turns % board.tile_of(p).turn_count) for p in board.placements}
        outline = {p.id: _outline(board, p.tile) for p in board.placements}
        pinned: dict[str, Cell] = {s: start[s] for s in fixed_slots}
        named: set[str] = set()
        for raw in pins:
            text = raw.strip()
            if not text:
                continue
            slot, _, what = text.partition("=")
            slot = slot.strip()
            if slot not in known:
                raise UsageError(f"--pin {text}: no tile is placed as {slot!r}")
            if slot in named:
                raise UsageError(f"--pin {text}: slot {slot!r} is pinned twice")
            named.add(slot)
            if not what.strip():
                pinned[slot] = start[slot]
                continue
            if slot in fixed_slots:
                raise UsageError(
                    f"--pin {text}: slot {slot!r} holds a start or goal node and keeps its tile"
                )
            tile, _, turns_text = what.strip().partition("@")
            if tile not in board.tiles:
                raise UsageError(f"--pin {text}: the board has no tile {tile!r}")
            turns = start[slot][1] if tile == start[slot][0] else 0
            if turns_text:
                try:
                    turns = int(turns_text)
                except ValueError:
                    raise UsageError(f"--pin {text}: turns must be a number") from None
            if _outline(board, tile) != outline[slot]:
                raise UsageError(
                    f"--pin {text}: tile {tile!r} has another outline than slot {slot!r}"
                )
            pinned[slot] = (tile, turns % board.tiles[tile].turn_count)
        have = Counter(c[0] for c in start.values())
        want = Counter(c[0] for c in pinned.values())
        for tile, n in want.items():
            if n > have[tile]:
                where = ", ".join(sorted(s for s, c in pinned.items() if c[0] == tile))
                raise UsageError(
                    f"impossible pins: tile {tile!r} is pinned to {where} but the board "
                    f"has it {have[tile]} time(s)"
                )
        # the tiles not pinned fill the free slots; a pin that takes a tile from
        # another slot leaves that slot's outline short unless a tile swaps back
        free = [s for s in ids if s not in pinned]
        pool = Counter(c for s, c in start.items())
        for c in pinned.values():
            match = next((k for k in pool if k[0] == c[0] and pool[k] > 0), None)
            assert match is not None  # counted above
            pool[match] -= 1
        by_outline: dict[str, list[Cell]] = {}
        for c, n in sorted(pool.items()):
            by_outline.setdefault(_outline(board, c[0]), []).extend([c] * n)
        cells: dict[str, Cell] = dict(pinned)
        for s in free:
            if start[s] in by_outline.get(outline[s], []):
                cells[s] = start[s]
                by_outline[outline[s]].remove(start[s])
        for s in free:
            if s in cells:
                continue
            left = by_outline.get(outline[s], [])
            if not left:
                raise UsageError(f"impossible pins: no tile of slot {s!r}'s outline is left for it")
            cells[s] = left.pop(0)
        slots = [Slot(p.id, p.x, p.y, outline[p.id], p.id in pinned) for p in board.placements]
        return cls(board, slots, tuple(cells[s] for s in ids), turns_matter)

    # ------------------------------------------------------------------ moves
    def movable(self) -> list[int]:
        return [i for i, s in enumerate(self.slots) if not s.pinned]

    def check_free(self) -> None:
        """Refuse a space with nothing to vary."""
        idx = self.movable()
        groups = Counter(self.slots[i].outline for i in idx)
        if any(n > 1 for n in groups.values()):
            return
        if any(self._turn_options(self.start, i) for i in idx):
            return
        raise UsageError("nothing to design: every tile is pinned or alone of its outline")

    def _turn_options(self, layout: Layout, i: int) -> list[int]:
        tile, turns = layout[i]
        asset = self.board.tiles[tile]
        if asset.turnable and not self.turns_matter:
            return []
        return [t for t in range(asset.turn_count) if t != turns]

    def propose(self, layout: Layout, rng: random.Random) -> Layout:
        """A neighbour of ``layout``: a swap of two slots of one outline, or a new turn.

        Draws from ``rng`` only (the same seed gives the same proposals).
        """
        idx = self.movable()
        for _ in range(1000):
            i = idx[rng.randrange(len(idx))]
            turn_opts = self._turn_options(layout, i)
            partners = [
                j
                for j in idx
                if j != i
                and self.slots[j].outline == self.slots[i].outline
                and layout[j] != layout[i]
            ]
            if partners and (not turn_opts or rng.random() < 0.7):
                j = partners[rng.randrange(len(partners))]
                out = list(layout)
                out[i], out[j] = layout[j], layout[i]
                return tuple(out)
            if turn_opts:
                out = list(layout)
                out[i] = (layout[i][0], turn_opts[rng.randrange(len(turn_opts))])
                return tuple(out)
        raise UsageError("nothing to design: no move changes the layout")

    # ------------------------------------------------------------------ boards
    def board_of(self, layout: Layout) -> Board:
        """The board with ``layout`` laid (shares the tile assets with the start board)."""
        placements = [
            replace(p, tile=c[0], turns=c[1]) for p, c in zip(self.board.placements, layout)
        ]
        return replace(self.board, placements=placements)

    def census_key(self, layout: Layout) -> str:
        """What decides the census: each slot's tile, and the turn of tiles that do not
        turn in play (the census counts every turn of the others)."""
        cells = [(t, turns if not self.board.tiles[t].turnable else -1) for t, turns in layout]
        return layout_key(tuple(cells))

    @property
    def original(self) -> Layout:
        """The layout of the board as given (before any ``--pin`` moved a tile)."""
        return tuple(
            (p.tile, p.turns % self.board.tile_of(p).turn_count) for p in self.board.placements
        )

    def changes(self, layout: Layout) -> list[str]:
        """Slots whose tile or turn differs from the board as given."""
        return [s.id for s, a, b in zip(self.slots, layout, self.original) if a != b]


def _outline(board: Board, tile: str) -> str:
    return json.dumps(board.tiles[tile].outline_spec, sort_keys=True)
