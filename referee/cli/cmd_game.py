"""Game verbs over any rules module: ``new``, ``moves``, ``play``, ``replay``, ``selfplay``.

The verbs know nothing of a particular game: they go through
:func:`referee.games.get_game` and the :class:`~referee.games.base.Game` interface.
Rules-specific set-up goes in ``--variant`` and ``--option KEY=VALUE``.

A *state file* is a JSON envelope::

    {"format": "boardwright-game", "version": 1, "rules": "ringgeister",
     "project": "/abs/path/to/project", "board_hash": "…",
     "state": {… Game.to_json() …},
     "log": {"new": {"players": 2, "seed": 7, "options": {…}, "events": […]},
             "moves": [{"move": "hobbit-yellow t3/p2", "events": […]}, …]}}

It carries enough to find its board again (the project path and the board's
hash; a different board is refused) and the whole game since ``new``, so
``replay`` can re-run it and check every verdict. A *log* for ``replay`` is such
an envelope, or a JSON-lines file of them (``selfplay --log``); a log entry may
also record a rejected move (``{"move": …, "verdict": "illegal", "code": …}``).

Hand-edited states are untrusted: every file is read by :mod:`referee.safeio`, the
envelope and its log are checked for shape here, and anything the rules module
raises on a state it cannot use (a ``KeyError``, an index out of range, a wrong
type) becomes one :class:`~referee.errors.StateError` (``bad_state``) naming the
file — never a traceback (:func:`guard_state`). The ``serve`` verb is in
:mod:`referee.cli.cmd_serve` / :mod:`referee.cli.stdio`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

from ..compiler import CompiledBoard, compile_board
from ..errors import BoardwrightError, IllegalMoveError, StateError, UsageError
from ..games import get_game
from ..games.base import Game
from ..safeio import (
    MAX_INT_DIGITS,
    atomic_build,
    dumps_json,
    loads_json,
    option_value,
    read_text,
    write_json,
)
from ..store import load_project, read_json_file
from . import bot_verbs, emit_json
from .cmd_position import read_position

ENVELOPE = "boardwright-game"
ENVELOPE_VERSION = 1
MAX_PLAYERS = 16


@contextlib.contextmanager
def guard_state(where: str, what: str = "the state does not fit its rules") -> Iterator[None]:
    """Turn anything but our own errors, raised while using a game state, into ``bad_state``.

    A hand-edited state can hold what the rules never produce (``cur: 99``, a
    position ``"x"``, a negative corruption); the rules module may then fail with
    any exception. The CLI and the server report it as one line naming ``where``.
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
    except Exception as exc:
        text = str(exc).replace("\n", " ")[:160]
        raise StateError(f"{what} ({type(exc).__name__}: {text})", location=where) from None


# ====================================================================== helpers
class Boards:
    """Compiled boards by project path (each compiled once per process)."""

    def __init__(self) -> None:
        self._cache: dict[str, CompiledBoard] = {}

    def get(self, project: str) -> CompiledBoard:
        key = os.path.abspath(project)
        c = self._cache.get(key)
        if c is None:
            c = compile_board(load_project(project))
            _ = c.hash  # taken before any game turns a tile (the hash covers tile turns)
            self._cache[key] = c
        return c


_BOARDS = Boards()


def parse_options(pairs: list[str] | None, variant: str | None) -> dict[str, Any]:
    """``["k=v", …]`` → dict; values become int/float/bool when they read as such."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option needs KEY=VALUE, not {pair!r}")
        out[key.strip()] = option_value(value.strip(), f"--option {key.strip()}")
    if variant is not None:
        out["variant"] = variant
    return out


def check_setup(players: Any, seed: Any, where: str, error: type[BoardwrightError]) -> None:
    """``players`` from 1 to :data:`MAX_PLAYERS` and ``seed`` an integer, else ``error``."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise error(f"players must be an integer, not {players!r}"[:120], location=where)
    if not 1 <= players <= MAX_PLAYERS:
        raise error(f"players must be from 1 to {MAX_PLAYERS}, not {players}", location=where)
    if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) >= 10**MAX_INT_DIGITS:
        raise error(f"seed must be an integer, not {seed!r}"[:120], location=where)


