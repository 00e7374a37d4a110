"""Legal turns of one tile: every port it touches meets a path on the other side."""

from __future__ import annotations

import pytest

from referee.compiler import compile_board
from referee.errors import UnknownNodeError
from referee.rotations import legal_turns


def test_l_tile_between_two_paths_has_one_legal_turn(tile_board):
    """West neighbour has a path to its E port, south neighbour to its N port: the L tile
    (N-E at turn 0) fits only when turned to W-S (turn 2)."""
    b = tile_board(
        {
            (0, 0): ([("E", {})], False, 0),
            (0, 1): ([("NE", {})], True, 0),
            (1, 1): ([("N", {})], False, 0),
        }
    )
    lt = legal_turns(compile_board(b), "c01")
    assert lt.legal == [2]
    assert lt.classes == [[0], [1], [2], [3]]
    by_turn = {v.turns: v for v in lt.verdicts}
    # turn 0: N meets the board edge, E meets nothing, and both neighbours' paths are unmatched
    reasons = " | ".join(by_turn[0].reasons)
    assert "pN (facing N) meets no port" in reasons
    assert "c00/pE (facing E) meets pW (facing W), which has no path" in reasons
    assert "c11/pN (facing N) meets pS (facing S), which has no path" in reasons
    assert by_turn[2].reasons == []


def test_reason_names_a_neighbour_port_without_path(tile_board):
    b = tile_board({(0, 0): ([("E", {})], True, 0), (0, 1): ([("N", {})], False, 0)})
    lt = legal_turns(compile_board(b), "c00")
    v0 = lt.verdicts[0]
    assert not v0.legal
    assert v0.reasons == ["the path at pE (facing E) meets c01/pW (facing W), which has no path"]
    # every other turn sends the path off the board edge (nothing faces it there)
    assert all(not v.legal for v in lt.verdicts)
    assert "meets no port" in lt.verdicts[1].reasons[0]


def test_symmetric_tile_reports_alike_turns(tile_board):
    b = tile_board(
        {
            (0, 0): ([("E", {})], False, 0),
            (0, 1): ([("WE", {})], True, 1),
            (0, 2): ([("W", {})], False, 0),
        }
    )
    lt = legal_turns(compile_board(b), "c01")
    assert lt.legal == [0, 2] and lt.current == 1 and lt.classes == [[0, 2], [1, 3]]


def test_unknown_tile(tile_board):
    b = tile_board({(0, 0): ([("E", {})], True, 0)})
    with pytest.raises(UnknownNodeError, match="no tile placed as 'c42'"):
        legal_turns(compile_board(b), "c42")
