"""Issue 29: the editor draws a track board's decorations (numbered spaces, stage-goal
marks and names, event symbols, the resolve track's ends and chevrons, card slots,
track names) from the same description ``referee render`` writes as SVG — the
primitives of :func:`referee.render.primitives.feature_primitives` — so they agree."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from editor.primitives import path_from_d
from referee.games.track_pictures import R
from referee.render.board import BoardRenderer
from referee.render.primitives import feature_primitives
from referee.render.svg import LAYERS
from referee.store import load_project

from .conftest import ROOT

MOUNT_DOOM = ROOT / "projects" / "mount-doom" / "mount-doom.bwproj"
SVG = "{http://www.w3.org/2000/svg}"
#: the classes of the track pictures' words (numbers, place names, track names)
WORDS = ("track-text", "place-name", "track-name")


def _by_layer(prims: list[Any]) -> list[Any]:
    rank = {k: i for i, k in enumerate(LAYERS)}
    return sorted(prims, key=lambda p: rank[p.layer])


def test_the_editor_paints_the_primitives_render_writes(make_window: Any) -> None:
    board = load_project(MOUNT_DOOM)
    renderer = BoardRenderer(load_project(MOUNT_DOOM), legend=False, pieces=False)
    root = ET.fromstring(renderer.render())
    drawn: dict[str, list[Any]] = {}
    for p in renderer.svg.primitives:
        if p.node is not None:
            drawn.setdefault(p.node, []).append(p)
    win = make_window(board, packs={})
    shared = 0
    editor_words: Counter[str] = Counter()
    for f in win.doc.board.features:
        prims = feature_primitives(f.id, f)
        if not prims:
            continue
        shared += 1
        # render drew exactly these for the node (pictures and the symbols beside them)
        assert drawn.get(f.id) == prims, f.id
        # and the editor's item paints them: the same words, shapes and titles, in order
        art = win.scene.items_by_key[f"f:{f.id}"].art
        ordered = _by_layer(prims)
        texts = [d.text for d in art if d.anchor is not None]
        assert texts == [p.text for p in ordered if p.tag == "text"], f.id
        assert [d.title for d in art if d.title] == [p.title for p in ordered if p.title], f.id
        editor_words.update(texts)
    # every point and every track of three spaces or more (the rally link has no name drawn)
    points = [f for f in board.features if f.kind == "point"]
    tracks = [f for f in board.features if f.kind == "track" and len(f.props["points"]) >= 3]
    assert shared == len(points) + len(tracks) == 77 + 5
    # the words of the written SVG are the words of the editor's canvas
    svg_words = Counter(
        e.text or ""
        for e in root.iter(SVG + "text")
        if set((e.get("class") or "").split()) & set(WORDS)
    )
    assert svg_words == editor_words
    for name in ("Rivendell", "Lothlórien", "Helm's Deep", "Mount Doom", "Minas Morgul"):
        assert editor_words[name] == 1
    assert editor_words["resolve track (bright heart to dark heart)"] == 1


def test_stage_goals_and_labels_show_on_the_canvas_and_scale_with_zoom(
    make_window: Any, tmp_path: Path
) -> None:
    win = make_window(load_project(MOUNT_DOOM), packs={})
    win.resize(1400, 900)
    QApplication.processEvents()
    win.view.fit()
    QApplication.processEvents()
    shots = Path(os.environ.get("BOARDWRIGHT_SHOT_DIR", tmp_path))
    img = win.view.viewport().grab().toImage()
    assert img.save(str(shots / "mount-doom-editor.png"))
    goal = win.doc.feature("r07")  # Lothlórien, a stage goal
    x, y = goal.geometry.x, goal.geometry.y
    zoom = win.view.zoom
    win.view.scale(4.0, 4.0)
    win.view.centerOn(x, y)
    QApplication.processEvents()
    img = win.view.viewport().grab().toImage()
    assert img.save(str(shots / "mount-doom-editor-zoomed.png"))
    # the gold of a stage-goal space between its star and its rim (render's #e9c046)
    px = win.view.mapFromScene(QPointF(x + 0.85 * R, y + 0.3 * R))
    c = img.pixelColor(px)
    assert c.red() > 190 and c.green() > 150 and c.blue() < 130, c.name()
    # a plain space is not gold
    q = win.view.mapFromScene(QPointF(win.doc.feature("r08").geometry.x + 0.85 * R, y + 0.3 * R))
    assert img.pixelColor(q).blue() > 130
    # the name under the goal is painted at a size in mm: its height on screen follows the zoom
    item = win.scene.items_by_key["f:r07"]
    (name,) = [d for d in item.art if d.text == "Lothlórien"]
    assert name.size * zoom >= 6.0  # px, at 1400 x 900 with the whole board in view
    assert abs(win.view.zoom - 4 * zoom) < 1e-6  # four times as big, zoomed four times
    assert item.boundingRect().contains(
        QPointF(x, y + R + name.size)
    )  # the label is inside the item's bounds (repainted with it)


def test_path_data_of_the_pictures_is_understood() -> None:
    heart = path_from_d("M10,20 C4,15 5,9 10,13 C15,9 16,15 10,20 Z")
    box = heart.boundingRect()
    assert 5.0 < box.left() < 7.0 and 13.0 < box.right() < 15.0 and box.bottom() == 20.0
    eye = path_from_d("M0,0 Q5,-4 10,0 Q5,4 0,0 Z")
    assert eye.boundingRect().width() == 10.0
    rel = path_from_d("m1,1 l2,0 v3 h-2 z")
    assert rel.boundingRect().getRect() == (1.0, 1.0, 2.0, 3.0)


def test_a_track_space_is_clicked_where_it_is_drawn(make_window: Any, qtbot: Any) -> None:
    """The drawn space (6.8 mm) is the point's to click, not just its 5 mm centre."""
    from .helpers import click, focus

    win = make_window(load_project(MOUNT_DOOM), packs={})
    focus(win, qtbot)
    goal = win.doc.feature("r07")
    click(win.view, goal.geometry.x + 0.9 * R, goal.geometry.y)
    assert win.scene.selected_keys() == {"f:r07"}
    slot = win.doc.feature("row3")  # a card slot of the encounter row, 24 × 34 mm
    click(win.view, slot.geometry.x + 10.0, slot.geometry.y - 14.0)
    assert win.scene.selected_keys() == {"f:row3"}