def new_game(
    rules: str,
    project: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    boards: Boards = _BOARDS,
) -> tuple[Game[Any], dict[str, Any]]:
    """Set up a game and its envelope."""
    check_setup(players, seed, "new", UsageError)
    cls = get_game(rules)
    compiled = _board_for(rules, project, boards)
    with guard_state(project, "the rules cannot set up this game with these options"):
        game = cls.new(compiled, players=players, seed=seed, options=dict(options))
        events = list(game.setup_events)
    new = {"players": players, "seed": seed, "options": dict(options), "events": events}
    return game, _envelope(rules, project, compiled, game, new)


def _board_for(rules: str, project: str, boards: Boards) -> CompiledBoard:
    """The compiled board of ``project``, refused if it declares other rules."""
    compiled = boards.get(project)
    declared = compiled.board.rules
    if declared and declared != rules:
        raise UsageError(f"{project} declares rules {declared!r}, not {rules!r}")
    return compiled


def _envelope(
    rules: str, project: str, compiled: CompiledBoard, game: Game[Any], new: dict[str, Any]
) -> dict[str, Any]:
    """A state file: the game's state and its log, which starts from ``new``."""
    return {
        "format": ENVELOPE,
        "version": ENVELOPE_VERSION,
        "rules": rules,
        "project": os.path.abspath(project),
        "board_hash": compiled.hash,
        "state": game.to_json(),
        "log": {"new": new, "moves": []},
    }


def new_game_from_position(
    rules: str,
    project: str,
    position: dict[str, Any],
    where: str = "position",
    boards: Boards = _BOARDS,
) -> tuple[Game[Any], dict[str, Any]]:
    """Set up the game a position describes, and its envelope (the log starts from it)."""
    cls = get_game(rules)
    compiled = _board_for(rules, project, boards)
    if cls.POSITION is None:
        raise UsageError(f"{rules} has no position format")
    try:
        with guard_state(where):
            game = cls.from_position(compiled, position)
    except StateError as exc:
        raise StateError(exc.message, code=exc.code, location=where) from None
    new = {"players": len(game.players), "position": position, "events": []}
    return game, _envelope(rules, project, compiled, game, new)


def check_envelope(env: Any, where: str) -> None:
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
    env = read_json_file(path, StateError)
    check_envelope(env, str(path))
    return env  # type: ignore[no-any-return]


def game_of(
    env: dict[str, Any], project: str | None = None, boards: Boards = _BOARDS, where: str = "state"
) -> Game[Any]:
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


def _write(path: str, env: dict[str, Any]) -> None:
    """Write a state file atomically (standard JSON only; see :mod:`referee.safeio`)."""
    write_json(path, env)


def _status(game: Game[Any]) -> dict[str, Any]:
    outcome = game.outcome
    return {"to_move": game.to_move, "outcome": None if outcome is None else outcome.to_json()}


