"""The game contract: what every rules module guarantees, checked by playing it.

Boardwright's own test suite runs it on every installed game, and a plug-in's CI
runs it from the plug-in's own folder through the pytest plugin
(``pytest --boardwright-contract RULES``, or the ``boardwright_contract`` fixture;
see :mod:`referee.pytest_plugin` and ``docs/writing-a-rules-module.md``).

**Sampling.** The checks look at the states of a few seeded random games on the
module's sample board (:attr:`~referee.games.registry.RulesModule.sample`, or a
board given): :attr:`Sampling.games` games (seeds ``seed``, ``seed + 1``, ...), each
played with moves drawn by :class:`random.Random` of its seed until it ends or
:attr:`Sampling.plies` moves are made, every state along the way (the first
included) sampled. A game that ends after two moves gives three states, and the
checks use what there is: nothing depends on how long a game lasts. The players
are two when the game allows two, else its least count (:func:`player_count`).

**The checks** (:data:`CHECKS`, one function each; a failure is an
:class:`AssertionError` saying what broke, where):

- ``options`` — the option table parses (defaults, text, one-line refusals) and
  has a valid schema;
- ``player_count`` — more players than ``PLAYERS`` allows are refused;
- ``state_round_trip`` — ``from_json(to_json())`` and ``copy()`` give the same
  state and the same legal moves;
- ``schemas`` — the state and position schemas are valid JSON Schemas that the
  sampled states and positions, and the module's shipped positions, satisfy;
- ``rejected_moves`` — a move that is not legal (an earlier state's, gibberish) is
  refused with :class:`IllegalMoveError` and changes nothing;
- ``move_text`` — every legal move's text reads back as the same (hashable) move;
- ``phases`` — every legal move's verb is one its phase allows (``PHASES``);
- ``replay`` — the same seed and moves give the same state;
- ``private_events`` — a player sees only the events meant for him; views are JSON;
- ``invariants`` — ``invariants()`` is empty in every state;
- ``position_round_trip`` — ``position(from_position(p)) == p``, same legal moves;
- ``generator_hidden`` — no view carries the random generator or the fixed dice;
- ``bot_worlds`` — ``determinise(player, rng)`` gives a separate game that looks
  the same to the player, leaves the original alone, and is the same for the same
  generator; ``evaluate`` is ``None`` or within 0..1;
- ``hidden_information`` — two games that differ only in what a viewer may not see
  (the game and ``determinise(viewer, rng)`` of it: another generator, other pile
  orders, other hands of the others, another seed where the state keeps one) look the
  same to that viewer, and to an onlooker, over the same moves: the same view, the
  same legal moves on the viewer's turn, the same events, until a move's events
  differ (a draw or a roll showed what differs, the rules' own reveal); and no view
  or event of a game set up with a distinctive seed holds that seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .compiler import CompiledBoard, compile_board
from .errors import BoardwrightError, IllegalMoveError, UsageError
from .games import Game, Option, get_module
from .games.base import GENERATOR_KEYS, CannotDeterminise
from .games.events import visible
from .games.options import parse_options
from .games.registry import RulesModule
from .store import load_project

__all__ = ["CHECKS", "Contract", "Sampling", "check_all", "contract", "player_count"]


@dataclass(frozen=True)
class Sampling:
    """Which states the checks look at (see the module docstring).

    Attributes
    ----------
    games : int
        Seeded random games played (at least 1).
    plies : int
        Most moves of each game (a game that ends sooner is sampled whole).
    seed : int
        The first game's seed; the others follow it.
    """

    games: int = 3
    plies: int = 60
    seed: int = 1

    def __post_init__(self) -> None:
        if self.games < 1 or self.plies < 0:
            raise UsageError("the contract plays at least one game of zero moves or more")


def player_count(cls: type[Game[Any]]) -> int:
    """The players of a contract game: two when ``PLAYERS`` allows it, else the least."""
    lo, hi = cls.PLAYERS
    return 2 if lo <= 2 <= hi else lo


@dataclass
class Contract:
    """One rules module under test: its game class, a board, the sampling.

    Build it with :func:`contract`.
    """

    module: RulesModule
    board: CompiledBoard
    sampling: Sampling = field(default_factory=Sampling)

    @property
    def game(self) -> type[Game[Any]]:
        return self.module.game

    def new(self, seed: int) -> Game[Any]:
        """A new game of the contract's player count, seeded."""
        return self.game.new(self.board, players=player_count(self.game), seed=seed)

    def seeds(self) -> range:
        s = self.sampling
        return range(s.seed, s.seed + s.games)

    def play(self, seed: int) -> Iterator[tuple[Game[Any], Any, list[Any]]]:
        """The states of the random game of ``seed``: ``(game, move, events)`` after
        each move (the same game object, moved on), the first state as
        ``(game, None, setup events)``."""
        game = self.new(seed)
        yield game, None, list(game.setup_events)
        pick = random.Random(seed)
        for _ in range(self.sampling.plies):
            if game.outcome is not None:
                return
            legal = list(game.legal_moves)
            if not legal:
                return
            move = pick.choice(legal)
            events = game.push(move)
            yield game, move, events

    def states(self) -> Iterator[tuple[str, Game[Any]]]:
        """Every sampled state, named for messages (``"seed 2, after 14 moves"``)."""
        for seed in self.seeds():
            for k, (game, _, _) in enumerate(self.play(seed)):
                yield f"seed {seed}, after {k} move(s)", game


