"""The generic game verbs: new, moves, play, replay, selfplay and serve --stdio.

Run in-process through ``referee.cli.main`` on a generated Ringgeister board saved
as a project, so they do not depend on the default board.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from referee.cli import main
from referee.cli.stdio import Server
from referee.games.ringgeister.sample import sample_board
from referee.store import export_json


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("proj")
    p = d / "board.json"
    export_json(sample_board(4, 4, 2), p)
    return p


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def new_state(capsys, project: Path, tmp_path: Path, *extra: str) -> Path:
    state = tmp_path / "s.json"
    rc, _, err = run(
        capsys,
        "new",
        "ringgeister",
        str(project),
        "--players",
        "2",
        "--seed",
        "4",
        "-o",
        str(state),
        *extra,
    )
    assert rc == 0, err
    return state


def test_new_prints_a_state_that_names_its_board(capsys, project):
    rc, out, _ = run(
        capsys,
        "new",
        "ringgeister",
        str(project),
        "--players",
        "3",
        "--seed",
        "1",
        "--variant",
        "B",
    )
    assert rc == 0
    env = json.loads(out)
    assert env["format"] == "boardwright-game" and env["rules"] == "ringgeister"
    assert Path(env["project"]) == project.resolve()
    assert len(env["board_hash"]) == 16 and env["state"]["board_hash"] == env["board_hash"]
    assert env["state"]["players"] == ["yellow", "orange", "purple"]
    assert len(env["state"]["state"]["counters"]) == 6  # variant B: two each


def test_same_seed_same_game(capsys, project):
    outs = [
        run(capsys, "new", "ringgeister", str(project), "--players", "2", "--seed", "9")[1]
        for _ in range(2)
    ]
    assert outs[0] == outs[1]
    other = run(capsys, "new", "ringgeister", str(project), "--players", "2", "--seed", "10")[1]
    assert (
        json.loads(other)["state"]["state"]["figures"]
        != json.loads(outs[0])["state"]["state"]["figures"]
    )


def test_moves_play_and_replay(capsys, project, tmp_path):
    state = new_state(capsys, project, tmp_path, "--option", "counter_placement=random")
    rc, out, _ = run(capsys, "moves", str(state), "--json")
    listed = json.loads(out)
    assert rc == 0 and listed["to_move"] == "yellow" and listed["moves"]
    for k in range(12):
        rc, out, _ = run(capsys, "moves", str(state))
        moves = out.split("\n")
        move = [m for m in moves if m][k % len([m for m in moves if m])]
        rc, out, err = run(capsys, "play", str(state), move, "-o", str(state))
        assert rc == 0, err
        assert out.startswith(f"accepted: {move}")
    env = json.loads(state.read_text())
    assert len(env["log"]["moves"]) == 12
    rc, out, _ = run(capsys, "replay", str(state))
    assert rc == 0 and "12 move(s) replayed, every verdict matches" in out


def test_play_json_verdict_and_new_state_on_stdout(capsys, project, tmp_path):
    state = new_state(capsys, project, tmp_path, "--option", "counter_placement=random")
    move = run(capsys, "moves", str(state))[1].split("\n")[0]
    rc, out, _ = run(capsys, "play", str(state), move, "--json")
    verdict = json.loads(out)
    assert rc == 0 and verdict["verdict"] == "accepted"
    assert verdict["events"][0]["type"] == "moved"
    assert verdict["state"]["log"]["moves"][0]["move"] == move


def test_illegal_move_explained_and_state_unchanged(capsys, project, tmp_path):
    state = new_state(capsys, project, tmp_path, "--option", "counter_placement=random")
    before = state.read_text()
    rc, out, err = run(capsys, "play", str(state), "orc-1 ws1", "-o", str(state), "--json")
    assert rc == 1
    verdict = json.loads(out)
    assert verdict["verdict"] == "illegal" and verdict["code"] == "not_your_figure"
    assert "black figure" in verdict["message"] and "Traceback" not in err
    assert state.read_text() == before
    rc, _, err = run(capsys, "play", str(state), "fly away now")
    assert rc == 1 and "bad_move" in err and "Traceback" not in err


def test_state_refuses_a_different_board(capsys, project, tmp_path):
    state = new_state(capsys, project, tmp_path)
    other = tmp_path / "other.json"
    export_json(sample_board(4, 4, 3), other)
    rc, _, err = run(capsys, "moves", str(state), "--project", str(other))
    assert rc == 1 and "made for board" in err


def test_replay_detects_a_tampered_log(capsys, project, tmp_path):
    state = new_state(capsys, project, tmp_path, "--option", "counter_placement=random")
    for _ in range(4):
        move = run(capsys, "moves", str(state))[1].split("\n")[0]
        assert run(capsys, "play", str(state), move, "-o", str(state))[0] == 0
    env = json.loads(state.read_text())
    env["log"]["moves"][2]["events"][0]["to"] = "somewhere-else"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(env))
    rc, out, _ = run(capsys, "replay", str(bad))
    assert rc == 1 and "mismatch at ply 3" in out
    # a logged rejection is a verdict too: replay checks it is still rejected, same code
    env = json.loads(state.read_text())
    env["log"]["moves"].insert(
        1, {"move": "orc-1 ws1", "verdict": "illegal", "code": "not_your_figure"}
    )
    env["log"]["moves"].insert(
        1, {"move": "gollum ws2", "verdict": "illegal", "code": "spider_blocks"}
    )
    bad.write_text(json.dumps(env))
    rc, out, _ = run(capsys, "replay", str(bad), "--json")
    rep = json.loads(out)
    assert rc == 1 and rep["games"][0]["mismatch"]["ply"] == 2


def test_selfplay_report_and_replayable_log(capsys, project, tmp_path):
    log = tmp_path / "games.jsonl"
    rc, out, _ = run(
        capsys,
        "selfplay",
        "ringgeister",
        str(project),
        "--games",
        "3",
        "--seed",
        "5",
        "--players",
        "2",
        "--max-moves",
        "300",
        "--json",
        "--log",
        str(log),
    )
    rep = json.loads(out)
    assert rc == 0
    assert rep["games"] == 3 and rep["moves"] > 0 and rep["invariant_violations"] == 0
    assert sum(rep["outcomes"].values()) == 3
    assert rep["moves_per_second"] > 0 and rep["legal_moves_calls_per_second"] > 0
    rc, out, _ = run(capsys, "replay", str(log))
    assert rc == 0 and out.count("every verdict matches") == 3


def test_selfplay_takes_its_player_count_from_the_game(capsys, monkeypatch, tmp_path):
    """Without --players, selfplay plays as many as the game's PLAYERS take (at most 4):
    a two-player game is not asked for four."""
    race = pytest.importorskip("boardwright_race")
    monkeypatch.setattr(race.Race, "PLAYERS", (2, 2))
    log = tmp_path / "race.jsonl"
    demo = str(race.RULES.sample_path())
    rc, _, err = run(capsys, "selfplay", "race", demo, "--games", "1", "--json", "--log", str(log))
    assert rc == 0, err
    assert json.loads(log.read_text())["log"]["new"]["players"] == 2
    monkeypatch.setattr(race.Race, "PLAYERS", (2, 6))
    rc, _, err = run(capsys, "selfplay", "race", demo, "--games", "1", "--log", str(log))
    assert rc == 0 and json.loads(log.read_text())["log"]["new"]["players"] == 4


def test_unknown_rules_and_bad_option_are_usage_errors(capsys, project):
    rc, _, err = run(capsys, "new", "chess", str(project), "--players", "2")
    assert rc == 2 and "unknown rules" in err
    rc, _, err = run(
        capsys, "new", "ringgeister", str(project), "--players", "2", "--option", "novalue"
    )
    assert rc == 2 and "KEY=VALUE" in err
    rc, _, err = run(capsys, "new", "ringgeister", str(project), "--players", "4", "--variant", "C")
    assert rc == 2 and "three players" in err


def serve(lines: list[bytes], max_request: int = 4096) -> list[dict]:
    out = io.StringIO()
    Server(max_request).run(io.BytesIO(b"".join(lines)), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_serve_transcript(project):
    req = [
        {
            "id": 1,
            "op": "new",
            "rules": "ringgeister",
            "project": str(project),
            "players": 2,
            "seed": 4,
            "options": {"counter_placement": "random"},
        },
        {"id": 2, "op": "moves", "game": "g1"},
        {"id": 3, "op": "render", "game": "g1"},
        {"id": 4, "op": "state", "game": "g1"},
    ]
    resp = serve([json.dumps(r).encode() + b"\n" for r in req])
    assert [r["id"] for r in resp] == [1, 2, 3, 4] and all(r["ok"] for r in resp)
    assert resp[0]["game"] == "g1" and resp[0]["to_move"] == "yellow"
    move = resp[1]["moves"][0]
    assert "yellow to move" in resp[2]["text"]
    env = resp[3]["state"]
    # play by handle, then with the inline state (stateless use)
    resp = serve(
        [
            json.dumps(
                {
                    "id": 5,
                    "op": "new",
                    "rules": "ringgeister",
                    "project": str(project),
                    "players": 2,
                    "seed": 4,
                    "options": {"counter_placement": "random"},
                }
            ).encode()
            + b"\n",
            json.dumps({"id": 6, "op": "play", "game": "g1", "move": move}).encode() + b"\n",
            json.dumps({"id": 7, "op": "play", "state": env, "move": move}).encode() + b"\n",
        ]
    )
    assert resp[1]["verdict"] == "accepted" and resp[2]["verdict"] == "accepted"
    assert resp[1]["events"] == resp[2]["events"]
    assert resp[2]["state"]["log"]["moves"][0]["move"] == move


def test_serve_survives_bad_requests(project):
    resp = serve(
        [
            b"not json\n",
            b"[1, 2]\n",
            b'{"op": "fly", "id": 9}\n',
            b'{"op": "moves", "game": "g7"}\n',
            b"{" + b'"x": 1, ' * 2000 + b'"op": "moves"}\n',
            b"\xff\xfe\n",
            b'{"op": "new", "rules": "ringgeister", "project": "/nope", "players": 2}\n',
            b'{"op": "play", "game": "g1", "move": "pass"}\n',
            json.dumps(
                {"op": "new", "rules": "ringgeister", "project": str(project), "players": 2}
            ).encode()
            + b"\n",
            b'{"op": "play", "game": "g1", "move": "orc-1 ws1"}\n',
        ],
        max_request=4096,
    )
    codes = [r.get("error", {}).get("code") for r in resp]
    assert codes[:8] == [
        "bad_json",
        "bad_request",
        "unknown_op",
        "unknown_game",
        "too_large",
        "bad_json",
        "not_found",
        "unknown_game",
    ]
    assert resp[2]["id"] == 9
    assert resp[8]["ok"] is True
    assert resp[9]["verdict"] == "illegal" and resp[9]["error"]["code"] == "wrong_phase"
