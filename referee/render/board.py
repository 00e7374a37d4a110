"""The board renderer: a board (and a game's figures) as one SVG document.

:class:`BoardRenderer` lays out the picture (extent, ground, tiles and their faces,
the background picture, the key) and hands each feature to its drawer: the shared
kinds to :mod:`referee.render.features`, a rules module's own to its printed-board
pictures (:mod:`referee.render.pictures`), and the symbols no picture stands for to
:mod:`referee.render.symbols`; figures go to :mod:`referee.render.figures`, the
compiled graph to :mod:`referee.render.graph`.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any, Final, Protocol
from xml.sax.saxutils import escape

import shapely
import shapely.affinity
from shapely.geometry.base import BaseGeometry

from .. import palette
from ..compiler import CompiledBoard
from ..errors import UsageError
from ..images.draw import SvgImages
from ..model import Board, Feature
from ..vocabulary import FigureView
from .features import COVERED, FEATURE_DRAWERS, GROUND
from .figures import draw_figures, legible_label, piece_views
from .graph import draw_graph
from .pictures import LegendSample, covered_keys, feature_pictures, picture_table
from .svg import FONTS, LAYERS, Svg, defs, fmt, path_d
from .symbols import legend_entries, sample_props, symbol_elements

#: key entries of the shared kinds, after the rules modules' pictures' entries
_HEXAGON: Final = shapely.Polygon(
    [(3.8 * math.cos(math.pi * k / 3), 3.8 * math.sin(math.pi * k / 3)) for k in range(6)]
)
_SHARED_KEY: Final = (
    ("counter space", "counter_space", Feature("", "counter_space", _HEXAGON, {})),
    (
        "waterway",
        "path.medium=water",
        Feature("", "path", shapely.LineString([(-4, 0), (4, 0)]), {"medium": "water"}),
    ),
)


class GameFigures(Protocol):
    """What the renderer reads of a game: its rules, its board as it stands and its
    figures (:class:`referee.games.base.Game` has them; the renderer sits below the
    games and knows none of them)."""

    @property
    def rules(self) -> str:
        """The rules name: whose ``symbols`` draw the figures."""
        ...

    @property
    def compiled(self) -> CompiledBoard:
        """The board at the game's tile turns."""
        ...

    def figures(self) -> Mapping[str, FigureView]:
        """Every piece to draw, by figure id."""
        ...


