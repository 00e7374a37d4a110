"""The server parses HTTP with httptools (a C parser) when it is installed and with
h11 otherwise (referee.net.guard.timed_protocol); the guards hold with either: a
request head longer than MAX_HEAD bytes is refused and its connection closed, a
silent or trickling socket gets a 408, pipelined requests are answered in order."""

from __future__ import annotations

import contextlib
import socket
from typing import Any

import httpx
import pytest

from referee.net import guard

from .test_slow_clients import _closed_within, _connect

PARSERS = ["httptools", "h11"]


@pytest.fixture(params=PARSERS)
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "httptools":
        pytest.importorskip("httptools")
    else:
        monkeypatch.setattr(guard, "HttpToolsProtocol", None)  # as without httptools
    return str(request.param)


def _protocol(srv: Any) -> type[Any]:
    return srv._server.config.http  # type: ignore[no-any-return]


def test_the_parser_is_httptools_when_installed_else_h11(make_server, parser):
    srv = make_server()
    if parser == "httptools":
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        assert issubclass(_protocol(srv), HttpToolsProtocol)
    else:
        assert issubclass(_protocol(srv), guard.TimedH11Protocol)
    assert httpx.get(srv.url + "/api/rules").status_code == 200


def _read_to_close(s: socket.socket) -> bytes:
    got = b""
    with contextlib.suppress(OSError):  # a reset after the server's answer
        while chunk := s.recv(65536):
            got += chunk
    return got


def _send_all(srv: Any, data: bytes) -> bytes:
    """Send ``data`` (as much as the server takes) and read until it closes."""
    s = _connect(srv)
    try:
        with contextlib.suppress(OSError):  # closed while we were still sending
            s.sendall(data)
        return _read_to_close(s)
    finally:
        s.close()


@pytest.mark.parametrize("where", ["header", "url"])
def test_a_head_over_the_limit_is_refused_and_closed(make_server, parser, where):
    """Longer than a socket read: both parsers accept a whole head that arrives in
    one read, however long (h11's limit is on an incomplete head)."""
    srv = make_server()
    big = b"a" * (64 * guard.MAX_HEAD)
    if where == "header":
        head = b"GET /api/rules HTTP/1.1\r\nHost: x\r\nX-Big: " + big + b"\r\n\r\n"
    else:
        head = b"GET /api/rules?q=" + big + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    got = _send_all(srv, head)
    expected = b"HTTP/1.1 431" if parser == "httptools" else b"HTTP/1.1 400"
    assert got.startswith(expected), got[:200]
    # the server goes on answering everyone else
    assert httpx.get(srv.url + "/api/rules").status_code == 200


def test_a_never_ending_header_is_cut_off_at_the_limit(make_server, parser):
    """A header that never ends (no CRLF): the server does not keep reading it."""
    srv = make_server()
    s = _connect(srv)
    sent = 0
    try:
        s.sendall(b"GET /api/rules HTTP/1.1\r\nHost: x\r\nX-Endless: ")
        with contextlib.suppress(OSError):  # the server closed the connection
            while sent < 32 * 1024 * 1024:
                s.sendall(b"a" * 4096)
                sent += 4096
        got = _read_to_close(s)
    finally:
        s.close()
    assert got.startswith(b"HTTP/1.1 4"), got[:200]
    assert sent < 32 * 1024 * 1024  # closed long before the client stopped


def test_a_head_under_the_limit_is_served(make_server, parser):
    assert guard.MAX_HEAD == 16 * 1024  # docs/explanation/game-server.md quotes it
    srv = make_server()
    r = httpx.get(srv.url + "/api/rules", headers={"X-Big": "a" * (guard.MAX_HEAD // 2)})
    assert r.status_code == 200


def test_silent_and_trickling_sockets_get_408(make_server, parser):
    srv = make_server(request_timeout=1.0)
    s = _connect(srv)
    try:
        _, got = _closed_within(s, 10)
    finally:
        s.close()
    assert got.startswith(b"HTTP/1.1 408") and b"request_timeout" in got
    s = _connect(srv)
    try:
        s.sendall(b"GET /api/rules HTTP/1.1\r\nHost: x\r\n")
        _, got = _closed_within(s, 10, trickle=b"X-Slow: " + b"a" * 200)
    finally:
        s.close()
    assert got.startswith(b"HTTP/1.1 408")


def test_pipelined_requests_are_answered_in_order(make_server, parser):
    srv = make_server(request_timeout=1.0)
    s = socket.create_connection((srv.host, srv.port), timeout=10)
    try:
        s.sendall(
            b"GET /api/rules HTTP/1.1\r\nHost: x\r\n\r\n"
            b"GET /api/nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    finally:
        s.close()
    first = got.find(b"HTTP/1.1 200")
    second = got.find(b"HTTP/1.1 404")
    assert 0 == first < second, got[:300]


def test_a_trickled_head_pipelined_behind_a_request_is_cut_off(make_server, parser):
    srv = make_server(request_timeout=1.0)
    s = _connect(srv)
    try:
        s.sendall(
            b"GET /api/rules HTTP/1.1\r\nHost: x\r\n\r\nGET /api/rules HTTP/1.1\r\nHost: x\r\n"
        )
        took, got = _closed_within(s, 10, trickle=b"X-Slow: " + b"a" * 200)
    finally:
        s.close()
    assert took < 8, took
    assert got.startswith(b"HTTP/1.1 200") and b"HTTP/1.1 408" in got, got[-300:]
