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
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import UsageError

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
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
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
