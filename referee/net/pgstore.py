"""Games and their move logs in PostgreSQL, shared by several server processes.

``referee serve --http --db postgresql://...`` keeps its games here instead of in
SQLite (:mod:`referee.net.store`, still the default); every server process given the
same database serves every game (:class:`referee.net.shared.SharedHall`). The
tables mirror SQLite's, prefixed ``referee_``; ``referee_moves`` also keeps whose
turn it is and the outcome after each move, so a process that missed moves can
tell its WebSockets about each one.

A move is recorded in one statement, so one transaction: the game's row is
updated *only if it is still at the ply before the move* (and not expired), the
move row is inserted, and ``NOTIFY referee_games`` says ``"<game> <ply>"`` at
commit. A move validated against a state another process has moved past is thus
never written: :meth:`PostgresGameStore.record_move` raises ``stale_ply`` and
nothing changes. An expiry or a delete notifies ``"<game> x<why>"``.

``sync="normal"`` (the default) sets ``synchronous_commit = off`` for the server's
connection: a commit is in PostgreSQL's hands when it returns — safe from a crash
(or ``kill -9``) of any server process, not from a crash of PostgreSQL's machine,
the same promise as SQLite's ``normal``. ``sync="full"`` waits for PostgreSQL's
disk on every move.

psycopg 3 (the ``server-pg`` extra) is imported only when a store is opened: the
plain referee and the SQLite server never need it.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from ..errors import BoardwrightError, RequestError
from .store import GameRecord

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("referee.net")

#: the NOTIFY channel of moves and expiries
CHANNEL = "referee_games"
#: the ``--db`` values that name a PostgreSQL database
SCHEMES = ("postgresql://", "postgres://")
INSTALL_HINT = (
    "--db postgresql://... needs the server-pg extra: pip install 'boardwright[server-pg]'"
)
#: serialises table creation between processes starting at once
_CREATE_LOCK = 0x7265_6665_7265_6531


def is_postgres(db: object) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a ``postgresql://`` URL)."""
    return isinstance(db, str) and db.startswith(SCHEMES)


def _secrets(url: str) -> list[str]:
    """The passwords ``url`` carries (the user part's, a query's ``password=``), as
    written and decoded, longest first (libpq may quote either back in an error)."""
    found: list[str] = []
    rest = url.split("://", 1)[-1]
    netloc, _, query = rest.partition("?")
    netloc = netloc.split("/", 1)[0]
    userinfo = netloc.rpartition("@")[0]
    if ":" in userinfo:
        found.append(userinfo.split(":", 1)[1])
    for pair in query.split("#", 1)[0].split("&"):
        key, eq, value = pair.partition("=")
        if eq and unquote(key) == "password":
            found.append(value)
    found += [unquote(f) for f in found]
    return sorted({f for f in found if f}, key=len, reverse=True)


