"""The games a network server holds: a :class:`Hall`, the HTTP side of a session.

:class:`Hall` is a :class:`~referee.session.Session` (the one dispatcher the stdio
server uses too) whose games have an owner and a token per seat, whose projects are
named as ``GET /api/projects`` lists them, and which keeps every game in the
:class:`~referee.net.store.GameStore`: a move is committed there before it is
answered, a game not held in memory (after a restart) is loaded back from it, and
an expired game stays there as the record of the game while it leaves memory and
the live-games limit.

Everything a seat or a spectator is shown goes through the game's own
``view(player)`` and ``events_for(events, viewer)``: the server never decides what
is secret, the rules module does (and the kit's ``Game.view`` keeps the random
generator out of every view). No answer carries the seed: it stays in the store.

Expiry (wall clock, so it holds across restarts): a game without a move for
``idle_timeout`` seconds, and a finished game ``finished_ttl`` seconds after its
last move, expire at the next request after that time; an owner's ``DELETE``
expires a game at once.

All methods are synchronous and are called from the server's event loop only (the
slow part, compiling a board, runs in a worker thread first: see
:meth:`Hall.prepare`), so one move is checked, applied, committed and pushed before
the next request runs.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import os
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ..envelopes import (
    ENVELOPE,
    ENVELOPE_VERSION,
    Boards,
    exit_with_parent,
    guard_state,
    project_meta,
)
from ..errors import BoardwrightError, RequestError
from ..games import get_game
from ..session import Caller, Held, Session, token_hash
from .limits import Limits, RateLimiter
from .store import GameRecord, GameStore

Event = dict[str, Any]


class Listener:
    """One WebSocket's queue of messages, for the seat ``player`` (``None``: spectator)."""

    def __init__(self, player: str | None, maxsize: int = 256) -> None:
        self.player = player
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize)
        self.overflowed = False

    def put(self, message: dict[str, Any] | None) -> None:
        """Queue a message; a listener too slow to keep up is closed (``None``)."""
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


