"""The export formats as one registry: :data:`EXPORTERS`, name -> :class:`Exporter`.

Each exporter declares its name (``referee export --to``), the suffix of the file it
writes, a one-line description and the settings it reads (:data:`OPTIONS`: keywords
of :func:`referee.export.write_export`, flags of ``referee export``). The CLI builds
its ``--to`` choices and flag help from the registry, ``referee compile --format``
offers the :data:`TEXT_FORMATS`, and ``docs/reference/export-formats.md`` lists it
(a test keeps the page in step). A new format is one :class:`Exporter` here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..compiler import CompiledBoard
from ..errors import BoardError
from ..safeio import atomic_write, dumps_json
from .geojson import GeoPlacement, to_geojson
from .graphml import to_graphml
from .node_link import to_node_link

__all__ = [
    "EXPORTERS",
    "OPTIONS",
    "PICTURE_SUFFIXES",
    "TEXT_FORMATS",
    "ExportOption",
    "ExportSettings",
    "Exporter",
]


@dataclass(frozen=True)
class ExportOption:
    """A setting exporters read: a keyword of :func:`~referee.export.write_export` and
    a flag of ``referee export``.

    Attributes
    ----------
    name : str
        The keyword (``png_width``): the key of :data:`OPTIONS` and of an
        :attr:`Exporter.options` entry.
    flag : str
        The ``referee export`` flag (``--png-width``).
    help : str
        What it sets, for the flag's help and the docs.
    """

    name: str
    flag: str
    help: str


#: every setting an exporter may read, by keyword
OPTIONS: dict[str, ExportOption] = {
    o.name: o
    for o in (
        ExportOption("png_width", "--png-width", "PNG width in pixels, default 2048"),
        ExportOption("px_per_mm", "--px-per-mm", "Tiled pixels per mm, default 1"),
        ExportOption("image_url", "--image-url", "URL of the board picture instead of writing one"),
        ExportOption(
            "image_url_base",
            "--image-url-base",
            "URL prefix of the hosted pictures (tile faces, tokens, card sheets) instead of "
            "file:// URLs; upload FILE's .images folder there",
        ),
        ExportOption(
            "mm_per_unit", "--tts-mm-per-unit", "millimetres of board per TTS unit, default 25.4"
        ),
        ExportOption(
            "geo",
            "--geo-origin",
            "lay the board on the Earth with its origin at LON,LAT degrees, north up, "
            "--geo-metres-per-mm metres of ground per mm (default: board millimetres, y "
            "down, not geographic); a western longitude needs '=': --geo-origin=-3.19,55.95",
        ),
    )
}


@dataclass(frozen=True)
class ExportSettings:
    """The settings of one export (checked by :func:`~referee.export.write_export`)."""

    png_width: int = 2048
    px_per_mm: float = 1.0
    image_url: str | None = None
    mm_per_unit: float | None = None
    image_url_base: str | None = None
    geo: GeoPlacement | None = None


#: ``write(compiled, out, settings) -> files written``, in the order they are listed
Write = Callable[[CompiledBoard, Path, ExportSettings], list[Path]]
#: ``text(compiled, settings) -> the export as text`` (a format that is one text file)
Text = Callable[[CompiledBoard, ExportSettings], str]


@dataclass(frozen=True)
class Exporter:
    """One export format.

    Attributes
    ----------
    name : str
        ``referee export --to NAME``.
    suffix : str
        The suffix of the file it writes (``.tmj``); a picture format's suffix is
        refused as the name of another format's output.
    description : str
        One line: what you get.
    options : tuple of str
        The :data:`OPTIONS` it reads.
    write : callable
        ``write(compiled, out, settings)``: write the files, return them.
    text : callable, optional
        For a format that is one text file: the text (``referee compile``); its
        :attr:`write` writes that text to ``out``.
    picture : bool
        A picture of the board (SVG, PNG).
    """

    name: str
    suffix: str
    description: str
    options: tuple[str, ...]
    write: Write
    text: Text | None = None
    picture: bool = False

    def __post_init__(self) -> None:
        unknown = [o for o in self.options if o not in OPTIONS]
        if unknown:
            raise ValueError(f"exporter {self.name!r}: unknown option(s) {', '.join(unknown)}")


def _text_format(name: str, suffix: str, description: str, text: Text, *options: str) -> Exporter:
    def write(compiled: CompiledBoard, out: Path, settings: ExportSettings) -> list[Path]:
        atomic_write(out, text(compiled, settings).encode("utf-8"))
        return [out]

    return Exporter(name, suffix, description, options, write, text=text)


def _node_link(compiled: CompiledBoard, settings: ExportSettings) -> str:
    return dumps_json(to_node_link(compiled), "node-link", indent=1, error=BoardError) + "\n"


def _graphml(compiled: CompiledBoard, settings: ExportSettings) -> str:
    return to_graphml(compiled)


def _geojson(compiled: CompiledBoard, settings: ExportSettings) -> str:
    data = to_geojson(compiled, geo=settings.geo)
    return dumps_json(data, "geojson", error=BoardError) + "\n"


def _write_json(out: Path, data: object) -> None:
    atomic_write(out, (dumps_json(data, str(out), indent=1, error=BoardError) + "\n").encode())


def _tmj(compiled: CompiledBoard, out: Path, settings: ExportSettings) -> list[Path]:
    from .tmj import to_tmj

    written: list[Path] = []
    tmj = to_tmj(compiled, px_per_mm=settings.px_per_mm)
    if any(True for _ in compiled.board.image_uses()):
        from .tmj_art import add_tmj_art

        folder = out.with_name(out.stem + ".images")
        written += add_tmj_art(tmj, compiled, folder, atomic_write, px_per_mm=settings.px_per_mm)
    _write_json(out, tmj)
    return [*written, out]


def _tts(compiled: CompiledBoard, out: Path, settings: ExportSettings) -> list[Path]:
    from ..render.png import svg_to_png, view_box
    from .picture import render_svg
    from .tts import MM_PER_INCH, to_tts

    written: list[Path] = []
    box = None
    image_url = settings.image_url
    if image_url is None:
        img = out.with_suffix(".png")
        svg = render_svg(compiled)
        box = view_box(svg)
        atomic_write(img, svg_to_png(svg, settings.png_width))
        written.append(img)
        image_url = img.resolve().as_uri()
    data = to_tts(
        compiled, image_url, mm_per_unit=settings.mm_per_unit or MM_PER_INCH, view_box=box
    )
    if any(True for _ in compiled.board.image_uses()):
        from .tts_art import TtsArt

        info = data["_boardwright"]
        art = TtsArt(
            compiled,
            out.with_name(out.stem + ".images"),
            (float(info["centre_mm"][0]), float(info["centre_mm"][1])),
            float(info["mm_per_unit"]),
            settings.image_url_base,
            write=atomic_write,
        )
        data["ObjectStates"].extend(art.objects())
        written.extend(art.written)
        if art.notes:
            data["_boardwright"]["notes"] = art.notes
    _write_json(out, data)
    return [*written, out]


def _svg(compiled: CompiledBoard, out: Path, settings: ExportSettings) -> list[Path]:
    from .picture import render_svg

    atomic_write(out, render_svg(compiled).encode("utf-8"))
    return [out]


def _png(compiled: CompiledBoard, out: Path, settings: ExportSettings) -> list[Path]:
    from .picture import render_png

    atomic_write(out, render_png(compiled, settings.png_width))
    return [out]


#: every export format, by name, in the order ``referee export --help`` lists them
EXPORTERS: dict[str, Exporter] = {
    e.name: e
    for e in (
        _text_format(
            "node-link",
            ".json",
            "our compiled-board JSON: networkx node-link data with a versioned graph header",
            _node_link,
        ),
        _text_format("graphml", ".graphml", "GraphML for networkx, igraph and rustworkx", _graphml),
        _text_format(
            "geojson",
            ".geojson",
            "every feature with its properties, in board millimetres or laid on the Earth",
            _geojson,
            "geo",
        ),
        Exporter(
            "tmj",
            ".tmj",
            "a Tiled map: object layers, the background and the tile faces",
            ("px_per_mm",),
            _tmj,
        ),
        Exporter(
            "tts",
            ".json",
            "a Tabletop Simulator saved object, its PNG picture written beside it",
            ("png_width", "image_url", "image_url_base", "mm_per_unit"),
            _tts,
        ),
        Exporter("svg", ".svg", "the referee render drawing as SVG", (), _svg, picture=True),
        Exporter(
            "png", ".png", "the referee render drawing as PNG", ("png_width",), _png, picture=True
        ),
    )
}

#: the formats that are one text file (:attr:`Exporter.text`): ``referee compile --format``
TEXT_FORMATS: tuple[str, ...] = tuple(n for n, e in EXPORTERS.items() if e.text is not None)
#: a picture format's suffix -> its name: an output so named is refused for another format
PICTURE_SUFFIXES: dict[str, str] = {e.suffix: e.name for e in EXPORTERS.values() if e.picture}
