"""Bad input never gets a traceback or takes the server down: every refusal is JSON
with a code; projects are opened only by name from the projects folder."""

from __future__ import annotations

import shutil
from typing import Any

import httpx
import pytest

from .conftest import AS_ADMIN, PROJECTS, create

NEW = '{"rules": "ringgeister", "project": "ringgeister", "players": %s}'


def _refused(r: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] and body["error"]["message"]
    assert "Traceback" not in r.text
    if code is not None:
        assert body["error"]["code"] == code, body
    return body  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b'{"rules": ', "bad_json"),
        (b"not json at all", "bad_json"),
        (b"\xff\xfe{}", "bad_json"),
        ((NEW % "NaN").encode(), "bad_json"),
        ((NEW % "Infinity").encode(), "bad_json"),
        ((NEW % "1e999").encode(), "bad_json"),
        ((NEW % ("9" * 5000)).encode(), "bad_json"),  # past Python's int digit limit
        ((NEW % ("9" * 101)).encode(), "bad_json"),  # over the referee's 100 digits
        ((NEW % "2.5").encode(), "bad_request"),
        ((NEW % '"2"').encode(), "bad_request"),
        (b"[" * 40 + b"]" * 40, "too_deep"),
        (b"[" * 50000 + b"]" * 50000, "too_deep"),  # deeper than the parser recurses
        (b'{"a": ' * 40 + b"1" + b"}" * 40, "too_deep"),
        (b"[1, 2]", "bad_request"),
        (b'"text"', "bad_request"),
        (b"", "bad_json"),
        (b'{"rules": "chess", "project": "ringgeister", "players": 2}', "unknown_rules"),
        (
            b'{"rules": "ringgeister", "project": "ringgeister", "players": 2, "seed": -1}',
            "bad_request",
        ),
        (
            b'{"rules": "ringgeister", "project": "ringgeister", "players": 2, "seed": 1180591620717411303424}',
            "bad_request",
        ),
        (
            b'{"rules": "ringgeister", "project": "ringgeister", "players": 2, "options": [1]}',
            "bad_request",
        ),
        (
            b'{"rules": "ringgeister", "project": "ringgeister", "players": 2, "options": {"a": {"b": 1}}}',
            "bad_request",
        ),
        (
            b'{"rules": "ringgeister", "project": "ringgeister", "players": 2, "position": "x"}',
            "bad_request",
        ),
    ],
)
def test_malformed_bodies_are_refused_with_a_code(server, body, code):
    r = httpx.post(server.url + "/api/games", headers=AS_ADMIN, content=body, timeout=30)
    _refused(r, 400, code)


@pytest.mark.parametrize(
    "name",
    [
        "../ringgeister",
        "../../etc/passwd",
        "/etc/passwd",
        str(PROJECTS / "ringgeister"),
        "ringgeister/../ringgeister",
        "ringgeister/ringgeister.bwproj",
        "..",
        ".",
        "",
        ".hidden",
        "%2e%2e%2fringgeister",
        "ringgeister\x00",
        None,
        7,
        ["ringgeister"],
    ],
)
def test_path_like_project_names_are_refused(server, name):
    r = httpx.post(
        server.url + "/api/games",
        headers=AS_ADMIN,
        json={"rules": "ringgeister", "project": name, "players": 2},
        timeout=30,
    )
    assert r.status_code in (400, 404)
    assert _refused(r, r.status_code)["error"]["code"] in ("bad_project", "unknown_project")


def test_moves_with_bad_fields_are_refused(server):
    g = create(server.url, rules="ringgeister", project="ringgeister", players=2, seed=1)
    url = server.url + f"/api/games/{g['game']}/moves"
    auth = {"Authorization": f"Bearer {g['seats'][0]['token']}"}
    for body in (
        {"move": 7, "expect_ply": 0},
        {"move": {"a": 1}, "expect_ply": 0},
        {"move": "x" * 2000, "expect_ply": 0},
        {"move": "counter r0c1/c1", "expect_ply": "0"},
        {"move": "counter r0c1/c1", "expect_ply": True},
        {"move": "", "expect_ply": 0},
    ):
        _refused(httpx.post(url, json=body, headers=auth), 400, "bad_request")
    r = httpx.post(url, json={"move": "counter r0c1/c1", "expect_ply": 10**50}, headers=auth)
    _refused(r, 409, "stale_ply")
    r = httpx.post(url, content=b'{"move": "counter r0c1/c1", "expect_ply": NaN}', headers=auth)
    _refused(r, 400, "bad_json")


def test_unknown_games_routes_and_methods_answer_json(server):
    _refused(httpx.get(server.url + "/api/games/nope"), 404, "unknown_game")
    _refused(httpx.get(server.url + "/api/games/" + "x" * 5000), 404, "unknown_game")
    _refused(httpx.get(server.url + "/api/games/nope/log"), 404, "unknown_game")
    _refused(httpx.post(server.url + "/api/games/nope/moves", json={}), 404, "unknown_game")
    _refused(httpx.get(server.url + "/api/nothing"), 404, "not_found")
    _refused(httpx.get(server.url + "/api/games"), 405, "method_not_allowed")
    _refused(httpx.delete(server.url + "/api/rules"), 405, "method_not_allowed")
    _refused(httpx.get(server.url + "/static/../../../etc/passwd"), 404)


def test_the_server_is_alive_and_playing_after_all_of_it(server):
    for body in (b"[" * 50000, b"{" * 100, b'{"players": 1e999}', b"\x00" * 100):
        httpx.post(server.url + "/api/games", headers=AS_ADMIN, content=body)
    g = create(server.url, rules="ringgeister", project="ringgeister", players=2, seed=1)
    r = httpx.post(
        server.url + f"/api/games/{g['game']}/moves",
        json={"move": "counter r0c1/c1", "expect_ply": 0},
        headers={"Authorization": f"Bearer {g['seats'][0]['token']}"},
    )
    assert r.status_code == 200 and r.json()["verdict"] == "accepted"


def test_only_projects_inside_the_folder_are_listed_or_opened(make_server, tmp_path):
    root = tmp_path / "projects"
    root.mkdir()
    shutil.copytree(PROJECTS / "ringgeister", root / "mine")
    outside = tmp_path / "outside"
    shutil.copytree(PROJECTS / "mount-doom", outside)
    (root / "escape").symlink_to(outside, target_is_directory=True)
    (root / "escape.json").symlink_to(outside / "mount-doom.json")
    (root / "notes.txt").write_text("not a project")
    srv = make_server(root)
    names = [p["name"] for p in httpx.get(srv.url + "/api/projects").json()["projects"]]
    assert names == ["mine"]
    for name in ("escape", "notes", "notes.txt"):
        r = httpx.post(
            srv.url + "/api/games",
            headers=AS_ADMIN,
            json={"rules": "mount-doom", "project": name, "players": 2},
        )
        _refused(r, 404, "unknown_project")
    create(srv.url, rules="ringgeister", project="mine", players=2)


def test_a_broken_project_is_a_json_error_naming_it_not_its_path(make_server, tmp_path):
    root = tmp_path / "projects"
    root.mkdir()
    (root / "broken.json").write_text('{"format": "boardwright-project", "version": 99}')
    srv = make_server(root)
    r = httpx.post(
        srv.url + "/api/games",
        headers=AS_ADMIN,
        json={"rules": "ringgeister", "project": "broken", "players": 2},
    )
    body = _refused(r, 400, "bad_project")
    assert "broken" in body["error"]["message"] and str(tmp_path) not in r.text
