"""The OpenAPI document is generated from the routes and tested whole (issue 26):
every route and method the app serves is documented and nothing else is; every path
parameter is declared; and against real servers every status an endpoint answers is
one it documents, and every status it documents is one it answers."""

from __future__ import annotations

import json
import shutil
import socket
import time
from collections import defaultdict
from typing import Any

import httpx
from starlette.routing import Mount, Route, WebSocketRoute

from referee.net.app import ENDPOINTS, create_app
from referee.net.limits import Limits
from referee.net.openapi import openapi
from referee.net.store import GameStore
from referee.net.tables import Hall

from .conftest import AS_ADMIN, PROJECTS, Client, create
from .test_ws import Listener


def _documented(spec: dict[str, Any]) -> dict[tuple[str, str], set[int]]:
    return {
        (method.upper(), path): {int(c) for c in op["responses"]}
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
    }


def test_every_route_is_documented_and_only_those(tmp_path):
    store = GameStore(tmp_path / "g.sqlite")
    try:
        app = create_app(Hall(PROJECTS, store, Limits()))
    finally:
        store.close()
    served: set[tuple[str, str]] = set()
    for route in app.routes:
        if isinstance(route, Route):
            served |= {(m, route.path) for m in (route.methods or ()) if m != "HEAD"}
        elif isinstance(route, WebSocketRoute):
            served.add(("GET", route.path))
        elif isinstance(route, Mount):
            served.add(("GET", route.path + "/{path}"))
    spec = openapi(ENDPOINTS)
    assert served == set(_documented(spec))
    for path, ops in spec["paths"].items():
        declared = {p.split("}")[0] for p in path.split("{")[1:]}
        for method, op in ops.items():
            names = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert names == declared, (method, path)
            assert op["summary"] and op["operationId"]
            for code, resp in op["responses"].items():
                assert resp["description"], (method, path, code)
            for ref in _refs(op):
                name = ref.split("/")[3]
                assert name in spec["components"]["schemas"], ref
    ids = [op["operationId"] for ops in spec["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids))


def _refs(obj: Any) -> list[str]:
    out = []
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "$ref" in x:
                out.append(x["$ref"])
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


class Seen:
    """Statuses answered, by (method, path template)."""

    def __init__(self) -> None:
        self.by: dict[tuple[str, str], set[int]] = defaultdict(set)

    def add(self, method: str, template: str, r: httpx.Response | int) -> Any:
        status = r if isinstance(r, int) else r.status_code
        self.by[(method, template)].add(status)
        if not isinstance(r, int) and r.status_code >= 400:
            assert r.json()["error"]["code"], r.text
        return r


def _slow_body(url: str, path: str, headers: dict[str, str]) -> int:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        s.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: 100\r\n{head}\r\n{{".encode()
        )
        out = b""
        while b"\r\n" not in out:
            chunk = s.recv(4096)
            if not chunk:
                break
            out += chunk
    return int(out.split(b" ", 2)[1])


def test_every_status_answered_is_documented_and_every_documented_one_answered(
    make_server, tmp_path
):
    root = tmp_path / "projects"
    root.mkdir()
    (root / "md").mkdir()
    shutil.copy(PROJECTS / "mount-doom" / "mount-doom.json", root / "md" / "md.json")
    (root / "rg").mkdir()
    shutil.copy(PROJECTS / "ringgeister" / "ringgeister.json", root / "rg" / "rg.json")
    db = tmp_path / "games.sqlite"
    seen = Seen()
    G, GID = "/api/games", "/api/games/{gid}"
    MOVES, LOG, BOARD = GID + "/moves", GID + "/log", GID + "/board"

    srv = make_server(root, db, max_games=6, max_body=2048, moves_per_second=2, request_timeout=0.5)
    u = srv.url
    md = {"rules": "mount-doom", "project": "md", "players": 2}
    # --- the lists and the document
    seen.add("GET", "/api/rules", httpx.get(u + "/api/rules"))
    seen.add("GET", "/api/projects", httpx.get(u + "/api/projects"))
    seen.add("GET", "/api/openapi.json", httpx.get(u + "/api/openapi.json"))
    seen.add("GET", "/", httpx.get(u + "/"))
    seen.by[("GET", "/static/{path}")].add(httpx.get(u + "/static/table.js").status_code)
    seen.by[("GET", "/static/{path}")].add(httpx.get(u + "/static/nothing.js").status_code)
    # --- creating
    post = lambda body, **kw: seen.add("POST", G, httpx.post(u + G, **body, **kw))  # noqa: E731
    post({"json": md}, headers=AS_ADMIN)
    post({"content": b"{"}, headers=AS_ADMIN)
    post({"json": md})
    post({"json": md}, headers={"Authorization": "Bearer someone-else"})
    post({"json": {**md, "project": "nothing"}}, headers=AS_ADMIN)
    post({"content": b" " * 4000}, headers=AS_ADMIN)
    seen.by[("POST", G)].add(_slow_body(u, G, AS_ADMIN))
    g = create(u, **md, seed=1)
    gid = g["game"]
    seats = {s["player"]: s["token"] for s in g["seats"]}
    owner = g["owner"]
    # --- one game, every way
    for path, method in ((GID, "GET"), (LOG, "GET"), (BOARD, "GET")):
        real = path.replace("{gid}", gid)
        seen.add(method, path, httpx.get(u + real))
        seen.add(method, path, httpx.get(u + real, headers={"Authorization": "Bearer nope"}))
        seen.add(method, path, httpx.get(u + path.replace("{gid}", "nothing")))
    mv = u + MOVES.replace("{gid}", gid)
    to_move = Client(u).get(f"/api/games/{gid}").json()["to_move"]
    other = next(p for p in seats if p != to_move)
    auth = {"Authorization": f"Bearer {seats[to_move]}"}
    seen.add(
        "POST", MOVES, httpx.post(mv, json={"move": "nonsense", "expect_ply": 0}, headers=auth)
    )
    seen.add("POST", MOVES, httpx.post(mv, json={"move": 7, "expect_ply": 0}, headers=auth))
    with httpx.Client() as quick:  # two moves a second: one more soon after is refused
        for _ in range(50):
            r = quick.post(mv, json={"move": "x", "expect_ply": 0}, headers=auth)
            seen.add("POST", MOVES, r)
            if r.status_code == 429:
                break
    seen.add("POST", MOVES, httpx.post(mv, json={"move": "x", "expect_ply": 0}))  # 401
    time.sleep(1.1)
    seen.add("POST", MOVES, httpx.post(mv, json={"move": "x", "expect_ply": 5}, headers=auth))
    seen.add(
        "POST",
        MOVES,
        httpx.post(
            mv,
            json={"move": "x", "expect_ply": 0},
            headers={"Authorization": f"Bearer {seats[other]}"},
        ),
    )
    seen.add("POST", MOVES, httpx.post(mv, content=b" " * 4000, headers=auth))
    seen.add("POST", MOVES, httpx.post(u + MOVES.replace("{gid}", "nothing"), json={}))
    time.sleep(1.1)
    move = Client(u, seats[to_move]).get(f"/api/games/{gid}").json()["moves"][0]
    seen.add("POST", MOVES, httpx.post(mv, json={"move": move, "expect_ply": 0}, headers=auth))
    seen.by[("POST", MOVES)].add(_slow_body(u, MOVES.replace("{gid}", gid), auth))
    # a seat's move does not need the owner; the owner holds no seat
    time.sleep(1.1)
    seen.add(
        "POST",
        MOVES,
        httpx.post(
            mv, json={"move": "x", "expect_ply": 1}, headers={"Authorization": f"Bearer {owner}"}
        ),
    )
    # --- deleting
    d = u + GID.replace("{gid}", gid)
    seen.add("DELETE", GID, httpx.delete(d))
    seen.add("DELETE", GID, httpx.delete(d, headers=auth))
    seen.add("DELETE", GID, httpx.delete(u + "/api/games/nothing", headers=AS_ADMIN))
    seen.add("DELETE", GID, httpx.delete(d, headers={"Authorization": f"Bearer {owner}"}))
    for path, method in ((GID, "GET"), (LOG, "GET"), (BOARD, "GET"), (GID, "DELETE")):
        seen.add(
            method, path, httpx.request(method, u + path.replace("{gid}", gid), headers=AS_ADMIN)
        )
    seen.add("POST", MOVES, httpx.post(mv, json={"move": "x", "expect_ply": 1}, headers=auth))
    # --- the WebSocket
    live = create(u, **md)
    x = Listener(u, live["game"])
    x.close()
    seen.by[("GET", GID + "/ws")].add(101)
    # --- the server full
    while httpx.post(u + G, json=md, headers=AS_ADMIN).status_code == 201:
        pass
    post({"json": md}, headers=AS_ADMIN)
    # --- a quota when creation is open
    opened = make_server(root, tmp_path / "open.sqlite", open_creation=True, games_per_client=1)
    for _ in range(2):
        seen.add("POST", G, httpx.post(opened.url + G, json=md))
    # --- games whose project changed (409) or broke (400) while the server was down
    srv.stop()
    store = GameStore(db)
    try:
        live_ids = [r[0] for r in store.db.execute("SELECT id FROM games WHERE expired IS NULL")]
    finally:
        store.close()
    second = make_server(root, db)
    rg = create(second.url, rules="ringgeister", project="rg", players=2)
    second.stop()
    text = (root / "md" / "md.json").read_text()
    (root / "md" / "md.json").write_text(text.replace("Adventure to Mount Doom", "Changed"))
    (root / "rg" / "rg.json").write_text('{"format": "boardwright-project", "version": 99}')
    last = make_server(root, db)
    for gid2, want in ((live_ids[0], 409), (rg["game"], 400)):
        for path, method in ((GID, "GET"), (LOG, "GET"), (BOARD, "GET"), (GID, "DELETE")):
            r = httpx.request(method, last.url + path.replace("{gid}", gid2), headers=AS_ADMIN)
            assert r.status_code == want, (path, r.text)
            seen.add(method, path, r)
        r = httpx.post(
            last.url + MOVES.replace("{gid}", gid2),
            json={"move": "x", "expect_ply": 0},
            headers=AS_ADMIN,
        )
        seen.add("POST", MOVES, r)
    # --- what was answered is what is documented
    documented = _documented(openapi(ENDPOINTS))
    for key, statuses in seen.by.items():
        assert statuses <= documented[key], (key, statuses - documented[key])
    for key, statuses in documented.items():
        assert statuses <= seen.by[key], (
            key,
            "documented, never answered",
            statuses - seen.by[key],
        )
    assert json.loads(httpx.get(last.url + "/api/openapi.json").text) == openapi(ENDPOINTS)
