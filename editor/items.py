"""Graphics items: placed tiles, free-standing features, and the overlays."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from referee import palette
from referee.compiler import CompiledBoard
from referee.compiler.problems import Problem
from referee.model import Feature, PieceOnBoard, Placement, TileAsset

from . import style
from .picture_items import paint_picture, picture_cache

_TILE_CACHE: dict[int, tuple[TileAsset, list[style.Drawable], QPainterPath, QRectF]] = {}


def tile_art(tile: TileAsset) -> tuple[list[style.Drawable], QPainterPath, QRectF]:
    """Drawables, outline path and bounds of a tile in its own frame (cached per asset)."""
    key = id(tile)
    hit = _TILE_CACHE.get(key)
    if hit is not None and hit[0] is tile and hit[0].cache.get("_editor_art_ok"):
        return hit[1], hit[2], hit[3]
    feats = sorted(tile.features, key=lambda f: style.Z_OF_KIND.get(f.kind, 0.0))
    art: list[style.Drawable] = []
    for f in feats:
        art.extend(style.drawables(f))
    outline = style.geom_path(tile.outline)
    bounds = outline.boundingRect()
    for f in tile.features:
        bounds = bounds.united(style.feature_bounds(f))
    tile.cache["_editor_art_ok"] = True
    _TILE_CACHE[key] = (tile, art, outline, bounds)
    return art, outline, bounds


class TileItem(QGraphicsItem):
    """A placed tile: outline and features drawn in the tile frame, turned by the item."""

    def __init__(self, placement: Placement, tile: TileAsset) -> None:
        super().__init__()
        self.key = f"p:{placement.id}"
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setZValue(1.0)
        self.sync(placement, tile)

    def sync(self, placement: Placement, tile: TileAsset) -> None:
        self.prepareGeometryChange()
        self.placement = placement
        self.tile = tile
        self.art, self.outline, self._bounds = tile_art(tile)
        self.setPos(placement.x, placement.y)
        self.setRotation(360.0 * placement.turns / tile.turn_count)
        self.setToolTip(f"{placement.id}: {tile.name} ({tile.key}), turn {placement.turns}")
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds.adjusted(-1, -1, 1, 1)

    def shape(self) -> QPainterPath:
        return self.outline

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        fill = style.TILE_FILL if self.tile.turnable else style.TILE_FIXED_FILL
        painter.setPen(style.pen(style.TILE_EDGE, 1.0, cosmetic=True))
        painter.setBrush(QColor(fill))
        painter.drawPath(self.outline)
        if self.tile.face:
            face = self.outline.boundingRect()
            paint_picture(painter, picture_cache(self), self.tile.face, face, self.outline)
        style.paint_drawables(painter, self.art, lod)
        if self.isSelected():
            painter.setPen(style.pen(style.SELECT, 2.5, Qt.PenStyle.DashLine, cosmetic=True))
            painter.setBrush(style.NO_BRUSH)
            painter.drawPath(self.outline)


class FeatureItem(QGraphicsItem):
    """A free-standing feature drawn in world coordinates."""

    def __init__(self, feature: Feature) -> None:
        super().__init__()
        self.key = f"f:{feature.id}"
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.sync(feature)

    def sync(self, feature: Feature) -> None:
        self.prepareGeometryChange()
        self.feature = feature
        self.art = style.drawables(feature)
        if feature.kind == "art" and isinstance(feature.props.get("image"), str):
            # the picture is the art's fill: keep its outline and label only
            self.art = [dataclasses.replace(d, brush=style.NO_BRUSH) for d in self.art]
        self._bounds = style.feature_bounds(feature).united(style.drawables_bounds(self.art))
        g = feature.geometry
        if feature.kind == "space" and self.art and self.art[0].path is not None:
            self._shape = self.art[0].path  # the fill outline doubles as the hit shape
        elif feature.kind in ("counter_space", "art") and g.geom_type.endswith("Polygon"):
            self._shape = style.geom_path(g)
        else:
            sp = QPainterPath()
            if g.geom_type == "Point":
                sp.addEllipse(QPointF(g.x, g.y), style.POINT_R + 1, style.POINT_R + 1)
                # a picture's space (a track space, a card slot) is the point's to click:
                # the widest filled shape drawn over its centre
                under = [
                    d.path
                    for d in self.art
                    if d.path is not None
                    and d.brush.style() != Qt.BrushStyle.NoBrush
                    and d.path.contains(QPointF(g.x, g.y))
                ]
                widest = max(under, key=lambda q: q.boundingRect().width(), default=None)
                if widest is not None and widest.boundingRect().width() > 2 * style.POINT_R + 2:
                    sp = widest
            else:
                from PySide6.QtGui import QPainterPathStroker

                st = QPainterPathStroker()
                st.setWidth(4.0)
                sp = st.createStroke(style.geom_path(g))
            self._shape = sp
        self.setZValue(
            style.Z_OF_KIND.get(feature.kind, 0.0)
            + (1.5 if feature.kind not in ("space", "art") else 0.0)
        )
        self.setToolTip(f"{feature.kind} {feature.id}")
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self._shape

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, lod > 0.5)
        image = self.feature.props.get("image") if self.feature.kind == "art" else None
        if isinstance(image, str):
            x0, y0, x1, y1 = self.feature.geometry.bounds
            op = self.feature.props.get("opacity", 1.0)
            paint_picture(
                painter,
                picture_cache(self),
                image,
                QRectF(x0, y0, x1 - x0, y1 - y0),
                self._shape,
                float(op) if isinstance(op, (int, float)) else 1.0,
            )
        style.paint_drawables(painter, self.art, lod)
        if self.isSelected():
            painter.setPen(style.pen(style.SELECT, 2.5, Qt.PenStyle.DashLine, cosmetic=True))
            painter.setBrush(QBrush(QColor(255, 138, 0, 40)))
            painter.drawPath(self._shape)


class PieceItem(QGraphicsItem):
    """A piece standing on a node: a disc in its colour with its initial."""

    def __init__(
        self, piece: PieceOnBoard, data: dict[str, Any], xy: tuple[float, float] | None
    ) -> None:
        super().__init__()
        self.key = f"c:{piece.id}"
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setZValue(40.0)
        self.sync(piece, data, xy)

    def sync(
        self, piece: PieceOnBoard, data: dict[str, Any], xy: tuple[float, float] | None
    ) -> None:
        self.piece, self.type_data = piece, data
        self.setVisible(xy is not None)
        if xy is not None:
            self.setPos(*xy)
        self.setToolTip(f"{piece.id}: {data.get('name', piece.piece)} on {piece.at}")
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(-7, -7, 14, 14)

    def shape(self) -> QPainterPath:
        p = QPainterPath()
        p.addEllipse(QPointF(0, 0), 6, 6)
        return p

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        colour = str(self.type_data.get("colour") or self.type_data.get("color") or "#9e9e9e")
        c = QColor(colour) if QColor.isValidColorName(colour) else QColor("#9e9e9e")
        painter.setPen(
            style.pen(
                style.SELECT if self.isSelected() else "#111111", 1.2 if self.isSelected() else 0.6
            )
        )
        painter.setBrush(c)
        painter.drawEllipse(QPointF(0, 0), 5.5, 5.5)
        token = self.type_data.get("token")
        if isinstance(token, str):  # the piece's picture fills its disc
            disc = QPainterPath()
            disc.addEllipse(QPointF(0, 0), 5.5, 5.5)
            if paint_picture(painter, picture_cache(self), token, QRectF(-5.5, -5.5, 11, 11), disc):
                return
        name = str(self.type_data.get("name") or self.piece.piece.split("/")[-1])
        painter.setPen(QColor("#ffffff" if c.lightness() < 120 else "#111111"))
        from PySide6.QtGui import QFont

        f = QFont()
        f.setPointSizeF(5.0)
        f.setBold(True)
        painter.setFont(f)
        painter.drawText(QRectF(-5.5, -5.5, 11, 11), Qt.AlignmentFlag.AlignCenter, name[:1].upper())


class GraphOverlay(QGraphicsItem):
    """The compiled graph drawn over the board, edges coloured by relation."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(50.0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._paths: dict[str, QPainterPath] = {}
        self._nodes = QPainterPath()
        self._bounds = QRectF()

    def rebuild(self, compiled: CompiledBoard) -> None:
        self.prepareGeometryChange()
        g = compiled.graph
        paths: dict[str, QPainterPath] = {}
        for u, v, d in g.edges(data=True):
            a, b = g.nodes[u], g.nodes[v]
            p = paths.setdefault(d["relation"], QPainterPath())
            p.moveTo(a["x"], a["y"])
            p.lineTo(b["x"], b["y"])
        nodes = QPainterPath()
        for _, d in g.nodes(data=True):
            nodes.addEllipse(QPointF(d["x"], d["y"]), 1.0, 1.0)
        self._paths, self._nodes = paths, nodes
        r = nodes.boundingRect()
        for p in paths.values():
            r = r.united(p.boundingRect())
        self._bounds = r.adjusted(-2, -2, 2, 2)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        for rel, p in self._paths.items():
            painter.setPen(style.pen(palette.relation_colour(rel), 2.0, cosmetic=True))
            painter.setBrush(style.NO_BRUSH)
            painter.drawPath(p)
        painter.setPen(style.NO_PEN)
        painter.setBrush(QColor(style.GRAPH_NODE))
        painter.drawPath(self._nodes)


