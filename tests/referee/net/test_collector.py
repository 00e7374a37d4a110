"""The server's cyclic-collector policy: full collections rare while serving."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from referee.net.host import FULL_COLLECTION_EVERY, serving_collector


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    was = gc.get_threshold()
    yield was
    gc.set_threshold(*was)


def test_serving_makes_full_collections_rare_and_keeps_the_young_thresholds(thresholds):
    gc.set_threshold(700, 10, 10)  # CPython's defaults
    assert serving_collector() == (700, 10, 10)
    assert gc.get_threshold() == (700, 10, FULL_COLLECTION_EVERY)
    assert FULL_COLLECTION_EVERY > 10


def test_serving_never_makes_full_collections_more_frequent(thresholds):
    gc.set_threshold(2000, 5, 10 * FULL_COLLECTION_EVERY)  # a process tuned already
    serving_collector()
    assert gc.get_threshold() == (2000, 5, 10 * FULL_COLLECTION_EVERY)


def test_a_started_server_serves_with_the_policy(thresholds, make_server):
    gc.set_threshold(700, 10, 10)
    make_server()  # serving in its thread once this returns
    assert gc.get_threshold()[2] == FULL_COLLECTION_EVERY
