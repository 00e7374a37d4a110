"""A tile's segments at a quarter turn, derived from turn 0, equal splitting the turned tile."""

from __future__ import annotations

from pathlib import Path

from referee.compiler.paths import split_paths, tile_segments
from referee.store import load_project

PROJECTS = Path(__file__).resolve().parents[3] / "projects"


def test_quarter_turned_segments_are_bit_for_bit_a_fresh_split():
    """Coordinates, bearings (rounded as before), lengths and open ends are identical,
    so a board turned in play links exactly as one compiled at those turns."""
    checked = 0
    for name in ("ringgeister", "mount-doom", "lotr-coop", "riddle-sample", "painted-tiles"):
        board = load_project(PROJECTS / name)
        tiles = {t.key: t for t in (board.tile_of(p) for p in board.placements)}
        for tile in tiles.values():
            if tile.turn_count != 4:
                continue
            for turns in (1, 2, 3):
                derived = tile_segments(tile, turns, 1.0)
                assert derived == split_paths(tile.variant(turns), 1.0), (tile.key, turns)
                checked += len(derived.segments)
    assert checked > 100