def contract(
    rules: str | RulesModule,
    board: CompiledBoard | str | Path | None = None,
    sampling: Sampling | None = None,
) -> Contract:
    """The contract of ``rules`` (a name or a module) on ``board`` (a compiled board,
    a project path, or ``None``: the module's sample board).

    Raises
    ------
    UsageError
        An unknown rules name, or no board given and no ``sample`` declared.
    """
    module = get_module(rules) if isinstance(rules, str) else rules
    if board is None:
        path = module.sample_path()
        if path is None:
            raise UsageError(
                f"rules module {module.name!r} names no sample board (RulesModule.sample): "
                "give the contract a board"
            )
        board = path
    compiled = board if isinstance(board, CompiledBoard) else compile_board(load_project(board))
    return Contract(module, compiled, sampling or Sampling())


def _roundtrip(data: Any) -> Any:
    return json.loads(json.dumps(data))


def _moves(game: Game[Any]) -> list[str]:
    return [str(m) for m in game.legal_moves]


# ====================================================================== the checks
def check_options(c: Contract) -> None:
    cls = c.game
    assert all(isinstance(o, Option) for o in cls.OPTIONS), "OPTIONS holds only Option values"
    defaults = {o.name: o.initial for o in cls.OPTIONS}
    assert cls.parse_options({}) == defaults, "no options given: every option at its default"
    as_text = cls.parse_options({o.name: o.text(o.default) for o in cls.OPTIONS})
    assert as_text == defaults, "options given as text read back as their defaults"
    try:
        cls.parse_options({"no_such_option": 1})
    except UsageError as exc:
        assert "\n" not in str(exc), f"an unknown option is refused in one line, not {exc}"
    else:
        raise AssertionError("an unknown option is accepted")
    for o in cls.OPTIONS:
        if o.type in (int, float):
            try:
                parse_options(cls.OPTIONS, {o.name: "nan"})
            except UsageError:
                continue
            raise AssertionError(f"option {o.name}: 'nan' is accepted as a number")
    _validator(cls.options_schema(), "the options schema")


def check_player_count(c: Contract) -> None:
    cls = c.game
    too_many = cls.PLAYERS[1] + 1
    try:
        cls.new(c.board, players=too_many, seed=0)
    except BoardwrightError:
        return
    raise AssertionError(f"a game of {too_many} players is set up (PLAYERS is {cls.PLAYERS})")


