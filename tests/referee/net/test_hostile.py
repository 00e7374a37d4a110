"""Hostile strings over HTTP (issue 25): a lone surrogate or any other string an
attacker sends in a move, a field, a path, a header or a WebSocket query gets a 4xx
with an error code — never a 500, never a traceback — and leaves the game as it
was. Against a real server on a loopback port."""

from __future__ import annotations

import json
import random
import socket
from typing import Any

import httpx
import pytest

from .conftest import AS_ADMIN, Client, create, wait_until
from .test_ws import Listener

#: strings that have broken servers: lone surrogates, controls, bidi marks, NUL,
#: paths, format strings, huge numbers as text, JSON in JSON, long runs
HOSTILE_TEXTS = [
    "\ud800",
    "\udfff",
    "a\ud800b",
    "\ud83d",  # half of an emoji
    "\x00",
    "counter\x00r0c1/c1",
    "\u202ecounter r0c1/c1",
    "\ufeff",
    "\r\n\r\nHTTP/1.1 200 OK",
    "../../../../etc/passwd",
    "%s%s%s%n",
    "{}",
    '{"move": "x"}',
    "9" * 999,
    "é" * 1000,
    "😀" * 500,
    " ",
    "\t",
    "COUNTER R0C1/C1",
]


def _refusal(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code < 500, (r.status_code, r.text)
    assert r.status_code >= 400, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    assert "Traceback" not in r.text
    body = r.json()
    err = body["error"]
    assert isinstance(err["code"], str) and err["code"] and err["message"]
    return body  # type: ignore[no-any-return]


@pytest.fixture
def game(server: Any) -> dict[str, Any]:
    return create(server.url, rules="ringgeister", project="ringgeister", players=2, seed=1)


def _raw_move(server: Any, g: dict[str, Any], text_json: str) -> httpx.Response:
    body = '{"move": ' + text_json + ', "expect_ply": 0}'
    return httpx.post(
        server.url + f"/api/games/{g['game']}/moves",
        content=body.encode("utf-8"),
        headers={"Authorization": f"Bearer {g['seats'][0]['token']}"},
    )


def test_a_lone_surrogate_move_is_a_400_not_a_500(server, game):
    before = Client(server.url).get(f"/api/games/{game['game']}").json()
    r = _raw_move(server, game, '"\\ud800"')
    body = _refusal(r)
    assert r.status_code == 400 and body["error"]["code"] == "bad_json"
    assert Client(server.url).get(f"/api/games/{game['game']}").json() == before


@pytest.mark.parametrize("text", HOSTILE_TEXTS, ids=range(len(HOSTILE_TEXTS)))
def test_hostile_move_texts_are_refused_with_a_code(server, game, text):
    gid = game["game"]
    before = Client(server.url).get(f"/api/games/{gid}").json()
    r = _raw_move(server, game, json.dumps(text))  # ASCII escapes: surrogates as \\udXXX
    body = _refusal(r)
    if r.status_code == 422:
        assert body["verdict"] == "illegal"
    assert Client(server.url).get(f"/api/games/{gid}").json() == before


@pytest.mark.parametrize("field", ["rules", "project", "players", "seed", "options", "position"])
def test_hostile_strings_in_every_field_of_a_new_game(server, field):
    base: dict[str, Any] = {"rules": "ringgeister", "project": "ringgeister", "players": 2}
    for text in HOSTILE_TEXTS:
        value: Any = {text: text} if field in ("options", "position") else text
        body = json.dumps({**base, field: value})
        r = httpx.post(server.url + "/api/games", content=body.encode(), headers=AS_ADMIN)
        assert r.status_code < 500, (field, text, r.text)
        if r.status_code != 201:
            _refusal(r)


def test_hostile_game_ids_in_the_path(server):
    for raw in ("%ED%A0%80", "%FF%FE", "%00", "..%2F..%2Fetc%2Fpasswd", "%F0%9F%98%80" * 40):
        for path in ("", "/log", "/board", "/moves"):
            url = server.url + "/api/games/" + raw + path
            r = httpx.post(url, json={}) if path == "/moves" else httpx.get(url)
            _refusal(r)
        _refusal(httpx.delete(server.url + "/api/games/" + raw, headers=AS_ADMIN))


def _raw_request(server: Any, head: bytes) -> bytes:
    with socket.create_connection((server.host, server.port), timeout=10) as s:
        s.sendall(head)
        out = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return out
            out += chunk
            if b"\r\n\r\n" in out:
                length = [
                    int(line.split(b":")[1])
                    for line in out.split(b"\r\n\r\n")[0].split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                ]
                if length and len(out.split(b"\r\n\r\n", 1)[1]) >= length[0]:
                    return out


@pytest.mark.parametrize(
    "auth",
    [b"Bearer \xed\xa0\x80", b"Bearer \xff\xfe", b"Bearer " + b"a" * 8000, b"\x00", b"Bearer  "],
)
def test_hostile_authorization_headers(server, game, auth):
    for target in (f"/api/games/{game['game']}", "/api/games"):
        method = b"GET" if target != "/api/games" else b"POST"
        out = _raw_request(
            server,
            method
            + b" "
            + target.encode()
            + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n"
            + b"Authorization: "
            + auth
            + b"\r\n\r\n{}",
        )
        status = int(out.split(b" ", 2)[1])
        assert 400 <= status < 500, out[:300]
        head, _, body = out.partition(b"\r\n\r\n")
        if b"application/json" in head:
            assert json.loads(body)["error"]["code"]


def test_hostile_websocket_tokens_are_refused_with_a_reason(server, game):
    # as they arrive in the URL: a lone surrogate and invalid UTF-8 percent-encoded
    for token in ("%ED%A0%80", "%FF%FE", "x" * 5000, "%00", "../..", "%22%3E"):
        x = Listener(server.url, game["game"], token)
        try:
            assert wait_until(lambda x=x: x.closed is not None)
            assert x.closed is not None and x.closed[0] == 4401
        finally:
            x.close()


def test_a_thousand_random_strings_never_get_a_500(server, game):
    rnd = random.Random(25)
    alphabet = [chr(c) for c in range(0, 0x300)] + ["\ud800", "\udc00", "😀", "\u202e"]
    gid = game["game"]
    before = Client(server.url).get(f"/api/games/{gid}").json()
    with httpx.Client(base_url=server.url) as c:
        auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        for _ in range(1000):
            text = "".join(rnd.choice(alphabet) for _ in range(rnd.randrange(1, 40)))
            body = json.dumps({"move": text, "expect_ply": 0})
            r = c.post(f"/api/games/{gid}/moves", content=body.encode(), headers=auth)
            assert r.status_code in (400, 422, 429), (text, r.status_code, r.text)
            _refusal(r)
    assert Client(server.url).get(f"/api/games/{gid}").json() == before
