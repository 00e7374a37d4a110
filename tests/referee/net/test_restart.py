"""Nothing lost: ``kill -9`` the server process in the middle of play, start it again
on the same database: every game continues from its last answered move and every
log replays."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from typing import Any

import httpx
import pytest

from referee.envelopes import replay_one
from referee.net.limits import Limits
from referee.net.store import GameStore
from referee.net.tables import Hall

from .conftest import PROJECTS, create


def _player(
    url: str, g: dict[str, Any], answered: list[str], stop: threading.Event, seed: int
) -> None:
    """Play random moves until the server dies, keeping the moves it answered."""
    tokens = {s["player"]: s["token"] for s in g["seats"]}
    rnd = random.Random(seed)
    gid = g["game"]
    with httpx.Client(base_url=url, timeout=10) as http:
        try:
            while not stop.is_set():
                snap = http.get(f"/api/games/{gid}").json()
                if snap["outcome"] is not None:
                    return
                auth = {"Authorization": f"Bearer {tokens[snap['to_move']]}"}
                moves = http.get(f"/api/games/{gid}", headers=auth).json()["moves"]
                move = rnd.choice(moves)
                r = http.post(
                    f"/api/games/{gid}/moves",
                    json={"move": move, "expect_ply": snap["ply"]},
                    headers=auth,
                )
                assert r.status_code == 200, r.text
                answered.append(r.json()["move"])
        except (httpx.TransportError, ValueError):
            return  # the server was killed


@pytest.mark.slow  # a server process killed and started again (~5 s)
def test_kill_9_mid_play_loses_no_answered_move(server_process, tmp_path):
    db = tmp_path / "games.sqlite"
    first = server_process(db, "--moves-per-second", "1000")
    games = [
        create(first.url, rules="ringgeister", project="ringgeister", players=3, seed=1),
        create(first.url, rules="riddle", project="riddle-sample", players=3, seed=2),
        create(first.url, rules="mount-doom", project="mount-doom", players=2, seed=3),
    ]
    answered: list[list[str]] = [[] for _ in games]
    stop = threading.Event()
    threads = [
        threading.Thread(target=_player, args=(first.url, g, a, stop, k))
        for k, (g, a) in enumerate(zip(games, answered))
    ]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 30
    while min(len(a) for a in answered) < 15 and time.monotonic() < deadline:
        time.sleep(0.05)
    first.kill9()  # mid-play: the players are sending moves right now
    for t in threads:
        t.join(10)
    assert min(len(a) for a in answered) >= 15

    second = server_process(db, "--moves-per-second", "1000")
    store = GameStore(db)
    try:
        for g, done in zip(games, answered):
            gid = g["game"]
            snap = httpx.get(second.url + f"/api/games/{gid}").json()
            # every answered move is there; at most the one in flight besides
            assert snap["ply"] in (len(done), len(done) + 1), (snap["ply"], len(done))
            logged = [m["move"] for m in store.moves(gid)]
            assert logged[: len(done)] == done
            # play goes on from there, with the same seats
            played = _play_n(second.url, g, 5)
            assert played == 5 or httpx.get(second.url + f"/api/games/{gid}").json()["outcome"]
        # every log replays, bit for bit, from seed and moves
        hall = Hall(PROJECTS, store, Limits())
        for g in games:
            env = hall.whole(hall.lookup(g["game"]))
            result = replay_one(env, g["game"], str(PROJECTS / env["project"]))
            assert result["ok"], result
            assert result["moves"] == len(list(store.moves(g["game"])))
    finally:
        store.close()


def _play_n(url: str, g: dict[str, Any], n: int) -> int:
    tokens = {s["player"]: s["token"] for s in g["seats"]}
    rnd = random.Random(n)
    gid = g["game"]
    played = 0
    for _ in range(n):
        snap = httpx.get(url + f"/api/games/{gid}").json()
        if snap["outcome"] is not None:
            break
        auth = {"Authorization": f"Bearer {tokens[snap['to_move']]}"}
        moves = httpx.get(url + f"/api/games/{gid}", headers=auth).json()["moves"]
        r = httpx.post(
            url + f"/api/games/{gid}/moves",
            json={"move": rnd.choice(moves), "expect_ply": snap["ply"]},
            headers=auth,
        )
        assert r.status_code == 200, r.text
        played += 1
    return played


def test_serve_http_needs_projects_and_says_how_to_install_the_extra(tmp_path):
    missing = str(tmp_path / "no-such-folder")
    r = subprocess.run(
        [sys.executable, "-m", "referee", "serve", "--http", "--projects", missing],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "--projects" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "referee", "serve"], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2 and "--http" in r.stderr  # one of --stdio, --http is needed
    blocked = (
        "import sys; sys.modules['uvicorn'] = None; sys.modules['starlette'] = None\n"
        "from referee.cli import main\n"
        f"sys.exit(main(['serve', '--http', '--projects', {str(PROJECTS)!r}, '--db', {str(tmp_path / 'g.sqlite')!r}]))"
    )
    r = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [
        "referee serve: referee serve --http needs the server extra: pip install 'boardwright[server]'"
    ]
