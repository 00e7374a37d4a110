"""``referee render``: headless SVG pictures of tile boards, region maps and tracks."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import shapely

from referee.cli import main as cli
from referee.compiler import compile_board
from referee.model import Board, Feature, PieceOnBoard
from referee.render import render_svg
from referee.store import load_project, save_project

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "projects" / "ringgeister"
NS = {"s": "http://www.w3.org/2000/svg"}


@pytest.fixture(scope="module")
def board() -> Board:
    return load_project(PROJECT)


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def layer(root: ET.Element, name: str) -> ET.Element:
    g = root.find(f"s:g[@id='{name}']", NS)
    assert g is not None, f"no layer {name}"
    return g


def titles(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{{{NS['s']}}}title")]


# ---------------------------------------------------------------------- tile boards
def test_ringgeister_board_renders_at_real_size(board: Board) -> None:
    root = parse(render_svg(board))
    assert root.get("viewBox") == "0 0 600 600"
    assert root.get("width") == "600mm" and root.get("height") == "600mm"


def test_every_point_door_junction_and_counter_space_is_drawn_with_its_id(board: Board) -> None:
    cb = compile_board(board)
    root = parse(render_svg(board))
    shown = " ".join(titles(root))
    for n, d in cb.graph.nodes(data=True):
        if d["kind"] in ("point", "door", "junction", "counter_space") and not d.get("port"):
            assert n in shown, n
    # tiles are drawn with their name and turn
    ground = " ".join(titles(layer(root, "ground")))
    for p in board.placements:
        assert f"{p.id}: {board.tile_of(p).name} (turns {p.turns})" in ground


def test_symbols_match_the_board(board: Board) -> None:
    """Wind arrows, headings, magic points, doors, forks with three arrows, counter spaces."""
    cb = compile_board(board)
    nodes = [d for _, d in cb.graph.nodes(data=True)]
    root = parse(render_svg(board))
    marks = layer(root, "marks")
    winds = [e for e in marks if e.get("marker-end") == "url(#wind)"]
    assert len(winds) == sum("wind" in d for d in nodes if d["kind"] == "point")
    points = layer(root, "points")
    magic = [e for e in points if e.tag.endswith("rect") and e.get("fill") == "#ffffff"]
    assert len(magic) == sum(bool(d.get("magic")) for d in nodes)
    door_titles = [t for t in titles(points) if "dwarf door" in t]
    assert len(door_titles) == sum(d["kind"] == "door" for d in nodes)
    assert sum("(moon)" in t for t in door_titles) == sum(d.get("symbol") == "moon" for d in nodes)
    counters = [t for t in titles(layer(root, "counters")) if "counter space" in t]
    assert len(counters) == 9
    forks = sum(bool(d.get("forced_right")) for d in nodes)
    # three arrows per fork, five per black starting point, one heading per black point
    chevrons = [e for e in marks if e.tag.endswith("polygon") and e.get("fill") == "#111"]
    starts = sum(d.get("start") == "black" for d in nodes)
    assert len(chevrons) == 3 * forks + 5 * starts
    headings = [e for e in points if e.tag.endswith("polygon") and e.get("fill") == "#e0301e"]
    assert len(headings) == sum(d.get("colour") == "black" for d in nodes if d["kind"] == "point")
    assert "the spider's secret passage" in titles(marks)


def test_turned_tile_draws_its_arrows_turned(board: Board) -> None:
    """A quarter turn clockwise maps N to E: the wind arrow of a point turns with its tile."""
    b = board.copy()
    p = b.placement("r0c2")
    before = parse(render_svg(b, pieces=False))
    p.turns = (p.turns + 1) % 4
    after = parse(render_svg(b, pieces=False))
    assert ET.tostring(before) != ET.tostring(after)
    f = b.world_feature("r0c2/p1")
    lines = [e for e in layer(after, "marks") if e.get("marker-end") == "url(#wind)"]
    x, y = f.geometry.x, f.geometry.y
    dx, dy = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}[f.props["wind"]]
    assert any(
        abs(float(e.get("x1")) - (x + dx * 3.6)) < 0.02
        and abs(float(e.get("y1")) - (y + dy * 3.6)) < 0.02
        for e in lines
    )


def test_pieces_are_drawn_on_their_nodes(board: Board) -> None:
    root = parse(render_svg(board))
    shown = titles(layer(root, "pieces"))
    for pc in board.pieces:
        assert f"{pc.id} on {pc.at}" in shown
    no = parse(render_svg(board, pieces=False))
    assert no.find("s:g[@id='pieces']", NS) is None


def test_graph_overlay_draws_every_compiled_edge(board: Board) -> None:
    cb = compile_board(board)
    root = parse(render_svg(board, cb, graph=True))
    lines = [e for e in layer(root, "graph") if e.tag.endswith("line")]
    assert len(lines) == cb.graph.number_of_edges()
    # dead-end port nodes are marked, and each problem with a place is ringed
    marked = [t for t in titles(layer(root, "graph")) if t.endswith(" dead_end")]
    assert len(marked) == sum(d["kind"] == "dead_end" for _, d in cb.graph.nodes(data=True))
    assert parse(render_svg(board)).find("s:g[@id='graph']", NS) is None


def test_legend_keys_the_symbols_the_board_uses(board: Board) -> None:
    root = parse(render_svg(board))
    legend = root.find(".//s:g[@id='legend']", NS)
    assert legend is not None
    texts = [e.text for e in layer(root, "labels") if e.tag.endswith("text")]
    for key in (
        "grey point",
        "black point",
        "white start",
        "black start",
        "magic point",
        "wind",
        "door: moon",
        "door: star",
        "fork: right",
        "counter space",
        "waterway",
    ):
        assert key in texts
    assert parse(render_svg(board, legend=False)).find(".//s:g[@id='legend']", NS) is None
    # a region map has no frame to hold it
    assert parse(render_svg(region_board())).find(".//s:g[@id='legend']", NS) is None


def test_render_is_deterministic(board: Board) -> None:
    assert render_svg(board, graph=True) == render_svg(board.copy(), graph=True)


# ---------------------------------------------------------------------- region maps and tracks
def _square(x: float, y: float, s: float = 20) -> shapely.Polygon:
    return shapely.Polygon([(x, y), (x + s, y), (x + s, y + s), (x, y + s)])


def region_board() -> Board:
    feats = [
        Feature(
            "shire",
            "space",
            _square(0, 0),
            {
                "terrain": "open",
                "city": "good",
                "letters": ["G", "C"],
                "name": "Hobbiton",
                "role": "shire",
            },
        ),
        Feature("wood", "space", _square(20, 0), {"terrain": "forest"}),
        Feature("hills", "space", _square(0, 20), {"terrain": "mountain"}),
        Feature("sea", "space", _square(20, 20), {"terrain": "ocean"}),
        Feature("river1", "river", shapely.LineString([(20, 0), (20, 20)]), {}),
        Feature("dot1", "river_dot", shapely.Point(20, 20), {}),
        Feature("bridge1", "bridge", shapely.Point(20, 10), {}),
        Feature("road1", "road", shapely.LineString([(10, 10), (30, 10)]), {}),
    ]
    return Board(meta={"name": "tiny map", "rules": "riddle"}, features=feats)


def test_region_map_draws_spaces_rivers_dots_bridges_roads_and_cities() -> None:
    board = region_board()
    root = parse(render_svg(board))
    regions = layer(root, "regions")
    fills = {
        t: e.get("fill")
        for e, t in zip(
            [e for e in regions if e.find("s:title", NS) is not None],
            [e.find("s:title", NS).text for e in regions if e.find("s:title", NS) is not None],
        )
    }
    assert fills["shire Hobbiton (open)"] != fills["wood (forest)"] != fills["sea (ocean)"]
    # forest, mountain and ocean spaces carry their pattern too
    assert sum(e.get("fill", "").startswith("url(#") for e in regions) == 3
    assert titles(layer(root, "rivers")) == ["river1 river"]
    assert titles(layer(root, "points")) == ["dot1 river dot"]
    marks = titles(layer(root, "marks"))
    assert "bridge1 bridge" in marks and "good city" in marks
    assert titles(layer(root, "roads")) == ["road1 road"]
    texts = [e.text for e in layer(root, "labels")]
    assert "GC" in texts and "Hobbiton" in texts and "shire" in texts
    # no tiles: the picture fits the features with a margin
    assert root.get("viewBox") == "-10 -10 60 60"


def test_track_draws_its_line_and_numbered_points() -> None:
    line = shapely.LineString([(0, 0), (100, 0)])
    feats = [Feature("line", "track", line, {"points": ["s0", "s1", "s2"]})]
    for i, x in enumerate((0, 50, 100)):
        feats.append(
            Feature(
                f"s{i}",
                "point",
                shapely.Point(x, 0),
                {
                    "colour": "grey",
                    "index": i,
                    "stage_goal": i == 2,
                    "event": "ring" if i == 1 else None,
                },
            )
        )
    board = Board(
        meta={"name": "track", "rules": "mount-doom", "width": 120, "height": 30},
        features=feats,
        piece_types={
            "ringbearer": {
                "name": "Ringbearer",
                "side": "light",
                "colour": "yellow",
                "size": "small",
            }
        },
        pieces=[PieceOnBoard("frodo", "ringbearer", "s1")],
    )
    root = parse(render_svg(board))
    assert titles(layer(root, "tracks")) == ["line track"]
    texts = [e.text for e in layer(root, "labels")]
    # the numbered spaces (the stage goal bears its star); the event space framed, its
    # event named on hover
    assert [t for t in texts if t and t.isdigit()] == ["0", "1"]
    assert "event ring" in titles(layer(root, "points"))
    assert titles(layer(root, "pieces")) == ["frodo on s1"]
    stage = [e for e in layer(root, "points") if e.get("stroke") == "#b01c1c"]
    assert len(stage) == 1


# ---------------------------------------------------------------------- CLI
def test_cli_render_writes_an_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.svg"
    assert cli(["render", str(PROJECT), "-o", str(out), "--graph"]) == 0
    root = parse(out.read_text())
    assert root.find("s:g[@id='graph']", NS) is not None
    assert "wrote svg to" in capsys.readouterr().err


def test_cli_render_turn_option(tmp_path: Path, board: Board) -> None:
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    p = board.placement("r1c2")
    assert cli(["render", str(PROJECT), "-o", str(a)]) == 0
    assert cli(["render", str(PROJECT), "-o", str(b), "--turn", f"r1c2={p.turns + 1}"]) == 0
    assert a.read_text() != b.read_text()
    assert f"r1c2: {board.tile_of(p).name} (turns {(p.turns + 1) % 4})" in b.read_text()


def test_cli_render_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "nope.json"
    bad.write_text("{not json")
    assert cli(["render", str(bad), "-o", str(tmp_path / "x.svg")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "malformed JSON" in err[0]
    assert cli(["render", str(PROJECT), "--turn", "r1c2"]) == 2
    assert cli(["render", str(PROJECT), "--turn", "nosuch=1", "-o", str(tmp_path / "y.svg")]) == 1
    assert "nosuch" in capsys.readouterr().err


def test_cli_render_png(tmp_path: Path) -> None:
    """600 mm at 25.4 dpi is 600 px wide."""
    png = tmp_path / "b.png"
    assert cli(["render", str(PROJECT), "--png", str(png), "--dpi", "25.4"]) == 0
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") == 600 and int.from_bytes(data[20:24], "big") == 600
    assert cli(["render", str(PROJECT), "--png", str(png), "--dpi", "0"]) == 2


def test_render_never_imports_qt(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['PySide6'] = None\n"
        "from referee.cli import main\n"
        f"sys.exit(main(['render', {str(PROJECT)!r}, '-o', {str(tmp_path / 'q.svg')!r}]))"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "q.svg").stat().st_size > 10000


def test_render_a_saved_project_roundtrip(tmp_path: Path, board: Board) -> None:
    path = tmp_path / "copy.bwproj"
    save_project(board, path)
    assert render_svg(load_project(path)) == render_svg(board)
