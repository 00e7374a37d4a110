"""Run the game server: in the foreground (the CLI) or in a background thread (the
editor's *Host on the network*, tests).

>>> from referee.net import HostedServer
>>> srv = HostedServer({"my board": "board.bwproj"}, "games.sqlite")
>>> url = srv.start()  # serving on 127.0.0.1, a free port
>>> game = srv.create_game("ringgeister", "my board", players=2)  # with srv.admin_token
>>> [s["link"] for s in game["seats"]]  # one secret link per seat
>>> srv.stop()
"""

from __future__ import annotations

import gc
import json
import secrets
import socket
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

import uvicorn

from ..errors import BoardwrightError
from .app import create_app
from .guard import MAX_HEAD, timed_protocol
from .limits import Limits
from .pgstore import is_postgres
from .store import GameStore
from .tables import SNAPSHOT_EVERY, Hall

#: While serving, a full cyclic collection runs at most once every this many
#: collections of the middle generation (CPython's default is 10). A full collection
#: walks every object of every game held, with the event loop stopped: at 1,000 live
#: games about 0.2 s on a 2-core machine, every 5-7 s at 500 moves/s with the
#: default; with 100 it comes about once a minute (or less: CPython also waits for a
#: quarter more long-lived objects than the last one found). Games make little
#: cyclic garbage (a few hundred objects a collection), so it waits longer for
#: next to nothing.
FULL_COLLECTION_EVERY = 100


def serving_collector() -> tuple[int, int, int]:
    """Set the cyclic collector's thresholds for serving (:data:`FULL_COLLECTION_EVERY`;
    the young generations' thresholds are kept) and return the ones it had.

    Process-wide, like :func:`sys.setswitchinterval`: the editor hosting a game
    server gets it too (its own objects are few beside the games').
    """
    was = gc.get_threshold()
    gc.set_threshold(was[0], was[1], max(was[2], FULL_COLLECTION_EVERY))
    return was


