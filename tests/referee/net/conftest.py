"""Fixtures of the game-server tests: a real server on a free loopback port.

``server`` runs :class:`referee.net.HostedServer` (uvicorn) in a thread; ``Client``
drives it with httpx and records every byte each seat receives (the hidden
information test reads those streams).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.net import HostedServer, Limits

REPO = Path(__file__).resolve().parents[3]
PROJECTS = REPO / "projects"
#: the admin token of the servers the tests start
ADMIN = "test-admin-token-0123456789"
AS_ADMIN = {"Authorization": f"Bearer {ADMIN}"}


class Client:
    """An HTTP client of one server; ``token`` makes it a seat."""

    def __init__(self, url: str, token: str | None = None) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=url, headers=headers, timeout=30)
        self.received: list[bytes] = []

    def get(self, path: str) -> httpx.Response:
        r = self.http.get(path)
        self.received.append(r.content)
        return r

    def post(self, path: str, body: Any = None, *, content: bytes | None = None) -> httpx.Response:
        if content is None:
            content = json.dumps(body).encode()
        r = self.http.post(path, content=content, headers={"Content-Type": "application/json"})
        self.received.append(r.content)
        return r

    def close(self) -> None:
        self.http.close()


def create(url: str, **body: Any) -> dict[str, Any]:
    """Create a game with the admin token (the test servers' :data:`ADMIN`)."""
    r = httpx.post(url + "/api/games", json=body, headers=AS_ADMIN, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Any]:
    started: list[HostedServer] = []

    def make(
        projects: Any = PROJECTS,
        db: Path | None = None,
        open_creation: bool = False,
        **limits: Any,
    ) -> HostedServer:
        srv = HostedServer(
            projects,
            db or tmp_path / "games.sqlite",
            limits=Limits(**limits),
            admin_token=ADMIN,
            open_creation=open_creation,
        )
        srv.start()
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


@pytest.fixture
def server(make_server: Any) -> HostedServer:
    return make_server(moves_per_second=1000)  # type: ignore[no-any-return]


class ServerProcess:
    """``referee serve --http`` as a real subprocess (for kill -9)."""

    def __init__(self, db: Path, projects: Path = PROJECTS, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "referee",
                "serve",
                "--http",
                "--port",
                "0",
                "--projects",
                str(projects),
                "--db",
                str(db),
                "--admin-token",
                ADMIN,
                *extra,
            ],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        m = re.search(r"(http://\S+?)\s", line)
        assert m, f"server did not start: {line!r}"
        self.url = m.group(1)

    def kill9(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture
def server_process() -> Iterator[Any]:
    procs: list[ServerProcess] = []

    def start(db: Path, *extra: str) -> ServerProcess:
        p = ServerProcess(db, PROJECTS, *extra)
        procs.append(p)
        return p

    yield start
    for p in procs:
        p.stop()


def wait_until(cond: Any, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return bool(cond())