# ====================================================================== verbs
_VIEW_HELP = (
    "show only what PLAYER may see (hidden hands and cards stay hidden); "
    "the state file itself always keeps everything"
)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "new",
        help="set up a game and print its state",
        description="Set up a game of RULES on PROJECT and print the state "
        "file (JSON) on stdout, or write it with -o.",
    )
    p.add_argument("rules")
    p.add_argument("project")
    p.add_argument("--players", type=int, help="number of players (required without --position)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--position",
        metavar="FILE",
        help="set the game up as the position FILE says (players and options from it)",
    )
    p.add_argument("--variant", help="rules variant (e.g. A, B, C for Ringgeister)")
    p.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="rules option, repeatable (e.g. counter_placement=random)",
    )
    p.add_argument("-o", "--output", help="write the state here instead of stdout")
    p.add_argument("--json", action="store_true", help="(states are always JSON)")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser(
        "moves",
        help="list the legal moves in a state",
        description="List the legal moves of the player to move, one per line.",
    )
    p.add_argument("state")
    p.add_argument("--project", help="board to use instead of the one the state names")
    p.add_argument("--json", action="store_true")
    p.add_argument("--view", metavar="PLAYER", help=_VIEW_HELP)
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser(
        "play",
        help="play one move: print the verdict and the new state",
        description="Play MOVE in STATE. Accepted: the events, in order, and the "
        "new state (stdout, or -o FILE). Rejected: why (code, message, "
        "details), exit 1, nothing written.",
    )
    p.add_argument("state")
    p.add_argument("move", nargs="?", help="the move (or --bot)")
    bot_verbs.add_play_bot(p)
    p.add_argument("-o", "--output", help="write the new state here (may be STATE itself)")
    p.add_argument("--project", help="board to use instead of the one the state names")
    p.add_argument("--json", action="store_true")
    p.add_argument("--view", metavar="PLAYER", help=_VIEW_HELP)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "replay",
        help="re-run a game log and check every verdict",
        description="Re-run LOG (a state file, or JSON lines of them) from its "
        "seed and check every verdict, event and the final state.",
    )
    p.add_argument("log")
    p.add_argument("--project", help="board to use instead of the one the log names")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "selfplay",
        help="play random legal games and report",
        description="Play GAMES random legal games of RULES on PROJECT, check the "
        "rules' invariants after every move, and report outcomes and "
        "speed.",
    )
    p.add_argument("rules")
    p.add_argument("project")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--players",
        type=int,
        help="players per game (default: as many as the game takes, at most 4: "
        "its PLAYERS range decides)",
    )
    p.add_argument("--max-moves", type=int, default=5000, help="per game (default 5000)")
    p.add_argument("--variant")
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--no-invariants", action="store_true", help="skip the invariant checks")
    p.add_argument("--log", help="write every game as a JSON line (replayable)")
    bot_verbs.add_selfplay_bots(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_selfplay)


def selfplay_players(rules: str, players: int | None) -> int:
    """``--players`` of ``selfplay``, or the game's default: as many as its ``PLAYERS``
    range takes, at most 4 (a two-player game gets 2, a five-seat one 4)."""
    if players is not None:
        return players
    lo, hi = get_game(rules).PLAYERS
    return max(lo, min(hi, 4))


def cmd_new(args: argparse.Namespace) -> int:
    if args.position:
        if args.players is not None or args.option or args.variant:
            raise UsageError("--position gives the players and options; drop the others")
        _, env = new_game_from_position(
            args.rules, args.project, read_position(args.position, args.rules), args.position
        )
    elif args.players is None:
        raise UsageError("--players is required (or set the game up with --position FILE)")
    else:
        _, env = new_game(
            args.rules,
            args.project,
            args.players,
            args.seed,
            parse_options(args.option, args.variant),
        )
    if args.output:
        _write(args.output, env)
        print(f"wrote a new {args.rules} game to {args.output}", file=sys.stderr)
    else:
        emit_json(env)
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    with guard_state(args.state):
        return _moves(args)


def _moves(args: argparse.Namespace) -> int:
    env = load_envelope(args.state)
    game = game_of(env, args.project, where=args.state)
    game.check_viewer(args.view)
    with guard_state(args.state):
        moves = [str(m) for m in game.legal_moves]
    if args.view is not None and args.view != game.to_move:
        moves = []  # another player's options would reveal what they hold
    if args.json:
        out = {**_status(game), "moves": moves}
        if args.view is not None:
            with guard_state(args.state):
                out["view"] = game.view(args.view)
        emit_json(out)
    else:
        if game.outcome is not None:
            print(f"game over: {json.dumps(game.outcome.to_json())}", file=sys.stderr)
        else:
            print(f"{game.to_move} to move, {len(moves)} legal move(s)", file=sys.stderr)
        for m in moves:
            print(m)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    if args.bot is not None:
        return bot_verbs.cmd_play_bot(args)
    if args.move is None:
        raise UsageError("play needs MOVE (or --bot SPEC)")
    with guard_state(args.state):
        return _play(args)


