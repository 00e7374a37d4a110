"""The cooperative game's compiled board, shared by its rule tests."""

from __future__ import annotations

import pytest

from referee.compiler import compile_board
from referee.store import load_project

from .rule_helpers import ROOT


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    return compile_board(load_project(ROOT / "projects" / "lotr-coop"))
