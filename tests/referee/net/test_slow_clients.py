"""One request must not hold up every client (issue 25): compiling a project runs in
a worker thread (reading the projects' list in a worker process), so a request
arriving while a large project compiles is answered within 200 ms; slow and idle
sockets (slowloris) are closed after the request timeout. Against a real server on a
loopback port: for the timings, a ``referee serve --http`` process of its own, as
clients are (a server in the test's own process would share its interpreter lock
with the client)."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from referee.generators import voronoi_map
from referee.store import export_json

from .conftest import AS_ADMIN, PROJECTS, ServerProcess, create

#: Voronoi spaces of the large project: about a second to load and compile here
BIG = 10_000


@pytest.fixture(scope="module")
def big_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("projects")
    shutil.copytree(PROJECTS / "mount-doom", root / "mount-doom")
    board = voronoi_map(BIG, seed=1)
    for k in range(3):
        (root / f"big{k}").mkdir()
        export_json(board, root / f"big{k}" / f"big{k}.json")
    return root


def _timed(fn: Any) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


@pytest.fixture
def big_server(big_root: Path, tmp_path: Path) -> Any:
    p = ServerProcess(tmp_path / "games.sqlite", big_root)
    yield p
    p.stop()


def _while_busy(slow: Any, fast: Any) -> tuple[list[float], bool, float]:
    """Start ``slow`` in a thread, then time ``fast`` five times while it runs;
    whether ``slow`` was still running when the last ``fast`` answered, and how long
    ``slow`` took. A server whose event loop the slow request blocked answers the
    first ``fast`` only once the slow work is done: it takes about as long as
    ``slow``, and ``slow`` is over before the fifth (no wall-clock bound, which a
    loaded machine would break: the two are compared with each other)."""
    done = threading.Event()
    took: list[float] = []

    def run() -> None:
        t0 = time.perf_counter()
        try:
            slow()
        finally:
            took.append(time.perf_counter() - t0)
            done.set()

    t = threading.Thread(target=run)
    t.start()
    time.sleep(0.15)  # the slow request is in, its compile under way
    times = []
    for _ in range(5):
        dt, r = _timed(fast)
        assert r.status_code == 200, r.text
        times.append(dt)
    busy = not done.is_set()
    t.join(120)
    return times, busy, took[0]


def test_a_request_is_answered_while_a_large_project_compiles(big_server):
    srv = big_server
    g = create(srv.url, rules="mount-doom", project="mount-doom", players=2, seed=1)
    client = httpx.Client(base_url=srv.url, timeout=30)

    def slow() -> None:
        # a Voronoi map is no Riddle board: the game is refused, after the compile
        httpx.post(
            srv.url + "/api/games",
            json={"rules": "riddle", "project": "big0", "players": 3},
            headers=AS_ADMIN,
            timeout=120,
        )

    with client:
        client.get("/api/rules")  # connected: what is timed is the server's answer
        times, busy, took = _while_busy(slow, lambda: client.get(f"/api/games/{g['game']}"))
    assert busy, f"the game was answered only after the compile ended ({times}, {took:.2f} s)"
    assert max(times) < took / 2, (times, took)


def test_listing_large_projects_does_not_hold_up_other_requests(big_server):
    srv = big_server
    client = httpx.Client(base_url=srv.url, timeout=30)
    with client:
        client.get("/api/rules")
        times, busy, took = _while_busy(
            lambda: httpx.get(srv.url + "/api/projects", timeout=120),
            lambda: client.get("/api/rules"),
        )
    assert busy, f"the rules were answered only after the listing ended ({times}, {took:.2f} s)"
    assert max(times) < took / 2, (times, took)
    names = {
        p["name"] for p in httpx.get(srv.url + "/api/projects", timeout=120).json()["projects"]
    }
    assert {"big0", "big1", "big2", "mount-doom"} <= names


def _connect(srv: Any) -> socket.socket:
    s = socket.create_connection((srv.host, srv.port), timeout=10)
    s.settimeout(10)
    return s


def _closed_within(s: socket.socket, seconds: float, trickle: bytes = b"") -> tuple[float, bytes]:
    """Send ``trickle`` a byte every 0.2 s until the server closes the socket; how
    long that took and what the server said."""
    t0 = time.monotonic()
    got = b""
    s.settimeout(0.2)
    i = 0
    while time.monotonic() - t0 < seconds:
        try:
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
        except TimeoutError:
            if i < len(trickle):
                try:
                    s.sendall(trickle[i : i + 1])
                except OSError:
                    break
                i += 1
        except OSError:
            break
    return time.monotonic() - t0, got


def test_a_socket_that_sends_nothing_is_closed(make_server):
    srv = make_server(request_timeout=1.0)
    s = _connect(srv)
    try:
        took, got = _closed_within(s, 10)
    finally:
        s.close()
    assert took < 3, took
    assert got.startswith(b"HTTP/1.1 408") and b"request_timeout" in got


def test_a_slowloris_request_head_is_cut_off(make_server):
    srv = make_server(request_timeout=1.0)
    s = _connect(srv)
    try:
        s.sendall(b"GET /api/rules HTTP/1.1\r\nHost: x\r\n")
        # one more header byte every 0.2 s: each byte used to restart nothing, and
        # the connection stayed open for good
        took, got = _closed_within(s, 10, trickle=b"X-Slow: " + b"a" * 200)
    finally:
        s.close()
    assert took < 3, took
    assert got.startswith(b"HTTP/1.1 408")
    # the server goes on answering everyone else
    assert httpx.get(srv.url + "/api/rules").status_code == 200


def test_a_trickled_body_is_answered_408_and_closed(make_server):
    srv = make_server(request_timeout=1.0)
    s = _connect(srv)
    try:
        s.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 500\r\n\r\n{"
        )
        took, got = _closed_within(s, 10, trickle=b'"rules": "' + b"r" * 200)
    finally:
        s.close()
    assert took < 3, took
    assert got.startswith(b"HTTP/1.1 408") and b"request_timeout" in got


def test_keep_alive_connections_still_serve_several_requests(make_server):
    srv = make_server(request_timeout=1.0)
    with httpx.Client(base_url=srv.url) as c:
        for _ in range(3):
            assert c.get("/api/rules").status_code == 200
            time.sleep(0.5)  # idle between requests, under uvicorn's keep-alive


def _children(pid: int) -> set[int]:
    """The child processes of ``pid`` (of every one of its threads)."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            continue
    return out


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_the_project_reader_does_not_outlive_a_killed_server(tmp_path):
    srv = ServerProcess(tmp_path / "games.sqlite", PROJECTS)
    try:
        assert httpx.get(srv.url + "/api/projects", timeout=60).status_code == 200
        workers = _children(srv.proc.pid)
        assert workers, "the projects were not read by a worker process"
        srv.kill9()
        end = time.monotonic() + 10
        while time.monotonic() < end and any(Path(f"/proc/{w}").exists() for w in workers):
            time.sleep(0.1)
        alive = [w for w in workers if Path(f"/proc/{w}").exists()]
        assert not alive, f"worker(s) {alive} outlived the server"
    finally:
        srv.stop()
