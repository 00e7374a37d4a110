"""Two ``referee serve --http`` processes on one PostgreSQL share their games: one
game is played through both (either process serves either seat), a WebSocket on
one sees the moves made through the other, a stale, illegal or concurrent move
through the other process is refused and changes nothing, ``kill -9`` of one
process mid-move loses no answered move, and a restart of PostgreSQL is ridden out.

The cluster is Debian's ``postgresql`` (``.ci/run`` installs it), started in a
temporary folder by :class:`referee.net.pgtemp.TempPostgres`; each test gets a
database of its own.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from referee.envelopes import replay_one
from referee.errors import RequestError
from referee.net.limits import Limits
from referee.net.pgtemp import TempPostgres
from referee.net.shared import SharedHall
from referee.net.tables import Hall
from referee.session import Caller

from .conftest import ADMIN, PROJECTS, ServerProcess, create, wait_until
from .test_ws import Listener

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (the server-pg extra)")
from referee.net.pgstore import PostgresGameStore  # noqa: E402  (needs psycopg)

_names = itertools.count(1)


@pytest.fixture
def db(pg_cluster: TempPostgres) -> str:
    """A fresh database on the cluster: its URL."""
    name = f"games_{next(_names)}"
    with psycopg.connect(pg_cluster.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg_cluster.url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def pair(db: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two server processes on one database."""
    procs: list[ServerProcess] = []
    try:
        for _ in range(2):
            procs.append(ServerProcess(db, PROJECTS, "--moves-per-second", "1000"))  # type: ignore[arg-type]
        yield procs[0], procs[1]
    finally:
        for p in procs:
            p.stop()


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """One game's seats, played through whichever server each move is sent to."""

    def __init__(self, g: dict[str, Any], seed: int = 0) -> None:
        self.g = g
        self.gid = g["game"]
        self.tokens = {s["player"]: s["token"] for s in g["seats"]}
        self.rnd = random.Random(seed)
        self.answered: list[tuple[int, str]] = []  # (ply, move) of every accepted answer

    def snapshot(self, url: str) -> dict[str, Any]:
        r = httpx.get(f"{url}/api/games/{self.gid}", timeout=30)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def legal(self, url: str, player: str) -> list[str]:
        r = httpx.get(f"{url}/api/games/{self.gid}", headers=_auth(self.tokens[player]), timeout=30)
        assert r.status_code == 200, r.text
        return r.json()["moves"]  # type: ignore[no-any-return]

    def send(self, url: str, player: str, move: str, expect: int) -> httpx.Response:
        return httpx.post(
            f"{url}/api/games/{self.gid}/moves",
            json={"move": move, "expect_ply": expect},
            headers=_auth(self.tokens[player]),
            timeout=30,
        )

    def play(self, url: str) -> dict[str, Any]:
        """One random legal move through ``url``, asked for and sent there."""
        snap = self.snapshot(url)
        assert snap["outcome"] is None, snap
        player = snap["to_move"]
        move = self.rnd.choice(self.legal(url, player))
        r = self.send(url, player, move, snap["ply"])
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        assert out["ply"] == snap["ply"] + 1
        self.answered.append((out["ply"], out["move"]))
        return out


def _watch(url: str, gid: str, token: str | None = None) -> Listener:
    """A WebSocket on ``gid`` through ``url``, once the server has said hello (from
    then on it is told of every move)."""
    lst = Listener(url, gid, token)
    assert wait_until(lambda: bool(lst.of_type("hello")), 30), lst.messages
    return lst


def _plies(lst: Listener) -> list[int]:
    """The plies of the moves a WebSocket was pushed after its hello, in order;
    the hello's ply first."""
    return [lst.of_type("hello")[0]["ply"]] + [m["ply"] for m in lst.of_type("move")]


