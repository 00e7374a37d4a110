"""The board view re-links tile turns on a path network of its own, not on the compiled board.

Whatever turn configurations it is shown, in whatever order (fresh ones re-linked from
the configuration shown before, or from one the view's network left earlier, after
cached ones came back in between), its arrays equal those of a view of a board
compiled afresh at those turns.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.games.ringgeister import view as view_module
from referee.games.ringgeister.sample import sample_board
from referee.games.ringgeister.view import BoardView, view_of
from referee.model import Board
from referee.store import load_project

PROJECT = Path(__file__).resolve().parents[4] / "projects" / "ringgeister"


def rows_by_key(v: BoardView, name: str) -> list[list[tuple[object, ...]]]:
    """One incidence array with edge numbers replaced by path keys (numbers differ
    between compiled boards, keys do not)."""
    keys = v.compiled.path_view().keys
    if name in ("open_inc", "safe_inc"):  # (edge, (other end, edge))
        return [[(keys[e], k[0]) for e, k in row] for row in getattr(v, name)]
    return [[(keys[t[0]], *t[1:]) for t in row] for row in getattr(v, name)]


def assert_view_equals_fresh(v: BoardView, make: object, turns: dict[str, int]) -> None:
    board: Board = make()  # type: ignore[operator]
    for p in board.placements:
        p.turns = turns[p.id]
    twin = BoardView(compile_board(board))
    for name in ("kind", "x", "y", "wind", "heading"):
        assert getattr(v, name) == getattr(twin, name), name
    for name in ("inc", "land_inc", "open_inc", "safe_inc"):
        assert rows_by_key(v, name) == rows_by_key(twin, name), name
    for row in v.inc:
        for e, *_ in row:
            assert (
                v.water[e]
                == twin.water[twin.compiled.path_view().keys.index(v.compiled.path_view().keys[e])]
            )


def assert_arrivals_follow_rows(v: BoardView) -> None:
    """Where a light figure may go on from each arrival (``*_after``, and ``*_one`` where
    that is one arrival) follows from the rows shown: every path of the node but the
    one it came by (all of them after a gallery)."""
    for i, row in enumerate(v.inc):
        came = [(v.arrival[(i, t[0])], t[0]) for t in row]
        if row and i in v.door_arrival:
            came.append((v.door_arrival[i], -1))
        for a, e_in in came:
            for after, one, nexts in (
                (v.open_after, v.open_one, v.open_next[i]),
                (v.safe_after, v.safe_one, v.safe_next[i]),
            ):
                want = tuple(k for e, k in nexts if e != e_in)
                assert after[a] == want, (v.ids[i], e_in)
                assert one[a] == (want[0] if len(want) == 1 else -1), (v.ids[i], e_in)


@pytest.mark.parametrize(
    ("make", "kept", "steps"),
    [
        (lambda: load_project(PROJECT), 256, 8),
        (lambda: load_project(PROJECT), 2, 8),
        (lambda: sample_board(4, 4, 1), 3, 20),
    ],
)
def test_shown_configurations_equal_fresh_compiles(make, kept, steps, monkeypatch):
    """Storm-like and single turns, with earlier configurations shown again in between."""
    monkeypatch.setattr(view_module, "CONFIGS_KEPT", kept)
    c: CompiledBoard = compile_board(make())
    v = view_of(c)
    laid = dict(v.base_turns)
    rnd = random.Random(kept * 100 + steps)
    seen = [dict(laid)]
    turns = dict(laid)
    for _ in range(steps):
        if rnd.random() < 0.3:
            turns = dict(rnd.choice(seen))  # back to an earlier configuration
            v.show(turns)
        tiles = rnd.sample(v.turnable, rnd.choice([1, 2, len(v.turnable)]))
        turns = dict(turns)
        for t in tiles:
            turns[t] = (turns[t] + rnd.randrange(1, 4)) % v.turn_count[t]
        v.show(turns)
        seen.append(turns)
        assert_view_equals_fresh(v, make, turns)
        assert_arrivals_follow_rows(v)
    # the compiled board was never turned by the view
    assert {p.id: p.turns for p in c.board.placements} == laid
