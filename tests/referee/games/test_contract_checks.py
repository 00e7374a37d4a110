"""The contract's checks fail on games that break them, pass on a short game, and say
what broke; the sampling is the documented one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.compiler import CompiledBoard, compile_board
from referee.contract import CHECKS, Sampling, check_all, contract, player_count
from referee.errors import UsageError
from referee.games import Game, RulesModule
from referee.games.rng import Rng
from referee.store import load_project

from .test_kit_turn import BOARD, StoneMove, Stones


@pytest.fixture(scope="module")
def board() -> CompiledBoard:
    return compile_board(load_project(BOARD))


def module(game: type[Game[Any]]) -> RulesModule:
    return RulesModule(name=game.rules, game=game)


def test_a_game_that_ends_after_a_few_moves_passes_every_check(board: CompiledBoard) -> None:
    c = contract(module(Stones), board)
    lengths = [sum(1 for _ in c.play(seed)) - 1 for seed in c.seeds()]
    assert max(lengths) <= 10  # five stones, one to three a turn, a roll before each
    assert check_all(c) == []


def test_sampling_plays_the_documented_games(board: CompiledBoard) -> None:
    c = contract(module(Stones), board, Sampling(games=2, plies=3, seed=7))
    assert list(c.seeds()) == [7, 8]
    states = list(c.states())
    assert [w for w, _ in states][:4] == [
        "seed 7, after 0 move(s)",
        "seed 7, after 1 move(s)",
        "seed 7, after 2 move(s)",
        "seed 7, after 3 move(s)",
    ]
    assert len(states) == 8  # the first state and three moves, in each of two games
    assert player_count(Stones) == 2
    with pytest.raises(UsageError):
        Sampling(games=0)


class Leaky(Stones):
    """Shows the random generator to every player."""

    rules = "leaky"

    def dump_view(self, player: str | None = None) -> dict[str, Any]:
        return {"stones": self.stones, "next_dice": self.rng.state}


class OutOfPhase(Stones):
    """Lists a pass while rolling, which its phase table does not allow."""

    rules = "out-of-phase"

    def generate_legal_moves(self) -> Iterator[StoneMove]:
        yield from super().generate_legal_moves()
        if self.phase == "roll" and self._outcome is None:
            yield StoneMove("pass")


class Forgetful(Stones):
    """Its position loses the player to move."""

    rules = "forgetful"

    def load_position(self, state: Any) -> None:
        super().load_position(state)
        self.player = 0


@pytest.mark.parametrize(
    ("game", "check", "words"),
    [
        (Leaky, "generator_hidden", "shows the generator's state"),
        (OutOfPhase, "phases", "legal move pass has verb 'pass', which phase 'roll' does not"),
        (Forgetful, "position_round_trip", "from_position(position()) writes another position"),
    ],
)
def test_a_broken_game_fails_its_check_saying_where(
    board: CompiledBoard, game: type[Game[Any]], check: str, words: str
) -> None:
    c = contract(module(game), board)
    with pytest.raises(AssertionError, match=r"seed \d+, after \d+ move\(s\): ") as exc:
        CHECKS[check](c)
    assert words in str(exc.value)


def test_a_game_that_cannot_rebuild_any_world_is_told_so(board: CompiledBoard) -> None:
    """A game that hides something but declares no determinise: the message counts the
    states tried, whatever the game's length (no silent minimum of moves)."""
    c = contract(module(Leaky), board, Sampling(games=1, plies=2))
    with pytest.raises(AssertionError, match=r"CannotDeterminise in all 3 sampled"):
        CHECKS["bot_worlds"](c)


def test_a_module_without_a_sample_board_is_told_to_give_one() -> None:
    with pytest.raises(UsageError, match="names no sample board"):
        contract(module(Stones))


def test_a_board_may_be_a_project_path() -> None:
    c = contract(module(Stones), Path(BOARD), Sampling(games=1, plies=1))
    assert c.board.board.name and check_all(c) == []


class Seeded(Stones):
    """Keeps the seed it was set up with and shows it (issue 25: a seed is the generator)."""

    rules = "seeded"
    seed: int = 0

    @classmethod
    def setup(cls, compiled: CompiledBoard, players: int, seed: int, options: Any) -> Seeded:
        g = super().setup(compiled, players, seed, options)
        g.seed = seed
        return g

    def dump_view(self, player: str | None = None) -> dict[str, Any]:
        return {**self.to_json(), "set_up_with": self.seed}

    def determinise(self, player: str, rng: Any) -> Seeded:
        world = self.copy()
        world.rng = Rng(rng.getrandbits(64))
        return world


class Foretelling(Stones):
    """Shows the next roll: nothing of the generator, but derived from it."""

    rules = "foretelling"

    def dump_view(self, player: str | None = None) -> dict[str, Any]:
        return {**self.to_json(), "next_roll": self.rng.copy().die(self.DIE_FACES)}

    def determinise(self, player: str, rng: Any) -> Foretelling:
        world = self.copy()
        world.rng = Rng(rng.getrandbits(64))
        return world


@pytest.mark.parametrize(
    ("game", "words"),
    [
        (Seeded, "a view or a setup event shows the seed"),
        (Foretelling, "tells apart two games that differ only in what a may not see, at view "),
    ],
)
def test_a_view_derived_from_hidden_state_fails_the_hidden_information_check(
    board: CompiledBoard, game: type[Game[Any]], words: str
) -> None:
    """Not one key: any view that two games differing only in hidden state tell apart."""
    c = contract(module(game), board)
    with pytest.raises(AssertionError, match=r"seed \d+, after \d+ move\(s\)") as exc:
        CHECKS["hidden_information"](c)
    assert words in str(exc.value)
    assert check_all(contract(module(Stones), board)) == []