class BoardRenderer:
    """Render a board (and optionally its compiled graph, or a game's figures) to SVG.

    Parameters
    ----------
    board : Board
        The board, at the turns of its placements.
    compiled : CompiledBoard, optional
        Needed for the graph overlay and for dead-end/junction port nodes; built
        when missing and ``graph`` is asked for.
    graph : bool
        Draw the compiled graph on top.
    pieces : bool
        Draw the pieces standing on the board (or the game's figures).
    ports : bool
        Mark the ports on the tile sides.
    labels : bool
        Draw text (names, letters, the legend).
    patterns : bool
        Draw terrain patterns (trees, peaks, waves) over the fills; False gives
        flat fills — a picture whose regions are separated only by their borders,
        as :mod:`referee.trace` reads.
    layers : collection of str, optional
        Draw only these layers of :data:`referee.render.svg.LAYERS` (e.g.
        ``("ground", "regions")`` for the spaces alone); default all.
    images : {"embed", "link", "none"}
        Pictures (background, tile faces, art, piece tokens) as data URIs, as
        links to ``image_link_base + <id>.<ext>``, or not at all
        (:class:`referee.images.draw.SvgImages`).
    image_px_per_mm : float, optional
        Embed raster pictures reduced to this resolution (for PNG output).
    game : GameFigures, optional
        Draw this game's figures (``Game.figures``: a state, a position) at
        their nodes of ``game.compiled`` instead of the pieces the board sets.

    Notes
    -----
    Cost is linear in the features (one pass over ``board.world_features()``) plus
    the graph edges when the overlay is drawn.
    """

    def __init__(
        self,
        board: Board,
        compiled: CompiledBoard | None = None,
        *,
        graph: bool = False,
        pieces: bool = True,
        ports: bool = True,
        legend: bool = True,
        labels: bool = True,
        patterns: bool = True,
        layers: Collection[str] | None = None,
        images: str = "embed",
        image_link_base: str = "",
        image_px_per_mm: float | None = None,
        game: GameFigures | None = None,
    ) -> None:
        self.board = board
        self.patterns = patterns
        self.pics = SvgImages(
            board.images, images, link_base=image_link_base, px_per_mm=image_px_per_mm
        )
        shown = set(LAYERS if layers is None else layers)
        unknown = shown - set(LAYERS)
        if unknown:
            raise UsageError(
                f"unknown layer(s) {', '.join(sorted(unknown))} (known: {', '.join(LAYERS)})"
            )
        if not labels:
            shown.discard("labels")
        self.layers = shown
        self.legend = legend
        self.compiled = compiled if compiled is not None or game is None else game.compiled
        self.graph = graph
        self.pieces = pieces
        self.ports = ports
        self.game = game
        self.svg = Svg()
        #: where each figure was drawn (figure id -> x, y), after :meth:`render`
        self.figures_at: dict[str, tuple[float, float]] = {}
        self.world: list[tuple[str, str | None, Feature]] = list(board.world_features())
        #: where each feature is drawn: a point's position, a polygon's representative point
        self.where: dict[str, tuple[float, float]] = {}
        for nid, _, f in self.world:
            g = f.geometry
            if g.geom_type == "Point":
                self.where[nid] = (g.x, g.y)
            elif g.geom_type in ("Polygon", "MultiPolygon"):
                c = g.representative_point()
                self.where[nid] = (c.x, c.y)
        self._covered = covered_keys() | COVERED

    @property
    def see_through(self) -> bool:
        """A background picture is shown: region fills let it show through."""
        bg = self.board.background
        return bg is not None and bg.visible

    def point_xy(self, nid: str) -> tuple[float, float] | None:
        """Where the feature ``nid`` is drawn (points and polygons), if known."""
        return self.where.get(nid)

    # -- extent
    def extent(self) -> tuple[float, float, float, float]:
        """``(x, y, width, height)`` of the picture: the board's size, else the
        features and tiles with a 10 mm margin."""
        w, h = self.board.meta.get("width"), self.board.meta.get("height")
        if isinstance(w, (int, float)) and isinstance(h, (int, float)) and w > 0 and h > 0:
            return 0.0, 0.0, float(w), float(h)
        geoms = [f.geometry for _, _, f in self.world]
        geoms += [self.board.outline_of(p) for p in self.board.placements]
        if not geoms:
            return 0.0, 0.0, 100.0, 100.0
        x0, y0, x1, y1 = shapely.GeometryCollection(geoms).bounds
        m = 10.0
        return x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m

    # -- legend
    def _legend_entries(self) -> list[tuple[str, Feature, float]]:
        """The key's entries: the pictures' samples, the shared kinds', the symbols'."""
        feats = [f for _, _, f in self.world]
        used = [(f.kind, f.props) for f in feats]

        def uses(key: str) -> bool:
            kind = key.partition(".")[0]
            return any(k == kind and palette.symbol_matches(key, k, p) for k, p in used)

        pt = shapely.Point(0, 0)
        samples: list[LegendSample] = [s for pic in picture_table().values() for s in pic.legend]
        entries = [
            (s.title, Feature("", s.when.partition(".")[0], pt, dict(s.props)), s.shift)
            for s in samples
            if uses(s.when)
        ]
        entries += [(title, f, 0.0) for title, when, f in _SHARED_KEY if uses(when)]
        entries += [
            (title, Feature("", key.partition(".")[0], pt, sample_props(key, sym)), 0.0)
            for key, title, sym in legend_entries(feats, covered=self._covered)
        ]
        return entries

    def _legend(self, lx: float, ly: float) -> None:
        """A key to the symbols the board uses, in the frame's top strip (tile boards)."""
        entries = self._legend_entries()
        if not entries:
            return
        s = self.svg
        s.add(
            "labels",
            "rect",
            {
                "x": fmt(lx - 12),
                "y": fmt(ly - 2),
                "width": 180,
                "height": 33,
                "rx": 2,
                "fill": "#efe4c4",
                "stroke": "#4d3f29",
                "stroke_width": 0.5,
                "opacity": 0.95,
            },
        )
        saved, self.svg = self.svg, Svg()
        for i, (text, f, shift) in enumerate(entries[:12]):
            col, row = i % 4, i // 4
            cx, cy = lx + 44 * col - shift, ly + 4.5 + 10 * row
            moved = Feature(f.id, f.kind, shapely.affinity.translate(f.geometry, cx, cy), f.props)
            self._feature(f"key:{text}", moved)
            label = {"x": fmt(cx + 7.5 + 1.6 * shift), "y": fmt(cy + 1.2), "font_size": 3.2}
            saved.add("labels", "text", {**label, "fill": "#2a2214"}, escape(text))
        key = self.svg.flat()
        self.svg = saved
        s.raw("labels", f'<g id="legend">{key}</g>')

    # -- drawing
    def render(self) -> str:
        """The SVG document."""
        x0, y0, w, h = self.extent()
        self._ground(x0, y0, w, h)
        for nid, _owner, f in self.world:
            self._feature(nid, f)
        if self.pieces:
            self._figures()
        if self.graph:
            if self.compiled is None:
                from ..compiler import compile_board

                self.compiled = compile_board(self.board)
            draw_graph(self.svg, self.compiled)
        if self.legend and self.board.placements and w >= 400 and h >= 200:
            self._legend(x0 + w - 176, y0 + 5)
        title = escape(self.board.name)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(w)}mm" height="{fmt(h)}mm" '
            f'viewBox="{fmt(x0)} {fmt(y0)} {fmt(w)} {fmt(h)}" font-family="{FONTS}">'
            f"<title>{title}</title>"
        )
        body = [head, defs()]
        for layer in LAYERS:
            if layer not in self.layers:
                continue
            items = self.svg.layers[layer]
            if items:
                body.append(f'<g id="{layer}">' + "".join(items) + "</g>")
        body.append("</svg>")
        return "\n".join(body) + "\n"

    def _ground(self, x0: float, y0: float, w: float, h: float) -> None:
        s = self.svg
        if self.board.placements:
            frame = {"x": fmt(x0), "y": fmt(y0), "width": fmt(w), "height": fmt(h)}
            s.add("ground", "rect", {**frame, "fill": GROUND["frame"]})
            m = 40.0 if w >= 200 and h >= 200 else 0.0
            s.add(
                "ground",
                "rect",
                {
                    "x": fmt(x0 + m),
                    "y": fmt(y0 + m),
                    "width": fmt(w - 2 * m),
                    "height": fmt(h - 2 * m),
                    "fill": GROUND["board"],
                    "stroke": "#4d3f29",
                    "stroke_width": 0.8,
                },
            )
        else:
            s.add(
                "ground",
                "rect",
                {"x": fmt(x0), "y": fmt(y0), "width": fmt(w), "height": fmt(h), "fill": "#f3eedb"},
            )
        bg = self.board.background
        if bg is not None and bg.visible and bg.image in self.board.images:
            info = self.board.images.info(bg.image)
            bw, bh = bg.size_mm(info.width, info.height)
            s.raw(
                "ground",
                self.pics.element(
                    bg.image,
                    0.0,
                    0.0,
                    bw,
                    bh,
                    transform=f"translate({fmt(bg.x)},{fmt(bg.y)}) rotate({fmt(bg.rotation)})",
                    opacity=bg.opacity,
                    title="background",
                ),
            )
        for p in self.board.placements:
            tile = self.board.tile_of(p)
            outline = self.board.outline_of(p)
            if tile.face:
                s.raw("faces", self.framed_image(tile.face, p.id, tile.outline, outline))
            s.add(
                "ground",
                "path",
                {
                    "d": path_d(outline),
                    "fill": GROUND.get(tile.shape, GROUND["polygon"]),
                    "stroke": "#4d3f29",
                    "stroke_width": 0.6,
                },
                f"<title>{escape(p.id)}: {escape(tile.name)} (turns {p.turns})</title>",
            )
            if not tile.turnable:
                # fixed tiles: a double rim
                inner = outline.buffer(-1.6, join_style="mitre")
                rim = {"fill": "none", "stroke": "#4d3f29", "stroke_width": 0.3}
                s.add("ground", "path", {"d": path_d(inner), **rim})

    def framed_image(
        self,
        image_id: str,
        owner: str | None,
        frame: BaseGeometry,
        clip: BaseGeometry,
        opacity: float | None = None,
    ) -> str:
        """An image stretched over ``frame``'s bounds, clipped to ``clip`` (world).

        ``frame`` is in the frame of tile placement ``owner`` when given (the image
        turns and moves with the tile), else on the board.
        """
        x0, y0, x1, y1 = frame.bounds
        transform = None
        if owner is not None:
            p = self.board.placement(owner)
            tile = self.board.tile_of(p)
            angle = 360.0 * (p.turns % tile.turn_count) / tile.turn_count
            transform = f"translate({fmt(p.x)},{fmt(p.y)}) rotate({fmt(angle)})"
        clip_d = None
        # clip only where the shape is not the picture's rectangle (resvg renders each
        # clip as a canvas-sized mask: a square tile needs none)
        box_area = (x1 - x0) * (y1 - y0)
        if clip.geom_type in ("Polygon", "MultiPolygon") and frame.area < box_area * 0.9999:
            clip_d = path_d(clip)
        known = image_id in self.board.images
        return self.pics.element(
            image_id,
            x0,
            y0,
            x1 - x0,
            y1 - y0,
            transform=transform,
            clip_d=clip_d,
            opacity=opacity,
            title=escape(self.board.images.info(image_id).name) if known else "",
        )

    def _feature(self, nid: str, f: Feature) -> None:
        """The shared drawer of the feature's kind, then the rules modules' pictures,
        then the symbols no picture stands for (as the editor draws them)."""
        draw = FEATURE_DRAWERS.get(f.kind)
        if draw is not None:
            draw(self, nid, f)
        with self.svg.drawing(nid):  # the primitives name the node (the editor's match)
            for pic in feature_pictures(f.kind, f.props):
                pic.draw(self, nid, f)
            for layer, tag, attrs, body in symbol_elements(nid, f, covered=self._covered):
                self.svg.add(layer, tag, attrs, body)

    def _figures(self) -> None:
        """The game's figures at their compiled nodes, else the board's pieces."""
        if self.game is not None:
            table = palette.rules_symbols(self.game.rules)
            cb = self.game.compiled
            views = list(self.game.figures().values())
            self.figures_at = draw_figures(
                self.svg, views, lambda n: cb.xy(n), table, min_label=self._min_label()
            )
            return
        table = palette.rules_symbols(str(self.board.meta.get("rules") or ""))
        views = piece_views(self.board, self.point_xy, table)
        tokens = {}
        for pc in self.board.pieces:
            token = self.board.piece_types.get(pc.piece, {}).get("token")
            if isinstance(token, str) and token in self.board.images:
                tokens[pc.id] = token
        self.figures_at = draw_figures(
            self.svg, views, self.point_xy, table, tokens, self.pics, self._min_label()
        )

    def _min_label(self) -> float:
        """The figures' smallest letters on this picture (:func:`legible_label`)."""
        _, _, w, h = self.extent()
        return legible_label(w, h)


