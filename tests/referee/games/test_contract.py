"""The game contract (:mod:`referee.contract`), checked on every registered game.

Each game found through the ``boardwright.rules`` entry points (or the built-in
subpackages) is played at random on its sample board (``RulesModule.sample``) and
must pass every check of :data:`referee.contract.CHECKS` — the same checks a
plug-in's own CI runs with ``pytest --boardwright-contract RULES``.
"""

from __future__ import annotations

from functools import cache

import pytest

from referee.contract import CHECKS, Contract, contract
from referee.games import modules

GAMES = sorted(modules())


@cache
def subject(name: str) -> Contract:
    return contract(name)


def test_every_game_names_a_sample_board() -> None:
    missing = [n for n in GAMES if modules()[n].sample_path() is None]
    assert missing == [], f"rules modules without RulesModule.sample: {missing}"


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("name", GAMES)
def test_contract(name: str, check: str) -> None:
    CHECKS[check](subject(name))
