"""Strangers cannot take a server over (issue 25, "anyone can fill the server for
good"): creating a game needs the admin token (or, with ``--open``, stays within a
quota per client), every game has an owner who can delete it, finished and idle
games expire and free the limit, and a restart on the same database does not bring
them back into it. Against a real server on a loopback port."""

from __future__ import annotations

import random
import time

import httpx
import pytest

from referee.net.store import GameRecord, GameStore

from .conftest import ADMIN, AS_ADMIN, Client, create, wait_until
from .test_ws import Listener

RG = {"rules": "ringgeister", "project": "ringgeister", "players": 2}


def test_no_credential_no_game_however_many_tries(server):
    for _ in range(80):  # more than the old default limit of 64
        r = httpx.post(server.url + "/api/games", json=RG)
        assert r.status_code == 401 and r.json()["error"]["code"] == "no_token"
    wrong = {"Authorization": "Bearer not-the-admin-token"}
    r = httpx.post(server.url + "/api/games", json=RG, headers=wrong)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_admin"
    g = create(server.url, **RG)  # the admin still can: nothing was used up
    seat = {"Authorization": f"Bearer {g['seats'][0]['token']}"}
    r = httpx.post(server.url + "/api/games", json=RG, headers=seat)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_admin"
    assert len(g["owner"]) >= 24 and g["owner"] not in {s["token"] for s in g["seats"]}


def test_open_creation_stays_within_the_quota_per_client(make_server):
    srv = make_server(open_creation=True, games_per_client=2)
    url = srv.url + "/api/games"
    first = httpx.post(url, json=RG)
    assert first.status_code == 201, first.text
    assert httpx.post(url, json=RG).status_code == 201
    r = httpx.post(url, json=RG)
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_games_for_client"
    # the seed and the position would tell their chooser every hidden card
    r = httpx.post(url, json={**RG, "seed": 7})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_admin"
    # deleting one of its games gives the client room again
    gid, owner = first.json()["game"], first.json()["owner"]
    d = httpx.delete(srv.url + f"/api/games/{gid}", headers={"Authorization": f"Bearer {owner}"})
    assert d.status_code == 200 and d.json() == {"game": gid, "closed": True}
    assert httpx.post(url, json=RG).status_code == 201
    # the admin is not held to the quota
    create(srv.url, **RG, seed=3)


