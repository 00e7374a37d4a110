"""Every evaluated candidate in one SQLite file (sqlite-utils), so a re-run continues.

A **space** is what decides a layout's measures apart from the layout: the start
board (by hash) and the census options. Its key is a hash of that description.
``design_candidates`` holds one row per (space, layout): the layout and its
measures, committed as each is measured, so an interrupted run loses at most the
candidate in hand. Weights and constraints are not part of the key: a new objective
on the same board reuses every measured layout. ``design_runs`` records each run.
The balance games of the finalists go to the same file (``referee balance``'s
tables, :mod:`referee.balance.store`).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import sqlite_utils

from ..errors import UsageError
from .measure import Measures
from .space import Layout


def space_key(description: dict[str, Any]) -> str:
    text = json.dumps(description, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


#: the prefix of this store's tables: a design database also holds the balance games
#: of its finalists (:func:`referee.balance.run_study` leaves these tables alone)
SHARED = ("design_",)


class DesignStore:
    """The candidates of design searches (see the module notes)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self.db = sqlite_utils.Database(self.path)
            tables = self.db.table_names()
            if tables and "design_candidates" not in tables:
                # someone else's database (a project is SQLite too): leave it as it is
                self.db.close()
                shown = ", ".join(sorted(tables)[:4]) + (", ..." if len(tables) > 4 else "")
                raise UsageError(
                    f"--db {self.path}: not a design database (it holds the tables {shown}); "
                    "name a new file or one a design search made"
                )
            self.db.execute("PRAGMA journal_mode=WAL")
            if "design_candidates" not in tables:
                self.db.table("design_spaces").create(
                    {"space": str, "description": str}, pk="space", if_not_exists=True
                )
                self.db.table("design_candidates").create(
                    {"space": str, "key": str, "layout": str, "measures": str, "at": float},
                    pk=("space", "key"),
                    if_not_exists=True,
                )
                self.db.table("design_runs").create(
                    {
                        "id": int,
                        "space": str,
                        "seed": int,
                        "objective": str,
                        "budget": str,
                        "steps": int,
                        "evaluated": int,
                        "best": str,
                        "interrupted": int,
                        "at": float,
                    },
                    pk="id",
                    if_not_exists=True,
                )
        except sqlite3.DatabaseError as exc:
            raise UsageError(f"--db {self.path}: not a design database ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> DesignStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def begin(self, description: dict[str, Any]) -> str:
        key = space_key(description)
        self.db.table("design_spaces").upsert(
            {"space": key, "description": json.dumps(description, sort_keys=True)}, pk="space"
        )
        return key

    def get(self, space: str, key: str) -> Measures | None:
        rows = list(
            self.db.query(
                "select measures from design_candidates where space = ? and key = ?",
                [space, key],
            )
        )
        return self._measures(key, rows[0]["measures"]) if rows else None

    def _damaged(self, key: str, exc: Exception) -> UsageError:
        return UsageError(
            f"--db {self.path}: stored candidate {key} is damaged "
            f"({type(exc).__name__}: {str(exc)[:80]}); use another database"
        )

    def _measures(self, key: str, text: Any) -> Measures:
        """A stored candidate's measures; a damaged row is refused in one line."""
        try:
            m = Measures.from_json(json.loads(text))
            if m.steps is not None and not isinstance(m.steps, dict):
                raise TypeError("steps is no mapping")
            if m.worst_tile is not None and not isinstance(m.worst_tile, str):
                raise TypeError("worst_tile is no text")
            return m
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError) as exc:
            raise self._damaged(key, exc) from None

    def _layout(self, key: str, text: Any) -> Layout:
        try:
            return tuple((str(t), int(n)) for t, n in json.loads(text))
        except (ValueError, KeyError, TypeError, OverflowError) as exc:
            raise self._damaged(key, exc) from None

    def put(self, space: str, key: str, layout: Layout, m: Measures) -> None:
        with self.db.conn:
            self.db.table("design_candidates").upsert(
                {
                    "space": space,
                    "key": key,
                    "layout": json.dumps([list(c) for c in layout]),
                    "measures": json.dumps(m.to_json()),
                    "at": time.time(),
                },
                pk=("space", "key"),
            )

    def all(self, space: str) -> list[tuple[str, Layout, Measures]]:
        """Every candidate of the space (key, layout, measures), in key order."""
        out = []
        for r in self.db.query(
            "select key, layout, measures from design_candidates where space = ? order by key",
            [space],
        ):
            layout = self._layout(r["key"], r["layout"])
            out.append((r["key"], layout, self._measures(r["key"], r["measures"])))
        return out

    def count(self, space: str) -> int:
        rows = list(
            self.db.query("select count(*) as n from design_candidates where space = ?", [space])
        )
        return int(rows[0]["n"])

    def last_run(self, space: str) -> dict[str, Any] | None:
        """The last run recorded for ``space`` (its seed, objective, budget, steps, …)."""
        rows = list(
            self.db.query(
                "select * from design_runs where space = ? order by id desc limit 1", [space]
            )
        )
        return dict(rows[0]) if rows else None

    def record_run(self, **row: Any) -> None:
        with self.db.conn:
            self.db.table("design_runs").insert({**row, "at": time.time()}, pk="id")
