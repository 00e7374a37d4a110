"""pytest plugin: test your own boards in your own CI.

Installed with Boardwright and registered through the ``pytest11`` entry point, so
any project that has Boardwright installed gets these fixtures without importing
anything::

    from referee.pytest_plugin import assert_reachable


    def test_road_to_the_goal(compiled_board):
        assert_reachable(compiled_board("boards/road-row.json"), "t0/s", "t3/g", via="path")

Fixtures (factories: call them with a path)

``board(path)``
    The :class:`~referee.model.Board` of a project file, JSON export or folder. A
    relative path is looked up next to the test file first, then from pytest's
    root directory.
``compiled_board(path, turns=None)``
    The :class:`~referee.compiler.CompiledBoard`; ``turns={"t2": 3}`` turns tiles
    first. Every call gives a fresh compile, so a test may turn tiles freely.

Assertion helpers (plain functions; failures are ``AssertionError`` with a message
that says which node, what the nearest reachable node is, which turns fail):

- ``assert_reachable(compiled, sources, targets, via=None)``
- ``assert_adjacent(compiled, a, b, via=None)``
- ``assert_connected_for_all_turns(compiled, tiles="turnable", sources="@start=white",
  targets="@goal", via="path")``
- ``assert_no_errors(compiled)``

``sources``/``targets`` take node ids, lists of them, or ``@key=value`` selectors
(``@start=white``, ``@goal``, ``@kind=space``), as in ``boardwright.toml``.

Rule tests (any game of the kit, see ``docs/game-kit.md``)::

    from referee.pytest_plugin import assert_illegal, assert_legal, game_from_position


    def test_spirit_blocks_the_road(compiled_board):
        game = game_from_position("ringgeister", compiled_board("road.json"), "start.json")
        assert_legal(game, "hobbit-yellow p2")
        assert_illegal(game, "hobbit-yellow p4", code="blocked_by_black_figure")

- ``game_from_position(rules, board, position)`` — ``rules`` a name or a game class,
  ``board`` a compiled board, a board or a path, ``position`` a dict or a JSON file;
- ``assert_legal(game, move)`` — the move (text or value) is legal; it is *not*
  played (the game is unchanged);
- ``assert_illegal(game, move, code=None)`` — the move is refused (with ``code``);
  the failure message says what the game answered instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import pytest

from .compiler import CompiledBoard, compile_board
from .errors import BoardwrightError, IllegalMoveError, StateError
from .expectations import (
    MAX_CONFIGURATIONS,
    check_adjacent,
    check_connected_for_all_turns,
    check_reachable,
)
from .games import get_game
from .games.base import Game
from .model import Board
from .store import load_project, read_json_file

__all__ = [
    "assert_adjacent",
    "assert_connected_for_all_turns",
    "assert_illegal",
    "assert_legal",
    "assert_no_errors",
    "assert_reachable",
    "game_from_position",
]


def _compiled(b: CompiledBoard | Board) -> CompiledBoard:
    if isinstance(b, CompiledBoard):
        return b
    if isinstance(b, Board):
        return compile_board(b)
    raise TypeError(f"expected a CompiledBoard or a Board, not {type(b).__name__}")


def _fail(lines: list[str]) -> NoReturn:
    __tracebackhide__ = True
    raise AssertionError("\n".join(lines))


def assert_reachable(
    compiled: CompiledBoard | Board,
    sources: str | Sequence[str],
    targets: str | Sequence[str],
    via: str | None = None,
) -> None:
    """Every target can be reached from some source along ``via`` (default: any relation)."""
    __tracebackhide__ = True
    c = _compiled(compiled)
    try:
        fails = check_reachable(c, sources, targets, via)
    except BoardwrightError as exc:
        _fail([f"assert_reachable: {exc}"])
    if fails:
        _fail([f"{c.board.name}: {f.message}" for f in fails])


def assert_adjacent(
    compiled: CompiledBoard | Board, a: str, b: str, via: str | None = None
) -> None:
    """``a`` and ``b`` are joined directly (by an edge of relation ``via``)."""
    __tracebackhide__ = True
    c = _compiled(compiled)
    try:
        fails = check_adjacent(c, a, b, via)
    except BoardwrightError as exc:
        _fail([f"assert_adjacent: {exc}"])
    if fails:
        _fail([f"{c.board.name}: {f.message}" for f in fails])


def assert_connected_for_all_turns(
    compiled: CompiledBoard | Board,
    tiles: str | Sequence[str] = "turnable",
    sources: str | Sequence[str] = "@start=white",
    targets: str | Sequence[str] = "@goal",
    via: str | None = "path",
    *,
    max_configurations: int = MAX_CONFIGURATIONS,
) -> None:
    """Every target stays reachable from some source under every turn of ``tiles``.

    Along ``path`` the exact rotation census answers (any number of tiles; the
    message says how many distinct configurations fail and shows one); other
    relations enumerate the combinations (at most ``max_configurations``) and the
    message names how many fail and the first three.
    """
    __tracebackhide__ = True
    c = _compiled(compiled)
    try:
        fails = check_connected_for_all_turns(
            c,
            tiles,
            sources,
            targets,
            via,
            max_configurations=max_configurations,
            stop_at_first=False,
        )
    except BoardwrightError as exc:
        _fail([f"assert_connected_for_all_turns: {exc}"])
    if len(fails) == 1 and fails[0].details.get("method") == "exact":
        _fail([f"{c.board.name}: {fails[0].message}"])
    if fails:
        lines = [f"{c.board.name}: {len(fails)} turn configuration(s) disconnect the board:"]
        lines += [f"  {f.message}" for f in fails[:3]]
        if len(fails) > 3:
            lines.append(f"  ... and {len(fails) - 3} more")
        _fail(lines)


def assert_no_errors(compiled: CompiledBoard | Board) -> None:
    """The board compiles without problems of severity error."""
    __tracebackhide__ = True
    c = _compiled(compiled)
    errs = c.errors()
    if errs:
        _fail([f"{c.board.name}: {len(errs)} error(s):"] + [f"  {p}" for p in errs])


# ---------------------------------------------------------------------- fixtures
# ====================================================================== rule tests
def game_from_position(
    rules: str | type[Game[Any]],
    board: CompiledBoard | Board | str | Path,
    position: dict[str, Any] | str | Path,
) -> Game[Any]:
    """A game of ``rules`` on ``board`` set up as ``position`` says.

    Parameters
    ----------
    rules : str or Game subclass
        A rules name (``"ringgeister"``, any installed rules module) or a game class.
    board : CompiledBoard, Board, or path
        The board; a path is loaded as a project (file, export or folder).
    position : dict or path
        The position (``docs/game-kit.md``), or a JSON file holding one.

    Raises
    ------
    StateError
        The position is impossible (one line saying why).
    """
    cls = get_game(rules) if isinstance(rules, str) else rules
    if isinstance(board, (str, Path)):
        board = load_project(board)
    compiled = _compiled(board)
    data: dict[str, Any] = (
        position if isinstance(position, dict) else read_json_file(position, StateError)
    )
    return cls.from_position(compiled, data)


def _move_of(game: Game[Any], move: Any) -> Any:
    return game.parse_move(move) if isinstance(move, str) else move


def assert_legal(game: Game[Any], move: Any) -> None:
    """Fail unless ``move`` (text or value) is legal for the player to move; the game
    is left as it was (the move is checked, not played)."""
    __tracebackhide__ = True
    try:
        game.check(_move_of(game, move))
    except IllegalMoveError as exc:
        _fail(
            [
                f"{move} is illegal ({exc.code}): {exc.message}",
                f"{game.to_move} to move; legal: "
                + (", ".join(str(m) for m in list(game.legal_moves)[:12]) or "none"),
            ]
        )


def assert_illegal(game: Game[Any], move: Any, code: str | None = None) -> IllegalMoveError:
    """Fail unless ``move`` is refused (with ``code``, when given); returns the error.

    The game is unchanged either way (a refused move never changes a state).
    """
    __tracebackhide__ = True
    try:
        game.check(_move_of(game, move))
    except IllegalMoveError as exc:
        if code is not None and exc.code != code:
            _fail([f"{move} is illegal, but with code {exc.code!r}, not {code!r}: {exc.message}"])
        return exc
    _fail([f"{move} is legal ({game.to_move} to move), expected it refused"])


def _resolver(request: pytest.FixtureRequest) -> Callable[[str | Path], Path]:
    def resolve(path: str | Path) -> Path:
        p = Path(path)
        if p.is_absolute():
            return p
        here = Path(str(request.node.fspath)).parent / p
        if here.exists():
            return here
        return Path(str(request.config.rootpath)) / p

    return resolve


@pytest.fixture
def board(request: pytest.FixtureRequest) -> Callable[[str | Path], Board]:
    """Factory: ``board(path)`` loads a project (file, JSON export or folder)."""
    resolve = _resolver(request)

    def load(path: str | Path) -> Board:
        __tracebackhide__ = True
        return load_project(resolve(path))

    return load


@pytest.fixture
def compiled_board(request: pytest.FixtureRequest) -> Callable[..., CompiledBoard]:
    """Factory: ``compiled_board(path, turns=None)`` loads and compiles a project."""
    resolve = _resolver(request)

    def make(path: str | Path, turns: dict[str, int] | None = None) -> CompiledBoard:
        __tracebackhide__ = True
        b = load_project(resolve(path))
        for pid, t in (turns or {}).items():
            b.placement(pid).turns = t % b.tile_of(b.placement(pid)).turn_count
        return compile_board(b)

    return make


def pytest_report_header(config: Any) -> str:
    from . import __version__

    return f"boardwright {__version__}: fixtures board, compiled_board"
