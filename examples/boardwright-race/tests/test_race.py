"""Race rules, each set up as a position on the demo board (rulebook in game.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from boardwright_race import RULES

from referee.compiler import CompiledBoard, compile_board
from referee.errors import StateError
from referee.games import Game, available, get_game, won
from referee.pytest_plugin import assert_illegal, assert_legal, game_from_position
from referee.store import load_project

DEMO = RULES.sample_path() or Path()


@pytest.fixture(scope="module")
def demo() -> CompiledBoard:
    return compile_board(load_project(DEMO))


def at(demo: CompiledBoard, places: dict[str, str], **kw: object) -> Game[Any]:
    return game_from_position("race", demo, {"players": list(places), "places": places, **kw})


def test_registered_through_the_entry_point() -> None:
    assert "race" in available() and get_game("race") is RULES.game


def test_rule_2_move_exactly_the_roll_along_the_paths(demo: CompiledBoard) -> None:
    g = at(demo, {"red": "start", "blue": "start"}, phase="move", roll=6)
    assert sorted(str(m) for m in g.legal_moves) == ["move p6", "move s2"]  # track or shortcut
    assert_illegal(g, "move p5", code="wrong_distance")
    assert_illegal(g, "roll", code="wrong_phase")  # rolled already


def test_rule_2_the_goal_takes_a_larger_roll_unless_exact(demo: CompiledBoard) -> None:
    g = at(demo, {"red": "p10", "blue": "start"}, phase="move", roll=5)
    assert_legal(g, "move goal")
    exact = at(
        demo, {"red": "p10", "blue": "start"}, phase="move", roll=5, options={"exact_finish": True}
    )
    assert_illegal(exact, "move goal", code="wrong_distance")


def test_rule_3_landing_on_a_runner_sends_it_back(demo: CompiledBoard) -> None:
    g = at(demo, {"red": "p1", "blue": "p3"}, dice=[2])
    g.push_text("roll")
    ev = g.push_text("move p3")
    assert [e["type"] for e in ev][:2] == ["moved", "bumped"]
    assert g.position()["places"] == {"red": "p3", "blue": "start"}


def test_rule_4_a_bonus_point_gives_another_turn(demo: CompiledBoard) -> None:
    g = at(demo, {"red": "p1", "blue": "start"}, dice=[2])
    g.push_text("roll")
    g.push_text("move p3")
    assert g.to_move == "red"


def test_rule_5_first_on_the_goal_wins(demo: CompiledBoard) -> None:
    g = at(demo, {"red": "p9", "blue": "start"}, dice=[2])
    g.push_text("roll")
    g.push_text("move goal")
    assert g.outcome == won(["red"], ply=2)
    assert g.outcome.to_json() == {"result": "won", "winners": ["red"], "ply": 2}
    assert list(g.legal_moves) == []


def test_impossible_positions_are_refused(demo: CompiledBoard) -> None:
    with pytest.raises(StateError, match="share p3"):
        at(demo, {"red": "p3", "blue": "p3"})
    with pytest.raises(StateError, match=r"places\.red: 'nowhere' is no point of this board"):
        at(demo, {"red": "nowhere", "blue": "p3"})
    with pytest.raises(StateError, match=r"\(did you mean 'the goal'\?\)"):
        at(demo, {"red": "the gaol", "blue": "p3"})
    with pytest.raises(StateError, match="roll"):
        at(demo, {"red": "p1", "blue": "p3"}, phase="move")


def test_rule_1_positions_may_name_the_start_and_the_goal(demo: CompiledBoard) -> None:
    g = at(demo, {"red": "the start", "blue": "p10"}, phase="move", roll=5)
    assert g.position()["places"] == {"red": "start", "blue": "p10"}
    names = {n.name: n.id for n in g.board_names(demo)}
    assert names == {"the start": "start", "the goal": "goal"}


def test_the_shipped_position_is_valid(demo: CompiledBoard) -> None:
    g = game_from_position("race", demo, RULES.position_paths()[0])
    assert g.to_move == "green" and g.invariants() == []


def test_the_module_adds_its_own_verb(capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    assert main(["race-track", str(DEMO), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "points": 14,
        "steps_to_goal": 11,
        "bonus_points": 1,
    }
