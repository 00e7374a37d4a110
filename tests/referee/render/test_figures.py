"""A game's figures in ``referee render``: each drawn once, at its node, with its
symbol from the one palette (the rules module's declared shape, the figure's colour)."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from referee import palette
from referee.cli import main as cli
from referee.compiler import compile_board
from referee.games import Game, get_game
from referee.render import BoardRenderer, render_game, render_svg
from referee.store import load_project
from referee.vocabulary import FigureView, Symbol

ROOT = Path(__file__).resolve().parents[3]
PROJECT = ROOT / "projects" / "ringgeister"
SVG = "{http://www.w3.org/2000/svg}"


def mid_game(plies: int = 40, seed: int = 7) -> Game[Any]:
    """A Ringgeister game some random legal moves in (figures spread over the board)."""
    game = get_game("ringgeister").new(compile_board(load_project(PROJECT)), players=3, seed=seed)
    rnd = random.Random(seed)
    for _ in range(plies):
        if game.outcome is not None:
            break
        game.push(rnd.choice(list(game.legal_moves)))
    return game


def figure_elements(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    out: dict[str, ET.Element] = {}
    for e in root.iter():
        fid = e.get("data-figure")
        if fid is not None:
            assert fid not in out, f"{fid} drawn twice"
            out[fid] = e
    return out


def centre(e: ET.Element) -> tuple[float, float]:
    if e.tag == SVG + "circle":
        return float(e.get("cx", "nan")), float(e.get("cy", "nan"))
    pts = [tuple(map(float, p.split(","))) for p in e.get("points", "").split()]
    # the mean of the corners: the centre of a regular polygon
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


@pytest.fixture(scope="module")
def game() -> Game[Any]:
    return mid_game()


def test_every_figure_of_a_mid_game_state_is_drawn_once_at_its_point(game: Game[Any]) -> None:
    views = game.figures()
    start = mid_game(plies=0).figures()
    assert len(views) > 10 and {v.node for v in views.values()} != {v.node for v in start.values()}
    drawn = figure_elements(render_game(game))
    assert set(drawn) == set(views)
    nodes = [v.node for v in views.values()]
    table = palette.rules_symbols("ringgeister")
    for fid, v in views.items():
        x, y = game.compiled.xy(v.node)
        cx, cy = centre(drawn[fid])
        sym = palette.figure_symbol(v, table)
        if nodes.count(v.node) == 1:
            assert (cx, cy) == pytest.approx((x, y), abs=0.02), fid
        else:  # figures sharing a point stand round it, apart
            assert 0.5 < ((cx - x) ** 2 + (cy - y) ** 2) ** 0.5 < 4 * sym.size
        assert drawn[fid].get("fill") == v.colour
        tag = "circle" if sym.shape == "circle" else "polygon"
        assert drawn[fid].tag == SVG + tag, fid


def test_figures_take_their_rules_modules_declared_shapes(game: Game[Any]) -> None:
    """Ringgeister declares Orcs as triangles and the Ring spirits as squares: a
    triangle has 3 corners, a square 4; the light side stays round (mission counters
    lying on their spaces are diamonds)."""
    drawn = figure_elements(render_game(game))
    kinds = {fid: v.kind for fid, v in game.figures().items()}
    corners = {"orc": 3, "spirit": 4, "gollum": 4, "counter": 4}
    for fid, e in drawn.items():
        if kinds[fid] in corners:
            assert len(e.get("points", "").split()) == corners[kinds[fid]], fid
        else:
            assert e.tag == SVG + "circle", fid
    assert "orc" in kinds.values() and "spirit" in kinds.values()


def test_a_state_is_drawn_on_its_own_board_and_where_each_figure_went(game: Game[Any]) -> None:
    r = BoardRenderer(game.compiled.board, game=game)
    r.render()
    assert set(r.figures_at) == set(game.figures())
    # without the game the board's set-up pieces are drawn instead
    setup = figure_elements(render_svg(load_project(PROJECT)))
    assert set(setup) == {pc.id for pc in load_project(PROJECT).pieces if pc.at}


def test_figure_symbol_prefers_the_id_then_the_kind_and_the_figures_colour() -> None:
    table = {
        "orc": Symbol("O", "#222222", "triangle", 5.0),
        "orc-1": Symbol("1", "#333333", "square", 4.0, stroke="#ff0000"),
    }
    one = palette.figure_symbol(FigureView("orc-1", "n", "", "#00ff00", kind="orc"), table)
    assert (one.shape, one.label, one.colour, one.stroke) == ("square", "1", "#00ff00", "#ff0000")
    two = palette.figure_symbol(FigureView("orc-2", "n", "o", "", kind="orc", size=2), table)
    assert (two.shape, two.label, two.colour) == ("triangle", "o", "#222222")
    assert two.size == pytest.approx(5.0 * palette.FIGURE_SCALE[2])
    plain = palette.figure_symbol(FigureView("x", "n", "X", "#000000"), table)
    assert (plain.shape, plain.stroke) == ("circle", "#eeeeee")  # light rim on a dark disc
    # another game's figure of the same kind is not drawn with this game's symbol
    assert palette.rules_symbols("riddle").get("orc") is None
    assert palette.rules_symbols("no-such-game") == {}


def test_cli_render_state_draws_the_games_figures(tmp_path: Path) -> None:
    state, out, png = tmp_path / "s.json", tmp_path / "s.svg", tmp_path / "s.png"
    assert cli(["new", "ringgeister", str(PROJECT), "--players", "3", "--seed", "4",
                "-o", str(state)]) == 0  # fmt: skip
    env = json.loads(state.read_text())
    game = get_game("ringgeister").from_json(env["state"], compile_board(load_project(PROJECT)))
    assert cli(["render", str(PROJECT), "--state", str(state), "-o", str(out),
                "--png", str(png), "--dpi", "25.4"]) == 0  # fmt: skip
    assert set(figure_elements(out.read_text())) == set(game.figures())
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_render_state_refuses_turns_and_another_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "s.json"
    assert cli(["new", "ringgeister", str(PROJECT), "--players", "2", "-o", str(state)]) == 0
    assert cli(["render", str(PROJECT), "--state", str(state), "--turn", "r1c2=1"]) == 2
    other = ROOT / "projects" / "mount-doom"
    capsys.readouterr()
    assert cli(["render", str(other), "--state", str(state), "-o", str(tmp_path / "x.svg")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "board" in err[0]


def _drawn(views: list[FigureView], at: dict[str, tuple[float, float]], min_label: float) -> Any:
    from referee.render.figures import draw_figures
    from referee.render.svg import Svg

    svg = Svg()
    draw_figures(svg, views, at.get, {}, min_label=min_label)
    return ET.fromstring(
        f'<svg xmlns="http://www.w3.org/2000/svg">{"".join(svg.layers["pieces"])}</svg>'
    )


def test_figure_letters_grow_to_the_legible_size_but_not_into_their_neighbours() -> None:
    """Far apart, each figure's letters reach ``min_label``; two figures on nodes 12 mm
    apart grow only until each reaches half way, so they do not overlap."""
    from referee.render.figures import legible_label

    views = [FigureView(id=f, node=f, label=lab) for f, lab in (("a", "A"), ("b", "BR"))]
    want = legible_label(660, 430)  # the Mount Doom board: 11.5 px at the table's fit
    assert 7.5 < want < 8.5
    far = _drawn(views, {"a": (0, 0), "b": (200, 0)}, want)
    sizes = [float(t.get("font-size", "0")) for t in far.iter(SVG + "text")]
    assert min(sizes) == pytest.approx(want, rel=0.01)
    radii = [float(c.get("r", "0")) for c in far.iter(SVG + "circle")]
    near = _drawn(views, {"a": (0, 0), "b": (12, 0)}, want)
    small = [float(c.get("r", "0")) for c in near.iter(SVG + "circle")]
    assert all(r <= 6.0 + 1e-9 for r in small) and sum(small) <= 12.0
    assert min(radii) > max(small)
    # never shrunk below the symbol's own size
    none = _drawn(views, {"a": (0, 0), "b": (1, 0)}, want)
    assert [float(c.get("r", "0")) for c in none.iter(SVG + "circle")] == [
        palette.GENERIC_FIGURE.size
    ] * 2