def shown(url: str) -> str:
    """``url`` without its password, for messages and logs: the user part's and a
    query's ``password=`` both starred. Never raises (a URL the standard library
    cannot split, a port that is no number, is shown as well as it can be)."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    netloc, slash, tail = rest.partition("/")
    if "?" in netloc:  # postgresql://host?password=...: no path
        netloc, q, more = netloc.partition("?")
        slash, tail = "", q + more + slash + tail
    userinfo, at, hosts = netloc.rpartition("@")
    if at and ":" in userinfo:
        netloc = f"{userinfo.split(':', 1)[0]}:***@{hosts}"
    path, q, query = tail.partition("?")
    if q:
        query, h, fragment = query.partition("#")
        pairs = []
        for pair in query.split("&"):
            key, eq, _value = pair.partition("=")
            pairs.append(f"{key}=***" if eq and unquote(key) == "password" else pair)
        tail = path + q + "&".join(pairs) + h + fragment
    return f"{scheme}://{netloc}{slash}{tail}"


def hide(text: str, url: str) -> str:
    """``text`` (an error of libpq's, say) with every password of ``url`` starred."""
    for secret in _secrets(url):
        text = text.replace(secret, "***")
    return text


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS referee_games (
        id text PRIMARY KEY, rules text NOT NULL, project text NOT NULL,
        board_hash text NOT NULL, seats text NOT NULL, token_hashes text NOT NULL,
        seed bigint NOT NULL, options text NOT NULL, position text, setup_events text NOT NULL,
        state text NOT NULL, ply integer NOT NULL, to_move text, outcome text,
        created double precision NOT NULL, updated double precision NOT NULL,
        owner text, creator text NOT NULL DEFAULT '', finished double precision,
        expired double precision, expired_why text)""",
    "CREATE INDEX IF NOT EXISTS referee_games_live ON referee_games (expired, creator)",
    """CREATE TABLE IF NOT EXISTS referee_moves (
        game text NOT NULL REFERENCES referee_games (id), ply integer NOT NULL,
        player text NOT NULL, move text NOT NULL, events text NOT NULL,
        to_move text, outcome text, at double precision NOT NULL,
        PRIMARY KEY (game, ply))""",
    # the ply of ``state`` (a snapshot every few moves, the moves after it replayed on
    # load); empty in a game stored before it: its state is that of ``ply``
    "ALTER TABLE referee_games ADD COLUMN IF NOT EXISTS state_ply integer",
)

#: the columns of each table (someone else's table of that name lacks some)
_COLUMNS = {
    m.group(1): set(re.findall(r"(\w+) (?:text|bigint|integer|double precision)", stmt))
    for stmt in _SCHEMA
    if (m := re.match(r"CREATE TABLE IF NOT EXISTS (\w+)", stmt))
}

# one statement: the game moves on only from the ply before, the move row only follows
# an updated game, the notification only an inserted move (all or nothing)
_RECORD = """
WITH moved AS (
    UPDATE referee_games SET state = COALESCE(%(state)s::text, state),
        state_ply = CASE WHEN %(state)s::text IS NULL THEN COALESCE(state_ply, ply)
                         ELSE %(ply)s END,
        ply = %(ply)s, to_move = %(to_move)s,
        outcome = %(outcome)s, updated = %(now)s, finished = %(finished)s
    WHERE id = %(game)s AND ply = %(ply)s - 1 AND expired IS NULL
    RETURNING id),
logged AS (
    INSERT INTO referee_moves (game, ply, player, move, events, to_move, outcome, at)
    SELECT id, %(ply)s, %(player)s, %(move)s, %(events)s, %(to_move)s, %(outcome)s, %(now)s
    FROM moved RETURNING game)
SELECT pg_notify(%(channel)s, %(game)s::text || ' ' || %(ply)s::text) FROM logged
"""


class PostgresGameStore:
    """The server's games in PostgreSQL: :class:`~referee.net.store.GameStore`'s
    methods, plus what a process sharing the games needs (:meth:`head`,
    :meth:`since`, :meth:`moves_between`, :meth:`listen`).

    Parameters
    ----------
    url : str
        ``postgresql://user[:password]@host[:port]/database`` (libpq's URL; its
        query may name ``sslmode`` and the like).
    sync : {"normal", "full"}
        ``full``: every move waits for PostgreSQL's disk (see the module).

    Raises
    ------
    BoardwrightError
        ``missing_dependency`` without psycopg; ``cannot_connect`` when the
        database does not answer (the URL shown without its password).
    """

    #: several processes share these games (the server checks before it trusts memory)
    shared = True

    def __init__(self, url: str, sync: str = "normal") -> None:
        if sync not in ("normal", "full"):
            raise ValueError(f"sync must be 'normal' or 'full', not {sync!r}")
        try:
            import psycopg
        except ImportError:
            raise BoardwrightError(INSTALL_HINT, code="missing_dependency") from None
        self._psycopg = psycopg
        self.url = url
        self.path = shown(url)
        self.sync = sync
        self.conn = self._connect()
        self._closing = threading.Event()
        self._listener: threading.Thread | None = None
        self._create()

    def _connect(self) -> psycopg.Connection[Any]:
        pg = self._psycopg
        try:
            conn: psycopg.Connection[Any] = pg.connect(
                self.url, autocommit=True, connect_timeout=10
            )
        except pg.Error as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise BoardwrightError(
                f"cannot connect to {self.path}: {hide(first, self.url)}", code="cannot_connect"
            ) from None
        conn.execute("SET synchronous_commit = " + ("on" if self.sync == "full" else "off"))
        #: the backend of this connection: its notifications are this process's own
        self._pid = int(conn.info.backend_pid)
        return conn

    def _c(self) -> psycopg.Connection[Any]:
        """The connection; a new one if PostgreSQL dropped the last (a restart)."""
        if self.conn.broken or self.conn.closed:
            self.conn = self._connect()
        return self.conn

    def _exec(self, sql: str, params: Any = None, *, retry: bool = True) -> psycopg.Cursor[Any]:
        """Run one statement. When PostgreSQL dropped the connection (a restart of
        the database), connect again and, if ``retry`` (statements that may run
        twice), run it once more.

        Raises
        ------
        RequestError
            503 ``database_unavailable``: the database does not answer.
        """
        pg = self._psycopg
        try:
            return self._c().execute(sql, params)
        except pg.OperationalError:
            if not (self.conn.broken or self.conn.closed):
                raise  # the statement failed, not the connection
            if retry:
                try:
                    return self._c().execute(sql, params)
                except (pg.OperationalError, BoardwrightError):
                    pass
        except BoardwrightError:  # connecting again failed
            pass
        raise RequestError(
            f"the game database ({self.path}) is not answering; try again",
            status=503,
            code="database_unavailable",
        )

    def _create(self) -> None:
        """Make the tables (once, under a lock); refuse, in one line and changing
        nothing, a database whose table of one of their names is someone else's."""
        pg = self._psycopg
        conn = self._c()
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", [_CREATE_LOCK])
                for table, want in _COLUMNS.items():
                    have = {
                        r[0]
                        for r in conn.execute(
                            "SELECT column_name FROM information_schema.columns "
                            "WHERE table_schema = current_schema() AND table_name = %s",
                            [table],
                        )
                    }
                    if have and not want <= have:
                        raise BoardwrightError(
                            f"cannot use {self.path}: its table {table} is not the referee's "
                            f"(no column {', '.join(sorted(want - have))}); give the server a "
                            "database of its own",
                            code="bad_database",
                        )
                for stmt in _SCHEMA:
                    conn.execute(stmt)
        except pg.Error as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise BoardwrightError(
                f"cannot use {self.path}: {hide(first, self.url)}", code="bad_database"
            ) from None

    def close(self) -> None:
        self._closing.set()
        if self._listener is not None:
            self._listener.join(5)
            self._listener = None
        self.conn.close()

    # ------------------------------------------------------------------ writing
    def add_game(self, rec: GameRecord) -> None:
        """Store a new game (committed on return)."""
        now = time.time()
        self._exec(
            "INSERT INTO referee_games (id, rules, project, board_hash, seats, token_hashes, "
            "seed, options, position, setup_events, state, ply, to_move, outcome, created, "
            "updated, owner, creator, finished, state_ply) VALUES (%s, %s, %s, %s, %s, %s, %s, "
            "%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                rec.id,
                rec.rules,
                rec.project,
                rec.board_hash,
                _dump(rec.seats),
                _dump(rec.token_hashes),
                rec.seed,
                _dump(rec.options),
                None if rec.position is None else _dump(rec.position),
                _dump(rec.setup_events),
                _dump(rec.state),
                rec.ply,
                rec.to_move,
                None if rec.outcome is None else _dump(rec.outcome),
                rec.created,
                now,
                rec.owner,
                rec.creator,
                now if rec.outcome is not None else None,
                rec.snapshot_ply,
            ),
            retry=False,  # it may have been committed before the connection broke
        )

    def record_move(
        self,
        game: str,
        ply: int,
        player: str,
        move: str,
        events: list[dict[str, Any]],
        state: dict[str, Any] | None,
        to_move: str | None,
        outcome: dict[str, Any] | None,
    ) -> None:
        """Append move ``ply`` of ``game`` (with a snapshot of its new state, unless
        ``state`` is ``None``: the game keeps its last snapshot and its ply), committed
        on return, and notify every process: only if the stored game is still at
        ``ply - 1``.

        Raises
        ------
        RequestError
            409 ``stale_ply``: another process recorded move ``ply`` first (nothing
            is written; ``details["ply"]`` is the stored ply); 410 ``game_expired``;
            404 ``unknown_game``.
        """
        now = time.time()
        row = self._exec(
            _RECORD,
            {
                "game": game,
                "ply": ply,
                "player": player,
                "move": move,
                "events": _dump(events),
                "state": None if state is None else _dump(state),
                "to_move": to_move,
                "outcome": None if outcome is None else _dump(outcome),
                "now": now,
                "finished": None if outcome is None else now,
                "channel": CHANNEL,
            },
            retry=False,  # committed or not, the answer was lost: 503, the client asks
        ).fetchone()
        if row is not None:
            return
        head = self.head(game)
        if head is None:
            raise RequestError(f"no game {game!r} on this server", status=404, code="unknown_game")
        stored, expired, why = head
        if expired is not None:
            raise RequestError(
                f"game {game} has expired ({why}); its record stays in the server's store",
                status=410,
                code="game_expired",
            )
        raise RequestError(
            f"the game is at ply {stored}, not {ply - 1}",
            status=409,
            code="stale_ply",
            details={"ply": stored},
        )

    def record_moves(self, batch: Sequence[Any]) -> None:
        """Record several moves (each with ``game, ply, player, move, events, state,
        to_move, outcome``, a game's moves in ply order) in one transaction: all, or
        none (the first refusal of :meth:`record_move` is raised)."""
        conn = self._c()
        with conn.transaction():
            for m in batch:
                self.record_move(
                    m.game, m.ply, m.player, m.move, m.events, m.state, m.to_move, m.outcome
                )

    # ------------------------------------------------------------------ reading
    def game(self, gid: str) -> GameRecord | None:
        r = self._exec(
            "SELECT id, rules, project, board_hash, seats, token_hashes, seed, options, "
            "position, setup_events, state, ply, to_move, outcome, created, owner, creator, "
            "updated, finished, expired, expired_why, state_ply FROM referee_games "
            "WHERE id = %s",
            [gid],
        ).fetchone()
        if r is None:
            return None
        return GameRecord(
            id=r[0],
            rules=r[1],
            project=r[2],
            board_hash=r[3],
            seats=json.loads(r[4]),
            token_hashes=json.loads(r[5]),
            seed=r[6],
            options=json.loads(r[7]),
            position=_load(r[8]),
            setup_events=json.loads(r[9]),
            state=json.loads(r[10]),
            ply=r[11],
            to_move=r[12],
            outcome=_load(r[13]),
            created=r[14],
            owner=r[15],
            creator=r[16] or "",
            updated=r[17] or r[14],
            finished=r[18],
            expired=r[19],
            expired_why=r[20],
            state_ply=r[21],
        )

    def head(self, gid: str) -> tuple[int, float | None, str | None] | None:
        """``(ply, expired, why)`` of ``gid`` as stored now (``None``: no such game)."""
        r = self._exec(
            "SELECT ply, expired, expired_why FROM referee_games WHERE id = %s", [gid]
        ).fetchone()
        return None if r is None else (int(r[0]), r[1], r[2])

    def since(
        self, gid: str, ply: int
    ) -> tuple[tuple[int, float | None, str | None], list[dict[str, Any]]] | None:
        """:meth:`head` and the moves after ``ply`` (as :meth:`moves_between`), in one
        statement, so one consistent read (``None``: no such game)."""
        rows = self._exec(
            "SELECT g.ply, g.expired, g.expired_why, m.ply, m.player, m.move, m.events, "
            "m.to_move, m.outcome FROM referee_games g LEFT JOIN referee_moves m "
            "ON m.game = g.id AND m.ply > %s WHERE g.id = %s ORDER BY m.ply",
            [ply, gid],
        ).fetchall()
        if not rows:
            return None
        head = (int(rows[0][0]), rows[0][1], rows[0][2])
        missed = [
            {
                "ply": r[3],
                "player": r[4],
                "move": r[5],
                "events": json.loads(r[6]),
                "to_move": r[7],
                "outcome": _load(r[8]),
            }
            for r in rows
            if r[3] is not None
        ]
        return head, missed

    def moves(self, gid: str, after: int = 0) -> Iterator[dict[str, Any]]:
        """The accepted moves of ``gid`` after ply ``after`` (default: all) in order:
        ``{"ply", "player", "move", "events"}``."""
        for m in self.moves_between(gid, after, None):
            yield {k: m[k] for k in ("ply", "player", "move", "events")}

    def moves_between(self, gid: str, after: int, upto: int | None) -> list[dict[str, Any]]:
        """Moves ``after < ply <= upto`` of ``gid`` in order, each with whose turn it
        was and the outcome after it (``to_move``, ``outcome``)."""
        rows = self._exec(
            "SELECT ply, player, move, events, to_move, outcome FROM referee_moves "
            "WHERE game = %s AND ply > %s AND (%s::integer IS NULL OR ply <= %s::integer) "
            "ORDER BY ply",
            [gid, after, upto, upto],
        ).fetchall()
        return [
            {
                "ply": r[0],
                "player": r[1],
                "move": r[2],
                "events": json.loads(r[3]),
                "to_move": r[4],
                "outcome": _load(r[5]),
            }
            for r in rows
        ]

    def count_games(self) -> int:
        """Every game the store holds, expired ones included."""
        row = self._exec("SELECT count(*) FROM referee_games").fetchone()
        return int(row[0]) if row else 0

    def count_live(self, creator: str | None = None) -> int:
        """Games not expired (made by ``creator``, when given)."""
        if creator is None:
            row = self._exec("SELECT count(*) FROM referee_games WHERE expired IS NULL").fetchone()
        else:
            row = self._exec(
                "SELECT count(*) FROM referee_games WHERE expired IS NULL AND creator = %s",
                [creator],
            ).fetchone()
        return int(row[0]) if row else 0

    def expire_due(self, now: float, idle: float, finished_ttl: float) -> list[str]:
        """Mark expired every live game finished more than ``finished_ttl`` seconds
        before ``now``, or without a move for more than ``idle`` seconds; their ids
        (each process sweeps; a game is expired, and notified, once)."""
        rows = self._exec(
            "WITH due AS (UPDATE referee_games SET expired = %(now)s, expired_why = "
            "CASE WHEN finished IS NOT NULL AND finished < %(done)s THEN 'finished' "
            "ELSE 'idle' END WHERE expired IS NULL AND ((finished IS NOT NULL AND "
            "finished < %(done)s) OR updated < %(idle)s) RETURNING id, expired_why) "
            "SELECT id, pg_notify(%(channel)s, id || ' x' || expired_why) FROM due",
            {
                "now": now,
                "done": now - finished_ttl,
                "idle": now - idle,
                "channel": CHANNEL,
            },
        ).fetchall()
        return [r[0] for r in rows]

    def mark_expired(self, gid: str, now: float, why: str) -> None:
        """Expire one game (``why``: finished, idle, deleted); committed on return."""
        self._exec(
            "WITH gone AS (UPDATE referee_games SET expired = %(now)s, expired_why = %(why)s "
            "WHERE id = %(gid)s AND expired IS NULL RETURNING id) "
            "SELECT pg_notify(%(channel)s, id || ' x' || %(why)s) FROM gone",
            {"now": now, "why": why, "gid": gid, "channel": CHANNEL},
        )

    def game_ids(self) -> list[str]:
        rows = self._exec("SELECT id FROM referee_games ORDER BY created").fetchall()
        return [r[0] for r in rows]

    # ------------------------------------------------------------------ notifications
    def listen(self, callback: Callable[[str | None], None]) -> None:
        """Call ``callback(payload)`` from a background thread for every notification
        of :data:`CHANNEL` (``"<game> <ply>"`` or ``"<game> x<why>"``) sent by
        another connection than this store's own (what this process did itself), and
        ``callback(None)`` after the connection was lost and made again (what came
        in between is unknown). Listening has begun when this returns."""
        if self._listener is not None:
            return
        conn = self._listen_conn()
        self._listener = threading.Thread(
            target=self._listen_loop, args=(conn, callback), name="referee-pg-listen", daemon=True
        )
        self._listener.start()

    def _listen_conn(self) -> psycopg.Connection[Any]:
        conn: psycopg.Connection[Any] = self._psycopg.connect(
            self.url, autocommit=True, connect_timeout=10
        )
        conn.execute(f"LISTEN {CHANNEL}")
        return conn

    def _listen_loop(
        self, conn: psycopg.Connection[Any], callback: Callable[[str | None], None]
    ) -> None:
        pg = self._psycopg
        try:
            while not self._closing.is_set():
                try:
                    for note in conn.notifies(timeout=0.5):
                        if note.pid != self._pid:  # this process knows its own moves
                            callback(note.payload)
                except pg.Error:
                    conn.close()
                    while not self._closing.wait(0.5):
                        try:
                            conn = self._listen_conn()
                        except pg.Error:
                            continue
                        callback(None)
                        break
        finally:
            conn.close()
