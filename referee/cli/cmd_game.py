"""Game verbs over any rules module: ``new``, ``moves``, ``play``, ``replay``, ``selfplay``, ``serve``.

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
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import IO, Any

from ..compiler import CompiledBoard, compile_board
from ..errors import BoardwrightError, IllegalMoveError, StateError, UsageError
from ..games import get_game
from ..games.base import Game
from ..net.cli import add_http_arguments, run_http
from ..store import _atomic_write_text, load_project, read_json_file
from . import bot_verbs, emit_json
from .cmd_position import read_position

ENVELOPE = "boardwright-game"
ENVELOPE_VERSION = 1
MAX_REQUEST = 1 << 20  # bytes per request line in `serve`


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
        out[key.strip()] = _value(value.strip())
    if variant is not None:
        out["variant"] = variant
    return out


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def new_game(
    rules: str,
    project: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    boards: Boards = _BOARDS,
) -> tuple[Game, dict[str, Any]]:
    """Set up a game and its envelope."""
    cls = get_game(rules)
    compiled = boards.get(project)
    declared = compiled.board.rules
    if declared and declared != rules:
        raise UsageError(f"{project} declares rules {declared!r}, not {rules!r}")
    game = cls.new(compiled, players=players, seed=seed, options=dict(options))
    events = list(getattr(game, "setup_events", []))
    env = {
        "format": ENVELOPE,
        "version": ENVELOPE_VERSION,
        "rules": rules,
        "project": os.path.abspath(project),
        "board_hash": compiled.hash,
        "state": game.to_json(),
        "log": {
            "new": {"players": players, "seed": seed, "options": dict(options), "events": events},
            "moves": [],
        },
    }
    return game, env


def new_game_from_position(
    rules: str,
    project: str,
    position: dict[str, Any],
    where: str = "position",
    boards: Boards = _BOARDS,
) -> tuple[Game, dict[str, Any]]:
    """Set up the game a position describes, and its envelope (the log starts from it)."""
    cls = get_game(rules)
    compiled = boards.get(project)
    declared = compiled.board.rules
    if declared and declared != rules:
        raise UsageError(f"{project} declares rules {declared!r}, not {rules!r}")
    if cls.POSITION is None:
        raise UsageError(f"{rules} has no position format yet (it has not adopted the kit)")
    try:
        game = cls.from_position(compiled, position)
    except StateError as exc:
        raise StateError(exc.message, code=exc.code, location=where) from None
    env = {
        "format": ENVELOPE,
        "version": ENVELOPE_VERSION,
        "rules": rules,
        "project": os.path.abspath(project),
        "board_hash": compiled.hash,
        "state": game.to_json(),
        "log": {
            "new": {"players": len(game.players), "position": position, "events": []},
            "moves": [],
        },
    }
    return game, env


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


def load_envelope(path: str) -> dict[str, Any]:
    env = read_json_file(path, StateError)
    check_envelope(env, str(path))
    return env  # type: ignore[no-any-return]


def game_of(
    env: dict[str, Any], project: str | None = None, boards: Boards = _BOARDS, where: str = "state"
) -> Game:
    """The game an envelope holds, on its board (refusing a different board)."""
    proj = project or env["project"]
    compiled = boards.get(proj)
    if compiled.hash != env["board_hash"]:
        raise StateError(
            f"the game was made for board {env['board_hash']}, but {proj} is "
            f"board {compiled.hash} (it changed, or it is another board)",
            code="wrong_board",
            location=where,
        )
    if "state" not in env:
        raise StateError("game state has no state", location=where)
    return get_game(env["rules"]).from_json(env["state"], compiled)


def _write(path: str, env: dict[str, Any]) -> None:
    try:
        _atomic_write_text(Path(path), json.dumps(env, ensure_ascii=False, indent=1) + "\n")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None


def _status(game: Game) -> dict[str, Any]:
    return {"to_move": game.to_move, "outcome": game.outcome}


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
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--max-moves", type=int, default=5000, help="per game (default 5000)")
    p.add_argument("--variant")
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--no-invariants", action="store_true", help="skip the invariant checks")
    p.add_argument("--log", help="write every game as a JSON line (replayable)")
    bot_verbs.add_selfplay_bots(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser(
        "serve",
        help="answer JSON-lines requests (new, moves, play, state, render) on stdin/stdout",
        description="A JSON-lines server for other frontends: one request per "
        "line on stdin, one response per line on stdout.",
    )
    p.add_argument("--stdio", action="store_true")
    p.add_argument(
        "--max-request",
        type=int,
        default=MAX_REQUEST,
        help=f"largest request line in bytes (default {MAX_REQUEST})",
    )
    add_http_arguments(p)
    p.set_defaults(func=cmd_serve)


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
    env = load_envelope(args.state)
    game = game_of(env, args.project, where=args.state)
    moves = [str(m) for m in game.legal_moves]
    if args.view is not None and args.view != game.to_move:
        moves = []  # another player's options would reveal what they hold
    if args.json:
        out = {**_status(game), "moves": moves}
        if args.view is not None:
            out["view"] = game.view(args.view)
        emit_json(out)
    else:
        if game.outcome is not None:
            print(f"game over: {json.dumps(game.outcome)}", file=sys.stderr)
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
    env = load_envelope(args.state)
    game = game_of(env, args.project, where=args.state)
    try:
        move = game.parse_move(args.move)
        events = game.push(move)
    except IllegalMoveError as exc:
        if args.json:
            emit_json({"verdict": "illegal", "move": args.move, **exc.to_json()})
        print(
            f"referee play: illegal move {args.move!r}: {exc.message} [{exc.code}]", file=sys.stderr
        )
        return 1
    env["state"] = game.to_json()
    env.setdefault("log", {"moves": []}).setdefault("moves", []).append(
        {"move": str(move), "events": events}
    )
    if args.output:
        _write(args.output, env)
    if args.view is not None:
        events = game.events_for(events, args.view)
    if args.json:
        out = {"verdict": "accepted", "move": str(move), "events": events, **_status(game)}
        if args.view is not None:
            out["view"] = game.view(args.view)
        elif not args.output:
            out["state"] = env
        emit_json(out)
        return 0
    stream = sys.stdout if args.output else sys.stderr
    print(f"accepted: {move}", file=stream)
    for e in events:
        print(f"  {e['text'] if 'text' in e else json.dumps(e, ensure_ascii=False)}", file=stream)
    if args.view is not None:
        emit_json(game.view(args.view))
    elif not args.output:
        emit_json(env)
    return 0


def _logs(path: str) -> list[tuple[str, dict[str, Any]]]:
    """The envelopes in a log file: one JSON document, or JSON lines."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise StateError(f"cannot read: {exc.strerror or exc}", location=str(p)) from None
    try:
        docs = [json.loads(text)]
        wheres = [str(p)]
    except json.JSONDecodeError:
        docs, wheres = [], []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                docs.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise StateError(f"malformed JSON: {exc.msg}", location=f"{p}:{n}") from None
            wheres.append(f"{p}:{n}")
    for d, w in zip(docs, wheres):
        check_envelope(d, w)
        if not isinstance(d.get("log"), dict) or "new" not in d["log"]:
            raise StateError("game state has no log to replay", location=w)
    return list(zip(wheres, docs))


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
            seed=new["seed"],
            options=dict(new.get("options") or {}),
        )
    if "events" in new and list(getattr(game, "setup_events", [])) != new["events"]:
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
        check = getattr(game, "invariants", None) if invariants else None
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
        res = (game.outcome or {}).get("result", "unfinished")
        outcomes[res] = outcomes.get(res, 0) + 1
        out = game.outcome or {}
        # the kit's outcome names "winners"; games not converted yet name one "winner"
        for w in out.get("winners") or ([out["winner"]] if out.get("winner") else []):
            winners[str(w)] = winners.get(str(w), 0) + 1
        if log is not None:
            env["state"] = game.to_json()
            env["log"]["moves"] = entries
            log.write(json.dumps(env, ensure_ascii=False) + "\n")
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
    if args.bots:
        return bot_verbs.cmd_selfplay_bots(args)
    if args.games < 1 or args.max_moves < 1:
        raise UsageError("--games and --max-moves must be at least 1")
    opts = parse_options(args.option, args.variant)
    with contextlib.ExitStack() as stack:
        log: IO[str] | None = None
        if args.log:
            try:
                log = stack.enter_context(open(args.log, "w", encoding="utf-8"))
            except OSError as exc:
                raise UsageError(f"cannot write {args.log}: {exc.strerror}") from None
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


