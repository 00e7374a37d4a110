"""A Tiled map's files, checked before pytiled-parser sees them (:mod:`.tiled` turns
the parsed map into a board).

The map and every file it refers to (tilesets, templates, the pictures they name) are
read through :mod:`.sources` — inside the map's folder, size-limited, no FIFOs, links
out, gzip bombs or DTDs — and checked: the orientation and infinite maps, object and
cell counts (:data:`MAX_CELLS`), each tile layer's data (zstd refused, compressed data
that unpacks to more than its cells need). Only then are they copied into a private
folder, older TMX filled in with the defaults pytiled-parser needs, and parsed there.

Notes
-----
Linear in the map's bytes; compressed tile data is unpacked at most to its cells'
size.
"""

from __future__ import annotations

import base64
import binascii
import os
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytiled_parser

from ..errors import BoardwrightError
from ..model import MAX_FEATURES
from ..safeio import loads_json
from .result import ImportRefused, Losses, Problems
from .settings import ImportSettings
from .sources import MAX_INPUT_BYTES, Folder, check_xml, read_input

#: Most tile cells (all tile layers together) a map may have.
MAX_CELLS = 1_000_000


@dataclass
class _Scan:
    """What the first look at the raw map found: references and counts."""

    tilesets: list[str] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)
    objects: int = 0
    cells: int = 0


def _check_layer_data(
    data: Any,
    encoding: str | None,
    compression: str | None,
    cells: int,
    where: str,
    problems: Problems,
) -> None:
    """Refuse zstd and compressed data that unpacks to more than its cells need."""
    if encoding != "base64" or not isinstance(data, str):
        return
    if compression in ("zstd",):
        problems.add(
            where,
            "zstd-compressed tile data is not supported; in Tiled choose "
            "Map Properties ▸ Tile Layer Format: Base64 (zlib) or CSV",
        )
        return
    if compression not in (None, "", "zlib", "gzip"):
        problems.add(where, f"unknown tile data compression {compression!r}")
        return
    try:
        raw = base64.b64decode(data.strip(), validate=False)
    except (binascii.Error, ValueError):
        problems.add(where, "tile data is not base64")
        return
    if not compression:
        if len(raw) != 4 * cells:
            problems.add(where, f"tile data holds {len(raw)} bytes for {cells} cells")
        return
    d = zlib.decompressobj(zlib.MAX_WBITS | (16 if compression == "gzip" else 0))
    try:
        out = d.decompress(raw, 4 * cells + 1)
    except zlib.error as exc:
        problems.add(where, f"corrupt {compression} tile data ({exc})")
        return
    if len(out) != 4 * cells:
        problems.add(
            where, f"{compression} tile data unpacks to more or less than its {cells} cells"
        )


def _scan_json(raw: Any, problems: Problems) -> _Scan:
    scan = _Scan()
    if not isinstance(raw, dict) or raw.get("type", "map") != "map" or "layers" not in raw:
        problems.add("", "not a Tiled JSON map (no map object with layers)")
        return scan
    _scan_map_attrs(raw.get("orientation"), raw.get("infinite"), problems)
    for ts in raw.get("tilesets") or []:
        if isinstance(ts, dict) and isinstance(ts.get("source"), str):
            scan.tilesets.append(ts["source"])

    def layers(items: Any, where: str) -> None:
        for i, layer in enumerate(items if isinstance(items, list) else []):
            if not isinstance(layer, dict):
                continue
            w = f"{where}layer {layer.get('name', i)!r}"
            t = layer.get("type")
            if t == "group":
                layers(layer.get("layers"), f"{w} ")
            elif t == "objectgroup":
                objs = layer.get("objects") or []
                scan.objects += len(objs) if isinstance(objs, list) else 0
                for o in objs if isinstance(objs, list) else []:
                    if isinstance(o, dict) and isinstance(o.get("template"), str):
                        scan.templates.append(o["template"])
            elif t == "tilelayer":
                w_, h_ = layer.get("width", 0), layer.get("height", 0)
                cells = w_ * h_ if isinstance(w_, int) and isinstance(h_, int) else 0
                scan.cells += max(0, cells)
                if layer.get("chunks") is not None:
                    problems.add(w, "infinite maps (tile chunks) are not supported")
                _check_layer_data(
                    layer.get("data"),
                    layer.get("encoding"),
                    layer.get("compression"),
                    cells,
                    w,
                    problems,
                )

    layers(raw.get("layers"), "")
    return scan


def _scan_xml(root: ET.Element, problems: Problems) -> _Scan:
    scan = _Scan()
    if root.tag != "map":
        problems.add("", f"not a Tiled TMX map (the root element is <{root.tag}>, not <map>)")
        return scan
    _scan_map_attrs(root.get("orientation"), root.get("infinite") == "1", problems)
    for ts in root.findall("tileset"):
        if ts.get("source"):
            scan.tilesets.append(str(ts.get("source")))
    for o in root.iter("object"):
        scan.objects += 1
        if o.get("template"):
            scan.templates.append(str(o.get("template")))
    for layer in root.iter("layer"):
        w = f"layer {layer.get('name', '')!r}"
        try:
            cells = int(layer.get("width", "0")) * int(layer.get("height", "0"))
        except ValueError:
            problems.add(w, "width and height must be integers")
            continue
        scan.cells += max(0, cells)
        data = layer.find("data")
        if data is None:
            continue
        if data.find("chunk") is not None:
            problems.add(w, "infinite maps (tile chunks) are not supported")
            continue
        _check_layer_data(
            data.text, data.get("encoding"), data.get("compression"), cells, w, problems
        )
    return scan


