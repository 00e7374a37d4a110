"""State files (envelopes) and the compiled-boards cache, shared by every game verb
of the CLI and by both servers (:mod:`referee.session` holds the live games).

Envelopes
    A *state file* is a JSON envelope::

        {"format": "boardwright-game", "version": 1, "rules": "ringgeister",
         "project": "/abs/path/to/project", "board_hash": "…",
         "state": {… Game.to_json() …},
         "log": {"new": {"players": 2, "seed": 7, "options": {…}, "events": […]},
                 "moves": [{"move": "hobbit-yellow t3/p2", "events": […]}, …]}}

    It carries enough to find its board again (the project and the board's hash; a
    different board is refused) and the whole game since ``new``, so
    :func:`replay_one` can re-run it and check every verdict. Hand-edited states are
    untrusted: the envelope and its log are checked for shape here, and anything the
    rules module raises on a state it cannot use becomes one
    :class:`~referee.errors.StateError` naming the place (:func:`guard_state`).

Boards
    :class:`Boards` compiles each project once and keeps the compiled boards by
    *board hash*; a project path is resolved fully (every link followed) and refused
    when it leaves the projects folder, at any depth. Safe to call from worker
    threads (the network server compiles off its event loop).

Layering: above the games and rendering; below :mod:`referee.session`.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .compiler import CompiledBoard, compile_board
from .errors import BoardwrightError, IllegalMoveError, RequestError, StateError, UsageError
from .games import get_game
from .games.base import Game
from .safeio import MAX_INT_DIGITS, dumps_json, loads_json, write_json
from .store import _project_in_dir, load_project, read_json_file

ENVELOPE = "boardwright-game"
ENVELOPE_VERSION = 1
MAX_PLAYERS = 16
#: compiled boards kept (least recently used dropped first; live games keep theirs)
MAX_BOARDS = 16

AnyGame = Game[Any]
Event = dict[str, Any]


@contextlib.contextmanager
def guard_state(where: str, what: str = "the state does not fit its rules") -> Iterator[None]:
    """Turn anything but our own errors, raised while using a game state, into ``bad_state``.

    A hand-edited state can hold what the rules never produce (``cur: 99``, a
    position ``"x"``, a negative corruption); the rules module may then fail with
    any exception. The CLI and the servers report it as one line naming ``where``.
    """
    try:
        yield
    except BoardwrightError as exc:
        if exc.location is None or where not in exc.location:
            exc.location = f"{where}: {exc.location}" if exc.location else where
        raise
    except RecursionError:
        raise StateError("the state is nested too deeply to use", location=where) from None
    except MemoryError:
        raise StateError("the state needs too much memory to use", location=where) from None
    except BrokenPipeError:
        raise  # the reader of our output went away (| head): not the state's fault
    except Exception as exc:
        text = str(exc).replace("\n", " ")[:160]
        raise StateError(f"{what} ({type(exc).__name__}: {text})", location=where) from None


# ====================================================================== boards
_GC_LOCK = threading.Lock()
_GC_HELD = [0, True]  # compiles under way, whether collection was on before the first


@contextlib.contextmanager
def quiet_collector() -> Iterator[None]:
    """No cyclic garbage collection while a board is built, then its objects kept
    out of later collections (:func:`gc.freeze`).

    A full collection walks every object of the process with every thread stopped:
    in the middle of building a 10,000-space board it stops the network server's
    event loop (and every client) for a quarter of a second, and every later one
    walks the board again. Objects frozen are still freed when nothing refers to
    them; only cyclic garbage left while building is kept (a compile makes little).
    """
    with _GC_LOCK:
        if _GC_HELD[0] == 0:
            _GC_HELD[1] = gc.isenabled()
            gc.disable()
        _GC_HELD[0] += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_HELD[0] -= 1
            if _GC_HELD[0] == 0:
                gc.freeze()
                if _GC_HELD[1]:
                    gc.enable()


class Boards:
    """Compiled boards, cached by board hash, for projects inside ``root``.

    Parameters
    ----------
    root : path, optional
        The projects folder: every project path must resolve inside it (code
        ``forbidden``), whatever links it passes through — the folder, the project
        file a folder holds, a link at any depth. ``None`` trusts the caller (the
        CLI's own files).
    limit : int
        Compiled boards kept; the least recently used is dropped first.

    Notes
    -----
    A project is re-read when its file changes (its device, inode, size or
    modification time); two paths to the same board share one compile. Thread-safe:
    two threads asking for the same project compile it once.
    """

    def __init__(self, root: str | os.PathLike[str] | None = None, limit: int = MAX_BOARDS) -> None:
        self.root = Path(root).resolve() if root is not None else None
        self.limit = limit
        self._by_hash: OrderedDict[str, CompiledBoard] = OrderedDict()
        self._hash_of: dict[tuple[Any, ...], str] = {}
        self._lock = threading.Lock()
        self._busy: dict[str, threading.Lock] = {}

    def resolve(self, project: Any) -> Path:
        """The project file ``project`` names, every link resolved, inside :attr:`root`.

        Raises
        ------
        RequestError
            ``bad_request`` (not a path), ``forbidden`` (outside the folder).
        ProjectFileError
            No such project, or a folder holding no (or several) project files.
        """
        if not isinstance(project, str) or not project or "\x00" in project:
            raise RequestError("project must be a path (text)")
        p = Path(project)
        if self.root is not None and not p.is_absolute():
            p = self.root / p
        real = Path(os.path.realpath(p))
        self._confine(real, project)
        if real.is_dir():
            real = Path(os.path.realpath(_project_in_dir(real)))
            self._confine(real, project)
        return real

    def _confine(self, real: Path, project: str) -> None:
        if self.root is not None and real != self.root and self.root not in real.parents:
            raise RequestError(
                f"project {project!r} is outside the projects folder "
                "(referee serve --projects DIR)",
                code="forbidden",
                status=403,
            )

    def get(self, project: str | os.PathLike[str]) -> CompiledBoard:
        """The compiled board of ``project`` (compiled at most once while unchanged)."""
        real = self.resolve(os.fspath(project))
        try:
            st = os.stat(real)
            sig: tuple[Any, ...] = (str(real), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError:
            sig = (str(real),)
        with self._lock:
            c = self._cached(sig)
            if c is not None:
                return c
            busy = self._busy.setdefault(str(real), threading.Lock())
        with busy:  # one compile per project at a time; the others wait for it
            with self._lock:
                c = self._cached(sig)
            if c is not None:
                return c
            with quiet_collector():
                try:
                    c = compile_board(load_project(real))
                except BoardwrightError as exc:
                    if exc.location == str(real):  # name the file as it was given
                        exc.location = os.fspath(project)
                    raise
                h = c.hash  # taken before any game turns a tile (the hash covers tiles' turns)
            with self._lock:
                c = self._by_hash.setdefault(h, c)
                self._by_hash.move_to_end(h)
                self._hash_of[sig] = h
                while len(self._by_hash) > self.limit:
                    self._by_hash.popitem(last=False)
            return c

    def _cached(self, sig: tuple[Any, ...]) -> CompiledBoard | None:
        h = self._hash_of.get(sig)
        c = self._by_hash.get(h) if h is not None else None
        if c is not None and h is not None:
            self._by_hash.move_to_end(h)
        return c

    def by_hash(self, board_hash: str) -> CompiledBoard | None:
        """The compiled board of that hash, if one is cached."""
        with self._lock:
            return self._by_hash.get(board_hash)


def project_meta(path: str) -> dict[str, Any]:
    """``{"title", "rules"}`` of the project file at ``path``, or ``{"error": message}``.

    Reads the whole file: the network server runs it in a worker process, whose
    parsing never holds up its clients (a 5 MB project spends a third of a second
    in the JSON parser, in one call that no other thread can interrupt).
    """
    try:
        with quiet_collector():
            board = load_project(path)
    except BoardwrightError as exc:
        return {"error": exc.message}
    return {"title": board.name, "rules": board.rules or None}


def exit_with_parent(parent: int, every: float = 0.5) -> None:
    """In a worker process: exit as soon as process ``parent`` is gone.

    A worker of a server killed with ``SIGKILL`` (or stopped by a signal before it
    could stop its workers) would otherwise live on, waiting for work that never
    comes. Pass it as the worker pool's initializer.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


#: the compiled boards of this process (the CLI's verbs share them)
BOARDS = Boards()


# ====================================================================== envelopes
def check_setup(players: Any, seed: Any, where: str, error: type[BoardwrightError]) -> None:
    """``players`` from 1 to :data:`MAX_PLAYERS` and ``seed`` an integer, else ``error``."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise error(f"players must be an integer, not {players!r}"[:120], location=where)
    if not 1 <= players <= MAX_PLAYERS:
        raise error(f"players must be from 1 to {MAX_PLAYERS}, not {players}", location=where)
    if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) >= 10**MAX_INT_DIGITS:
        raise error(f"seed must be an integer, not {seed!r}"[:120], location=where)


def board_for(rules: str, project: str, boards: Boards) -> CompiledBoard:
    """The compiled board of ``project``, refused if it declares other rules."""
    compiled = boards.get(project)
    declared = compiled.board.rules
    if declared and declared != rules:
        raise UsageError(
            f"{project} declares rules {declared!r}, not {rules!r}", code="wrong_rules"
        )
    return compiled


def envelope(
    rules: str, project: str, compiled: CompiledBoard, game: AnyGame, new: dict[str, Any]
) -> dict[str, Any]:
    """A state file: the game's state and its log, which starts from ``new``."""
    return {
        "format": ENVELOPE,
        "version": ENVELOPE_VERSION,
        "rules": rules,
        "project": project,
        "board_hash": compiled.hash,
        "state": game.to_json(),
        "log": {"new": new, "moves": []},
    }


def new_game(
    rules: str,
    project: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    boards: Boards = BOARDS,
) -> tuple[AnyGame, dict[str, Any]]:
    """Set up a game and its envelope (``project`` is recorded as an absolute path)."""
    check_setup(players, seed, "new", UsageError)
    cls = get_game(rules)
    compiled = board_for(rules, project, boards)
    with guard_state(project, "the rules cannot set up this game with these options"):
        game = cls.new(compiled, players=players, seed=seed, options=dict(options))
        events = list(game.setup_events)
    new = {"players": players, "seed": seed, "options": dict(options), "events": events}
    return game, envelope(rules, os.path.abspath(project), compiled, game, new)


def new_game_from_position(
    rules: str,
    project: str,
    position: dict[str, Any],
    where: str = "position",
    boards: Boards = BOARDS,
) -> tuple[AnyGame, dict[str, Any]]:
    """Set up the game a position describes, and its envelope (the log starts from it)."""
    cls = get_game(rules)
    compiled = board_for(rules, project, boards)
    if cls.POSITION is None:
        raise UsageError(
            f"{rules} has no position format yet (it has not adopted the kit)",
            code="no_positions",
        )
    try:
        with guard_state(where):
            game = cls.from_position(compiled, position)
    except StateError as exc:
        raise StateError(exc.message, code=exc.code, location=where) from None
    new = {"players": len(game.players), "position": position, "events": []}
    return game, envelope(rules, os.path.abspath(project), compiled, game, new)


def check_envelope(env: Any, where: str) -> None:
    """The shape of a state file (``bad_state`` naming ``where`` if not)."""
    if not isinstance(env, dict) or env.get("format") != ENVELOPE:
        raise StateError(
            'not a Boardwright game state (no "format": "boardwright-game")', location=where
        )
    if env.get("version") != ENVELOPE_VERSION:
        raise StateError(
            f"game state version {env.get('version')!r} is not supported", location=where
        )
    for key in ("rules", "project", "board_hash"):
        if not isinstance(env.get(key), str):
            raise StateError(f"game state has no {key}", location=where)
    if "log" in env:
        check_log(env["log"], where)


def check_log(log: Any, where: str) -> None:
    """The shape of an envelope's ``log``: ``new`` (players, seed, options) and ``moves``."""
    if not isinstance(log, dict):
        raise StateError("log must be an object", location=f"{where} log")
    new = log.get("new")
    if new is not None:
        if not isinstance(new, dict):
            raise StateError("log.new must be an object", location=f"{where} log.new")
        if "players" not in new:
            raise StateError("log.new has no players", location=f"{where} log.new")
        check_setup(new.get("players"), new.get("seed", 0), f"{where} log.new", StateError)
        opts = new.get("options")
        if opts is not None and not isinstance(opts, dict):
            raise StateError("options must be an object", location=f"{where} log.new.options")
        if "events" in new and not isinstance(new["events"], list):
            raise StateError("events must be a list", location=f"{where} log.new.events")
    moves = log.get("moves", [])
    if not isinstance(moves, list):
        raise StateError("log.moves must be a list", location=f"{where} log.moves")
    for i, entry in enumerate(moves):
        text = entry.get("move") if isinstance(entry, dict) else entry
        if not isinstance(text, str):
            raise StateError("a move must be text", location=f"{where} log.moves[{i}]")
        if isinstance(entry, dict) and "events" in entry and not isinstance(entry["events"], list):
            raise StateError("events must be a list", location=f"{where} log.moves[{i}].events")


def load_envelope(path: str) -> dict[str, Any]:
    """Read and check a state file."""
    env = read_json_file(path, StateError)
    check_envelope(env, str(path))
    return env  # type: ignore[no-any-return]


def save_envelope(path: str, env: dict[str, Any]) -> None:
    """Write a state file atomically (standard JSON only; see :mod:`referee.safeio`)."""
    write_json(path, env)


def record_move(env: dict[str, Any], game: AnyGame, move: str, events: list[Event]) -> None:
    """Bring ``env`` up to date after ``move`` was played in ``game``."""
    env["state"] = game.to_json()
    env.setdefault("log", {"moves": []}).setdefault("moves", []).append(
        {"move": move, "events": events}
    )


def game_of(
    env: dict[str, Any], project: str | None = None, boards: Boards = BOARDS, where: str = "state"
) -> AnyGame:
    """The game an envelope holds, on its board (refusing a different board)."""
    proj = project or env["project"]
    with guard_state(where):
        compiled = boards.get(proj)
        cls = get_game(env["rules"])
    if compiled.hash != env["board_hash"]:
        raise StateError(
            f"the game was made for board {env['board_hash']}, but {proj} is "
            f"board {compiled.hash} (it changed, or it is another board)",
            code="wrong_board",
            location=where,
        )
    if "state" not in env:
        raise StateError("game state has no state", location=where)
    with guard_state(where):
        return cls.from_json(env["state"], compiled)


def replay_one(
    env: dict[str, Any], where: str, project: str | None = None, boards: Boards = BOARDS
) -> dict[str, Any]:
    """Re-run one log; return ``{"moves", "ok", "mismatch"}`` (mismatch None when all agree)."""
    proj = project or env["project"]
    compiled = boards.get(proj)
    if compiled.hash != env["board_hash"]:
        raise StateError(
            f"the log was made for board {env['board_hash']}, but {proj} is board {compiled.hash}",
            code="wrong_board",
            location=where,
        )
    new = env["log"]["new"]
    cls = get_game(env["rules"])
    if "position" in new:
        game = cls.from_position(compiled, new["position"])
    else:
        game = cls.new(
            compiled,
            players=new["players"],
            seed=new.get("seed", 0),
            options=dict(new.get("options") or {}),
        )
    if "events" in new and list(game.setup_events) != new["events"]:
        return {
            "moves": 0,
            "ok": False,
            "mismatch": {"ply": 0, "move": None, "why": "set-up events differ"},
        }
    entries = env["log"].get("moves", [])
    for n, entry in enumerate(entries, 1):
        text = entry.get("move") if isinstance(entry, dict) else entry
        want_illegal = isinstance(entry, dict) and entry.get("verdict") == "illegal"
        try:
            events = game.push(game.parse_move(str(text)))
        except IllegalMoveError as exc:
            if want_illegal and entry.get("code") in (None, exc.code):
                continue
            why = f"rejected now ({exc.code}: {exc.message})"
            return {"moves": n - 1, "ok": False, "mismatch": {"ply": n, "move": text, "why": why}}
        if want_illegal:
            why = f"accepted now, but the log says illegal ({entry.get('code')})"
            return {"moves": n - 1, "ok": False, "mismatch": {"ply": n, "move": text, "why": why}}
        if isinstance(entry, dict) and "events" in entry and entry["events"] != events:
            first = next(
                (k for k, (a, b) in enumerate(zip(entry["events"], events)) if a != b),
                min(len(events), len(entry["events"])),
            )
            return {
                "moves": n - 1,
                "ok": False,
                "mismatch": {
                    "ply": n,
                    "move": text,
                    "why": f"events differ from event {first}",
                    "logged": entry["events"][first : first + 1],
                    "now": events[first : first + 1],
                },
            }
    if "state" in env and json.loads(json.dumps(game.to_json())) != env["state"]:
        return {
            "moves": len(entries),
            "ok": False,
            "mismatch": {
                "ply": len(entries),
                "move": None,
                "why": "final state differs from the logged one",
            },
        }
    return {"moves": len(entries), "ok": True, "mismatch": None}


def copy_json(env: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a JSON value through our reader and writer."""
    copied: dict[str, Any] = loads_json(dumps_json(env, "state"), "state", error=StateError)
    return copied
