"""Snapshots, replay and group commit (issue 30): the store keeps a game's whole
state every few moves, loading replays the moves logged since, and moves are
committed in groups but answered only once committed — an answered move survives
``kill -9`` of a real server process also when it lies after the last snapshot."""

from __future__ import annotations

import asyncio
import json
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.errors import StateError
from referee.net.limits import Limits
from referee.net.store import GameStore, MoveRecord
from referee.net.tables import Hall, Listener
from referee.session import Caller

from .conftest import ADMIN, PROJECTS

GAMES = [
    ("ringgeister", "ringgeister", 2),
    ("riddle", "riddle-sample", 3),
    ("mount-doom", "mount-doom", 2),
    ("lotr-coop", "lotr-coop", 2),
]
AS_ADMIN = Caller(token=ADMIN)


def _hall(store: GameStore, every: int, group: bool | None = None) -> Hall:
    return Hall(
        PROJECTS,
        store,
        Limits(moves_per_second=1e6),
        admin_token=ADMIN,
        snapshot_every=every,
        group_commit=group,
    )


def test_moves_are_committed_in_groups_by_default_only_where_a_commit_waits_for_the_disk(
    tmp_path,
):
    for sync, group in (("normal", False), ("full", True)):
        store = GameStore(tmp_path / f"{sync}.sqlite", sync)
        assert _hall(store, 32).group_commit is group
        store.close()


def _new(hall: Hall, rules: str, project: str, players: int, seed: int) -> dict[str, Any]:
    return hall.dispatch(
        "new", {"rules": rules, "project": project, "players": players, "seed": seed}, AS_ADMIN
    )


def _play(hall: Hall, g: dict[str, Any], n: int, seed: int) -> int:
    """Up to ``n`` random moves of game ``g`` through the dispatcher; moves played."""
    tokens = {s["player"]: s["token"] for s in g["seats"]}
    rnd = random.Random(seed)
    played = 0
    for _ in range(n):
        st = hall.dispatch("view", {"game": g["game"]}, Caller())
        if st["outcome"] is not None:
            break
        seat = Caller(token=tokens[st["to_move"]])
        moves = hall.dispatch("view", {"game": g["game"]}, seat)["moves"]
        out = hall.dispatch(
            "play", {"game": g["game"], "move": rnd.choice(moves), "expect_ply": st["ply"]}, seat
        )
        assert out["verdict"] == "accepted", out
        played += 1
    return played


@pytest.mark.parametrize("every", [1, 3, 7, 1000])
def test_recovery_from_a_snapshot_plus_later_moves_is_the_same_state(tmp_path, every):
    db = tmp_path / "games.sqlite"
    store = GameStore(db)
    hall = _hall(store, every)
    games = [_new(hall, *spec, seed=k) for k, spec in enumerate(GAMES)]
    states = {}
    for k, g in enumerate(games):
        played = _play(hall, g, 25, seed=k)
        held = hall.games[g["game"]]
        assert held.ply == played
        states[g["game"]] = (held.ply, held.game.to_json())
    store.close()

    store = GameStore(db)
    try:
        fresh = _hall(store, every)
        replayed = 0
        for gid, (ply, state) in states.items():
            rec = store.game(gid)
            assert rec is not None and rec.ply == ply
            done = rec.outcome is not None
            if done or ply % every == 0:
                assert rec.snapshot_ply == ply  # a finished game's record is whole
            else:
                assert rec.snapshot_ply == ply - ply % every  # the last snapshot
                replayed += ply - rec.snapshot_ply
            held = fresh.lookup(gid)
            assert held.ply == ply
            assert held.game.to_json() == state
        if every > 1:
            assert replayed > 0  # the replay path was taken
    finally:
        store.close()


def test_a_replay_that_differs_from_the_log_is_refused_naming_the_game(tmp_path):
    db = tmp_path / "games.sqlite"
    store = GameStore(db)
    hall = _hall(store, 1000)
    g = _new(hall, "ringgeister", "ringgeister", 2, seed=3)
    assert _play(hall, g, 6, seed=3) == 6
    gid = g["game"]
    (real,) = store.db.execute(
        "SELECT events FROM moves WHERE game = ? AND ply = 4", [gid]
    ).fetchone()
    # the log is changed under the game: move 4's events are not what the rules say
    store.db.execute(
        "UPDATE moves SET events = ? WHERE game = ? AND ply = 4",
        [json.dumps([{"type": "forged", "text": "x"}]), gid],
    )
    fresh = _hall(store, 1000)
    with pytest.raises(StateError) as err:
        fresh.lookup(gid)
    assert err.value.code == "replay_diverged"
    assert f"game {gid}" in str(err.value) and "move 4" in str(err.value)
    # a log that lacks a move the game's row counts is refused too
    store.db.execute("DELETE FROM moves WHERE game = ? AND ply = 6", [gid])
    store.db.execute("UPDATE moves SET events = ? WHERE game = ? AND ply = 4", [real, gid])
    with pytest.raises(StateError, match="ply 5, the game is at ply 6"):
        _hall(store, 1000).lookup(gid)
    store.close()


