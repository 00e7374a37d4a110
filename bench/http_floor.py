"""The HTTP floor of the game server: what a request costs the server when it does
no work of the referee's.

Starts ``referee serve --http`` as a real process on 127.0.0.1 (as
``bench/server_load.py`` does), creates one game and has ``--clients`` keep-alive
clients send ``--requests`` requests in all, as fast as the server answers, of
three kinds:

- ``rules``: ``GET /api/rules`` (no game, no token: routing, the answer, the socket);
- ``snapshot``: the seat to move's ``GET /api/games/{id}?omit=figures,pieces,targets``
  of a game that does not move (the answer made and encoded once, then served from
  the per-ply cache: what is left is the token's check and HTTP);
- ``snapshot_drawn``: the same without ``?omit=`` (the answer as the browser table
  gets it, also cached).

It reports the server's CPU per request (``/proc/<pid>/stat``) and requests per
second, and what that floor implies: a move is two requests (the seat's snapshot and
its ``POST``), so the server's moves per second cannot pass 1 / (2 x the snapshot's
CPU) even if making a view and playing a move cost nothing. Beside it, the referee
alone on server_load's games in this same run and 0.7 x that (issue 30's target for
``server_load`` with no think time).

Run: ``python bench/http_floor.py [--clients 50] [--requests 20000]``. Prints a table;
the last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import ADMIN, Conn, Server, baseline

KINDS = ("rules", "snapshot", "snapshot_drawn")


async def _hammer(server: Server, path: str, token: str | None, clients: int, n: int) -> float:
    """``n`` GETs of ``path`` over ``clients`` connections; their wall time."""
    left = [n]

    async def one() -> None:
        conn = Conn(server.url)
        try:
            while left[0] > 0:
                left[0] -= 1
                status, _ = await conn.request("GET", path, token=token)
                if status != 200:
                    raise SystemExit(f"GET {path}: {status}")
        finally:
            conn.close()

    t = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(clients)))
    return time.perf_counter() - t


async def _measure(server: Server, clients: int, n: int) -> dict[str, dict[str, float]]:
    conn = Conn(server.url)
    status, g = await conn.request(
        "POST",
        "/api/games",
        {"rules": "ringgeister", "project": "ringgeister", "players": 2, "seed": 1},
        token=ADMIN,
    )
    conn.close()
    if status != 201:
        raise SystemExit(f"create: {status} {str(g)[:200]}")
    seat = next(s["token"] for s in g["seats"] if s["player"] == g["to_move"])
    paths = {
        "rules": ("/api/rules", None),
        "snapshot": (f"/api/games/{g['game']}?omit=figures,pieces,targets", seat),
        "snapshot_drawn": (f"/api/games/{g['game']}", seat),
    }
    out: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        path, token = paths[kind]
        await _hammer(server, path, token, clients, min(n, 2000))  # warm up
        cpu = server.cpu()
        wall = await _hammer(server, path, token, clients, n)
        used = server.cpu() - cpu
        out[kind] = {
            "server_cpu_ms_per_request": round(used / n * 1000, 4),
            "requests_per_s": round(n / wall, 1),
        }
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50, help="connections (default 50)")
    ap.add_argument("--requests", type=int, default=20000, help="requests a kind (default 20000)")
    args = ap.parse_args()
    if not 1 <= args.clients <= 500 or not 100 <= args.requests <= 1_000_000:
        ap.error("--clients must be 1..500 and --requests 100..1000000")
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "games.sqlite")
        server.start()
        try:
            got = asyncio.run(_measure(server, args.clients, args.requests))
        finally:
            server.stop()
    referee = baseline(20000, 1)
    floor = got["snapshot"]["server_cpu_ms_per_request"]
    ceiling = 1000 / (2 * floor)
    print(
        f"http_floor: {args.clients} clients, {args.requests} requests a kind; "
        f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(f"{'request':16} {'server CPU ms':>14} {'requests/s':>11}")
    for kind in KINDS:
        r = got[kind]
        print(f"{kind:16} {r['server_cpu_ms_per_request']:>14} {r['requests_per_s']:>11}")
    print(f"moves/s ceiling of one server process (2 requests a move): {ceiling:.0f}")
    print(f"referee alone: {referee:.0f} moves/s; 0.7 x that: {0.7 * referee:.0f}")
    print(
        json.dumps(
            {
                "benchmark": "http_floor",
                "clients": args.clients,
                "requests_a_kind": args.requests,
                "load_average": [round(x, 2) for x in load],
                "kinds": got,
                "moves_per_s_ceiling": round(ceiling, 1),
                "referee_alone_moves_per_s": round(referee, 1),
                "target_moves_per_s": round(0.7 * referee, 1),
                "ceiling_over_target": round(ceiling / (0.7 * referee), 3),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
