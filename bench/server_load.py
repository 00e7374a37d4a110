"""Load on the game server (issue 18): concurrent games played by random-move clients.

Starts ``referee serve --http`` as a real process on 127.0.0.1 (a fresh database in
a temporary folder), creates ``--games`` games (Ringgeister, Riddle of the Ring,
Mount Doom and the cooperative game in turn) and runs one asyncio client per game
for ``--duration`` seconds: it asks the seat to move for its legal moves (``GET``
with the seat's token; ``?omit=figures,pieces,targets``, as a bot that draws
nothing, unless ``--draw``: then the answer carries the figures, their SVG and the
moves by figure and target, as the browser table's does — a server before
``?omit=`` sends them either way) and plays one at
random (``POST .../moves`` with ``expect_ply``); a finished game is replaced by a
new one. It reports moves per
second, the latency of a move (p50/p99), errors (every answer but 200/201, target
0), and the server's memory (RSS) before and after.

With ``--kill`` the server is killed with ``SIGKILL`` half-way and started again on
the same database; clients retry until it answers. Requests cut off by the kill
are counted as *interrupted*, not as errors. At the end every move a client got an
answer for is looked up in the store: *lost* must be 0.

With ``--interval S`` each client plays one move every ``S`` seconds (its phase
drawn at random), instead of the next move as soon as the last is answered:
``--games 1000 --interval 2`` is a thousand games of people who think.

Two baselines, measured in this same run:

- **the referee alone**: the same games played with the same random choice through
  the Game API directly (no HTTP, no store; legal moves, push and ``to_json`` per
  move), right after each server run — the referee's own speed, which bounds the
  server's;
- **the server at** ``--baseline-ref`` (default ``997483b``, the server before
  issue 30): that commit's ``referee`` package, extracted with ``git archive``
  into a temporary folder, serves the same load from the same seeds, before this
  tree's server (``--runs`` alternates them; the best run of each is kept, the
  machine being shared). ``--baseline-ref none`` skips it.

Besides moves per second and latency it reports the server's own CPU time per
move (``/proc/<pid>/stat``: user + system, summed over a ``--kill`` restart) — the
figure least moved by the load of other processes on the machine — and its
memory (RSS) at the start, a quarter into the run (the games made, play under
way: what grows from there grows with time), at the end and at its peak (sampled
every second).

Run: ``python bench/server_load.py [--games 200] [--duration 60] [--interval 0]
[--kill] [--draw] [--baseline-ref 997483b] [--runs 1]`` (loopback only; bounded by --games
and --duration). Prints a table of both servers and their ratios; the last line is
JSON with ``meets_targets`` (issue 30: with no think time, at least 0.7 x the
referee alone and p99 < 100 ms; with think time p99 < 50 ms; 0 errors, 0 lost).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import tarfile
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
#: the server before issue 30 (hot games, group commit, snapshots, per-ply views)
BASELINE_REF = "997483b"
TICK = os.sysconf("SC_CLK_TCK")


def baseline_root(ap: argparse.ArgumentParser, ref: str, where: Path) -> Path | None:
    """The ``referee`` of ``--baseline-ref`` extracted under ``where`` (``None`` for
    ``none``); a ref git cannot read is a usage error."""
    if ref.lower() == "none":
        return None
    try:
        return extract(ref, where)
    except subprocess.CalledProcessError:
        ap.error(f"--baseline-ref {ref!r}: git archive cannot read it")


def extract(ref: str, where: Path) -> Path:
    """The ``referee`` package at ``ref``, extracted under ``where`` (its root)."""
    tar = where / "ref.tar"
    with tar.open("wb") as fh:
        subprocess.run(["git", "archive", ref, "referee"], cwd=ROOT, stdout=fh, check=True)
    with tarfile.open(tar) as tf:
        tf.extractall(where, filter="data")
    return where


class Server:
    """``referee serve --http`` in a child process, from the package under ``root``."""

    def __init__(self, db: Path, root: Path = ROOT, sync: str = "normal") -> None:
        self.db = db
        self.root = root
        self.sync = sync
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.cpu_before = 0.0  # CPU seconds of server processes killed in this run
        self.rss: list[float] = []

    def start(self, port: int = 0) -> None:
        env = {**os.environ, "PYTHONPATH": str(self.root)}
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
                "--sync",
                self.sync,
            ],
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            text=True,
            cwd=self.root,
            env=env,
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

    def cpu(self) -> float:
        """CPU seconds (user + system) of the server processes of this run so far."""
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return self.cpu_before + (int(fields[11]) + int(fields[12])) / TICK

    def kill9(self) -> None:
        assert self.proc is not None
        self.cpu_before = self.cpu()
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


async def client(
    k: int, server: Server, stats: Stats, until: float, seed: int, interval: float, draw: bool
) -> None:
    """Play one game after another until ``until``: per move, the seat to move asks for
    its legal moves and sends one at random (one move per ``interval`` seconds, when
    given). A bot draws nothing: it asks with ``?omit=figures,pieces,targets`` unless
    ``draw``."""
    ask = "" if draw else "?omit=figures,pieces,targets"
    rnd = random.Random(seed * 100003 + k)
    g: dict[str, Any] | None = None
    made = 0
    conn = Conn(server.url)
    to_move: str | None = None
    ply = 0
    next_move = time.monotonic() + rnd.uniform(0, interval)
    while time.monotonic() < until:
        if interval > 0:
            wait = next_move - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            next_move = max(next_move + interval, time.monotonic())
            if time.monotonic() >= until:
                break
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
            status, snap = await conn.request(
                "GET", f"/api/games/{gid}{ask}", token=tokens[to_move]
            )
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


async def sample_rss(server: Server, until: float) -> None:
    while time.monotonic() < until:
        await asyncio.sleep(1.0)
        with contextlib.suppress(OSError, AttributeError):  # between a kill and the restart
            server.rss.append(server.rss_mb())


def rss_quarter(server: Server, fallback: float) -> float:
    """RSS a quarter into the run (the games are made, play is under way): memory
    that grows from there to the end grows with time, not with the games."""
    return server.rss[len(server.rss) // 4] if server.rss else fallback


async def run(args: argparse.Namespace, server: Server, stats: Stats) -> dict[str, Any]:
    t0 = time.monotonic()
    until = t0 + args.duration
    tasks = [
        asyncio.create_task(client(k, server, stats, until, args.seed, args.interval, args.draw))
        for k in range(args.games)
    ]
    tasks.append(asyncio.create_task(sample_rss(server, until)))
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


def one_run(args: argparse.Namespace, root: Path) -> dict[str, Any]:
    """The load on the server of the package under ``root``: its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite"
        server = Server(db, root, args.sync)
        server.start()
        try:
            time.sleep(0.5)
            rss_before = server.rss_mb()
            cpu0 = server.cpu()
            stats = Stats()
            res = asyncio.run(run(args, server, stats))
            rss_after = server.rss_mb()
            cpu = server.cpu() - cpu0
        finally:
            server.stop()
        lost = lost_moves(db, stats)
    moves = len(stats.latencies)
    fig: dict[str, Any] = {
        "games_created": stats.games_created,
        "duration_s": round(res["elapsed"], 1),
        "moves": moves,
        "moves_per_s": round(moves / res["elapsed"], 1),
        "latency_p50_ms": round(pct(stats.latencies, 50) * 1000, 1),
        "latency_p99_ms": round(pct(stats.latencies, 99) * 1000, 1),
        "server_cpu_ms_per_move": round(cpu / moves * 1000, 3) if moves else float("nan"),
        "errors": len(stats.errors),
        "interrupted": stats.interrupted,
        "lost": lost,
        "rss_before_mb": rss_before,
        "rss_quarter_mb": rss_quarter(server, rss_before),
        "rss_after_mb": rss_after,
        "rss_peak_mb": max([rss_before, rss_after, *server.rss]),
        "error_samples": stats.errors[:5],
    }
    if args.kill:
        fig["moves_before_kill"] = res["moves_before_kill"]
        fig["restart_s"] = res["restart_seconds"]
    return fig


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run with the most moves per second (the machine is shared)."""
    return max(runs, key=lambda r: r["moves_per_s"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of play (default 60)")
    ap.add_argument(
        "--interval",
        type=float,
        default=0.0,
        help="seconds between two moves of a game (default 0: no think time)",
    )
    ap.add_argument("--kill", action="store_true", help="kill -9 and restart the server half-way")
    ap.add_argument(
        "--draw",
        action="store_true",
        help="clients ask for what a frontend that draws uses (figures, their SVG, moves "
        "by figure), as the browser table does (default: like bots, ?omit= them)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--sync",
        choices=("normal", "full"),
        default="normal",
        help="the servers' --sync (full: wait for the disk on every commit)",
    )
    ap.add_argument(
        "--baseline-ref",
        default=BASELINE_REF,
        help=f"commit whose server is the baseline (default {BASELINE_REF}; 'none': no baseline)",
    )
    ap.add_argument("--runs", type=int, default=1, help="runs of each server, alternating")
    args = ap.parse_args()
    if not 1 <= args.games <= 2000 or not 1 <= args.duration <= 600:
        ap.error("--games must be 1..2000 and --duration 1..600 s")
    if not 0 <= args.interval <= 60 or not 1 <= args.runs <= 10:
        ap.error("--interval must be 0..60 s and --runs 1..10")
    load = os.getloadavg()
    base_runs: list[dict[str, Any]] = []
    new_runs: list[dict[str, Any]] = []
    alone: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        old_root = baseline_root(ap, args.baseline_ref, Path(tmp))
        for _ in range(args.runs):
            if old_root is not None:
                base_runs.append(one_run(args, old_root))
                alone.append(baseline(3000, args.seed))
            new_runs.append(one_run(args, ROOT))
            alone.append(baseline(3000, args.seed))
    new = best(new_runs)
    old = best(base_runs) if base_runs else None
    referee = max(alone)
    new["vs_referee"] = round(new["moves_per_s"] / referee, 3)
    if old is not None:
        old["vs_referee"] = round(old["moves_per_s"] / referee, 3)
    p99_target = 100.0 if args.interval == 0 else 50.0
    checks = {
        "p99_ms_below": p99_target,
        "p99_ok": new["latency_p99_ms"] < p99_target,
        "errors_ok": new["errors"] == 0,
        "lost_ok": new["lost"] == 0,
    }
    if args.interval == 0:
        checks["vs_referee_at_least"] = 0.7
        checks["vs_referee_ok"] = new["vs_referee"] >= 0.7
    meets = all(v for k, v in checks.items() if k.endswith("_ok"))

    shown = [k for k in new if k != "error_samples"]
    print(
        f"server_load: {args.games} games, {args.duration:g} s"
        + (f", a move every {args.interval:g} s per game" if args.interval else ", no think time")
        + (", kill -9 half-way" if args.kill else "")
        + (", clients ask as the browser table" if args.draw else ", clients ask as bots")
        + (", --sync full" if args.sync == "full" else "")
        + f"; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    head = f"{'figure':28} {'baseline ' + args.baseline_ref:>18} {'this tree':>12} {'ratio':>8}"
    print(head)
    for k in shown:
        a = old.get(k, "") if old is not None else ""
        b = new[k]
        ratio = ""
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a:
            ratio = f"{b / a:.2f}x"
        print(f"{k:28} {a!s:>18} {b!s:>12} {ratio:>8}")
    print(f"{'referee alone moves/s':28} {'':>18} {round(referee, 1)!s:>12}")
    for e in new["error_samples"]:
        print("error:", e)
    out: dict[str, Any] = {
        "benchmark": "server_load",
        "games": args.games,
        "duration_s": args.duration,
        "interval_s": args.interval,
        "killed": bool(args.kill),
        "draw": bool(args.draw),
        "sync": args.sync,
        "load_average": [round(x, 2) for x in load],
        "referee_alone_moves_per_s": round(referee, 1),
        "this": {k: v for k, v in new.items() if k != "error_samples"},
        "runs": len(new_runs),
        "targets": checks,
        "meets_targets": meets,
    }
    if old is not None:
        out["baseline_ref"] = args.baseline_ref
        out["baseline"] = {k: v for k, v in old.items() if k != "error_samples"}
        out["ratios"] = {
            k: round(new[k] / old[k], 3)
            for k in ("moves_per_s", "latency_p50_ms", "latency_p99_ms", "server_cpu_ms_per_move")
            if isinstance(old.get(k), (int, float)) and old[k]
        }
    print(json.dumps(out))
    return 1 if new["errors"] or new["lost"] else 0


if __name__ == "__main__":
    sys.exit(main())