def _replays(db: str, gid: str) -> dict[str, Any]:
    """The stored log of ``gid``, replayed from its seed and moves."""
    store = PostgresGameStore(db)
    try:
        hall = Hall(PROJECTS, store, Limits())  # type: ignore[arg-type]
        env = hall.whole(hall.lookup(gid))
        return {
            "log": [(m["ply"], m["move"]) for m in store.moves(gid)],
            **replay_one(env, gid, str(PROJECTS / env["project"])),
        }
    finally:
        store.close()


def test_one_game_through_two_processes(pair, db):
    a, b = pair
    g = create(a.url, rules="ringgeister", project="ringgeister", players=2, seed=3)
    t = Table(g, seed=1)
    seen_on_a = _watch(a.url, t.gid)  # a spectator on A
    seat_on_b = _watch(b.url, t.gid, t.tokens[g["seats"][0]["player"]])  # a seat on B
    try:
        for k in range(12):  # A, B, A, B...: each seat is served by both
            out = t.play((a, b)[k % 2].url)
            if out["outcome"] is not None:
                break
        n = len(t.answered)
        assert n >= 6
        # both processes show the same game
        assert t.snapshot(a.url) == t.snapshot(b.url)
        assert t.snapshot(a.url)["ply"] == n
        # the WebSockets saw every move, in order, once, wherever it was made
        for lst in (seen_on_a, seat_on_b):
            assert wait_until(lambda lst=lst: len(_plies(lst)) > n, 30), (_plies(lst), n)
            assert _plies(lst) == list(range(n + 1))  # the hello at 0, then 1 to n
        assert [m["player"] for m in seen_on_a.of_type("move")] == [
            m["player"] for m in seat_on_b.of_type("move")
        ]
    finally:
        seen_on_a.close()
        seat_on_b.close()
    # the logs through A and B are one log, and it replays from seed and moves
    log_a = httpx.get(f"{a.url}/api/games/{t.gid}/log", timeout=30).json()
    log_b = httpx.get(f"{b.url}/api/games/{t.gid}/log", timeout=30).json()
    assert log_a == log_b and len(log_a["moves"]) == n
    result = _replays(db, t.gid)
    assert result["log"] == t.answered
    assert result["ok"], result


def test_stale_illegal_and_wrong_seat_moves_through_the_other_process_change_nothing(pair):
    a, b = pair
    g = create(a.url, rules="riddle", project="riddle-sample", players=3, seed=2)
    t = Table(g, seed=2)
    for _ in range(3):
        t.play(a.url)
    before = [t.snapshot(u) for u in (a.url, b.url)]
    log_before = httpx.get(f"{b.url}/api/games/{t.gid}/log", timeout=30).json()
    ply, player = before[0]["ply"], before[0]["to_move"]
    legal = t.legal(b.url, player)
    # a move meant for the ply before (a client that missed the last move)
    r = t.send(b.url, player, legal[0], ply - 1)
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_ply", r.text
    assert r.json()["error"]["details"]["ply"] == ply
    # a move that is no move
    r = t.send(b.url, player, "fly to the moon", ply)
    assert r.status_code in (400, 422) and r.json().get("verdict", "illegal") == "illegal", r.text
    # another seat's token
    other = next(p for p in t.tokens if p != player)
    r = t.send(b.url, other, legal[0], ply)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_turn", r.text
    # nothing changed, on either process
    assert [t.snapshot(u) for u in (a.url, b.url)] == before
    assert httpx.get(f"{a.url}/api/games/{t.gid}/log", timeout=30).json() == log_before
    # and the game goes on through B from where A left it
    assert t.play(b.url)["ply"] == ply + 1