class ProblemMarkers(QGraphicsItem):
    """Red (errors) and amber (warnings) rings at the places of the board's problems."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(60.0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._marks: list[tuple[float, float, bool]] = []
        self._bounds = QRectF()
        self.highlight: tuple[float, float] | None = None

    def set_problems(self, problems: list[Problem]) -> None:
        self.prepareGeometryChange()
        self._marks = [
            (p.x, p.y, p.severity == "error")
            for p in problems
            if p.x is not None and p.y is not None
        ]
        if self._marks:
            xs = [m[0] for m in self._marks]
            ys = [m[1] for m in self._marks]
            self._bounds = QRectF(
                min(xs) - 10, min(ys) - 10, max(xs) - min(xs) + 20, max(ys) - min(ys) + 20
            )
        else:
            self._bounds = QRectF()
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(style.NO_BRUSH)
        for x, y, err in self._marks:
            pen = QPen(QColor("#e53935" if err else "#fb8c00"), 2.0, Qt.PenStyle.DashLine)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.drawEllipse(QPointF(x, y), 6.5, 6.5)


class PreviewItem(QGraphicsItem):
    """What a drawing tool is about to add (rubber line, polygon, snap marker)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(100.0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.points: list[QPointF] = []
        self.cursor_pos: QPointF | None = None
        self.closed = False
        self.snapped = False
        self.handles: list[QPointF] = []

    def set(
        self, points: list[QPointF], cursor: QPointF | None, closed: bool, snapped: bool = False
    ) -> None:
        self.prepareGeometryChange()
        self.points, self.cursor_pos, self.closed, self.snapped = (
            list(points),
            cursor,
            closed,
            snapped,
        )
        self.update()

    def set_handles(self, handles: list[QPointF]) -> None:
        self.prepareGeometryChange()
        self.handles = list(handles)
        self.update()

    def boundingRect(self) -> QRectF:
        pts = (
            self.points + self.handles + ([self.cursor_pos] if self.cursor_pos is not None else [])
        )
        if not pts:
            return QRectF()
        xs = [p.x() for p in pts]
        ys = [p.y() for p in pts]
        return QRectF(min(xs) - 6, min(ys) - 6, max(xs) - min(xs) + 12, max(ys) - min(ys) + 12)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        pts = self.points + ([self.cursor_pos] if self.cursor_pos is not None else [])
        if len(pts) >= 2:
            p = QPainterPath()
            p.moveTo(pts[0])
            for q in pts[1:]:
                p.lineTo(q)
            if self.closed:
                p.closeSubpath()
            painter.setPen(style.pen("#1565c0", 1.5, Qt.PenStyle.DashLine, cosmetic=True))
            painter.setBrush(QBrush(QColor(21, 101, 192, 40)) if self.closed else style.NO_BRUSH)
            painter.drawPath(p)
        painter.setPen(style.pen("#0d47a1", 1.0, cosmetic=True))
        painter.setBrush(QColor("#ffffff"))
        for q in self.points + self.handles:
            painter.drawRect(QRectF(q.x() - 1.2, q.y() - 1.2, 2.4, 2.4))
        if self.cursor_pos is not None and self.snapped:
            painter.setPen(style.pen("#00a152", 1.5, cosmetic=True))
            painter.setBrush(style.NO_BRUSH)
            painter.drawEllipse(self.cursor_pos, 2.5, 2.5)


class SlotsItem(QGraphicsItem):
    """The slots a dragged tile can land in: its outline at each lattice slot, dashed."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(90.0)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.path = QPainterPath()
        self.setVisible(False)

    def set_slots(self, outline: QPainterPath, slots: list[tuple[float, float]]) -> None:
        self.prepareGeometryChange()
        p = QPainterPath()
        for x, y in slots:
            p.addPath(outline.translated(x, y))
        self.path = p
        self.setVisible(bool(slots))
        self.update()

    def boundingRect(self) -> QRectF:
        return self.path.boundingRect().adjusted(-1, -1, 1, 1)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        pen = QPen(QColor(30, 110, 200, 150), 0)
        pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(QBrush(QColor(30, 110, 200, 18)))
        painter.drawPath(self.path)
