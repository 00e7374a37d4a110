"""The JSON-lines protocol of ``referee serve --stdio``: one request per line, one answer per line.

:class:`Server` never dies on a request. Every line gets exactly one response, and
every failure is an error response with a code:

``too_large``
    the line is longer than ``max_request`` bytes (the rest of it is skipped);
``bad_json`` / ``too_deep`` / ``bad_number``
    the line is not JSON, is nested deeper than :data:`MAX_REQUEST_DEPTH`, or holds
    ``NaN``/``Infinity``/an integer of more than :data:`referee.safeio.MAX_INT_DIGITS`
    digits (:func:`referee.safeio.loads_json`);
``bad_request``
    not an object, or a field of the wrong type or out of range;
``unknown_op``, ``unknown_game``, ``too_many_games``, ``forbidden``
    (a ``project`` outside the projects folder), ``usage``;
the project's and the rules' own codes
    ``not_found``, ``wrong_board``, ``bad_state``, an illegal move's code, …;
``internal_error``
    a bug: one line naming the exception, never a traceback; the game it happened
    in is put back to its last good state.

Limits: at most ``max_games`` live games (default :data:`MAX_GAMES`); a game not
used for ``idle_timeout`` seconds (default :data:`IDLE_TIMEOUT`) is closed; compiled
boards are cached for at most :data:`MAX_BOARDS` projects. Project paths in requests
(``new``'s ``project`` and a ``state`` envelope's ``project``) resolve only inside
``projects`` (``referee serve --projects DIR``, default the current folder).

Memory plan: a game holds its state and its log (≈ 1 KiB per move played); a
compiled board is held once per project, however many games use it.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ..compiler import CompiledBoard
from ..errors import BoardwrightError, IllegalMoveError, StateError, UsageError
from ..games.base import Game
from ..safeio import MAX_INT_DIGITS, dumps_json, loads_json
from .cmd_game import Boards, check_envelope, game_of, guard_state, new_game

AnyGame = Game[Any]

MAX_REQUEST = 1 << 20  #: bytes per request line (``--max-request``)
MAX_REQUEST_DEPTH = 64  #: nesting of a request (a state envelope needs about 10)
MAX_GAMES = 64  #: live games (``--max-games``)
IDLE_TIMEOUT = 3600.0  #: seconds before an unused game is closed (``--idle-timeout``)
MAX_BOARDS = 16  #: compiled boards kept in memory
MAX_PLAYERS = 16
MAX_MOVE_TEXT = 1000


class BadRequest(UsageError):
    """A request field of the wrong type or out of range."""

    code = "bad_request"


class _ConfinedBoards(Boards):
    """Compiled boards, for projects inside ``root`` only (``None``: anywhere), LRU-bounded."""

    def __init__(self, root: Path | None, limit: int = MAX_BOARDS) -> None:
        super().__init__()
        self.root = root.resolve() if root is not None else None
        self.limit = limit
        self._lru: OrderedDict[str, None] = OrderedDict()

    def resolve(self, project: str) -> str:
        if not isinstance(project, str) or not project or "\x00" in project:
            raise BadRequest("project must be a path (text)")
        if self.root is None:
            return os.path.abspath(project)
        p = Path(project)
        real = (p if p.is_absolute() else self.root / p).resolve()
        if real != self.root and self.root not in real.parents:
            raise UsageError(
                f"project {project!r} is outside the projects folder {self.root} "
                "(referee serve --projects DIR)",
                code="forbidden",
            )
        return str(real)

    def get(self, project: str) -> CompiledBoard:
        key = self.resolve(project)
        compiled = super().get(key)
        self._lru[key] = None
        self._lru.move_to_end(key)
        while len(self._lru) > self.limit:
            old, _ = self._lru.popitem(last=False)
            self._cache.pop(old, None)
        return compiled


def _error(code: str, message: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message}}


class Server:
    """The JSON-lines protocol (see the module docstring and the README's transcript).

    Parameters
    ----------
    max_request
        Longest request line in bytes.
    max_games, idle_timeout
        Live games at most, and seconds after which an unused game is closed.
    projects
        Folder that request paths must resolve inside; ``None`` (the Python API's
        default) trusts the caller. ``referee serve`` passes the current folder.
    clock
        Monotonic seconds (tests pass a fake one).
    """

    def __init__(
        self,
        max_request: int = MAX_REQUEST,
        *,
        max_games: int = MAX_GAMES,
        idle_timeout: float = IDLE_TIMEOUT,
        projects: str | os.PathLike[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_request = max_request
        self.max_games = max_games
        self.idle_timeout = idle_timeout
        self.clock = clock
        self.boards = _ConfinedBoards(Path(projects) if projects is not None else None)
        self.games: dict[str, tuple[AnyGame, dict[str, Any]]] = {}
        self._used: dict[str, float] = {}
        self._next = 1

    # ------------------------------------------------------------------ lines
    def handle_line(self, raw: bytes) -> dict[str, Any]:
        """The response to one request line. Never raises (except KeyboardInterrupt)."""
        try:
            return self._handle_line(raw)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:
            return _error("internal_error", f"{type(exc).__name__}: {_short(exc)}")

    def _handle_line(self, raw: bytes) -> dict[str, Any]:
        if len(raw) > self.max_request:
            return _error("too_large", f"request longer than {self.max_request} bytes")
        try:
            req = loads_json(
                raw, "request", max_bytes=self.max_request, max_depth=MAX_REQUEST_DEPTH
            )
        except BoardwrightError as exc:
            code = "bad_json" if exc.code == "bad_text" else exc.code
            return _error(code, f"request: {exc.message}")
        if not isinstance(req, dict):
            return _error("bad_request", "a request must be a JSON object")
        rid = req.get("id")
        if rid is not None and (
            isinstance(rid, bool) or not isinstance(rid, (str, int, float)) or len(str(rid)) > 200
        ):
            return _error("bad_request", "id must be a number or a short text")
        self.expire()
        try:
            resp = self.handle(req)
        except IllegalMoveError as exc:
            resp = {"ok": False, "verdict": "illegal", "error": exc.to_json()}
        except BoardwrightError as exc:
            resp = {"ok": False, "error": exc.to_json()}
        except RecursionError:
            resp = _error("internal_error", "RecursionError: the request nests too deeply")
        except MemoryError:
            resp = _error("internal_error", "MemoryError: the request needs too much memory")
        except Exception as exc:  # a bug must not take the server down
            resp = _error("internal_error", f"{type(exc).__name__}: {_short(exc)}")
        if rid is not None:
            resp = {"id": rid, **resp}
        return resp

    def encode(self, resp: dict[str, Any]) -> str:
        """One response as a line of standard JSON (an internal error if it cannot be)."""
        try:
            return dumps_json(resp, "response") + "\n"
        except BoardwrightError as exc:
            bad = _error("internal_error", f"the response cannot be written as JSON: {exc}")
            if "id" in resp:
                bad = {"id": resp["id"], **bad}
            return dumps_json(bad, "response") + "\n"

    def run(self, inp: IO[bytes], out: IO[str]) -> None:
        """Answer every line of ``inp`` on ``out`` until end of input."""
        while True:
            raw = inp.readline(self.max_request + 1)
            if not raw:
                break
            if len(raw) > self.max_request and not raw.endswith(b"\n"):
                # swallow the rest of the oversize line, then answer once
                while True:
                    more = inp.readline(self.max_request + 1)
                    if not more or more.endswith(b"\n"):
                        break
            if not raw.strip():
                continue
            line = self.encode(self.handle_line(raw.rstrip(b"\r\n")))
            out.write(line)
            out.flush()

    # ------------------------------------------------------------------ games
    def expire(self) -> list[str]:
        """Close games unused for more than ``idle_timeout`` seconds; their handles."""
        now = self.clock()
        old = [g for g, t in self._used.items() if now - t > self.idle_timeout]
        for gid in old:
            self.games.pop(gid, None)
            self._used.pop(gid, None)
        return old

    def _keep(self, game: AnyGame, env: dict[str, Any]) -> str:
        if len(self.games) >= self.max_games:
            raise UsageError(
                f"this server holds {self.max_games} games already (--max-games); close one first",
                code="too_many_games",
            )
        gid = f"g{self._next}"
        self._next += 1
        self.games[gid] = (game, env)
        self._used[gid] = self.clock()
        return gid

    def _game(self, req: dict[str, Any]) -> tuple[AnyGame, dict[str, Any]]:
        if "game" in req:
            gid = req["game"]
            got = self.games.get(gid) if isinstance(gid, str) else None
            if got is None:
                raise UsageError(
                    f"no game {str(gid)[:40]!r} in this server (never made, closed, or idle "
                    f"for more than {self.idle_timeout:g} s)",
                    code="unknown_game",
                )
            self._used[gid] = self.clock()
            return got
        if "state" in req:
            env = req["state"]
            check_envelope(env, "request state")
            env = {**env, "project": self.boards.resolve(env["project"])}
            return game_of(env, None, self.boards, "request state"), env
        raise BadRequest('request needs "game" (a handle) or "state" (an envelope)')

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        """The response to one parsed request (raises on errors; see :meth:`handle_line`)."""
        op = req.get("op")
        if op == "new":
            return self._new(req)
        if op == "load":
            game, env = self._game({"state": req.get("state")})
            gid = self._keep(game, dumps_roundtrip(env))
            return {"ok": True, "game": gid, **_status(game)}
        view = req.get("view")
        if view is not None and not isinstance(view, str):
            raise BadRequest("view must be a player name")
        if op == "moves":
            game, _ = self._game(req)
            game.check_viewer(view)
            with guard_state("request"):
                moves = [str(m) for m in game.legal_moves]
            if view is not None and view != game.to_move:
                moves = []
            return {"ok": True, **_status(game), "moves": moves}
        if op == "play":
            return self._play(req, view)
        if op == "state":
            game, env = self._game(req)
            if view is not None:
                with guard_state("request"):
                    return {"ok": True, **_status(game), "view": game.view(view)}
            env["state"] = game.to_json()
            return {"ok": True, **_status(game), "state": env}
        if op == "render":
            game, _ = self._game(req)
            with guard_state("request"):
                text = game.render()
            return {"ok": True, **_status(game), "text": text}
        if op == "close":
            handle = req.get("game")
            if isinstance(handle, str):
                self.games.pop(handle, None)
                self._used.pop(handle, None)
            return {"ok": True}
        raise UsageError(
            f"unknown op {str(op)[:40]!r} (new, load, moves, play, state, render, close)",
            code="unknown_op",
        )

    def _new(self, req: dict[str, Any]) -> dict[str, Any]:
        for key in ("rules", "project", "players"):
            if key not in req:
                raise BadRequest(f"new needs {key!r}")
        rules, players, seed = req["rules"], req["players"], req.get("seed", 0)
        if not isinstance(rules, str):
            raise BadRequest("rules must be a name")
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadRequest("players must be an integer")
        if not 1 <= players <= MAX_PLAYERS:
            raise BadRequest(f"players must be from 1 to {MAX_PLAYERS}")
        if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) >= 10**MAX_INT_DIGITS:
            raise BadRequest("seed must be an integer")
        opts = req.get("options")
        if opts is None:
            opts = {}
        if not isinstance(opts, dict):
            raise BadRequest("options must be an object")
        if req.get("variant") is not None:
            if not isinstance(req["variant"], str):
                raise BadRequest("variant must be a name")
            opts = {**opts, "variant": req["variant"]}
        project = self.boards.resolve(req["project"])
        self._check_room()
        with guard_state("request"):
            game, env = new_game(rules, project, players, seed, opts, self.boards)
        gid = self._keep(game, env)
        return {"ok": True, "game": gid, **_status(game), "events": env["log"]["new"]["events"]}

    def _check_room(self) -> None:
        if len(self.games) >= self.max_games:
            raise UsageError(
                f"this server holds {self.max_games} games already (--max-games); close one first",
                code="too_many_games",
            )

    def _play(self, req: dict[str, Any], view: str | None) -> dict[str, Any]:
        text = req.get("move")
        if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
            raise BadRequest(f'play needs "move" (text of at most {MAX_MOVE_TEXT} characters)')
        game, env = self._game(req)
        game.check_viewer(view)  # before the move: a bad view changes nothing
        try:
            with guard_state("request"):
                move = game.parse_move(text)
                events = game.push(move)
        except IllegalMoveError:
            raise
        except BaseException:
            # the rules failed half-way: put a held game back to its last good state
            gid = req.get("game")
            if isinstance(gid, str) and gid in self.games:
                restored = game_of(env, None, self.boards, "server game")
                self.games[gid] = (restored, env)
            raise
        env["state"] = game.to_json()
        env.setdefault("log", {"moves": []}).setdefault("moves", []).append(
            {"move": str(move), "events": events}
        )
        out = {
            "ok": True,
            "verdict": "accepted",
            "move": str(move),
            "events": events if view is None else game.events_for(events, view),
            **_status(game),
        }
        if view is not None:
            out["view"] = game.view(view)
        elif "game" not in req:
            out["state"] = env
        return out


def dumps_roundtrip(env: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a JSON value through our reader and writer."""
    copied: dict[str, Any] = loads_json(dumps_json(env, "state"), "state", error=StateError)
    return copied


def _status(game: AnyGame) -> dict[str, Any]:
    with guard_state("request"):
        outcome = game.outcome
        return {"to_move": game.to_move, "outcome": None if outcome is None else outcome.to_json()}


def _short(exc: BaseException) -> str:
    text = str(exc).replace("\n", " ")
    return text[:200] + ("…" if len(text) > 200 else "")
