"""No answer of the server carries the seed (issue 25: "a seed is the generator"):
whoever reads it can rebuild every face-down pile and every die to come. Every byte
a seat, the owner before the end, or a spectator receives — the game, its log, its
board, the projects, the WebSocket's hello and events — is searched for the seed,
over moves of every registered game. Against a real server on a loopback port."""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest

from referee.compiler import compile_board
from referee.games import get_module, modules
from referee.store import load_project

from .conftest import Client, create, wait_until
from .test_ws import Listener

#: a seed no board, event or view would hold by chance
SEED = 918_273_645_501


def _keys(obj: Any) -> set[str]:
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            out.update(x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


@pytest.mark.parametrize("rules", sorted(modules()))
def test_no_answer_carries_the_seed(make_server, tmp_path, rules):
    sample = get_module(rules).sample_path()
    assert sample is not None, f"{rules} names no sample board"
    projects = tmp_path / "projects"
    projects.mkdir()
    if sample.is_dir():
        shutil.copytree(sample, projects / rules)
    else:
        shutil.copy(sample, projects / f"{rules}{sample.suffix}")
    server = make_server(projects, moves_per_second=1000)
    cls = get_module(rules).game
    players = max(cls.PLAYERS[0], min(cls.PLAYERS[1], 2))
    g = create(server.url, rules=rules, project=rules, players=players, seed=SEED)
    gid = g["game"]
    local = cls.new(compile_board(load_project(sample)), players=players, seed=SEED)
    readers = [
        Client(server.url),
        Client(server.url, g["owner"]),
        *(Client(server.url, s["token"]) for s in g["seats"]),
    ]
    seat = {s["player"]: c for s, c in zip(g["seats"], readers[2:])}
    sockets = [
        Listener(server.url, gid),
        *(Listener(server.url, gid, s["token"]) for s in g["seats"]),
    ]
    try:
        assert wait_until(lambda: all(x.of_type("hello") for x in sockets))
        for ply in range(6):
            for c in readers:
                for path in (f"/api/games/{gid}", f"/api/games/{gid}/log", "/api/projects"):
                    assert c.get(path).status_code == 200
            if ply == 0:
                for c in readers:
                    assert c.get(f"/api/games/{gid}/board").status_code == 200
            if local.outcome is not None:
                break
            move = str(next(iter(local.legal_moves)))
            r = seat[local.to_move].post(
                f"/api/games/{gid}/moves", {"move": move, "expect_ply": ply}
            )
            assert r.status_code == 200, r.text
            local.push_text(move)
        assert wait_until(
            lambda: all(len(x.of_type("move")) == len(sockets[0].of_type("move")) for x in sockets)
        )
        received = [b for c in readers for b in c.received] + [
            t.encode() for x in sockets for t in x.raw
        ]
        assert received
        for raw in received:
            assert str(SEED).encode() not in raw, (rules, raw[:300])
            assert "seed" not in _keys(json.loads(raw)), (rules, raw[:300])
    finally:
        for x in sockets:
            x.close()
        for c in readers:
            c.close()
