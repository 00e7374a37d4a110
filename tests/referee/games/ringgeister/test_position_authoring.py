"""Ringgeister positions as people write them (issue 27): the rulebook's names, partial
piles dealt from the seed, one way to write a removed counter, and refusals that name
the field as written, say why and suggest the nearest valid value."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.compiler import CompiledBoard, compile_board
from referee.errors import StateError
from referee.games.ringgeister import RinggeisterGame
from referee.store import load_project

from ....conftest import shipped_project

PROJECT = shipped_project("ringgeister")


@pytest.fixture(scope="module")
def board() -> CompiledBoard:
    return compile_board(load_project(PROJECT))


@pytest.fixture()
def start(board: CompiledBoard) -> dict[str, Any]:
    g = RinggeisterGame.new(board, players=2, seed=4, options={"counter_placement": "random"})
    return g.position()


def refused(board: CompiledBoard, position: dict[str, Any]) -> str:
    with pytest.raises(StateError) as exc:
        RinggeisterGame.from_position(board, position)
    assert exc.value.code == "bad_state" and "\n" not in str(exc.value)
    return str(exc.value)


# ====================================================================== names
def test_board_names_list_the_rulebooks_places(board: CompiledBoard) -> None:
    names = {n.name: n for n in RinggeisterGame.board_names(board)}
    goal = names["the Mountain of Fire"]
    assert board.graph.nodes[goal.id].get("goal") is True
    whites = [n for n in names.values() if n.kind == "white starting point"]
    assert [n.name for n in whites] == [f"white starting point {k}" for k in range(1, 10)]
    assert all(board.graph.nodes[n.id]["start"] == "white" for n in whites)
    spaces = [n for n in names.values() if n.kind == "counter space"]
    assert len(spaces) == 9  # "one of the nine hexagonal spaces" (rulebook 1.4)
    assert all(board.graph.nodes[n.id]["kind"] == "counter_space" for n in spaces)
    blacks = [n for n in names.values() if n.kind == "black starting point"]
    assert len(blacks) == 18  # "the 18 black figures" start on them (rulebook 1.3)


def test_a_position_may_name_points_and_spaces_as_the_rulebook_does(
    board: CompiledBoard, start: dict[str, Any]
) -> None:
    names = {n.name: n.id for n in RinggeisterGame.board_names(board)}
    named = copy.deepcopy(start)
    figures = named["figures"]
    taken = set(figures.values())
    free = next(k for k in range(1, 10) if names[f"white starting point {k}"] not in taken)
    figures["gandalf"] = f"White Starting Point  {free}"  # case and spacing do not matter
    space = next(
        k for k in range(1, 10) if names[f"counter space {k}"] != start["counters"]["orange-1"]
    )
    named["counters"]["yellow-1"] = f"counter space {space}"
    g = RinggeisterGame.from_position(board, named)
    written = g.position()  # positions are written with ids
    assert written["figures"]["gandalf"] == names[f"white starting point {free}"]
    assert written["counters"]["yellow-1"] == names[f"counter space {space}"]
    # referee position . referee new --position is the identity, written with ids
    assert RinggeisterGame.from_position(board, written).position() == written


def test_board_names_verb_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["board-names", "ringgeister", str(PROJECT), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    first = out["names"][0]
    assert first["name"] == "the Mountain of Fire" and first["kind"] == "goal point"
    assert main(["board-names", "ringgeister", str(PROJECT)]) == 0
    text = capsys.readouterr().out
    assert re.search(r"^white starting point 3 +ws3 +white starting point$", text, re.M)


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (
            lambda p: p["figures"].__setitem__("gandalf", "white starting pont 3"),
            "position.figures.gandalf: 'white starting pont 3' is no point "
            "(did you mean 'white starting point 3'?)",
        ),
        (
            lambda p: p["figures"].__setitem__("hobbit-yelow", p["figures"].pop("hobbit-yellow")),
            "position.figures: 'hobbit-yelow' is no figure of this game "
            "(did you mean 'hobbit-yellow'?)",
        ),
        (
            lambda p: p.__setitem__("to_move", "yelow"),
            "position.to_move: 'yelow' is no player of this game (did you mean 'yellow'?)",
        ),
        (
            lambda p: p["counters"].__setitem__("yelow-1", p["counters"].pop("yellow-1")),
            "position.counters: 'yelow-1' is no counter of this game (did you mean 'yellow-1'?)",
        ),
        (
            lambda p: p.__setitem__("face_up", "yellow-forward-storn"),
            "position.face_up: 'yellow-forward-storn' is no card of the deck for these colours "
            "(did you mean 'yellow-forward-storm'?)",
        ),
    ],
)
def test_refusals_name_the_field_and_the_nearest_value(
    board: CompiledBoard, start: dict[str, Any], spoil: Any, message: str
) -> None:
    p = copy.deepcopy(start)
    p["face_up"] = "yellow-forward-storm"
    p["pile"] = [c for c in p["pile"] if c != "yellow-forward-storm"]
    if start["face_up"] != "yellow-forward-storm":
        p["pile"].append(start["face_up"])
    spoil(p)
    assert refused(board, p) == message


# ====================================================================== piles
def test_a_partial_pile_is_the_top_and_the_rest_is_dealt_under_it(
    board: CompiledBoard, start: dict[str, Any]
) -> None:
    """Rulebook 3.1: a magic point turns 'the card at the top of the pile'. A position
    that lists two cards of the pile fixes the next two turned; the others are shuffled
    with the position's seed beneath them (kit convention, docs/reference/positions.md)."""
    p = {k: v for k, v in start.items() if k != "rng"}
    top = start["pile"][-2:][::-1]  # two cards from the bottom, now on top
    p["pile"] = top
    p["seed"] = 11
    g = RinggeisterGame.from_position(board, p)
    pile = g.position()["pile"]
    assert pile[:2] == top
    assert sorted([g.face_up, *pile, *g.discard]) == sorted(g.cards)
    again = RinggeisterGame.from_position(board, p)
    assert again.position()["pile"] == pile  # the same seed deals the same rest
    p["seed"] = 12
    other = RinggeisterGame.from_position(board, p).position()["pile"]
    assert other[:2] == top and sorted(other) == sorted(pile)


