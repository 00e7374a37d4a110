"""What the designer leaves free: which tile lies in which slot, and its initial turn.

A **slot** is a placement of the start board (its id, centre and outline). A
**layout** gives every slot a tile and a turn: ``((tile key, turns), …)`` in the
order of the board's placements. A tile may move only to a slot of the same
outline (shape and size); a **pinned** slot keeps its tile and turn, or the tile
and turn a ``--pin SLOT=TILE@TURNS`` puts there. The slots holding a start or a
goal node are pinned (the nodes must stay where the designer put them).

With an asset pack (``--pack``) a slot may also take a tile of its outline from
the pack instead of the one it holds, as many times as ``--count TILE=N`` allows
(packs declare no count for their tiles, so by default a pack tile may lie in any
number of slots); a tile of the board set aside that way may come back. How many
slots may hold a tile is its **supply**: its count on the board for the board's
own tiles, ``--count`` or no limit for the pack's.

Moves of the search (:meth:`Space.propose`): swap the contents of two slots of the
same outline, give one tile another turn, or (with a pack) put another tile of the
slot's outline from the supply there. Turning a tile that turns in play
does not change the census (it counts every turn of those tiles), so that move is
offered only when a measure reads the initial turns (``turns_matter``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..assets import AssetPack
from ..errors import UsageError
from ..model import Board, TileAsset
from .symmetry import MATRICES, SYMMETRIES, SymmetryTable, apply, is_mirror, orbits

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
    #: a name of :data:`.symmetry.SYMMETRIES` or None; ``image[i]`` is the slot slot
    #: ``i`` goes to, ``table`` what each (tile, turn) looks like there
    symmetry: str | None = None
    image: list[int] | None = None
    #: ``--pack``: the pack, and its tiles of the slots' outlines that may come in
    pack: AssetPack | None = None
    pack_tiles: dict[str, TileAsset] = field(default_factory=dict)
    #: how many slots may hold each tile (None: no limit; see the module notes)
    supply: dict[str, int | None] = field(default_factory=dict)
    table: SymmetryTable | None = None
    #: each slot's orbit under the symmetry, from that slot on, in image order
    orbit_of: dict[int, list[int]] = field(default_factory=dict)

    def pack_fingerprint(self) -> str:
        """A hash of the pack's tiles that may come in (their keys and contents)."""
        data = [self.pack_tiles[k].to_json() for k in sorted(self.pack_tiles)]
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def tiles(self) -> dict[str, TileAsset]:
        """The tiles a layout may use: the board's, then the pack's it does not hold."""
        return {**self.pack_tiles, **self.board.tiles}

    # ------------------------------------------------------------------ building
    @classmethod
    def from_board(
        cls,
        board: Board,
        *,
        pins: Sequence[str] = (),
        fixed_slots: Sequence[str] = (),
        turns_matter: bool = False,
        symmetry: str | None = None,
        pack: AssetPack | None = None,
        counts: Sequence[str] = (),
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
        have = Counter(c[0] for c in start.values())
        pack_tiles, supply = _pack_supply(board, pack, counts, set(outline.values()), have)
        tiles = {**pack_tiles, **board.tiles}
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
            if tile not in tiles:
                where = " or the pack" if pack else ""
                raise UsageError(f"--pin {text}: the board{where} has no tile {tile!r}")
            turns = start[slot][1] if tile == start[slot][0] else 0
            if turns_text:
                try:
                    turns = int(turns_text)
                except ValueError:
                    raise UsageError(f"--pin {text}: turns must be a number") from None
            if _spec(tiles[tile]) != outline[slot]:
                raise UsageError(
                    f"--pin {text}: tile {tile!r} has another outline than slot {slot!r}"
                )
            pinned[slot] = (tile, turns % tiles[tile].turn_count)
        want = Counter(c[0] for c in pinned.values())
        for tile, n in want.items():
            cap = supply.get(tile, have[tile])
            if cap is not None and n > cap:
                where = ", ".join(sorted(s for s, c in pinned.items() if c[0] == tile))
                has = "--count allows" if tile in supply else "the board has"
                raise UsageError(
                    f"impossible pins: tile {tile!r} is pinned to {where} but {has} "
                    f"it {cap} time(s)"
                )
        # the tiles not pinned fill the free slots; a pin that takes a tile from
        # another slot leaves that slot's outline short unless a tile swaps back
        free = [s for s in ids if s not in pinned]
        pool = Counter(c for s, c in start.items())
        for c in pinned.values():
            match = next((k for k in pool if k[0] == c[0] and pool[k] > 0), None)
            if match is not None:  # None: a pack tile, or more copies than the board has
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
        space = cls(
            board, slots, tuple(cells[s] for s in ids), turns_matter, None, None, pack, pack_tiles
        )
        space.supply = supply
        if symmetry not in (None, "", "none"):
            space._symmetrize(str(symmetry))
        return space

    def _symmetrize(self, name: str) -> None:
        """Set the symmetry up and refuse what no layout can meet (see :meth:`asymmetry`)."""
        self.symmetry, self.image = name, _images(self.board, self.slots, name)
        self.table = table = SymmetryTable(name, self.tiles)
        for orb in orbits(self.image):
            for n, i in enumerate(orb):
                self.orbit_of[i] = orb[n:] + orb[:n]
        what = "mirror image" if is_mirror(name) else "image"
        opt = f"--symmetry {name}"
        if self.pack is None:  # every tile of the board lies somewhere
            for tile in sorted({c[0] for c in self.start}):
                if not table.partners.get(tile):
                    raise UsageError(
                        f"{opt}: tile {tile!r} has no {what} among the tiles of its outline "
                        "(no turn of any tile has its ports and paths there), so no layout "
                        "is symmetric"
                    )
        free = {c[0] for s, c in zip(self.slots, self.start) if not s.pinned}
        if self.pack is not None:
            free |= set(self.pack_tiles)
        for i, s in enumerate(self.slots):
            j = self.image[i]
            a, b = self.start[i], self.start[j]
            t = self.slots[j]
            if s.pinned and t.pinned and not table.holds(a, b):
                pair = (
                    f"pinned slot {s.id!r} is its own image but its tile at its turn is not"
                    if i == j
                    else f"pinned slots {s.id!r} and {t.id!r} are images of each other but "
                    f"{b[0]!r}@{b[1]} is no {what} of {a[0]!r}@{a[1]}"
                )
                raise UsageError(f"{opt}: {pair} (the pins break the symmetry)")
            if s.pinned and not t.pinned and not any(k in free for k, _ in table.image[a]):
                raise UsageError(
                    f"{opt}: slot {s.id!r} is pinned to {a[0]!r}, and no tile left for slot "
                    f"{t.id!r} (its image) is its {what} (the pins break the symmetry)"
                )
        self.start = self.settle(self.start)

    def settle(self, layout: Layout) -> Layout:
        """``layout`` with the turns of its unpinned slots set so each orbit of the
        symmetry is as symmetric as its tiles allow (unchanged without a symmetry).

        In each orbit the first pinned slot (else the first slot) keeps its turn and
        every other unpinned slot takes the turn that makes its tile the image of the
        slot before; a first slot whose tile turns in play (when the initial turns do
        not matter) tries each of its turns for the one that closes the orbit. Tiles
        stay where they are: only the placement moves make a layout symmetric.
        """
        table, image = self.table, self.image
        if table is None or image is None:
            return layout
        cells = list(layout)
        done: set[int] = set()
        for i in range(len(cells)):
            if i in done:
                continue
            orb = self.orbit_of[i]
            done.update(orb)
            pinned = [j for j in orb if self.slots[j].pinned]
            order = self.orbit_of[pinned[0]] if pinned else orb
            if len(pinned) == len(orb):
                continue
            first = order[0]
            head = cells[first]
            asset = self.tiles[head[0]]
            loose = not pinned and asset.turnable and not self.turns_matter
            tries = [head[1]] + (
                [t for t in range(asset.turn_count) if t != head[1]] if loose else []
            )
            best: tuple[int, list[tuple[str, int]]] | None = None
            for t0 in tries:
                trial = [(head[0], t0)]
                for j in order[1:]:
                    cur = cells[j]
                    if not self.slots[j].pinned:
                        turns = table.turns_for(trial[-1], cur[0])
                        if turns and cur[1] not in turns:
                            cur = (cur[0], turns[0])
                    trial.append(cur)
                miss = sum(
                    not table.holds(trial[n], trial[(n + 1) % len(trial)])
                    for n in range(len(trial))
                )
                if best is None or miss < best[0]:
                    best = (miss, trial)
                if miss == 0:
                    break
            assert best is not None
            for j, c in zip(order, best[1]):
                cells[j] = c
        return tuple(cells)

    def asymmetry(self, layout: Layout) -> int:
        """Slots whose image under the symmetry does not hold the image of their tile
        at its turn (0: the layout is symmetric as laid, or no symmetry is asked for).

        Judged by what the tiles look like (:mod:`.symmetry`): the image slot's tile at
        its turn must have the features of this tile at this turn mapped by the
        symmetry. The search lays candidates through :meth:`settle`, so tiles that
        turn in play are compared at the turns that suit the symmetry best.
        """
        if self.table is None or self.image is None:
            return 0
        t = self.table
        return sum(not t.holds(layout[i], layout[j]) for i, j in enumerate(self.image))

    # ------------------------------------------------------------------ moves
    def movable(self) -> list[int]:
        return [i for i, s in enumerate(self.slots) if not s.pinned]

    def check_free(self) -> None:
        """Refuse a space with nothing to vary."""
        idx = self.movable()
        groups = Counter(self.slots[i].outline for i in idx)
        if any(n > 1 for n in groups.values()):
            return
        if any(self._turn_options(self.start, i) or self._swap_in(self.start, i) for i in idx):
            return
        raise UsageError("nothing to design: every tile is pinned or alone of its outline")

    def _turn_options(self, layout: Layout, i: int) -> list[int]:
        tile, turns = layout[i]
        asset = self.tiles[tile]
        if asset.turnable and not self.turns_matter:
            return []
        return [t for t in range(asset.turn_count) if t != turns]

    def _swap_in(self, layout: Layout, i: int) -> list[str]:
        """Tiles of slot ``i``'s outline from the supply that may replace its tile
        (only with a pack: without one every tile is already on the board)."""
        if self.pack is None:
            return []
        used = Counter(c[0] for c in layout)
        own = Counter(c[0] for c in self.original)
        out = []
        for t in sorted(self.tiles):
            if t == layout[i][0] or _spec(self.tiles[t]) != self.slots[i].outline:
                continue
            cap = self.supply.get(t, own[t])
            if cap is None or used[t] < cap:
                out.append(t)
        return out

    def allows(self, layout: Layout) -> bool:
        """Whether ``layout`` fits these slots: known tiles of each slot's outline, none
        in more slots than its supply, the pinned slots as pinned."""
        if len(layout) != len(self.slots):
            return False
        own = Counter(c[0] for c in self.original)
        for t, n in Counter(c[0] for c in layout).items():
            if t not in self.tiles:
                return False
            cap = self.supply.get(t, own[t])
            if cap is not None and n > cap:
                return False
        return all(
            _spec(self.tiles[c[0]]) == s.outline and (not s.pinned or c == p)
            for s, c, p in zip(self.slots, layout, self.start)
        )

    def propose(self, layout: Layout, rng: random.Random) -> Layout:
        """A neighbour of ``layout``: a swap of two slots of one outline, a new turn,
        or (with a pack) another tile from the supply in one slot.

        Draws from ``rng`` only (the same seed gives the same proposals).
        """
        idx = self.movable()
        for _ in range(1000):
            out = self._propose(layout, rng, idx)
            if self.table is None:
                return out
            out = self.settle(out)
            if out != layout:
                return out
        raise UsageError("nothing to design: no move changes the layout")

    def _orbit_swap(self, layout: Layout, rng: random.Random, idx: list[int]) -> Layout | None:
        """Swap the contents of two orbits of the symmetry slot by slot (a move that
        keeps symmetric pairs together), or None when no orbit fits."""
        free = set(idx)
        i = idx[rng.randrange(len(idx))]
        a = self.orbit_of[i]
        shape = [self.slots[j].outline for j in a]

        def fits(k: int) -> bool:
            b = self.orbit_of[k]
            return (
                k not in a
                and len(b) == len(a)
                and all(j in free for j in a + b)
                and [self.slots[j].outline for j in b] == shape
                and [layout[j] for j in b] != [layout[j] for j in a]
            )

        others = [k for k in idx if fits(k)]
        if not others:
            return None
        b = self.orbit_of[others[rng.randrange(len(others))]]
        out = list(layout)
        for x, y in zip(a, b):
            out[x], out[y] = layout[y], layout[x]
        return tuple(out)

    def _repair(self, layout: Layout, rng: random.Random, idx: list[int]) -> Layout | None:
        """An ejection chain toward symmetry, or None when the layout is symmetric.

        From a slot out of symmetry, bring a tile that is the image of its tile into
        its image slot (a tile that is its own image into a slot that is its own
        image), swapping it with the slot it comes from; then go on from that slot,
        which now holds the displaced tile — up to six swaps, each slot fixed once.
        One such move crosses what single swaps cannot: every swap on the way makes
        the layout less symmetric before the last makes it symmetric.
        """
        table, image = self.table, self.image
        assert table is not None and image is not None
        off = [i for i in range(len(layout)) if not table.holds(layout[i], layout[image[i]])]
        if not off:
            return None
        free = set(idx)
        out = list(layout)
        i = off[rng.randrange(len(off))]
        fixed: set[int] = set()
        for _ in range(6):
            j = image[i]
            tile = out[i][0]
            if i == j:
                if tile in table.partners[tile]:
                    break
                want = {t for t, p in table.partners.items() if t in p}
            else:
                want = set(table.partners[tile])
                if out[j][0] in want:
                    break
            if j not in free:
                break
            fixed |= {i, j}
            ks = [
                k
                for k in idx
                if k not in fixed
                and self.slots[k].outline == self.slots[j].outline
                and out[k][0] in want
            ]
            if not ks:
                break
            k = ks[rng.randrange(len(ks))]
            out[j], out[k] = out[k], out[j]
            i = k
        return tuple(out)

    def _propose(self, layout: Layout, rng: random.Random, idx: list[int]) -> Layout:
        for _ in range(1000):
            if self.table is not None and rng.random() < 0.5:
                if rng.random() < 0.4:
                    moved = self._repair(layout, rng, idx)
                else:
                    moved = self._orbit_swap(layout, rng, idx)
                if moved is not None:
                    return moved
            i = idx[rng.randrange(len(idx))]
            incoming = self._swap_in(layout, i)
            if incoming and rng.random() < 0.3:
                tile = incoming[rng.randrange(len(incoming))]
                asset = self.tiles[tile]
                turns = 0 if asset.turnable and not self.turns_matter else None
                out = list(layout)
                out[i] = (tile, rng.randrange(asset.turn_count) if turns is None else turns)
                return tuple(out)
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
        """The board with ``layout`` laid (shares the tile assets with the start board);
        the pack's tiles it uses are embedded, with their pictures."""
        placements = [
            replace(p, tile=c[0], turns=c[1]) for p, c in zip(self.board.placements, layout)
        ]
        extra = {c[0] for c in layout if c[0] not in self.board.tiles}
        if not extra:
            return replace(self.board, placements=placements)
        tiles = {**self.board.tiles, **{t: self.pack_tiles[t] for t in sorted(extra)}}
        faces = [self.pack_tiles[t].face for t in sorted(extra)]
        images = self.board.images
        if self.pack is not None and any(f and f not in images for f in faces):
            images = copy.deepcopy(images)
            for f in faces:
                if f and f not in images:
                    images.register(self.pack.images.info(f), self.pack.images.data(f))
        return replace(self.board, placements=placements, tiles=tiles, images=images)

    def census_key(self, layout: Layout) -> str:
        """What decides the census: each slot's tile, and the turn of tiles that do not
        turn in play (the census counts every turn of the others)."""
        cells = [(t, turns if not self.tiles[t].turnable else -1) for t, turns in layout]
        return layout_key(tuple(cells))

    @property
    def original(self) -> Layout:
        """The layout of the board as given (before any ``--pin`` moved a tile)."""
        return tuple(
            (p.tile, p.turns % self.board.tile_of(p).turn_count) for p in self.board.placements
        )

    def layout_of(self, other: Board, where: str) -> Layout:
        """The layout ``other`` lays in these slots (the same placement ids, tiles of
        this board in slots of their outline), for ``--compare``."""
        by_id = {p.id: p for p in other.placements}
        if set(by_id) != {s.id for s in self.slots}:
            raise UsageError(f"{where}: its tiles are not placed in the same slots (ids)")
        out = []
        for s in self.slots:
            p = by_id[s.id]
            if p.tile not in self.tiles or _spec(self.tiles[p.tile]) != s.outline:
                raise UsageError(
                    f"{where}: slot {s.id!r} holds {p.tile!r}, not a tile of this board that fits it"
                )
            out.append((p.tile, p.turns % self.tiles[p.tile].turn_count))
        return tuple(out)

    def changes(self, layout: Layout) -> list[str]:
        """Slots whose tile or turn differs from the board as given."""
        return [s.id for s, a, b in zip(self.slots, layout, self.original) if a != b]


def _images(board: Board, slots: list[Slot], symmetry: str) -> list[int]:
    """For each slot, the slot its centre goes to under ``symmetry`` about the middle
    of the slots; a slot whose image is no slot of its outline is refused."""
    if symmetry not in MATRICES:
        raise UsageError(
            f"--symmetry must be none or one of {', '.join(SYMMETRIES)}, not {symmetry!r}"
        )
    if symmetry == "rot90" and any(board.tiles[p.tile].turn_count != 4 for p in board.placements):
        raise UsageError("--symmetry rot90 needs tiles that turn in quarter turns")
    m = MATRICES[symmetry]
    xs, ys = [s.x for s in slots], [s.y for s in slots]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    tol = 0.5
    out = []
    for s in slots:
        dx, dy = apply(m, s.x - cx, s.y - cy)
        x, y = cx + dx, cy + dy
        j = next(
            (k for k, t in enumerate(slots) if abs(t.x - x) <= tol and abs(t.y - y) <= tol),
            None,
        )
        if j is None or slots[j].outline != s.outline:
            raise UsageError(
                f"--symmetry {symmetry}: slot {s.id!r} has no slot of its outline at its "
                f"image ({x:g}, {y:g})"
            )
        out.append(j)
    return out


def _spec(tile: TileAsset) -> str:
    return json.dumps(tile.outline_spec, sort_keys=True)


def _outline(board: Board, tile: str) -> str:
    return _spec(board.tiles[tile])


def _pack_supply(
    board: Board,
    pack: AssetPack | None,
    counts: Sequence[str],
    outlines: set[str],
    have: Counter[str],
) -> tuple[dict[str, TileAsset], dict[str, int | None]]:
    """The pack's tiles of the slots' outlines the board does not hold, and the supply
    of every pack tile (``--count`` or no limit; see the module notes)."""
    if pack is None:
        if any(c.strip() for c in counts):
            raise UsageError("--count needs --pack (it caps the pack's tiles)")
        return {}, {}
    fits = {k: t for k, t in pack.tiles.items() if _spec(t) in outlines}
    supply: dict[str, int | None] = dict.fromkeys(fits)
    for raw in counts:
        text = raw.strip()
        if not text:
            continue
        name, _, n = text.partition("=")
        name = name.strip()
        key = name if "/" in name else f"{pack.id}/{name}"
        if key not in pack.tiles:
            raise UsageError(f"--count {text}: pack {pack.id!r} has no tile {name!r}")
        if key not in fits:
            raise UsageError(f"--count {text}: no slot of the board has the outline of {name!r}")
        try:
            cap = int(n)
        except ValueError:
            raise UsageError(f"--count {text}: give TILE=N, N a number") from None
        if cap < 0:
            raise UsageError(f"--count {text}: N must be 0 or more")
        if have[key] > cap:
            raise UsageError(f"--count {text}: the board already holds {key!r} {have[key]} time(s)")
        supply[key] = cap
    return {k: t for k, t in fits.items() if k not in board.tiles}, supply
