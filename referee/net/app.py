"""The ASGI application of ``referee serve --http`` (Starlette).

The endpoints are one table, :data:`ENDPOINTS`: each names its method, path, the
:class:`~referee.session.Session` operation it calls (the dispatcher the stdio
server uses too), and what it documents (summary, parameters, body, every status
it can answer). The Starlette routes and the OpenAPI document
(:func:`referee.net.openapi.openapi`, at ``/api/openapi.json``) are both made from
it, so neither can leave the other behind.

Who may do what (``Authorization: Bearer TOKEN``):

- the **admin token** (``--admin-token``) creates games, and may delete any game
  and read any finished game whole; with ``--open`` anyone may create games, up
  to ``--games-per-client`` live ones per address;
- the **owner token** (one per game, answered to its creator) deletes the game and
  reads it whole once it is over;
- a **seat token** plays that seat and sees what it may see;
- no token: a spectator, who sees what the public may.

Every answer is JSON. Errors are ``{"error": {"code", "message"[, "details"]}}``
with a 4xx/5xx status, never a traceback: malformed JSON, bodies over the limit,
NaN, numbers over 100 digits, lone surrogates and nesting past ``max_depth`` are
refused with a code. A rejected move is a verdict, status 422::

    {
        "verdict": "illegal",
        "move": "...",
        "ply": 7,
        "error": {"code": "blocked_by_black_figure", "message": "...", "details": {...}},
    }
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from ..errors import BoardwrightError, RequestError
from ..safeio import loads_json
from ..session import GAMELESS, Caller
from ..shown import Shared, omitted
from .errors import error_body
from .openapi import Endpoint, openapi
from .tables import Hall, Listener, dumps

log = logging.getLogger("referee.net")

STATIC = Path(__file__).with_name("static")


# ====================================================================== JSON in and out
def answer(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """``data`` as a JSON response; an answer shared by the readers of a ply
    (:class:`~referee.shown.Shared`) is encoded once for all of them."""
    memo = data.memo if isinstance(data, Shared) else None
    body: bytes | None = None if memo is None else memo.get("json")
    if body is None:
        body = dumps(data)
        if memo is not None:
            memo["json"] = body
    return Response(body, status, headers=headers, media_type="application/json")


def parse_json(raw: bytes, max_depth: int) -> Any:
    """Parse a request body with the referee's one safe reader
    (:func:`referee.safeio.loads_json`): no NaN or infinities, no integer over 100
    digits, no lone surrogate, no nesting deeper than ``max_depth``.

    Raises
    ------
    RequestError
        400 ``bad_json`` or ``too_deep``.
    """
    try:
        return loads_json(raw, "body", max_depth=max_depth)
    except BoardwrightError as exc:
        code = "too_deep" if exc.code == "too_deep" else "bad_json"
        raise RequestError(f"the body is not usable JSON: {exc.message}"[:300], code=code) from None


async def read_body(request: Request, hall: Hall) -> dict[str, Any]:
    """The request's JSON object, read up to the body limit and within the request
    timeout (a client trickling its body is answered 408 and closed)."""
    limit = hall.limits.max_body
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise RequestError(f"request body over {limit} bytes", status=413, code="request_too_large")

    async def whole() -> bytes:
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise RequestError(
                    f"request body over {limit} bytes", status=413, code="request_too_large"
                )
        return bytes(raw)

    try:
        async with asyncio.timeout(hall.limits.request_timeout):  # a timer, not a task
            raw = await whole()
    except TimeoutError:
        raise RequestError(
            f"the body did not arrive within {hall.limits.request_timeout:g} s",
            status=408,
            code="request_timeout",
            headers={"Connection": "close"},
        ) from None
    data = parse_json(raw, hall.limits.max_depth)
    if not isinstance(data, dict):
        raise RequestError("the body must be a JSON object", code="bad_request")
    return data


def bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization")
    if auth is None:
        return None
    scheme, _, token = auth.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RequestError('Authorization must be "Bearer <token>"', status=401, code="bad_token")
    return token.strip()


def caller_of(request: Request) -> Caller:
    return Caller(token=bearer(request), client=request.client.host if request.client else "")


# ====================================================================== the endpoints


async def _call(request: Request, hall: Hall, op: str, fields: dict[str, Any]) -> dict[str, Any]:
    """One request through the dispatcher. A request on a game whose last move is
    still being committed waits for that commit first; a move is answered once its
    own commit returned (the group commit of :class:`~referee.net.tables.Hall`)."""
    caller = caller_of(request)
    if op in GAMELESS:
        return await asyncio.to_thread(hall.dispatch, op, fields, caller)
    await hall.prepare(op, fields)
    gid = fields.get("game")
    await hall.settle(gid)
    out = hall.dispatch(op, fields, caller)
    await hall.settle(gid)
    return out


async def _rules(request: Request, hall: Hall) -> Response:
    return answer(await _call(request, hall, "rules", {}))


async def _projects(request: Request, hall: Hall) -> Response:
    return answer(await _call(request, hall, "projects", {}))


async def _create(request: Request, hall: Hall) -> Response:
    body = await read_body(request, hall)
    fields = {
        k: body.get(k) for k in ("rules", "project", "players", "seed", "options", "position")
    }
    out = await _call(request, hall, "new", fields)
    gid = out["game"]
    for seat in out["seats"]:
        seat["url"] = f"/?game={gid}&token={seat['token']}"
    out["spectate"] = f"/?game={gid}"
    return answer(out, 201)


def _gid(request: Request) -> str:
    return str(request.path_params["gid"])


async def _view(request: Request, hall: Hall) -> Response:
    fields: dict[str, Any] = {"game": _gid(request)}
    omit = request.query_params.get("omit")
    if omit is not None:  # checked here to name the query in the error, as the op would
        fields["omit"] = sorted(omitted(omit.split(",") if omit else [], "?omit="))
    return answer(await _call(request, hall, "view", fields))


async def _delete(request: Request, hall: Hall) -> Response:
    return answer(await _call(request, hall, "close", {"game": _gid(request)}))


async def _move(request: Request, hall: Hall) -> Response:
    token = bearer(request)
    if token is not None:
        hall.check_rate(token)
    body = await read_body(request, hall)
    fields = {"game": _gid(request), "move": body.get("move"), "expect_ply": body.get("expect_ply")}
    out = await _call(request, hall, "play", fields)
    return answer(out, 422 if out["verdict"] == "illegal" else 200)


async def _log(request: Request, hall: Hall) -> Response:
    return answer(await _call(request, hall, "log", {"game": _gid(request)}))


async def _board(request: Request, hall: Hall) -> Response:
    out = await _call(request, hall, "board", {"game": _gid(request)})
    return answer(out, headers={"Cache-Control": "no-cache"})


async def _spec(request: Request, hall: Hall) -> Response:
    return answer(openapi(ENDPOINTS))


async def _index(request: Request, hall: Hall) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        "/api/rules",
        _rules,
        "The rules modules, their players and options",
        (200,),
        op="rules",
        answer="Rules",
    ),
    Endpoint(
        "GET",
        "/api/projects",
        _projects,
        "The projects games may use, by name",
        (200,),
        op="projects",
        answer="Projects",
    ),
    Endpoint(
        "POST",
        "/api/games",
        _create,
        "Create a game (admin token, or anyone with --open): answers each seat's "
        "secret token and the game's owner token",
        (201, 400, 401, 403, 404, 408, 413, 429, 503),
        op="new",
        body="NewGame",
        answer="Created",
        token="admin",
    ),
    Endpoint(
        "GET",
        "/api/games/{gid}",
        _view,
        "The game as the caller may see it; legal moves for the seat to move "
        "(?omit=figures,pieces,targets: without what only a frontend that draws the "
        "board uses)",
        (200, 400, 401, 404, 409, 410),
        op="view",
        answer="Snapshot",
        query=("omit",),
        token="seat",
    ),
    Endpoint(
        "DELETE",
        "/api/games/{gid}",
        _delete,
        "Delete a game (its owner or the admin): it leaves memory and the limit; "
        "its record stays in the store",
        (200, 400, 401, 403, 404, 409, 410),
        op="close",
        answer="Closed",
        token="owner",
    ),
    Endpoint(
        "POST",
        "/api/games/{gid}/moves",
        _move,
        "Play a move as the seat to move",
        (200, 400, 401, 403, 404, 408, 409, 410, 413, 422, 429),
        op="play",
        body="Move",
        answer="Verdict",
        token="seat",
    ),
    Endpoint(
        "GET",
        "/api/games/{gid}/log",
        _log,
        "The log: public parts (and the caller's own moves); the whole replayable "
        "envelope for the owner or the admin once the game is over",
        (200, 400, 401, 404, 409, 410),
        op="log",
        answer="Log",
        token="seat",
    ),
    Endpoint(
        "GET",
        "/api/games/{gid}/board",
        _board,
        "The board as SVG, tiles turned as in the game, and every node's position",
        (200, 400, 401, 404, 409, 410),
        op="board",
        answer="Picture",
    ),
    Endpoint(
        "GET",
        "/api/games/{gid}/ws",
        None,
        "WebSocket (?token=seat token, none for a spectator): a hello snapshot, then "
        "{type: move, ply, player, to_move, outcome, events} per accepted move, events "
        "filtered for the viewer; {type: closed, reason} when the game expires",
        (101,),
        op="view",
        query=("token",),
        websocket=True,
    ),
    Endpoint("GET", "/api/openapi.json", _spec, "This document", (200,), answer="Any"),
    Endpoint("GET", "/", _index, "The browser table (HTML)", (200,)),
    Endpoint(
        "GET",
        "/static/{path}",
        None,
        "The browser table's scripts and styles",
        (200, 404),
        files=True,
    ),
)


# ====================================================================== the app
def create_app(hall: Hall) -> Starlette:
    """The server's ASGI app over ``hall``, routes made from :data:`ENDPOINTS`."""

    def bind(ep: Endpoint) -> Callable[[Request], Awaitable[Response]]:
        handler = ep.handler
        assert handler is not None

        async def route(request: Request) -> Response:
            response: Response = await handler(request, hall)
            return response

        route.__name__ = handler.__name__.strip("_")
        return route

    async def ws(websocket: WebSocket) -> None:
        await serve_socket(websocket, hall)

    async def request_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        return answer(error_body(exc.code, exc.message, exc.details), exc.status, exc.headers)

    async def referee_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, BoardwrightError)
        return answer(error_body(exc.code, exc.message, exc.details), 400)

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

    routes: list[BaseRoute] = []
    by_path: dict[str, list[Endpoint]] = {}
    for ep in ENDPOINTS:
        by_path.setdefault(ep.path, []).append(ep)
    for path, eps in by_path.items():
        for ep in eps:
            if ep.websocket:
                routes.append(WebSocketRoute(path, ws))
            elif ep.files:
                routes.append(Mount(path.split("/{")[0], StaticFiles(directory=STATIC)))
            else:
                routes.append(Route(path, bind(ep), methods=[ep.method]))
    return Starlette(
        routes=routes,
        exception_handlers={
            RequestError: request_error,
            BoardwrightError: referee_error,
            HTTPException: http_error,
            Exception: internal,
        },
    )


