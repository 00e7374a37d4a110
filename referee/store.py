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

The JSON export holds the same content: the board's JSON form, which is the model's
(:meth:`referee.model.Board.to_json` / :meth:`~referee.model.Board.from_json`; see
``referee/schema/project.schema.json``);
``load_project`` reads either form, so every CLI verb takes a project file or its
export. Export → import → export is byte-identical. The JSON lists the images'
facts (``images``) and :func:`export_json` writes their bytes to the folder
``<name>.images/`` beside ``<name>.json``, one ``<id>.<ext>`` file each;
:func:`import_json` reads them back from there. The keys ``images`` and
``background`` are written only when the board has them, so boards without
pictures export exactly as before.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import sqlite_utils

from .errors import BoardError, BoardwrightError, FormatVersionError, ProjectFileError
from .images.store import FolderBlobs, SqliteBlobs
from .model import FORMAT, FORMAT_VERSION, MAX_FEATURES, Board
from .safeio import (
    atomic_build,
    atomic_write,
    dumps_json,
    loads_json,
    read_bytes,
    read_json,
    sqlite_readonly_uri,
)

SQLITE_MAGIC = b"SQLite format 3\x00"

#: Largest project content read, in bytes: a JSON export's size, or for a SQLite file
#: the total length of its JSON cells (its image BLOBs are read lazily and do not
#: count). The sample boards are well under 1 MiB. Loading peaks at about 6x this for
#: a JSON export and 10x for SQLite (``bench/safeio.py``): under ~700 MiB at the limit.
MAX_PROJECT_BYTES = 64 * 1024 * 1024
#: Largest single SQLite cell read (bytes); SQLite refuses to build a longer value.
MAX_CELL_BYTES = 16 * 1024 * 1024

#: The tables of a project and their columns (anything else is refused unread).
SCHEMA: dict[str, frozenset[str]] = {
    "meta": frozenset({"key", "value"}),
    "assets": frozenset({"key", "kind", "data", "ord"}),
    "placements": frozenset({"id", "tile", "x", "y", "turns", "ord"}),
    "features": frozenset({"id", "kind", "geometry", "props", "ord"}),
    "pieces": frozenset({"id", "piece", "at", "props", "ord"}),
    "games": frozenset({"ord", "data"}),
    "images": frozenset({"id", "format", "width", "height", "size", "name", "data", "ord"}),
}
#: Tables every project has ("images" is optional: older projects lack it).
REQUIRED_TABLES = frozenset(SCHEMA) - {"images"}
#: The JSON text columns whose total length :data:`MAX_PROJECT_BYTES` bounds.
JSON_COLUMNS = {
    "meta": ("value",),
    "assets": ("data",),
    "features": ("geometry", "props"),
    "pieces": ("props",),
    "games": ("data",),
}
#: SQLite's own bookkeeping tables, allowed beside ours.
SQLITE_TABLES = frozenset({"sqlite_sequence", "sqlite_stat1", "sqlite_stat4"})


# ---------------------------------------------------------------------- JSON form
def dumps_board(board: Board, where: str = "project") -> str:
    """Canonical JSON text of a project (stable key order, one space indent).

    Raises :class:`~referee.errors.BoardError` naming the place if the board holds
    a value JSON cannot carry (NaN, an infinity, a lone surrogate, a huge integer).
    """
    return dumps_json(board.to_json(), where, indent=1, error=BoardError) + "\n"


def check_savable(board: Board, where: str = "project") -> None:
    """Raise :class:`~referee.errors.BoardError` unless ``board`` can be saved and reopened.

    The editor calls this when it loads a board, so that a board that loads can
    always be saved (``NaN`` in a property, ``turns`` = 10**30 … are refused at load).
    """
    dumps_board(board, where)


def images_dir(path: str | os.PathLike[str]) -> Path:
    """The folder beside a JSON export that holds its images: ``name.json`` → ``name.images``."""
    p = Path(path)
    return p.with_name(p.stem + ".images")


def export_json(board: Board, path: str | os.PathLike[str]) -> None:
    """Write the JSON export atomically (:func:`referee.safeio.atomic_write`), and its
    images into ``<name>.images/`` beside it."""
    text = dumps_board(board, str(path))  # refuses what cannot be written, before any file
    if len(board.images):
        board.images.write_folder(images_dir(path))
    atomic_write(path, text)