def test_the_owner_deletes_a_game_others_cannot(server, tmp_path):
    g = create(server.url, **RG, seed=1)
    gid = g["game"]
    yellow = g["seats"][0]["token"]
    r = Client(server.url, yellow).post(
        f"/api/games/{gid}/moves", {"move": "counter r0c1/c1", "expect_ply": 0}
    )
    assert r.status_code == 200
    watcher = Listener(server.url, gid)
    try:
        assert wait_until(lambda: bool(watcher.of_type("hello")))
        url = server.url + f"/api/games/{gid}"
        r = httpx.delete(url)
        assert r.status_code == 401 and r.json()["error"]["code"] == "no_token"
        r = httpx.delete(url, headers={"Authorization": f"Bearer {yellow}"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_owner"
        r = httpx.delete(url, headers={"Authorization": "Bearer nothing-of-this-game"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
        assert httpx.get(url).status_code == 200  # still there
        r = httpx.delete(url, headers={"Authorization": f"Bearer {g['owner']}"})
        assert r.status_code == 200 and r.json() == {"game": gid, "closed": True}
        assert wait_until(lambda: watcher.closed is not None)
        assert watcher.of_type("closed") == [{"type": "closed", "game": gid, "reason": "deleted"}]
        assert watcher.closed == (1000, "deleted")
    finally:
        watcher.close()
    for path in ("", "/log", "/board"):
        r = httpx.get(url + path)
        assert r.status_code == 410 and r.json()["error"]["code"] == "game_expired"
    r = Client(server.url, yellow).post(
        f"/api/games/{gid}/moves", {"move": "counter r0c3/c1", "expect_ply": 1}
    )
    assert r.status_code == 410
    # the record stays in the store: the game and its move
    store = GameStore(tmp_path / "games.sqlite")
    try:
        rec = store.game(gid)
        assert rec is not None and rec.expired_why == "deleted"
        assert [m["move"] for m in store.moves(gid)] == ["counter r0c1/c1"]
    finally:
        store.close()
    # the admin may delete any game
    other = create(server.url, **RG)
    r = httpx.delete(server.url + f"/api/games/{other['game']}", headers=AS_ADMIN)
    assert r.status_code == 200


def test_idle_games_expire_and_free_the_limit(make_server):
    srv = make_server(max_games=2, idle_timeout=1.5)
    a = create(srv.url, **RG)
    create(srv.url, **RG)
    r = httpx.post(srv.url + "/api/games", json=RG, headers=AS_ADMIN)
    assert r.status_code == 503 and r.json()["error"]["code"] == "too_many_games"
    # a spectator polling does not keep a game alive; only moves do
    end = time.monotonic() + 2.5
    while time.monotonic() < end:
        httpx.get(srv.url + f"/api/games/{a['game']}")
        time.sleep(0.1)
    create(srv.url, **RG)  # room again: both old games expired
    r = httpx.get(srv.url + f"/api/games/{a['game']}")
    assert r.status_code == 410 and "idle" in r.json()["error"]["message"]


def test_moves_keep_a_game_alive(make_server):
    srv = make_server(idle_timeout=2.0, moves_per_second=100)
    g = create(srv.url, rules="mount-doom", project="mount-doom", players=2, seed=2)
    seats = {s["player"]: Client(srv.url, s["token"]) for s in g["seats"]}
    gid = g["game"]
    for _ in range(6):  # 6 moves 0.8 s apart: 4.8 s, longer than the idle timeout
        time.sleep(0.8)
        snap = httpx.get(srv.url + f"/api/games/{gid}").json()
        seat = seats[snap["to_move"]]
        move = seat.get(f"/api/games/{gid}").json()["moves"][0]
        r = seat.post(f"/api/games/{gid}/moves", {"move": move, "expect_ply": snap["ply"]})
        assert r.status_code == 200, r.text


def test_a_finished_game_expires_after_finished_ttl_and_frees_the_limit(make_server):
    srv = make_server(max_games=1, finished_ttl=1.5, moves_per_second=1000)
    g = create(srv.url, rules="mount-doom", project="mount-doom", players=2, seed=1)
    gid = g["game"]
    seats = {s["player"]: Client(srv.url, s["token"]) for s in g["seats"]}
    rnd = random.Random(0)
    for _ in range(2000):
        snap = httpx.get(srv.url + f"/api/games/{gid}").json()
        if snap["outcome"] is not None:
            break
        seat = seats[snap["to_move"]]
        moves = seat.get(f"/api/games/{gid}").json()["moves"]
        r = seat.post(
            f"/api/games/{gid}/moves", {"move": rnd.choice(moves), "expect_ply": snap["ply"]}
        )
        assert r.status_code == 200, r.text
    assert snap["outcome"] is not None
    # over, but still there for a while: its seats may read how it ended
    assert httpx.get(srv.url + f"/api/games/{gid}").status_code == 200
    r = httpx.post(srv.url + "/api/games", json=RG, headers=AS_ADMIN)
    assert r.status_code == 503  # it still counts
    time.sleep(2.6)
    r = httpx.get(srv.url + f"/api/games/{gid}")
    assert r.status_code == 410 and "finished" in r.json()["error"]["message"]
    create(srv.url, **RG)  # its place is free


def test_finished_games_expire_after_their_time(tmp_path):
    """The schedule itself, on the store: a finished game expires ``finished_ttl``
    after its last move, an unfinished one after ``idle`` without a move."""
    store = GameStore(tmp_path / "g.sqlite")
    try:
        common = {
            "rules": "mount-doom",
            "project": "mount-doom",
            "board_hash": "h",
            "seats": ["p1", "p2"],
            "token_hashes": {},
            "seed": 1,
            "options": {},
            "position": None,
            "setup_events": [],
            "state": {},
        }
        store.add_game(GameRecord(id="done", outcome={"result": "lost"}, **common))
        store.add_game(GameRecord(id="going", **common))
        now = time.time()
        assert store.expire_due(now + 5, idle=60, finished_ttl=10) == []
        assert store.expire_due(now + 11, idle=60, finished_ttl=10) == ["done"]
        assert store.count_live() == 1
        assert store.expire_due(now + 61, idle=60, finished_ttl=10) == ["going"]
        assert store.game("done").expired_why == "finished"  # type: ignore[union-attr]
        assert store.game("going").expired_why == "idle"  # type: ignore[union-attr]
        assert store.count_live() == 0 and store.count_games() == 2
    finally:
        store.close()


@pytest.mark.slow  # two server processes in turn (~4 s)
def test_a_restart_on_the_same_database_does_not_bring_expired_games_back(server_process, tmp_path):
    db = tmp_path / "games.sqlite"
    first = server_process(db, "--max-games", "2", "--idle-timeout", "2")
    games = [create(first.url, **RG), create(first.url, **RG)]
    r = httpx.post(first.url + "/api/games", json=RG, headers=AS_ADMIN)
    assert r.status_code == 503
    first.kill9()
    time.sleep(2.3)  # past the idle timeout while no server runs
    second = server_process(db, "--max-games", "2", "--idle-timeout", "2")
    create(second.url, **RG)
    create(second.url, **RG)
    for g in games:
        assert httpx.get(second.url + f"/api/games/{g['game']}").status_code == 410
    # and live games stay live across a restart: the limit holds
    r = httpx.post(second.url + "/api/games", json=RG, headers=AS_ADMIN)
    assert r.status_code == 503
    second.stop()
    third = server_process(db, "--max-games", "2", "--idle-timeout", "60")
    r = httpx.post(third.url + "/api/games", json=RG, headers=AS_ADMIN)
    assert r.status_code == 503


def test_the_admin_token_comes_from_the_flag_or_the_environment(tmp_path, monkeypatch):
    from referee.cli import build_parser
    from referee.errors import UsageError
    from referee.net.cli import ADMIN_ENV, admin_token_from

    base = ["serve", "--http", "--projects", "projects"]
    args = build_parser().parse_args([*base, "--admin-token", ADMIN])
    assert admin_token_from(args) == (ADMIN, "--admin-token")
    monkeypatch.setenv(ADMIN_ENV, "from-the-environment-1234")
    args = build_parser().parse_args(base)
    assert admin_token_from(args) == ("from-the-environment-1234", ADMIN_ENV)
    monkeypatch.delenv(ADMIN_ENV)
    assert admin_token_from(build_parser().parse_args(base))[0] is None  # a random one
    with pytest.raises(UsageError, match="16 printable"):
        admin_token_from(build_parser().parse_args([*base, "--admin-token", "short"]))
