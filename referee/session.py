"""Game sessions: live games under handles and the one request dispatcher.

Both servers hold their games here, ``referee serve --stdio`` (:mod:`referee.cli.stdio`)
and ``referee serve --http`` (:mod:`referee.net`); the game verbs of the CLI read and
write state files through :mod:`referee.envelopes`. The two
servers are transports over one :class:`Session`: a request is an operation name
and its fields, :meth:`Session.dispatch` checks the fields, decides what the caller
may see and do, and answers JSON data; the transport only reads requests and writes
answers (JSON lines, or HTTP routes and WebSockets).

State files (envelopes) and the compiled-boards cache are :mod:`referee.envelopes`. What a held game
shows its readers, made once per ply (:class:`~referee.shown.Held`, the snapshot,
the legal moves), is :mod:`referee.shown`.

Requests
    :class:`Session` holds live games under handles and answers the operations in
    :data:`OPS`. A :class:`Caller` says who asks: the local frontend (``stdio``, the
    Python API: every seat, every view, whole states) or a network client known only
    by its bearer token (a seat's, the game owner's, or the server's admin token).

Layering: above the games, bots and rendering; below :mod:`referee.cli` and
:mod:`referee.net`, which import it and which it never imports.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .compiler import CompiledBoard
from .envelopes import (
    MAX_PLAYERS,
    Boards,
    Event,
    check_envelope,
    copy_json,
    game_of,
    guard_state,
    new_game,
    new_game_from_position,
    project_meta,
    record_move,
)
from .errors import BoardwrightError, IllegalMoveError, RequestError
from .games import available, get_game
from .render import render_svg
from .safeio import MAX_INT_DIGITS
from .shown import Held, legal_now, omitted, snapshot, status

#: longest move text a request may carry
MAX_MOVE_TEXT = 1000
#: a seed a network client's game may be given (0 <= seed < 2**63)
MAX_SEED = 2**63
#: a project name a network client may give: one path component, no leading dot
_PROJECT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,127}$")
_PROJECT_SUFFIXES = (".bwproj", ".json")


# ====================================================================== errors
def token_hash(token: str) -> str:
    """What a session (and the server's store) keeps of a secret token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


# ====================================================================== sessions
@dataclass(frozen=True)
class Caller:
    """Who sends a request, as the transport knows it.

    Attributes
    ----------
    trusted : bool
        The local frontend (``serve --stdio``, the Python API): it may act for every
        seat, ask for any view and read whole states.
    token : str or None
        A network client's bearer token: a seat's, the game owner's or the server's
        admin token (``None``: a spectator).
    client : str
        Who the client is for quotas (its address).
    """

    trusted: bool = False
    token: str | None = None
    client: str = ""


#: the local frontend
LOCAL = Caller(trusted=True)


class Session:
    """Live games and the one dispatcher of requests on them (see :data:`OPS`).

    Parameters
    ----------
    boards : Boards
        The compiled boards; its ``root`` confines every project path.
    max_games : int
        Games held at once (``too_many_games`` past it).
    idle_timeout : float
        Seconds after which a game nobody used is closed.
    finished_ttl : float, optional
        Seconds a finished game is kept (``None``: like any game, until idle).
    by_name : bool
        Projects are named as :meth:`projects` lists them (the network server),
        not given as paths inside the folder (the stdio server).
    projects : mapping of name to path, optional
        With ``by_name``: a fixed table of projects instead of the folder's entries.
    envelopes : bool
        Whether requests may carry whole state envelopes (``load``, ``"state"``).
    seats : bool
        Whether games get an owner token and a token per seat (network games).
    admin_token : str, optional
        The token that may create games (and delete or read any game whole).
    open_creation : bool
        Anyone may create games, at most ``per_client`` live ones per client.
    clock : callable
        Seconds (monotonic; tests pass a fake one).
    """

    def __init__(
        self,
        boards: Boards,
        *,
        max_games: int = 64,
        idle_timeout: float = 3600.0,
        finished_ttl: float | None = None,
        by_name: bool = False,
        projects: Mapping[str, str | os.PathLike[str]] | None = None,
        envelopes: bool = True,
        seats: bool = False,
        admin_token: str | None = None,
        open_creation: bool = False,
        per_client: int = 4,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.boards = boards
        self.max_games = max_games
        self.idle_timeout = idle_timeout
        self.finished_ttl = finished_ttl
        self.by_name = by_name
        self._fixed = {k: Path(v) for k, v in projects.items()} if projects is not None else None
        self.envelopes = envelopes
        self.seats = seats
        self._admin = token_hash(admin_token) if admin_token else None
        self.open_creation = open_creation
        self.per_client = per_client
        self.clock = clock
        self.games: dict[str, Held] = {}
        self._next = itertools.count(1)
        self._pictures: dict[tuple[str, tuple[tuple[str, int], ...]], dict[str, Any]] = {}
        self._listing: dict[tuple[Any, ...], dict[str, Any]] = {}
        #: reads a project file's title and rules (see :func:`project_meta`)
        self.read_meta: Callable[[str], dict[str, Any]] = project_meta

    # ------------------------------------------------------------------ the dispatcher
    def dispatch(
        self, op: Any, fields: Mapping[str, Any], caller: Caller = LOCAL
    ) -> dict[str, Any]:
        """The answer to one request: operation ``op`` with ``fields``, from ``caller``.

        Raises
        ------
        RequestError, BoardwrightError
            The request is refused (the code says why; a rejected move is an answer
            with ``"verdict": "illegal"``, not an error).
        """
        handler = OPS.get(op) if isinstance(op, str) else None
        if handler is None:
            raise RequestError(f"unknown op {str(op)[:40]!r} ({', '.join(OPS)})", code="unknown_op")
        view = fields.get("view")
        if view is not None and not isinstance(view, str):
            raise RequestError("view must be a player name")
        if op not in GAMELESS:
            self.expire()
        return handler(self, fields, caller)

    # ------------------------------------------------------------------ holding games
    def expire(self) -> list[str]:
        """Close the games past their time: idle ones, and finished ones past
        ``finished_ttl``; their handles."""
        now = self.clock()
        old = []
        for gid, h in self.games.items():
            if h.finished is not None and self.finished_ttl is not None:
                if now - h.finished > self.finished_ttl:
                    old.append(gid)
                    continue
            if now - h.used > self.idle_timeout:
                old.append(gid)
        for gid in old:
            self.close(gid, "expired")
        return old

    def close(self, gid: str, reason: str) -> None:
        """Drop game ``gid`` from memory (``reason``: closed, deleted, expired)."""
        self.games.pop(gid, None)

    def active_games(self, creator: str | None = None) -> int:
        """Games held now (by ``creator``, for quotas)."""
        if creator is None:
            return len(self.games)
        return sum(1 for h in self.games.values() if h.creator == creator)

    def new_id(self) -> str:
        return f"g{next(self._next)}" if not self.seats else secrets.token_urlsafe(9)

    def keep(self, held: Held) -> None:
        """Start holding ``held`` (the network server also stores it)."""
        self.games[held.id] = held

    def lookup(self, gid: Any) -> Held:
        """The game of handle ``gid``."""
        held = self.games.get(gid) if isinstance(gid, str) else None
        if held is None:
            raise RequestError(
                f"no game {str(gid)[:40]!r} here (never made, closed, or unused for "
                f"more than {self.idle_timeout:g} s)",
                status=404,
                code="unknown_game",
            )
        return held

    def committed(self, held: Held, player: str, move: str, events: list[Event]) -> None:
        """Record an accepted move (in memory here; the network server commits it
        to its store before answering)."""
        record_move(held.env, held.game, move, events)
        held.players.append(player)

    def restore(self, held: Held) -> None:
        """Put a game back to its last recorded state (after a failure mid-move)."""
        held.game = game_of(held.env, None, self.boards, "session game")

    def moves_of(self, held: Held) -> list[dict[str, Any]]:
        """The accepted moves: ``{"ply", "player", "move", "events"}`` each."""
        entries = held.env.get("log", {}).get("moves", [])
        return [
            {
                "ply": n,
                "player": held.players[n - 1] if n <= len(held.players) else None,
                "move": e["move"] if isinstance(e, dict) else e,
                "events": e.get("events", []) if isinstance(e, dict) else [],
            }
            for n, e in enumerate(entries, 1)
        ]

    def whole(self, held: Held) -> dict[str, Any]:
        """The game as a ``referee replay`` envelope."""
        return {**held.env, "state": held.game.to_json()}

    # ------------------------------------------------------------------ callers
    def is_admin(self, caller: Caller) -> bool:
        if caller.trusted:
            return True
        if self._admin is None or caller.token is None:
            return False
        return secrets.compare_digest(self._admin, token_hash(caller.token))

    def role(self, held: Held, caller: Caller) -> tuple[str | None, bool]:
        """``(seat, in charge)`` of ``caller`` in ``held``: the seat its token holds
        (``None``: none) and whether it is the local frontend, the admin or the owner.

        Raises
        ------
        RequestError
            401 ``bad_token``: a token that is nothing in this game.
        """
        if caller.trusted:
            return None, True
        if caller.token is None:
            return None, False
        h = token_hash(caller.token)
        if self.is_admin(caller) or (
            held.owner is not None and secrets.compare_digest(held.owner, h)
        ):
            return None, True
        for player, th in held.seats.items():
            if secrets.compare_digest(th, h):
                return player, False
        raise RequestError("this token is no seat of this game", status=401, code="bad_token")

    def touch(self, held: Held, caller: Caller) -> None:
        """A request of the frontend or of one of the seats keeps a game in use."""
        held.used = self.clock()

    def viewer(
        self, held: Held, fields: Mapping[str, Any], caller: Caller
    ) -> tuple[str | None, bool]:
        """``(viewer, all-seeing)``: whose view the answer shows. The local frontend
        picks one with ``view`` (none: it sees everything); a network client sees
        what its seat may (no seat: the public view)."""
        if caller.trusted:
            view = fields.get("view")
            if view is not None and not isinstance(view, str):
                raise RequestError("view must be a player name")
            with guard_state("request"):
                held.game.check_viewer(view)
            return view, view is None
        seat, _ = self.role(held, caller)
        if seat is not None:
            self.touch(held, caller)
        return seat, False

    def target(self, fields: Mapping[str, Any], caller: Caller) -> Held:
        """The game a request is about: ``"game"`` (a handle) or, where envelopes are
        allowed, ``"state"`` (a whole envelope, held for this request only)."""
        if "game" in fields or not self.envelopes or not caller.trusted:
            held = self.lookup(fields.get("game"))
            if caller.trusted:
                self.touch(held, caller)
            return held
        if "state" in fields:
            env = fields["state"]
            check_envelope(env, "request state")
            env = {**env, "project": str(self.boards.resolve(env["project"]))}
            game = game_of(env, None, self.boards, "request state")
            return Held("", game, env, ply=len(env.get("log", {}).get("moves", [])))
        raise RequestError('request needs "game" (a handle) or "state" (an envelope)')

    # ------------------------------------------------------------------ projects
    def project_paths(self) -> dict[str, Path]:
        """Project name -> path, for every project a network client may name."""
        if self._fixed is not None:
            return dict(self._fixed)
        root = self.boards.root
        out: dict[str, Path] = {}
        if root is None:
            return out
        try:
            entries = sorted(root.iterdir())
        except OSError:
            return out
        for p in entries:
            if not _PROJECT_NAME.match(p.name) or ".." in p.name:
                continue
            try:
                self.boards.resolve(str(p))  # inside the folder, whatever links it passes
            except BoardwrightError:
                continue
            if p.is_dir():
                out.setdefault(p.name, p)
            elif p.suffix in _PROJECT_SUFFIXES and p.stem not in out:
                out[p.stem] = p
        return out

    def _named(self, name: str) -> Path | None:
        """``project_paths().get(name)``, looking only at the entries that could
        bear that name (the folder ``name``, then the files ``name.bwproj`` and
        ``name.json``) instead of resolving every entry of the folder."""
        if self._fixed is not None:
            return self._fixed.get(name)
        root = self.boards.root
        if root is None:
            return None
        for cand in (root / name, *(root / f"{name}{suffix}" for suffix in _PROJECT_SUFFIXES)):
            if not _PROJECT_NAME.match(cand.name) or ".." in cand.name:
                continue
            if not os.path.lexists(cand):
                continue
            try:
                self.boards.resolve(str(cand))
            except BoardwrightError:
                continue
            if cand.is_dir():
                if cand.name == name:
                    return cand
            elif cand.suffix in _PROJECT_SUFFIXES and cand.stem == name:
                return cand
        return None

    def project_path(self, name: Any) -> str:
        """The path of the project a request names."""
        if not self.by_name:
            return str(self.boards.resolve(name))
        if not isinstance(name, str) or not _PROJECT_NAME.match(name) or ".." in name:
            raise RequestError(
                f"project must be a project's name as /api/projects lists it, not {name!r}"[:200],
                code="bad_project",
            )
        path = self._named(name)
        if path is None:
            raise RequestError(f"no project {name!r} here", status=404, code="unknown_project")
        return str(path)

    def board(self, name: Any) -> CompiledBoard:
        """The compiled board of the project ``name`` (one line naming it if broken)."""
        path = self.project_path(name)
        if not self.by_name:
            return self.boards.get(path)
        try:
            return self.boards.get(path)
        except RequestError:
            raise
        except BoardwrightError as exc:
            raise RequestError(
                f"project {name!r} cannot be opened: {exc.message}", code="bad_project"
            ) from None

    def listing(self) -> list[dict[str, Any]]:
        """Every project a client may name: its name, title and declared rules.

        Each project is read once while its file is unchanged (by :attr:`read_meta`,
        which the network server runs in another process); call it off an event
        loop (it reads files)."""
        out: list[dict[str, Any]] = []
        for name, path in self.project_paths().items():
            try:
                real = self.boards.resolve(str(path))
                st = os.stat(real)
            except (BoardwrightError, OSError) as exc:
                msg = exc.message if isinstance(exc, BoardwrightError) else str(exc.strerror)
                out.append({"name": name, "error": f"project {name!r} cannot be opened: {msg}"})
                continue
            sig = (str(real), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
            row = self._listing.get(sig)
            if row is None:
                row = self.read_meta(str(real))
                if len(self._listing) > 4096:
                    self._listing.clear()
                self._listing[sig] = row
            if "error" in row:
                out.append(
                    {"name": name, "error": f"project {name!r} cannot be opened: {row['error']}"}
                )
            else:
                out.append({"name": name, **row})
        return out

    def picture(self, held: Held) -> dict[str, Any]:
        """The board of ``held`` as SVG plus every node's position, tiles turned as in
        the game (one drawing per board and set of tile turns)."""
        g = held.game.copy()  # a copy syncs a shared compiled board to the game's turns
        c = g.compiled
        key = (c.hash, tuple((p.id, p.turns) for p in c.board.placements))
        pic = self._pictures.get(key)
        if pic is None:
            svg = render_svg(c.board, c, pieces=False, legend=False)
            nodes = {n: [round(d["x"], 2), round(d["y"], 2)] for n, d in c.graph.nodes(data=True)}
            pic = {"svg": svg, "nodes": nodes}
            if len(self._pictures) > 256:
                self._pictures.clear()
            self._pictures[key] = pic
        return pic

    def log(self, held: Held, viewer: str | None, whole: bool) -> dict[str, Any]:
        """The log: whole (a ``referee replay`` envelope) when ``whole``, else only
        what ``viewer`` may see (public events, that seat's own moves)."""
        if whole:
            return {"complete": True, **self.whole(held)}
        g = held.game
        entries = []
        for m in self.moves_of(held):
            e: dict[str, Any] = {
                "ply": m["ply"],
                "player": m["player"],
                "events": g.events_for(m["events"], viewer),
            }
            if viewer is not None and m["player"] == viewer:
                e["move"] = m["move"]
            entries.append(e)
        new = held.env.get("log", {}).get("new", {})
        return {
            "complete": False,
            "game": held.id,
            "rules": held.rules,
            "project": held.project,
            "setup_events": g.events_for(list(new.get("events", [])), viewer),
            "moves": entries,
            **status(held),
        }

    # ------------------------------------------------------------------ new games
    def create(self, fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
        """Set up a new game (see the ``new`` operation)."""
        admin = self.is_admin(caller)
        if not admin:
            if not self.open_creation:
                if caller.token is None:
                    raise RequestError(
                        "creating a game needs the server's admin token "
                        "(Authorization: Bearer <admin token>)",
                        status=401,
                        code="no_token",
                    )
                raise RequestError(
                    "this token may not create games (only the admin token may)",
                    status=403,
                    code="not_admin",
                )
            if fields.get("seed") is not None or fields.get("position") is not None:
                raise RequestError(
                    "only the admin may choose the seed or the position: whoever chooses "
                    "them knows every hidden card",
                    status=403,
                    code="not_admin",
                )
            if self.active_games(caller.client) >= self.per_client:
                raise RequestError(
                    f"this client holds its limit of {self.per_client} live games "
                    "(delete one, or wait for it to expire)",
                    status=429,
                    code="too_many_games_for_client",
                )
        rules = fields.get("rules")
        if not isinstance(rules, str):
            raise RequestError("rules must be the name of a rules module")
        if rules not in available():
            raise RequestError(
                f"rules must be one of {', '.join(available())}", code="unknown_rules"
            )
        position = fields.get("position")
        if position is not None and not isinstance(position, dict):
            raise RequestError('"position" must be an object (a position of the rules)')
        players = fields.get("players")
        if position is None and (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not 1 <= players <= MAX_PLAYERS
        ):
            raise RequestError(f'"players" must be a number of players (1 to {MAX_PLAYERS})')
        seed = fields.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31) if self.seats else 0
        if (
            isinstance(seed, bool)
            or not isinstance(seed, int)
            or not (0 <= seed < MAX_SEED if self.seats else abs(seed) < 10**MAX_INT_DIGITS)
        ):
            raise RequestError(
                '"seed" must be a whole number from 0 to 2**63 - 1'
                if self.seats
                else "seed must be an integer"
            )
        options = fields.get("options")
        if options is None:
            options = {}
        if not isinstance(options, dict) or any(
            not isinstance(v, (str, int, float, bool))
            or (isinstance(v, float) and not math.isfinite(v))
            for v in options.values()
        ):
            raise RequestError('"options" must be an object of names to plain values')
        variant = fields.get("variant")
        if variant is not None:
            if not isinstance(variant, str):
                raise RequestError("variant must be a name")
            options = {**options, "variant": variant}
        if self.active_games() >= self.max_games:
            raise RequestError(
                f"this server holds its limit of {self.max_games} games",
                status=503,
                code="too_many_games",
            )
        project = fields.get("project")
        path = self.project_path(project)
        self.board(project)  # a broken project is refused with its name, not its path
        shown = project if self.by_name else path
        with guard_state("request"):
            if position is not None:
                game, env = new_game_from_position(rules, path, position, "position", self.boards)
            else:
                assert isinstance(players, int)
                game, env = new_game(rules, path, players, seed, dict(options), self.boards)
        env["project"] = shown
        gid = self.new_id()
        held = Held(gid, game, env, used=self.clock(), creator="" if admin else caller.client)
        if game.outcome is not None:
            held.finished = held.used
        tokens: dict[str, str] = {}
        owner = ""
        if self.seats:
            tokens = {p: secrets.token_urlsafe(24) for p in game.players}
            owner = secrets.token_urlsafe(24)
            held.seats = {p: token_hash(t) for p, t in tokens.items()}
            held.owner = token_hash(owner)
        self.keep(held)
        out: dict[str, Any] = {"game": gid, "rules": rules, "project": shown, **status(held)}
        if self.seats:
            out["seats"] = [{"player": p, "token": tokens[p]} for p in game.players]
            out["owner"] = owner
        else:
            out["events"] = env["log"]["new"]["events"]
        return out

    # ------------------------------------------------------------------ moves
    def play(self, fields: Mapping[str, Any], caller: Caller) -> dict[str, Any]:
        """Play a move (see the ``play`` operation)."""
        held = self.target(fields, caller)
        text = fields.get("move")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_MOVE_TEXT:
            raise RequestError(
                f'"move" must be the text of a move (at most {MAX_MOVE_TEXT} characters)'
            )
        expect = fields.get("expect_ply")
        if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)):
            raise RequestError('"expect_ply" must be the ply the move is meant for (an integer)')
        g = held.game
        viewer, everything = self.viewer(held, fields, caller)  # a bad view changes nothing
        if not caller.trusted:
            if caller.token is None:
                raise RequestError(
                    "moving needs the seat's token (Authorization: Bearer <token>)",
                    status=401,
                    code="no_token",
                )
            if viewer is None:
                raise RequestError(
                    "this token holds no seat of this game", status=403, code="not_a_seat"
                )
            if expect is None:
                raise RequestError(
                    '"expect_ply" must be the ply the move is meant for (an integer)'
                )
        st = status(held)
        if st["outcome"] is not None:
            raise RequestError("the game is over", status=409, code="game_over")
        if expect is not None and expect != held.ply:
            raise RequestError(
                f"the game is at ply {held.ply}, not {expect}",
                status=409,
                code="stale_ply",
                details={"ply": held.ply},
            )
        player = st["to_move"]
        if not caller.trusted and player != viewer:
            raise RequestError(
                f"it is {player}'s turn, not {viewer}'s",
                status=403,
                code="not_your_turn",
                details={"to_move": player},
            )
        try:
            with guard_state("request"):
                move = g.parse_move(text)
                events = g.push(move)
        except IllegalMoveError as exc:
            return {"verdict": "illegal", "move": text, "ply": held.ply, "error": exc.to_json()}
        except BaseException:
            # the rules failed half-way: put a held game back to its last good state
            if held.id:
                self.restore(held)
            raise
        try:
            with guard_state("request"):
                self.committed(held, str(player), str(move), events)
        except BaseException:
            if held.id:
                self.restore(held)  # not recorded: the move did not happen
            raise
        held.ply += 1
        st = status(held)
        if st["outcome"] is not None and held.finished is None:
            held.finished = self.clock()
        self.touch(held, caller)
        self.pushed(held, str(player), st, events)
        with guard_state("request"):
            shown = events if everything else g.events_for(events, viewer)
            out = {"verdict": "accepted", "move": str(move), **st, "events": shown}
            if caller.trusted and viewer is not None:
                out["view"] = g.view(viewer)
            elif caller.trusted and not held.id:
                out["state"] = held.env
        return out

    def pushed(self, held: Held, player: str, status: dict[str, Any], events: list[Event]) -> None:
        """Hook: a move was accepted (the network server tells its WebSockets)."""


Op = Callable[[Session, Mapping[str, Any], Caller], dict[str, Any]]


def _trusted_only(caller: Caller, op: str) -> None:
    if not caller.trusted:
        raise RequestError(f"{op} is for the local frontend only", status=403, code="forbidden")


def _op_rules(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    out = []
    for name in available():
        cls = get_game(name)
        lo, hi = cls.PLAYERS
        out.append(
            {
                "rules": name,
                "title": cls.title or name,
                "players": {"min": lo, "max": hi},
                "options": cls.options_schema(),
            }
        )
    return {"rules": out}


def _op_projects(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    return {"projects": s.listing()}


def _op_new(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    return s.create(f, c)


def _op_load(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    _trusted_only(c, "load")
    if not s.envelopes:
        raise RequestError("this server takes no state envelopes", status=403, code="forbidden")
    state = f.get("state")
    check_envelope(state, "request state")
    held = s.target({"state": state}, c)
    if s.active_games() >= s.max_games:
        raise RequestError(
            f"this server holds its limit of {s.max_games} games", status=503, code="too_many_games"
        )
    env = copy_json(held.env)
    moves = env.get("log", {}).get("moves", [])
    kept = Held(s.new_id(), held.game, env, ply=len(moves), used=s.clock())
    s.keep(kept)  # who played the loaded moves is not in an envelope: their log says None
    return {"game": kept.id, **status(kept)}


def _op_moves(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    held = s.target(f, c)
    viewer, everything = s.viewer(held, f, c)
    st = status(held)
    moves: list[str] = []
    if everything or (viewer is not None and viewer == st["to_move"]):
        moves = list(legal_now(held))
    return {**st, "moves": moves}


def _op_play(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    return s.play(f, c)


def _op_state(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    held = s.target(f, c)
    viewer, everything = s.viewer(held, f, c)
    st = status(held)
    with guard_state("request"):
        if everything:
            held.env["state"] = held.game.to_json()
            return {**st, "state": held.env}
        return {**st, "view": held.game.view(viewer)}


def _op_view(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    held = s.target(f, c)
    viewer, everything = s.viewer(held, f, c)
    return snapshot(held, viewer, everything, omitted(f.get("omit", [])))


def _op_log(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    held = s.target(f, c)
    _, in_charge = s.role(held, c)
    viewer, everything = s.viewer(held, f, c)
    whole = everything or (in_charge and held.game.outcome is not None)
    return s.log(held, viewer, whole)


def _op_board(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    held = s.target(f, c)
    s.role(held, c)  # a token that is nothing in this game is refused, as everywhere
    return s.picture(held)


def _op_render(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    _trusted_only(c, "render")
    held = s.target(f, c)
    with guard_state("request"):
        return {**status(held), "text": held.game.render()}


def _op_close(s: Session, f: Mapping[str, Any], c: Caller) -> dict[str, Any]:
    gid = f.get("game")
    if c.trusted and (not isinstance(gid, str) or gid not in s.games):
        return {}  # closing what is not held is no error for the local frontend
    held = s.lookup(gid)
    if not c.trusted:
        if c.token is None:
            raise RequestError(
                "deleting a game needs its owner's token (Authorization: Bearer <owner token>)",
                status=401,
                code="no_token",
            )
        _, in_charge = s.role(held, c)
        if not in_charge:
            raise RequestError(
                "only the game's owner (or the admin) may delete it", status=403, code="not_owner"
            )
    s.close(held.id, "closed" if c.trusted else "deleted")
    return {"game": held.id, "closed": True}


#: the operations that touch no game (a transport may run them off its event loop)
GAMELESS = frozenset({"rules", "projects"})

#: every operation of the one dispatcher: name -> handler
OPS: dict[str, Op] = {
    "rules": _op_rules,
    "projects": _op_projects,
    "new": _op_new,
    "load": _op_load,
    "moves": _op_moves,
    "play": _op_play,
    "state": _op_state,
    "view": _op_view,
    "log": _op_log,
    "board": _op_board,
    "render": _op_render,
    "close": _op_close,
}