def test_two_processes_racing_for_one_ply_accept_exactly_one_move(pair, db):
    a, b = pair
    races = 0
    for seed in itertools.count(7):  # a new game whenever one ends, until enough races
        g = create(a.url, rules="ringgeister", project="ringgeister", players=2, seed=seed)
        t = Table(g, seed=seed)
        while races < 8:
            snap = t.snapshot(a.url)
            if snap["outcome"] is not None:
                break
            player, ply = snap["to_move"], snap["ply"]
            legal = t.legal(a.url, player)
            moves = [legal[0], legal[-1]]  # maybe two different moves, one for each process
            answers = _race(t, [(a.url, moves[0]), (b.url, moves[1])], player, ply)
            codes = sorted(r.status_code for r in answers)
            assert codes == [200, 409], [r.text for r in answers]
            won = next(r for r in answers if r.status_code == 200).json()
            lost = next(r for r in answers if r.status_code == 409).json()
            assert lost["error"]["code"] == "stale_ply"
            assert lost["error"]["details"]["ply"] == ply + 1
            t.answered.append((won["ply"], won["move"]))
            # both processes agree on the move that won
            assert t.snapshot(a.url) == t.snapshot(b.url)
            races += 1
        result = _replays(db, t.gid)
        assert result["log"] == t.answered  # the stored log is the moves that won, no other
        assert result["ok"], result
        if races >= 8:
            break


def test_kill_9_of_one_process_mid_move_loses_nothing(pair, db):
    a, b = pair
    g = create(b.url, rules="mount-doom", project="mount-doom", players=2, seed=5)
    t = Table(g, seed=5)
    watch = _watch(b.url, t.gid)  # a spectator on the process that lives
    try:
        for k in range(6):
            t.play((a, b)[k % 2].url)
        # a move on its way to A when A is killed: answered or not, never half-done
        snap = t.snapshot(a.url)
        player = snap["to_move"]
        move = t.rnd.choice(t.legal(a.url, player))
        in_flight = threading.Thread(
            target=lambda: _swallow(lambda: t.send(a.url, player, move, snap["ply"]))
        )
        in_flight.start()
        time.sleep(0.005)
        a.kill9()
        in_flight.join(30)
        after = t.snapshot(b.url)
        assert after["ply"] in (snap["ply"], snap["ply"] + 1)
        stored = _replays(db, t.gid)
        assert stored["log"][: len(t.answered)] == t.answered  # every answered move
        assert len(stored["log"]) == after["ply"]
        if after["ply"] == snap["ply"] + 1:  # the move in flight was committed: keep it
            t.answered.append(stored["log"][-1])
        # play goes on through B, seats and all
        for _ in range(4):
            if t.snapshot(b.url)["outcome"] is not None:
                break
            t.play(b.url)
        n = len(t.answered)
        assert wait_until(lambda: len(_plies(watch)) > n, 30), (_plies(watch), n)
        assert _plies(watch) == list(range(n + 1))  # the hello at 0, then 1 to n
    finally:
        watch.close()
    result = _replays(db, t.gid)
    assert result["log"] == t.answered
    assert result["ok"], result