def read_json_file(
    path: str | os.PathLike[str], error: type[BoardwrightError] = ProjectFileError
) -> Any:
    """Parse a JSON file with :func:`referee.safeio.read_json` (limits, one-line errors).

    Used for projects, asset packs and game states alike (``error`` picks the class).
    """
    return read_json(path, error)


def import_json(path: str | os.PathLike[str]) -> Board:
    """Load a project from its JSON export (images read lazily from ``<name>.images/``)."""
    data = loads_json(
        read_bytes(path, error=ProjectFileError, max_bytes=MAX_PROJECT_BYTES),
        str(path),
        error=ProjectFileError,
        max_bytes=MAX_PROJECT_BYTES,
    )
    board = Board.from_json(data, str(path))
    board.images.sources.append(FolderBlobs(images_dir(path)))
    return board


# ---------------------------------------------------------------------- SQLite form
def save_project(board: Board, path: str | os.PathLike[str]) -> None:
    """Save ``board`` as a SQLite project file, atomically.

    Raises :class:`~referee.errors.BoardError` (nothing written) if the board holds a
    value that could not be read back, :class:`~referee.safeio.OutputError` if the
    file cannot be written.

    Notes
    -----
    The new database is built in a temporary file beside the target by
    :func:`referee.safeio.atomic_build` (exclusive create, one transaction, fsync,
    rename; the target's mode kept, a symlink written through), so an interrupted
    save leaves the old file.
    """
    where = str(path)
    check_savable(board, where)
    data = board.to_json()
    with atomic_build(path, where=where) as tmp:
        conn = sqlite3.connect(tmp)
        # the temporary file is not the project yet: no journal and no syncs of SQLite's
        # own; atomic_build fsyncs the finished file once before the rename
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        try:
            _fill(sqlite_utils.Database(conn), conn, data, board)
        finally:
            conn.close()


def _fill(
    db: sqlite_utils.Database, conn: sqlite3.Connection, data: dict[str, Any], board: Board
) -> None:
    with conn:
        meta = dict(data["meta"])
        rows = [
            {"key": "format", "value": json.dumps(FORMAT)},
            {"key": "version", "value": json.dumps(FORMAT_VERSION)},
            {"key": "meta", "value": json.dumps(meta, ensure_ascii=False)},
        ]
        if "background" in data:
            rows.append({"key": "background", "value": json.dumps(data["background"])})
        db.table("meta").insert_all(rows, pk="key")
        asset_rows: list[dict[str, Any]] = []
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
        db.table("assets").create({"key": str, "kind": str, "data": str, "ord": int}, pk="key")
        db.table("assets").insert_all(asset_rows)
        db.table("placements").create(
            {"id": str, "tile": str, "x": float, "y": float, "turns": int, "ord": int}, pk="id"
        )
        db.table("placements").insert_all(dict(p, ord=i) for i, p in enumerate(data["placements"]))
        db.table("features").create(
            {"id": str, "kind": str, "geometry": str, "props": str, "ord": int}, pk="id"
        )
        db.table("features").insert_all(
            {
                "id": f["id"],
                "kind": f["kind"],
                "geometry": json.dumps(f["geometry"]),
                "props": json.dumps(f["props"], ensure_ascii=False),
                "ord": i,
            }
            for i, f in enumerate(data["features"])
        )
        db.table("pieces").create(
            {"id": str, "piece": str, "at": str, "props": str, "ord": int}, pk="id"
        )
        db.table("pieces").insert_all(
            {
                "id": p["id"],
                "piece": p["piece"],
                "at": p["at"],
                "props": json.dumps(p["props"], ensure_ascii=False),
                "ord": i,
            }
            for i, p in enumerate(data["pieces"])
        )
        db.table("games").create({"ord": int, "data": str}, pk="ord")
        db.table("games").insert_all(
            {"ord": i, "data": json.dumps(g, ensure_ascii=False)}
            for i, g in enumerate(data["games"])
        )
        _write_images(conn, board)


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


def sqlite_uri(path: str | os.PathLike[str]) -> str:
    """The URI :func:`load_sqlite` opens: :func:`referee.safeio.sqlite_readonly_uri`.

    Read-only and immutable (no ``-shm``/``-wal``/journal file is created); a project
    with a pending write-ahead log is refused before, see :func:`load_sqlite`.
    """
    return sqlite_readonly_uri(path)


