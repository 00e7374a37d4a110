"""Load on game servers sharing their games through PostgreSQL (issue 30).

bench/server_load.py's clients (one asyncio client per game, random legal moves,
no think time; its ``Conn``, ``create``, ``Server`` and the referee-alone baseline
are imported from it) against, in one run:

``sqlite``
    one ``referee serve --http`` process on SQLite: today's server, the baseline;
``pg-1``
    one process on PostgreSQL;
``pg-2-sticky``
    two processes on one PostgreSQL, each game played through one of them (what a
    load balancer with session affinity does);
``pg-2-alternate``
    two processes, every move of every game sent to the other process than the
    one before (the worst case: each move finds the game moved on elsewhere).

PostgreSQL is Debian's, a throwaway cluster in a temporary folder
(:class:`referee.net.pgtemp.TempPostgres`). With ``--kill`` the first process of
each two-process mode is killed with ``SIGKILL`` half-way and not restarted: its
clients carry on through the other process. At the end every answered move is
looked up in the store: *lost* must be 0.

Run: ``python bench/server_pg.py [--games 200] [--duration 20] [--kill]
[--modes sqlite,pg-1,pg-2-sticky,pg-2-alternate]``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from server_load import Conn, Server, Stats, baseline, create, pct

from referee.net.pgstore import PostgresGameStore
from referee.net.pgtemp import TempPostgres
from referee.net.store import GameStore

MODES = ("sqlite", "pg-1", "pg-2-sticky", "pg-2-alternate")


async def client(
    k: int,
    servers: list[Server],
    dead: set[int],
    alternate: bool,
    stats: Stats,
    until: float,
    seed: int,
) -> None:
    """server_load's client, over several servers: one game after another until
    ``until``; the seat to move asks for its legal moves and sends one at random,
    through its own server (sticky) or the other one than the last move's
    (alternate: both requests of a move to one process, the next move's to the other). A
    server killed is skipped from then on."""
    rnd = random.Random(seed * 100003 + k)
    conns = [Conn(s.url) for s in servers]
    g: dict[str, Any] | None = None
    made = 0
    to_move: str | None = None
    ply = 0
    turn = k

    def pick() -> Conn:
        nonlocal turn
        if alternate:
            turn += 1
        for step in range(len(conns)):
            i = (turn + step) % len(conns)
            if i not in dead:
                return conns[i]
        raise ConnectionError("every server is gone")

    while time.monotonic() < until:
        try:
            conn = pick()  # a move's two requests go to one process; the next move's to the other
            if g is None:
                g = await create(conn, k + 1000 * made, stats)
                made += 1
                to_move, ply = g["to_move"], g["ply"]
            tokens = {s["player"]: s["token"] for s in g["seats"]}
            gid = g["game"]
            if to_move is None:  # after an error or a kill: where is the game now?
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
            await asyncio.sleep(0.05)
        except RuntimeError as exc:
            stats.errors.append(str(exc))
            await asyncio.sleep(0.2)
    for c in conns:
        c.close()


async def run(
    args: argparse.Namespace, servers: list[Server], alternate: bool, stats: Stats
) -> dict[str, Any]:
    dead: set[int] = set()
    t0 = time.monotonic()
    until = t0 + args.duration
    tasks = [
        asyncio.create_task(client(k, servers, dead, alternate, stats, until, args.seed))
        for k in range(args.games)
    ]
    killed: dict[str, Any] = {}
    if args.kill and len(servers) > 1:
        await asyncio.sleep(args.duration / 2)
        killed["moves_before_kill"] = len(stats.latencies)
        dead.add(0)
        servers[0].kill9()
    await asyncio.gather(*tasks)
    return {"elapsed": time.monotonic() - t0, **killed}


def lost_moves(store: GameStore | PostgresGameStore, stats: Stats) -> int:
    lost = 0
    for gid, answered in stats.answered.items():
        logged = {m["ply"]: m["move"] for m in store.moves(gid)}
        lost += sum(1 for ply, move in answered if logged.get(ply) != move)
    return lost


def one_mode(mode: str, args: argparse.Namespace, pg: TempPostgres, tmp: Path) -> dict[str, Any]:
    if mode == "sqlite":
        db: str = str(tmp / "games.sqlite")
    else:
        name = "bench_" + mode.replace("-", "_")
        import psycopg

        with psycopg.connect(pg.url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name}")
            conn.execute(f"CREATE DATABASE {name}")
        db = pg.url.rsplit("/", 1)[0] + "/" + name
    n = 2 if mode.startswith("pg-2") else 1
    servers = [Server(db) for _ in range(n)]  # type: ignore[arg-type]  # a URL, not a path
    stats = Stats()
    try:
        for s in servers:
            s.start()
        time.sleep(0.5)
        rss_before = sum(s.rss_mb() for s in servers)
        res = asyncio.run(run(args, servers, mode == "pg-2-alternate", stats))
        rss_after = sum(s.rss_mb() for s in servers if s.proc and s.proc.poll() is None)
    finally:
        for s in servers:
            s.stop()
    store: GameStore | PostgresGameStore = (
        GameStore(db) if mode == "sqlite" else PostgresGameStore(db)
    )
    try:
        lost = lost_moves(store, stats)
    finally:
        store.close()
    moves = len(stats.latencies)
    out = {
        "mode": mode,
        "processes": n,
        "moves": moves,
        "moves_per_s": round(moves / res["elapsed"], 1),
        "p50_ms": round(pct(stats.latencies, 50) * 1000, 1),
        "p99_ms": round(pct(stats.latencies, 99) * 1000, 1),
        "errors": len(stats.errors),
        "interrupted": stats.interrupted,
        "lost": lost,
        "rss_mb": f"{rss_before}->{rss_after}",
    }
    if "moves_before_kill" in res:
        out["killed_at_move"] = res["moves_before_kill"]
    for e in stats.errors[:3]:
        print(f"{mode} error: {e}", file=sys.stderr)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    ap.add_argument(
        "--duration", type=float, default=20.0, help="seconds of play per mode (default 20)"
    )
    ap.add_argument(
        "--kill", action="store_true", help="kill -9 one of two processes half-way (not restarted)"
    )
    ap.add_argument(
        "--modes", default=",".join(MODES), help=f"comma-separated, of {', '.join(MODES)}"
    )
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    if not 1 <= args.games <= 2000 or not 1 <= args.duration <= 600:
        ap.error("--games must be 1..2000 and --duration 1..600 s")
    if not modes or any(m not in MODES for m in modes):
        ap.error(f"--modes must name some of {', '.join(MODES)}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp, TempPostgres() as pg:
        for mode in modes:
            rows.append(one_mode(mode, args, pg, Path(tmp)))
    base = baseline(min(max(r["moves"] for r in rows), 3000) or 100, args.seed)
    ref = next((r["moves_per_s"] for r in rows if r["mode"] == "sqlite"), None)
    for r in rows:
        r["x_sqlite"] = round(r["moves_per_s"] / ref, 2) if ref else None
        r["x_referee"] = round(r["moves_per_s"] / base, 2)
    cols = ["mode", "processes", "moves_per_s", "x_sqlite", "x_referee", "p50_ms", "p99_ms"]
    cols += ["errors", "interrupted", "lost", "rss_mb"]
    print(" ".join(f"{c:>14}" for c in cols))
    for r in rows:
        print(" ".join(f"{r.get(c)!s:>14}" for c in cols))
    print(f"referee alone (same mix, same run): {base:.0f} moves/s")
    fig = {
        "benchmark": "server_pg",
        "games": args.games,
        "duration_s": args.duration,
        "killed": bool(args.kill),
        "baseline_direct_moves_per_s": round(base, 1),
        "modes": rows,
    }
    print(json.dumps(fig))
    return 1 if any(r["errors"] or r["lost"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