def check_state_round_trip(c: Contract) -> None:
    for where, g in c.states():
        data = _roundtrip(g.to_json())
        back = type(g).from_json(data, g.compiled)
        assert back.to_json() == data, f"{where}: from_json(to_json()) is another state"
        assert g.copy().to_json() == data, f"{where}: copy() is another state"
        assert _moves(back) == _moves(g), f"{where}: the reloaded state has other legal moves"


def check_schemas(c: Contract) -> None:
    cls = c.game
    state_schema = _validator(cls.state_schema(), "the state schema")
    position_schema = _validator(cls.position_schema(), "the position schema")
    for where, g in c.states():
        _validate(_roundtrip(g.to_json()), state_schema, f"{where}: the state")
        _validate(_roundtrip(g.position()), position_schema, f"{where}: the position")
    for p in c.module.position_paths():
        data = json.loads(p.read_text(encoding="utf-8"))
        _validate(data, position_schema, f"shipped position {p.name}")
        loaded = cls.from_position(c.board, data)
        assert loaded.invariants() == [], f"shipped position {p.name}: {loaded.invariants()}"


def check_rejected_moves(c: Contract) -> None:
    earlier: list[Any] = []
    for where, g in c.states():
        before = g.to_json()
        legal = set(_moves(g))
        for m in earlier[-15:]:
            if str(m) in legal:
                continue
            try:
                g.push(m)
            except IllegalMoveError:
                continue
            raise AssertionError(f"{where}: {m} is not legal, but push() accepted it")
        for text in ("", "frobnicate the board", "pass pass pass pass"):
            try:
                g.push_text(text)
            except IllegalMoveError:
                continue
            raise AssertionError(f"{where}: push_text({text!r}) was accepted")
        assert g.to_json() == before, f"{where}: a refused move changed the state"
        earlier.extend(g.legal_moves)


def check_move_text(c: Contract) -> None:
    for where, g in c.states():
        for m in g.legal_moves:
            back = g.parse_move(str(m))
            assert back == m and hash(back) == hash(m), f"{where}: {m!r} does not read back"
            assert str(m) in g.legal_moves, f"{where}: the text {str(m)!r} is not legal"


def check_phases(c: Contract) -> None:
    phases = c.game.PHASES
    if not phases:
        return  # no phase table declared: the kit checks no verb against a phase
    for where, g in c.states():
        allowed = phases.get(g.phase)
        assert allowed is not None, f"{where}: phase {g.phase!r} is not in PHASES"
        for m in g.legal_moves:
            assert m.verb in allowed, (
                f"{where}: legal move {m} has verb {m.verb!r}, which phase {g.phase!r} "
                f"does not allow ({', '.join(sorted(allowed)) or 'nothing'})"
            )


def check_replay(c: Contract) -> None:
    for seed in c.seeds():
        played = [(g.to_json(), str(m)) for g, m, _ in c.play(seed) if m is not None]
        again = c.new(seed)
        for k, (state, text) in enumerate(played, 1):
            again.push_text(text)
            assert again.to_json() == state, f"seed {seed}: replaying move {k} ({text}) differs"


def check_private_events(c: Contract) -> None:
    for seed in c.seeds():
        for k, (g, _, events) in enumerate(c.play(seed)):
            for viewer in [*g.viewers(), None]:
                for ev in g.events_for(events, viewer):
                    audience = ev.get("private")
                    assert audience is None or (viewer is not None and viewer in audience), (
                        f"seed {seed}, move {k}: {viewer or 'an onlooker'} sees a private "
                        f"event of {audience}: {ev.get('type')}"
                    )
                assert g.events_for(events, viewer) == visible(events, viewer)
                _roundtrip(g.view(viewer))


def check_invariants(c: Contract) -> None:
    for where, g in c.states():
        broken = g.invariants()
        assert broken == [], f"{where}: {'; '.join(broken)}"


def check_position_round_trip(c: Contract) -> None:
    for where, g in c.states():
        p = _roundtrip(g.position())
        back = c.game.from_position(g.compiled, p)
        assert back.position() == p, f"{where}: from_position(position()) writes another position"
        assert _moves(back) == _moves(g), f"{where}: the position has other legal moves"


