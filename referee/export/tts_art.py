"""The pictures of a board as Tabletop Simulator objects, added to the :mod:`.tts` save.

Beside the ``Custom_Board`` with the snap points (:func:`referee.export.tts.to_tts`),
a board with art gets:

- its **background** picture as a second, locked ``Custom_Board`` (nickname
  ``Background``) of the picture's size and turn, just under the board;
- each **placed tile** whose tile has a face as a ``Custom_Tile`` (``CustomTile``
  ``Type`` 0 = box, 1 = hex for hexagons; ``Stretch`` on) at the tile's centre,
  turned ``rotY`` = its turns × 360° / turn count (TTS turns clockwise seen from
  above, as our quarter turns do on screen), tagged ``tile:<placement>``;
- each **piece** whose piece type has a token picture as a ``Custom_Token`` on its
  node (pieces off the board wait in a row below it), tagged ``piece:<id>``;
- each **deck** with card faces as a ``DeckCustom``: the faces are laid out on
  card sheets in TTS's grid layout — up to 10 columns × 7 rows, 69 cards per sheet
  (TTS keeps the last cell for the hidden-card image), row by row from the top
  left — each sheet one ``CustomDeck`` entry {``FaceURL``, ``BackURL``,
  ``NumWidth``, ``NumHeight``, ``BackIsHidden``, ``UniqueBack``}, and each card a
  ``Card`` in ``ContainedObjects`` with ``CardID`` = sheet number × 100 + cell; a
  card of such a deck without a face picture keeps its place with a face drawn from
  its title and text (:func:`drawn_face`), and the deck's ``Description`` and the
  save's ``_boardwright.notes`` say how many were drawn.

Pictures are written into ``<save name>.images/`` beside the save (tile faces and
tokens under their content id, sheets as ``deck-<n>-sheet-<k>.jpg``) and referred to
by ``file://`` URLs, or by ``image_url_base + file name`` when the pictures are
hosted (upload that folder there). Sizes: TTS scales custom objects by their
``Transform`` scale; we set ``scaleX``/``scaleZ`` so that an object of
:data:`TTS_TILE_UNITS` units at scale 1 comes out at its board size in mm /
``mm_per_unit``. Like :mod:`.tts`, this layout follows TTS save files and type
declarations; it was not checked inside TTS itself.
"""

from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from ..compiler import CompiledBoard
from ..errors import ImageError

#: Width in TTS units of a custom tile, token or board at scale 1 (for sizing).
TTS_TILE_UNITS = 2.0
#: Largest card sheet side TTS loads reliably, in pixels.
MAX_SHEET_PX = 4096
SHEET_COLUMNS, SHEET_ROWS, SHEET_CARDS = 10, 7, 69


def _guid(*parts: object) -> str:
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(
    x: float, y: float, z: float, rot_y: float, sx: float, sz: float
) -> dict[str, float]:
    return {
        "posX": round(x, 5),
        "posY": round(y, 5),
        "posZ": round(z, 5),
        "rotX": 0.0,
        "rotY": round(rot_y % 360.0, 5),
        "rotZ": 0.0,
        "scaleX": round(sx, 5),
        "scaleY": 1.0,
        "scaleZ": round(sz, 5),
    }


def _base(name: str, guid: str, nickname: str, transform: dict[str, float]) -> dict[str, Any]:
    return {
        "GUID": guid,
        "Name": name,
        "Transform": transform,
        "Nickname": nickname,
        "Description": "",
        "GMNotes": "",
        "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        "Locked": False,
        "Grid": False,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "HideWhenFaceDown": False,
        "Hands": False,
        "LuaScript": "",
        "LuaScriptState": "",
        "XmlUI": "",
        "Tags": ["boardwright"],
    }


