"""Perft-style fixtures: counts a board must keep, one position per line.

Like python-chess's ``.perft`` files, a fixtures file pins numbers that any change
to the compiler, the board or the rules must keep (or change knowingly). Grammar
(one position per line; ``#`` starts a comment; blank lines are ignored)::

    line        := ID SETUP (";" EXPECTATION)+
    SETUP       := "board"                              the board as saved
                 | "turns" (PLACEMENT "=" INT)+          the board with these tiles turned
                 | "state" PATH                          a saved game state (JSON), path
                                                         relative to the fixtures file
                 | "new" RULES ("players=" INT) ("seed=" INT) (KEY "=" VALUE)*
                                                         a new game set up on the board
    EXPECTATION := MEASURE [":" QUALIFIER] ARG* INT

Measures (``QUALIFIER`` narrows to one node kind or one relation):

=====================  ===========================================================
``nodes[:KIND] N``     number of compiled nodes (of that kind)
``edges[:REL] N``      number of edges (of that relation)
``components[:REL] N`` connected components of the graph (over that relation only)
``reach[:REL] FROM N`` nodes reachable from node FROM, FROM included
``errors N``           compile problems of severity error
``warnings N``         compile problems of severity warning
``moves N``            legal moves of the player to move (game setups)
``perft D N``          move sequences of length D from the position (game setups)
=====================  ===========================================================

Example::

    # road-row: the road from the white start to the goal
    start       board;            components:path 1; reach:path t0/s 4; edges:path 3
    t2-away     turns t2=3;       components:path 2; reach:path t0/s 3; nodes:dead_end 2
    opening     new ringgeister players=2 seed=7; moves 12; perft 2 140

Every mismatch is reported with its line number; a line that does not parse is
reported the same way, and the others still run.

Notes
-----
Each distinct setup is compiled once; ``components``/``reach`` are one BFS over the
graph, O(V + E). ``perft D`` is O(b^D) for branching factor b (it copies the
game for each move).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from .compiler import CompiledBoard, compile_board
from .errors import BoardwrightError, UnknownNodeError
from .games.base import Game
from .model import NODE_KINDS, Board

MEASURES = ("nodes", "edges", "components", "reach", "errors", "warnings", "moves", "perft")
_GAME_MEASURES = ("moves", "perft")
_NODE_KINDS = tuple(NODE_KINDS) + ("dead_end",)
_RELATIONS = ("path", "touch", "road", "dot", "dot_river", "next", "arrival")


class PerftSyntaxError(BoardwrightError):
    """A fixtures line that does not follow the grammar."""

    code = "bad_fixture"


@dataclass(frozen=True)
class Expectation:
    measure: str
    qualifier: str | None
    args: tuple[str, ...]
    expected: int

    def __str__(self) -> str:
        q = f":{self.qualifier}" if self.qualifier else ""
        a = "".join(f" {x}" for x in self.args)
        return f"{self.measure}{q}{a}"


@dataclass(frozen=True)
class Fixture:
    """One position: where it was written, how to set it up, what to expect."""

    line: int
    id: str
    setup: tuple[str, ...]
    expectations: tuple[Expectation, ...]


@dataclass
class Outcome:
    """The result of one expectation (or of a line that could not be run)."""

    line: int
    id: str
    check: str
    expected: int | None
    got: int | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.expected == self.got

    def describe(self, where: str) -> str:
        if self.error is not None:
            return f"{where}:{self.line}: {self.id}: {self.check}: {self.error}"
        return (
            f"{where}:{self.line}: {self.id}: {self.check} expected {self.expected}, got {self.got}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "id": self.id,
            "check": self.check,
            "ok": self.ok,
            "expected": self.expected,
            "got": self.got,
            "error": self.error,
        }


@dataclass
class PerftReport:
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.ok]

    @property
    def ok(self) -> bool:
        return not self.failures


# ---------------------------------------------------------------------- parsing
def parse_line(text: str, line: int) -> Fixture | None:
    """Parse one line; ``None`` for a blank or comment line."""
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    parts = [p.strip() for p in body.split(";")]
    head = parts[0].split(None, 1)
    if len(head) < 2:
        raise PerftSyntaxError(
            "a position needs an id and a setup before the first ';'", location=f"line {line}"
        )
    pid = head[0]
    try:
        setup = tuple(shlex.split(head[1]))
    except ValueError as exc:
        raise PerftSyntaxError(f"bad setup: {exc}", location=f"line {line}") from None
    _check_setup(setup, line)
    exps = []
    for raw in parts[1:]:
        if not raw:
            continue
        toks = raw.split()
        m, _, q = toks[0].partition(":")
        if m not in MEASURES:
            raise PerftSyntaxError(
                f"unknown measure {m!r} (one of {', '.join(MEASURES)})", location=f"line {line}"
            )
        if len(toks) < 2:
            raise PerftSyntaxError(f"{toks[0]} needs a number", location=f"line {line}")
        try:
            n = int(toks[-1])
        except ValueError:
            raise PerftSyntaxError(
                f"{raw!r} must end with a whole number", location=f"line {line}"
            ) from None
        args = tuple(toks[1:-1])
        want_args = {"reach": 1, "perft": 1}.get(m, 0)
        if len(args) != want_args:
            raise PerftSyntaxError(
                f"{m} takes {want_args} argument(s) before the number, not {len(args)}",
                location=f"line {line}",
            )
        if m == "perft" and not (args[0].isdigit() and int(args[0]) >= 0):
            raise PerftSyntaxError("perft needs a depth >= 0", location=f"line {line}")
        if q and m in ("nodes",) and q not in _NODE_KINDS:
            raise PerftSyntaxError(f"unknown node kind {q!r}", location=f"line {line}")
        if q and m in ("edges", "components", "reach") and q not in _RELATIONS:
            raise PerftSyntaxError(f"unknown relation {q!r}", location=f"line {line}")
        if q and m not in ("nodes", "edges", "components", "reach"):
            raise PerftSyntaxError(f"{m} takes no ':' qualifier", location=f"line {line}")
        if m in _GAME_MEASURES and setup[0] not in ("new", "state"):
            raise PerftSyntaxError(
                f"{m} needs a game setup ('new ...' or 'state ...')", location=f"line {line}"
            )
        exps.append(Expectation(m, q or None, args, n))
    if not exps:
        raise PerftSyntaxError(
            "a position needs at least one expectation after ';'", location=f"line {line}"
        )
    return Fixture(line, pid, setup, tuple(exps))


def _check_setup(setup: tuple[str, ...], line: int) -> None:
    kind = setup[0]
    where = f"line {line}"
    if kind == "board" and len(setup) == 1:
        return
    if kind == "turns" and len(setup) > 1:
        for tok in setup[1:]:
            pid, eq, t = tok.partition("=")
            if not eq or not pid or not t.isdigit():
                raise PerftSyntaxError(f"turns wants PLACEMENT=INT, not {tok!r}", location=where)
        return
    if kind == "state" and len(setup) == 2:
        return
    if kind == "new" and len(setup) >= 2:
        opts = _options(setup[2:], where)
        if "players" not in opts or "seed" not in opts:
            raise PerftSyntaxError("new RULES needs players=N and seed=S", location=where)
        return
    raise PerftSyntaxError(
        f"unknown setup {' '.join(setup)!r} (board | turns P=T ... | "
        "state FILE | new RULES players=N seed=S ...)",
        location=where,
    )


def _options(tokens: Iterable[str], where: str) -> dict[str, str]:
    out = {}
    for tok in tokens:
        k, eq, v = tok.partition("=")
        if not eq or not k:
            raise PerftSyntaxError(f"option {tok!r} must be KEY=VALUE", location=where)
        out[k] = v
    return out


def parse_fixtures(text: str) -> tuple[list[Fixture], list[Outcome]]:
    """All positions of a fixtures file, and an outcome for each line that did not parse."""
    fixtures: list[Fixture] = []
    bad: list[Outcome] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        try:
            f = parse_line(raw, i)
        except PerftSyntaxError as exc:
            bad.append(
                Outcome(
                    i,
                    raw.split(None, 1)[0] if raw.split() else "?",
                    "syntax",
                    None,
                    None,
                    exc.message,
                )
            )
            continue
        if f is not None:
            fixtures.append(f)
    return fixtures, bad


# ---------------------------------------------------------------------- running
class _Position:
    def __init__(self, compiled: CompiledBoard, game: Game[Any] | None = None) -> None:
        self.compiled = compiled
        self.game = game


def _setup(
    board: Board,
    setup: tuple[str, ...],
    base_dir: Path,
    cache: dict[tuple[str, ...], _Position],
    line: int,
) -> _Position:
    key = setup
    if setup[0] in ("board", "turns") and key in cache:
        return cache[key]
    where = f"line {line}"
    if setup[0] == "board":
        pos = _Position(compile_board(board.copy()))
    elif setup[0] == "turns":
        b = board.copy()
        for tok in setup[1:]:
            pid, _, t = tok.partition("=")
            b.placement(pid).turns = int(t) % b.tile_of(b.placement(pid)).turn_count
        pos = _Position(compile_board(b))
    elif setup[0] == "state":
        from .games import get_game

        path = base_dir / setup[1]
        from .safeio import read_json

        try:
            data = read_json(path, PerftSyntaxError)
        except PerftSyntaxError as exc:
            raise PerftSyntaxError(f"cannot read state {exc}", location=where) from None
        rules = data.get("rules") if isinstance(data, dict) else None
        if not isinstance(rules, str):
            raise PerftSyntaxError(f"state {path} names no rules", location=where)
        compiled = compile_board(board.copy())
        game = get_game(rules).from_json(data, compiled)
        pos = _Position(game.compiled, game)
    else:
        from .games import get_game

        opts = _options(setup[2:], where)
        players, seed = int(opts.pop("players")), int(opts.pop("seed"))
        compiled = compile_board(board.copy())
        game = get_game(setup[1]).new(compiled, players=players, seed=seed, options=opts or None)
        pos = _Position(game.compiled, game)
    if setup[0] in ("board", "turns"):
        cache[key] = pos
    return pos


def _subgraph(g: nx.MultiGraph, rel: str | None) -> nx.Graph:
    if rel is None:
        return nx.Graph(g)
    h = nx.Graph()
    h.add_nodes_from(g.nodes)
    h.add_edges_from((u, v) for u, v, d in g.edges(data=True) if d["relation"] == rel)
    return h


def perft_count(game: Game[Any], depth: int) -> int:
    """Number of legal move sequences of length ``depth`` (python-chess's perft)."""
    if depth == 0:
        return 1
    moves = list(game.generate_legal_moves())
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        child = game.copy()
        child.push(m)
        if child.outcome is not None:
            continue
        total += perft_count(child, depth - 1)
    return total


def measure(pos: _Position, e: Expectation) -> int:
    """The value of one measure at a position."""
    g = pos.compiled.graph
    m, q = e.measure, e.qualifier
    if m == "nodes":
        return sum(1 for _, d in g.nodes(data=True) if q is None or d["kind"] == q)
    if m == "edges":
        return sum(1 for _, _, d in g.edges(data=True) if q is None or d["relation"] == q)
    if m == "components":
        return int(nx.number_connected_components(_subgraph(g, q)))
    if m == "reach":
        if e.args[0] not in g:
            raise UnknownNodeError(f"board has no node {e.args[0]!r}")
        return len(nx.node_connected_component(_subgraph(g, q), e.args[0]))
    if m in ("errors", "warnings"):
        sev = "error" if m == "errors" else "warning"
        return sum(1 for p in pos.compiled.problems if p.severity == sev)
    if pos.game is None:
        raise PerftSyntaxError(f"{m} needs a game setup")
    if m == "moves":
        return sum(1 for _ in pos.game.generate_legal_moves())
    return perft_count(pos.game, int(e.args[0]))


def run_fixtures(board: Board, fixtures: list[Fixture], base_dir: str | Path = ".") -> PerftReport:
    """Set up every position and compare each expectation with the measured value."""
    report = PerftReport()
    cache: dict[tuple[str, ...], _Position] = {}
    for f in fixtures:
        try:
            pos = _setup(board, f.setup, Path(base_dir), cache, f.line)
        except BoardwrightError as exc:
            report.outcomes.append(Outcome(f.line, f.id, "setup", None, None, str(exc)))
            continue
        for e in f.expectations:
            try:
                got = measure(pos, e)
            except BoardwrightError as exc:
                report.outcomes.append(Outcome(f.line, f.id, str(e), e.expected, None, exc.message))
                continue
            report.outcomes.append(Outcome(f.line, f.id, str(e), e.expected, got))
    return report


def check_file(board: Board, path: str | Path) -> PerftReport:
    """Parse and run a fixtures file; syntax errors become failing outcomes."""
    from .safeio import read_text

    p = Path(path)
    if not p.exists() and not p.is_symlink():
        raise PerftSyntaxError("no such fixtures file", code="not_found", location=str(p))
    text = read_text(p, PerftSyntaxError, max_bytes=64 * 1024 * 1024)
    fixtures, bad = parse_fixtures(text)
    report = run_fixtures(board, fixtures, p.parent)
    report.outcomes = sorted(bad + report.outcomes, key=lambda o: o.line)
    return report
