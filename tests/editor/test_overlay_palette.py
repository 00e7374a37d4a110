"""The editor's compiled-graph overlay draws relations in referee.palette's colours."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem

from editor.items import GraphOverlay
from referee import palette
from referee.compiler import compile_board
from referee.store import load_project

from .conftest import ROOT


def _colours_painted(name: str) -> set[str]:
    compiled = compile_board(load_project(ROOT / "projects" / name))
    overlay = GraphOverlay()
    overlay.rebuild(compiled)
    r = overlay.boundingRect()
    img = QImage(int(r.width()) + 1, int(r.height()) + 1, QImage.Format.Format_RGB32)
    img.fill(QColor("#ffffff"))
    p = QPainter(img)
    p.translate(-r.left(), -r.top())
    overlay.paint(p, QStyleOptionGraphicsItem())
    p.end()
    return {
        img.pixelColor(x, y).name()
        for y in range(0, img.height(), 2)
        for x in range(0, img.width(), 2)
    }


def test_overlay_colours_are_the_renderers(qapp):
    seen = _colours_painted("mount-doom")  # track boards: only `next` edges
    assert palette.RELATION_COLOURS["next"] in seen
    assert palette.RELATION_COLOURS["touch"] not in seen
    seen = _colours_painted("riddle-sample")
    assert {palette.RELATION_COLOURS[r] for r in ("touch", "dot", "road")} <= seen
