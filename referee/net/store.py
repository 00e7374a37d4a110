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

:meth:`GameStore.record_move` writes the move row and the game's new state in one
transaction and returns only after it is committed, so a move the server answered
survives ``kill -9`` of the server. The database runs in WAL mode; with
``sync="normal"`` (the default) a commit is in the operating system's hands when
it returns — safe from a crash of the server, not from a power cut, and about 30
times faster than ``sync="full"``, which waits for the disk (``fsync``) on every
move.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from ..errors import UsageError


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
}


class GameStore:
    """The server's games in SQLite; one connection, used from one thread at a time.

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
        conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            self._refuse_foreign(conn)  # before anything is written to the file
            conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise UsageError(f"--db {self.path}: not a game database ({exc})") from None
        except UsageError:
            conn.close()
            raise
        conn.execute(f"PRAGMA synchronous={sync.upper()}")
        conn.execute("PRAGMA busy_timeout=5000")
        self.db = sqlite_utils.Database(conn)
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
        self.db.conn.close()

    # ------------------------------------------------------------------ writing
    def add_game(self, rec: GameRecord) -> None:
        """Store a new game (committed on return)."""
        now = time.time()
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
            }
        )

    def record_move(
        self,
        game: str,
        ply: int,
        player: str,
        move: str,
        events: list[dict[str, Any]],
        state: dict[str, Any],
        to_move: str | None,
        outcome: dict[str, Any] | None,
    ) -> None:
        """Append move ``ply`` of ``game`` and its new state, in one committed transaction.

        Raises
        ------
        sqlite3.IntegrityError
            ``ply`` is already recorded (nothing is written).
        """
        now = time.time()
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute(
                "INSERT INTO moves (game, ply, player, move, events, at) VALUES (?, ?, ?, ?, ?, ?)",
                (game, ply, player, move, _dump(events), now),
            )
            conn.execute(
                "UPDATE games SET state = ?, ply = ?, to_move = ?, outcome = ?, updated = ?, "
                "finished = ? WHERE id = ?",
                (
                    _dump(state),
                    ply,
                    to_move,
                    None if outcome is None else _dump(outcome),
                    now,
                    None if outcome is None else now,
                    game,
                ),
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # ------------------------------------------------------------------ reading
    def game(self, gid: str) -> GameRecord | None:
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
        )

    def moves(self, gid: str) -> Iterator[dict[str, Any]]:
        """The accepted moves of ``gid`` in order: ``{"ply", "player", "move", "events"}``."""
        for r in self.db.query(
            "SELECT ply, player, move, events FROM moves WHERE game = ? ORDER BY ply", [gid]
        ):
            yield {
                "ply": r["ply"],
                "player": r["player"],
                "move": r["move"],
                "events": json.loads(r["events"]),
            }

    def count_games(self) -> int:
        """Every game the store holds, expired ones included."""
        return int(self.db.execute("SELECT count(*) FROM games").fetchone()[0])

    def count_live(self, creator: str | None = None) -> int:
        """Games not expired (made by ``creator``, when given)."""
        if creator is None:
            row = self.db.execute("SELECT count(*) FROM games WHERE expired IS NULL").fetchone()
        else:
            row = self.db.execute(
                "SELECT count(*) FROM games WHERE expired IS NULL AND creator = ?", [creator]
            ).fetchone()
        return int(row[0])

    def expire_due(self, now: float, idle: float, finished_ttl: float) -> list[str]:
        """Mark expired every live game finished more than ``finished_ttl`` seconds
        before ``now``, or without a move for more than ``idle`` seconds; their ids.

        Their rows and moves stay (the store is the record of every game played);
        they no longer count as live, also after a restart.
        """
        rows = self.db.execute(
            "SELECT id, finished IS NOT NULL AND finished < ? FROM games WHERE expired IS NULL "
            "AND ((finished IS NOT NULL AND finished < ?) OR coalesce(updated, created) < ?)",
            [now - finished_ttl, now - finished_ttl, now - idle],
        ).fetchall()
        for gid, done in rows:
            self.mark_expired(gid, now, "finished" if done else "idle")
        return [r[0] for r in rows]

    def mark_expired(self, gid: str, now: float, why: str) -> None:
        """Expire one game (``why``: finished, idle, deleted); committed on return."""
        self.db.execute(
            "UPDATE games SET expired = ?, expired_why = ? WHERE id = ? AND expired IS NULL",
            [now, why, gid],
        )

    def game_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY created")]
