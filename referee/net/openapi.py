"""The OpenAPI 3.1 description of the server (served at ``/api/openapi.json``)."""

from __future__ import annotations

from typing import Any

_ERROR = {"$ref": "#/components/schemas/Error"}


def _resp(desc: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"description": desc, "content": {"application/json": {"schema": schema or _ERROR}}}


def _errors(*codes: int) -> dict[str, Any]:
    words = {
        400: "bad request (code says why: bad_json, too_deep, bad_request, ...)",
        401: "no token, or a token that is no seat of this game",
        403: "not this seat's turn",
        404: "unknown game or project",
        409: "stale expect_ply, game over, or board changed",
        413: "request body over the limit",
        429: "moves per second over the limit",
        503: "games per server over the limit",
    }
    return {str(c): _resp(words[c]) for c in codes}


_GAME_ID = {"name": "gid", "in": "path", "required": True, "schema": {"type": "string"}}
_ANY = {"type": "object", "additionalProperties": True}


def openapi() -> dict[str, Any]:
    """The description, as JSON data."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Boardwright referee server",
            "version": "1",
            "description": "An authoritative game server: seats with secret tokens, "
            "hidden information filtered by the rules module, every accepted move "
            "committed before it is answered.",
        },
        "components": {
            "securitySchemes": {"seat": {"type": "http", "scheme": "bearer"}},
            "schemas": {
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
                "NewGame": {
                    "type": "object",
                    "required": ["rules", "project"],
                    "properties": {
                        "rules": {"type": "string"},
                        "project": {"type": "string", "description": "a name from /api/projects"},
                        "players": {"type": "integer", "minimum": 1},
                        "seed": {"type": "integer", "minimum": 0},
                        "options": _ANY,
                        "position": _ANY,
                    },
                },
                "Created": {
                    "type": "object",
                    "properties": {
                        "game": {"type": "string"},
                        "seats": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "player": {"type": "string"},
                                    "token": {"type": "string"},
                                    "url": {"type": "string"},
                                },
                            },
                        },
                        "spectate": {"type": "string"},
                    },
                },
                "Move": {
                    "type": "object",
                    "required": ["move", "expect_ply"],
                    "properties": {
                        "move": {"type": "string"},
                        "expect_ply": {"type": "integer"},
                    },
                },
                "Verdict": {
                    "type": "object",
                    "required": ["verdict", "move", "ply"],
                    "properties": {
                        "verdict": {"enum": ["accepted", "illegal"]},
                        "move": {"type": "string"},
                        "ply": {"type": "integer"},
                        "events": {"type": "array", "items": _ANY},
                        "to_move": {"type": ["string", "null"]},
                        "outcome": {"type": ["object", "null"]},
                        "error": {"$ref": "#/components/schemas/Error/properties/error"},
                    },
                },
            },
        },
        "paths": {
            "/api/rules": {
                "get": {"summary": "Rules modules", "responses": {"200": _resp("rules", _ANY)}}
            },
            "/api/projects": {
                "get": {
                    "summary": "Projects by name",
                    "responses": {"200": _resp("projects", _ANY)},
                }
            },
            "/api/games": {
                "post": {
                    "summary": "Create a game; answers each seat's secret token",
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/NewGame"}}
                        }
                    },
                    "responses": {
                        "201": _resp("created", {"$ref": "#/components/schemas/Created"}),
                        **_errors(400, 404, 413, 503),
                    },
                }
            },
            "/api/games/{gid}": {
                "get": {
                    "summary": "The game as the caller may see it; legal moves for the seat to move",
                    "parameters": [_GAME_ID],
                    "security": [{}, {"seat": []}],
                    "responses": {"200": _resp("snapshot", _ANY), **_errors(401, 404)},
                }
            },
            "/api/games/{gid}/moves": {
                "post": {
                    "summary": "Play a move as the seat to move",
                    "parameters": [_GAME_ID],
                    "security": [{"seat": []}],
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Move"}}
                        }
                    },
                    "responses": {
                        "200": _resp("accepted", {"$ref": "#/components/schemas/Verdict"}),
                        "422": _resp(
                            "illegal: code, message, details",
                            {"$ref": "#/components/schemas/Verdict"},
                        ),
                        **_errors(400, 401, 403, 404, 409, 413, 429),
                    },
                }
            },
            "/api/games/{gid}/log": {
                "get": {
                    "summary": "The log: public parts (and the caller's own moves) until the "
                    "game ends, then the whole replayable envelope",
                    "parameters": [_GAME_ID],
                    "responses": {"200": _resp("log", _ANY), **_errors(401, 404)},
                }
            },
            "/api/games/{gid}/board": {
                "get": {
                    "summary": "The board as SVG, tiles turned as in the game, and node positions",
                    "parameters": [_GAME_ID],
                    "responses": {"200": _resp("picture", _ANY), **_errors(404)},
                }
            },
            "/api/games/{gid}/ws": {
                "get": {
                    "summary": "WebSocket (?token=seat token, none for a spectator): a hello "
                    "snapshot, then {type: move, ply, to_move, outcome, events} per accepted "
                    "move, events filtered for the viewer",
                    "parameters": [
                        _GAME_ID,
                        {"name": "token", "in": "query", "schema": {"type": "string"}},
                    ],
                    "responses": {"101": {"description": "switching protocols"}},
                }
            },
        },
    }
