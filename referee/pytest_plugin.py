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

The game contract (a plug-in's CI, see ``docs/writing-a-rules-module.md``)

``pytest --boardwright-contract RULES`` (from the plug-in's folder, with the plug-in
installed) adds one test per check of :mod:`referee.contract` for the rules module
``RULES`` (repeat the option for more; ``all``: every installed module). The module's
sample board is used, or ``RULES=PROJECT`` names one. ``--boardwright-games N`` and
``--boardwright-plies N`` set the sampling (default 3 games of at most 60 moves).

The fixture ``boardwright_contract(rules, board=None, games=3, plies=60, seed=1)``
runs every check from a test of your own and fails with all that broke::

    def test_the_contract(boardwright_contract):
        boardwright_contract("race")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import pytest

from . import contract as game_contract
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


@pytest.fixture
def boardwright_contract(request: pytest.FixtureRequest) -> Callable[..., None]:
    """Factory: ``boardwright_contract(rules, board=None, games=3, plies=60, seed=1)``
    runs every check of the game contract (:mod:`referee.contract`) on ``rules`` (a
    name or a :class:`~referee.games.RulesModule`) and fails listing what broke.
    ``board`` is a project path (next to the test file, or from the root) or a
    compiled board; ``None``: the module's sample board."""
    resolve = _resolver(request)

    def run(
        rules: Any,
        board: CompiledBoard | str | Path | None = None,
        *,
        games: int = 3,
        plies: int = 60,
        seed: int = 1,
    ) -> None:
        __tracebackhide__ = True
        where = resolve(board) if isinstance(board, (str, Path)) else board
        subject = game_contract.contract(rules, where, game_contract.Sampling(games, plies, seed))
        failed = game_contract.check_all(subject)
        if failed:
            _fail([f"{subject.module.name}: {len(failed)} contract check(s) failed:"] + failed)

    return run


# ====================================================================== --boardwright-contract
def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("boardwright", "Boardwright game contract")
    group.addoption(
        "--boardwright-contract",
        action="append",
        default=[],
        metavar="RULES[=PROJECT]",
        help="run the game contract on rules module RULES (its sample board, or PROJECT); "
        "repeat for more, 'all' for every installed module",
    )
    group.addoption(
        "--boardwright-games",
        type=int,
        default=game_contract.Sampling.games,
        metavar="N",
        help="seeded random games the contract samples (default %(default)s)",
    )
    group.addoption(
        "--boardwright-plies",
        type=int,
        default=game_contract.Sampling.plies,
        metavar="N",
        help="most moves of each sampled game (default %(default)s)",
    )


class ContractItem(pytest.Item):
    """One check of the game contract for one rules module (``--boardwright-contract``)."""

    def __init__(self, *, spec: str, check: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec = spec
        self.check = check

    def runtest(self) -> None:
        subjects: dict[str, game_contract.Contract] = self.config.stash.setdefault(_SUBJECTS, {})
        if self.spec not in subjects:
            rules, _, project = self.spec.partition("=")
            board = Path(project) if project else None
            sampling = game_contract.Sampling(
                self.config.getoption("boardwright_games"),
                self.config.getoption("boardwright_plies"),
            )
            subjects[self.spec] = game_contract.contract(rules, board, sampling)
        game_contract.CHECKS[self.check](subjects[self.spec])

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, (AssertionError, BoardwrightError)):
            return f"contract check {self.check} of {self.spec}: {excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"boardwright contract {self.spec}: {self.check}"


_SUBJECTS = pytest.StashKey[dict[str, game_contract.Contract]]()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Add the contract's checks for every ``--boardwright-contract`` module."""
    from .games import available

    specs: list[str] = []
    for spec in config.getoption("boardwright_contract"):
        specs.extend(available() if spec == "all" else [spec])
    for spec in specs:
        for check in game_contract.CHECKS:
            items.append(
                ContractItem.from_parent(
                    session, name=f"boardwright-contract[{spec}][{check}]", spec=spec, check=check
                )
            )


def pytest_report_header(config: Any) -> str:
    from . import __version__

    return (
        f"boardwright {__version__}: fixtures board, compiled_board, boardwright_contract; "
        "--boardwright-contract RULES"
    )
