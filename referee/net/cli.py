"""``referee serve --http``: the flags and the command (wired into the ``serve`` verb).

The serve verb calls :func:`add_http_arguments` on its parser and, when ``--http``
is given, :func:`run_http`. This module imports nothing of the server stack until
it runs, so the headless referee works without the ``server`` extra installed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

from ..errors import BoardwrightError, UsageError
from .limits import Limits
from .pgstore import is_postgres, shown

_D = Limits()
INSTALL_HINT = "referee serve --http needs the server extra: pip install 'boardwright[server]'"
#: the environment variable that may hold the admin token (kept out of ``ps``)
ADMIN_ENV = "REFEREE_ADMIN_TOKEN"


def add_http_arguments(
    parser: argparse.ArgumentParser, transport: argparse._MutuallyExclusiveGroup | None = None
) -> None:
    """Add ``--http`` and its options to the ``serve`` verb's parser.

    Parameters
    ----------
    parser : ArgumentParser
        The ``serve`` verb's parser.
    transport : mutually exclusive group, optional
        The group holding ``--stdio``, if the verb has one: ``--http`` joins it.

    Notes
    -----
    A flag the verb already has (``--projects``, ``--max-games``, ``--idle-timeout``
    of the stdio server) is shared, not added twice: the HTTP server reads the same
    value (``--max-games`` left out: the HTTP default, :class:`Limits`).
    """
    g = parser.add_argument_group("network server (--http)")
    http_help = "serve games over HTTP and WebSockets, with a browser table at /"
    (transport or g).add_argument("--http", action="store_true", help=http_help)

    def flag(*names: str, **kw: Any) -> None:
        # a flag the verb has already (the stdio server's of the same name) is shared
        with contextlib.suppress(argparse.ArgumentError):
            g.add_argument(*names, **kw)

    flag("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    flag("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    flag("--projects", metavar="DIR", help="folder of the projects games may use")
    flag(
        "--db",
        default="games.sqlite",
        help="SQLite file of the games (default games.sqlite), or a postgresql://user@host/db "
        "URL: several server processes on one database share its games",
    )
    flag(
        "--sync",
        choices=("normal", "full"),
        default="normal",
        help="normal: each move is committed before it is answered and survives a crash "
        "of the server; full: also waits for the disk (survives a power cut, slower)",
    )
    flag(
        "--max-body",
        type=int,
        default=_D.max_body,
        help=f"largest request body in bytes (default {_D.max_body})",
    )
    flag(
        "--max-games",
        type=int,
        default=None,
        help=f"most live games the server holds (default {_D.max_games})",
    )
    flag(
        "--moves-per-second",
        type=float,
        default=_D.moves_per_second,
        help=f"moves per second per seat token (default {_D.moves_per_second:g})",
    )
    flag(
        "--ws-max-message",
        type=int,
        default=_D.ws_max_message,
        help=f"largest WebSocket message from a client in bytes (default {_D.ws_max_message})",
    )
    flag(
        "--idle-timeout",
        type=float,
        default=_D.idle_timeout,
        help=f"seconds without a move before a game expires (default {_D.idle_timeout:g})",
    )
    flag(
        "--finished-ttl",
        type=float,
        default=_D.finished_ttl,
        metavar="SECONDS",
        help=f"seconds a finished game stays before it expires (default {_D.finished_ttl:g})",
    )
    flag(
        "--ws-idle-timeout",
        type=float,
        default=_D.ws_idle_timeout,
        metavar="SECONDS",
        help=f"seconds before a silent WebSocket is closed (default {_D.ws_idle_timeout:g})",
    )
    flag(
        "--request-timeout",
        type=float,
        default=_D.request_timeout,
        metavar="SECONDS",
        help="seconds a client has to send a request's head, and its body, before the "
        f"connection is closed (default {_D.request_timeout:g})",
    )
    flag(
        "--admin-token",
        metavar="TOKEN",
        help=f"the token that creates games (default: ${ADMIN_ENV}, else a random one, "
        "printed at start)",
    )
    flag(
        "--open",
        action="store_true",
        help="anyone may create games, --games-per-client live ones per address",
    )
    flag(
        "--games-per-client",
        type=int,
        default=_D.games_per_client,
        help=f"live games one address may create with --open (default {_D.games_per_client})",
    )


def limits_from(args: argparse.Namespace) -> Limits:
    """The limits the flags ask for (usage error for nonsense values)."""
    max_games = _D.max_games if args.max_games is None else args.max_games
    if args.max_body < 1024:
        raise UsageError("--max-body must be at least 1024 bytes")
    if not 1 <= max_games <= 1_000_000:
        raise UsageError("--max-games must be from 1 to 1000000")
    if not 0 < args.moves_per_second < math.inf:
        raise UsageError("--moves-per-second must be a number above 0")
    if args.ws_max_message < 64:
        raise UsageError("--ws-max-message must be at least 64 bytes")
    for name in ("idle_timeout", "finished_ttl", "ws_idle_timeout", "request_timeout"):
        if not 0 < getattr(args, name) < math.inf:
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{flag} must be a number of seconds above 0")
    if not 1 <= args.games_per_client <= 1_000_000:
        raise UsageError("--games-per-client must be from 1 to 1000000")
    return Limits(
        max_body=args.max_body,
        max_games=max_games,
        moves_per_second=args.moves_per_second,
        ws_max_message=args.ws_max_message,
        idle_timeout=args.idle_timeout,
        finished_ttl=args.finished_ttl,
        ws_idle_timeout=args.ws_idle_timeout,
        games_per_client=args.games_per_client,
        request_timeout=args.request_timeout,
    )


def admin_token_from(args: argparse.Namespace) -> tuple[str | None, str]:
    """The admin token the flags or the environment give, and where it came from."""
    token = args.admin_token or os.environ.get(ADMIN_ENV) or None
    if token is not None and (len(token) < 16 or not token.isprintable() or " " in token):
        raise UsageError("--admin-token must be at least 16 printable characters, no spaces")
    return token, "--admin-token" if args.admin_token else ADMIN_ENV


def run_http(args: argparse.Namespace) -> int:
    """Run the server until interrupted."""
    if not args.projects:
        raise UsageError("--http needs --projects DIR (the folder of projects games may use)")
    projects = Path(args.projects)
    if not projects.is_dir():
        raise UsageError(f"--projects {args.projects}: not a folder")
    if not 0 <= args.port < 65536:
        raise UsageError("--port must be 0 to 65535")
    limits = limits_from(args)
    try:
        from .host import HostedServer
    except ImportError:
        raise BoardwrightError(INSTALL_HINT, code="missing_dependency") from None
    token, source = admin_token_from(args)
    db = str(args.db)
    if is_postgres(db):
        from .pgstore import PostgresGameStore

        PostgresGameStore(db, args.sync).close()  # no psycopg, no database: one line, now
        db = shown(db)
    server = HostedServer(
        projects,
        args.db,
        host=args.host,
        port=args.port,
        limits=limits,
        sync=args.sync,
        admin_token=token,
        open_creation=args.open,
    )
    sock = server.bind()
    url = server.url
    if args.json:
        out = {"url": url, "db": db, "open": args.open}
        if token is None:
            out["admin_token"] = server.admin_token
        print(json.dumps(out), flush=True)
    print(
        f"referee serve: games on {url}  (browser table at {url}/, Ctrl+C stops)",
        file=sys.stderr,
        flush=True,
    )
    if token is None:
        print(
            f"referee serve: admin token {server.admin_token} (creating games needs it: "
            f"{url}/?admin={server.admin_token} opens the table with it; set your own "
            f"with --admin-token or ${ADMIN_ENV})",
            file=sys.stderr,
            flush=True,
        )
    else:
        print(f"referee serve: admin token from {source}", file=sys.stderr, flush=True)
    if args.open:
        print(
            f"referee serve: --open: anyone may create games, {limits.games_per_client} "
            "live ones per address",
            file=sys.stderr,
            flush=True,
        )
    server.run(sock)
    return 0
