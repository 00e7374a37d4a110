"""``referee serve``: answer requests from other frontends.

``--stdio`` speaks JSON lines on stdin/stdout (:class:`referee.cli.stdio.Server`);
``--http`` runs the network game server (:mod:`referee.net`). The transport flags
are one mutually exclusive group; flags both servers have (``--projects``,
``--max-games``, ``--idle-timeout``) are shared.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UsageError
from ..net.cli import add_http_arguments, run_http
from ..net.limits import Limits
from ..safeio import finite
from .stdio import IDLE_TIMEOUT, MAX_GAMES, MAX_REQUEST, Server


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "serve",
        help="serve games: JSON lines on stdin/stdout (--stdio) or HTTP and a browser table (--http)",
        description="Serve games to other frontends: JSON lines on stdin/stdout "
        "(--stdio: one request per line, one response per line), or HTTP, WebSockets "
        "and a browser table (--http; creating games needs the admin token). Both "
        "answer through one dispatcher and never stop on a bad request: every failure "
        "is an error response with a code.",
    )
    transport = p.add_mutually_exclusive_group(required=True)
    transport.add_argument("--stdio", action="store_true", help="JSON lines on stdin/stdout")
    p.add_argument(
        "--max-request",
        type=int,
        default=MAX_REQUEST,
        help=f"largest request line in bytes (default {MAX_REQUEST})",
    )
    p.add_argument(
        "--max-games",
        type=int,
        default=None,
        help=f"games the server holds at once (default {MAX_GAMES} with --stdio, "
        f"{Limits().max_games} with --http)",
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=IDLE_TIMEOUT,
        metavar="SECONDS",
        help=f"close a game unused (--http: without a move) for this long "
        f"(default {IDLE_TIMEOUT:g})",
    )
    p.add_argument(
        "--projects",
        metavar="DIR",
        default=".",
        help="project paths in requests resolve only inside DIR (default: the current folder)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="--http: print one JSON line on stdout when serving (url, db, a generated "
        "admin token); --stdio speaks JSON anyway",
    )
    add_http_arguments(p, transport)
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    if args.http:
        return run_http(args)
    if not 64 <= args.max_request <= 1 << 30:
        raise UsageError("--max-request must be from 64 bytes to 1 GiB")
    if args.max_games is None:
        args.max_games = MAX_GAMES
    if not 1 <= args.max_games <= 100_000:
        raise UsageError("--max-games must be from 1 to 100000")
    finite(args.idle_timeout, "--idle-timeout", low=0.001)
    root = Path(args.projects)
    if not root.is_dir():
        raise UsageError(f"--projects {args.projects}: not a folder")
    server = Server(
        args.max_request,
        max_games=args.max_games,
        idle_timeout=args.idle_timeout,
        projects=root,
    )
    server.run(sys.stdin.buffer, sys.stdout)
    return 0
