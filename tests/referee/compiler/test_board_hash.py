"""The board hash is the board's as laid out, whenever it is read (issue 14)."""

from __future__ import annotations

from pathlib import Path

from referee.compiler import compile_board
from referee.store import load_project

PROJECT = Path(__file__).resolve().parents[3] / "projects" / "ringgeister"


def test_hash_does_not_depend_on_when_it_is_read() -> None:
    early = compile_board(load_project(PROJECT))
    before = early.hash
    late = compile_board(load_project(PROJECT))
    pid = late.board.placements[0].id
    late.turn(pid, late.board.placement(pid).turns + 1)  # a game turns a tile
    assert late.hash == before  # read only after the turn: the same board, the same hash
    early.turn(pid, early.board.placement(pid).turns + 1)
    assert early.hash == before


def test_an_edited_turn_changes_the_hash() -> None:
    c = compile_board(load_project(PROJECT))
    before = c.hash
    pid = c.board.placements[0].id
    c.turn(pid, c.board.placement(pid).turns + 1, edit=True)  # the design changed
    assert c.hash != before
    assert c.hash == compile_board(c.board).hash  # what a fresh compile of the edit says
