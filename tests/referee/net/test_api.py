"""The HTTP API of ``referee serve --http`` on a real server: create, view, move,
seats and tokens, stale plies, verdicts, spectators, the log, the OpenAPI description."""

from __future__ import annotations

import random
from typing import Any

import httpx

from referee.envelopes import replay_one
from referee.games import available
from referee.net.store import GameStore
from referee.net.tables import Hall
from referee.session import Caller

from .conftest import AS_ADMIN, PROJECTS, Client, create


def _ringgeister(url: str, seed: int = 3) -> dict[str, Any]:
    return create(url, rules="ringgeister", project="ringgeister", players=2, seed=seed)


def test_create_answers_a_secret_token_per_seat_and_a_spectator_link(server):
    g = _ringgeister(server.url)
    assert [s["player"] for s in g["seats"]] == ["yellow", "orange"]
    tokens = [s["token"] for s in g["seats"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 24 for t in tokens)
    assert g["spectate"] == f"/?game={g['game']}"
    assert g["ply"] == 0 and g["to_move"] == "yellow" and g["outcome"] is None


def test_the_seat_to_move_sees_its_legal_moves_others_and_spectators_do_not(server):
    g = _ringgeister(server.url)
    yellow, orange = (Client(server.url, s["token"]) for s in g["seats"])
    public = Client(server.url)
    mine = yellow.get(f"/api/games/{g['game']}").json()
    assert mine["you"] == "yellow" and mine["to_move"] == "yellow"
    assert "counter r0c1/c1" in mine["moves"]
    assert mine["targets"][""]["r0c1/c1"] == ["counter r0c1/c1"]
    assert {f["id"] for f in mine["figures"]} >= {"hobbit-yellow", "gandalf"}
    theirs = orange.get(f"/api/games/{g['game']}").json()
    assert theirs["you"] == "orange" and "moves" not in theirs
    spect = public.get(f"/api/games/{g['game']}").json()
    assert spect["you"] is None and "moves" not in spect and spect["view"]


def test_a_move_is_accepted_with_its_events_and_the_turn_passes(server):
    g = _ringgeister(server.url)
    yellow = Client(server.url, g["seats"][0]["token"])
    r = yellow.post(f"/api/games/{g['game']}/moves", {"move": "counter r0c1/c1", "expect_ply": 0})
    assert r.status_code == 200
    out = r.json()
    assert out["verdict"] == "accepted" and out["ply"] == 1 and out["to_move"] == "orange"
    assert out["events"][0]["type"] == "counter_placed"
    view = Client(server.url).get(f"/api/games/{g['game']}").json()
    assert view["ply"] == 1 and view["to_move"] == "orange"


def test_an_illegal_move_is_a_verdict_with_code_message_details_and_changes_nothing(server):
    g = _ringgeister(server.url)
    yellow = Client(server.url, g["seats"][0]["token"])
    before = yellow.get(f"/api/games/{g['game']}").json()
    r = yellow.post(f"/api/games/{g['game']}/moves", {"move": "hobbit-yellow ws9", "expect_ply": 0})
    assert r.status_code == 422
    out = r.json()
    assert out["verdict"] == "illegal" and out["move"] == "hobbit-yellow ws9"
    assert out["error"]["code"] and out["error"]["message"]
    r = yellow.post(f"/api/games/{g['game']}/moves", {"move": "counter nowhere", "expect_ply": 0})
    assert r.status_code == 422 and r.json()["error"]["code"] not in ("", None)
    assert yellow.get(f"/api/games/{g['game']}").json() == before


def test_only_the_seat_to_move_may_move_and_tokens_are_checked(server):
    g = _ringgeister(server.url)
    gid = g["game"]
    body = {"move": "counter r0c1/c1", "expect_ply": 0}
    orange = Client(server.url, g["seats"][1]["token"])
    r = orange.post(f"/api/games/{gid}/moves", body)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_turn"
    r = Client(server.url).post(f"/api/games/{gid}/moves", body)
    assert r.status_code == 401 and r.json()["error"]["code"] == "no_token"
    r = Client(server.url, "not-a-token").post(f"/api/games/{gid}/moves", body)
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    # a seat of another game is no seat of this one
    other = _ringgeister(server.url, seed=4)
    r = Client(server.url, other["seats"][0]["token"]).post(f"/api/games/{gid}/moves", body)
    assert r.status_code == 401
    r = httpx.get(server.url + f"/api/games/{gid}", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    assert Client(server.url).get(f"/api/games/{gid}").json()["ply"] == 0


def test_a_stale_expect_ply_is_409_and_changes_nothing(server):
    g = _ringgeister(server.url)
    gid = g["game"]
    yellow, orange = (Client(server.url, s["token"]) for s in g["seats"])
    assert (
        yellow.post(
            f"/api/games/{gid}/moves", {"move": "counter r0c1/c1", "expect_ply": 0}
        ).status_code
        == 200
    )
    r = orange.post(f"/api/games/{gid}/moves", {"move": "counter r0c3/c1", "expect_ply": 0})
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "stale_ply",
        "message": "the game is at ply 1, not 0",
        "details": {"ply": 1},
    }
    r = orange.post(f"/api/games/{gid}/moves", {"move": "counter r0c3/c1"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    view = orange.get(f"/api/games/{gid}").json()
    assert view["ply"] == 1 and view["to_move"] == "orange"


def _play_random(server_url: str, g: dict[str, Any], rnd: random.Random, limit: int) -> int:
    seats = {s["player"]: Client(server_url, s["token"]) for s in g["seats"]}
    gid = g["game"]
    public = Client(server_url)
    n = 0
    for _ in range(limit):
        snap = public.get(f"/api/games/{gid}").json()
        if snap["outcome"] is not None:
            break
        seat = seats[snap["to_move"]]
        moves = seat.get(f"/api/games/{gid}").json()["moves"]
        r = seat.post(
            f"/api/games/{gid}/moves", {"move": rnd.choice(moves), "expect_ply": snap["ply"]}
        )
        assert r.status_code == 200, r.text
        n += 1
    return n


def test_the_log_is_public_until_the_end_then_the_whole_game_replays(server, tmp_path):
    g = create(server.url, rules="mount-doom", project="mount-doom", players=2, seed=5)
    gid = g["game"]
    p1 = Client(server.url, g["seats"][0]["token"])
    _play_random(server.url, g, random.Random(1), 3)
    partial = Client(server.url).get(f"/api/games/{gid}/log").json()
    assert partial["complete"] is False and len(partial["moves"]) == 3
    assert all("move" not in m for m in partial["moves"])  # spectators: events only
    own = p1.get(f"/api/games/{gid}/log").json()
    assert all(("move" in m) == (m["player"] == "p1") for m in own["moves"])
    assert p1.get(f"/api/games/{gid}/log").json()["complete"] is False  # a seat: not whole
    assert Client(server.url, g["owner"]).get(f"/api/games/{gid}/log").json()["complete"] is False
    played = 3 + _play_random(server.url, g, random.Random(2), 2000)
    # once it is over, the owner reads it whole; the public and the seats still do not,
    # and what they read names no seed (the old server gave anyone the whole envelope)
    for reader in (Client(server.url), p1):
        after = reader.get(f"/api/games/{gid}/log")
        assert after.json()["complete"] is False
        assert b"seed" not in after.content and b'"state"' not in after.content
    full = Client(server.url, g["owner"]).get(f"/api/games/{gid}/log").json()
    assert full["complete"] is True and full["format"] == "boardwright-game"
    assert Client(server.url).get(f"/api/games/{gid}").json()["outcome"] is not None
    assert len(full["log"]["moves"]) == played
    result = replay_one(full, "log", str(PROJECTS / full["project"]))
    assert result == {"moves": played, "ok": True, "mismatch": None}
    r = p1.post(f"/api/games/{gid}/moves", {"move": "pass", "expect_ply": played})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"


def test_every_game_of_every_rules_module_can_be_created_and_played(server):
    for rules, project, players in [
        ("ringgeister", "ringgeister", 3),
        ("riddle", "riddle-sample", 3),
        ("mount-doom", "mount-doom", 2),
        ("lotr-coop", "lotr-coop", 2),
    ]:
        g = create(server.url, rules=rules, project=project, players=players, seed=1)
        assert len(g["seats"]) == players
        assert _play_random(server.url, g, random.Random(0), 5) == 5
        assert Client(server.url).get(f"/api/games/{g['game']}").json()["ply"] == 5


def test_rules_projects_board_and_openapi(server):
    c = Client(server.url)
    rules = {r["rules"] for r in c.get("/api/rules").json()["rules"]}
    # every registered rules module, built-in or plug-in (the race example in CI)
    assert rules == set(available())
    assert {"ringgeister", "riddle", "mount-doom", "lotr-coop"} <= rules
    projects = {p["name"]: p["rules"] for p in c.get("/api/projects").json()["projects"]}
    assert projects["ringgeister"] == "ringgeister" and projects["riddle-sample"] == "riddle"
    g = _ringgeister(server.url)
    pic = c.get(f"/api/games/{g['game']}/board").json()
    assert pic["svg"].startswith("<svg") and pic["nodes"]["r0c1/p1"] == [244.0, 100.0]
    spec = c.get("/api/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert {"/api/games", "/api/games/{gid}/moves", "/api/games/{gid}/ws"} <= set(spec["paths"])


def test_a_project_of_other_rules_is_refused(server):
    r = httpx.post(
        server.url + "/api/games",
        headers=AS_ADMIN,
        json={"rules": "riddle", "project": "ringgeister", "players": 2},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "wrong_rules"


def test_the_store_keeps_tokens_only_as_hashes(server, tmp_path):
    g = _ringgeister(server.url)
    raw = (tmp_path / "games.sqlite").read_bytes()
    wal = tmp_path / "games.sqlite-wal"
    if wal.exists():
        raw += wal.read_bytes()
    for s in g["seats"]:
        assert s["token"].encode() not in raw
    store = GameStore(tmp_path / "games.sqlite")
    try:
        hall = Hall(PROJECTS, store, server.limits)
        held = hall.lookup(g["game"])
        assert hall.role(held, Caller(token=g["seats"][1]["token"])) == ("orange", False)
        assert hall.role(held, Caller(token=g["owner"])) == (None, True)
    finally:
        store.close()


def test_a_game_starts_from_a_position_where_the_rules_have_positions(server):
    """``position`` sets up a situation (the kit's ``Game.from_position``): the served
    game has the legal moves of that position; rules without positions say so."""
    from referee.envelopes import new_game
    from referee.games import get_game

    for rules, project in [("ringgeister", "ringgeister"), ("riddle", "riddle-sample")]:
        body = {"rules": rules, "project": project}
        cls = get_game(rules)
        if cls.POSITION is None:
            r = httpx.post(
                server.url + "/api/games",
                headers=AS_ADMIN,
                json={**body, "position": {"players": ["a"]}},
            )
            assert r.status_code == 400 and r.json()["error"]["code"] == "no_positions"
            continue
        game, _ = new_game(rules, str(PROJECTS / project), 2, 9, {})
        list(game.legal_moves)
        g = create(server.url, **body, position=game.position())
        seat = next(s for s in g["seats"] if s["player"] == game.to_move)
        served = Client(server.url, seat["token"]).get(f"/api/games/{g['game']}").json()
        assert served["moves"] == [str(m) for m in game.legal_moves]
        r = httpx.post(
            server.url + "/api/games", headers=AS_ADMIN, json={**body, "position": {"players": []}}
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_state"


def test_a_client_that_draws_nothing_may_leave_out_what_only_drawing_uses(server):
    g = _ringgeister(server.url)
    yellow = Client(server.url, g["seats"][0]["token"])
    path = f"/api/games/{g['game']}"
    whole = yellow.get(path).json()
    assert all(f'data-figure="{f["id"]}"' in whole["pieces"] for f in whole["figures"])
    assert whole["targets"] and whole["moves"]
    bare = yellow.get(path + "?omit=figures,pieces,targets").json()
    assert bare == {k: v for k, v in whole.items() if k not in ("figures", "pieces", "targets")}
    assert yellow.get(path + "?omit=pieces").json() == {
        k: v for k, v in whole.items() if k != "pieces"
    }
    assert yellow.get(path + "?omit=targets,figures").json() == {
        k: v for k, v in whole.items() if k not in ("targets", "figures")
    }
    assert yellow.get(path + "?omit=").json() == whole
    for wrong in ("moves", "view", "pieces,,targets", "pieces;targets", "x" * 500, "a,b,c,d"):
        r = yellow.get(path + f"?omit={wrong}")
        assert r.status_code == 400, wrong
        err = r.json()["error"]
        assert err["code"] == "bad_request"
        assert err["message"].startswith("?omit= names figures, pieces, targets")
        assert len(err["message"]) < 140
    assert yellow.get(path).json() == whole  # a refused request changed nothing