def test_a_database_of_an_older_server_loads_its_state_as_of_its_ply(tmp_path):
    db = tmp_path / "games.sqlite"
    store = GameStore(db)
    hall = _hall(store, 1000)
    g = _new(hall, "riddle", "riddle-sample", 3, seed=5)
    _play(hall, g, 9, seed=5)
    held = hall.games[g["game"]]
    # what an older server wrote: the whole state with every move, no state_ply
    store.db.execute(
        "UPDATE games SET state = ?, state_ply = NULL WHERE id = ?",
        [json.dumps(held.game.to_json()), g["game"]],
    )
    rec = store.game(g["game"])
    assert rec is not None and rec.state_ply is None and rec.snapshot_ply == rec.ply == held.ply
    again = _hall(store, 1000).lookup(g["game"])
    assert again.game.to_json() == held.game.to_json()
    store.close()


def test_record_moves_writes_a_group_in_one_transaction_all_or_nothing(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    hall = _hall(store, 1000)
    a = _new(hall, "ringgeister", "ringgeister", 2, seed=1)["game"]
    b = _new(hall, "mount-doom", "mount-doom", 2, seed=2)["game"]

    def rec(game: str, ply: int) -> MoveRecord:
        return MoveRecord(game, ply, "p", f"m{ply}", [{"type": "t", "text": "x"}], None, "q", None)

    store.record_moves([rec(a, 1), rec(b, 1), rec(a, 2)])
    assert [m["ply"] for m in store.moves(a)] == [1, 2]
    assert [m["ply"] for m in store.moves(a, after=1)] == [2]
    got = store.game(a)
    assert got is not None and got.ply == 2 and got.state_ply == 0  # no snapshot with them
    # a group holding one ply already recorded writes none of its moves
    with pytest.raises(sqlite3.IntegrityError):
        store.record_moves([rec(b, 2), rec(a, 2)])
    assert [m["ply"] for m in store.moves(b)] == [1]
    got = store.game(b)
    assert got is not None and got.ply == 1
    # a move with a snapshot moves the game's snapshot to its ply
    store.record_moves([MoveRecord(b, 2, "p", "m2", [], {"snap": True}, "q", None)])
    got = store.game(b)
    assert got is not None and got.state == {"snap": True} and got.state_ply == 2
    store.close()


def test_group_commit_writes_moves_queued_together_in_one_transaction_and_fails_only_the_bad_one(
    tmp_path,
):
    store = GameStore(tmp_path / "games.sqlite")
    hall = _hall(store, 1000)
    gids = [_new(hall, "ringgeister", "ringgeister", 2, seed=k)["game"] for k in range(5)]
    store.record_moves([MoveRecord(gids[2], 1, "p", "m", [], None, "q", None)])
    writes: list[int] = []
    real = store.record_moves

    def counted(batch: Any) -> None:
        writes.append(len(batch))
        real(batch)

    store.record_moves = counted  # type: ignore[method-assign]

    async def go() -> list[BaseException | None]:
        loop = asyncio.get_running_loop()
        with hall.writer._cv:  # the writer takes nothing while the five are queued
            futs = [
                hall.writer.submit(MoveRecord(g, 1, "p", "m", [], None, "q", None), loop)
                for g in gids
            ]
        return list(await asyncio.gather(*futs, return_exceptions=True))

    results = asyncio.run(go())
    hall.shutdown()
    assert [r is None for r in results] == [True, True, False, True, True]
    assert isinstance(results[2], sqlite3.IntegrityError)
    # one transaction for the five; it failed, so each was written again alone
    assert hall.writer.groups == 1 and writes == [5, 1, 1, 1, 1, 1]
    for g in gids:
        assert [m["ply"] for m in store.moves(g)] == [1]
    store.close()


def test_a_move_whose_group_commit_fails_is_not_answered_nor_pushed_and_the_game_goes_back(
    tmp_path,
):
    store = GameStore(tmp_path / "games.sqlite")
    hall = _hall(store, 1000, group=True)
    g = _new(hall, "ringgeister", "ringgeister", 2, seed=4)
    _play(hall, g, 3, seed=4)
    gid = g["game"]
    before = hall.games[gid].game.to_json()
    tokens = {s["player"]: s["token"] for s in g["seats"]}

    def broken(batch: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    async def go() -> tuple[dict[str, Any], Listener, BaseException | None]:
        held = hall.lookup(gid)
        lst = Listener(None)
        hall.listen(held, lst)
        st = hall.dispatch("view", {"game": gid}, Caller())
        seat = Caller(token=tokens[st["to_move"]])
        move = hall.dispatch("view", {"game": gid}, seat)["moves"][0]
        store.record_moves = broken  # type: ignore[method-assign]
        out = hall.dispatch("play", {"game": gid, "move": move, "expect_ply": 3}, seat)
        assert out["verdict"] == "accepted" and gid in hall.pending
        try:
            await hall.settle(gid)
        except Exception as exc:
            return out, lst, exc
        return out, lst, None

    _, lst, exc = asyncio.run(go())
    hall.shutdown()
    assert exc is not None and getattr(exc, "code", None) == "store_failed"
    assert "ply 3" in str(exc)
    held = hall.games[gid]
    assert held.ply == 3 and held.game.to_json() == before  # the move did not happen
    assert lst.queue.empty()  # nobody was told of it
    assert [m["ply"] for m in store.moves(gid)] == [1, 2, 3]
    store.close()


def test_a_move_whose_own_commit_fails_is_refused_and_the_game_goes_back(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    hall = _hall(store, 1000, group=False)
    g = _new(hall, "mount-doom", "mount-doom", 2, seed=4)
    _play(hall, g, 3, seed=4)
    gid = g["game"]
    held = hall.games[gid]
    before = held.game.to_json()
    lst = Listener(None)
    hall.listen(held, lst)
    seat = Caller(token={s["player"]: s["token"] for s in g["seats"]}[held.game.to_move])
    move = hall.dispatch("view", {"game": gid}, seat)["moves"][0]

    def broken(batch: Any) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    store.record_moves = broken  # type: ignore[method-assign]

    async def go() -> None:  # on the event loop, as the server runs it
        hall.dispatch("play", {"game": gid, "move": move, "expect_ply": 3}, seat)

    with pytest.raises(StateError, match="OperationalError: disk I/O error"):
        asyncio.run(go())
    assert gid not in hall.pending and held.ply == 3 and held.game.to_json() == before
    assert lst.queue.empty()
    assert [m["ply"] for m in store.moves(gid)] == [1, 2, 3]
    store.close()


# ====================================================================== kill -9
SERVE = """
import sys
from referee.net import HostedServer, Limits
srv = HostedServer(sys.argv[1], sys.argv[2], admin_token=sys.argv[3], sync=sys.argv[5],
                   limits=Limits(moves_per_second=1000), snapshot_every=int(sys.argv[4]))
sock = srv.bind()
print(f"serving {srv.url} ", file=sys.stderr, flush=True)
srv.run(sock)
"""


class _Proc:
    def __init__(self, db: Path, every: int, sync: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(PROJECTS), str(db), ADMIN, str(every), sync],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        m = re.search(r"(http://\S+?)\s", line)
        assert m, f"server did not start: {line!r}"
        self.url = m.group(1)

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def _player(url: str, g: dict[str, Any], answered: list[tuple[int, str]], seed: int) -> None:
    tokens = {s["player"]: s["token"] for s in g["seats"]}
    rnd = random.Random(seed)
    gid = g["game"]
    with httpx.Client(base_url=url, timeout=10) as http:
        try:
            while True:
                snap = http.get(f"/api/games/{gid}").json()
                if snap["outcome"] is not None:
                    return
                auth = {"Authorization": f"Bearer {tokens[snap['to_move']]}"}
                moves = http.get(f"/api/games/{gid}", headers=auth).json()["moves"]
                r = http.post(
                    f"/api/games/{gid}/moves",
                    json={"move": rnd.choice(moves), "expect_ply": snap["ply"]},
                    headers=auth,
                )
                assert r.status_code == 200, r.text
                answered.append((r.json()["ply"], r.json()["move"]))
        except (httpx.TransportError, ValueError):
            return  # the server was killed


@pytest.mark.slow  # two server processes, one killed (~5 s)
@pytest.mark.parametrize("sync", ["normal", "full"])  # each move's commit; group commit
def test_kill_9_loses_no_answered_move_after_the_last_snapshot(tmp_path, sync):
    db = tmp_path / "games.sqlite"
    first = _Proc(db, every=4, sync=sync)
    second = None
    try:
        games = []
        for k, (rules, project, players) in enumerate(GAMES):
            r = httpx.post(
                first.url + "/api/games",
                json={"rules": rules, "project": project, "players": players, "seed": k},
                headers={"Authorization": f"Bearer {ADMIN}"},
                timeout=30,
            )
            assert r.status_code == 201, r.text
            games.append(r.json())
        answered: list[list[tuple[int, str]]] = [[] for _ in games]
        threads = [
            threading.Thread(target=_player, args=(first.url, g, a, k))
            for k, (g, a) in enumerate(zip(games, answered, strict=True))
        ]
        for t in threads:
            t.start()

        def ready() -> bool:
            # the games move in step, so they often stand together at a snapshot's
            # ply (12): kill only once some game's answered moves are 1 or 2 past a
            # snapshot, so that whatever move is in flight, moves after it are logged
            counts = [len(a) for a in answered]
            return min(counts) >= 11 and any(c % 4 in (1, 2) for c in counts)

        deadline = time.monotonic() + 30
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.005)
        first.kill9()  # mid-play, moves in flight
        for t in threads:
            t.join(10)
        assert min(len(a) for a in answered) >= 11

        store = GameStore(db)
        try:
            after_snapshot = 0
            for g, done in zip(games, answered, strict=True):
                rec = store.game(g["game"])
                assert rec is not None
                logged = {m["ply"]: m["move"] for m in store.moves(g["game"])}
                assert all(logged.get(ply) == move for ply, move in done)  # none lost
                assert rec.ply in (len(done), len(done) + 1)
                after_snapshot += rec.ply - rec.snapshot_ply
        finally:
            store.close()
        assert after_snapshot > 0  # some answered moves lay after the last snapshot

        second = _Proc(db, every=4, sync=sync)
        for g, done in zip(games, answered, strict=True):
            snap = httpx.get(second.url + f"/api/games/{g['game']}").json()
            assert snap["ply"] in (len(done), len(done) + 1)
            # the replayed game goes on: its seat to move has legal moves
            tokens = {s["player"]: s["token"] for s in g["seats"]}
            if snap["outcome"] is None:
                mine = httpx.get(
                    second.url + f"/api/games/{g['game']}",
                    headers={"Authorization": f"Bearer {tokens[snap['to_move']]}"},
                ).json()
                r = httpx.post(
                    second.url + f"/api/games/{g['game']}/moves",
                    json={"move": mine["moves"][0], "expect_ply": snap["ply"]},
                    headers={"Authorization": f"Bearer {tokens[snap['to_move']]}"},
                )
                assert r.status_code == 200, r.text
    finally:
        first.stop()
        if second is not None:
            second.stop()


def test_a_finished_game_leaves_memory_once_stored_and_comes_back_whole(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    hall = _hall(store, 1000)
    g = _new(hall, "lotr-coop", "lotr-coop", 2, seed=0)
    gid = g["game"]
    held = hall.games[gid]
    played = _play_until_over(hall, g, held)
    assert gid not in hall.games  # its last move is stored: memory lets it go
    rec = store.game(gid)
    assert rec is not None and rec.outcome is not None and rec.snapshot_ply == rec.ply == played
    final = held.game.to_json()
    again = hall.lookup(gid)  # asked for, it comes back from the store, as it ended
    assert again is not held and again.ply == played and again.game.to_json() == final
    snap = hall.dispatch("view", {"game": gid}, Caller())
    assert snap["outcome"] == rec.outcome and snap["to_move"] is None
    store.close()


def _play_until_over(hall: Hall, g: dict[str, Any], held: Any) -> int:
    tokens = {s["player"]: s["token"] for s in g["seats"]}
    rnd = random.Random(0)
    while held.game.outcome is None:
        assert held.ply < 2000, "the game did not end"
        seat = Caller(token=tokens[held.game.to_move])
        moves = [str(m) for m in held.game.legal_moves]
        out = hall.dispatch(
            "play", {"game": g["game"], "move": rnd.choice(moves), "expect_ply": held.ply}, seat
        )
        assert out["verdict"] == "accepted"
    return held.ply


def test_the_docs_quote_the_snapshot_interval_and_the_group_size_of_the_code():
    from referee.net.tables import MAX_GROUP, SNAPSHOT_EVERY

    docs = Path(__file__).resolve().parents[3] / "docs"
    for page in ("reference/network-play.md", "explanation/game-server.md"):
        text = " ".join((docs / page).read_text(encoding="utf-8").split())
        assert f"stored every {SNAPSHOT_EVERY} moves" in text, page
        assert f"at most {MAX_GROUP} moves" in text, page
