"""One palette: relation colours for `referee render --graph` and the editor, and the
rules modules' feature symbols both draw."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from shapely.geometry import Point

from referee import palette
from referee.compiler import compile_board
from referee.model import Feature
from referee.render import render_svg
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["ringgeister", "riddle-sample", "mount-doom"])
def test_render_graph_draws_every_relation_in_the_palette_colour(name):
    compiled = compile_board(load_project(ROOT / "projects" / name))
    svg = render_svg(compiled.board, compiled=compiled, graph=True)
    strokes: dict[str, set[str]] = {}
    for stroke, rel in re.findall(r'<line [^>]*stroke="(#[0-9a-f]{6})"[^>]*><title>(\w+) ', svg):
        strokes.setdefault(rel, set()).add(stroke)
    relations = {d["relation"] for *_, d in compiled.graph.edges(data=True)}
    assert set(strokes) == relations
    for rel, seen in strokes.items():
        # water paths are the one drawn differently (dashed, in the water colour)
        assert seen - {palette.WATER_PATH} == {palette.RELATION_COLOURS[rel]}, rel


def test_every_relation_of_the_shipped_boards_has_a_colour():
    relations = set()
    for name in ("ringgeister", "riddle-sample", "mount-doom", "lotr-coop"):
        g = compile_board(load_project(ROOT / "projects" / name)).graph
        relations |= {d["relation"] for *_, d in g.edges(data=True)}
    assert relations - set(palette.RELATION_COLOURS) == set()
    assert len(set(palette.RELATION_COLOURS.values())) == len(palette.RELATION_COLOURS)


# ---------------------------------------------------------------------- feature symbols
def test_feature_symbols_match_kinds_values_and_set_properties_in_layers():
    from referee.vocabulary import Symbol

    table = {
        "point": Symbol(colour="#aaaaaa"),
        "point.colour=black": Symbol(colour="#000000"),
        "point.lit": Symbol("*", "#ffee00", "text"),
        "point.wind": Symbol(colour="#0000ff", shape="arrow", size=8.0),
        "door": Symbol(shape="square"),
    }
    keys = [k for k, _ in palette.feature_symbols("point", {"colour": "black", "wind": "E"}, table)]
    assert keys == ["point.wind", "point", "point.colour=black"]  # arrows under the point
    keys = [k for k, _ in palette.feature_symbols("point", {"colour": "grey", "lit": 1}, table)]
    assert keys == ["point", "point.lit"]
    assert palette.feature_symbols("point", {"lit": False, "wind": None}, table)[1:] == []
    assert palette.feature_symbols("space", {}, table) == []


def test_symbol_outlines_and_bearings():
    from referee.vocabulary import Symbol

    assert palette.symbol_outline(Symbol(shape="square", size=1.0), 5, 5) == [
        (4, 4),
        (6, 4),
        (6, 6),
        (4, 6),
    ]
    east = palette.symbol_bearing("point.wind", {"wind": "E"})
    assert east == 90.0
    tip = palette.symbol_outline(Symbol(shape="arrow", size=8.0), 0, 0, east)[1]
    assert tip == pytest.approx((8.0, 0.0))
    assert palette.symbol_bearing("point.wind", {"wind": "nowhere"}) is None


def test_the_built_in_games_declare_their_symbols_and_the_generic_look_is_replaced():
    syms = dict(palette.feature_symbols("point", {"colour": "black", "magic": True}))
    assert syms["point.colour=black"].colour == "#262626"
    assert syms["point"].title == "grey point"  # Ringgeister's base look over the generic one
    assert (
        dict(palette.feature_symbols("space", {"terrain": "forest"}))["space.terrain=forest"].shape
        == "area"
    )
    assert "river_dot" in dict(palette.feature_symbols("river_dot", {}))


def test_a_fifth_games_symbol_is_drawn_by_referee_render():
    race = pytest.importorskip("boardwright_race")
    sym = race.RULES.symbols["point.again"]
    board = load_project(race.RULES.sample_path())
    again = [f for f in board.features if f.props.get("again")]
    assert again
    svg = render_svg(board)
    x, y = again[0].geometry.x, again[0].geometry.y
    drawn = re.findall(
        r'<polygon points="([^"]+)" fill="' + sym.colour + '"[^>]*><title>([^<]+)<', svg
    )
    assert len(drawn) == len(again)
    first = drawn[0][0].split()[0]  # the diamond's top corner, above the point
    assert [float(v) for v in first.split(",")] == pytest.approx([x, y - sym.size])
    assert drawn[0][1].endswith("again")
    assert f">{sym.label}</text>" in svg


def test_render_leaves_the_built_in_pictures_to_itself():
    from referee.render.symbols import symbol_elements

    black = Feature("b", "point", Point(0, 0), {"colour": "black", "wind": "E", "magic": True})
    assert symbol_elements("b", black) == []  # render draws these points in its own pictures