# ====================================================================== WebSocket
async def serve_socket(websocket: WebSocket, hall: Hall) -> None:
    """One WebSocket: refuse with a JSON error and close code 4000 + HTTP status, or
    send a ``hello`` snapshot, then the pushes, until the client leaves, goes idle
    past the limit, sends an oversize message, cannot keep up or the game expires."""
    await websocket.accept()
    gid = str(websocket.path_params["gid"])
    token = websocket.query_params.get("token")
    caller = Caller(token=token, client=websocket.client.host if websocket.client else "")
    try:
        await hall.prepare("view", {"game": gid})
        await hall.settle(gid)
        hello = hall.dispatch("view", {"game": gid}, caller)
        held = hall.lookup(gid)
        seat, _ = hall.role(held, caller)
    except BoardwrightError as exc:  # a refusal, or a stored game that cannot be loaded
        status = exc.status if isinstance(exc, RequestError) else 400
        await websocket.send_text(dumps(error_body(exc.code, exc.message)).decode())
        await websocket.close(code=4000 + status, reason=exc.code)
        return
    lst = Listener(seat)
    hall.listen(held, lst)
    limits = hall.limits
    recv: asyncio.Task[Any] | None = None
    get: asyncio.Task[Any] | None = None
    try:
        await websocket.send_text(dumps({"type": "hello", **hello}).decode())
        while True:
            if recv is None:
                recv = asyncio.ensure_future(websocket.receive())
            if get is None:
                get = asyncio.ensure_future(lst.queue.get())
            done, _ = await asyncio.wait(
                {recv, get}, timeout=limits.ws_idle_timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if not done:
                await websocket.send_text(
                    dumps(error_body("idle", "closed after idle timeout")).decode()
                )
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
                await websocket.send_text(dumps(_reply(data, limits.max_depth)).decode())
            if get in done:
                push = get.result()
                get = None
                if push is None:
                    await websocket.close(code=1013, reason="too slow")
                    return
                await websocket.send_text(push.text)  # serialised once for every socket
                if push.closing is not None:
                    await websocket.close(code=1000, reason=push.closing)
                    return
    except (RuntimeError, OSError):
        return  # the client went away mid-send
    finally:
        hall.unlisten(gid, lst)
        for task in (recv, get):
            if task is not None:
                task.cancel()


def _reply(data: str | bytes, max_depth: int) -> dict[str, Any]:
    """The answer to a client message: ``{"type": "ping"}`` gets a pong."""
    try:
        msg = parse_json(
            data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data, max_depth
        )
    except RequestError as exc:
        return error_body(exc.code, exc.message)
    if isinstance(msg, dict) and msg.get("type") == "ping":
        return {"type": "pong"}
    return error_body("bad_message", 'the server understands only {"type": "ping"}')
