"""The OpenAPI 3.1 description of the server (served at ``/api/openapi.json``),
generated from the endpoint table :data:`referee.net.app.ENDPOINTS`: every route,
its method, its path and query parameters, its body and every status it answers.

:class:`Endpoint` is one row of that table; the app makes its Starlette routes from
the same rows, so the document cannot leave a route out or describe one that is not
there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: what each status means
STATUS_WORDS = {
    101: "switching protocols (WebSocket)",
    200: "the answer",
    201: "created",
    400: "bad request (the code says why: bad_json, too_deep, bad_request, bad_project, "
    "unknown_rules, wrong_rules, bad_state, usage, ...)",
    401: "no token where one is needed (no_token), or a token that is nothing here (bad_token)",
    403: "a token that may not do this (not_admin, not_owner, not_a_seat, not_your_turn)",
    404: "unknown game or project",
    408: "the request's body did not arrive in time (request_timeout)",
    409: "stale expect_ply, game over, or the project changed since the game began",
    410: "the game expired (finished, idle or deleted); its record stays in the store",
    413: "request body over the limit",
    422: "an illegal move: a verdict with code, message, details; nothing changed",
    429: "moves per second over the limit (rate_limited, Retry-After), or this client's "
    "live games at its quota (too_many_games_for_client)",
    503: "live games at the server's limit (too_many_games)",
}


@dataclass(frozen=True)
class Endpoint:
    """One endpoint: where it is, what it calls, and what it documents.

    Attributes
    ----------
    method, path : str
        ``GET``, ``/api/games/{gid}`` (path parameters in braces).
    handler : callable or None
        ``async (request, hall) -> response`` (``None`` for a WebSocket or files).
    summary : str
    statuses : tuple of int
        Every status the endpoint answers (a test holds the server to it).
    op : str, optional
        The :class:`~referee.session.Session` operation it calls.
    body, answer : str, optional
        Names of the schemas of its JSON body and of its success answer.
    token : {"admin", "owner", "seat"}, optional
        The bearer token it takes.
    query : tuple of str
        Query parameters.
    websocket : bool
        A WebSocket, not an HTTP route.
    files : bool
        A folder of static files (served by a mount, not by ``handler``).
    """

    method: str
    path: str
    handler: Callable[..., Any] | None
    summary: str
    statuses: tuple[int, ...]
    op: str | None = None
    body: str | None = None
    answer: str | None = None
    token: str | None = None
    query: tuple[str, ...] = ()
    websocket: bool = False
    files: bool = False
    params: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        names = tuple(p.split("}")[0] for p in self.path.split("{")[1:])
        object.__setattr__(self, "params", names)


_ERROR = {"$ref": "#/components/schemas/Error"}
_ANY: dict[str, Any] = {"type": "object", "additionalProperties": True}
#: the fields of a game's status, in every answer about a game
_STATUS_FIELDS: dict[str, Any] = {
    "ply": {"type": "integer"},
    "to_move": {"type": ["string", "null"]},
    "outcome": {"type": ["object", "null"]},
}

SCHEMAS: dict[str, Any] = {
    "Any": _ANY,
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                    "details": _ANY,
                },
            }
        },
    },
    "Rules": {
        "type": "object",
        "required": ["rules"],
        "properties": {"rules": {"type": "array", "items": _ANY}},
    },
    "Projects": {
        "type": "object",
        "required": ["projects"],
        "properties": {
            "projects": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string"},
                        "title": {"type": "string"},
                        "rules": {"type": ["string", "null"]},
                        "error": {"type": "string"},
                    },
                },
            }
        },
    },
    "NewGame": {
        "type": "object",
        "required": ["rules", "project"],
        "properties": {
            "rules": {"type": "string"},
            "project": {"type": "string", "description": "a name from /api/projects"},
            "players": {"type": "integer", "minimum": 1, "maximum": 16},
            "seed": {
                "type": "integer",
                "minimum": 0,
                "description": "admin only: whoever picks the seed knows every hidden card",
            },
            "options": _ANY,
            "position": {**_ANY, "description": "admin only, like seed"},
        },
    },
    "Created": {
        "type": "object",
        "required": ["game", "seats", "owner", "spectate"],
        "properties": {
            "game": {"type": "string"},
            "rules": {"type": "string"},
            "project": {"type": "string"},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["player", "token", "url"],
                    "properties": {
                        "player": {"type": "string"},
                        "token": {"type": "string"},
                        "url": {"type": "string"},
                    },
                },
            },
            "owner": {"type": "string", "description": "the owner's secret token"},
            "spectate": {"type": "string"},
            **_STATUS_FIELDS,
        },
    },
    "Snapshot": {
        "type": "object",
        "required": ["game", "rules", "project", "seats", "you", "ply", "view", "figures"],
        "properties": {
            "game": {"type": "string"},
            "rules": {"type": "string"},
            "project": {"type": "string"},
            "seats": {"type": "array", "items": {"type": "string"}},
            "you": {"type": ["string", "null"]},
            **_STATUS_FIELDS,
            "view": _ANY,
            "figures": {"type": "array", "items": _ANY},
            "pieces": {
                "type": "string",
                "description": "the figures as SVG elements in board millimetres, as "
                "`referee render --state` draws them (each with data-figure)",
            },
            "moves": {"type": "array", "items": {"type": "string"}},
            "targets": _ANY,
        },
    },
    "Closed": {
        "type": "object",
        "required": ["game", "closed"],
        "properties": {"game": {"type": "string"}, "closed": {"type": "boolean"}},
    },
    "Move": {
        "type": "object",
        "required": ["move", "expect_ply"],
        "properties": {
            "move": {"type": "string", "maxLength": 1000},
            "expect_ply": {"type": "integer"},
        },
    },
    "Verdict": {
        "type": "object",
        "required": ["verdict", "move", "ply"],
        "properties": {
            "verdict": {"enum": ["accepted", "illegal"]},
            "move": {"type": "string"},
            **_STATUS_FIELDS,
            "events": {"type": "array", "items": _ANY},
            "error": {"$ref": "#/components/schemas/Error/properties/error"},
        },
    },
    "Log": {
        "type": "object",
        "required": ["complete"],
        "properties": {"complete": {"type": "boolean"}},
        "additionalProperties": True,
    },
    "Picture": {
        "type": "object",
        "required": ["svg", "nodes"],
        "properties": {"svg": {"type": "string"}, "nodes": _ANY},
    },
}

_SECURITY = {
    "admin": "the server's admin token (--admin-token)",
    "owner": "the game's owner token, or the admin token",
    "seat": "a seat's token (none: a spectator)",
}


def _operation_id(ep: Endpoint) -> str:
    """``get_games_gid_log`` for ``GET /api/games/{gid}/log`` (``get_index`` for ``/``)."""
    words = [w.strip("{}").replace(".", "_") for w in ep.path.split("/") if w and w != "api"]
    return "_".join([ep.method.lower(), *(words or ["index"])])


def _operation(ep: Endpoint) -> dict[str, Any]:
    params: list[dict[str, Any]] = [
        {"name": n, "in": "path", "required": True, "schema": {"type": "string"}} for n in ep.params
    ]
    params += [{"name": n, "in": "query", "schema": {"type": "string"}} for n in ep.query]
    responses: dict[str, Any] = {}
    for code in ep.statuses:
        if code == 101:
            responses["101"] = {"description": STATUS_WORDS[101]}
        elif code < 300:
            schema = {"$ref": f"#/components/schemas/{ep.answer}"} if ep.answer else None
            responses[str(code)] = {"description": STATUS_WORDS[code]}
            if schema is not None:
                responses[str(code)]["content"] = {"application/json": {"schema": schema}}
            else:
                kind = "*/*" if ep.files else "text/html"
                responses[str(code)]["content"] = {kind: {"schema": {"type": "string"}}}
        else:
            schema = {"$ref": "#/components/schemas/Verdict"} if code == 422 else _ERROR
            responses[str(code)] = {
                "description": STATUS_WORDS[code],
                "content": {"application/json": {"schema": schema}},
            }
    op: dict[str, Any] = {
        "operationId": _operation_id(ep),
        "summary": ep.summary,
        "responses": responses,
    }
    if ep.op is not None:
        op["x-session-op"] = ep.op
    if params:
        op["parameters"] = params
    if ep.body is not None:
        op["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{ep.body}"}}
            },
        }
    if ep.token is not None:
        op["security"] = [{ep.token: []}] if ep.token == "admin" else [{}, {ep.token: []}]
    return op


def openapi(endpoints: Sequence[Endpoint]) -> dict[str, Any]:
    """The description, as JSON data, generated from ``endpoints``."""
    paths: dict[str, dict[str, Any]] = {}
    for ep in endpoints:
        paths.setdefault(ep.path, {})[ep.method.lower()] = _operation(ep)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Boardwright referee server",
            "version": "2",
            "description": "An authoritative game server: seats with secret tokens, "
            "hidden information filtered by the rules module, every accepted move "
            "committed before it is answered, games created with the admin token and "
            "deleted by their owner, finished and idle games expiring.",
        },
        "components": {
            "securitySchemes": {
                name: {"type": "http", "scheme": "bearer", "description": words}
                for name, words in _SECURITY.items()
            },
            "schemas": SCHEMAS,
        },
        "paths": paths,
    }
