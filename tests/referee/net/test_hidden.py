"""Hidden information stays hidden: in a game of Riddle of the Ring played by three
seats over HTTP and WebSockets, no byte a seat receives names a card another seat
holds — unless that seat held it itself, saw it by a rule (clairvoyance, choosing
from a hand) or the public saw it too."""

from __future__ import annotations

import json
import random
import re
import shutil
from typing import Any

import pytest

from referee.compiler import compile_board
from referee.games import get_game, get_module, modules
from referee.store import load_project

from ...conftest import generator_leaks
from .conftest import Client, create, wait_until
from .test_ws import Listener


def _cards_in(obj: Any) -> set[str]:
    """Every string inside a JSON value (card names among them)."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


def _mentions(text: str, card: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(card)}(?![\w]|\.\d)", text) is not None


def test_no_seat_ever_receives_another_seats_hand(server):
    g = create(server.url, rules="riddle", project="riddle-sample", players=3, seed=11)
    gid = g["game"]
    seats = {s["player"]: Client(server.url, s["token"]) for s in g["seats"]}
    public = Client(server.url)
    sockets = {p: Listener(server.url, gid, s["token"]) for p, s in zip(seats, g["seats"])}
    spect = Listener(server.url, gid)
    every = [*sockets.values(), spect]
    ever_held: dict[str, set[str]] = {p: set() for p in seats}
    known: dict[str, set[str]] = {p: set() for p in seats}
    public_seen: set[str] = set()
    seen_ws = dict.fromkeys(seats, 0)
    spect_seen = 0
    rnd = random.Random(4)
    checked_secrets = 0
    own_cards_seen = 0
    try:
        assert wait_until(lambda: all(x.of_type("hello") for x in every))
        for _ in range(70):
            snap = public.get(f"/api/games/{gid}").json()
            if snap["outcome"] is not None:
                break
            mover = seats[snap["to_move"]]
            moves = mover.get(f"/api/games/{gid}").json()["moves"]
            r = mover.post(
                f"/api/games/{gid}/moves", {"move": rnd.choice(moves), "expect_ply": snap["ply"]}
            )
            assert r.status_code == 200, r.text
            ply = r.json()["ply"]
            assert wait_until(
                lambda ply=ply: all(
                    x.of_type("move")[-1:] and x.of_type("move")[-1]["ply"] == ply for x in every
                )
            )
            # what each seat holds and may know now, from its own view
            views = {p: c.get(f"/api/games/{gid}").json()["view"] for p, c in seats.items()}
            public.get(f"/api/games/{gid}")
            public.get(f"/api/games/{gid}/log")
            for c in seats.values():
                c.get(f"/api/games/{gid}/log")
            public_text = b"".join(public.received).decode() + "".join(spect.raw[spect_seen:])
            spect_seen = len(spect.raw)
            public.received.clear()
            for p, v in views.items():
                ever_held[p] |= set(v["hand"])
                known[p] |= _cards_in(
                    [v.get(k) for k in ("seen", "hidden", "choosing_from", "requests")]
                )
            hands = {p: set(v["hand"]) for p, v in views.items()}
            all_cards = set().union(*hands.values(), *ever_held.values())
            public_seen |= {c for c in all_cards if _mentions(public_text, c)}
            for p, client in seats.items():
                text = b"".join(client.received).decode() + "".join(sockets[p].raw[seen_ws[p] :])
                seen_ws[p] = len(sockets[p].raw)
                client.received.clear()
                secrets = set().union(*(h for q, h in hands.items() if q != p))
                secrets -= ever_held[p] | known[p] | public_seen
                for card in secrets:
                    checked_secrets += 1
                    assert not _mentions(text, card), f"{p} was shown {card!r} at ply {ply}"
                own_cards_seen += sum(_mentions(text, c) for c in hands[p])
    finally:
        for x in every:
            x.close()
    assert ply >= 40
    assert checked_secrets > 300  # the check had secrets to look for...
    assert own_cards_seen > 100  # ...and the streams do carry each seat's own cards


def test_private_event_parts_reach_only_their_audience(server):
    """Against the referee's own log: each seat was pushed exactly the events the rules
    module lets it see, and the public log is what an onlooker may see."""
    g = create(server.url, rules="riddle", project="riddle-sample", players=3, seed=11)
    gid = g["game"]
    seats = {s["player"]: Client(server.url, s["token"]) for s in g["seats"]}
    sockets = {p: Listener(server.url, gid, s["token"]) for p, s in zip(seats, g["seats"])}
    public = Client(server.url)
    rnd = random.Random(4)
    try:
        for _ in range(40):
            snap = public.get(f"/api/games/{gid}").json()
            mover = seats[snap["to_move"]]
            moves = mover.get(f"/api/games/{gid}").json()["moves"]
            r = mover.post(
                f"/api/games/{gid}/moves", {"move": rnd.choice(moves), "expect_ply": snap["ply"]}
            )
            assert r.status_code == 200
        assert wait_until(lambda: all(len(s.of_type("move")) == 40 for s in sockets.values()))
    finally:
        for s in sockets.values():
            s.close()
    from referee.net.store import GameStore

    store = GameStore(server.db)
    try:
        logged = list(store.moves(gid))
    finally:
        store.close()
    riddle = get_game("riddle")
    differing = 0
    for entry in logged:
        views = {p: riddle.events_for(entry["events"], p) for p in sockets}
        for p, sock in sockets.items():
            pushed = sock.of_type("move")[entry["ply"] - 1]
            assert pushed["ply"] == entry["ply"] and pushed["events"] == views[p]
        if len({json.dumps(v) for v in views.values()}) > 1:
            differing += 1
    assert differing >= 3  # some moves had parts only some seats may see
    public_log = public.get(f"/api/games/{gid}/log").json()
    assert [m["events"] for m in public_log["moves"]] == [
        riddle.events_for(e["events"], None) for e in logged
    ]


@pytest.mark.parametrize("rules", sorted(modules()))
def test_no_view_carries_the_random_generator(make_server, tmp_path, rules):
    """With the generator's state a client could predict every die and shuffle: no
    snapshot (HTTP, any seat or the public) and no WebSocket hello of any registered
    game carries it, before and after moves."""
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
    g = create(server.url, rules=rules, project=rules, players=players, seed=7)
    gid = g["game"]
    # the same game, held here: its generator is what must not show
    local = cls.new(compile_board(load_project(sample)), players=players, seed=7)
    clients = [Client(server.url), *(Client(server.url, s["token"]) for s in g["seats"])]
    seat = {s["player"]: c for s, c in zip(g["seats"], clients[1:])}
    hello = Listener(server.url, gid, g["seats"][0]["token"])
    try:
        assert wait_until(lambda: bool(hello.of_type("hello")))
        shown = [hello.of_type("hello")[0]["view"]]
        for ply in range(4):
            snaps = [c.get(f"/api/games/{gid}").json() for c in clients]
            shown += [snap["view"] for snap in snaps]
            for view in shown:
                assert "rng" not in view and "dice" not in view, (rules, ply)
                assert generator_leaks(view, local.rng.state) == [], (rules, ply)
            shown = []
            if local.outcome is not None:
                break
            move = str(next(iter(local.legal_moves)))
            r = seat[local.to_move].post(
                f"/api/games/{gid}/moves", {"move": move, "expect_ply": ply}
            )
            assert r.status_code == 200, r.text
            local.push_text(move)
            ended = local.outcome  # the same game as the server's
            assert r.json()["outcome"] == (None if ended is None else ended.to_json())
            assert r.json()["to_move"] == (None if local.outcome else local.to_move)
    finally:
        hello.close()
        for c in clients:
            c.close()
