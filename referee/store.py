"""Project files: one SQLite file per project, and a lossless JSON export.

A project is one SQLite database written with sqlite-utils. Tables:

``meta`` (key, value)
    ``format`` = ``"boardwright-project"``, ``version``, and the board metadata.
``assets`` (key, kind, data, ord)
    Embedded copies of the tiles, piece types and decks the board uses.
``placements`` (id, tile, x, y, turns, ord), ``features`` (id, kind, geometry, props, ord),
``pieces`` (id, piece, at, props, ord), ``games`` (id, data, ord)
``images`` (id, format, width, height, size, name, data, ord)
    The board's pictures as raw BLOBs keyed by the SHA-256 of their bytes (the same
    picture is stored once). Loading reads only the other columns; the bytes are
    read when a renderer or the editor asks for them
    (:class:`referee.images.SqliteBlobs`). Projects without the table (written
    before images existed) load unchanged, so the format version stays 1.

Saving writes a complete new database next to the target in one transaction,
flushes it to disk and renames it over the target (``os.replace`` is atomic), so a
crash or a kill mid-save leaves the previous version intact and readable.

The JSON export holds the same content (see ``referee/schema/project.schema.json``);
``load_project`` reads either form, so every CLI verb takes a project file or its
export. Export → import → export is byte-identical. The JSON lists the images'
facts (``images``) and :func:`export_json` writes their bytes to the folder
``<name>.images/`` beside ``<name>.json``, one ``<id>.<ext>`` file each;
:func:`import_json` reads them back from there. The keys ``images`` and
``background`` are written only when the board has them, so boards without
pictures export exactly as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import sqlite_utils

from .errors import BoardError, BoardwrightError, FormatVersionError, ProjectFileError
from .images.store import FolderBlobs, ImageInfo, SqliteBlobs
from .model import Background, Board, Feature, PieceOnBoard, Placement, TileAsset

FORMAT = "boardwright-project"
FORMAT_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"


# ---------------------------------------------------------------------- JSON form
def board_to_json(board: Board) -> dict[str, Any]:
    """The project as a JSON-ready dict (the export format, version 1)."""
    out = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "meta": board.meta,
        "assets": {
            "tiles": [t.to_json() for t in board.tiles.values()],
            "pieces": [dict(v, key=k) for k, v in board.piece_types.items()],
            "decks": [dict(v, key=k) for k, v in board.decks.items()],
        },
        "placements": [p.to_json() for p in board.placements],
        "features": [f.to_json() for f in board.features],
        "pieces": [p.to_json() for p in board.pieces],
        "games": board.games,
    }
    if len(board.images):
        out["images"] = [i.to_json() for i in board.images]
    if board.background is not None:
        out["background"] = board.background.to_json()
    return out


def dumps_board(board: Board) -> str:
    """Canonical JSON text of a project (stable key order, one space indent)."""
    return json.dumps(board_to_json(board), indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def board_from_json(data: Any, where: str = "project") -> Board:
    """Build a :class:`Board` from the export format, validating as it goes."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProjectFileError(
            'not a Boardwright project (no "format": "boardwright-project")', location=where
        )
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise FormatVersionError(
            f"project format version {version!r} is not supported (this Boardwright reads "
            f"version {FORMAT_VERSION}); upgrade Boardwright to open it",
            location=where,
        )
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise BoardError("meta must be a JSON object", location=f"{where} meta")
    assets = data.get("assets", {})
    if not isinstance(assets, dict):
        raise BoardError("assets must be a JSON object", location=f"{where} assets")
    board = Board(meta=dict(meta))
    for i, t in enumerate(_list(assets, "tiles", f"{where} assets")):
        tile = TileAsset.from_json(t, f"{where} assets.tiles[{i}]")
        if tile.key in board.tiles:
            raise BoardError(
                f"duplicate tile asset {tile.key!r}",
                code="duplicate_id",
                location=f"{where} assets.tiles[{i}]",
            )
        board.tiles[tile.key] = tile
    for kind, target in (("pieces", board.piece_types), ("decks", board.decks)):
        for i, item in enumerate(_list(assets, kind, f"{where} assets")):
            if not isinstance(item, dict) or not isinstance(item.get("key"), str):
                raise BoardError(
                    f"each {kind[:-1]} asset needs a string key",
                    location=f"{where} assets.{kind}[{i}]",
                )
            item = dict(item)
            target[item.pop("key")] = item
    board.placements = [
        Placement.from_json(p, f"{where} placements[{i}]")
        for i, p in enumerate(_list(data, "placements", where))
    ]
    board.features = [
        Feature.from_json(f, f"{where} features[{i}]")
        for i, f in enumerate(_list(data, "features", where))
    ]
    for i, p in enumerate(_list(data, "pieces", where)):
        if (
            not isinstance(p, dict)
            or not isinstance(p.get("id"), str)
            or not isinstance(p.get("piece"), str)
        ):
            raise BoardError("a piece needs string id and piece", location=f"{where} pieces[{i}]")
        at = p.get("at")
        if at is not None and not isinstance(at, str):
            raise BoardError(
                "a piece's 'at' must be a node id or null", location=f"{where} pieces[{i}]"
            )
        board.pieces.append(PieceOnBoard(p["id"], p["piece"], at, dict(p.get("props") or {})))
    board.games = list(_list(data, "games", where))
    for i, item in enumerate(_list(data, "images", where)):
        board.images.register(ImageInfo.from_json(item, f"{where} images[{i}]"))
    if data.get("background") is not None:
        board.background = Background.from_json(data["background"], f"{where} background")
    board.validate(where)
    return board


