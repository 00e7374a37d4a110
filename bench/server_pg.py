"""Load on game servers sharing their games through PostgreSQL (issue 30).

bench/server_load.py's clients (one asyncio client per game, random legal moves,
no think time, each asking for the whole snapshot as ``server_load.py --draw``
does; its ``Conn``, ``create``, ``Server`` and the referee-alone baseline are
imported from it) against, in one run:

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

All modes' servers run from the start, and the modes take turns: each mode's
``--duration`` is cut into ``--rounds`` slices, played round by round (the players
keep their games from one slice to the next), so a load that drifts on a shared
machine weighs on every mode alike.

PostgreSQL is Debian's, a throwaway cluster in a temporary folder
(:class:`referee.net.pgtemp.TempPostgres`). With ``--kill`` the first process of
each two-process mode is killed with ``SIGKILL`` in the middle of its first slice
and not restarted: its clients carry on through the other process. At the end
every answered move is looked up in the store: *lost* must be 0.

Run: ``python bench/server_pg.py [--games 200] [--duration 20] [--rounds 4] [--kill]
[--modes sqlite,pg-1,pg-2-sticky,pg-2-alternate]``. The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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


TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` has used (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def backends(pg: TempPostgres) -> dict[str, list[int]]:
    """The PostgreSQL backends of each bench database: database -> pids."""
    import psycopg

    with psycopg.connect(pg.url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT datname, pid FROM pg_stat_activity WHERE datname LIKE 'bench_%'"
        ).fetchall()
    out: dict[str, list[int]] = {}
    for name, pid in rows:
        out.setdefault(name, []).append(pid)
    return out


class Player:
    """One of the ``--games`` clients: its game and where it stands, kept from one
    slice of play to the next."""

    def __init__(self, k: int, seed: int) -> None:
        self.k = k
        self.rnd = random.Random(seed * 100003 + k)
        self.g: dict[str, Any] | None = None
        self.made = 0
        self.to_move: str | None = None
        self.ply = 0
        self.turn = k


async def client(
    p: Player,
    servers: list[Server],
    dead: set[int],
    alternate: bool,
    stats: Stats,
    until: float,
) -> None:
    """server_load's client, over several servers: one game after another until
    ``until``; the seat to move asks for its legal moves and sends one at random,
    through its own server (sticky) or the other one than the last move's
    (alternate: both requests of a move to one process, the next move's to the
    other). A server killed is skipped from then on."""
    conns = [Conn(s.url) for s in servers]

    def pick() -> Conn:
        if alternate:
            p.turn += 1
        for step in range(len(conns)):
            i = (p.turn + step) % len(conns)
            if i not in dead:
                return conns[i]
        raise ConnectionError("every server is gone")

    while time.monotonic() < until:
        try:
            conn = pick()  # a move's two requests go to one process
            if p.g is None:
                p.g = await create(conn, p.k + 1000 * p.made, stats)
                p.made += 1
                p.to_move, p.ply = p.g["to_move"], p.g["ply"]
            tokens = {s["player"]: s["token"] for s in p.g["seats"]}
            gid = p.g["game"]
            if p.to_move is None:  # after an error or a kill: where is the game now?
                status, snap = await conn.request("GET", f"/api/games/{gid}")
                p.to_move, p.ply = snap["to_move"], snap["ply"]
                if snap["outcome"] is not None:
                    p.g = None
                    continue
            status, snap = await conn.request("GET", f"/api/games/{gid}", token=tokens[p.to_move])
            if status != 200:
                stats.errors.append(f"GET {status} {str(snap)[:120]}")
                p.to_move = None
                continue
            move = p.rnd.choice(snap["moves"])
            t = time.perf_counter()
            status, out = await conn.request(
                "POST",
                f"/api/games/{gid}/moves",
                {"move": move, "expect_ply": p.ply},
                tokens[p.to_move],
            )
            dt = time.perf_counter() - t
            if status == 200:
                stats.latencies.append(dt)
                stats.answered[gid].append((out["ply"], out["move"]))
                p.to_move, p.ply = out["to_move"], out["ply"]
                if out["outcome"] is not None:
                    p.g = None
            else:
                stats.errors.append(f"POST {status} {str(out)[:120]}")
                p.to_move = None
        except ConnectionError:
            stats.interrupted += 1
            p.to_move = None
            await asyncio.sleep(0.05)
        except RuntimeError as exc:
            stats.errors.append(str(exc))
            await asyncio.sleep(0.2)
    for c in conns:
        c.close()


class Mode:
    """One way of serving (see the module): its servers, players and figures."""

    def __init__(self, name: str, db: str, games: int, seed: int) -> None:
        self.name = name
        self.db = db
        n = 2 if name.startswith("pg-2") else 1
        self.servers = [Server(db) for _ in range(n)]  # type: ignore[arg-type]  # a URL too
        self.players = [Player(k, seed) for k in range(games)]
        self.dead: set[int] = set()
        self.stats = Stats()
        self.elapsed = 0.0
        self.killed_at: int | None = None
        #: CPU seconds of the servers, and of their PostgreSQL backends, while playing
        self.cpu = 0.0
        self.db_cpu = 0.0
        self.pg: TempPostgres | None = None

    def _cpu(self) -> tuple[float, float]:
        mine = sum(cpu_s(s.proc.pid) for s in self.servers if s.proc and s.proc.poll() is None)
        theirs = 0.0
        if self.pg is not None:
            name = self.db.rsplit("/", 1)[1]
            theirs = sum(cpu_s(pid) for pid in backends(self.pg).get(name, []))
        return mine, theirs

    async def play(self, seconds: float, kill_after: float | None) -> None:
        """Play for ``seconds`` (killing the first server after ``kill_after``)."""
        cpu0, db0 = self._cpu()
        t0 = time.monotonic()
        alternate = self.name == "pg-2-alternate"
        tasks = [
            asyncio.create_task(
                client(p, self.servers, self.dead, alternate, self.stats, t0 + seconds)
            )
            for p in self.players
        ]
        if kill_after is not None:
            await asyncio.sleep(kill_after)
            self.killed_at = len(self.stats.latencies)
            cpu1, db1 = self._cpu()
            self.dead.add(0)
            self.servers[0].kill9()
            cpu2, db2 = self._cpu()  # the survivors: what the killed one used is kept
            cpu0, db0 = cpu0 - cpu1 + cpu2, db0 - db1 + db2
        await asyncio.gather(*tasks)
        self.elapsed += time.monotonic() - t0
        cpu1, db1 = self._cpu()
        self.cpu += cpu1 - cpu0
        self.db_cpu += db1 - db0


def lost_moves(store: GameStore | PostgresGameStore, stats: Stats) -> int:
    lost = 0
    for gid, answered in stats.answered.items():
        logged = {m["ply"]: m["move"] for m in store.moves(gid)}
        lost += sum(1 for ply, move in answered if logged.get(ply) != move)
    return lost


def database(mode: str, pg: TempPostgres, tmp: Path) -> str:
    """A fresh database for ``mode``: a SQLite file, or one on the cluster."""
    if mode == "sqlite":
        return str(tmp / "games.sqlite")
    import psycopg

    name = "bench_" + mode.replace("-", "_")
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return pg.url.rsplit("/", 1)[0] + "/" + name


def figures(m: Mode, rss_before: float, rss_after: float) -> dict[str, Any]:
    store: GameStore | PostgresGameStore = (
        GameStore(m.db) if m.name == "sqlite" else PostgresGameStore(m.db)
    )
    try:
        lost = lost_moves(store, m.stats)
    finally:
        store.close()
    lat = m.stats.latencies
    out: dict[str, Any] = {
        "mode": m.name,
        "processes": len(m.servers),
        "moves": len(lat),
        "moves_per_s": round(len(lat) / m.elapsed, 1),
        "p50_ms": round(pct(lat, 50) * 1000, 1),
        "p99_ms": round(pct(lat, 99) * 1000, 1),
        "errors": len(m.stats.errors),
        "interrupted": m.stats.interrupted,
        "lost": lost,
        "cpu_ms_per_move": round(m.cpu / max(1, len(lat)) * 1000, 2),
        "db_cpu_ms_per_move": round(m.db_cpu / max(1, len(lat)) * 1000, 2),
        "rss_mb": f"{rss_before:.0f}->{rss_after:.0f}",
    }
    if m.killed_at is not None:
        out["killed_at_move"] = m.killed_at
    for e in m.stats.errors[:3]:
        print(f"{m.name} error: {e}", file=sys.stderr)
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
    ap.add_argument(
        "--rounds", type=int, default=4, help="slices each mode's time is cut into (default 4)"
    )
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    if not 1 <= args.games <= 2000 or not 1 <= args.duration <= 600:
        ap.error("--games must be 1..2000 and --duration 1..600 s")
    if not 1 <= args.rounds <= 100:
        ap.error("--rounds must be 1..100")
    if not modes or any(m not in MODES for m in modes):
        ap.error(f"--modes must name some of {', '.join(MODES)}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp, TempPostgres() as pg:
        runs = [Mode(m, database(m, pg, Path(tmp)), args.games, args.seed) for m in modes]
        for m in runs:
            m.pg = pg if m.name != "sqlite" else None
        try:
            for m in runs:
                for srv in m.servers:
                    srv.start()
            time.sleep(0.5)
            rss = {m.name: sum(srv.rss_mb() for srv in m.servers) for m in runs}
            # the modes take turns, a slice each per round: a machine whose load drifts
            # (a shared one) weighs on every mode alike
            piece = args.duration / args.rounds
            for r in range(args.rounds):
                for m in runs:
                    kill = piece / 2 if args.kill and r == 0 and len(m.servers) > 1 else None
                    asyncio.run(m.play(piece, kill))
            after = {
                m.name: sum(
                    srv.rss_mb() for srv in m.servers if srv.proc and srv.proc.poll() is None
                )
                for m in runs
            }
        finally:
            for m in runs:
                for srv in m.servers:
                    srv.stop()
        rows = [figures(m, rss[m.name], after[m.name]) for m in runs]
    base = baseline(min(max(r["moves"] for r in rows), 3000) or 100, args.seed)
    ref = next((r["moves_per_s"] for r in rows if r["mode"] == "sqlite"), None)
    for r in rows:
        r["x_sqlite"] = round(r["moves_per_s"] / ref, 2) if ref else None
        r["x_referee"] = round(r["moves_per_s"] / base, 2)
    cols = ["mode", "processes", "moves_per_s", "x_sqlite", "x_referee", "p50_ms", "p99_ms"]
    cols += ["cpu_ms_per_move", "db_cpu_ms_per_move", "errors", "interrupted", "lost", "rss_mb"]
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