def check_generator_hidden(c: Contract) -> None:
    for where, g in c.states():
        shown = g.copy()
        shown.rng.fixed = [1] * 3 if g.die_faces() > 0 else []
        state = shown.rng.state
        for viewer in [*g.viewers(), None]:
            view = _roundtrip(shown.view(viewer))
            who = viewer or "an onlooker"
            leaked = sorted(GENERATOR_KEYS & set(view))
            assert not leaked, f"{where}: the view of {who} shows {leaked}"
            assert "rng" not in _keys(view), f"{where}: the view of {who} has an 'rng' key"
            assert str(state) not in json.dumps(view), (
                f"{where}: the view of {who} shows the generator's state"
            )


def _keys(data: Any) -> set[str]:
    """Every key of a JSON value, at any depth."""
    out: set[str] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            out.update(x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


def check_bot_worlds(c: Contract) -> None:
    built = refused = 0
    for k, (where, g) in enumerate(c.states()):
        if g.outcome is not None:
            continue
        me = g.to_move
        before = _roundtrip(g.to_json())
        try:
            world = g.determinise(me, random.Random(k))
        except CannotDeterminise:
            refused += 1
            continue
        assert _roundtrip(g.to_json()) == before, f"{where}: determinise changed the game"
        assert world is not g, f"{where}: determinise returned the game itself"
        assert _roundtrip(world.view(me)) == _roundtrip(g.view(me)), (
            f"{where}: the world looks different to {me}"
        )
        assert world.invariants() == [], f"{where}: the world breaks {world.invariants()}"
        again = g.determinise(me, random.Random(k))
        assert again.to_json() == world.to_json(), f"{where}: the same generator, another world"
        value = g.evaluate(me)
        assert value is None or 0.0 <= value <= 1.0, f"{where}: evaluate({me}) = {value}"
        built += 1
    assert built or not refused, (
        f"determinise raised CannotDeterminise in all {refused} sampled unfinished "
        "state(s): a game that hides something rebuilds a world from what the player sees"
    )


#: a seed no board, event or view would hold by chance
_MARK_SEED = 918_273_645_501


def _first_difference(a: Any, b: Any, at: str = "") -> str:
    """Where two JSON values first differ (``state.cards.pile[3]``), for messages."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{at}.{k}".lstrip(".")
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{at}.{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{at}[{i}]")
    return at.lstrip(".") or "(top)"


def check_hidden_information(c: Contract) -> None:
    cls = c.game
    marked = cls.new(c.board, players=player_count(cls), seed=_MARK_SEED)
    shown: list[Any] = [marked.view(v) for v in [*marked.viewers(), None]]
    shown += [marked.events_for(list(marked.setup_events), v) for v in marked.viewers()]
    assert str(_MARK_SEED) not in json.dumps(_roundtrip(shown)), (
        f"seed {_MARK_SEED}, after 0 move(s): a view or a setup event shows the seed "
        "(whoever knows it rebuilds the generator and every face-down pile)"
    )
    for k, (where, g) in enumerate(c.states()):
        for me in g.players:
            twin = _twin(g, me, random.Random(k))
            if twin is not None:
                _same_to(g, twin, me, f"{where}, {me}'s twin")
    for seed in c.seeds():
        base = c.new(seed)
        for k, me in enumerate(base.players):
            twin = _twin(base, me, random.Random(seed * 7919 + k))
            if twin is None:
                continue
            game = base.copy()
            pick = random.Random(seed)
            if base.die_faces() > 0:  # the same dice in both: the dice are not hidden
                dice = [pick.randint(1, base.die_faces()) for _ in range(4 * c.sampling.plies)]
                game.rng.fixed, twin.rng.fixed = list(dice), list(dice)
            _follow(c, game, twin, me, pick, f"seed {seed}")


def _twin(g: Game[Any], me: str, rng: random.Random) -> Game[Any] | None:
    """``g`` with what ``me`` may not see dealt afresh (``None``: over, or no world)."""
    if g.outcome is not None:
        return None
    try:
        return g.determinise(me, rng)
    except CannotDeterminise:
        return None


def _same_to(a: Game[Any], b: Game[Any], me: str, where: str) -> None:
    """``a`` and ``b`` look the same to ``me`` and to an onlooker, and ``me`` has the
    same moves in both on his turn."""
    for viewer in (me, None):
        who = viewer or "an onlooker"
        va, vb = _roundtrip(a.view(viewer)), _roundtrip(b.view(viewer))
        assert va == vb, (
            f"{where}: {who} tells apart two games that differ only in what {me} may "
            f"not see, at view {_first_difference(va, vb)}"
        )
    if a.outcome is None and a.to_move == me:
        assert _moves(a) == _moves(b), (
            f"{where}: {me} has other legal moves in two games that differ only in what "
            f"{me} may not see"
        )


def _follow(
    c: Contract, game: Game[Any], twin: Game[Any], me: str, pick: random.Random, name: str
) -> None:
    """Play the same moves in ``game`` and its ``twin`` while they look the same to
    ``me``: a move after which they still do must have told ``me`` the same events."""
    for ply in range(1, c.sampling.plies + 1):
        if game.outcome is not None or twin.outcome is not None:
            return
        common = sorted(set(_moves(game)) & set(_moves(twin)))
        if not common:
            return
        move = pick.choice(common)
        ea, eb = game.push_text(move), twin.push_text(move)
        if any(_roundtrip(game.view(v)) != _roundtrip(twin.view(v)) for v in (me, None)):
            return  # the move showed what differs (a draw, a roll): the rules' own reveal
        where = f"{name}, after {ply} move(s), {me}'s twin"
        for viewer in (me, None):
            sa = _roundtrip(game.events_for(ea, viewer))
            sb = _roundtrip(twin.events_for(eb, viewer))
            assert sa == sb, (
                f"{where}: the events of {move} to {viewer or 'an onlooker'} tell apart two "
                f"games that look the same to {me}, at {_first_difference(sa, sb)}"
            )
        _same_to(game, twin, me, where)


#: the checks, by name (see the module docstring)
CHECKS: dict[str, Callable[[Contract], None]] = {
    "options": check_options,
    "player_count": check_player_count,
    "state_round_trip": check_state_round_trip,
    "schemas": check_schemas,
    "rejected_moves": check_rejected_moves,
    "move_text": check_move_text,
    "phases": check_phases,
    "replay": check_replay,
    "private_events": check_private_events,
    "invariants": check_invariants,
    "position_round_trip": check_position_round_trip,
    "generator_hidden": check_generator_hidden,
    "bot_worlds": check_bot_worlds,
    "hidden_information": check_hidden_information,
}


def check_all(c: Contract) -> list[str]:
    """Run every check of :data:`CHECKS`; the failures, ``"name: what broke"`` each."""
    failed: list[str] = []
    for name, check in CHECKS.items():
        try:
            check(c)
        except AssertionError as exc:
            failed.append(f"{name}: {exc}")
    return failed


# ---------------------------------------------------------------------- JSON Schema
def _jsonschema() -> Any:
    try:
        import jsonschema
    except ImportError:
        raise AssertionError(
            "the schema checks need the jsonschema package (pip install jsonschema)"
        ) from None
    return jsonschema


def _validator(schema: dict[str, Any], what: str) -> Any:
    """A validator of ``schema`` (checked to be a valid draft 2020-12 schema)."""
    js = _jsonschema()
    try:
        js.Draft202012Validator.check_schema(schema)
    except js.SchemaError as exc:
        raise AssertionError(f"{what} is no valid JSON Schema: {exc.message}") from None
    return js.Draft202012Validator(schema)


def _validate(data: Any, validator: Any, what: str) -> None:
    error = next(iter(validator.iter_errors(data)), None)
    if error is not None:
        path = ".".join(str(p) for p in error.absolute_path) or "(top)"
        raise AssertionError(f"{what} breaks its schema at {path}: {error.message}")
