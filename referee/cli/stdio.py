"""The JSON-lines protocol of ``referee serve --stdio``: one request per line, one answer per line.

A transport over :class:`referee.session.Session` (the dispatcher the HTTP server
uses too): :class:`Server` reads a line, parses it, hands ``op`` and the fields to
:meth:`~referee.session.Session.dispatch` as the local frontend (every seat, every
view), and writes the answer with ``"ok"`` and the request's ``id``. It never dies
on a request. Every line gets exactly one response, and every failure is an error
response with a code:

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
boards are cached for at most :data:`referee.envelopes.MAX_BOARDS` boards. Project
paths in requests (``new``'s ``project`` and a ``state`` envelope's ``project``)
resolve only inside ``projects`` (``referee serve --projects DIR``, default the
current folder), every link followed.

Memory plan: a game holds its state and its log (≈ 1 KiB per move played); a
compiled board is held once per board, however many games use it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ..envelopes import Boards
from ..errors import BoardwrightError
from ..safeio import dumps_json, loads_json
from ..session import LOCAL, Session

MAX_REQUEST = 1 << 20  #: bytes per request line (``--max-request``)
MAX_REQUEST_DEPTH = 64  #: nesting of a request (a state envelope needs about 10)
MAX_GAMES = 64  #: live games (``--max-games``)
IDLE_TIMEOUT = 3600.0  #: seconds before an unused game is closed (``--idle-timeout``)


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

    Attributes
    ----------
    session : Session
        The games and the dispatcher.
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
        self.session = Session(
            Boards(Path(projects) if projects is not None else None),
            max_games=max_games,
            idle_timeout=idle_timeout,
            clock=clock,
        )

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
        resp: dict[str, Any]
        try:
            out = self.session.dispatch(req.get("op"), req, LOCAL)
            if out.get("verdict") == "illegal":
                resp = {"ok": False, **out}
            else:
                resp = {"ok": True, **out}
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


def _short(exc: BaseException) -> str:
    text = str(exc).replace("\n", " ")
    return text[:200] + ("…" if len(text) > 200 else "")
