"""Cooperative LotR: self-play invariants, serialisation, replays, the CLI verbs."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.cli.cmd_game import selfplay
from referee.compiler import compile_board
from referee.errors import IllegalMoveError, StateError
from referee.games import available, get_game
from referee.games.lotr_coop.game import LotrCoop, Move
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[4]


def play_random(game_cls, compiled, seed: int, players: int = 3) -> tuple[Any, list[str]]:  # type: ignore[no-untyped-def]
    """One seeded game of uniformly random legal moves: the game and its move texts."""
    game = game_cls.new(compiled, players=players, seed=seed)
    policy = random.Random(seed ^ 0x5EED)
    log: list[str] = []
    while game.outcome is None:
        moves = list(game.legal_moves)
        move = moves[policy.randrange(len(moves))]
        game.push(move)
        log.append(str(move))
    return game, log


PROJECT = ROOT / "projects" / "lotr-coop"


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(PROJECT))


def test_registered_and_board_clean(compiled) -> None:  # type: ignore[no-untyped-def]
    """The Master board and the four Scenario boards compile without problems; every line
    is a track (docs/rulings.md)."""
    assert "lotr-coop" in available() and get_game("lotr-coop") is LotrCoop
    assert compiled.problems == []
    lay = LotrCoop.new(compiled, players=2, seed=0).lay
    assert next(m["id"] for m in lay.master) == "bag_end" and lay.master[-1]["final"]
    assert list(lay.scenarios) == ["moria", "helms_deep", "shelobs_lair", "mordor"]
    assert all(len(sc.events) == 6 for sc in lay.scenarios.values())
    assert "friendship" not in lay.scenarios["moria"].lines


@pytest.mark.parametrize("seed", range(10))
def test_selfplay_invariants_and_rejections(compiled, seed: int) -> None:  # type: ignore[no-untyped-def]
    """Random games keep cards, tiles and shields accounted for, and a rejected move
    changes nothing."""
    g = LotrCoop.new(compiled, players=2 + seed % 4, seed=seed)
    pol = random.Random(seed)
    bogus = [
        Move("play", "no-such-card"),
        Move("reveal"),
        Move("gandalf", "gandalf", "magic"),
        Move("volunteer", "fatty"),
        Move("end"),
        Move("ring", "fighting"),
    ]
    n = 0
    while g.outcome is None and n < 3000:
        assert g.invariants() == []
        legal = list(g.legal_moves)
        assert legal
        before = json.dumps(g.to_json(), sort_keys=True)
        for b in bogus:
            if b not in legal:
                with pytest.raises(IllegalMoveError):
                    g.push(b)
        assert json.dumps(g.to_json(), sort_keys=True) == before
        g.push(legal[pol.randrange(len(legal))])
        n += 1
    assert g.outcome is not None and g.invariants() == []


def test_replay_reproduces_game(compiled) -> None:  # type: ignore[no-untyped-def]
    g, log = play_random(LotrCoop, compiled, 42)
    r = LotrCoop.new(compiled, players=3, seed=42)
    for k, text in enumerate(log):
        if k == len(log) // 2:
            r = LotrCoop.from_json(json.loads(json.dumps(r.to_json())), compiled)
        r.push(r.parse_move(text))
    assert r.to_json() == g.to_json() and r.outcome == g.outcome


def test_state_for_other_board_rejected(compiled) -> None:  # type: ignore[no-untyped-def]
    data = LotrCoop.new(compiled, players=2, seed=1).to_json()
    data["board_hash"] = "f" * 16
    with pytest.raises(StateError):
        LotrCoop.from_json(data, compiled)


def test_move_text_round_trip(compiled) -> None:  # type: ignore[no-untyped-def]
    g = LotrCoop.new(compiled, players=4, seed=3)
    pol = random.Random(2)
    for _ in range(80):
        if g.outcome:
            break
        for m in g.legal_moves:
            assert g.parse_move(str(m)) == m
        ms = list(g.legal_moves)
        g.push(ms[pol.randrange(len(ms))])
    with pytest.raises(IllegalMoveError) as exc:
        g.parse_move("")
    assert exc.value.code == "bad_move"


def test_selfplay_function() -> None:
    """``referee selfplay`` plays seeded games to the end, the same again from the seed."""

    def run() -> dict[str, Any]:
        return selfplay(
            "lotr-coop",
            str(ROOT / "projects" / "lotr-coop"),
            games=10,
            seed=1,
            players=3,
            max_moves=20000,
            options={},
        )

    rep = run()
    assert "unfinished" not in rep["outcomes"] and sum(rep["outcomes"].values()) == 10
    assert rep["invariant_violations"] == 0 and run()["outcomes"] == rep["outcomes"]


@pytest.mark.parametrize("rules", ["mount-doom", "lotr-coop"])
def test_cli_new_moves_play_selfplay(rules: str, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The generic verbs work with both track games: new, moves, play (legal and illegal),
    replay and selfplay with invariant checks."""
    project = str(ROOT / "projects" / rules)
    state = tmp_path / "g.json"
    assert main(["new", rules, project, "--players", "3", "--seed", "5", "-o", str(state)]) == 0
    capsys.readouterr()
    assert main(["moves", str(state), "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)["moves"]
    assert moves
    assert main(["play", str(state), moves[0], "-o", str(state), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "accepted"
    before = state.read_text()
    assert main(["play", str(state), "jump", "-o", str(state)]) == 1
    assert state.read_text() == before
    capsys.readouterr()
    assert main(["replay", str(state)]) == 0
    capsys.readouterr()
    assert main(["selfplay", rules, project, "--games", "3", "--players", "3", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["invariant_violations"] == 0 and sum(rep["outcomes"].values()) == 3


def test_board_check_reports_missing_event_line() -> None:
    from referee.checks import rules_problems
    from referee.errors import BoardError

    b = load_project(PROJECT)
    b.features = [f for f in b.features if f.id != "moria_events"]
    c = compile_board(b)
    assert [p.node for p in rules_problems("lotr-coop", c)] == ["moria_events"]
    with pytest.raises(BoardError):
        LotrCoop.new(c, players=2, seed=0)


@pytest.mark.parametrize("rules", ["mount-doom", "lotr-coop"])
def test_serve_protocol(rules: str) -> None:
    """``referee serve --stdio`` plays both track games: new, moves, an illegal move (state
    unchanged), a legal one."""
    from referee.cli.stdio import Server

    srv = Server()
    r = srv.handle_line(
        json.dumps(
            {
                "op": "new",
                "rules": rules,
                "players": 3,
                "seed": 2,
                "project": str(ROOT / "projects" / rules),
            }
        ).encode()
    )
    assert r["ok"], r
    gid = r["game"]
    moves = srv.handle_line(json.dumps({"op": "moves", "game": gid}).encode())["moves"]
    before = srv.handle_line(json.dumps({"op": "state", "game": gid}).encode())["state"]
    bad = srv.handle_line(json.dumps({"op": "play", "game": gid, "move": "fly away"}).encode())
    assert not bad["ok"] and bad["verdict"] == "illegal" and bad["error"]["code"] == "bad_move"
    assert srv.handle_line(json.dumps({"op": "state", "game": gid}).encode())["state"] == before
    ok = srv.handle_line(json.dumps({"op": "play", "game": gid, "move": moves[0]}).encode())
    assert ok["ok"] and ok["verdict"] == "accepted"
