"""Shared test set-up: Qt offscreen, hypothesis profiles, paths to the repo's projects."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
PROJECTS = ROOT / "projects"

#: The sample projects Boardwright ships (tests/test_shipped.py checks the list is whole):
#: a test that needs one fails when it is missing, it is never skipped.
SHIPPED_PROJECTS = ("ringgeister", "riddle-sample", "mount-doom", "lotr-coop", "painted-tiles")


def shipped_project(name: str) -> Path:
    """The folder of shipped project ``name`` in this checkout."""
    return PROJECTS / name


def generator_leaks(view: Any, state: int) -> list[str]:
    """Where a game's random generator shows in ``view`` (JSON data), ``state`` being
    the generator's state: every ``rng`` key at any depth, and the state's digits
    anywhere in the view's text. Empty: the view does not leak it."""
    text = json.dumps(view)
    found = [f"the generator's state {state} in the view"] if str(state) in text else []
    stack = [view]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            found += [f"key {k!r}" for k in x if k == "rng"]
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return found


# CI runs the same examples every time (a red run must be reproducible, and must not
# come and go with the draw); the dev profile keeps drawing new ones, which is where a
# new finding comes from
settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(scope="module")
def pg_cluster() -> Iterator[Any]:
    """A throwaway PostgreSQL cluster (:class:`referee.net.pgtemp.TempPostgres`) for one
    test module, stopped after it; skipped, saying why, only where Debian's
    ``postgresql`` is not installed (``.ci/run`` installs it)."""
    from referee.errors import BoardwrightError
    from referee.net.pgtemp import TempPostgres

    pg = TempPostgres()
    try:
        pg.start()
    except BoardwrightError as exc:
        if exc.code == "postgres_missing":
            pytest.skip(f"{exc.message} (.ci/run installs it)")
        raise
    yield pg
    pg.stop()
