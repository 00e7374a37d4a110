"""Slow and idle sockets: uvicorn's h11 protocol with a deadline on each request's head.

uvicorn closes a keep-alive connection that stays silent after a response
(``timeout_keep_alive``), but a connection that sends nothing at all, or sends a
request's head a byte at a time (slowloris), is never closed: every byte cancels
its timer. :class:`TimedH11Protocol` gives each request ``request_timeout``
seconds, counted from the connection (or from the first byte of the next request)
to the end of its head, however the bytes trickle in; past it the client gets a
408 JSON error and the connection is closed. The body has the same time, counted
by the app while it reads it (:func:`referee.net.app.read_body`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


def timed_protocol(request_timeout: float) -> type[H11Protocol]:
    """:class:`TimedH11Protocol` with ``request_timeout`` seconds per request head."""
    return type("TimedH11", (TimedH11Protocol,), {"request_timeout": float(request_timeout)})


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol that closes a connection slow to send a request's head."""

    request_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._arm()  # the first bytes of a new request: its head's time starts now
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # the head is in (or the connection switched protocols)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        transport: Any = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return
        if self.conn.their_state is not h11.IDLE or self.conn.our_state is not h11.IDLE:
            return  # a request is being answered: not ours to cut
        body = json.dumps(
            {
                "error": {
                    "code": "request_timeout",
                    "message": f"the request did not arrive within {self.request_timeout:g} s",
                }
            }
        ).encode()
        transport.write(
            b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
        )
        transport.close()
