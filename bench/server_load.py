"""Load on the game server (issue 18): concurrent games played by random-move clients.

Starts ``referee serve --http`` as a real process on 127.0.0.1 (a fresh database in
a temporary folder), creates ``--games`` games (Ringgeister, Riddle of the Ring,
Mount Doom and the cooperative game in turn) and runs one asyncio client per game
for ``--duration`` seconds: it asks the seat to move for its legal moves (``GET``
with the seat's token) and plays one at random (``POST .../moves`` with
``expect_ply``); a finished game is replaced by a new one. It reports moves per
second, the latency of a move (p50/p99), errors (every answer but 200/201, target
0), and the server's memory (RSS) before and after.

With ``--kill`` the server is killed with ``SIGKILL`` half-way and started again on
the same database; clients retry until it answers. Requests cut off by the kill
are counted as *interrupted*, not as errors. At the end every move a client got an
answer for is looked up in the store: *lost* must be 0.

The baseline, measured side by side in this process: the same games played with
the same random choice through the Game API directly (no HTTP, no store), for the
same number of moves — the referee's own speed, which bounds the server's.

Run: ``python bench/server_load.py [--games 200] [--duration 60] [--kill]``
(loopback only; bounded by --games and --duration). The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.envelopes import new_game
from referee.net.store import GameStore

ROOT = Path(__file__).resolve().parent.parent
PROJECTS = ROOT / "projects"
MIX = [
    ("ringgeister", "ringgeister", 2),
    ("riddle", "riddle-sample", 3),
    ("mount-doom", "mount-doom", 2),
    ("lotr-coop", "lotr-coop", 2),
]
#: the benchmark's own server creates its games with this admin token
ADMIN = "bench-server-load-admin-token"


class Server:
    """``referee serve --http`` in a child process."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self, port: int = 0) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "referee",
                "serve",
                "--http",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--projects",
                str(PROJECTS),
                "--db",
                str(self.db),
                "--moves-per-second",
                "1000",
                "--max-games",
                "100000",
                "--admin-token",
                ADMIN,
            ],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
        )
        assert self.proc.stderr is not None
        line = self.proc.stderr.readline()
        m = re.search(r"(http://\S+?)\s", line)
        if not m:
            raise SystemExit(f"server did not start: {line}")
        self.url = m.group(1)

    def rss_mb(self) -> float:
        assert self.proc is not None
        text = Path(f"/proc/{self.proc.pid}/status").read_text()
        kb = int(re.search(r"VmRSS:\s+(\d+)", text).group(1))  # type: ignore[union-attr]
        return round(kb / 1024, 1)

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.interrupted = 0
        self.games_created = 0
        #: game -> (ply, move) of every move a client got an answer for
        self.answered: dict[str, list[tuple[int, str]]] = {}


class Conn:
    """A minimal keep-alive HTTP/1.1 client over one asyncio connection.

    httpx's async pool costs more CPU per request than the server does under 200
    concurrent clients on a small machine; a load generator must be lighter than
    what it loads.
    """

    def __init__(self, url: str) -> None:
        host, port = url.split("//", 1)[1].rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        try:
            self.writer.write(head.encode() + b"\r\n" + data)
            await self.writer.drain()
            raw = await self.reader.readuntil(b"\r\n\r\n")
            lines = raw.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            length = next(
                int(v)
                for k, _, v in (h.partition(":") for h in lines[1:])
                if k.lower() == "content-length"
            )
            payload = await self.reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, ValueError, StopIteration):
            self.close()
            raise ConnectionError("connection lost") from None
        return status, json.loads(payload)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def create(conn: Conn, k: int, stats: Stats) -> dict[str, Any]:
    rules, project, players = MIX[k % len(MIX)]
    status, g = await conn.request(
        "POST",
        "/api/games",
        {"rules": rules, "project": project, "players": players, "seed": k},
        token=ADMIN,
    )
    if status != 201:
        raise RuntimeError(f"create: {status} {str(g)[:200]}")
    stats.games_created += 1
    stats.answered[g["game"]] = []
    return g  # type: ignore[no-any-return]