class Hall(Session):
    """Every game of a network server, the projects it may open, and the limits.

    Parameters
    ----------
    projects : Path or mapping of str to Path
        A folder whose entries (project folders, ``.bwproj`` and ``.json`` files) are
        the projects, by name; or an explicit ``{name: path}`` table (the editor's
        open board).
    store : GameStore
    limits : Limits
    admin_token : str, optional
        The token that creates games (and may delete or read any game whole).
    open_creation : bool
        Anyone may create games, ``limits.games_per_client`` live ones per address.
    clock : callable
        Wall-clock seconds (expiry outlives a restart).
    """

    def __init__(
        self,
        projects: Path | Mapping[str, Path],
        store: GameStore,
        limits: Limits,
        *,
        admin_token: str | None = None,
        open_creation: bool = False,
        clock: Any = time.time,
    ) -> None:
        fixed = dict(projects) if isinstance(projects, Mapping) else None
        root = Path(projects) if not isinstance(projects, Mapping) else None
        super().__init__(
            Boards(root),
            max_games=limits.max_games,
            idle_timeout=limits.idle_timeout,
            finished_ttl=limits.finished_ttl,
            by_name=True,
            projects=fixed,
            envelopes=False,
            seats=True,
            admin_token=admin_token,
            open_creation=open_creation,
            per_client=limits.games_per_client,
            clock=clock,
        )
        self.store = store
        self.limits = limits
        self.rate = RateLimiter(limits.moves_per_second)
        self.listeners: dict[str, set[Listener]] = {}
        self._swept = -math.inf
        self._pool: ProcessPoolExecutor | None = None
        self.read_meta = self._read_meta_elsewhere

    # ------------------------------------------------------------------ the worker
    def _read_meta_elsewhere(self, path: str) -> dict[str, Any]:
        """:func:`~referee.envelopes.project_meta` in the worker process (started on
        first use; ``spawn``, so it shares nothing with the server's threads)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
        try:
            return self._pool.submit(project_meta, path).result()
        except Exception as exc:  # the worker died (killed, out of memory): a new one next time
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            return {"error": f"the project reader failed ({type(exc).__name__})"}

    def shutdown(self) -> None:
        """Stop the worker process (the server calls it when it stops)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    # ------------------------------------------------------------------ the store
    def active_games(self, creator: str | None = None) -> int:
        return self.store.count_live(creator)

    def keep(self, held: Held) -> None:
        g = held.game
        new = held.env["log"]["new"]
        outcome = None if g.outcome is None else g.outcome.to_json()
        self.store.add_game(
            GameRecord(
                id=held.id,
                rules=held.rules,
                project=held.project,
                board_hash=held.env["board_hash"],
                seats=list(g.players),
                token_hashes=dict(held.seats),
                seed=int(new.get("seed", 0)),
                options=dict(new.get("options") or {}),
                position=new.get("position"),
                setup_events=list(new.get("events", [])),
                state=held.env["state"],
                ply=0,
                to_move=None if outcome is not None else g.to_move,
                outcome=outcome,
                owner=held.owner,
                creator=held.creator,
            )
        )
        super().keep(held)

    def lookup(self, gid: Any) -> Held:
        """The game ``gid``, loaded from the store when the server does not hold it."""
        held = self.games.get(gid) if isinstance(gid, str) else None
        if held is not None:
            return held
        rec = self._record(gid)
        compiled = self.boards.by_hash(rec.board_hash) or self.board(rec.project)
        if compiled.hash != rec.board_hash:
            raise RequestError(
                f"game {gid} was made for another version of project {rec.project!r}",
                status=409,
                code="wrong_board",
            )
        with guard_state(f"game {gid}"):
            game = get_game(rec.rules).from_json(rec.state, compiled)
        held = Held(
            rec.id,
            game,
            self._env(rec),
            ply=rec.ply,
            used=rec.updated,
            finished=rec.finished,
            owner=rec.owner,
            seats=dict(rec.token_hashes),
            creator=rec.creator,
        )
        self.games[rec.id] = held
        return held

    def _record(self, gid: Any) -> GameRecord:
        rec = self.store.game(gid) if isinstance(gid, str) and len(gid) < 64 else None
        if rec is None:
            shown = gid[:64] if isinstance(gid, str) else gid
            raise RequestError(f"no game {shown!r} on this server", status=404, code="unknown_game")
        if rec.expired is not None:
            raise RequestError(
                f"game {rec.id} has expired ({rec.expired_why}); its record stays in the "
                "server's store",
                status=410,
                code="game_expired",
            )
        return rec

    @staticmethod
    def _env(rec: GameRecord) -> dict[str, Any]:
        new: dict[str, Any] = {
            "players": len(rec.seats),
            "seed": rec.seed,
            "options": dict(rec.options),
            "events": rec.setup_events,
        }
        if rec.position is not None:
            new = {"players": len(rec.seats), "position": rec.position, "events": []}
        return {
            "format": ENVELOPE,
            "version": ENVELOPE_VERSION,
            "rules": rec.rules,
            "project": rec.project,
            "board_hash": rec.board_hash,
            "state": rec.state,
            "log": {"new": new, "moves": []},
        }

    def committed(self, held: Held, player: str, move: str, events: list[Event]) -> None:
        g = held.game
        outcome = None if g.outcome is None else g.outcome.to_json()
        state = g.to_json()
        self.store.record_move(
            held.id,
            held.ply + 1,
            player,
            move,
            events,
            state,
            None if outcome is not None else g.to_move,
            outcome,
        )
        held.env["state"] = state

    def restore(self, held: Held) -> None:
        rec = self.store.game(held.id)
        if rec is not None:
            held.game = get_game(rec.rules).from_json(rec.state, held.game.compiled)
            held.ply = rec.ply

    def moves_of(self, held: Held) -> list[dict[str, Any]]:
        return list(self.store.moves(held.id))

    def whole(self, held: Held) -> dict[str, Any]:
        env = {**held.env, "state": held.game.to_json()}
        env["log"] = {
            "new": held.env["log"]["new"],
            "moves": [{"move": m["move"], "events": m["events"]} for m in self.moves_of(held)],
        }
        return env

    def touch(self, held: Held, caller: Caller) -> None:
        """Only moves keep a network game alive (a spectator cannot hold it open)."""

    # ------------------------------------------------------------------ expiry
    def expire(self) -> list[str]:
        """Expire the games past their time (at most once a second): see the module."""
        now = self.clock()
        if now - self._swept < 1.0:
            return []
        self._swept = now
        gone = self.store.expire_due(now, self.idle_timeout, self.limits.finished_ttl)
        for gid in gone:
            self._drop(gid, "expired")
        return gone

    def close(self, gid: str, reason: str) -> None:
        self.store.mark_expired(gid, self.clock(), reason)
        self._drop(gid, reason)

    def _drop(self, gid: str, reason: str) -> None:
        self.games.pop(gid, None)
        for lst in self.listeners.pop(gid, set()):
            lst.put({"type": "closed", "game": gid, "reason": reason})
            lst.put(None)

    def sweep_now(self) -> list[str]:
        """Expire what is due now, whenever the last sweep ran (tests, shutdown)."""
        self._swept = -math.inf
        return self.expire()

    # ------------------------------------------------------------------ pushes
    def pushed(self, held: Held, player: str, status: dict[str, Any], events: list[Event]) -> None:
        for lst in list(self.listeners.get(held.id, ())):
            lst.put(
                {
                    "type": "move",
                    "game": held.id,
                    "player": player,
                    **status,
                    "events": held.game.events_for(events, lst.player),
                }
            )

    def listen(self, held: Held, lst: Listener) -> None:
        self.listeners.setdefault(held.id, set()).add(lst)

    def unlisten(self, gid: str, lst: Listener) -> None:
        got = self.listeners.get(gid)
        if got is not None:
            got.discard(lst)
            if not got:
                del self.listeners[gid]

    # ------------------------------------------------------------------ off the loop
    async def prepare(self, op: str, fields: Mapping[str, Any]) -> None:
        """Compile, in a worker thread, the board a request will need, so that the
        event loop (and every other client) never waits for a compile.

        Errors are left for the request itself to report.
        """
        try:
            if op == "new":
                path = self.project_path(fields.get("project"))
            elif isinstance(fields.get("game"), str) and fields["game"] not in self.games:
                rec = self._record(fields["game"])
                if self.boards.by_hash(rec.board_hash) is not None:
                    return
                path = self.project_path(rec.project)
            else:
                return
            await asyncio.to_thread(self.boards.get, path)
        except BoardwrightError:
            return

    def check_rate(self, token: str) -> None:
        wait = self.rate.take(token_hash(token))
        if wait > 0:
            raise RequestError(
                f"more than {self.limits.moves_per_second:g} moves per second from this seat",
                status=429,
                code="rate_limited",
                details={"retry_after": round(wait, 3)},
                headers={"Retry-After": str(max(1, math.ceil(wait)))},
            )
