"""``--view PLAYER``: a frontend showing one player's screen sees only that player's cards."""

from __future__ import annotations

import io
import json
from pathlib import Path

from referee.cli import main
from referee.cli.cmd_game import Server

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