async def client(k: int, server: Server, stats: Stats, until: float, seed: int) -> None:
    """Play one game after another until ``until``: per move, the seat to move asks for
    its legal moves and sends one at random."""
    rnd = random.Random(seed * 100003 + k)
    g: dict[str, Any] | None = None
    made = 0
    conn = Conn(server.url)
    to_move: str | None = None
    ply = 0
    while time.monotonic() < until:
        try:
            if conn.port != int(server.url.rsplit(":", 1)[1]):
                conn = Conn(server.url)
            if g is None:
                g = await create(conn, k + 1000 * made, stats)
                made += 1
                to_move, ply = g["to_move"], g["ply"]
            tokens = {s["player"]: s["token"] for s in g["seats"]}
            gid = g["game"]
            if to_move is None:  # after a restart: where is the game now?
                status, snap = await conn.request("GET", f"/api/games/{gid}")
                to_move, ply = snap["to_move"], snap["ply"]
                if snap["outcome"] is not None:
                    g = None
                    continue
            status, snap = await conn.request("GET", f"/api/games/{gid}", token=tokens[to_move])
            if status != 200:
                stats.errors.append(f"GET {status} {str(snap)[:120]}")
                to_move = None
                continue
            move = rnd.choice(snap["moves"])
            t = time.perf_counter()
            status, out = await conn.request(
                "POST",
                f"/api/games/{gid}/moves",
                {"move": move, "expect_ply": ply},
                tokens[to_move],
            )
            dt = time.perf_counter() - t
            if status == 200:
                stats.latencies.append(dt)
                stats.answered[gid].append((out["ply"], out["move"]))
                to_move, ply = out["to_move"], out["ply"]
                if out["outcome"] is not None:
                    g = None
            else:
                stats.errors.append(f"POST {status} {str(out)[:120]}")
                to_move = None
        except ConnectionError:
            stats.interrupted += 1
            to_move = None
            await asyncio.sleep(0.2)
        except RuntimeError as exc:
            stats.errors.append(str(exc))
            await asyncio.sleep(0.2)
    conn.close()


async def run(args: argparse.Namespace, server: Server, stats: Stats) -> dict[str, Any]:
    t0 = time.monotonic()
    until = t0 + args.duration
    tasks = [
        asyncio.create_task(client(k, server, stats, until, args.seed)) for k in range(args.games)
    ]
    restart: dict[str, Any] = {}
    if args.kill:
        await asyncio.sleep(args.duration / 2)
        before = len(stats.latencies)
        port = int(server.url.rsplit(":", 1)[1])
        server.kill9()
        t_kill = time.monotonic()
        await asyncio.to_thread(server.start, port)
        restart = {
            "moves_before_kill": before,
            "restart_seconds": round(time.monotonic() - t_kill, 2),
        }
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - t0
    return {"elapsed": elapsed, **restart}


def baseline(moves: int, seed: int) -> float:
    """Moves per second through the Game API directly (same mix, random choice)."""
    rnd = random.Random(seed)
    done = 0
    t = time.perf_counter()
    k = 0
    while done < moves:
        rules, project, players = MIX[k % len(MIX)]
        game, _ = new_game(rules, str(PROJECTS / project), players, k, {})
        k += 1
        while done < moves and game.outcome is None:
            choices = [str(m) for m in game.legal_moves]
            game.push(game.parse_move(rnd.choice(choices)))
            game.to_json()
            done += 1
    return done / (time.perf_counter() - t)


def lost_moves(db: Path, stats: Stats) -> int:
    store = GameStore(db)
    try:
        lost = 0
        for gid, answered in stats.answered.items():
            logged = {m["ply"]: m["move"] for m in store.moves(gid)}
            lost += sum(1 for ply, move in answered if logged.get(ply) != move)
        return lost
    finally:
        store.close()


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of play (default 60)")
    ap.add_argument("--kill", action="store_true", help="kill -9 and restart the server half-way")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 1 <= args.games <= 2000 or not 1 <= args.duration <= 600:
        ap.error("--games must be 1..2000 and --duration 1..600 s")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite"
        server = Server(db)
        server.start()
        try:
            time.sleep(0.5)
            rss_before = server.rss_mb()
            stats = Stats()
            res = asyncio.run(run(args, server, stats))
            rss_after = server.rss_mb()
        finally:
            server.stop()
        lost = lost_moves(db, stats)
    moves = len(stats.latencies)
    base = baseline(min(moves, 3000) or 100, args.seed)
    rate = moves / res["elapsed"]
    fig: dict[str, Any] = {
        "benchmark": "server_load",
        "games": args.games,
        "games_created": stats.games_created,
        "duration_s": round(res["elapsed"], 1),
        "killed": bool(args.kill),
        "moves": moves,
        "moves_per_s": round(rate, 1),
        "latency_p50_ms": round(pct(stats.latencies, 50) * 1000, 1),
        "latency_p99_ms": round(pct(stats.latencies, 99) * 1000, 1),
        "errors": len(stats.errors),
        "interrupted": stats.interrupted,
        "lost": lost,
        "rss_before_mb": rss_before,
        "rss_after_mb": rss_after,
        "baseline_direct_moves_per_s": round(base, 1),
    }
    if args.kill:
        fig["moves_before_kill"] = res["moves_before_kill"]
        fig["restart_s"] = res["restart_seconds"]
    print(f"{'figure':32} {'value':>12}")
    for k, v in fig.items():
        if k != "benchmark":
            print(f"{k:32} {v!s:>12}")
    for e in stats.errors[:5]:
        print("error:", e)
    print(json.dumps(fig))
    return 1 if stats.errors or lost else 0


if __name__ == "__main__":
    sys.exit(main())
