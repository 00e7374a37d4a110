"""The ASGI application of ``referee serve --http`` (Starlette).

Endpoints (the OpenAPI description is at ``/api/openapi.json``)::

    GET  /api/rules                  the rules modules, their players and options
    GET  /api/projects               the projects under --projects, by name
    POST /api/games                  {rules, project, players, seed?, options?, position?}
                                     -> {game, seats: [{player, token, url}], spectate}
    GET  /api/games/{id}             the game as the caller may see it (Bearer token:
                                     that seat's view, with legal moves when it is to
                                     move; no token: the public view)
    POST /api/games/{id}/moves       {move, expect_ply} with the seat's token
    GET  /api/games/{id}/log         the log (public parts only until the game ends)
    GET  /api/games/{id}/board       the board as SVG and every node's position
    WS   /api/games/{id}/ws?token=   a "hello" snapshot, then each accepted move's
                                     events as that seat (or a spectator) may see them
    GET  /                           the browser table

Every answer is JSON. Errors are ``{"error": {"code", "message"[, "details"]}}``
with a 4xx/5xx status, never a traceback: malformed JSON, bodies over the limit,
NaN, numbers past Python's digit limit and nesting past ``max_depth`` are refused
with a code. A rejected move is a verdict, status 422::

    {
        "verdict": "illegal",
        "move": "...",
        "ply": 7,
        "error": {"code": "blocked_by_black_figure", "message": "...", "details": {...}},
    }
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..errors import BoardwrightError, IllegalMoveError
from .errors import ApiError, error_body
from .openapi import openapi
from .tables import Hall, Listener, Table

log = logging.getLogger("referee.net")

STATIC = Path(__file__).with_name("static")


# ====================================================================== JSON in and out
def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def answer(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(dumps(data), status, headers=headers, media_type="application/json")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(f"number {text[:20]}… is too large")
    return x


def parse_json(raw: bytes, max_depth: int) -> Any:
    """Parse a request body, refusing NaN/Infinity, non-finite and over-long numbers
    (Python's int digit limit) and nesting deeper than ``max_depth``.

    Raises
    ------
    ApiError
        400 ``bad_json`` or ``too_deep``.
    """
    try:
        data = json.loads(raw, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ApiError("the body is nested too deeply", code="too_deep") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, int digit limit
        raise ApiError(f"the body is not usable JSON: {str(exc)[:200]}", code="bad_json") from None
    if _depth_over(data, max_depth):
        raise ApiError(f"the body is nested deeper than {max_depth} levels", code="too_deep")
    return data


def _depth_over(data: Any, limit: int) -> bool:
    """Whether ``data`` nests arrays/objects deeper than ``limit`` (iterative, O(size))."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, (dict, list)):
            if d >= limit:
                return True
            items = x.values() if isinstance(x, dict) else x
            stack.extend((v, d + 1) for v in items)
    return False


async def read_body(request: Request, hall: Hall) -> dict[str, Any]:
    """The request's JSON object, read up to the body limit."""
    limit = hall.limits.max_body
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise ApiError(f"request body over {limit} bytes", status=413, code="request_too_large")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise ApiError(f"request body over {limit} bytes", status=413, code="request_too_large")
    data = parse_json(bytes(raw), hall.limits.max_depth)
    if not isinstance(data, dict):
        raise ApiError("the body must be a JSON object", code="bad_request")
    return data


def bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization")
    if auth is None:
        return None
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError('Authorization must be "Bearer <seat token>"', status=401, code="bad_token")
    return token.strip()


# ====================================================================== the app
def create_app(hall: Hall) -> Starlette:
    """The server's ASGI app over ``hall``."""

    def table(request: Request) -> Table:
        return hall.table(request.path_params["gid"])

    async def rules(request: Request) -> Response:
        return answer({"rules": hall.rules()})

    async def projects(request: Request) -> Response:
        return answer({"projects": hall.projects()})

    async def create_game(request: Request) -> Response:
        body = await read_body(request, hall)
        return answer(hall.create(body), 201)

    async def get_game(request: Request) -> Response:
        t = table(request)
        return answer(t.snapshot(t.seat_of(bearer(request))))

    async def post_move(request: Request) -> Response:
        t = table(request)
        token = bearer(request)
        if token is None:
            raise ApiError(
                "moving needs the seat's token (Authorization: Bearer <token>)",
                status=401,
                code="no_token",
            )
        player = t.seat_of(token)
        assert player is not None
        hall.check_rate(token)
        body = await read_body(request, hall)
        status, out = t.play(player, body.get("move"), body.get("expect_ply"))
        return answer(out, status)

    async def game_log(request: Request) -> Response:
        t = table(request)
        return answer(t.log(t.seat_of(bearer(request))))

    async def board(request: Request) -> Response:
        t = table(request)
        return answer(hall.board_picture(t), headers={"Cache-Control": "no-cache"})

    async def spec(request: Request) -> Response:
        return answer(openapi())

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def ws(websocket: WebSocket) -> None:
        await serve_socket(websocket, hall)

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return answer(error_body(exc.code, exc.message, exc.details), exc.status, exc.headers)

    async def referee_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, BoardwrightError)
        status = 422 if isinstance(exc, IllegalMoveError) else 400
        return answer(error_body(exc.code, exc.message, exc.details), status)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return answer(error_body(code, str(exc.detail)), exc.status_code)

    async def internal(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return answer(
            error_body(
                "internal_error", f"the server failed on this request ({type(exc).__name__})"
            ),
            500,
        )

    routes = [
        Route("/", index),
        Route("/api/openapi.json", spec),
        Route("/api/rules", rules),
        Route("/api/projects", projects),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{gid}", get_game),
        Route("/api/games/{gid}/moves", post_move, methods=["POST"]),
        Route("/api/games/{gid}/log", game_log),
        Route("/api/games/{gid}/board", board),
        WebSocketRoute("/api/games/{gid}/ws", ws),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(
        routes=routes,
        exception_handlers={
            ApiError: api_error,
            BoardwrightError: referee_error,
            HTTPException: http_error,
            Exception: internal,
        },
    )


# ====================================================================== WebSocket
async def serve_socket(websocket: WebSocket, hall: Hall) -> None:
    """One WebSocket: refuse with a JSON error and close code 4000 + HTTP status, or
    send a ``hello`` snapshot, then the pushes, until the client leaves, goes idle
    past the limit, sends an oversize message or cannot keep up."""
    await websocket.accept()
    try:
        t = hall.table(websocket.path_params["gid"])
        player = t.seat_of(websocket.query_params.get("token"))
    except BoardwrightError as exc:  # ApiError, or a stored game that cannot be loaded
        status = exc.status if isinstance(exc, ApiError) else 400
        await websocket.send_text(dumps(error_body(exc.code, exc.message)))
        await websocket.close(code=4000 + status, reason=exc.code)
        return
    lst = Listener(player)
    t.listeners.add(lst)
    limits = hall.limits
    recv: asyncio.Task[Any] | None = None
    get: asyncio.Task[Any] | None = None
    try:
        await websocket.send_text(dumps({"type": "hello", **t.snapshot(player)}))
        while True:
            if recv is None:
                recv = asyncio.ensure_future(websocket.receive())
            if get is None:
                get = asyncio.ensure_future(lst.queue.get())
            done, _ = await asyncio.wait(
                {recv, get}, timeout=limits.idle_timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if not done:
                await websocket.send_text(dumps(error_body("idle", "closed after idle timeout")))
                await websocket.close(code=1000, reason="idle")
                return
            if recv in done:
                msg = recv.result()
                recv = None
                if msg["type"] == "websocket.disconnect":
                    return
                data = msg.get("text") or msg.get("bytes") or ""
                if len(data) > limits.ws_max_message:
                    await websocket.close(code=1009, reason="message too large")
                    return
                await websocket.send_text(dumps(_reply(data, limits.max_depth)))
            if get in done:
                push = get.result()
                get = None
                if push is None:
                    await websocket.close(code=1013, reason="too slow")
                    return
                await websocket.send_text(dumps(push))
    except (RuntimeError, OSError):
        return  # the client went away mid-send
    finally:
        t.listeners.discard(lst)
        for task in (recv, get):
            if task is not None:
                task.cancel()


def _reply(data: str | bytes, max_depth: int) -> dict[str, Any]:
    """The answer to a client message: ``{"type": "ping"}`` gets a pong."""
    try:
        msg = parse_json(data.encode() if isinstance(data, str) else data, max_depth)
    except ApiError as exc:
        return error_body(exc.code, exc.message)
    if isinstance(msg, dict) and msg.get("type") == "ping":
        return {"type": "pong"}
    return error_body("bad_message", 'the server understands only {"type": "ping"}')
