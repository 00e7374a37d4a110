"""Slow and idle sockets: uvicorn's HTTP protocol with a deadline on each request's head.

uvicorn closes a keep-alive connection that stays silent after a response
(``timeout_keep_alive``), but a connection that sends nothing at all, or sends a
request's head a byte at a time (slowloris), is never closed: every byte cancels
its timer. The protocols here give each request ``request_timeout`` seconds,
counted from the connection (or from the first byte of the next request) to the
end of its head, however the bytes trickle in; past it the client gets a 408 JSON
error and the connection is closed. The body has the same time, counted by the app
while it reads it (:func:`referee.net.app.read_body`).

:func:`timed_protocol` serves with httptools (uvicorn's C parser, llhttp) when it
is installed — the pure-Python h11 parser and its response path were about a
quarter of the server's CPU under load — and with h11 otherwise. h11 refuses a
request head longer than :data:`MAX_HEAD` bytes (its incomplete-event limit: 400);
llhttp has no such limit, so :class:`TimedHttpToolsProtocol` counts the head's
bytes itself and answers 431 past :data:`MAX_HEAD` (at most one socket read more
is held).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Bytes a request's head (request line and headers) may take: h11's default
#: incomplete-event limit, given to h11 (``h11_max_incomplete_event_size``) and
#: enforced by the httptools protocol itself
MAX_HEAD = 16 * 1024

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is in the server extra
    HttpToolsProtocol = None  # type: ignore[assignment,misc]


def timed_protocol(request_timeout: float, *, prefer_httptools: bool = True) -> type[Any]:
    """The HTTP protocol class with ``request_timeout`` seconds per request head:
    :class:`TimedHttpToolsProtocol` when httptools is installed (and
    ``prefer_httptools``), :class:`TimedH11Protocol` otherwise."""
    base: type[Any] = TimedH11Protocol
    if prefer_httptools and HttpToolsProtocol is not None:
        base = TimedHttpToolsProtocol
    return type(base.__name__, (base,), {"request_timeout": float(request_timeout)})


def _error(status: bytes, code: str, message: str) -> bytes:
    """A complete HTTP/1.1 answer with a JSON error, closing the connection."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
        b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )


class _Deadline:
    """The request-head deadline both protocols share (``loop``, ``transport`` are
    the protocol's)."""

    request_timeout: float = 10.0
    loop: asyncio.AbstractEventLoop
    transport: Any
    _deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _answering(self) -> bool:
        """Whether a request is being answered (then the deadline is not ours)."""
        raise NotImplementedError

    def _too_slow(self) -> None:
        self._deadline = None
        transport: Any = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return
        if self._answering():
            return  # a request is being answered: not ours to cut
        message = f"the request did not arrive within {self.request_timeout:g} s"
        transport.write(_error(b"408 Request Timeout", "request_timeout", message))
        transport.close()


class TimedH11Protocol(_Deadline, H11Protocol):
    """uvicorn's h11 protocol that closes a connection slow to send a request's head."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline = None
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

    def _answering(self) -> bool:
        return self.conn.their_state is not h11.IDLE or self.conn.our_state is not h11.IDLE


if HttpToolsProtocol is not None:

    class TimedHttpToolsProtocol(_Deadline, HttpToolsProtocol):
        """uvicorn's httptools protocol that closes a connection slow to send a
        request's head, and refuses a head longer than :data:`MAX_HEAD` bytes."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            self._deadline = None
            self._in_head = False  # a request's head has begun and is not complete
            self._in_body = False  # its head is in, its body is not
            self._head_bytes = 0
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if not self._in_body:
                self._head_bytes += len(data)  # a head's bytes (or the next one's)
            super().data_received(data)
            if self._in_head and self._head_bytes > MAX_HEAD and not self.transport.is_closing():
                self._disarm()
                message = f"the request's head is longer than {MAX_HEAD} bytes"
                self.transport.write(
                    _error(b"431 Request Header Fields Too Large", "head_too_large", message)
                )
                self.transport.close()

        def on_message_begin(self) -> None:
            self._in_head = True
            self._arm()  # the first bytes of a new request: its head's time starts now
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._in_head = False
            self._in_body = True
            self._head_bytes = 0
            self._disarm()  # the head is in (or the connection switches protocols)
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._in_body = False
            super().on_message_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _answering(self) -> bool:
            return self.cycle is not None and not self.cycle.response_complete

        def _too_slow(self) -> None:
            if self._in_head and self._answering():
                # a pipelined head behind a request still being answered: no keep-alive
                # timer will watch it, so its deadline runs on (not cut mid-answer)
                self._deadline = None
                self._arm()
                return
            super()._too_slow()
