"""Games and their move logs in one SQLite file (sqlite-utils).

Two tables (a database of an older server gains the new columns when opened):

``games``
    one row per game: rules, project name, board hash, seats (player names and the
    SHA-256 of each seat's token — the tokens themselves are never stored), the
    owner's token hash and the creating client, seed, options, position, the set-up
    events, the latest state (``Game.to_json()``), ply, whose turn, the outcome, when
    it was created, last moved and finished, and when (and why) it expired.
``moves``
    one row per accepted move: game, ply, player, the move's text and its events
    (whole, private parts included: the log is the referee's record).

The state is a *snapshot*: ``games.state`` is the game's whole state after move
``state_ply`` (written at creation and then every few moves, as the server chooses),
and the moves logged after it bring it up to ``ply``. Loading a game is that
snapshot plus a replay of ``moves(gid, after=state_ply)``
(:meth:`referee.net.tables.Hall.load`). A database of an older server wrote the
state with every move: its ``state_ply`` is empty and means ``ply``.

:meth:`GameStore.record_moves` writes several moves (of any games) and their
games' new heads in one transaction — a group commit — and returns only after it is
committed; :meth:`GameStore.record_move` is one move of it. The server answers a
move only once its commit returned, so a move the server answered survives
``kill -9`` of the server. The database runs in WAL mode; with
``sync="normal"`` (the default) a commit is in the operating system's hands when
it returns — safe from a crash of the server, not from a power cut, and about 30
times faster than ``sync="full"``, which waits for the disk (``fsync``) on every
move.

Checkpoints (copying the write-ahead log back into the database file) run on a
thread of their own, not inside a commit: SQLite's automatic checkpoint would run
in whichever commit crossed 1,000 log pages and hold that group of moves — and the
store's lock — for the several milliseconds of copying and ``fsync``. The store
turns it off on its connection and a background thread with a connection of its
own runs a passive checkpoint every :data:`CHECKPOINT_SECONDS` after writes; when
the log has grown past :data:`WAL_RESTART_PAGES` regardless (commits that never
pause let no passive checkpoint copy the whole log, and only then does the log
start again from its beginning), the next commit copies the few pages still left,
once. A checkpoint moves committed pages only: what a commit made durable stays so
whichever thread checkpoints, and ``kill -9`` in the middle of one loses nothing.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from ..errors import UsageError

#: seconds between two background checkpoints of the write-ahead log (when written to)
CHECKPOINT_SECONDS = 0.5
#: commits after which the checkpointer starts a round without waiting the interval
CHECKPOINT_COMMITS = 2000
#: passes of one checkpoint round at most: each copies what was committed during the
#: one before, fewer pages each time, until a pass ends with the whole log copied
CHECKPOINT_PASSES = 4
#: SQLite's own automatic checkpoint (log pages), used again when no checkpointer runs
SQLITE_AUTOCHECKPOINT = 1000
#: log pages past which the writer copies what the checkpointer could not
WAL_RESTART_PAGES = 4000


class _Writes:
    """What the store and its checkpointer tell each other: commits since the last
    round, whether to stop, and what the checkpointer did."""

    __slots__ = ("catch_up", "caught_up", "checkpoints", "commits", "error", "stop", "wake")

    def __init__(self) -> None:
        #: set by the store past CHECKPOINT_COMMITS commits, and to stop: a round now
        self.wake = threading.Event()
        self.stop = False
        self.commits = 0
        self.checkpoints = 0
        #: the log is long and not wholly copied: the writer copies the rest
        self.catch_up = False
        self.caught_up = 0
        self.error: str | None = None

    def halt(self) -> None:
        """Tell the checkpointer to run its last round and end."""
        self.stop = True
        self.wake.set()


def _checkpoint_loop(path: str, writes: _Writes) -> None:
    """The checkpointer thread: its own connection, a passive checkpoint every
    :data:`CHECKPOINT_SECONDS` after commits (sooner past :data:`CHECKPOINT_COMMITS`
    of them), then at once more (up to
    :data:`CHECKPOINT_PASSES`), each with only the pages committed meanwhile to
    copy: the log starts again from its beginning at the first commit after a
    checkpoint that copied all of it, which a commit during the checkpoint
    prevents. A final one when stopped.

    When the log is past :data:`WAL_RESTART_PAGES` even so, it asks the store to
    copy the rest in its next commit (:meth:`GameStore._wrote`): the pages of a
    commit or two, not the thousand SQLite's own checkpoint would copy there. (It
    holds no reference to the store, so a store dropped without
    :meth:`GameStore.close` stops it too.)
    """
    try:
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    except sqlite3.Error as exc:  # the store takes SQLite's own checkpoint back
        writes.error = str(exc)
        return
    try:
        while True:
            writes.wake.wait(CHECKPOINT_SECONDS)
            writes.wake.clear()
            stopping = writes.stop
            if writes.commits or stopping:
                writes.commits = 0
                try:
                    before = -1
                    for _ in range(CHECKPOINT_PASSES):
                        _busy, log, _done = conn.execute(
                            "PRAGMA wal_checkpoint(PASSIVE)"
                        ).fetchone()
                        writes.checkpoints += 1
                        if 0 <= log < before:  # the log started again meanwhile
                            break
                        before = log
                    # a log this long after the passes did not start again: commits came
                    # during each of them; the writer's next commit copies the last pages
                    writes.catch_up = log > WAL_RESTART_PAGES
                except sqlite3.Error as exc:  # the next round tries again
                    writes.error = str(exc)
            if stopping:
                return
    finally:
        conn.close()


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


@dataclass
class GameRecord:
    """One row of ``games``, decoded."""

    id: str
    rules: str
    project: str
    board_hash: str
    seats: list[str]
    token_hashes: dict[str, str]
    seed: int
    options: dict[str, Any]
    position: dict[str, Any] | None
    setup_events: list[dict[str, Any]]
    state: dict[str, Any]
    ply: int = 0
    to_move: str | None = None
    outcome: dict[str, Any] | None = None
    created: float = field(default_factory=time.time)
    owner: str | None = None
    creator: str = ""
    updated: float = 0.0
    finished: float | None = None
    expired: float | None = None
    expired_why: str | None = None
    #: the ply ``state`` is at (``None``: ``ply``, a database of an older server);
    #: the moves after it bring the game up to ``ply``
    state_ply: int | None = None

    @property
    def snapshot_ply(self) -> int:
        """The ply ``state`` is at."""
        return self.ply if self.state_ply is None else self.state_ply


@dataclass
class MoveRecord:
    """One accepted move as :meth:`GameStore.record_moves` writes it.

    ``state`` is a snapshot of the game's whole state after this move, or ``None``
    (no snapshot with this move: the game keeps its last one). ``to_move`` and
    ``outcome`` are the game's after the move.
    """

    game: str
    ply: int
    player: str
    move: str
    events: list[dict[str, Any]]
    state: dict[str, Any] | None
    to_move: str | None
    outcome: dict[str, Any] | None


#: columns a database of an older server lacks (added when it is opened)
#: the columns each table had from the first (later ones are added when missing)
_BASE_COLUMNS = {
    "games": {"id", "rules", "project", "board_hash", "seats", "token_hashes", "seed", "state"},
    "moves": {"game", "ply", "player", "move", "events"},
}

_ADDED_COLUMNS: dict[str, type] = {
    "owner": str,
    "creator": str,
    "finished": float,
    "expired": float,
    "expired_why": str,
    "state_ply": int,
}


class GameStore:
    """The server's games in SQLite: one connection behind a lock, so the server's
    writer thread (:meth:`record_moves`) and its event loop (everything else) may
    both use it.

    Parameters
    ----------
    path : str or Path
        The database file (``":memory:"`` for tests that need no restart).
    sync : {"normal", "full"}
        SQLite's ``synchronous`` setting: ``full`` waits for the disk on every move.
    """

    def __init__(self, path: str | Path, sync: str = "normal") -> None:
        if sync not in ("normal", "full"):
            raise ValueError(f"sync must be 'normal' or 'full', not {sync!r}")
        self.path = str(path)
        self.sync = sync
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            self._refuse_foreign(conn)  # before anything is written to the file
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise UsageError(f"--db {self.path}: not a game database ({exc})") from None
        except UsageError:
            conn.close()
            raise
        conn.execute(f"PRAGMA synchronous={sync.upper()}")
        conn.execute("PRAGMA busy_timeout=5000")
        self.db = sqlite_utils.Database(conn)
        self._lock = threading.RLock()
        #: what the store and its checkpointer tell each other (see :class:`_Writes`)
        self.writes = _Writes()
        self._checkpointer: threading.Thread | None = None
        self._wal = mode.lower() == "wal"  # ":memory:" has no log to checkpoint
        if self._wal:
            conn.execute("PRAGMA wal_autocheckpoint=0")
        weakref.finalize(self, self.writes.halt)
        self._create()

    def _refuse_foreign(self, conn: sqlite3.Connection) -> None:
        """Refuse someone else's database (a project is SQLite, with a ``games`` table
        of its own) before a column is added to its tables."""
        for table, want in _BASE_COLUMNS.items():
            have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
            if have and not want <= have:
                raise UsageError(
                    f"--db {self.path}: not a game database (its table {table} is not the "
                    f"server's: no column {', '.join(sorted(want - have))}); name a new file"
                )

    def _create(self) -> None:
        games = self.db.table("games")
        if not games.exists():
            games.create(
                {
                    "id": str,
                    "rules": str,
                    "project": str,
                    "board_hash": str,
                    "seats": str,
                    "token_hashes": str,
                    "seed": int,
                    "options": str,
                    "position": str,
                    "setup_events": str,
                    "state": str,
                    "ply": int,
                    "to_move": str,
                    "outcome": str,
                    "created": float,
                    "updated": float,
                },
                pk="id",
            )
        have = set(games.columns_dict)
        for col, kind in _ADDED_COLUMNS.items():
            if col not in have:
                games.add_column(col, kind)
        self.db.execute("CREATE INDEX IF NOT EXISTS games_live ON games (expired, creator)")
        moves = self.db.table("moves")
        if not moves.exists():
            moves.create(
                {"game": str, "ply": int, "player": str, "move": str, "events": str, "at": float},
                pk=("game", "ply"),
                foreign_keys=[("game", "games", "id")],
            )

    def close(self) -> None:
        """Stop the checkpointer (after a last checkpoint) and close the database;
        closing its last connection folds the log in and removes it."""
        self.writes.halt()
        if self._checkpointer is not None:
            self._checkpointer.join(30)
        with self._lock:
            self.db.conn.close()

    def _wrote(self) -> None:
        """Count a commit for the checkpointer, starting it on the first."""
        if not self._wal:
            return
        self.writes.commits += 1
        if self.writes.commits >= CHECKPOINT_COMMITS and not self.writes.wake.is_set():
            self.writes.wake.set()  # a busy writer does not wait for the interval
        if self.writes.catch_up:  # under the lock: no reader holds the log
            self.writes.catch_up = False
            try:
                self.db.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                self.writes.caught_up += 1
            except sqlite3.Error as exc:  # the commit stands; the checkpointer goes on
                self.writes.error = str(exc)
        thread = self._checkpointer
        if thread is None and not self.writes.stop:
            thread = self._checkpointer = threading.Thread(
                target=_checkpoint_loop,
                args=(self.path, self.writes),
                name="referee-net-checkpoint",
                daemon=True,
            )
            try:
                thread.start()
            except RuntimeError as exc:  # no thread to be had
                self.writes.error = str(exc)
        if thread is not None and not thread.is_alive() and not self.writes.stop:
            # no checkpointer (it could not start, or its connection failed): SQLite's
            # own checkpoint in the commits again, so that the log stays bounded
            self.db.conn.execute(f"PRAGMA wal_autocheckpoint={SQLITE_AUTOCHECKPOINT}")
            self._wal = False

    # ------------------------------------------------------------------ writing
    def add_game(self, rec: GameRecord) -> None:
        """Store a new game (committed on return); ``rec.state`` is its first snapshot."""
        now = time.time()
        with self._lock:
            self._insert(rec, now)
            self._wrote()

    def _insert(self, rec: GameRecord, now: float) -> None:
        self.db.table("games").insert(
            {
                "id": rec.id,
                "rules": rec.rules,
                "project": rec.project,
                "board_hash": rec.board_hash,
                "seats": _dump(rec.seats),
                "token_hashes": _dump(rec.token_hashes),
                "seed": rec.seed,
                "options": _dump(rec.options),
                "position": None if rec.position is None else _dump(rec.position),
                "setup_events": _dump(rec.setup_events),
                "state": _dump(rec.state),
                "ply": rec.ply,
                "to_move": rec.to_move,
                "outcome": None if rec.outcome is None else _dump(rec.outcome),
                "created": rec.created,
                "updated": now,
                "owner": rec.owner,
                "creator": rec.creator,
                "finished": now if rec.outcome is not None else None,
                "expired": None,
                "expired_why": None,
                "state_ply": rec.snapshot_ply,
            }
        )

    def record_move(
        self,
        game: str,
        ply: int,
        player: str,
        move: str,
        events: list[dict[str, Any]],
        state: dict[str, Any] | None,
        to_move: str | None,
        outcome: dict[str, Any] | None,
    ) -> None:
        """Append move ``ply`` of ``game`` (with a snapshot of its new state, unless
        ``state`` is ``None``), in one committed transaction.

        Raises
        ------
        sqlite3.IntegrityError
            ``ply`` is already recorded (nothing is written).
        """
        self.record_moves([MoveRecord(game, ply, player, move, events, state, to_move, outcome)])

    def record_moves(self, batch: Sequence[MoveRecord]) -> None:
        """Append every move of ``batch`` and its game's new head (ply, turn, outcome;
        the state where a move carries a snapshot) in ONE transaction, committed on
        return: all of them or, on an error, none.

        Moves of one game must come in ply order; the games' rows take the last.

        Raises
        ------
        sqlite3.IntegrityError
            A ply is already recorded (nothing is written).
        """
        if not batch:
            return
        now = time.time()
        rows = [(m.game, m.ply, m.player, m.move, _dump(m.events), now) for m in batch]
        heads: dict[str, MoveRecord] = {}
        snaps: dict[str, MoveRecord] = {}
        for m in batch:
            heads[m.game] = m
            if m.state is not None:
                snaps[m.game] = m
        head_rows = [
            (
                m.ply,
                m.to_move,
                None if m.outcome is None else _dump(m.outcome),
                now,
                None if m.outcome is None else now,
                m.game,
            )
            for m in heads.values()
        ]
        snap_rows = [(_dump(m.state), m.ply, m.game) for m in snaps.values()]
        with self._lock:
            conn = self.db.conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany(
                    "INSERT INTO moves (game, ply, player, move, events, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    rows,
                )
                conn.executemany(
                    "UPDATE games SET ply = ?, to_move = ?, outcome = ?, updated = ?, "
                    "finished = ? WHERE id = ?",
                    head_rows,
                )
                if snap_rows:
                    conn.executemany(
                        "UPDATE games SET state = ?, state_ply = ? WHERE id = ?", snap_rows
                    )
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            self._wrote()

    # ------------------------------------------------------------------ reading
    def game(self, gid: str) -> GameRecord | None:
        with self._lock:
            rows = list(self.db.query("SELECT * FROM games WHERE id = ?", [gid]))
        if not rows:
            return None
        r = rows[0]
        return GameRecord(
            id=r["id"],
            rules=r["rules"],
            project=r["project"],
            board_hash=r["board_hash"],
            seats=json.loads(r["seats"]),
            token_hashes=json.loads(r["token_hashes"]),
            seed=r["seed"],
            options=json.loads(r["options"]),
            position=None if r["position"] is None else json.loads(r["position"]),
            setup_events=json.loads(r["setup_events"]),
            state=json.loads(r["state"]),
            ply=r["ply"],
            to_move=r["to_move"],
            outcome=None if r["outcome"] is None else json.loads(r["outcome"]),
            created=r["created"],
            owner=r["owner"],
            creator=r["creator"] or "",
            updated=r["updated"] or r["created"],
            finished=r["finished"],
            expired=r["expired"],
            expired_why=r["expired_why"],
            state_ply=r["state_ply"],
        )

    def moves(self, gid: str, after: int = 0) -> Iterator[dict[str, Any]]:
        """The accepted moves of ``gid`` after ply ``after``, in order:
        ``{"ply", "player", "move", "events"}``."""
        with self._lock:
            got = self.db.execute(
                "SELECT ply, player, move, events FROM moves WHERE game = ? AND ply > ? "
                "ORDER BY ply",
                [gid, after],
            ).fetchall()
        for ply, player, move, events in got:
            yield {
                "ply": ply,
                "player": player,
                "move": move,
                "events": json.loads(events),
            }

    def count_games(self) -> int:
        """Every game the store holds, expired ones included."""
        with self._lock:
            return int(self.db.execute("SELECT count(*) FROM games").fetchone()[0])

    def count_live(self, creator: str | None = None) -> int:
        """Games not expired (made by ``creator``, when given)."""
        with self._lock:
            if creator is None:
                sql, args = "SELECT count(*) FROM games WHERE expired IS NULL", []
            else:
                sql, args = (
                    "SELECT count(*) FROM games WHERE expired IS NULL AND creator = ?",
                    [creator],
                )
            return int(self.db.execute(sql, args).fetchone()[0])

    def expire_due(self, now: float, idle: float, finished_ttl: float) -> list[str]:
        """Mark expired every live game finished more than ``finished_ttl`` seconds
        before ``now``, or without a move for more than ``idle`` seconds; their ids.

        Their rows and moves stay (the store is the record of every game played);
        they no longer count as live, also after a restart.
        """
        with self._lock:
            rows = self.db.execute(
                "SELECT id, finished IS NOT NULL AND finished < ? FROM games "
                "WHERE expired IS NULL AND ((finished IS NOT NULL AND finished < ?) "
                "OR coalesce(updated, created) < ?)",
                [now - finished_ttl, now - finished_ttl, now - idle],
            ).fetchall()
            for gid, done in rows:
                self.mark_expired(gid, now, "finished" if done else "idle")
        return [r[0] for r in rows]

    def mark_expired(self, gid: str, now: float, why: str) -> None:
        """Expire one game (``why``: finished, idle, deleted); committed on return."""
        with self._lock:
            self.db.execute(
                "UPDATE games SET expired = ?, expired_why = ? WHERE id = ? AND expired IS NULL",
                [now, why, gid],
            )
            self._wrote()

    def game_ids(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY created")]
