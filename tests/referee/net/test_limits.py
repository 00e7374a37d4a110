"""Each limit is enforced with a clear JSON error (or WebSocket close reason)."""

from __future__ import annotations

import json
import time

import httpx

from referee.net.limits import RateLimiter

from .conftest import AS_ADMIN, create, wait_until
from .test_ws import Listener


def test_games_per_server(make_server):
    srv = make_server(max_games=2)
    for seed in (1, 2):
        create(srv.url, rules="ringgeister", project="ringgeister", players=2, seed=seed)
    r = httpx.post(
        srv.url + "/api/games",
        headers=AS_ADMIN,
        json={"rules": "ringgeister", "project": "ringgeister", "players": 2},
    )
    assert r.status_code == 503
    assert r.json()["error"] == {
        "code": "too_many_games",
        "message": "this server holds its limit of 2 games",
    }


def test_request_size_with_and_without_content_length(make_server):
    srv = make_server(max_body=2048)
    big = json.dumps(
        {"rules": "ringgeister", "project": "ringgeister", "players": 2, "pad": "x" * 3000}
    )
    r = httpx.post(srv.url + "/api/games", headers=AS_ADMIN, content=big.encode())
    assert r.status_code == 413 and r.json()["error"]["code"] == "request_too_large"

    def chunks():
        for _ in range(10):
            yield b" " * 1000

    r = httpx.post(
        srv.url + "/api/games", headers=AS_ADMIN, content=chunks()
    )  # chunked: no Content-Length
    assert r.status_code == 413 and r.json()["error"]["code"] == "request_too_large"
    create(srv.url, rules="ringgeister", project="ringgeister", players=2)


def test_moves_per_second_per_token(make_server):
    srv = make_server(moves_per_second=2)
    g = create(srv.url, rules="ringgeister", project="ringgeister", players=2, seed=1)
    url = srv.url + f"/api/games/{g['game']}/moves"
    yellow = {"Authorization": f"Bearer {g['seats'][0]['token']}"}
    orange = {"Authorization": f"Bearer {g['seats'][1]['token']}"}
    statuses = [
        httpx.post(url, json={"move": "nonsense", "expect_ply": 0}, headers=yellow)
        for _ in range(4)
    ]
    assert [r.status_code for r in statuses[:2]] == [422, 422]
    limited = statuses[2]
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
    assert int(limited.headers["Retry-After"]) >= 1
    # another seat has its own allowance
    r = httpx.post(url, json={"move": "nonsense", "expect_ply": 0}, headers=orange)
    assert r.status_code == 403
    time.sleep(0.6)
    r = httpx.post(url, json={"move": "counter r0c1/c1", "expect_ply": 0}, headers=yellow)
    assert r.status_code == 200


def test_rate_limiter_refills_at_its_rate():
    lim = RateLimiter(2.0)
    assert [lim.take("k", now=0.0) for _ in range(3)] == [0.0, 0.0, 0.5]
    assert lim.take("k", now=0.5) == 0.0
    assert lim.take("other", now=0.5) == 0.0


def test_websocket_message_size(make_server):
    srv = make_server(ws_max_message=256)
    g = create(srv.url, rules="ringgeister", project="ringgeister", players=2)
    x = Listener(srv.url, g["game"])
    try:
        assert wait_until(lambda: bool(x.of_type("hello")))
        x.ws.send(json.dumps({"type": "ping", "pad": "x" * 1000}))
        assert wait_until(lambda: x.closed is not None)
        assert x.closed is not None and x.closed[0] == 1009
    finally:
        x.close()


def test_idle_websockets_are_closed(make_server):
    srv = make_server(ws_idle_timeout=0.5)
    g = create(srv.url, rules="ringgeister", project="ringgeister", players=2)
    x = Listener(srv.url, g["game"], g["seats"][0]["token"])
    try:
        assert wait_until(lambda: x.closed is not None, timeout=5)
        assert x.closed == (1000, "idle")
        assert x.messages[-1]["error"]["code"] == "idle"
    finally:
        x.close()
