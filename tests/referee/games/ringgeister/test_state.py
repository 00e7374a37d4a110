"""Declared state and positions: what loads, what is refused (code bad_state, one line)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.errors import StateError
from referee.games.ringgeister import RinggeisterGame
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="module")
def board() -> CompiledBoard:
    return compile_board(load_project(ROOT / "projects" / "ringgeister"))


@pytest.fixture()
def start(board: CompiledBoard) -> dict[str, Any]:
    g = RinggeisterGame.new(board, players=2, seed=4, options={"counter_placement": "random"})
    return g.position()


def first_black_start(p: dict[str, Any]) -> str:
    return str(p["figures"]["spirit-1"])


def _two_on_one(p: dict[str, Any]) -> None:
    p["figures"]["hobbit-yellow"] = p["figures"]["man-yellow"]


def _on_counter_space(p: dict[str, Any]) -> None:
    p["figures"]["hobbit-yellow"] = next(iter(p["counters"].values()))


def _unknown_node(p: dict[str, Any]) -> None:
    p["figures"]["hobbit-yellow"] = "r9c9/p1"


def _card_twice(p: dict[str, Any]) -> None:
    p["pile"][0] = p["face_up"]


def _unknown_card(p: dict[str, Any]) -> None:
    p["pile"][0] = "joker"


def _figure_missing(p: dict[str, Any]) -> None:
    del p["figures"]["gandalf"]


def _unknown_player(p: dict[str, Any]) -> None:
    p["to_move"] = "blue"


def _counter_off_space(p: dict[str, Any]) -> None:
    p["counters"]["yellow-1"] = p["figures"]["gandalf"]


def _off_board_without_choice(p: dict[str, Any]) -> None:
    p["figures"]["man-orange"] = None


def _wrong_type(p: dict[str, Any]) -> None:
    p["pile"][0] = 7


def _misspelt_key(p: dict[str, Any]) -> None:
    p["figuers"] = p.pop("figures")


BROKEN: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "two figures on one point": (_two_on_one, "share"),
    "figure on a counter space": (
        _on_counter_space,
        "position.figures.hobbit-yellow: 'r1c2/c1' is no point (did you mean 'r1c2/p1'?)",
    ),
    "unknown node": (_unknown_node, "position.figures.hobbit-yellow: 'r9c9/p1' is no point"),
    "card twice": (_card_twice, "position.pile[0]: card "),
    "unknown card": (
        _unknown_card,
        "position.pile[0]: 'joker' is no card of the deck for these colours",
    ),
    "figure missing": (_figure_missing, "'gandalf' is missing"),
    "unknown player": (_unknown_player, "position.to_move: 'blue' is no player of this game"),
    "counter off its spaces": (_counter_off_space, "position.counters.yellow-1: 'ws"),
    "defeated without a choice": (
        _off_board_without_choice,
        "position.figures.man-orange: null (off the board) while the game goes on",
    ),
    "wrong type": (_wrong_type, "position.pile[0]: expected text"),
    "misspelt key": (_misspelt_key, "unknown field 'figuers'"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_impossible_positions_are_refused_in_one_line(
    board: CompiledBoard, start: dict[str, Any], name: str
) -> None:
    spoil, words = BROKEN[name]
    p = copy.deepcopy(start)
    spoil(p)
    with pytest.raises(StateError) as exc:
        RinggeisterGame.from_position(board, p)
    assert exc.value.code == "bad_state"
    assert words in str(exc.value)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("name", ["two figures on one point", "unknown node", "card twice"])
def test_impossible_states_are_refused(board: CompiledBoard, name: str) -> None:
    g = RinggeisterGame.new(board, players=2, seed=4, options={"counter_placement": "random"})
    data = g.to_json()
    st = data["state"]
    if name == "two figures on one point":
        st["figures"]["hobbit-yellow"] = st["figures"]["man-yellow"]
    elif name == "unknown node":
        st["figures"]["gandalf"] = "nowhere"
    else:
        st["cards"]["pile"][0] = st["cards"]["face_up"]
    with pytest.raises(StateError) as exc:
        RinggeisterGame.from_json(data, board)
    assert exc.value.code == "bad_state"


def test_position_round_trips_and_keeps_the_legal_moves(
    board: CompiledBoard, start: dict[str, Any]
) -> None:
    g = RinggeisterGame.from_position(board, json.loads(json.dumps(start)))
    assert g.position() == start
    again = RinggeisterGame.new(board, players=2, seed=4, options={"counter_placement": "random"})
    assert [str(m) for m in g.legal_moves] == [str(m) for m in again.legal_moves]


def test_a_position_may_leave_the_pile_to_the_generator(
    board: CompiledBoard, start: dict[str, Any]
) -> None:
    del start["pile"]
    g = RinggeisterGame.from_position(board, start)
    p = g.position()
    assert sorted([p["face_up"], *p["pile"], *p["discard"]]) == sorted(g.cards)


def test_version_1_state_files_are_migrated(board: CompiledBoard) -> None:
    old = json.loads((DATA / "v1-state.json").read_text())
    g = RinggeisterGame.from_json(old["state"], board)
    assert g.to_json()["version"] == 2
    assert [str(m) for m in g.legal_moves] == old["legal_moves"]
    # the pile keeps its order: the next card turned is the one version 1 would turn
    assert g.to_json()["state"]["cards"]["pile"][0] == old["state"]["cards"]["pile"][-1]


def test_state_schema_validates_a_state(board: CompiledBoard) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    g = RinggeisterGame.new(board, players=3, seed=2, options={"variant": "B"})
    schema = RinggeisterGame.state_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(g.to_json(), schema)
    jsonschema.validate(g.position(), RinggeisterGame.position_schema())