def check_schema(conn: sqlite3.Connection, where: str) -> None:
    """Refuse, before reading any row, a database whose schema is not a project's.

    Views, triggers, virtual tables, generated (hidden) columns, unknown tables and
    unknown columns are all refused: each could make reading run arbitrary SQL
    work or inflate a small file into gigabytes of values.
    """
    entries = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    tables = set()
    for kind, name, _tbl, sql in entries:
        if kind in ("view", "trigger"):
            raise ProjectFileError(
                f"not a Boardwright project: it has a {kind} {name!r}",
                code="bad_schema",
                location=where,
            )
        if kind == "table":
            if name in SQLITE_TABLES:
                continue
            if name not in SCHEMA:
                raise ProjectFileError(
                    f"not a Boardwright project: unknown table {name!r}",
                    code="bad_schema",
                    location=where,
                )
            if sql and sql.lstrip().upper().startswith("CREATE VIRTUAL"):
                raise ProjectFileError(
                    f"not a Boardwright project: {name!r} is a virtual table",
                    code="bad_schema",
                    location=where,
                )
            tables.add(name)
    if "meta" not in tables:
        raise ProjectFileError(
            "a SQLite file, but not a Boardwright project (no meta table)",
            code="bad_schema",
            location=where,
        )
    for name in tables:
        cols = conn.execute(f'PRAGMA table_xinfo("{name}")').fetchall()
        for col in cols:
            cname, hidden = col[1], col[6]
            if hidden:
                raise ProjectFileError(
                    f"not a Boardwright project: {name}.{cname} is a generated or hidden column",
                    code="bad_schema",
                    location=where,
                )
            if cname not in SCHEMA[name]:
                raise ProjectFileError(
                    f"not a Boardwright project: unknown column {name}.{cname}",
                    code="bad_schema",
                    location=where,
                )
        n = conn.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
        if n > MAX_FEATURES:
            raise ProjectFileError(
                f"table {name} has {n} rows (limit {MAX_FEATURES})",
                code="too_large",
                location=where,
            )
    total = 0
    for name, columns in JSON_COLUMNS.items():
        if name in tables:
            lengths = " + ".join(f'coalesce(length("{c}"), 0)' for c in columns)
            total += conn.execute(f'SELECT coalesce(sum({lengths}), 0) FROM "{name}"').fetchone()[0]
    if total > MAX_PROJECT_BYTES:
        raise ProjectFileError(
            f"{total} bytes of project content is too large (limit {MAX_PROJECT_BYTES} bytes)",
            code="too_large",
            location=where,
        )


def load_sqlite(path: str | os.PathLike[str]) -> Board:
    """Read a SQLite project file (read-only, creating no file; see :func:`sqlite_uri`)."""
    p = Path(path)
    where = str(p)
    _regular(p)
    wal = Path(f"{p}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise ProjectFileError(
            f"has unmerged changes in {wal.name} (another program has it open, or "
            "crashed); close that program, or merge them with "
            "`sqlite3 FILE 'PRAGMA wal_checkpoint'`",
            code="wal_pending",
            location=where,
        )
    try:
        conn = sqlite3.connect(sqlite_uri(p), uri=True)
    except sqlite3.Error as exc:
        raise ProjectFileError(f"cannot open SQLite file: {exc}", location=where) from None
    try:
        conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_CELL_BYTES)
        check_schema(conn, where)
        db = sqlite_utils.Database(conn)
        names = set(db.table_names())
        need = set(REQUIRED_TABLES)

        def cell(value: Any, place: str) -> Any:
            if isinstance(value, bytes):
                value = value.decode("utf-8", "replace")
            if not isinstance(value, str):
                raise ProjectFileError(
                    f"{place}: expected JSON text, found {type(value).__name__}",
                    code="corrupt",
                    location=where,
                )
            return loads_json(value, f"{where} {place}", error=ProjectFileError)

        meta_rows = {
            r["key"]: cell(r["value"], f"meta[{r['key']!r}]")
            for r in db.table("meta").rows
            if r["key"] in ("format", "version", "meta", "background")
        }
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
        for r in db.table("assets").rows_where(order_by="ord"):
            if r["kind"] in assets:
                assets[r["kind"]].append(cell(r["data"], f"assets[{r['key']!r}]"))
        data = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "meta": meta_rows.get("meta", {}),
            "assets": assets,
            "placements": [
                {"id": r["id"], "tile": r["tile"], "x": r["x"], "y": r["y"], "turns": r["turns"]}
                for r in db.table("placements").rows_where(order_by="ord")
            ],
            "features": [
                {
                    "id": r["id"],
                    "kind": r["kind"],
                    "geometry": cell(r["geometry"], f"features[{i}].geometry"),
                    "props": cell(r["props"], f"features[{i}].props"),
                }
                for i, r in enumerate(db.table("features").rows_where(order_by="ord"))
            ],
            "pieces": [
                {
                    "id": r["id"],
                    "piece": r["piece"],
                    "at": r["at"],
                    "props": cell(r["props"], f"pieces[{i}].props"),
                }
                for i, r in enumerate(db.table("pieces").rows_where(order_by="ord"))
            ],
            "games": [
                cell(r["data"], f"games[{i}]")
                for i, r in enumerate(db.table("games").rows_where(order_by="ord"))
            ],
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
    except (TypeError, KeyError, ValueError) as exc:
        if isinstance(exc, BoardwrightError):
            raise
        raise ProjectFileError(
            f"corrupt project content ({type(exc).__name__}: {exc})", code="corrupt", location=where
        ) from None
    finally:
        conn.close()
    board = Board.from_json(data, where)
    board.images.sources.append(SqliteBlobs(p))
    return board