def images_dir(path: str | os.PathLike[str]) -> Path:
    """The folder beside a JSON export that holds its images: ``name.json`` → ``name.images``."""
    p = Path(path)
    return p.with_name(p.stem + ".images")


def _list(data: dict[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BoardError(f"{key} must be a list", location=f"{where} {key}")
    return value


def export_json(board: Board, path: str | os.PathLike[str]) -> None:
    """Write the JSON export atomically, and its images into ``<name>.images/`` beside it."""
    if len(board.images):
        board.images.write_folder(images_dir(path))
    _atomic_write_text(Path(path), dumps_board(board))


def read_json_file(
    path: str | os.PathLike[str], error: type[BoardwrightError] = ProjectFileError
) -> Any:
    """Parse a JSON file, turning every way it can fail into one ``error`` naming the file.

    Used for projects, asset packs and game states alike (``error`` picks the class).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error("no such file", code="not_found", location=str(p)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read: {exc}", location=str(p)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(
            f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
            code="malformed_json",
            location=str(p),
        ) from None


def import_json(path: str | os.PathLike[str]) -> Board:
    """Load a project from its JSON export (images read lazily from ``<name>.images/``)."""
    board = board_from_json(read_json_file(path), str(path))
    board.images.sources.append(FolderBlobs(images_dir(path)))
    return board


# ---------------------------------------------------------------------- SQLite form
def save_project(board: Board, path: str | os.PathLike[str]) -> None:
    """Save ``board`` as a SQLite project file, atomically.

    Notes
    -----
    The new file is built beside the target, committed in one transaction,
    fsync'ed and renamed over the target; an interrupted save leaves the old file.
    """
    target = Path(path)
    data = board_to_json(board)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".saving", dir=target.parent or "."
    )
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp)
        db = sqlite_utils.Database(conn)
        with conn:
            meta = dict(data["meta"])
            rows = [
                {"key": "format", "value": json.dumps(FORMAT)},
                {"key": "version", "value": json.dumps(FORMAT_VERSION)},
                {"key": "meta", "value": json.dumps(meta, ensure_ascii=False)},
            ]
            if "background" in data:
                rows.append({"key": "background", "value": json.dumps(data["background"])})
            db["meta"].insert_all(rows, pk="key")
            asset_rows = []
            for kind in ("tiles", "pieces", "decks"):
                for item in data["assets"][kind]:
                    asset_rows.append(
                        {
                            "key": f"{kind}:{item['key']}",
                            "kind": kind,
                            "data": json.dumps(item, ensure_ascii=False),
                            "ord": len(asset_rows),
                        }
                    )
            db["assets"].create({"key": str, "kind": str, "data": str, "ord": int}, pk="key")
            db["assets"].insert_all(asset_rows)
            db["placements"].create(
                {"id": str, "tile": str, "x": float, "y": float, "turns": int, "ord": int}, pk="id"
            )
            db["placements"].insert_all(dict(p, ord=i) for i, p in enumerate(data["placements"]))
            db["features"].create(
                {"id": str, "kind": str, "geometry": str, "props": str, "ord": int}, pk="id"
            )
            db["features"].insert_all(
                {
                    "id": f["id"],
                    "kind": f["kind"],
                    "geometry": json.dumps(f["geometry"]),
                    "props": json.dumps(f["props"], ensure_ascii=False),
                    "ord": i,
                }
                for i, f in enumerate(data["features"])
            )
            db["pieces"].create(
                {"id": str, "piece": str, "at": str, "props": str, "ord": int}, pk="id"
            )
            db["pieces"].insert_all(
                {
                    "id": p["id"],
                    "piece": p["piece"],
                    "at": p["at"],
                    "props": json.dumps(p["props"], ensure_ascii=False),
                    "ord": i,
                }
                for i, p in enumerate(data["pieces"])
            )
            db["games"].create({"ord": int, "data": str}, pk="ord")
            db["games"].insert_all(
                {"ord": i, "data": json.dumps(g, ensure_ascii=False)}
                for i, g in enumerate(data["games"])
            )
            _write_images(conn, board)
        conn.close()
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        _fsync_dir(target.parent)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_images(conn: sqlite3.Connection, board: Board) -> None:
    """The ``images`` table: one row per image, bytes as a BLOB (NULL when missing)."""
    from .errors import ImageError

    conn.execute(
        "CREATE TABLE images (id TEXT PRIMARY KEY, format TEXT, width INTEGER, "
        "height INTEGER, size INTEGER, name TEXT, data BLOB, ord INTEGER)"
    )
    for i, info in enumerate(board.images):
        try:
            blob: bytes | None = board.images.data(info.id)
        except ImageError:
            blob = None  # referenced but missing: `referee check` reports it
        conn.execute(
            "INSERT INTO images VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (info.id, info.format, info.width, info.height, info.size, info.name, blob, i),
        )


def load_sqlite(path: str | os.PathLike[str]) -> Board:
    p = Path(path)
    where = str(p)
    try:
        conn = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise ProjectFileError(f"cannot open SQLite file: {exc}", location=where) from None
    try:
        db = sqlite_utils.Database(conn)
        names = set(db.table_names())
        need = {"meta", "assets", "placements", "features", "pieces", "games"}
        if "meta" not in names:
            raise ProjectFileError(
                "a SQLite file, but not a Boardwright project (no meta table)", location=where
            )
        meta_rows = {r["key"]: json.loads(r["value"]) for r in db["meta"].rows}
        if meta_rows.get("format") != FORMAT:
            raise ProjectFileError("a SQLite file, but not a Boardwright project", location=where)
        if meta_rows.get("version") != FORMAT_VERSION:
            raise FormatVersionError(
                f"project format version {meta_rows.get('version')!r} is not supported (this "
                f"Boardwright reads version {FORMAT_VERSION})",
                location=where,
            )
        missing = need - names
        if missing:
            raise ProjectFileError(
                f"project file lacks table(s) {', '.join(sorted(missing))}", location=where
            )
        assets: dict[str, list[Any]] = {"tiles": [], "pieces": [], "decks": []}
        for r in db["assets"].rows_where(order_by="ord"):
            if r["kind"] in assets:
                assets[r["kind"]].append(json.loads(r["data"]))
        data = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "meta": meta_rows.get("meta", {}),
            "assets": assets,
            "placements": [
                {"id": r["id"], "tile": r["tile"], "x": r["x"], "y": r["y"], "turns": r["turns"]}
                for r in db["placements"].rows_where(order_by="ord")
            ],
            "features": [
                {
                    "id": r["id"],
                    "kind": r["kind"],
                    "geometry": json.loads(r["geometry"]),
                    "props": json.loads(r["props"]),
                }
                for r in db["features"].rows_where(order_by="ord")
            ],
            "pieces": [
                {"id": r["id"], "piece": r["piece"], "at": r["at"], "props": json.loads(r["props"])}
                for r in db["pieces"].rows_where(order_by="ord")
            ],
            "games": [json.loads(r["data"]) for r in db["games"].rows_where(order_by="ord")],
        }
        if "background" in meta_rows:
            data["background"] = meta_rows["background"]
        if "images" in names:
            data["images"] = [
                dict(zip(("id", "format", "width", "height", "size", "name"), r))
                for r in conn.execute(
                    "SELECT id, format, width, height, size, name FROM images ORDER BY ord"
                )
            ]
    except sqlite3.DatabaseError as exc:
        raise ProjectFileError(
            f"corrupt SQLite project file ({exc})", code="corrupt", location=where
        ) from None
    except (json.JSONDecodeError, TypeError, KeyError) as exc:
        raise ProjectFileError(
            f"corrupt project content ({exc})", code="corrupt", location=where
        ) from None
    finally:
        conn.close()
    board = board_from_json(data, where)
    board.images.sources.append(SqliteBlobs(p))
    return board


def load_project(path: str | os.PathLike[str]) -> Board:
    """Load a project from its SQLite file or its JSON export (detected by content).

    A directory is accepted too when it holds exactly one project file (e.g.
    ``projects/ringgeister``).
    """
    p = Path(path)
    if p.is_dir():
        p = _project_in_dir(p)
    try:
        with open(p, "rb") as fh:
            head = fh.read(16)
    except FileNotFoundError:
        raise ProjectFileError("no such file", code="not_found", location=str(p)) from None
    except IsADirectoryError:
        raise ProjectFileError("is a directory", location=str(p)) from None
    except OSError as exc:
        raise ProjectFileError(f"cannot read: {exc.strerror}", location=str(p)) from None
    if head == SQLITE_MAGIC:
        return load_sqlite(p)
    if head.lstrip()[:1] in (b"{", b"["):
        return import_json(p)
    if not head:
        raise ProjectFileError("empty file, not a project", code="corrupt", location=str(p))
    raise ProjectFileError("not a Boardwright project (neither SQLite nor JSON)", location=str(p))


def _project_in_dir(d: Path) -> Path:
    cands = sorted(d.glob("*.bwproj")) or sorted(d.glob("*.json"))
    if len(cands) == 1 or (cands and cands[0].suffix == ".bwproj"):
        return cands[0]
    raise ProjectFileError(
        "directory holds no project file (*.bwproj or *.json)", code="not_found", location=str(d)
    )


def _atomic_write_text(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".saving", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _fsync_dir(d: Path) -> None:
    try:
        fd = os.open(d or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
