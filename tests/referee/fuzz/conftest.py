"""Shared fixtures of the fuzz tests: a Mount Doom game state and its hostile copies."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .corpus_projects import ROOT, Writer
from .corpus_states import state_corpus


@pytest.fixture(scope="session")
def md_state(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A fresh Mount Doom game state (envelope) on the sample project, with one move."""
    from referee.envelopes import new_game

    game, env = new_game("mount-doom", str(ROOT / "projects" / "mount-doom"), 2, 1, {})
    move = next(iter(game.legal_moves))
    events = game.push(move)
    env["state"] = game.to_json()
    env["log"]["moves"].append({"move": str(move), "events": events})
    return json.loads(json.dumps(env))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def states(md_state: dict[str, Any]) -> list[tuple[str, Writer]]:
    return state_corpus(md_state)
