"""``referee serve --stdio`` never dies on a request: codes, limits, confinement, 10,000 lines."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli.stdio import Server
from referee.envelopes import replay_one

ROOT = Path(__file__).resolve().parents[3]
PROJECTS = ROOT / "projects"
MD = "mount-doom"  # relative to --projects


def ask(srv: Server, req: object | bytes) -> dict:
    raw = req if isinstance(req, bytes) else json.dumps(req).encode()
    resp = srv.handle_line(raw)
    json.loads(srv.encode(resp))  # every response is standard JSON
    return resp


HOSTILE: list[tuple[bytes, str]] = [
    (b"[" * 2000 + b"]" * 2000, "too_deep"),
    (b'{"op": "moves", "x": ' + b"[" * 100 + b"]" * 100 + b"}", "too_deep"),
    (b'{"op": "new", "players": ' + b"9" * 1000 + b"}", "bad_number"),
    (b'{"id": NaN, "op": "moves"}', "bad_number"),
    (b'{"id": Infinity, "op": "moves"}', "bad_number"),
    (
        b'{"op": "new", "rules": "mount-doom", "project": "mount-doom", "players": 2, "options": {"x": NaN}}',
        "bad_number",
    ),
    (b'{"op": "new", "seed": 1e999}', "bad_number"),
    (b'{"op": "\\ud800"}', "bad_json"),
    (b"\xff\xfe{}", "bad_json"),
    (b"{", "bad_json"),
    (b"", "bad_json"),
    (b"null", "bad_request"),
    (b'"text"', "bad_request"),
    (b'{"id": [1], "op": "moves"}', "bad_request"),
    (b'{"id": {"a": 1}, "op": "close"}', "bad_request"),
    (
        b'{"op": "new", "rules": "mount-doom", "project": "mount-doom", "players": "2"}',
        "bad_request",
    ),
    (
        b'{"op": "new", "rules": "mount-doom", "project": "mount-doom", "players": 2, "seed": "abc"}',
        "bad_request",
    ),
    (
        b'{"op": "new", "rules": "mount-doom", "project": "mount-doom", "players": 100000}',
        "bad_request",
    ),
    (
        b'{"op": "new", "rules": "mount-doom", "project": "mount-doom", "players": 2, "options": []}',
        "bad_request",
    ),
    (b'{"op": "new", "rules": ["x"], "project": "mount-doom", "players": 2}', "bad_request"),
    (b'{"op": "new", "rules": "mount-doom", "project": 5, "players": 2}', "bad_request"),
    (b'{"op": "new", "rules": "mount-doom", "project": "/etc/passwd", "players": 2}', "forbidden"),
    (
        b'{"op": "new", "rules": "mount-doom", "project": "../../../../etc/shadow", "players": 2}',
        "forbidden",
    ),
    (b'{"op": "new", "rules": "chess", "project": "mount-doom", "players": 2}', "unknown_rules"),
    (b'{"op": "moves", "game": ["g1"]}', "unknown_game"),
    (b'{"op": "moves", "game": "g999999"}', "unknown_game"),
    (b'{"op": "play", "game": "g1", "move": 5}', "unknown_game"),
    (b'{"op": "moves"}', "bad_request"),
    (b'{"op": "load", "state": [1]}', "bad_state"),
    (
        b'{"op": "load", "state": {"format": "boardwright-game", "version": 1, "rules": "mount-doom", "project": "/etc/passwd", "board_hash": "x", "state": {}}}',
        "forbidden",
    ),
    (b'{"op": "moves", "view": 3, "game": "g1"}', "bad_request"),
    (b'{"op": "fly"}', "unknown_op"),
    (b'{"op": 12}', "unknown_op"),
]


@pytest.fixture
def srv() -> Server:
    return Server(4096, projects=PROJECTS, max_games=8)


@pytest.mark.parametrize("raw,code", HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_every_hostile_request_gets_its_code(srv, raw, code):
    resp = ask(srv, raw)
    assert resp["ok"] is False
    got = resp["error"]["code"]
    assert got == code or (code == "unknown_rules" and "rules" in resp["error"]["message"]), resp
    assert "Traceback" not in json.dumps(resp)


def test_a_state_with_nan_options_can_never_be_made(srv):
    """The old server died answering ``state`` for a game made with ``{"x": NaN}``."""
    bad = ask(srv, HOSTILE[5][0])
    assert bad["error"]["code"] == "bad_number"
    opts = {"variant": "friends-in-need"}
    ok = ask(srv, {"op": "new", "rules": MD, "project": MD, "players": 2, "options": opts})
    assert ok["ok"], ok
    state = ask(srv, {"op": "state", "game": ok["game"]})
    assert state["ok"] and state["state"]["log"]["new"]["options"] == opts


def test_max_games_and_idle_timeout():
    now = [0.0]
    srv = Server(projects=PROJECTS, max_games=2, idle_timeout=10, clock=lambda: now[0])
    new = {"op": "new", "rules": MD, "project": MD, "players": 2}
    g1, g2 = ask(srv, new)["game"], ask(srv, new)["game"]
    full = ask(srv, new)
    assert full["error"]["code"] == "too_many_games"
    now[0] = 8.0
    assert ask(srv, {"op": "moves", "game": g1})["ok"]  # g1 used at 8, g2 idle since 0
    now[0] = 15.0
    assert ask(srv, {"op": "moves", "game": g2})["error"]["code"] == "unknown_game"
    assert ask(srv, {"op": "moves", "game": g1})["ok"]
    assert ask(srv, new)["ok"]  # room again


def test_project_paths_resolve_only_under_the_projects_folder(tmp_path):
    srv = Server(projects=tmp_path)
    outside = ask(srv, {"op": "new", "rules": MD, "project": str(PROJECTS / MD), "players": 2})
    assert outside["error"]["code"] == "forbidden"
    (tmp_path / "evil").symlink_to(PROJECTS / MD)
    through_link = ask(srv, {"op": "new", "rules": MD, "project": "evil", "players": 2})
    assert through_link["error"]["code"] == "forbidden"


def test_a_rules_crash_is_an_internal_error_and_the_game_is_restored(srv, monkeypatch):
    g = ask(srv, {"op": "new", "rules": MD, "project": MD, "players": 2})["game"]
    before = ask(srv, {"op": "state", "game": g})["state"]
    move = ask(srv, {"op": "moves", "game": g})["moves"][0]
    game = srv.session.games[g].game

    def boom(*a, **k):
        raise ZeroDivisionError("rules bug")

    monkeypatch.setattr(type(game), "push", boom)
    resp = ask(srv, {"op": "play", "game": g, "move": move, "id": 7})
    assert resp["id"] == 7 and resp["error"]["code"] == "bad_state"
    assert "ZeroDivisionError" in resp["error"]["message"]
    monkeypatch.undo()
    assert ask(srv, {"op": "play", "game": g, "move": 5})["error"]["code"] == "bad_request"
    assert ask(srv, {"op": "state", "game": g})["state"] == before
    assert ask(srv, {"op": "play", "game": g, "move": move})["ok"]


def test_ten_thousand_mixed_requests_every_one_answered(srv):
    """10,000 requests, a third hostile: each answered, the server alive, every state replays."""
    rnd = random.Random(13)
    handles: list[str] = []
    answered = 0
    codes: dict[str, int] = {}
    for i in range(10_000):
        r = rnd.random()
        if r < 0.33:
            raw = rnd.choice(HOSTILE)[0]
        elif r < 0.36 or not handles:
            raw = json.dumps(
                {
                    "op": "new",
                    "rules": MD,
                    "project": MD,
                    "players": rnd.choice([2, 3]),
                    "seed": i,
                    "id": i,
                }
            ).encode()
        elif r < 0.40:
            raw = json.dumps(
                {"op": "close", "game": handles.pop(rnd.randrange(len(handles)))}
            ).encode()
        elif r < 0.55:
            raw = json.dumps({"op": "moves", "game": rnd.choice(handles), "id": str(i)}).encode()
        elif r < 0.60:
            raw = json.dumps({"op": "render", "game": rnd.choice(handles)}).encode()
        elif r < 0.65:
            raw = json.dumps(
                {
                    "op": "play",
                    "game": rnd.choice(handles),
                    "move": rnd.choice(["pass", "go x", "", "roll"]),
                }
            ).encode()
        else:
            g = rnd.choice(handles)
            moves = srv.handle_line(json.dumps({"op": "moves", "game": g}).encode()).get(
                "moves"
            ) or ["pass"]
            raw = json.dumps({"op": "play", "game": g, "move": rnd.choice(moves)}).encode()
        resp = srv.handle_line(raw)
        line = srv.encode(resp)
        assert line.endswith("\n") and line.count("\n") == 1
        json.loads(line)
        answered += 1
        if resp.get("ok") and "game" in resp and resp.get("game") not in handles:
            handles.append(resp["game"])
        if not resp["ok"]:
            code = resp["error"]["code"]
            codes[code] = codes.get(code, 0) + 1
            assert code != "internal_error", resp
    assert answered == 10_000
    assert {"too_deep", "bad_number", "bad_json", "bad_request", "forbidden"} <= set(codes)
    assert srv.session.games, "games must still be alive"
    for g in list(srv.session.games):
        env = ask(srv, {"op": "state", "game": g})["state"]
        assert replay_one(env, g, boards=srv.session.boards)["ok"], g


def test_the_real_process_answers_every_line(tmp_path):
    """A few hundred lines, hostile ones included, through a real ``referee serve --stdio``."""
    rnd = random.Random(5)
    lines = []
    for i in range(300):
        if i % 3 == 0:
            lines.append(rnd.choice(HOSTILE)[0])
        elif i % 3 == 1:
            lines.append(
                json.dumps(
                    {"op": "new", "rules": MD, "project": MD, "players": 2, "seed": i, "id": i}
                ).encode()
            )
        else:
            lines.append(json.dumps({"op": "moves", "game": "g1", "id": i}).encode())
    lines.append(b"x" * 5000)  # longer than --max-request: skipped, answered once
    lines.append(json.dumps({"op": "state", "game": "g1"}).encode())
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee",
            "serve",
            "--stdio",
            "--projects",
            str(PROJECTS),
            "--max-request",
            "4096",
            "--max-games",
            "500",
        ],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stdout + proc.stderr
    out = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert len(out) == len([x for x in lines if x.strip()])
    assert out[-2]["error"]["code"] == "too_large"
    env = out[-1]["state"]
    assert replay_one(env, "g1")["ok"]


def test_serve_usage_errors(capsys):
    from referee.cli import main

    assert main(["serve", "--stdio", "--max-games", "0"]) == 2
    assert "--max-games" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["serve"])
    assert info.value.code == 2
    capsys.readouterr()


def test_run_reads_on_after_every_failure():
    srv = Server(256, projects=PROJECTS)
    data = (
        b"\n".join(raw for raw, _ in HOSTILE if raw.strip() and len(raw) <= 256)
        + b"\n"
        + b'{"op": "close", "id": "last"}\n'
    )
    out = io.StringIO()
    srv.run(io.BytesIO(data), out)
    resp = [json.loads(x) for x in out.getvalue().splitlines()]
    assert resp[-1] == {"id": "last", "ok": True}