def _scan_map_attrs(orientation: Any, infinite: Any, problems: Problems) -> None:
    if orientation not in ("orthogonal", "hexagonal"):
        problems.add(
            "",
            f"{orientation} maps are not supported (Boardwright boards are seen from above: "
            "orthogonal and hexagonal maps are read)",
        )
    if infinite:
        problems.add(
            "", "infinite maps are not supported; in Tiled uncheck Map ▸ Map Properties ▸ Infinite"
        )


# ---------------------------------------------------------------------- the files
class TiledFiles:
    """The files of one Tiled map: read through :mod:`.sources`, checked, copied into a
    private folder and parsed there by pytiled-parser; the pictures they name read on
    demand (:meth:`image_bytes`).

    Problems with the files are gathered in ``problems`` (all of them raised at once,
    before the parser runs); pictures that cannot be read are noted in ``losses``.
    """

    def __init__(
        self, path: Path, settings: ImportSettings, problems: Problems, losses: Losses
    ) -> None:
        self.path = Path(path)
        self.problems = problems
        self.losses = losses
        self.folder = Folder(self.path.parent.resolve(), settings.root)
        self.images_by_path: dict[Path, bytes | None] = {}
        #: the map is TMX (XML), not TMJ
        self.xml = False

    def parse(self, tmp: Path) -> Any:
        """The map, parsed by pytiled-parser from its copy in ``tmp`` (a private folder
        that must outlive the map's use: pictures are found relative to it); raise
        :class:`ImportRefused` with every problem the files have."""
        data = read_input(self.path)
        xml = self.xml = data.lstrip()[:1] == b"<"
        where = str(self.path)
        if xml:
            scan = _scan_xml(check_xml(data, where), self.problems)
        else:
            scan = _scan_json(loads_json(data, where, error=ImportRefused), self.problems)

        if scan.objects > MAX_FEATURES:
            self.problems.add(
                "", f"{scan.objects} objects is more than a board holds ({MAX_FEATURES})"
            )
        if scan.cells > MAX_CELLS:
            self.problems.add(
                "", f"{scan.cells} tile cells is more than an import reads ({MAX_CELLS})"
            )
        return self._parse(tmp, data, xml, scan)

    def _parse(self, tmp: Path, data: bytes, xml: bool, scan: _Scan) -> Any:
        """Copy the map and the files it refers to into ``tmp``, then parse it there."""
        base = self.folder.base
        rel = (
            Path(os.path.relpath(base, self.folder.root))
            if base.is_relative_to(self.folder.root)
            else Path()
        )
        self.tmp = tmp
        home = tmp / rel
        home.mkdir(parents=True, exist_ok=True)
        target = home / ("map.tmx" if xml else "map.tmj")
        target.write_bytes(_tmx_defaults(data, self._sizer(base)) if xml else data)
        self.home = home
        self.home_real = base
        for ref in scan.tilesets:
            self._copy(ref, base, home, "tileset")
        for ref in scan.templates:
            text = self._copy(ref, base, home, "template")
            if text is None:
                continue
            # a template may name its own tileset, relative to the template
            tdir_real = (base / ref).parent
            tdir_tmp = (home / ref).parent
            try:
                if text.lstrip()[:1] == b"<":
                    ts = check_xml(text, ref).find("tileset")
                    src = ts.get("source") if ts is not None else None
                else:
                    tj = loads_json(text, ref, error=ImportRefused)
                    src = (tj.get("tileset") or {}).get("source") if isinstance(tj, dict) else None
            except ImportRefused as exc:
                self.problems.add(f"template {ref!r}", exc.message)
                continue
            if isinstance(src, str):
                self._copy(src, tdir_real, tdir_tmp, "tileset")
        self.problems.check()
        try:
            return pytiled_parser.parse_map(target)
        except RecursionError:
            raise ImportRefused("layers nested too deeply", location=str(self.path)) from None
        except (
            KeyError, ValueError, TypeError, AttributeError, IndexError, RuntimeError,
            NotImplementedError, OSError, ET.ParseError, pytiled_parser.UnknownFormat,
        ) as exc:  # fmt: skip
            what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise ImportRefused(
                f"not a map pytiled-parser can read ({what[:200]})",
                code="bad_map",
                location=str(self.path),
            ) from None

    def _copy(self, ref: str, real_dir: Path, tmp_dir: Path, what: str) -> bytes | None:
        try:
            blob = self.folder.read(ref, real_dir)
        except ImportRefused as exc:
            self.problems.add(f"{what} {ref!r}", exc.message)
            return None
        dest = Path(os.path.normpath(tmp_dir / ref))
        if not dest.is_relative_to(self.tmp):
            self.problems.add(f"{what} {ref!r}", "leads out of the map's folder")
            return None
        if blob.lstrip()[:1] == b"<":
            try:
                check_xml(blob, ref)
            except ImportRefused as exc:
                self.problems.add(f"{what} {ref!r}", exc.message)
                return None
        else:
            try:
                loads_json(blob, ref, error=ImportRefused)
            except ImportRefused as exc:
                self.problems.add(f"{what} {ref!r}", exc.message)
                return None
        dest.parent.mkdir(parents=True, exist_ok=True)
        xml = blob.lstrip()[:1] == b"<"
        dest.write_bytes(
            _tmx_defaults(blob, self._sizer(Path(os.path.dirname(real_dir / ref)))) if xml else blob
        )
        return blob

    def _sizer(self, real_dir: Path) -> Callable[[str], tuple[int, int] | None]:
        """The pixel size of a picture a TMX or TSX in ``real_dir`` names (or None)."""

        def size(ref: str) -> tuple[int, int] | None:
            from ..images.decode import inspect_image

            try:
                facts = inspect_image(self.folder.read(ref, real_dir), ref)
            except BoardwrightError:
                return None
            return facts.width, facts.height

        return size

    def image_bytes(self, path: Path) -> bytes | None:
        """The bytes of a picture a tileset or image layer names (relative to the map)."""
        p = Path(path)
        real_dir = self.home_real
        if p.is_absolute():
            try:
                rel = p.relative_to(self.home)
            except ValueError:
                try:
                    rel = Path(os.path.relpath(p, self.home))
                except ValueError:
                    self.losses.add("image-missing", "pictures not found: left out")
                    return None
            ref = rel.as_posix()
        else:
            ref = p.as_posix()
        key = real_dir / ref
        if key not in self.images_by_path:
            try:
                self.images_by_path[key] = self.folder.read(ref, real_dir, limit=MAX_INPUT_BYTES)
            except ImportRefused as exc:
                self.losses.add(f"image {exc.code}", f"pictures not read ({exc.message}): left out")
                self.images_by_path[key] = None
        return self.images_by_path[key]


