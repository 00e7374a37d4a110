"""One relation palette: `referee render --graph` draws each relation in its colour."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import palette
from referee.compiler import compile_board
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