def _race(t: Table, sends: list[tuple[str, str]], player: str, ply: int) -> list[httpx.Response]:
    """Send each ``(url, move)`` for ``ply`` at the same moment, from threads."""
    answers: list[httpx.Response | None] = [None] * len(sends)
    go = threading.Barrier(len(sends))

    def send(k: int) -> None:
        go.wait()
        answers[k] = t.send(sends[k][0], player, sends[k][1], ply)

    threads = [threading.Thread(target=send, args=(k,)) for k in range(len(sends))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert all(r is not None for r in answers)
    return [r for r in answers if r is not None]


def _swallow(call: Any) -> None:
    with contextlib.suppress(httpx.TransportError):  # the server died with the request
        call()


def test_a_game_deleted_through_one_process_is_gone_on_the_other(pair):
    a, b = pair
    g = create(a.url, rules="ringgeister", project="ringgeister", players=2, seed=4)
    t = Table(g, seed=4)
    t.play(b.url)  # B holds it in memory now
    watch = _watch(b.url, t.gid)
    try:
        r = httpx.delete(f"{a.url}/api/games/{t.gid}", headers=_auth(g["owner"]), timeout=30)
        assert r.status_code == 200, r.text
        # B's WebSocket is told, and B answers 410 like A
        assert wait_until(lambda: bool(watch.of_type("closed")), 10), watch.messages
        assert watch.of_type("closed")[0]["reason"] == "deleted"
        for url in (a.url, b.url):
            r = httpx.get(f"{url}/api/games/{t.gid}", timeout=30)
            assert r.status_code == 410 and r.json()["error"]["code"] == "game_expired", r.text
    finally:
        watch.close()


def test_the_server_says_in_one_line_when_postgresql_does_not_answer(pg_cluster):
    # nothing listens on port 1; the password is never shown
    url = "postgresql://postgres:s3cret@127.0.0.1:1/postgres"
    r = subprocess.run(
        [sys.executable, "-m", "referee", "serve", "--http", "--projects", str(PROJECTS)]
        + ["--db", url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip().count("\n") == 0, r.stderr
    assert "cannot connect to postgresql://postgres:***@127.0.0.1:1/postgres" in r.stderr
    assert "s3cret" not in r.stderr


def test_a_move_validated_against_a_state_another_process_moved_past_is_not_written(db):
    """The race the ply check before each request cannot close: another process
    records a move after this one has looked. The store refuses the write."""
    stores = [PostgresGameStore(db), PostgresGameStore(db)]
    try:
        one, two = (SharedHall(PROJECTS, s, Limits(), admin_token=ADMIN) for s in stores)
        admin = Caller(token=ADMIN)
        g = one.dispatch(
            "new", {"rules": "ringgeister", "project": "ringgeister", "players": 2}, admin
        )
        tokens = {s["player"]: s["token"] for s in g["seats"]}

        def seat(hall: SharedHall) -> tuple[Caller, list[str]]:
            snap = hall.dispatch("view", {"game": g["game"]}, Caller())
            c = Caller(token=tokens[snap["to_move"]])
            return c, hall.dispatch("moves", {"game": g["game"]}, c)["moves"]

        c, legal = seat(one)
        assert (
            one.dispatch("play", {"game": g["game"], "move": legal[0], "expect_ply": 0}, c)[
                "verdict"
            ]
            == "accepted"
        )
        c, legal = seat(two)  # two holds the game at ply 1 now
        c1, legal1 = seat(one)
        assert (
            one.dispatch("play", {"game": g["game"], "move": legal1[0], "expect_ply": 1}, c1)[
                "verdict"
            ]
            == "accepted"
        )
        # two does not look again (as if one's move landed just after two looked)
        two.refresh = lambda gid: None  # type: ignore[method-assign]
        with pytest.raises(RequestError) as err:
            two.dispatch("play", {"game": g["game"], "move": legal[-1], "expect_ply": 1}, c)
        assert err.value.code == "stale_ply" and err.value.details == {"ply": 2}
        # nothing written; two's memory is the stored game again
        assert [m["ply"] for m in stores[0].moves(g["game"])] == [1, 2]
        assert two.games[g["game"]].ply == 2
        assert two.games[g["game"]].game.to_json() == one.games[g["game"]].game.to_json()
    finally:
        for s in stores:
            s.close()


def test_the_store_records_a_ply_once(db):
    store = PostgresGameStore(db)
    try:
        hall = Hall(PROJECTS, store, Limits(), admin_token=ADMIN)  # type: ignore[arg-type]
        g = hall.dispatch(
            "new",
            {"rules": "mount-doom", "project": "mount-doom", "players": 2},
            Caller(token=ADMIN),
        )
        rec = store.game(g["game"])
        assert rec is not None and rec.ply == 0
        store.record_move(g["game"], 1, "a", "m1", [], {"x": 1}, "b", None)
        with pytest.raises(RequestError) as err:
            store.record_move(g["game"], 1, "a", "m1-again", [], {"x": 2}, "b", None)
        assert err.value.code == "stale_ply"
        with pytest.raises(RequestError) as err:
            store.record_move(g["game"], 3, "a", "m3", [], {"x": 3}, "b", None)  # a gap
        assert err.value.code == "stale_ply"
        assert [m["move"] for m in store.moves(g["game"])] == ["m1"]
        assert store.game(g["game"]).state == {"x": 1}  # type: ignore[union-attr]
        # several moves in one transaction: all or none
        two, three = (
            SimpleNamespace(
                game=g["game"],
                ply=n,
                player="a",
                move=f"m{n}",
                events=[],
                state={"x": n},
                to_move="b",
                outcome=None,
            )
            for n in (2, 3)
        )
        with pytest.raises(RequestError):
            store.record_moves([two, two])
        assert [m["ply"] for m in store.moves(g["game"])] == [1]
        store.record_moves([two, three])
        assert [m["move"] for m in store.moves(g["game"], after=1)] == ["m2", "m3"]
        store.mark_expired(g["game"], time.time(), "deleted")
        with pytest.raises(RequestError) as err:
            store.record_move(g["game"], 4, "b", "m4", [], {"x": 4}, "a", None)
        assert err.value.code == "game_expired"
        assert store.count_live() == 0 and store.count_games() == 1
        assert [m["ply"] for m in store.moves(g["game"])] == [1, 2, 3]
    finally:
        store.close()


def test_a_process_behind_replays_the_moves_it_missed_or_loads_the_stored_state(db, caplog):
    stores = [PostgresGameStore(db), PostgresGameStore(db)]
    try:
        one, two = (SharedHall(PROJECTS, s, Limits(), admin_token=ADMIN) for s in stores)
        g = one.dispatch(
            "new",
            {"rules": "riddle", "project": "riddle-sample", "players": 3},
            Caller(token=ADMIN),
        )
        gid = g["game"]
        tokens = {s["player"]: s["token"] for s in g["seats"]}
        rnd = random.Random(3)

        def play(hall: SharedHall) -> None:
            snap = hall.dispatch("view", {"game": gid}, Caller())
            c = Caller(token=tokens[snap["to_move"]])
            legal = hall.dispatch("moves", {"game": gid}, c)["moves"]
            out = hall.dispatch(
                "play", {"game": gid, "move": rnd.choice(legal), "expect_ply": snap["ply"]}, c
            )
            assert out["verdict"] == "accepted", out

        two.dispatch("view", {"game": gid}, Caller())  # two holds the game at ply 0
        for _ in range(3):
            play(one)
        two.refresh(gid)  # three moves behind: replayed
        assert two.games[gid].ply == 3
        assert two.games[gid].game.to_json() == one.games[gid].game.to_json()
        # a stored move that does not replay as recorded: the stored state wins
        play(one)
        stores[0].conn.execute(
            "UPDATE referee_moves SET to_move = 'nobody' WHERE game = %s AND ply = 4", [gid]
        )
        with caplog.at_level("WARNING", logger="referee.net"):
            two.refresh(gid)
        assert "replays differently" in caplog.text
        assert two.games[gid].ply == 4
        assert two.games[gid].game.to_json() == one.games[gid].game.to_json()
        play(two)  # and play goes on through two
        assert [m["ply"] for m in stores[1].moves(gid)] == [1, 2, 3, 4, 5]
    finally:
        for s in stores:
            s.close()


def test_the_servers_ride_out_a_restart_of_postgresql(pair, pg_cluster, db):
    a, b = pair
    g = create(a.url, rules="ringgeister", project="ringgeister", players=2, seed=11)
    t = Table(g, seed=11)
    watch = _watch(a.url, t.gid)
    try:
        t.play(a.url)
        t.play(b.url)
        pg_cluster.restart()  # every connection of both servers is cut
        for k in range(4):  # reads reconnect; play goes on through both
            t.play((a, b)[k % 2].url)  # the last through B: A hears of it by NOTIFY
        n = len(t.answered)
        # A's WebSocket hears of B's moves again (its listening connection came back)
        assert wait_until(lambda: len(_plies(watch)) > n, 30), (_plies(watch), n)
        assert _plies(watch) == list(range(n + 1))
    finally:
        watch.close()
    result = _replays(db, t.gid)
    assert result["log"] == t.answered
    assert result["ok"], result


def test_json_start_line_names_the_database_without_its_password(pg_cluster, db):
    url = db.replace("postgresql://postgres@", "postgresql://postgres:s3cret@")  # trust: ignored
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--http", "--json", "--port", "0"]
        + ["--projects", str(PROJECTS), "--db", url, "--admin-token", ADMIN],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        started = json.loads(proc.stdout.readline())
        assert started["db"] == url.replace(":s3cret@", ":***@")
        r = httpx.post(
            started["url"] + "/api/games",
            json={"rules": "mount-doom", "project": "mount-doom", "players": 2},
            headers=_auth(ADMIN),
            timeout=30,
        )
        assert r.status_code == 201, r.text  # and it serves games from that database
        store = PostgresGameStore(db)
        try:
            assert store.game(r.json()["game"]) is not None
        finally:
            store.close()
    finally:
        proc.terminate()
        proc.wait(10)


def test_servers_starting_at_once_on_a_new_database_make_its_tables_once(db):
    opened: list[PostgresGameStore] = []
    failed: list[BaseException] = []
    go = threading.Barrier(4)

    def open_one() -> None:
        go.wait()
        try:
            opened.append(PostgresGameStore(db))
        except BaseException as exc:
            failed.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    try:
        assert not failed and len(opened) == 4, failed
        assert all(s.count_games() == 0 for s in opened)
    finally:
        for s in opened:
            s.close()


def test_the_state_is_stored_every_snapshot_every_moves_and_replayed_on_load(db):
    """As in SQLite mode: a move row carries no state between snapshots; a process
    loading the game replays the moves after the last snapshot. A game stored
    before ``state_ply`` existed (it is empty) has the state of its ply."""
    stores = [PostgresGameStore(db), PostgresGameStore(db)]
    try:
        one = SharedHall(PROJECTS, stores[0], Limits(), admin_token=ADMIN, snapshot_every=3)
        g = one.dispatch(
            "new",
            {"rules": "riddle", "project": "riddle-sample", "players": 3},
            Caller(token=ADMIN),
        )
        gid = g["game"]
        tokens = {s["player"]: s["token"] for s in g["seats"]}
        stores[0].conn.execute("UPDATE referee_games SET state_ply = NULL WHERE id = %s", [gid])
        rnd = random.Random(5)
        seen: list[tuple[int, int | None]] = []
        for _ in range(7):
            snap = one.dispatch("view", {"game": gid}, Caller())
            c = Caller(token=tokens[snap["to_move"]])
            legal = one.dispatch("moves", {"game": gid}, c)["moves"]
            out = one.dispatch(
                "play", {"game": gid, "move": rnd.choice(legal), "expect_ply": snap["ply"]}, c
            )
            assert out["verdict"] == "accepted", out
            rec = stores[0].game(gid)
            assert rec is not None
            seen.append((rec.ply, rec.state_ply))
            if rec.outcome is not None:
                break
        # a snapshot at plies 3 and 6 (or at the end), none in between
        expected = [(p, p if p % 3 == 0 else 3 * (p // 3)) for p, _ in seen]
        if seen and stores[0].game(gid).outcome is not None:  # type: ignore[union-attr]
            expected[-1] = (seen[-1][0], seen[-1][0])
        assert seen == expected
        # another process, holding nothing, loads the snapshot and replays the rest
        two = SharedHall(PROJECTS, stores[1], Limits(), admin_token=ADMIN, snapshot_every=3)
        view = two.dispatch("view", {"game": gid}, Caller())
        assert view["ply"] == seen[-1][0]
        assert two.games[gid].game.to_json() == one.games[gid].game.to_json()
    finally:
        for s in stores:
            s.close()
