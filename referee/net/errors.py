"""Errors of the game server, each with an HTTP status and a JSON body.

Every answer the server gives on bad input is ``{"error": {"code", "message"[,
"details"]}}`` with the status below; an illegal move is a verdict, not an error
(see :mod:`referee.net.app`).
"""

from __future__ import annotations

from typing import Any

from ..errors import BoardwrightError


class ApiError(BoardwrightError):
    """A request the server refuses: ``status`` is the HTTP status to answer with."""

    code = "bad_request"

    def __init__(
        self,
        message: str,
        *,
        status: int = 400,
        code: str | None = None,
        details: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message, code=code, details=details)
        self.status = status
        self.headers = dict(headers or {})


def error_body(code: str, message: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON body of an error answer."""
    err: dict[str, Any] = {"code": code, "message": message}
    if details:
        err["details"] = details
    return {"error": err}