def _play(args: argparse.Namespace) -> int:
    env = load_envelope(args.state)
    game = game_of(env, args.project, where=args.state)
    game.check_viewer(args.view)  # before the move: a bad --view changes nothing
    try:
        with guard_state(args.state):
            move = game.parse_move(args.move)
            events = game.push(move)
    except IllegalMoveError as exc:
        if args.json:
            emit_json({"verdict": "illegal", "move": args.move, **exc.to_json()})
        print(
            f"referee play: illegal move {args.move!r}: {exc.message} [{exc.code}]", file=sys.stderr
        )
        return 1
    with guard_state(args.state):
        env["state"] = game.to_json()
        env.setdefault("log", {"moves": []}).setdefault("moves", []).append(
            {"move": str(move), "events": events}
        )
        if args.output:
            _write(args.output, env)
        if args.view is not None:
            events = game.events_for(events, args.view)
            view = game.view(args.view)
    if args.json:
        out = {"verdict": "accepted", "move": str(move), "events": events, **_status(game)}
        if args.view is not None:
            out["view"] = view
        elif not args.output:
            out["state"] = env
        emit_json(out)
        return 0
    stream = sys.stdout if args.output else sys.stderr
    print(f"accepted: {move}", file=stream)
    for e in events:
        print(f"  {e['text'] if 'text' in e else json.dumps(e, ensure_ascii=False)}", file=stream)
    if args.view is not None:
        emit_json(view)
    elif not args.output:
        emit_json(env)
    return 0


def _logs(path: str) -> list[tuple[str, dict[str, Any]]]:
    """The envelopes in a log file: one JSON document, or JSON lines."""
    text = read_text(path, StateError)
    docs: list[Any] = []
    wheres: list[str] = []
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) <= 1 or not lines[0][1].lstrip().startswith("{") or _one_document(text):
        docs, wheres = [loads_json(text, str(path), error=StateError)], [str(path)]
    else:
        for n, line in lines:
            docs.append(loads_json(line, f"{path}:{n}", error=StateError))
            wheres.append(f"{path}:{n}")
    for d, w in zip(docs, wheres):
        check_envelope(d, w)
        if not isinstance(d.get("log"), dict) or not isinstance(d["log"].get("new"), dict):
            raise StateError("game state has no log to replay", location=w)
    return list(zip(wheres, docs))


def _one_document(text: str) -> bool:
    """Whether ``text`` parses as one JSON document (else: JSON lines)."""
    try:
        json.loads(text, parse_constant=lambda s: None)
    except (ValueError, RecursionError):
        return False
    return True