# ====================================================================== serve
class Server:
    """The JSON-lines protocol: one request object per line, one response per line.

    Requests have ``op`` and an optional ``id`` (echoed). Games live in the server
    under a handle (``"game": "g1"``) from ``new`` or ``load``; ``moves``, ``play``,
    ``state`` and ``render`` also accept an inline ``"state"`` envelope instead.
    Every response has ``ok``; failures carry ``error`` = ``{code, message[, details]}``.
    """

    def __init__(self, max_request: int = MAX_REQUEST) -> None:
        self.max_request = max_request
        self.boards = Boards()
        self.games: dict[str, tuple[Game, dict[str, Any]]] = {}
        self._next = 1

    def handle_line(self, raw: bytes) -> dict[str, Any]:
        if len(raw) > self.max_request:
            return {
                "ok": False,
                "error": {
                    "code": "request_too_large",
                    "message": f"request longer than {self.max_request} bytes",
                },
            }
        try:
            req = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return {
                "ok": False,
                "error": {"code": "bad_json", "message": f"request is not JSON ({exc})"},
            }
        if not isinstance(req, dict):
            return {
                "ok": False,
                "error": {"code": "bad_request", "message": "a request must be a JSON object"},
            }
        rid = req.get("id")
        try:
            resp = self.handle(req)
        except IllegalMoveError as exc:
            resp = {"ok": False, "verdict": "illegal", "error": exc.to_json()}
        except BoardwrightError as exc:
            resp = {"ok": False, "error": exc.to_json()}
        except Exception as exc:  # a bug must not take the server down
            resp = {
                "ok": False,
                "error": {"code": "internal_error", "message": f"{type(exc).__name__}: {exc}"},
            }
        if rid is not None:
            resp = {"id": rid, **resp}
        return resp

    def _game(self, req: dict[str, Any]) -> tuple[Game, dict[str, Any]]:
        if "game" in req:
            got = self.games.get(str(req["game"]))
            if got is None:
                raise UsageError(f"no game {req['game']!r} in this server", code="unknown_game")
            return got
        if "state" in req:
            env = req["state"]
            check_envelope(env, "request state")
            return game_of(env, None, self.boards, "request state"), env
        raise UsageError('request needs "game" (a handle) or "state" (an envelope)')

    def _keep(self, game: Game, env: dict[str, Any]) -> str:
        gid = f"g{self._next}"
        self._next += 1
        self.games[gid] = (game, env)
        return gid

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        op = req.get("op")
        if op == "new":
            for key in ("rules", "project", "players"):
                if key not in req:
                    raise UsageError(f"new needs {key!r}")
            opts = req.get("options") or {}
            if not isinstance(opts, dict):
                raise UsageError("options must be an object")
            if req.get("variant") is not None:
                opts = {**opts, "variant": req["variant"]}
            if not isinstance(req["players"], int) or not isinstance(req.get("seed", 0), int):
                raise UsageError("players and seed must be integers")
            game, env = new_game(
                str(req["rules"]),
                str(req["project"]),
                req["players"],
                req.get("seed", 0),
                opts,
                self.boards,
            )
            gid = self._keep(game, env)
            return {"ok": True, "game": gid, **_status(game), "events": env["log"]["new"]["events"]}
        if op == "load":
            game, env = self._game({"state": req.get("state")})
            gid = self._keep(game, json.loads(json.dumps(env)))
            return {"ok": True, "game": gid, **_status(game)}
        view = req.get("view")
        if view is not None and not isinstance(view, str):
            raise UsageError("view must be a player name")
        if op == "moves":
            game, _ = self._game(req)
            moves = [str(m) for m in game.legal_moves]
            if view is not None and view != game.to_move:
                moves = []
            return {"ok": True, **_status(game), "moves": moves}
        if op == "play":
            game, env = self._game(req)
            if not isinstance(req.get("move"), str):
                raise UsageError('play needs "move" (text)')
            move = game.parse_move(req["move"])
            events = game.push(move)
            env["state"] = game.to_json()
            env.setdefault("log", {"moves": []}).setdefault("moves", []).append(
                {"move": str(move), "events": events}
            )
            out = {
                "ok": True,
                "verdict": "accepted",
                "move": str(move),
                "events": events if view is None else game.events_for(events, view),
                **_status(game),
            }
            if view is not None:
                out["view"] = game.view(view)
            elif "game" not in req:
                out["state"] = env
            return out
        if op == "state":
            game, env = self._game(req)
            if view is not None:
                return {"ok": True, **_status(game), "view": game.view(view)}
            env["state"] = game.to_json()
            return {"ok": True, **_status(game), "state": env}
        if op == "render":
            game, _ = self._game(req)
            render = getattr(game, "render", None)
            text = render() if callable(render) else json.dumps(game.to_json(), indent=1)
            return {"ok": True, **_status(game), "text": text}
        if op == "close":
            self.games.pop(str(req.get("game")), None)
            return {"ok": True}
        raise UsageError(
            f"unknown op {op!r} (new, load, moves, play, state, render, close)", code="unknown_op"
        )

    def run(self, inp: IO[bytes], out: IO[str]) -> None:
        while True:
            raw = inp.readline(self.max_request + 1)
            if not raw:
                break
            if len(raw) > self.max_request and not raw.endswith(b"\n"):
                # swallow the rest of the oversize line, then answer once
                while True:
                    more = inp.readline(self.max_request + 1)
                    if not more or more.endswith(b"\n"):
                        break
            if not raw.strip():
                continue
            resp = self.handle_line(raw.rstrip(b"\r\n"))
            out.write(json.dumps(resp, ensure_ascii=False, allow_nan=False) + "\n")
            out.flush()


def cmd_serve(args: argparse.Namespace) -> int:
    if args.http:
        return run_http(args)
    if not args.stdio:
        raise UsageError("serve needs --stdio or --http")
    if args.max_request < 64:
        raise UsageError("--max-request must be at least 64 bytes")
    Server(args.max_request).run(sys.stdin.buffer, sys.stdout)
    return 0
