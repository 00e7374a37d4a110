"""The editor draws tile art with the colours ``referee render`` uses (issue 29: the
Mountain of Fire looked blank in the editor while render drew the volcano and lava)."""

from __future__ import annotations

from pathlib import Path

from referee.render import TERRAIN
from referee.store import load_project

ROOT = Path(__file__).resolve().parents[2]


def test_the_mountain_of_fire_is_filled_as_render_fills_it() -> None:
    from editor.style import drawables

    board = load_project(ROOT / "projects" / "ringgeister" / "ringgeister.bwproj")
    fire = [f for f in board.features if f.kind == "art" and f.props.get("terrain") in TERRAIN]
    terrains = {str(f.props["terrain"]) for f in fire}
    assert {"fire", "volcano", "lava"} <= terrains
    for f in fire:
        (d,) = drawables(f)
        fill, stroke = TERRAIN[str(f.props["terrain"])]
        assert d.brush.color().name() == fill, f.props
        assert d.pen.color().name() == stroke, f.props
