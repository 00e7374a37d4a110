"""The rules modules' printed-board pictures (``RulesModule.pictures``): matched like
symbols, the kind's base picture first, and the symbols they stand for left out."""

from __future__ import annotations

import shapely

from referee.games import get_module
from referee.model import Feature
from referee.render.pictures import Canvas, Picture, covered_keys, feature_pictures
from referee.render.symbols import drawn_by_render, symbol_elements


def _noop(c: Canvas, nid: str, f: Feature) -> None:
    return None


def test_pictures_match_like_symbols_base_first() -> None:
    base, mark, black, other = (Picture(_noop) for _ in range(4))
    table = {"point.magic": mark, "point.colour=black": black, "point": base, "door": other}
    assert feature_pictures("point", {"magic": True, "colour": "black"}, table) == [
        base,
        mark,
        black,
    ]
    assert feature_pictures("point", {"magic": False, "colour": "grey"}, table) == [base]
    assert feature_pictures("junction", {}, table) == []
    covering = {"door": Picture(_noop, covers=("door.symbol",))}
    assert covered_keys(covering) == {"door", "door.symbol"}


def test_each_built_in_games_feature_symbols_are_drawn_once_by_render() -> None:
    """Ringgeister, the Riddle and the track games declare pictures for their own
    features; every feature symbol they declare is covered, so ``render`` draws the
    finer picture and not the plain symbol on top (the editor draws the symbols)."""
    covered = drawn_by_render()
    for name in ("ringgeister", "riddle", "mount-doom", "lotr-coop"):
        rm = get_module(name)
        assert rm.pictures, name
        for key in rm.symbols:
            kind = key.partition(".")[0]
            if kind in ("point", "door", "junction", "path", "space", "river_dot"):
                assert key in covered or key.partition("=")[0] in covered, (name, key)
    spider = Feature("e", "path", shapely.LineString([(0, 0), (9, 0)]), {"guard": "spider"})
    assert symbol_elements("e", spider) == []
