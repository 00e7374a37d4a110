"""``--view PLAYER``: a frontend showing one player's screen sees only that player's cards."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.cli.stdio import Server
from referee.games import get_module, modules

from ...conftest import generator_leaks

ROOT = Path(__file__).resolve().parents[3]
MAP = ROOT / "projects" / "riddle-sample"


def new_game(tmp_path, capsys):
    state = tmp_path / "g.json"
    assert main(["new", "riddle", str(MAP), "--players", "3", "--seed", "5", "-o", str(state)]) == 0
    capsys.readouterr()
    full = json.loads(state.read_text())["state"]["state"]  # the game's declared state
    hands = {p["name"]: p["hand"] for p in full["seats"]}
    return state, hands


def test_moves_view_shows_own_hand_only_and_no_moves_for_others(tmp_path, capsys):
    state, hands = new_game(tmp_path, capsys)
    viewer = next(
        n for n in hands if n != json.loads(state.read_text())["state"]["state"]["order"][0]
    )
    assert main(["moves", str(state), "--view", viewer, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    seen = {p["name"]: p.get("hand") for p in out["view"]["players"]}
    assert sorted(seen[viewer]) == sorted(hands[viewer])
    assert all(seen[n] is None for n in hands if n != viewer)
    if out["to_move"] != viewer:
        assert out["moves"] == []


def test_play_with_view_prints_the_view_not_the_full_state(tmp_path, capsys):
    state, hands = new_game(tmp_path, capsys)
    assert main(["moves", str(state)]) == 0
    move = capsys.readouterr().out.split("\n")[0]
    mover = json.loads(state.read_text())["state"]["state"]["seats"][0]["name"]
    assert main(["play", str(state), move, "--view", mover, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "state" not in out and out["view"]["viewer"] == mover
    text = json.dumps(out)
    for name, hand in hands.items():
        if name != mover:
            assert not any(f'"{c}"' in text for c in hand if c not in hands[mover])


def test_serve_state_with_view(tmp_path):
    srv = Server()
    out = io.StringIO()
    reqs = [
        {"op": "new", "rules": "riddle", "project": str(MAP), "players": 2, "seed": 1},
        {"op": "state", "game": "g1", "view": "frodo"},
        {"op": "state", "game": "g1", "view": 3},
    ]
    srv.run(io.BytesIO("\n".join(json.dumps(r) for r in reqs).encode() + b"\n"), out)
    new, view, bad = (json.loads(line) for line in out.getvalue().splitlines())
    assert new["ok"] and view["ok"] and "state" not in view
    assert view["view"]["viewer"] == "frodo"
    assert not bad["ok"]


def test_a_viewer_who_is_no_player_is_refused_and_the_move_not_made(tmp_path, capsys):
    """A misspelt ``--view`` names the players in one line (exit 2); ``play`` checks it
    before the move, so the state file is left as it was."""
    state, hands = new_game(tmp_path, capsys)
    before = state.read_bytes()
    assert main(["moves", str(state), "--view", "mallory"]) == 2
    err = capsys.readouterr().err
    assert "'mallory' is not a player of this game" in err and len(err.splitlines()) == 1
    assert all(name in err for name in hands)
    assert main(["moves", str(state)]) == 0
    move = capsys.readouterr().out.split("\n")[0]
    assert main(["play", str(state), move, "--view", "mallory", "-o", str(state)]) == 2
    assert "'mallory' is not a player" in capsys.readouterr().err
    assert state.read_bytes() == before


def test_serve_refuses_a_viewer_who_is_no_player_before_the_move(tmp_path):
    srv = Server()
    out = io.StringIO()
    reqs = [
        {"op": "new", "rules": "riddle", "project": str(MAP), "players": 2, "seed": 1},
        {"op": "moves", "game": "g1"},
    ]
    srv.run(io.BytesIO("\n".join(json.dumps(r) for r in reqs).encode() + b"\n"), out)
    new, moves = (json.loads(line) for line in out.getvalue().splitlines())
    assert new["ok"] and moves["ok"]
    reqs = [
        {"op": "play", "game": "g1", "move": moves["moves"][0], "view": "mallory"},
        {"op": "moves", "game": "g1", "view": "mallory"},
        {"op": "moves", "game": "g1"},
    ]
    out = io.StringIO()
    srv.run(io.BytesIO("\n".join(json.dumps(r) for r in reqs).encode() + b"\n"), out)
    play, view, again = (json.loads(line) for line in out.getvalue().splitlines())
    assert not play["ok"] and play["error"]["code"] == "usage"
    assert "'mallory' is not a player" in play["error"]["message"]
    assert not view["ok"]
    assert again == moves  # the held game did not move


# ---------------------------------------------------------------------- the generator
#: every registered game (built-ins and installed plug-ins), as the contract test plays
GAMES = sorted(modules())


def _players(rules: str) -> int:
    lo, hi = get_module(rules).game.PLAYERS
    return max(lo, min(hi, 2))


def _new_state(tmp_path: Path, capsys: Any, rules: str) -> tuple[Path, dict[str, Any]]:
    sample = get_module(rules).sample_path()
    assert sample is not None, f"{rules} names no sample board"
    state = tmp_path / "g.json"
    argv = ["new", rules, str(sample), "--players", str(_players(rules)), "--seed", "3"]
    assert main([*argv, "-o", str(state)]) == 0
    capsys.readouterr()
    env = json.loads(state.read_text())
    if get_module(rules).game.DIE_FACES > 0:  # a game without dice refuses fixed ones
        env["state"]["dice"] = [2, 1, 2]  # the dice to come, as a test or a position fixes them
    state.write_text(json.dumps(env))
    return state, env


def _hides_generator(view: dict[str, Any], state: int) -> None:
    assert "rng" not in view and "dice" not in view
    assert generator_leaks(view, state) == []


@pytest.mark.parametrize("rules", GAMES)
def test_no_cli_view_shows_the_random_generator(tmp_path, capsys, rules):
    """``moves --view`` and ``play --view`` on a saved state, for every player."""
    state, env = _new_state(tmp_path, capsys, rules)
    rng = env["state"]["rng"]
    assert main(["moves", str(state), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    mover, move = first["to_move"], first["moves"][0]
    for viewer in env["state"]["players"]:
        assert main(["moves", str(state), "--view", viewer, "--json"]) == 0
        _hides_generator(json.loads(capsys.readouterr().out)["view"], rng)
    assert main(["play", str(state), move, "--view", mover, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "accepted" and "state" not in out
    _hides_generator(out["view"], rng)
    # the state file still carries the generator: replays stay exact
    assert json.loads(state.read_text())["state"]["rng"] == rng


@pytest.mark.parametrize("rules", GAMES)
def test_no_serve_view_shows_the_random_generator(tmp_path, capsys, rules):
    """``referee serve`` (JSON lines): ``state`` and ``play`` with ``view``."""
    _, env = _new_state(tmp_path, capsys, rules)
    rng = env["state"]["rng"]
    viewer = env["state"]["players"][0]
    reqs = [
        {"op": "load", "state": env},
        {"op": "state", "game": "g1", "view": viewer},
        {"op": "moves", "game": "g1"},
    ]
    out = io.StringIO()
    srv = Server()
    srv.run(io.BytesIO("\n".join(json.dumps(r) for r in reqs).encode() + b"\n"), out)
    loaded, shown, moves = (json.loads(line) for line in out.getvalue().splitlines())
    assert loaded["ok"] and shown["ok"] and "state" not in shown
    _hides_generator(shown["view"], rng)
    play = {"op": "play", "game": "g1", "move": moves["moves"][0], "view": moves["to_move"]}
    out = io.StringIO()
    srv.run(io.BytesIO(json.dumps(play).encode() + b"\n"), out)
    played = json.loads(out.getvalue())
    assert played["ok"] and played["verdict"] == "accepted", played
    _hides_generator(played["view"], rng)