def _tmx_defaults(data: bytes, image_size: Callable[[str], tuple[int, int] | None]) -> bytes:
    """TMX or TSX with the attributes older Tiled versions left out filled in with
    the values the TMX format gives them (pytiled-parser requires them): a map's
    ``infinite`` (0), ``nextlayerid``, ``nextobjectid``, ``renderorder``
    (right-down), ``version`` and ``tiledversion``; a tileset's ``tilecount`` and
    ``columns`` (from its image, or its tiles); an image's ``width`` and ``height``
    (``image_size(source)``: read from the picture); an object's ``id``."""
    root = ET.fromstring(data)
    if root.tag == "map":
        defaults = {
            "infinite": "0",
            "renderorder": "right-down",
            "version": "1.0",
            "tiledversion": "",
        }
        for k, v in defaults.items():
            root.attrib.setdefault(k, v)
        layers = [
            el for el in root.iter() if el.tag in ("layer", "objectgroup", "imagelayer", "group")
        ]
        ids = [int(el.get("id", "0") or 0) for el in layers if (el.get("id") or "").isdigit()]
        root.attrib.setdefault("nextlayerid", str(max(ids, default=len(layers)) + 1))
        objects = list(root.iter("object"))
        oids = [int(o.get("id", "0")) for o in objects if (o.get("id") or "").isdigit()]
        nxt = max(oids, default=0) + 1
        for o in objects:
            if not (o.get("id") or "").isdigit():
                o.set("id", str(nxt))
                nxt += 1
        root.attrib.setdefault("nextobjectid", str(nxt))
    for image in root.iter("image"):
        if image.get("source") and not (image.get("width") and image.get("height")):
            wh = image_size(str(image.get("source")))
            if wh is not None:
                image.set("width", str(wh[0]))
                image.set("height", str(wh[1]))
    for ts in [root] if root.tag == "tileset" else root.findall("tileset"):
        if ts.get("source"):
            continue
        ts.attrib.setdefault("name", "")
        if "tilecount" in ts.attrib and "columns" in ts.attrib:
            continue
        sheet = ts.find("image")
        tw, th = int(ts.get("tilewidth", "1") or 1), int(ts.get("tileheight", "1") or 1)
        sp, mg = int(ts.get("spacing", "0") or 0), int(ts.get("margin", "0") or 0)
        if sheet is not None and sheet.get("width") and sheet.get("height"):
            cols = max(0, (int(sheet.get("width", "0")) - 2 * mg + sp) // max(1, tw + sp))
            rows = max(0, (int(sheet.get("height", "0")) - 2 * mg + sp) // max(1, th + sp))
            ts.attrib.setdefault("columns", str(cols))
            ts.attrib.setdefault("tilecount", str(cols * rows))
        else:
            tiles = [int(t.get("id", "0")) for t in ts.findall("tile")]
            ts.attrib.setdefault("columns", "0")
            ts.attrib.setdefault("tilecount", str(max(tiles, default=-1) + 1))
    out: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return out
