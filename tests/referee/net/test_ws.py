"""The WebSocket of a game: a hello snapshot, then every accepted move's events as
that seat (or a spectator) may see them; bad tokens and unknown games are refused."""

from __future__ import annotations

import contextlib
import json
import threading
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import Client, create, wait_until


class Listener:
    """A WebSocket client in a thread, keeping every message (and the raw bytes)."""

    def __init__(self, url: str, gid: str, token: str | None = None) -> None:
        ws_url = url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
        if token:
            ws_url += f"?token={token}"
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(connect(ws_url, open_timeout=10))
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.closed: tuple[int | None, str | None] | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while True:
                text = self.ws.recv()
                assert isinstance(text, str)
                self.raw.append(text)
                self.messages.append(json.loads(text))
        except ConnectionClosed as exc:
            rcvd = exc.rcvd
            self.closed = (rcvd.code, rcvd.reason) if rcvd else (None, None)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("type") == kind]

    def close(self) -> None:
        self._stack.close()
        self.thread.join(5)


@pytest.fixture
def game(server: Any) -> dict[str, Any]:
    return create(server.url, rules="ringgeister", project="ringgeister", players=2, seed=3)


def test_seats_and_spectators_get_a_hello_then_every_move(server, game):
    gid = game["game"]
    yellow_t, orange_t = (s["token"] for s in game["seats"])
    yellow, orange, spect = (
        Listener(server.url, gid, yellow_t),
        Listener(server.url, gid, orange_t),
        Listener(server.url, gid),
    )
    try:
        assert wait_until(lambda: all(x.of_type("hello") for x in (yellow, orange, spect)))
        assert yellow.of_type("hello")[0]["you"] == "yellow"
        assert "counter r0c1/c1" in yellow.of_type("hello")[0]["moves"]
        assert orange.of_type("hello")[0]["you"] == "orange"
        assert spect.of_type("hello")[0]["you"] is None
        r = Client(server.url, yellow_t).post(
            f"/api/games/{gid}/moves", {"move": "counter r0c1/c1", "expect_ply": 0}
        )
        assert r.status_code == 200
        r = Client(server.url, orange_t).post(
            f"/api/games/{gid}/moves", {"move": "counter r0c3/c1", "expect_ply": 1}
        )
        assert r.status_code == 200
        assert wait_until(lambda: all(len(x.of_type("move")) == 2 for x in (yellow, orange, spect)))
        for x in (yellow, orange, spect):
            first, second = x.of_type("move")
            assert (first["ply"], first["player"], first["to_move"]) == (1, "yellow", "orange")
            assert first["events"][0]["type"] == "counter_placed"
            assert (second["ply"], second["player"]) == (2, "orange")
        # the move text itself goes only to the seat that played it (it may name a secret)
        assert all("move" not in m for m in spect.of_type("move"))
    finally:
        for x in (yellow, orange, spect):
            x.close()


def test_a_ping_gets_a_pong_and_other_messages_a_json_error(server, game):
    x = Listener(server.url, game["game"])
    try:
        assert wait_until(lambda: bool(x.of_type("hello")))
        x.ws.send(json.dumps({"type": "ping"}))
        x.ws.send("not json")
        x.ws.send(json.dumps({"type": "move", "move": "counter r0c1/c1"}))
        assert wait_until(lambda: len(x.messages) == 4)
        assert x.messages[1] == {"type": "pong"}
        assert x.messages[2]["error"]["code"] == "bad_json"
        assert x.messages[3]["error"]["code"] == "bad_message"
    finally:
        x.close()


def test_a_bad_token_or_unknown_game_is_refused_with_a_json_reason(server, game):
    x = Listener(server.url, game["game"], "wrong-token")
    assert wait_until(lambda: x.closed is not None)
    assert x.messages == [
        {"error": {"code": "bad_token", "message": "this token is no seat of this game"}}
    ]
    assert x.closed == (4401, "bad_token")
    y = Listener(server.url, "no-such-game")
    assert wait_until(lambda: y.closed is not None)
    assert y.messages[0]["error"]["code"] == "unknown_game" and y.closed[0] == 4404