class HostedServer:
    """One game server: uvicorn over :func:`~referee.net.app.create_app`.

    Parameters
    ----------
    projects : path or mapping of name to path
        The folder of projects games may use, or an explicit ``{name: path}`` table
        (only those projects are ever opened).
    db : path or str
        The SQLite file of the games (created if missing; games in it continue), or
        a ``postgresql://`` URL: games shared with every server process given the
        same database (:mod:`referee.net.shared`).
    host : str
        Address to bind; ``127.0.0.1`` keeps the server on this machine.
    port : int
        Port; 0 picks a free one (see :attr:`url` after :meth:`bind`).
    limits : Limits, optional
    sync : {"normal", "full"}
        ``full``: wait for the disk on every move (survives a power cut, not only a
        crash of the server; see :class:`~referee.net.store.GameStore`).
    admin_token : str, optional
        The token that creates games; a random one when not given (read it from
        :attr:`admin_token`).
    open_creation : bool
        Anyone may create games (``limits.games_per_client`` live ones per address).
    snapshot_every : int
        The store keeps a game's whole state every this many moves (and at its end;
        see :class:`~referee.net.tables.Hall`).
    """

    def __init__(
        self,
        projects: str | Path | Mapping[str, str | Path],
        db: str | Path,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: Limits | None = None,
        sync: str = "normal",
        log_level: str = "warning",
        admin_token: str | None = None,
        open_creation: bool = False,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        if isinstance(projects, Mapping):
            self.projects: Path | dict[str, Path] = {k: Path(v) for k, v in projects.items()}
        else:
            self.projects = Path(projects)
        self.db = str(db)
        self.host = host
        self.port = port
        self.limits = limits or Limits()
        self.sync = sync
        self.log_level = log_level
        self.admin_token = admin_token or secrets.token_urlsafe(24)
        self.open_creation = open_creation
        self.snapshot_every = snapshot_every
        self.hall: Hall | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._store: GameStore | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def bind(self) -> socket.socket:
        """Bind and listen (so :attr:`url` knows the port, and clients may connect,
        before serving starts)."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # inherited by connections
            sock.listen(2048)  # connections wait in the backlog until uvicorn serves
        except OSError as exc:
            sock.close()
            raise BoardwrightError(
                f"cannot listen on {self.host}:{self.port}: {exc.strerror}", code="cannot_bind"
            ) from None
        self.port = sock.getsockname()[1]
        return sock

    def _make(self) -> uvicorn.Server:
        hall_of: Any = Hall
        if is_postgres(self.db):  # games shared with other processes (referee.net.shared)
            from .pgstore import PostgresGameStore
            from .shared import SharedHall

            self._store = cast(Any, PostgresGameStore(self.db, self.sync))
            hall_of = SharedHall
        else:
            self._store = GameStore(self.db, self.sync)
        hall = hall_of(
            self.projects,
            self._store,
            self.limits,
            admin_token=self.admin_token,
            open_creation=self.open_creation,
            snapshot_every=self.snapshot_every,
        )
        self.hall = hall
        config = uvicorn.Config(
            create_app(hall),
            http=timed_protocol(self.limits.request_timeout),  # httptools if installed
            h11_max_incomplete_event_size=MAX_HEAD,  # the httptools protocol counts it itself
            log_level=self.log_level,
            access_log=False,
            lifespan="off",
            ws="websockets-sansio",
            ws_max_size=self.limits.ws_max_message,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
            timeout_keep_alive=5,  # an idle keep-alive connection is closed after 5 s
        )
        return uvicorn.Server(config)

    def run(self, sock: socket.socket | None = None) -> None:
        """Serve in this thread until :meth:`stop` (or Ctrl+C in the main thread).

        The interpreter hands the GIL between threads every millisecond instead of
        every 5 (:func:`sys.setswitchinterval`): while a worker thread compiles a
        board, a request then waits about 1 ms, not 5, each time it needs the GIL
        back — a request needs it some 20 times.

        Full cyclic collections run at most every :data:`FULL_COLLECTION_EVERY`
        middle ones (:func:`serving_collector`): each stops every client for as long
        as it takes to walk every game held.
        """
        sys.setswitchinterval(min(sys.getswitchinterval(), 0.001))
        serving_collector()
        sock = sock or self.bind()
        self._server = self._make()
        try:
            self._server.run(sockets=[sock])
        finally:
            sock.close()
            if self.hall is not None:
                self.hall.shutdown()
            if self._store is not None:
                self._store.close()

    def start(self, timeout: float = 10.0) -> str:
        """Serve in a background thread; return the base URL once it answers."""
        sock = self.bind()
        self._thread = threading.Thread(
            target=self.run, args=(sock,), name="referee-net", daemon=True
        )
        self._thread.start()
        waited = 0.0
        while waited < timeout:
            if self._server is not None and self._server.started:
                return self.url
            if not self._thread.is_alive():
                break
            threading.Event().wait(0.02)
            waited += 0.02
        raise BoardwrightError("the game server did not start", code="server_failed")

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving (open WebSockets are closed) and wait for the thread."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def create_game(
        self,
        rules: str,
        project: str,
        *,
        players: int,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Create a game on the running server (with the admin token); each seat gets
        an absolute ``link``.

        Returns
        -------
        dict
            The ``POST /api/games`` answer, with ``link`` added to each seat and
            ``spectate`` made absolute.

        Raises
        ------
        BoardwrightError
            The server refused (its error code and message).
        """
        body: dict[str, Any] = {"rules": rules, "project": project, "players": players}
        if seed is not None:
            body["seed"] = seed
        if options:
            body["options"] = options
        req = urllib.request.Request(
            self.url + "/api/games",
            data=json.dumps(body).encode(),
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {self.admin_token}",
            },
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                out: dict[str, Any] = json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            err = json.loads(exc.read()).get("error", {})
            raise BoardwrightError(
                err.get("message", str(exc)), code=err.get("code", "server_refused")
            ) from None
        for seat in out["seats"]:
            seat["link"] = self.url + seat["url"]
        out["spectate"] = self.url + out["spectate"]
        return out
