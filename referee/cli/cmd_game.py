"""Game verbs over any rules module: ``new``, ``moves``, ``play``, ``replay``, ``selfplay``.

The verbs know nothing of a particular game: they go through
:func:`referee.games.get_game` and the :class:`~referee.games.base.Game` interface.
Rules-specific set-up goes in ``--variant`` and ``--option KEY=VALUE``.

A *state file* is the envelope of :mod:`referee.envelopes` (which reads, checks,
writes and replays them for the CLI and both servers). A *log* for ``replay`` is
such an envelope, or a JSON-lines file of them (``selfplay --log``); a log entry
may also record a rejected move (``{"move": …, "verdict": "illegal", "code": …}``).

Hand-edited states are untrusted: every file is read by :mod:`referee.safeio`, and
anything the rules module raises on a state it cannot use becomes one
:class:`~referee.errors.StateError` (``bad_state``) naming the file — never a
traceback (:func:`referee.envelopes.guard_state`). The ``serve`` verb is in
:mod:`referee.cli.cmd_serve` / :mod:`referee.cli.stdio`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time
from typing import IO, Any

from ..envelopes import (
    BOARDS,
    Boards,
    check_envelope,
    game_of,
    guard_state,
    load_envelope,
    new_game,
    new_game_from_position,
    record_move,
    replay_one,
    save_envelope,
)
from ..errors import IllegalMoveError, StateError, UsageError
from ..games import get_game
from ..games.base import Game
from ..safeio import atomic_build, dumps_json, loads_json, read_text
from . import bot_verbs, emit_json
from .cmd_position import read_position
from .options import VARIANT_HELP, parse_options


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
    p.add_argument("--variant", metavar="V", help=VARIANT_HELP)
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
    p.add_argument("--variant", metavar="V", help=VARIANT_HELP)
    p.add_argument("--option", action="append", metavar="KEY=VALUE")
    p.add_argument("--no-invariants", action="store_true", help="skip the invariant checks")
    p.add_argument("--log", help="write every game as a JSON line (replayable)")
    bot_verbs.add_selfplay_bots(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_selfplay)


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
            parse_options(args.option, args.variant, args.rules),
        )
    if args.output:
        save_envelope(args.output, env)
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
        record_move(env, game, str(move), events)
        if args.output:
            save_envelope(args.output, env)
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
    boards: Boards = BOARDS,
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


def selfplay_players(rules: str, players: int | None) -> int:
    """``--players`` of ``selfplay``, or the game's default: as many as its ``PLAYERS``
    range takes, at most 4 (a two-player game gets 2, a five-seat one 4)."""
    if players is not None:
        return players
    lo, hi = get_game(rules).PLAYERS
    return max(lo, min(hi, 4))


def cmd_selfplay(args: argparse.Namespace) -> int:
    args.players = selfplay_players(args.rules, args.players)
    if args.bots:
        return bot_verbs.cmd_selfplay_bots(args)
    if args.games < 1 or args.max_moves < 1:
        raise UsageError("--games and --max-moves must be at least 1")
    opts = parse_options(args.option, args.variant, args.rules)
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
