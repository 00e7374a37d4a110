"""The games a server holds: one :class:`Table` per game, all of them in a :class:`Hall`.

A table is the authoritative game: the :class:`~referee.games.base.Game` object, its
seats (player name -> hash of the seat's secret token), its ply counter and the
WebSocket listeners. Everything a seat or a spectator is shown goes through the
game's own ``view(player)`` and ``events_for(events, viewer)``: the server never
decides what is secret, the rules module does (and the kit's ``Game.view`` keeps
the random generator out of every view).

The hall resolves project names under the projects folder (no other path is ever
opened), keeps one compiled board per project, creates games, loads them back from
the :class:`~referee.net.store.GameStore` after a restart, and enforces the limits.

All methods are synchronous and are called from the server's event loop only, so
one move is checked, applied, committed and pushed before the next request runs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..cli.cmd_game import ENVELOPE, ENVELOPE_VERSION, Boards
from ..compiler import CompiledBoard
from ..errors import BoardwrightError, IllegalMoveError
from ..games import available, get_game
from ..games.base import Game
from ..render import render_svg
from ..vocabulary import FigureView
from .errors import ApiError
from .limits import Limits, RateLimiter
from .store import GameRecord, GameStore, token_hash

#: a project name: one path component, no leading dot
_PROJECT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,127}$")
_PROJECT_SUFFIXES = (".bwproj", ".json")
#: a seed the generator takes (0 <= seed < 2**63)
_MAX_SEED = 2**63
_MAX_PLAYERS = 16
_MAX_MOVE_TEXT = 1000

Event = dict[str, Any]
#: what a frontend gets of each :class:`~referee.games.base.FigureView`
_FIGURE_FIELDS = tuple(f.name for f in dataclasses.fields(FigureView))


def seat_names(game: Game[Any]) -> list[str]:
    """The players of ``game`` in turn order (the kit's ``Game.players``): what
    ``to_move`` returns, one seat each."""
    return list(game.players)


def setup_events(game: Game[Any]) -> list[Event]:
    """What happened while ``game`` was set up (the kit's ``setup_events``)."""
    return list(game.setup_events)


class Listener:
    """One WebSocket's queue of messages, for the seat ``player`` (``None``: spectator)."""

    def __init__(self, player: str | None, maxsize: int = 256) -> None:
        self.player = player
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize)
        self.overflowed = False

    def put(self, message: dict[str, Any] | None) -> None:
        """Queue a message; a listener too slow to keep up is closed (``None``)."""
        if self.overflowed:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


class Table:
    """One game held by the server."""

    def __init__(self, rec: GameRecord, game: Game[Any], store: GameStore) -> None:
        self.rec = rec
        self.game = game
        self.store = store
        self.ply = rec.ply
        self.listeners: set[Listener] = set()

    @property
    def id(self) -> str:
        return self.rec.id

    # ------------------------------------------------------------------ seats
    def seat_of(self, token: str | None) -> str | None:
        """The player ``token`` belongs to, or ``None``.

        Raises
        ------
        ApiError
            401 ``bad_token``: a token that is no seat of this game.
        """
        if token is None:
            return None
        h = token_hash(token)
        for player, th in self.rec.token_hashes.items():
            if secrets.compare_digest(th, h):
                return player
        raise ApiError("this token is no seat of this game", status=401, code="bad_token")

    # ------------------------------------------------------------------ views
    def status(self) -> dict[str, Any]:
        g = self.game
        outcome = None if g.outcome is None else g.outcome.to_json()
        return {
            "ply": self.ply,
            "to_move": None if outcome is not None else g.to_move,
            "outcome": outcome,
        }

    def snapshot(self, player: str | None) -> dict[str, Any]:
        """The game as ``player`` may see it (``None``: the public view)."""
        g = self.game
        out: dict[str, Any] = {
            "game": self.id,
            "rules": self.rec.rules,
            "project": self.rec.project,
            "seats": list(self.rec.seats),
            "you": player,
            **self.status(),
            "view": g.view(player),
            "figures": [{k: getattr(f, k) for k in _FIGURE_FIELDS} for f in g.figures().values()],
        }
        if player is not None and out["to_move"] == player:
            out["moves"] = [str(m) for m in g.legal_moves]
            out["targets"] = {
                fig: {node: [str(m) for m in ms] for node, ms in nodes.items()}
                for fig, nodes in g.move_targets().items()
            }
        return out

    def events_for(self, events: list[Event], player: str | None) -> list[Event]:
        return self.game.events_for(events, player)

    def log(self, player: str | None) -> dict[str, Any]:
        """The game's log: whole (a ``referee replay`` envelope) once the game is over,
        else only what ``player`` may see (public events; that seat's own moves)."""
        moves = list(self.store.moves(self.id))
        if self.game.outcome is not None:
            return {"complete": True, **self.envelope(moves)}
        entries = []
        for m in moves:
            e: dict[str, Any] = {
                "ply": m["ply"],
                "player": m["player"],
                "events": self.events_for(m["events"], player),
            }
            if player is not None and m["player"] == player:
                e["move"] = m["move"]
            entries.append(e)
        return {
            "complete": False,
            "game": self.id,
            "rules": self.rec.rules,
            "project": self.rec.project,
            "setup_events": self.events_for(self.rec.setup_events, player),
            "moves": entries,
            **self.status(),
        }

    def envelope(self, moves: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The whole game as a ``boardwright-game`` envelope (``referee replay`` reads it)."""
        if moves is None:
            moves = list(self.store.moves(self.id))
        new: dict[str, Any] = {
            "players": len(self.rec.seats),
            "seed": self.rec.seed,
            "options": dict(self.rec.options),
            "events": self.rec.setup_events,
        }
        if self.rec.position is not None:
            new["position"] = self.rec.position
        return {
            "format": ENVELOPE,
            "version": ENVELOPE_VERSION,
            "rules": self.rec.rules,
            "project": self.rec.project,
            "board_hash": self.rec.board_hash,
            "state": self.game.to_json(),
            "log": {
                "new": new,
                "moves": [{"move": m["move"], "events": m["events"]} for m in moves],
            },
        }

    # ------------------------------------------------------------------ moves
    def play(self, player: str, text: Any, expect_ply: Any) -> tuple[int, dict[str, Any]]:
        """Play ``text`` for the seat ``player``: ``(HTTP status, answer)``.

        The move is committed to the store before this returns; listeners get the
        events filtered for them. A rejected move changes nothing.
        """
        if not isinstance(text, str) or not text.strip():
            raise ApiError('"move" must be the text of a move', code="bad_request")
        if len(text) > _MAX_MOVE_TEXT:
            raise ApiError(f'"move" longer than {_MAX_MOVE_TEXT} characters')
        if isinstance(expect_ply, bool) or not isinstance(expect_ply, int):
            raise ApiError('"expect_ply" must be the ply the move is meant for (an integer)')
        g = self.game
        if g.outcome is not None:
            raise ApiError("the game is over", status=409, code="game_over")
        if expect_ply != self.ply:
            raise ApiError(
                f"the game is at ply {self.ply}, not {expect_ply}",
                status=409,
                code="stale_ply",
                details={"ply": self.ply},
            )
        if g.to_move != player:
            raise ApiError(
                f"it is {g.to_move}'s turn, not {player}'s",
                status=403,
                code="not_your_turn",
                details={"to_move": g.to_move},
            )
        try:
            move = g.parse_move(text)
            events = g.push(move)
        except IllegalMoveError as exc:
            return 422, {
                "verdict": "illegal",
                "move": text,
                "ply": self.ply,
                "error": exc.to_json(),
            }
        ply = self.ply + 1
        outcome = None if g.outcome is None else g.outcome.to_json()
        to_move = None if outcome is not None else g.to_move
        status: dict[str, Any] = {"ply": ply, "to_move": to_move, "outcome": outcome}
        try:
            self.store.record_move(
                self.id, ply, player, str(move), events, g.to_json(), to_move, outcome
            )
        except BaseException:
            # not committed: the move did not happen
            self.game = get_game(self.rec.rules).from_json(self.rec_state(), g.compiled)
            raise
        self.ply = ply
        for lst in list(self.listeners):
            lst.put(
                {
                    "type": "move",
                    "game": self.id,
                    "player": player,
                    **status,
                    "events": self.events_for(events, lst.player),
                }
            )
        return 200, {
            "verdict": "accepted",
            "move": str(move),
            **status,
            "events": self.events_for(events, player),
        }

    def rec_state(self) -> dict[str, Any]:
        rec = self.store.game(self.id)
        assert rec is not None
        return rec.state


class Hall:
    """Every game of a server, the projects it may open, and the limits.

    Parameters
    ----------
    projects : Path or mapping of str to Path
        A folder whose entries (project folders, ``.bwproj`` and ``.json`` files) are
        the projects, by name; or an explicit ``{name: path}`` table (the editor's
        open board).
    store : GameStore
    limits : Limits
    """

    def __init__(
        self, projects: Path | Mapping[str, Path], store: GameStore, limits: Limits
    ) -> None:
        if isinstance(projects, Mapping):
            self.root: Path | None = None
            self._fixed: dict[str, Path] | None = {k: Path(v) for k, v in projects.items()}
        else:
            self.root = Path(projects).resolve()
            self._fixed = None
        self.store = store
        self.limits = limits
        self.boards = Boards()
        self.tables: dict[str, Table] = {}
        self.rate = RateLimiter(limits.moves_per_second)
        self._svg: dict[tuple[str, tuple[tuple[str, int], ...]], dict[str, Any]] = {}

    # ------------------------------------------------------------------ projects
    def project_paths(self) -> dict[str, Path]:
        """Project name -> path, for every project the server may open."""
        if self._fixed is not None:
            return dict(self._fixed)
        assert self.root is not None
        out: dict[str, Path] = {}
        try:
            entries = sorted(self.root.iterdir())
        except OSError:
            return out
        for p in entries:
            if p.name.startswith(".") or not _PROJECT_NAME.match(p.name):
                continue
            try:
                real = p.resolve()
            except OSError:
                continue
            if not real.is_relative_to(self.root):
                continue  # a link leading out of the projects folder
            if p.is_dir():
                if any(c.suffix in _PROJECT_SUFFIXES for c in p.iterdir() if c.is_file()):
                    out[p.name] = p
            elif p.suffix in _PROJECT_SUFFIXES and p.stem not in out:
                out[p.stem] = p
        return out

    def project_path(self, name: Any) -> Path:
        """The path of project ``name``; anything but a listed name is refused."""
        if not isinstance(name, str) or not _PROJECT_NAME.match(name) or ".." in name:
            raise ApiError(
                f"project must be a project's name as /api/projects lists it, not {name!r}"[:200],
                code="bad_project",
            )
        path = self.project_paths().get(name)
        if path is None:
            raise ApiError(
                f"no project {name!r} on this server", status=404, code="unknown_project"
            )
        return path

    def board(self, name: str) -> CompiledBoard:
        path = self.project_path(name)
        try:
            return self.boards.get(str(path))
        except BoardwrightError as exc:
            raise ApiError(
                f"project {name!r} cannot be opened: {exc.message}", code="bad_project"
            ) from None

    def projects(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for name in self.project_paths():
            try:
                c = self.board(name)
            except ApiError as exc:
                out.append({"name": name, "error": exc.message})
                continue
            out.append({"name": name, "title": c.board.name, "rules": c.board.rules or None})
        return out

    @staticmethod
    def rules() -> list[dict[str, Any]]:
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
                    "positions": cls.POSITION is not None,
                }
            )
        return out

    # ------------------------------------------------------------------ games
    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a game from a ``POST /api/games`` body; answer its seats' tokens."""
        rules = body.get("rules")
        if not isinstance(rules, str) or rules not in available():
            raise ApiError(f"rules must be one of {', '.join(available())}", code="unknown_rules")
        position = body.get("position")
        players = body.get("players")
        if position is None and (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not 1 <= players <= _MAX_PLAYERS
        ):
            raise ApiError(f'"players" must be a number of players (1 to {_MAX_PLAYERS})')
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < _MAX_SEED:
            raise ApiError('"seed" must be a whole number from 0 to 2**63 - 1')
        options = body.get("options") or {}
        if not isinstance(options, dict) or any(
            not isinstance(v, (str, int, float, bool))
            or (isinstance(v, float) and not math.isfinite(v))
            for v in options.values()
        ):
            raise ApiError('"options" must be an object of names to plain values')
        if position is not None and not isinstance(position, dict):
            raise ApiError('"position" must be an object (a position of the rules)')
        if self.store.count_games() >= self.limits.max_games:
            raise ApiError(
                f"this server holds its limit of {self.limits.max_games} games",
                status=503,
                code="too_many_games",
            )
        project = str(body.get("project"))
        compiled = self.board(body.get("project"))  # type: ignore[arg-type]
        cls = get_game(rules)
        declared = compiled.board.rules
        if declared and declared != rules:
            raise ApiError(
                f"project {project!r} is a {declared} board, not {rules}", code="wrong_rules"
            )
        game: Game[Any]
        if position is not None:
            if cls.POSITION is None:
                raise ApiError(f"{rules} has no positions yet", code="no_positions")
            game = cls.from_position(compiled, position)
        else:
            assert isinstance(players, int)
            game = cls.new(compiled, players=players, seed=seed, options=dict(options))
        seats = seat_names(game)
        tokens = {p: secrets.token_urlsafe(24) for p in seats}
        gid = secrets.token_urlsafe(9)
        outcome = None if game.outcome is None else game.outcome.to_json()
        rec = GameRecord(
            id=gid,
            rules=rules,
            project=project,
            board_hash=compiled.hash,
            seats=seats,
            token_hashes={p: token_hash(t) for p, t in tokens.items()},
            seed=seed,
            options=dict(options),
            position=position,
            setup_events=setup_events(game),
            state=game.to_json(),
            ply=0,
            to_move=None if outcome is not None else game.to_move,
            outcome=outcome,
        )
        self.store.add_game(rec)
        table = Table(rec, game, self.store)
        self.tables[gid] = table
        return {
            "game": gid,
            "rules": rules,
            "project": project,
            "seats": [
                {"player": p, "token": tokens[p], "url": f"/?game={gid}&token={tokens[p]}"}
                for p in seats
            ],
            "spectate": f"/?game={gid}",
            **table.status(),
        }

    def table(self, gid: str) -> Table:
        """The game ``gid``, loaded from the store when the server has not held it yet."""
        t = self.tables.get(gid)
        if t is not None:
            return t
        rec = self.store.game(gid) if isinstance(gid, str) and len(gid) < 64 else None
        if rec is None:
            raise ApiError(f"no game {gid[:64]!r} on this server", status=404, code="unknown_game")
        compiled = self.board(rec.project)
        if compiled.hash != rec.board_hash:
            raise ApiError(
                f"game {gid} was made for another version of project {rec.project!r}",
                status=409,
                code="wrong_board",
            )
        game = get_game(rec.rules).from_json(rec.state, compiled)
        t = Table(rec, game, self.store)
        self.tables[gid] = t
        return t

    def check_rate(self, token: str) -> None:
        wait = self.rate.take(token_hash(token))
        if wait > 0:
            raise ApiError(
                f"more than {self.limits.moves_per_second:g} moves per second from this seat",
                status=429,
                code="rate_limited",
                details={"retry_after": round(wait, 3)},
                headers={"Retry-After": str(max(1, math.ceil(wait)))},
            )

    # ------------------------------------------------------------------ drawing
    def board_picture(self, table: Table) -> dict[str, Any]:
        """The board of ``table`` as SVG plus every node's position, tiles turned as in
        the game (one render per project and set of tile turns)."""
        g = table.game.copy()  # a copy syncs a shared compiled board to the game's turns
        c = g.compiled
        key = (table.rec.project, tuple((p.id, p.turns) for p in c.board.placements))
        pic = self._svg.get(key)
        if pic is None:
            svg = render_svg(c.board, c, pieces=False, legend=False)
            nodes = {n: [round(d["x"], 2), round(d["y"], 2)] for n, d in c.graph.nodes(data=True)}
            pic = {"svg": svg, "nodes": nodes}
            if len(self._svg) > 256:
                self._svg.clear()
            self._svg[key] = pic
        return pic
