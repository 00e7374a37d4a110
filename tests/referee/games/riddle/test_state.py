"""Declared, validated Riddle state and positions: what a hand-edited file may break is
refused with one line (``StateError`` code ``bad_state``) naming the field, never a
traceback (issues 13, 14); positions round-trip; version-1 files still load."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from referee.cli import main
from referee.compiler import compile_board
from referee.errors import StateError
from referee.games.riddle import RiddleGame
from referee.store import load_project

from .conftest import moves, new_game

ROOT = Path(__file__).resolve().parents[4]
SAMPLE = ROOT / "projects" / "riddle-sample"
EXAMPLE = ROOT / "docs" / "positions" / "riddle-of-the-ring.json"
V1 = Path(__file__).parent / "fixtures" / "riddle-v1-state.json"


def refused(grid, data) -> str:
    with pytest.raises(StateError) as e:
        RiddleGame.from_json(data, grid)
    assert e.value.code == "bad_state"
    msg = str(e.value)
    assert "\n" not in msg
    return msg


@pytest.fixture
def saved(grid):
    g = new_game(grid, players=3, seed=2, recommended=True)
    g.push_text("roll")
    return json.loads(json.dumps(g.to_json()))


def test_state_round_trips_with_a_version(grid, saved):
    assert saved["version"] == 2 and saved["players"] == ["frodo", "rider1", "sam"]
    assert RiddleGame.from_json(saved, grid).to_json() == saved
    jsonschema.validate(saved, RiddleGame.state_schema())


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda s: s["state"].__setitem__("cur", 99), "state.cur"),
        (lambda s: s["state"]["seats"][0].__setitem__("pos", "nowhere"), "state.seats[0].pos"),
        (lambda s: s["state"]["seats"][1].__setitem__("captor", "gandalf"), "captor"),
        (lambda s: s["state"]["seats"][0]["hand"].append("the_ring"), "more than one place"),
        (lambda s: s["state"]["seats"][0]["hand"].append("no_such_card"), "state.seats[0].hand"),
        (lambda s: s["state"]["draw"].pop(), "accounted for nowhere"),
        (lambda s: s["state"]["order"].append("pippin"), "state.order"),
        (lambda s: s["state"].__setitem__("phase", "dancing"), "state.phase"),
        (lambda s: s["state"]["seats"][0].__setitem__("pos", 7), "state.seats[0].pos"),
        (lambda s: s["state"].__setitem__("sub", {"kind": "battle", "defender": "x"}), "sub"),
        (lambda s: s["state"]["t"].__setitem__("pp", 9), "state.t.pp"),
    ],
)
def test_impossible_states_are_refused_naming_the_field(grid, saved, edit, field):
    """A Riddle player on a space that does not exist, ``cur: 99``, a card twice ... are
    refused at once with one line, never accepted to fail later."""
    data = copy.deepcopy(saved)
    edit(data)
    assert field in refused(grid, data)


def test_cli_refuses_a_hand_edited_state_in_one_line(tmp_path, capsys):
    state = tmp_path / "g.json"
    assert (
        main(["new", "riddle", str(SAMPLE), "--players", "3", "--seed", "5", "-o", str(state)]) == 0
    )
    data = json.loads(state.read_text())
    data["state"]["state"]["cur"] = 99
    state.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["moves", str(state)]) == 1
    err = capsys.readouterr().err.strip()
    assert "state.cur" in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_version_1_files_migrate(grid):
    """A state file written before the kit (flat keys, no version) still loads."""
    data = json.loads(V1.read_text())
    data["board_hash"] = grid.hash  # the fixture's board is the test grid
    g = RiddleGame.from_json(data, grid)
    assert g.to_json()["version"] == 2
    assert [p.name for p in g.seats] == [p["name"] for p in data["players"]]
    assert g.invariants() == [] and list(g.legal_moves)


# ---------------------------------------------------------------- positions
def test_position_round_trips_and_sets_up_the_turn(grid):
    pos = {
        "players": ["frodo", "rider1"],
        "seed": 3,
        "to_move": "frodo",
        "phase": "main",
        "roll": 2,
        "places": {"frodo": "r0c0", "rider1": "r4c0"},
        "hands": {"frodo": ["horse2"], "rider1": ["gollum"]},
        "draw_rest": True,
    }
    g = RiddleGame.from_position(grid, pos)
    assert g.phase == "main" and g.me.name == "frodo" and g.t.roll == 2
    assert g.t.start == "r0c0" and "ride horse2 r0c0>r0c1" in moves(g)
    assert sorted(g.all_cards()) == sorted(g.deck.instances)
    p = g.position()
    assert RiddleGame.from_position(grid, p).position() == p
    jsonschema.validate(p, RiddleGame.position_schema())


@pytest.mark.parametrize(
    "edit, field",
    [
        ({"to_move": "gandalf"}, "position.to_move"),
        ({"places": {"frodo": "r9c9"}}, "position.places.frodo"),
        ({"hands": {"pippin": []}}, "position.hands.pippin"),
        (
            {"hands": {"frodo": ["the_ring"], "rider1": ["the_ring"]}},
            "position.hands.rider1[0]: card the_ring is listed twice (also position.hands.frodo[0])",
        ),
        ({"players": ["frodo", "gandalf"]}, "position.players[1]"),
        ({"roll": 9}, "position.roll"),
    ],
)
def test_impossible_positions_are_refused(grid, edit, field):
    pos = {"players": ["frodo", "rider1"], "to_move": "frodo", "draw_rest": True, **edit}
    with pytest.raises(StateError) as e:
        RiddleGame.from_position(grid, pos)
    assert e.value.code == "bad_state" and field in str(e.value)


def test_the_shipped_example_position_is_valid():
    compiled = compile_board(load_project(SAMPLE))
    pos = json.loads(EXAMPLE.read_text())
    jsonschema.validate(pos, RiddleGame.position_schema())
    g = RiddleGame.from_position(compiled, pos)
    assert g.me.name == "frodo" and g.phase == "main" and g.draw_pile[-1] == "eagles.1"
    assert g.invariants() == []


def _paths(data, prefix=()):
    """Every (path, value) in a JSON value, containers included."""
    yield prefix, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:3]):
            yield from _paths(v, (*prefix, i))


def _set(data, path, value):
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


BAD_VALUES = (None, 99, -1, "x", [], {}, True, 2.5, ["x"], {"x": 1})


@pytest.mark.parametrize("phase_moves", [1, 9, 25])
def test_no_hand_edit_of_a_state_reaches_a_traceback(grid, phase_moves):
    """Issue 13: every field of a saved state set to a wrong value is either refused with
    ``bad_state`` (one line) or loads into a game whose moves can be listed and played —
    never an exception of another kind."""
    import random

    g = new_game(grid, players=3, seed=4, recommended=True, partners=False)
    rnd = random.Random(phase_moves)
    for _ in range(phase_moves):
        if g.outcome is None:
            g.push(rnd.choice(list(g.legal_moves)))
    saved = json.loads(json.dumps(g.to_json()))
    for path, _ in list(_paths(saved["state"], ("state",))):
        if not path[1:]:
            continue
        for value in BAD_VALUES:
            data = copy.deepcopy(saved)
            _set(data, path, value)
            try:
                h = RiddleGame.from_json(data, grid)
            except StateError as e:
                assert e.code == "bad_state" and "\n" not in str(e), (path, value)
                continue
            legal = list(h.legal_moves)  # a loaded state lists its moves
            h.view(None)
            if legal:
                h.push(legal[0])
