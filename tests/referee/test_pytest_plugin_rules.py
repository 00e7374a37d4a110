"""The pytest plugin's rule helpers: game_from_position, assert_legal, assert_illegal."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import StateError
from referee.pytest_plugin import assert_illegal, assert_legal, game_from_position

ROOT = Path(__file__).resolve().parents[2]
BOARD = ROOT / "projects" / "ringgeister"
START = ROOT / "docs" / "positions" / "ringgeister-start.json"


def test_a_position_file_on_a_board_path_gives_the_game() -> None:
    game = game_from_position("ringgeister", BOARD, START)
    assert game.to_move == "yellow" and game.invariants() == []


def test_assert_legal_checks_without_playing() -> None:
    game = game_from_position("ringgeister", BOARD, START)
    before = game.to_json()
    move = next(iter(game.legal_moves))
    assert_legal(game, str(move))
    assert_legal(game, move)
    assert game.to_json() == before


def test_assert_legal_fails_saying_why_and_what_is_legal() -> None:
    game = game_from_position("ringgeister", BOARD, START)
    with pytest.raises(AssertionError, match=r"is illegal \(not_your_figure\).*\n.*legal: "):
        assert_legal(game, "hobbit-orange ws4")


def test_assert_illegal_checks_the_code() -> None:
    game = game_from_position("ringgeister", BOARD, START)
    exc = assert_illegal(game, "hobbit-orange ws4", code="not_your_figure")
    assert "orange" in exc.message
    assert_illegal(game, "fly away")  # unreadable: refused too (bad_move)
    with pytest.raises(AssertionError, match="with code 'not_your_figure', not 'no_path'"):
        assert_illegal(game, "hobbit-orange ws4", code="no_path")
    with pytest.raises(AssertionError, match="is legal"):
        assert_illegal(game, next(iter(game.legal_moves)))


def test_an_impossible_position_is_refused() -> None:
    with pytest.raises(StateError, match="figures"):
        game_from_position(
            "ringgeister", BOARD, {"players": ["yellow"], "figures": {}, "face_up": "x"}
        )
