"""A :class:`~referee.net.tables.Hall` that shares its games with other server
processes through PostgreSQL (:mod:`referee.net.pgstore`).

Several ``referee serve --http --db postgresql://...`` processes behind one address
serve the same games: any process answers any seat of any game. What each holds in
memory is only a cache of the store, so:

- before a request on a game it holds, a process asks the store for the game's ply
  (one indexed read); when another process has moved the game on, it loads the
  stored state and tells its own WebSockets of every move it missed, in order. A
  move sent for the very ply the process holds skips that read: the conditional
  write below checks the same thing in the same round trip;
- a move is validated against that state and recorded only if the stored game is
  still at the ply it was validated at (:meth:`PostgresGameStore.record_move`,
  one statement). If another process got there first the move is refused with
  ``409 stale_ply`` and nothing changes; an answered move is committed, so a
  process killed at any moment loses no answered move;
- every recorded move is notified (``LISTEN``/``NOTIFY``): a process holding the
  game with WebSockets open pushes it to them at once (one without keeps its copy
  until a request needs it). Expiries and deletes are notified too: every process
  drops the game from memory and closes its WebSockets.

What stays per process: the per-seat move rate limit (``--moves-per-second``
counts a seat's moves on each process) and the compiled boards (each process
compiles a project once; a game's ``board_hash`` makes sure all use the same).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from ..envelopes import guard_state
from ..session import GAMELESS, LOCAL, Caller
from ..shown import Held
from .limits import Limits
from .pgstore import PostgresGameStore
from .tables import Event, Hall, Listener

log = logging.getLogger("referee.net")


def json_copy(value: Any) -> Any:
    """``value`` as it reads back from the store (tuples become lists)."""
    return json.loads(json.dumps(value))


class SharedHall(Hall):
    """A hall whose games live in PostgreSQL and may move on in other processes.

    Parameters are :class:`~referee.net.tables.Hall`'s, with a
    :class:`~referee.net.pgstore.PostgresGameStore` as the store.
    """

    def __init__(
        self,
        projects: Path | Mapping[str, Path],
        store: PostgresGameStore,
        limits: Limits,
        **kw: Any,
    ) -> None:
        super().__init__(projects, cast(Any, store), limits, **kw)
        self.pg = store
        self._listening = False

    # ------------------------------------------------------------------ freshness
    def dispatch(
        self, op: Any, fields: Mapping[str, Any], caller: Caller = LOCAL
    ) -> dict[str, Any]:
        if not self._listening and op not in GAMELESS:
            self._listen()
        gid = fields.get("game")
        if op not in GAMELESS and isinstance(gid, str) and gid in self.games:
            if not (op == "play" and fields.get("expect_ply") == self.games[gid].ply):
                self.refresh(gid)
            # else a move meant for the ply this process holds: validated against it,
            # and written only if the store is still there (one round trip, not two);
            # if another process moved on, the move is stale for its sender too
        return super().dispatch(op, fields, caller)

    def refresh(self, gid: str) -> None:
        """Bring the held game ``gid`` up to the store (one read): drop it if it
        expired elsewhere; if another process moved it on, play the moves it missed
        on it (the referee is deterministic: a fraction of loading the stored
        state) and push each to this process's WebSockets of the game."""
        held = self.games.get(gid)
        if held is None:
            return
        got = self.pg.since(gid, held.ply)
        if got is None:
            self.games.pop(gid, None)
            return
        (ply, expired, why), missed = got
        if expired is not None:
            self._drop(gid, why or "expired")
        elif ply != held.ply:
            self._replay(held, missed, ply)

    def _replay(self, held: Held, missed: list[dict[str, Any]], ply: int) -> None:
        if [m["ply"] for m in missed] == list(range(held.ply + 1, ply + 1)):
            try:
                with guard_state(f"game {held.id}"):
                    for m in missed:
                        g = held.game
                        g.push(g.parse_move(m["move"]))
                        outcome = None if g.outcome is None else json_copy(g.outcome.to_json())
                        to_move = None if outcome is not None else g.to_move
                        if (to_move, outcome) != (m["to_move"], m["outcome"]):
                            raise ValueError(f"move {m['ply']} replays differently")
                        held.ply = m["ply"]
                        self._tell(held, m)
            except Exception as exc:
                log.warning("game %s: reloading its stored state (%s)", held.id, exc)
            else:
                if held.game.outcome is not None and held.finished is None:
                    held.finished = self.clock()
                return
        self.catch_up(held)  # from the last move replayed (held.ply)

    def _tell(self, held: Held, m: dict[str, Any]) -> None:
        if held.id in self.listeners:
            status = {"ply": m["ply"], "to_move": m["to_move"], "outcome": m["outcome"]}
            self.pushed(held, m["player"], status, m["events"])

    def catch_up(self, held: Held) -> None:
        """Load ``held``'s stored state and push each move since ``held.ply`` to this
        process's WebSockets of the game (also after a failed move: the state is the
        stored one whatever memory held)."""
        rec = self.pg.game(held.id)
        if rec is None or rec.expired is not None:
            self._drop(held.id, "expired" if rec is None else rec.expired_why or "expired")
            return
        missed = self.pg.moves_between(held.id, held.ply, rec.ply)
        held.game = self.load(rec, held.game.compiled)  # its snapshot and the moves after
        held.env["state"] = rec.state
        held.ply = rec.ply
        held.finished = rec.finished
        for m in missed:
            self._tell(held, m)

    # ------------------------------------------------------------------ moves
    def committed(self, held: Held, player: str, move: str, events: list[Event]) -> None:
        """Record the move, only if no other process has moved the game since it was
        validated (else 409 ``stale_ply`` and :meth:`restore` reloads); the whole
        state goes with it every :attr:`snapshot_every` moves and at the game's end,
        as in :class:`~referee.net.tables.Hall`."""
        rec = self.move_record(held, player, move, events)
        self.pg.record_move(
            rec.game, rec.ply, rec.player, rec.move, rec.events, rec.state, rec.to_move, rec.outcome
        )
        if rec.state is not None:
            held.env["state"] = rec.state

    def restore(self, held: Held) -> None:
        self.catch_up(held)

    # ------------------------------------------------------------------ pushes
    def _listen(self) -> None:
        """Start listening to the other processes' notifications (on the server's
        event loop, at its first request on a game; without a loop — the Python
        API, tests — every request still checks the store)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return

        def notified(payload: str | None) -> None:
            if payload is not None and payload.partition(" ")[0] not in self.games:
                return  # not held here: whenever it is loaded, it is loaded as stored
            # a closed loop (the server is stopping) takes no more calls
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.notified, payload)

        self.pg.listen(notified)
        self._listening = True

    def listen(self, held: Held, lst: Listener) -> None:
        """Watch ``held`` for ``lst``, then catch up: a move recorded elsewhere since
        ``held`` was shown reaches ``lst`` too."""
        if not self._listening:
            self._listen()
        super().listen(held, lst)
        self.refresh(held.id)

    def notified(self, payload: str | None) -> None:
        """A notification of another process (or our own): ``"<game> <ply>"``,
        ``"<game> x<why>"``, or ``None`` after the listening connection was lost."""
        try:
            if payload is None:
                for gid in list(self.listeners):
                    self.refresh(gid)
                return
            gid, _, what = payload.partition(" ")
            held = self.games.get(gid)
            if held is None:
                return
            if what.startswith("x"):
                self._drop(gid, what[1:] or "expired")
            elif what.isdigit() and int(what) > held.ply and gid in self.listeners:
                self.refresh(gid)  # nobody watching here: the next request catches up
        except Exception:
            log.exception("a notification from PostgreSQL failed: %r", payload)