def _regular(p: Path) -> os.stat_result:
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise ProjectFileError("no such file", code="not_found", location=str(p)) from None
    except OSError as exc:
        raise ProjectFileError(f"cannot read: {exc.strerror}", location=str(p)) from None
    if stat.S_ISDIR(st.st_mode):
        raise ProjectFileError("is a directory", location=str(p))
    if not stat.S_ISREG(st.st_mode):
        raise ProjectFileError(
            "not a regular file (a FIFO, socket or device is refused)",
            code="not_regular",
            location=str(p),
        )
    return st


def load_project(path: str | os.PathLike[str]) -> Board:
    """Load a project from its SQLite file or its JSON export (detected by content).

    A directory is accepted too when it holds exactly one project file (e.g.
    ``projects/ringgeister``). Only regular files are opened: a FIFO or a device is
    refused at once. Files larger than :data:`MAX_PROJECT_BYTES` are refused.
    """
    p = Path(path)
    if p.is_dir():
        p = _project_in_dir(p)
    _regular(p)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise ProjectFileError(f"cannot read: {exc.strerror}", location=str(p)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped since the stat
            raise ProjectFileError("not a regular file", code="not_regular", location=str(p))
        head = os.read(fd, 16)
    except OSError as exc:
        raise ProjectFileError(f"cannot read: {exc.strerror}", location=str(p)) from None
    finally:
        os.close(fd)
    if head == SQLITE_MAGIC:
        return load_sqlite(p)
    if head.lstrip()[:1] in (b"{", b"["):
        return import_json(p)
    if not head:
        raise ProjectFileError("empty file, not a project", code="corrupt", location=str(p))
    raise ProjectFileError("not a Boardwright project (neither SQLite nor JSON)", location=str(p))


def save_board(board: Board, path: str | os.PathLike[str]) -> None:
    """Write ``board`` back to ``path`` in the form the file has: a SQLite project
    (:func:`save_project`) or a JSON export (:func:`export_json`); a file that does not
    exist yet takes the form its suffix says (``.json``: an export)."""
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            is_sqlite = fh.read(16) == SQLITE_MAGIC
    except OSError:
        is_sqlite = p.suffix != ".json"
    if is_sqlite:
        save_project(board, p)
    else:
        export_json(board, p)


def _project_in_dir(d: Path) -> Path:
    """The project file of folder ``d``: its only ``*.bwproj``, else its only ``*.json``.

    Among several, the one named after the folder (``painted-tiles/painted-tiles.bwproj``)
    is the folder's project; with none so named, the folder is ambiguous and says so.
    """
    for pattern in ("*.bwproj", "*.json"):
        cands = sorted(d.glob(pattern))
        if len(cands) == 1:
            return cands[0]
        named = [c for c in cands if c.stem == d.resolve().name]
        if named:
            return named[0]
        if len(cands) > 1:
            names = ", ".join(c.name for c in cands[:5]) + (", …" if len(cands) > 5 else "")
            raise ProjectFileError(
                f"folder holds {len(cands)} project files ({names}); name the one to use",
                code="ambiguous",
                location=str(d),
            )
    raise ProjectFileError(
        "directory holds no project file (*.bwproj or *.json)", code="not_found", location=str(d)
    )


def _atomic_write_text(path: Path, text: str) -> None:
    """Kept for callers of the old name: :func:`referee.safeio.atomic_write`."""
    atomic_write(path, text)