def drawn_face(card: dict[str, Any], width: int, height: int) -> Image.Image:
    """A plain card face for a card without a picture: its title (name, else id) and
    its text on a cream card with a border, ``width`` x ``height`` pixels."""
    im = Image.new("RGB", (width, height), (250, 245, 230))
    d = ImageDraw.Draw(im)
    pad = max(2, width // 20)
    d.rectangle(
        (pad // 2, pad // 2, width - 1 - pad // 2, height - 1 - pad // 2),
        outline=(90, 70, 40),
        width=max(1, pad // 3),
    )
    title = str(card.get("name") or card.get("title") or card.get("id") or "card")
    big = ImageFont.load_default(size=max(8, height // 9))
    small = ImageFont.load_default(size=max(6, height // 16))
    d.multiline_text(
        (pad * 2, pad * 2), _wrap(d, title, big, width - 4 * pad), font=big, fill=(30, 20, 10)
    )
    text = str(card.get("text") or "")
    if text:
        d.multiline_text(
            (pad * 2, pad * 2 + height // 4),
            _wrap(d, text, small, width - 4 * pad),
            font=small,
            fill=(40, 30, 20),
        )
    return im


def _wrap(d: ImageDraw.ImageDraw, text: str, font: Any, width: int) -> str:
    lines: list[str] = []
    for word in text.split():
        if lines and d.textlength(lines[-1] + " " + word, font=font) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "\n".join(lines)


class TtsArt:
    """Builds the TTS objects for one board's pictures and writes the picture files.

    Parameters
    ----------
    compiled : CompiledBoard
    folder : Path
        Where picture files are written (``<save name>.images``).
    centre_mm : (float, float)
        Board point at the TTS origin (as in :func:`referee.export.tts.to_tts`).
    mm_per_unit : float
        Millimetres per TTS unit.
    image_url_base : str, optional
        URL prefix of hosted pictures; default ``file://`` URLs of the written files.
    """

    def __init__(
        self,
        compiled: CompiledBoard,
        folder: Path,
        centre_mm: tuple[float, float],
        mm_per_unit: float,
        image_url_base: str | None = None,
        write: Callable[[Path, bytes], None] | None = None,
    ) -> None:
        self.compiled = compiled
        self.board = compiled.board
        self.folder = folder
        self.cx, self.cy = centre_mm
        self.mpu = mm_per_unit
        self.base = image_url_base
        self._write = write or (lambda p, b: p.write_bytes(b))
        self.written: list[Path] = []
        #: what the export had to make up (cards drawn without a face picture), one line each
        self.notes: list[str] = []

    def _has_face(self, card: dict[str, Any]) -> bool:
        return isinstance(card.get("face"), str) and card["face"] in self.board.images

    # -- files and URLs
    def _url(self, name: str, data: bytes) -> str:
        path = self.folder / name
        if path not in self.written:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._write(path, data)
            self.written.append(path)
        if self.base is not None:
            return self.base.rstrip("/") + "/" + name
        return path.resolve().as_uri()

    def _image_url(self, image_id: str) -> str | None:
        """URL of a project image as a raster file (SVG is rasterised: TTS loads no SVG)."""
        store = self.board.images
        if image_id not in store:
            return None
        info = store.info(image_id)
        try:
            if info.format == "svg":
                buf = io.BytesIO()
                store.open(image_id).save(buf, "PNG")
                return self._url(f"{info.id}.png", buf.getvalue())
            return self._url(info.file_name, store.data(image_id))
        except ImageError:
            return None

    def _pos(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm - self.cx) / self.mpu, -(y_mm - self.cy) / self.mpu

    def _scale(self, size_mm: float) -> float:
        return size_mm / self.mpu / TTS_TILE_UNITS

    # -- objects
    def objects(self) -> list[dict[str, Any]]:
        """Every art object of the board (background, tiles, tokens, decks)."""
        return [*self.background(), *self.tiles(), *self.tokens(), *self.decks()]

    def background(self) -> list[dict[str, Any]]:
        bg = self.board.background
        if bg is None or not bg.visible or bg.image not in self.board.images:
            return []
        url = self._image_url(bg.image)
        if url is None:
            return []
        info = self.board.images.info(bg.image)
        w, h = bg.size_mm(info.width, info.height)
        # the picture's centre on the board, turned about its top-left corner
        a = math.radians(bg.rotation)
        mx = bg.x + (w / 2) * math.cos(a) - (h / 2) * math.sin(a)
        my = bg.y + (w / 2) * math.sin(a) + (h / 2) * math.cos(a)
        x, z = self._pos(mx, my)
        obj = _base(
            "Custom_Board",
            _guid("bg", bg.image),
            "Background",
            _transform(x, 0.9, z, bg.rotation, self._scale(w), self._scale(w)),
        )
        obj["Locked"] = True
        obj["CustomImage"] = {
            "ImageURL": url,
            "ImageSecondaryURL": "",
            "ImageScalar": 1.0,
            "WidthScale": 0.0,
        }
        obj["Tags"] = ["boardwright", "background"]
        return [obj]

    def tiles(self) -> list[dict[str, Any]]:
        out = []
        for p in self.board.placements:
            tile = self.board.tile_of(p)
            if not tile.face:
                continue
            url = self._image_url(tile.face)
            if url is None:
                continue
            x0, y0, x1, y1 = tile.outline.bounds
            x, z = self._pos(p.x, p.y)
            angle = 360.0 * (p.turns % tile.turn_count) / tile.turn_count
            obj = _base(
                "Custom_Tile",
                _guid("tile", p.id, tile.face),
                tile.name,
                _transform(x, 1.1, z, angle, self._scale(x1 - x0), self._scale(y1 - y0)),
            )
            obj["CustomImage"] = {
                "ImageURL": url,
                "ImageSecondaryURL": url,
                "ImageScalar": 1.0,
                "WidthScale": 0.0,
                "CustomTile": {
                    "Type": 1 if tile.shape == "hexagon" else 0,
                    "Thickness": 0.1,
                    "Stackable": False,
                    "Stretch": True,
                },
            }
            obj["Tags"] = ["boardwright", f"tile:{p.id}", f"asset:{tile.key}"]
            obj["Description"] = f"turns {p.turns}"
            out.append(obj)
        return out

    def tokens(self) -> list[dict[str, Any]]:
        out = []
        g = self.compiled.graph
        _, _, _, maxy = self._extent()
        spare = 0
        for pc in self.board.pieces:
            t = self.board.piece_types.get(pc.piece, {})
            token = t.get("token")
            if not isinstance(token, str):
                continue
            url = self._image_url(token)
            if url is None:
                continue
            if pc.at is not None and pc.at in g:
                xm, ym = float(g.nodes[pc.at]["x"]), float(g.nodes[pc.at]["y"])
            else:  # off the board: a row below it
                xm, ym = self.cx + 20.0 * spare, maxy + 30.0
                spare += 1
            x, z = self._pos(xm, ym)
            size = 12.0
            obj = _base(
                "Custom_Token",
                _guid("piece", pc.id, token),
                str(t.get("name") or pc.piece),
                _transform(x, 1.3, z, 0.0, self._scale(size), self._scale(size)),
            )
            obj["CustomImage"] = {
                "ImageURL": url,
                "ImageSecondaryURL": "",
                "ImageScalar": 1.0,
                "WidthScale": 0.0,
                "CustomToken": {
                    "Thickness": 0.2,
                    "MergeDistancePixels": 15.0,
                    "StandUp": False,
                    "Stackable": False,
                },
            }
            obj["Tags"] = ["boardwright", f"piece:{pc.id}", f"asset:{pc.piece}"] + (
                [f"node:{pc.at}"] if pc.at else []
            )
            out.append(obj)
        return out

    def _extent(self) -> tuple[float, float, float, float]:
        w, h = self.board.meta.get("width"), self.board.meta.get("height")
        if isinstance(w, (int, float)) and isinstance(h, (int, float)):
            return 0.0, 0.0, float(w), float(h)
        return self.cx - 100, self.cy - 100, self.cx + 100, self.cy + 100

    def decks(self) -> list[dict[str, Any]]:
        out = []
        _, _, maxx, _ = self._extent()
        deck_no = 0
        for key, deck in self.board.decks.items():
            cards = [c for c in (deck.get("cards") or []) if isinstance(c, dict)]
            if not any(self._has_face(c) for c in cards):
                continue
            faceless = [c for c in cards if not self._has_face(c)]
            if faceless:
                # a deck with some faces keeps every card: the others get a face drawn
                # from their title and text, and the deck says so
                self.notes.append(
                    f"deck {key}: {len(faceless)} of {len(cards)} cards have no face "
                    "picture; they are drawn with their title and text"
                )
            deck_no += 1
            obj = self._deck(key, deck, cards, deck_no)
            if obj is None:
                continue
            x, z = self._pos(maxx + 60.0, self.cy - 80.0 * (deck_no - 1))
            obj["Transform"] = _transform(x, 1.5, z, 180.0, 1.0, 1.0)
            obj["Transform"]["rotZ"] = 180.0  # face down
            out.append(obj)
        return out

    def _deck(
        self, key: str, deck: dict[str, Any], cards: list[dict[str, Any]], deck_no: int
    ) -> dict[str, Any] | None:
        store = self.board.images
        first = store.info(next(c["face"] for c in cards if self._has_face(c)))
        cw, ch = first.width, first.height
        fit = min(1.0, MAX_SHEET_PX / (cw * SHEET_COLUMNS), MAX_SHEET_PX / (ch * SHEET_ROWS))
        cw, ch = max(1, int(cw * fit)), max(1, int(ch * fit))
        back_id = deck.get("back")
        back_url = self._image_url(back_id) if isinstance(back_id, str) else None
        if back_url is None:  # a plain back so the deck still loads
            buf = io.BytesIO()
            Image.new("RGB", (cw, ch), (60, 50, 40)).save(buf, "JPEG", quality=90)
            back_url = self._url(f"deck-{deck_no}-back.jpg", buf.getvalue())
        custom: dict[str, dict[str, Any]] = {}
        contained: list[dict[str, Any]] = []
        ids: list[int] = []
        for s in range(math.ceil(len(cards) / SHEET_CARDS)):
            chunk = cards[s * SHEET_CARDS : (s + 1) * SHEET_CARDS]
            cols = min(SHEET_COLUMNS, max(2, len(chunk)))
            rows = max(2, math.ceil(len(chunk) / cols))
            sheet = Image.new("RGB", (cw * cols, ch * rows), (255, 255, 255))
            for i, card in enumerate(chunk):
                if self._has_face(card):
                    face = store.thumbnail(card["face"], max(cw, ch)).convert("RGB")
                    face = face.resize((cw, ch), Image.Resampling.LANCZOS)
                else:
                    face = drawn_face(card, cw, ch)
                sheet.paste(face, ((i % cols) * cw, (i // cols) * ch))
            buf = io.BytesIO()
            sheet.save(buf, "JPEG", quality=90)
            sheet_no = deck_no * 10 + s + 1  # CustomDeck keys must differ between decks
            url = self._url(f"deck-{deck_no}-sheet-{s + 1}.jpg", buf.getvalue())
            entry = {
                "FaceURL": url,
                "BackURL": back_url,
                "NumWidth": cols,
                "NumHeight": rows,
                "BackIsHidden": True,
                "UniqueBack": False,
                "Type": 0,
            }
            custom[str(sheet_no)] = entry
            for i, card in enumerate(chunk):
                cid = sheet_no * 100 + i
                ids.append(cid)
                c = _base(
                    "Card",
                    _guid("card", key, card.get("id"), cid),
                    str(card.get("name") or card.get("id") or cid),
                    _transform(0, 0, 0, 180.0, 1.0, 1.0),
                )
                c["CardID"] = cid
                c["CustomDeck"] = {str(sheet_no): entry}
                c["Tags"] = ["boardwright", f"card:{card.get('id')}"]
                contained.append(c)
        obj = _base("DeckCustom", _guid("deck", key), str(deck.get("name") or key), {})
        drawn = sum(1 for c in cards if not self._has_face(c))
        if drawn:
            obj["Description"] = f"{drawn} card(s) without a face picture, drawn from their text"
        obj["DeckIDs"] = ids
        obj["CustomDeck"] = custom
        obj["ContainedObjects"] = contained
        obj["Tags"] = ["boardwright", f"deck:{key}"]
        return obj
