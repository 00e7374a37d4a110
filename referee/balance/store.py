"""The results of balance studies in one SQLite file, one row per finished game.

A *study* is everything that decides a game's result except its seed: rules,
board (by hash), players, options, bots and the move limit. Its key is a hash of
that description, so re-running the same command finds its finished games and
plays only the missing seeds; changing any part of it starts another study in the
same file. Each game is committed as it finishes, so an interrupted run keeps what
it finished.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..safeio import check_regular_file, sqlite_readonly_uri

_SCHEMA = """
CREATE TABLE IF NOT EXISTS studies (
    study TEXT PRIMARY KEY,
    description TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    study TEXT NOT NULL,
    seed INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (study, seed)
);
"""


#: the columns of each table of a results database
_COLUMNS = {"studies": ["study", "description"], "games": ["study", "seed", "record"]}


def _check_existing(path: str, shared: tuple[str, ...] = ()) -> None:
    """Refuse, before anything is written, a ``--db`` that is something else: not a
    regular file, not SQLite, or a SQLite file with other tables (a project file:
    the results would have gone into it). Tables whose names start with one of
    ``shared`` belong to the caller, which keeps its own data in the same file."""
    if not os.path.lexists(path):
        return
    st = check_regular_file(path, UsageError)
    if st.st_size == 0:
        return
    with open(path, "rb") as fh:
        if fh.read(16) != b"SQLite format 3\x00":
            raise UsageError(f"{path}: not a results database (not an SQLite file)")
    try:
        conn = sqlite3.connect(sqlite_readonly_uri(path), uri=True)
        try:
            tables = {
                name: [c[1] for c in conn.execute(f"PRAGMA table_info({name!r})")]
                for (name,) in conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND name NOT LIKE 'sqlite_%'"
                )
            }
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise UsageError(f"{path}: not a results database ({exc})") from None
    tables = {name: cols for name, cols in tables.items() if not name.startswith(shared or "\0")}
    if any(_COLUMNS.get(name) != cols for name, cols in tables.items()):
        raise UsageError(
            f"{path}: not a results database (it holds tables {', '.join(sorted(tables))}); "
            "give --db a file of its own"
        )


def study_key(description: dict[str, Any]) -> str:
    """A short stable hash of a study's description (canonical JSON)."""
    text = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class ResultStore:
    """Finished games by study and seed (``sqlite3``, WAL, one commit per game).

    Parameters
    ----------
    path : str or Path
        The SQLite file; created when missing. ``":memory:"`` for a throw-away store.
    shared : tuple of str
        Prefixes of the tables a caller keeps in the same file (``referee design``
        keeps its candidates beside the games of its finalists); other tables than
        a results database's are refused.
    """

    def __init__(self, path: str | Path, *, shared: tuple[str, ...] = ()) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            _check_existing(self.path, shared)
        try:
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise UsageError(f"{self.path}: not a results database ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def begin(self, description: dict[str, Any]) -> str:
        """Register a study (idempotent) and return its key."""
        key = study_key(description)
        with self.db:
            self.db.execute(
                "INSERT OR IGNORE INTO studies (study, description) VALUES (?, ?)",
                (key, json.dumps(description, sort_keys=True)),
            )
        return key

    def done(self, study: str) -> set[int]:
        """Seeds of the study's finished games."""
        rows = self.db.execute("SELECT seed FROM games WHERE study = ?", (study,))
        return {int(r[0]) for r in rows}

    def add(self, study: str, record: dict[str, Any]) -> None:
        """Store one finished game (committed at once)."""
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO games (study, seed, record) VALUES (?, ?, ?)",
                (study, int(record["seed"]), json.dumps(record, sort_keys=True)),
            )

    def records(self, study: str, seeds: Iterable[int] | None = None) -> list[dict[str, Any]]:
        """The study's records by seed (only ``seeds`` when given)."""
        rows = self.db.execute(
            "SELECT seed, record FROM games WHERE study = ? ORDER BY seed", (study,)
        )
        want = None if seeds is None else set(seeds)
        return [json.loads(r[1]) for r in rows if want is None or int(r[0]) in want]
