"""The games a network server holds: a :class:`Hall`, the HTTP side of a session.

:class:`Hall` is a :class:`~referee.session.Session` (the one dispatcher the stdio
server uses too) whose games have an owner and a token per seat, whose projects are
named as ``GET /api/projects`` lists them, and which keeps every game in the
:class:`~referee.net.store.GameStore`: a move is committed there before it is
answered, a game not held in memory (after a restart) is loaded back from it, and
an expired game stays there as the record of the game while it leaves memory and
the live-games limit.

A move is answered — and pushed to the game's WebSockets — only once the
transaction holding it is committed. With ``group_commit`` (the default when the
store waits for the disk) moves are committed in groups by a writer thread
(:class:`Committer`): a move is applied in memory and queued, and every move
accepted while one transaction commits goes into the next; otherwise each move is
committed on the event loop before its answer. Memory holds the games in play: a game
leaves it when its last move is stored (and comes back from the store when asked
for). Until then every other request on that
game waits (:meth:`Hall.settle`), so nobody sees a move that a crash could still
take back. The store keeps the game's whole state every :data:`SNAPSHOT_EVERY`
moves and at its end; the moves logged after the last snapshot are replayed when
the game is loaded again (:meth:`Hall.load`).

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
import contextlib
import json
import logging
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import orjson

from ..compiler import CompiledBoard
from ..envelopes import (
    ENVELOPE,
    ENVELOPE_VERSION,
    AnyGame,
    Boards,
    exit_with_parent,
    guard_state,
    project_meta,
)
from ..errors import BoardwrightError, RequestError, StateError
from ..games import get_game
from ..session import Caller, Session, token_hash
from ..shown import Held
from .limits import Limits, RateLimiter
from .store import GameRecord, GameStore, MoveRecord

Event = dict[str, Any]
log = logging.getLogger("referee.net")

#: the store keeps a game's whole state every this many moves (and at its end)
SNAPSHOT_EVERY = 32
#: at most this many moves in one transaction
MAX_GROUP = 512


class Committer:
    """The writer thread of a hall: group commit.

    :meth:`submit` queues a move and answers a future on the caller's event loop;
    the thread writes every move queued while the previous transaction committed in
    one transaction (:meth:`GameStore.record_moves`), then settles their futures
    (``None``, or the exception that kept a move out of the store: a group that
    fails is written again move by move, so one bad move fails alone).
    """

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._cv = threading.Condition()
        self._queue: list[tuple[MoveRecord, asyncio.Future[None]]] = []
        self._thread: threading.Thread | None = None
        self._closed = False
        #: transactions and moves written (the bench reports the mean group)
        self.groups = 0
        self.moves = 0

    def submit(self, rec: MoveRecord, loop: asyncio.AbstractEventLoop) -> asyncio.Future[None]:
        fut: asyncio.Future[None] = loop.create_future()
        with self._cv:
            if self._closed:
                raise RequestError("the server is stopping", status=503, code="server_stopping")
            self._queue.append((rec, fut))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="referee-net-writer", daemon=True
                )
                self._thread.start()
            self._cv.notify()
        return fut

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._queue and not self._closed:
                    self._cv.wait()
                if not self._queue:
                    return
                batch = self._queue[:MAX_GROUP]
                del self._queue[:MAX_GROUP]
            results = self._write([rec for rec, _ in batch])
            self.groups += 1
            self.moves += len(batch)
            by_loop: dict[asyncio.AbstractEventLoop, list[Any]] = {}
            for (_, fut), res in zip(batch, results, strict=True):
                by_loop.setdefault(fut.get_loop(), []).append((fut, res))
            for loop, done in by_loop.items():
                # a closed loop: nobody waits for these answers any more
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle, done)

    def _write(self, batch: list[MoveRecord]) -> list[BaseException | None]:
        try:
            self.store.record_moves(batch)
            return [None] * len(batch)
        except Exception:
            if len(batch) == 1:
                return [_caught(self.store.record_moves, batch)]
            return [_caught(self.store.record_moves, [rec]) for rec in batch]

    def close(self) -> None:
        """Write what is queued, then stop the thread."""
        with self._cv:
            self._closed = True
            self._cv.notify()
            thread = self._thread
        if thread is not None:
            thread.join(30)


def _caught(write: Callable[[list[MoveRecord]], None], batch: list[MoveRecord]) -> Exception | None:
    try:
        write(batch)
    except Exception as exc:
        return exc
    return None


def _deliver(sends: list[tuple[Listener, Push]]) -> None:
    for lst, push in sends:
        lst.put(push)


def _settle(done: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for fut, res in done:
        if fut.done():
            continue
        if res is None:
            fut.set_result(None)
        else:
            fut.set_exception(res)


def dumps(data: Any) -> bytes:
    """An answer as UTF-8 JSON (compact): the server's one JSON writer, for its HTTP
    answers and its WebSocket messages.

    orjson writes it (a fifth of the time of :func:`json.dumps` on a view); what orjson
    refuses goes through the standard library as before: a string that cannot be UTF-8
    (a lone surrogate a client sent) is written escaped instead of failing the answer,
    an integer beyond 64 bits is written exactly, a key that is not a string becomes
    one. A float that is not finite is written ``null`` (no JSON reader takes
    ``NaN``).

    Notes
    -----
    O(size of ``data``).
    """
    try:
        return orjson.dumps(data)
    except (orjson.JSONEncodeError, TypeError):
        pass
    try:
        return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode(
            "utf-8"
        )
    except UnicodeEncodeError:
        return json.dumps(data, allow_nan=False, separators=(",", ":")).encode("ascii")


class Push:
    """A message to WebSockets, serialised once for all who get it: ``text`` is its
    JSON; ``closing`` the reason the socket closes after it (``None``: stays open)."""

    __slots__ = ("closing", "text")

    def __init__(self, message: dict[str, Any]) -> None:
        self.text = dumps(message).decode()
        self.closing: str | None = (
            str(message.get("reason")) if message.get("type") == "closed" else None
        )


class Listener:
    """One WebSocket's queue of messages, for the seat ``player`` (``None``: spectator)."""

    def __init__(self, player: str | None, maxsize: int = 256) -> None:
        self.player = player
        self.queue: asyncio.Queue[Push | None] = asyncio.Queue(maxsize)
        self.overflowed = False

    def put(self, message: Push | None) -> None:
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
    snapshot_every : int
        The store keeps the whole state every this many moves (and at a game's end);
        loading a game replays the moves since.
    group_commit : bool, optional
        Commit moves in groups on the writer thread (:class:`Committer`) rather than
        each in its own transaction on the event loop before its answer. By default
        only when the store waits for the disk (``sync="full"``): there one ``fsync``
        then serves a whole group (2.5 times the moves per second under 200 busy
        clients); with ``sync="normal"`` a commit costs less than the extra turn of
        the event loop the hand-over to the thread takes (p50 0.75 times).
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
        snapshot_every: int = SNAPSHOT_EVERY,
        group_commit: bool | None = None,
    ) -> None:
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be at least 1, not {snapshot_every}")
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
        self.snapshot_every = snapshot_every
        if group_commit is None:
            group_commit = getattr(store, "sync", "normal") == "full"
        self.group_commit = group_commit
        self.writer = Committer(store)
        #: game -> the commit of its last move, while it is under way
        self.pending: dict[str, asyncio.Future[None]] = {}
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
        """Write the moves still queued, stop the writer thread and the worker
        process (the server calls it when it stops)."""
        self.writer.close()
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
        game = self.load(rec, compiled)
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

    def load(self, rec: GameRecord, compiled: CompiledBoard) -> AnyGame:
        """The game of ``rec`` as it stands: its snapshot, then the moves logged
        after it, replayed (each must give the events the log holds).

        Raises
        ------
        StateError
            The snapshot does not load, a logged move is missing or refused, or its
            events differ from the log's (the rules changed under the game).
        """
        where = f"game {rec.id}"
        with guard_state(where):
            game: AnyGame = get_game(rec.rules).from_json(rec.state, compiled)
            ply = rec.snapshot_ply
            for m in self.store.moves(rec.id, after=ply) if ply < rec.ply else ():
                if m["ply"] != ply + 1 or m["ply"] > rec.ply:
                    break
                events = game.push(game.parse_move(m["move"]))
                if json.loads(json.dumps(events)) != m["events"]:
                    raise StateError(
                        f"replaying move {m['ply']} ({m['move']!r}) from the snapshot at ply "
                        f"{rec.snapshot_ply} gave other events than the log holds",
                        code="replay_diverged",
                        location=where,
                    )
                ply += 1
        if ply != rec.ply:
            raise StateError(
                f"the log holds moves up to ply {ply}, the game is at ply {rec.ply}",
                location=where,
            )
        return game

    def move_record(self, held: Held, player: str, move: str, events: list[Event]) -> MoveRecord:
        """The store's row for the move just played in ``held``: the whole state with it
        every :attr:`snapshot_every` moves and at the game's end, else none."""
        g = held.game
        outcome = None if g.outcome is None else g.outcome.to_json()
        ply = held.ply + 1
        state = g.to_json() if outcome is not None or ply % self.snapshot_every == 0 else None
        to_move = None if outcome is not None else g.to_move
        return MoveRecord(held.id, ply, player, move, events, state, to_move, outcome)

    def committed(self, held: Held, player: str, move: str, events: list[Event]) -> None:
        """Commit the move now, or with :attr:`group_commit` queue it for the next
        group (off an event loop it is committed now); the store gets the whole state
        every :attr:`snapshot_every` moves and at the game's end."""
        rec = self.move_record(held, player, move, events)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or not self.group_commit:
            self.store.record_moves([rec])
            if rec.outcome is not None:
                self._unload(held)
        else:
            fut = self.writer.submit(rec, loop)
            self.pending[held.id] = fut
            fut.add_done_callback(lambda f: self._settled(held, f))
        if rec.state is not None:
            held.env["state"] = rec.state

    def _settled(self, held: Held, fut: asyncio.Future[None]) -> None:
        """The commit of ``held``'s last move returned: on failure, the game goes
        back to what the store holds (the move did not happen)."""
        if self.pending.get(held.id) is fut:
            del self.pending[held.id]
        exc = fut.exception() if not fut.cancelled() else asyncio.CancelledError()
        if exc is None and held.game.outcome is not None:
            self._unload(held)
        if exc is not None:
            log.error(
                "game %s: a move could not be stored (%s: %s)", held.id, type(exc).__name__, exc
            )
            try:
                self.restore(held)
            except Exception:
                log.exception("game %s: cannot be loaded back; it leaves memory", held.id)
                self.games.pop(held.id, None)

    def _unload(self, held: Held) -> None:
        """A finished game leaves memory once its last move is stored (whole: the
        last move carries a snapshot); asked for again, it is loaded back. Memory
        holds the games in play, not every game finished within ``finished_ttl``."""
        if self.games.get(held.id) is held:
            del self.games[held.id]

    async def settle(self, gid: Any) -> None:
        """Wait until no move of game ``gid`` is being committed.

        Raises
        ------
        RequestError
            503 ``store_failed``: the last move could not be stored (the game is back
            at its last stored move).
        """
        if not isinstance(gid, str):
            return
        while (fut := self.pending.get(gid)) is not None:
            try:
                await asyncio.shield(fut)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                held = self.games.get(gid)
                raise RequestError(
                    f"the move was not stored ({type(exc).__name__}); the game is at ply "
                    f"{held.ply if held is not None else '?'}",
                    status=503,
                    code="store_failed",
                ) from None

    def restore(self, held: Held) -> None:
        rec = self.store.game(held.id)
        if rec is not None:
            held.game = self.load(rec, held.game.compiled)
            held.ply = rec.ply
            held.finished = rec.finished

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
        got = self.listeners.pop(gid, set())
        if got:
            push = Push({"type": "closed", "game": gid, "reason": reason})
            for lst in got:
                lst.put(push)
                lst.put(None)

    def sweep_now(self) -> list[str]:
        """Expire what is due now, whenever the last sweep ran (tests, shutdown)."""
        self._swept = -math.inf
        return self.expire()

    # ------------------------------------------------------------------ pushes
    def pushed(self, held: Held, player: str, status: dict[str, Any], events: list[Event]) -> None:
        """Tell the game's WebSockets of the move, once it is committed: one message
        per viewer (each seat, the spectators), serialised once for all its sockets."""
        if not self.listeners.get(held.id):
            return
        game = held.game
        by_viewer: dict[str | None, Push] = {}
        sends: list[tuple[Listener, Push]] = []
        for lst in self.listeners[held.id]:
            push = by_viewer.get(lst.player)
            if push is None:
                push = by_viewer[lst.player] = Push(
                    {
                        "type": "move",
                        "game": held.id,
                        "player": player,
                        **status,
                        "events": game.events_for(events, lst.player),
                    }
                )
            sends.append((lst, push))
        fut = self.pending.get(held.id)
        if fut is None:
            _deliver(sends)
        else:
            fut.add_done_callback(
                lambda f: None if f.cancelled() or f.exception() is not None else _deliver(sends)
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
