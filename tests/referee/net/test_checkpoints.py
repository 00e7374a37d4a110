"""The store folds its write-ahead log back into the database on a thread of its own
(referee/net/store.py): no commit copies the log, and the log does not grow
without bound."""

from __future__ import annotations

import gc
import os
import sqlite3
import time
from pathlib import Path

import pytest

from referee.net import store as store_mod
from referee.net.store import GameRecord, GameStore, MoveRecord

STATE = {"pieces": "x" * 1500}


def _open(path: Path, games: int = 50) -> GameStore:
    st = GameStore(path)
    for i in range(games):
        st.add_game(
            GameRecord(
                id=f"g{i}",
                rules="ringgeister",
                project="p",
                board_hash="h",
                seats=["a", "b"],
                token_hashes={},
                seed=i,
                options={},
                position=None,
                setup_events=[],
                state=STATE,
            )
        )
    return st


def _play(st: GameStore, plies: dict[str, int], n: int) -> None:
    """``n`` moves, one commit each, round the games; a snapshot every 8th ply."""
    games = sorted(plies)
    for k in range(n):
        g = games[k % len(games)]
        plies[g] += 1
        snap = STATE if plies[g] % 8 == 0 else None
        st.record_moves(
            [MoveRecord(g, plies[g], "a", "m 1 2", [{"kind": "moved"}], snap, "b", None)]
        )


def _wal(path: Path) -> int:
    return os.path.getsize(f"{path}-wal")


def _wait(cond, what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            pytest.fail(f"waited {timeout} s for {what}")
        time.sleep(0.02)


def test_no_commit_checkpoints_the_log_itself(tmp_path):
    st = _open(tmp_path / "g.sqlite")
    try:
        assert st.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    finally:
        st.close()


def test_the_checkpointer_copies_the_log_so_that_the_next_writes_reuse_it(tmp_path):
    path = tmp_path / "g.sqlite"
    st = _open(path)
    plies = {f"g{i}": 0 for i in range(50)}
    try:
        _play(st, plies, 1500)
        high = _wal(path)
        assert high > 1_000_000  # 1,500 commits are thousands of log pages
        before = st.writes.checkpoints
        _wait(lambda: st.writes.checkpoints >= before + 2, "a checkpoint")
        _play(st, plies, 700)  # the log starts again from its beginning: no growth
        assert _wal(path) == high
        assert st.writes.error is None
    finally:
        st.close()
    # every move is there, read by a fresh connection
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM moves").fetchone()[0] == 2200
    conn.close()


def test_a_long_log_the_checkpointer_could_not_finish_is_finished_by_the_next_commit(
    tmp_path, monkeypatch
):
    # commits that never pause let no background checkpoint copy the whole log; the
    # checkpointer then asks the writer to copy the last pages in its next commit
    monkeypatch.setattr(store_mod, "CHECKPOINT_SECONDS", 3600.0)  # no background rounds
    path = tmp_path / "g.sqlite"
    st = _open(path)
    plies = {f"g{i}": 0 for i in range(50)}
    try:
        _play(st, plies, 1000)
        first = _wal(path)
        _play(st, plies, 300)  # nothing copied: the log grows
        grown = _wal(path)
        assert grown > first
        st.writes.catch_up = True
        _play(st, plies, 1)  # this commit copies the log (after its own pages)
        assert st.writes.caught_up == 1 and not st.writes.catch_up
        longest = _wal(path)
        assert longest > grown
        _play(st, plies, 300)  # and the next ones start it again
        assert _wal(path) == longest
    finally:
        st.close()


def test_closing_the_store_stops_its_checkpointer_and_folds_the_log_in(tmp_path):
    path = tmp_path / "g.sqlite"
    st = _open(path)
    _play(st, {f"g{i}": 0 for i in range(50)}, 200)
    thread = st._checkpointer
    assert thread is not None and thread.is_alive()
    st.close()
    assert not thread.is_alive()
    assert not Path(f"{path}-wal").exists()  # the last connection folded it in
    st2 = GameStore(path)
    try:
        assert st2.game("g7").ply == 4
    finally:
        st2.close()


def test_a_store_dropped_without_close_stops_its_checkpointer(tmp_path):
    st = _open(tmp_path / "g.sqlite")
    thread = st._checkpointer
    assert thread is not None and thread.is_alive()
    st.db.conn.close()
    del st
    gc.collect()
    _wait(lambda: not thread.is_alive(), "the checkpointer to stop")


def test_a_database_in_memory_has_no_checkpointer():
    st = _open(Path(":memory:"), games=3)
    try:
        _play(st, {"g0": 0, "g1": 0, "g2": 0}, 30)
        assert st._checkpointer is None
        assert st.game("g1").ply == 10
    finally:
        st.close()


def test_without_a_checkpointer_the_commits_checkpoint_again(tmp_path, monkeypatch):
    # the checkpointer's connection fails: SQLite's own checkpoint comes back, so the
    # log stays bounded all the same, and every commit stands
    def broken(path, writes):
        writes.error = "unable to open database file"

    monkeypatch.setattr(store_mod, "_checkpoint_loop", broken)
    path = tmp_path / "g.sqlite"
    st = _open(path)
    try:
        _wait(lambda: not st._checkpointer.is_alive(), "the broken checkpointer to end")
        _play(st, {f"g{i}": 0 for i in range(50)}, 1500)
        auto = st.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        assert auto == store_mod.SQLITE_AUTOCHECKPOINT
        assert _wal(path) < 1500 * 4096  # checkpointed along the way, not 1,500 commits long
        assert st.game("g3").ply == 30
    finally:
        st.close()