def replay_one(
    env: dict[str, Any], where: str, project: str | None = None, boards: Boards = _BOARDS
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
    if "position" in new:
        game = get_game(env["rules"]).from_position(compiled, new["position"])
    else:
        game = get_game(env["rules"]).new(
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
            return {
                "moves": n - 1,
                "ok": False,
                "mismatch": {
                    "ply": n,
                    "move": text,
                    "why": f"rejected now ({exc.code}: {exc.message})",
                },
            }
        if want_illegal:
            return {
                "moves": n - 1,
                "ok": False,
                "mismatch": {
                    "ply": n,
                    "move": text,
                    "why": f"accepted now, but the log says illegal ({entry.get('code')})",
                },
            }
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


def cmd_replay(args: argparse.Namespace) -> int:
    results = []
    for where, env in _logs(args.log):
        with guard_state(where):
            r = replay_one(env, where, args.project)
        results.append({"log": where, **r})
    ok = all(r["ok"] for r in results)
    if args.json:
        emit_json({"ok": ok, "games": results})
    else:
        for r in results:
            if r["ok"]:
                print(f"{r['log']}: {r['moves']} move(s) replayed, every verdict matches")
            else:
                m = r["mismatch"]
                print(f"{r['log']}: mismatch at ply {m['ply']} ({m['move']!r}): {m['why']}")
    return 0 if ok else 1


def selfplay(
    rules: str,
    project: str,
    *,
    games: int,
    seed: int,
    players: int,
    max_moves: int,
    options: dict[str, Any],
    invariants: bool = True,
    log: IO[str] | None = None,
    boards: Boards = _BOARDS,
) -> dict[str, Any]:
    """Play random legal games; return the report (see ``referee selfplay --help``)."""
    rnd = random.Random(seed)
    outcomes: dict[str, int] = {}
    winners: dict[str, int] = {}
    moves_total = 0
    violations: list[dict[str, Any]] = []
    t_push = t_legal = 0.0
    legal_calls = 0
    t0 = time.perf_counter()
    for k in range(games):
        game, env = new_game(rules, project, players, seed + k, options, boards)
        check = game.invariants if invariants else None
        entries: list[dict[str, Any]] = []
        for _ in range(max_moves):
            a = time.perf_counter()
            moves = list(game.legal_moves)
            b = time.perf_counter()
            t_legal += b - a
            legal_calls += 1
            if not moves:
                break
            move = rnd.choice(moves)
            a = time.perf_counter()
            events = game.push(move)
            t_push += time.perf_counter() - a
            moves_total += 1
            if log is not None:
                entries.append({"move": str(move), "events": events})
            if check is not None:
                bad = check()
                if bad:
                    violations.append(
                        {
                            "game": k,
                            "ply": len(entries) or moves_total,
                            "move": str(move),
                            "violations": bad,
                        }
                    )
            if game.outcome is not None:
                break
        ended = game.outcome
        res = "unfinished" if ended is None else ended.result
        outcomes[res] = outcomes.get(res, 0) + 1
        for w in () if ended is None else ended.winners:
            winners[w] = winners.get(w, 0) + 1
        if log is not None:
            env["state"] = game.to_json()
            env["log"]["moves"] = entries
            log.write(dumps_json(env, "selfplay log") + "\n")
    elapsed = time.perf_counter() - t0
    return {
        "rules": rules,
        "project": project,
        "games": games,
        "moves": moves_total,
        "outcomes": dict(sorted(outcomes.items())),
        "wins": sum(winners.values()),
        "losses": outcomes.get("lost", 0),
        "winners": dict(sorted(winners.items())),
        "invariant_violations": len(violations),
        "violations": violations[:20],
        "seconds": round(elapsed, 3),
        "moves_per_second": round(moves_total / t_push, 1) if t_push else None,
        "legal_moves_calls_per_second": round(legal_calls / t_legal, 1) if t_legal else None,
        "overall_moves_per_second": round(moves_total / elapsed, 1) if elapsed else None,
    }


def cmd_selfplay(args: argparse.Namespace) -> int:
    args.players = selfplay_players(args.rules, args.players)
    if args.bots:
        return bot_verbs.cmd_selfplay_bots(args)
    if args.games < 1 or args.max_moves < 1:
        raise UsageError("--games and --max-moves must be at least 1")
    opts = parse_options(args.option, args.variant)
    with contextlib.ExitStack() as stack:
        log: IO[str] | None = None
        if args.log:
            # written into a temporary file that replaces --log only when the run ends
            tmp = stack.enter_context(atomic_build(args.log))
            log = stack.enter_context(open(tmp, "w", encoding="utf-8"))
        rep = selfplay(
            args.rules,
            args.project,
            games=args.games,
            seed=args.seed,
            players=args.players,
            max_moves=args.max_moves,
            options=opts,
            invariants=not args.no_invariants,
            log=log,
        )
    if args.json:
        emit_json(rep)
    else:
        print(
            f"{rep['games']} game(s) of {rep['rules']} on {rep['project']}: "
            f"{rep['moves']} moves in {rep['seconds']} s"
        )
        print("  outcomes: " + ", ".join(f"{k} {v}" for k, v in rep["outcomes"].items()))
        if rep["winners"]:
            print("  winners: " + ", ".join(f"{k} {v}" for k, v in rep["winners"].items()))
        print(f"  invariant violations: {rep['invariant_violations']}")
        for v in rep["violations"]:
            print(f"    game {v['game']} after {v['move']!r}: {'; '.join(v['violations'])}")
        print(
            f"  moves applied/s: {rep['moves_per_second']}   legal_moves calls/s: "
            f"{rep['legal_moves_calls_per_second']}   overall moves/s: "
            f"{rep['overall_moves_per_second']}"
        )
    return 1 if rep["invariant_violations"] else 0


def __getattr__(name: str) -> Any:
    """``Server`` moved to :mod:`referee.cli.stdio`; the old import keeps working."""
    if name == "Server":
        from .stdio import Server

        return Server
    raise AttributeError(name)