def test_a_card_listed_twice_names_both_places(board: CompiledBoard, start: dict[str, Any]) -> None:
    p = copy.deepcopy(start)
    p["discard"] = [p["pile"][3]]
    assert refused(board, p) == (
        f"position.discard[0]: card {p['pile'][3]} is listed twice (also position.pile[3])"
    )


# ====================================================================== counters
def test_an_unplaced_counter_is_named_and_variant_a_suggested(
    board: CompiledBoard, start: dict[str, Any]
) -> None:
    """Rulebook 1.4: each player places a counter before play; variant A plays without."""
    p = copy.deepcopy(start)
    del p["counters"]["orange-1"]
    message = refused(board, p)
    assert message.startswith("position.counters: counter orange-1 is not placed yet")
    assert "variant A" in message and '"variant": "A"' in message
    p["phase"] = "counters"
    g = RinggeisterGame.from_position(board, p)
    assert g.to_move == "yellow" and all(m.verb == "counter" for m in g.legal_moves)
    p = copy.deepcopy(start)
    p["counters"] = {}
    p["options"] = {**p["options"], "variant": "A"}
    assert RinggeisterGame.from_position(board, p).position()["counters"] == {}


def test_a_removed_counter_is_written_one_way(board: CompiledBoard, start: dict[str, Any]) -> None:
    """Ruling 7a: a completed mission's counter 'is removed'. It is written in removed
    only; written in counters too, the position is refused."""
    p = copy.deepcopy(start)
    p["removed"] = ["yellow-1"]
    assert refused(board, p) == (
        "position.counters.yellow-1: counter yellow-1 is removed (listed in removed): "
        "leave it out of counters"
    )
    del p["counters"]["yellow-1"]
    written = RinggeisterGame.from_position(board, p).position()
    assert written["removed"] == ["yellow-1"] and "yellow-1" not in written["counters"]


# ====================================================================== tiles
def test_a_tile_that_never_turns_says_why(board: CompiledBoard, start: dict[str, Any]) -> None:
    """Ruling 11: 'Tiles with a single black point never turn.'"""
    g = RinggeisterGame.from_position(board, start)
    fixed = next(
        pid for pid in g.v.base_turns if pid not in g.v.turnable and g.v.turn_count[pid] > 1
    )
    p = copy.deepcopy(start)
    p["tile_turns"] = {fixed: (g.v.base_turns[fixed] + 1) % g.v.turn_count[fixed]}
    message = refused(board, p)
    assert message.startswith(f"position.tile_turns.{fixed}: tile {fixed} never turns (")
    assert "ruling 11" in message or "not turnable" in message
    p["tile_turns"] = {"r9c9": 1}
    assert refused(board, p).startswith("position.tile_turns: 'r9c9' is no placed tile")


# ====================================================================== dice and schema
def test_ringgeister_rolls_no_dice(board: CompiledBoard, start: dict[str, Any]) -> None:
    p = {**start, "dice": [1]}
    assert refused(board, p) == "position.dice: Ringgeister rolls no dice, so none can be fixed"
    schema = RinggeisterGame.position_schema()
    assert schema["properties"]["dice"]["maxItems"] == 0


def undescribed(schema: dict[str, Any]) -> list[str]:
    """Every property of every object of ``schema`` without a description."""
    out: list[str] = []
    objects = [("", schema), *((f"$defs.{k}", v) for k, v in schema.get("$defs", {}).items())]
    for where, obj in objects:
        for key, prop in obj.get("properties", {}).items():
            if "description" not in prop:
                out.append(f"{where}.{key}")
    return out


def test_every_field_of_the_schemas_is_described() -> None:
    assert undescribed(RinggeisterGame.position_schema()) == []
    assert undescribed(RinggeisterGame.state_schema()) == []


def test_an_outcome_in_the_old_shape_is_refused(
    board: CompiledBoard, start: dict[str, Any]
) -> None:
    p = copy.deepcopy(start)
    p["phase"] = "over"
    p["outcome"] = {"result": "won", "winner": "yellow"}
    assert "outcome: 'winner' is an old key: write 'winners'" in refused(board, p)


def test_the_shipped_position_still_loads(board: CompiledBoard) -> None:
    path = Path(__file__).resolve().parents[4] / "docs" / "positions" / "ringgeister-start.json"
    g = RinggeisterGame.from_position(board, json.loads(path.read_text()))
    assert g.invariants() == []