def render_svg(
    board: Board,
    compiled: CompiledBoard | None = None,
    *,
    graph: bool = False,
    pieces: bool = True,
    ports: bool = True,
    legend: bool = True,
    labels: bool = True,
    patterns: bool = True,
    layers: Collection[str] | None = None,
    images: str = "embed",
    image_link_base: str = "",
    image_px_per_mm: float | None = None,
    game: GameFigures | None = None,
) -> str:
    """The board as SVG text (see :class:`BoardRenderer`)."""
    return BoardRenderer(
        board,
        compiled,
        graph=graph,
        pieces=pieces,
        ports=ports,
        legend=legend,
        labels=labels,
        patterns=patterns,
        layers=layers,
        images=images,
        image_link_base=image_link_base,
        image_px_per_mm=image_px_per_mm,
        game=game,
    ).render()


def figures_svg(game: GameFigures) -> str:
    """The game's figures alone, as the SVG elements :func:`render_game` draws them
    (each figure one element with ``data-figure`` and a ``<title>``, then its label),
    in board millimetres: the browser table lays them over the board it was sent, so
    the table and ``render --state`` draw every piece alike."""
    svg = Svg()
    cb = game.compiled
    views = list(game.figures().values())
    table = palette.rules_symbols(game.rules)
    draw_figures(svg, views, lambda n: cb.xy(n), table, min_label=figure_label_size(game))
    return "".join(svg.layers["pieces"])


def figure_label_size(game: GameFigures) -> float:
    """The smallest figure letter (board mm) :func:`figures_svg` asks for: legible at
    the table's fit of the board's size (its ``width``/``height``, else the extent
    :func:`render_game` draws)."""
    cb = game.compiled
    meta = cb.board.meta
    w, h = meta.get("width"), meta.get("height")
    if not (isinstance(w, (int, float)) and isinstance(h, (int, float)) and w > 0 and h > 0):
        _, _, w, h = BoardRenderer(cb.board, cb, game=game).extent()  # as render_game's
    return legible_label(w, h)


def render_game(game: GameFigures, **options: Any) -> str:
    """A game's board as it stands (tiles at the game's turns) with the game's figures
    on it, as SVG text (``options``: those of :func:`render_svg`)."""
    return render_svg(game.compiled.board, game.compiled, game=game, **options)


__all__ = [
    "BoardRenderer",
    "GameFigures",
    "figure_label_size",
    "figures_svg",
    "render_game",
    "render_svg",
]
