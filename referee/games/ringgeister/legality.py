"""Ringgeister move legality and state sanity: ``check``, ``invariants``, loading checks.

:func:`check` names the first rule a move breaks (code, message, details);
:func:`invariants` lists what must hold after every move; :func:`state_problems`
adds what only a hand-written state or position can break (unknown cards, counters
off their spaces, a turn of a tile that never turns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import IllegalMoveError
from .explain import explain
from .moves import Move
from .search import destinations
from .state import never_turns_why
from .view import POINT

if TYPE_CHECKING:
    from .protocol import Ringgeister


def check(g: Ringgeister, move: Move) -> None:
    """Raise :class:`IllegalMoveError` (code, message, details) if ``move`` is illegal.

    The kit has refused a finished game, another move type and a verb the phase
    does not allow (``PHASES``: counters first, then turns) before this runs."""
    if g.pending and move.kind != "home":
        fid, chooser = g.pending[0]
        raise IllegalMoveError(
            f"{g.specs[g.fidx[fid]].name} was defeated: first {chooser} must put it "
            f"on a free white starting point ('home {fid} POINT')",
            code="choice_pending",
            details={"figure": fid, "chooser": chooser},
        )
    if move.kind == "home":
        return _check_home(g, move)
    if move.kind == "counter":
        return _check_counter(g, move)
    if move.kind == "pass":
        for m in g.generate_legal_moves():
            if m.kind == "pass":
                return None
        # only reached when a coloured figure can move (ruling 1)
        m = next(m for m in g.generate_legal_moves() if g.specs[g.fidx[m.figure or ""]].coloured)
        raise IllegalMoveError(
            f"you cannot pass while one of your coloured figures can move (e.g. '{m}')",
            code="must_move",
            details={"example": str(m)},
        )
    return _check_step(g, move)


def _check_home(g: Ringgeister, move: Move) -> None:
    if not g.pending:
        raise IllegalMoveError("no defeated figure is waiting to return", code="no_choice")
    fid, _chooser = g.pending[0]
    if move.figure != fid:
        raise IllegalMoveError(
            f"first put {fid} back on a white starting point",
            code="wrong_figure",
            details={"figure": fid},
        )
    i = g.v.index.get(move.to or "")
    if i is None or g.v.start[i] != "white":
        raise IllegalMoveError(
            f"{move.to} is not a white starting point",
            code="not_white_start",
            details={"point": move.to},
        )
    if g.occ[i] >= 0:
        raise IllegalMoveError(
            f"white starting point {move.to} is occupied by {g.specs[g.occ[i]].id}",
            code="point_occupied",
            details={"point": move.to, "figure": g.specs[g.occ[i]].id},
        )


def _check_counter(g: Ringgeister, move: Move) -> None:
    sid = move.to or ""
    if sid not in g.v.counter_spaces:
        raise IllegalMoveError(
            f"{sid} is not a counter space", code="no_such_space", details={"space": sid}
        )
    if sid in g._taken_spaces():
        raise IllegalMoveError(
            f"counter space {sid} already holds a counter",
            code="space_taken",
            details={"space": sid},
        )


def _check_step(g: Ringgeister, move: Move) -> None:
    v = g.v
    f = g.fidx.get(move.figure or "")
    if f is None:
        raise IllegalMoveError(
            f"there is no figure {move.figure!r} in this game",
            code="no_such_figure",
            details={"figure": move.figure},
        )
    s = g.specs[f]
    colour = g.players[g.player]
    if not s.light:
        raise IllegalMoveError(
            f"{s.name} is a black figure: black figures move only when the wind wakes them",
            code="not_your_figure",
            details={"figure": s.id},
        )
    if s.coloured and s.colour != colour:
        raise IllegalMoveError(
            f"{s.name} is not yours ({colour} is to move)",
            code="not_your_figure",
            details={"figure": s.id, "player": colour},
        )
    if s.figure == "gandalf" and g.moved:
        raise IllegalMoveError(
            f"you already moved {', '.join(g.moved)} this turn: a turn "
            "moves your coloured figures or Gandalf, not both",
            code="turn_in_progress",
            details={"moved": list(g.moved)},
        )
    if s.id in g.moved:
        raise IllegalMoveError(
            f"{s.name} has already moved this turn",
            code="already_moved",
            details={"figure": s.id},
        )
    if g.pos[f] < 0:
        raise IllegalMoveError(
            f"{s.name} is not on the board", code="not_on_board", details={"figure": s.id}
        )
    d = v.index.get(move.to or "")
    if d is None or v.kind[d] == 0:
        raise IllegalMoveError(
            f"the board has no point {move.to!r}",
            code="no_such_destination",
            details={"point": move.to},
        )
    if v.kind[d] != POINT:
        raise IllegalMoveError(
            f"nobody stops on a {g._where(d)} (ruling 4)",
            code="not_a_point",
            details={"point": move.to},
        )
    if d == g.pos[f]:
        raise IllegalMoveError(
            f"{s.name} already stands on {move.to}",
            code="same_point",
            details={"point": move.to},
        )
    if g.occ[d] >= 0:
        o = g.specs[g.occ[d]]
        raise IllegalMoveError(
            f"{g._where(d)} is occupied by {o.name}: a point holds one figure",
            code="point_occupied",
            details={"point": move.to, "figure": o.id},
        )
    if d in destinations(g, f):
        return
    explain(g, f, d)


def invariants(g: Ringgeister, cards: bool = True) -> list[str]:
    """Broken invariants (empty when all hold): one figure per point, figures only
    on points, every figure on the board or waiting for a home choice, counters sane."""
    out: list[str] = []
    v = g.v
    seen: dict[int, str] = {}
    waiting = {f for f, _ in g.pending}
    for i, s in enumerate(g.specs):
        p = g.pos[i]
        if p < 0:
            if s.id not in waiting and g._outcome is None:
                out.append(f"{s.id} is off the board without a pending choice")
            continue
        if v.kind[p] != POINT:
            out.append(f"{s.id} stands on {g._where(p)}, not a point")
        if p in seen:
            out.append(f"{s.id} and {seen[p]} share {v.ids[p]}")
        seen[p] = s.id
        if g.occ[p] != i:
            out.append(f"occupancy of {v.ids[p]} does not name {s.id}")
    if sum(1 for o in g.occ if o >= 0) != len(seen):
        out.append("occupancy lists figures that are elsewhere")
    if len(g.pos) != len(g.specs):
        out.append("figure count changed")
    spaces = [c["space"] for c in g.counters if c["space"] and not c["removed"]]
    if len(spaces) != len(set(spaces)):
        out.append("two counters share a space")
    if cards and sorted([g.face_up, *g.pile, *g.discard]) != sorted(g.cards):
        out.append("cards lost or duplicated")
    return out


def state_problems(g: Ringgeister) -> list[str]:
    """What a loaded state or position breaks: the invariants, then the rest.

    Figures on nodes that are not points (a counter space, a junction), two figures
    on one point, cards unknown, missing or twice, counters unknown or off the
    counter spaces, a player index out of range, tile turns no game can reach, a
    pending choice for a figure on the board, a phase that contradicts the counters
    or the outcome.
    """
    out: list[str] = []
    v = g.v
    known = set(g.cards)
    seen: set[str] = set()
    for where, cid in [
        ("face-up card", g.face_up),
        *(("pile", c) for c in g.pile),
        *(("discard", c) for c in g.discard),
    ]:
        if cid not in known:
            out.append(f"{where}: no card {cid!r} in the deck for these colours")
        elif cid in seen:
            out.append(f"card {cid} appears twice")
        seen.add(cid)
    lost = sorted(known - seen)
    if lost:
        out.append(f"card {lost[0]} is nowhere (face up, pile or discard)")
    out = invariants(g, cards=not out) + out
    if not 0 <= g.player < len(g.players):
        out.append(f"player index {g.player} is out of range (0 to {len(g.players) - 1})")
    ids = {c["id"] for c in g._fresh_counters()}
    for c in g.counters:
        if c["id"] not in ids:
            out.append(f"counter {c['id']} is not in this game")
        if c["space"] is not None and c["space"] not in v.counter_spaces:
            out.append(f"counter {c['id']} is on {c['space']!r}, not a counter space")
    unplaced = [c["id"] for c in g.counters if c["space"] is None and not c["removed"]]
    if g.phase == "counters" and not unplaced:
        out.append("phase is counters but every counter is placed")
    if g.phase == "play" and unplaced:
        out.append(
            f"phase is play but counter {unplaced[0]} is not placed yet (give it a counter "
            "space, or play variant A, without counters)"
        )
    if (g.phase == "over") != (g._outcome is not None):
        out.append("phase over goes with an outcome, and only it")
    board = v.compiled.board
    for pid, t in g.tile_turns.items():
        tile = board.tile_of(board.placement(pid))
        if not 0 <= t < tile.turn_count:
            out.append(f"tile {pid} turned {t} times (0 to {tile.turn_count - 1})")
        elif pid not in v.turnable and t != v.base_turns[pid]:
            out.append(
                f"tile {pid} never turns ({never_turns_why(g, pid)}), but is turned {t} "
                f"(the board lays it turned {v.base_turns[pid]})"
            )
    for fid, chooser in g.pending:
        f = g.fidx.get(fid)
        if f is None or not g.specs[f].light:
            out.append(f"pending: {fid!r} is not a light figure")
        elif g.pos[f] >= 0:
            out.append(f"pending: {fid} stands on {v.ids[g.pos[f]]}, it was not defeated")
        if chooser not in g.players:
            out.append(f"pending: chooser {chooser!r} is not a player")
    mover = g.players[g.player] if 0 <= g.player < len(g.players) else ""
    for fid in g.moved:
        f = g.fidx.get(fid)
        if f is None or not (g.specs[f].figure == "gandalf" or g.specs[f].colour == mover):
            out.append(f"moved: {fid!r} is not a figure {mover} moves")
    return out
