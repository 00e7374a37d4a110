"""Files of the main window: open, save, import/export, recent files, autosave, recovery.

:class:`FileActions` is mixed into :class:`~editor.mainwindow.MainWindow`; it keeps
the promise that the editor never loses work:

- a board is opened only if it can also be written back (a board that loads can
  always be saved), so Save never meets a value it cannot store;
- every save, autosave or export failure — whatever raised it — is shown in a
  dialog, and the window, the board and the unsaved marker stay as they were;
  closing with a failed save keeps the window open;
- an autosave records which project it belongs to (its path and the document's id)
  and is offered back only for that project: an untitled board's autosave is
  offered when the editor starts without a project, never when an unrelated JSON
  export is opened.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import glob
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRectF, QSettings, QStandardPaths, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

from referee.errors import BoardwrightError
from referee.images import FolderBlobs, SqliteBlobs
from referee.model import Board
from referee.safeio import atomic_write, dumps_json
from referee.store import (
    check_savable,
    export_json,
    images_dir,
    import_json,
    load_project,
    read_json_file,
    save_project,
)

from .document import new_board
from .recovery import Autosave, RecoveryDialog, move_aside, read_all, remove_autosave

if TYPE_CHECKING:
    from .canvas import BoardScene, BoardView
    from .document import Document

APP_NAME = "Boardwright"
MAX_RECENT = 8
PROJECT_FILTER = "Boardwright projects (*.bwproj);;JSON export (*.json);;All files (*)"

#: the ``format`` of an autosave side file
AUTOSAVE_FORMAT = "boardwright-autosave"
AUTOSAVE_VERSION = 1


def app_data_dir() -> Path:
    """The folder for untitled boards' autosaves (created on demand):
    ``$BOARDWRIGHT_DATA_DIR`` when set, else the platform's application data folder."""
    chosen = os.environ.get("BOARDWRIGHT_DATA_DIR")
    base = Path(
        chosen
        or QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
        or Path.home() / ".boardwright"
    )
    base.mkdir(parents=True, exist_ok=True)
    return base


def autosave_path_for(path: Path | None, document_id: str = "") -> Path:
    """The side file an autosave goes to.

    ``<project>.autosave.json`` beside a saved project; for a board with no project
    file, ``untitled-<document id>.autosave.json`` in the application data folder, so
    two untitled boards (or two editors) never share one.
    """
    if path is not None:
        return path.with_name(path.name + ".autosave.json")
    return app_data_dir() / f"untitled-{document_id or 'board'}.autosave.json"


def read_autosave(side: Path) -> tuple[dict[str, Any], Board]:
    """Read an autosave side file: its header (``project``, ``document``, ``saved``)
    and the board. Raises :class:`BoardwrightError` on anything unreadable.

    A side file written before autosaves had a header (a plain JSON export) reads
    with an empty header.
    """
    data = read_json_file(side)
    if isinstance(data, dict) and data.get("format") == AUTOSAVE_FORMAT:
        header = {k: data.get(k) for k in ("project", "document", "saved")}
        return header, Board.from_json(data.get("board"), where=str(side))
    return {}, Board.from_json(data, where=str(side))


#: SQLite stores integers in 64 bits
_SQLITE_INT = (-(2**63), 2**63 - 1)


def _too_large(value: Any, where: str) -> str | None:
    """The first place in JSON-ready ``value`` holding an integer SQLite cannot store."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return where if not _SQLITE_INT[0] <= value <= _SQLITE_INT[1] else None
    if isinstance(value, dict):
        for k, v in value.items():
            hit = _too_large(v, f"{where}.{k}")
            if hit:
                return hit
    elif isinstance(value, list):
        for i, v in enumerate(value):
            hit = _too_large(v, f"{where}[{i}]")
            if hit:
                return hit
    return None


def check_writable(board: Board) -> None:
    """Raise :class:`BoardwrightError` if ``board`` could not be saved as it is.

    A project file holds the board's JSON form (no NaN or infinity) and SQLite
    integers (64 bits): a board that passes both can always be saved, so a value
    that could not be stored is refused when the board is opened, not when work
    is at stake.

    Notes
    -----
    One JSON serialisation and one walk over it: O(size of the board), pictures
    not included (their bytes are never touched).
    """
    try:
        check_savable(board)
    except BoardwrightError as exc:
        raise BoardwrightError(
            f"this board cannot be saved as it is ({exc})", code="unsavable"
        ) from None
    where = _too_large(board.to_json(), "project")
    if where:
        raise BoardwrightError(
            f"this board holds a number too large to save at {where}", code="unsavable"
        )


class FileActions:
    """File handling of the main window (see the module docstring)."""

    # provided by MainWindow
    doc: Document
    scene: BoardScene
    view: BoardView
    settings: QSettings
    recent_menu: Any

    if TYPE_CHECKING:

        def ask(
            self, kind: str, title: str, text: str, buttons: Any = None, default: Any = None
        ) -> Any: ...
        def status(self, message: str, ms: int = 6000) -> None: ...
        def set_board(self, board: Board, path: Path | str | None) -> None: ...
        def _update_title(self) -> None: ...

    _autosave_failed = False
    #: this window wrote the current side file (only then does closing remove it)
    _wrote_autosave = False

    # ================================================================== open
    def maybe_save(self) -> bool:
        """Ask what to do with unsaved changes; False means: keep the window as it is
        (the user cancelled, or the save failed and said why)."""
        if not self.doc.modified:
            return True
        B = QMessageBox.StandardButton
        ans = self.ask(
            "question",
            APP_NAME,
            f"“{self.doc.title}” has unsaved changes. Save them?",
            B.Save | B.Discard | B.Cancel,
            B.Save,
        )
        if ans == B.Save:
            return self.file_save()
        return bool(ans == B.Discard)

    def file_new(self) -> None:
        if self.maybe_save():
            self._clear_autosave()
            self.set_board(new_board(), None)

    def file_open(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(
            None, "Open project", self._last_dir(), PROJECT_FILTER
        )
        if path:
            self.open_path(path)

    def file_import_json(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(
            None, "Import JSON", self._last_dir(), "JSON export (*.json);;All files (*)"
        )
        if not path:
            return
        try:
            board = import_json(path)
            check_writable(board)
        except BoardwrightError as exc:
            self.ask("critical", "Cannot import", f"{exc}\n\nNothing was changed.")
            return
        self.set_board(board, None)
        self.status(f"Imported {path}; Save As to keep it as a project")

    def open_path(self, path: str | os.PathLike[str], offer_recovery: bool = True) -> bool:
        """Open a project; on a corrupt, foreign or unsavable file show why and change
        nothing."""
        p = Path(path)
        try:
            board = load_project(p)
            check_writable(board)
        except BoardwrightError as exc:
            self.ask("critical", "Cannot open project", f"{exc}\n\nNothing was changed.")
            return False
        except Exception as exc:  # a file we cannot make sense of at all
            self.ask(
                "critical",
                "Cannot open project",
                f"{p}: not a readable Boardwright project ({type(exc).__name__}: {exc})"
                "\n\nNothing was changed.",
            )
            return False
        if p.is_dir():
            from referee.store import _project_in_dir

            p = _project_in_dir(p)
        if p.suffix == ".json":
            # an export has no project of its own: no autosave belongs to it
            self.set_board(board, None)
            self.status(f"Opened the JSON export {p.name}; Save As to keep it as a project")
        else:
            self.set_board(board, p)
            if offer_recovery:
                self.offer_recovery()
        self._add_recent(str(p))
        return True

    # ================================================================== save
    def file_save(self) -> bool:
        if self.doc.path is None or self.doc.path.suffix == ".json":
            return self.file_save_as()
        return self.save_to(self.doc.path)

    def file_save_as(self) -> bool:
        start = str(self.doc.path or Path(self._last_dir()) / f"{self.doc.board.name}.bwproj")
        path, _ = QFileDialog.getSaveFileName(
            None, "Save project as", start, "Boardwright projects (*.bwproj)"
        )
        if not path:
            return False
        if not path.endswith(".bwproj"):
            path += ".bwproj"
        return self.save_to(Path(path))

    def save_to(self, path: Path) -> bool:
        """Save the board to ``path``; on any failure say why and keep everything
        (board, undo history, unsaved marker) as it was."""
        old_side = self.autosave_path
        meta = self.doc.board.meta
        # a board saved for the first time (no file yet) takes its file's name, not
        # "untitled"; a board opened from a file keeps the name it has there
        unnamed = (
            self.doc.path is None and meta.get("name") in (None, "", "untitled"),
            meta.get("name"),
        )
        if unnamed[0]:
            meta["name"] = Path(path).stem
        try:
            save_project(self.doc.board, path)
        except BoardwrightError as exc:
            self._unname(unnamed)
            self.ask("critical", "Cannot save", f"{path}: {exc}\n\nYour board is still open.")
            return False
        except OSError as exc:
            self._unname(unnamed)
            self.ask(
                "critical",
                "Cannot save",
                f"{path}: {exc.strerror or exc}\n\nYour board is still open.",
            )
            return False
        except Exception as exc:
            self._unname(unnamed)
            self.ask(
                "critical",
                "Cannot save",
                f"{path}: {type(exc).__name__}: {exc}\n\nYour board is still open.",
            )
            return False
        with contextlib.suppress(OSError):
            old_side.unlink()
        self.doc.set_path(path)
        self._clear_autosave()
        self.doc.mark_saved()
        self._add_recent(str(path))
        self.status(f"Saved {path}")
        return True

    # ================================================================== export
    def _unname(self, unnamed: tuple[bool, Any]) -> None:
        """A failed save leaves the board exactly as it was (its name included)."""
        if unnamed[0]:
            if unnamed[1] is None:
                self.doc.board.meta.pop("name", None)
            else:
                self.doc.board.meta["name"] = unnamed[1]

    def file_export_json(self) -> None:
        start = str(Path(self._last_dir()) / f"{self.doc.board.name}.json")
        path, _ = QFileDialog.getSaveFileName(None, "Export JSON", start, "JSON (*.json)")
        if path:
            try:
                export_json(self.doc.board, path)
            except (OSError, ValueError, BoardwrightError) as exc:
                self.ask("critical", "Cannot export", f"{path}: {exc}")
                return
            self.status(f"Exported {path}")

    def file_export_format(self, fmt: str) -> list[Path]:
        """File ▸ Export as ▸ <format>: the referee's exporter (as ``referee export --to``)
        on the board as it is; returns the files written."""
        from referee.export import EXPORTERS, write_export

        ex = EXPORTERS[fmt]
        start = str(Path(self._last_dir()) / f"{self.doc.board.name}{ex.suffix}")
        path, _ = QFileDialog.getSaveFileName(
            None, f"Export {fmt}", start, f"{fmt} (*{ex.suffix});;All files (*)"
        )
        if not path:
            return []
        self.doc.recompile_now()
        try:
            written = write_export(self.doc.compiled, fmt, path)
        except (OSError, ValueError, BoardwrightError) as exc:
            self.ask("critical", "Cannot export", f"{path}: {exc}")
            return []
        self.status(f"Exported {', '.join(p.name for p in written)}")
        return written

    def file_export_picture(self, fmt: str) -> None:
        start = str(Path(self._last_dir()) / f"{self.doc.board.name}.{fmt}")
        path, _ = QFileDialog.getSaveFileName(
            None, f"Export {fmt.upper()}", start, f"{fmt.upper()} (*.{fmt})"
        )
        if path:
            self.export_picture(Path(path), fmt)

    def export_picture(self, path: Path, fmt: str, px_per_mm: float = 4.0) -> None:
        """Write the board as drawn on the canvas (PNG), or the referee's SVG drawing."""
        if fmt == "svg":
            try:
                from referee.export.picture import render_svg

                self.doc.recompile_now()
                atomic_write(path, render_svg(self.doc.compiled))
            except Exception as exc:
                self.ask("critical", "Cannot export SVG", f"{path}: {exc}")
                return
            self.status(f"Exported {path}")
            return
        r = self.scene.board_rect()
        img = QImage(
            int(r.width() * px_per_mm), int(r.height() * px_per_mm), QImage.Format.Format_ARGB32
        )
        img.fill(Qt.GlobalColor.white)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.scene.markers.setVisible(False)
        self.scene.preview.setVisible(False)
        self.scene.render(p, QRectF(img.rect()), r)
        self.scene.markers.setVisible(True)
        self.scene.preview.setVisible(True)
        p.end()
        if not img.save(str(path)):
            self.ask("critical", "Cannot export PNG", f"{path}: could not write the file")
            return
        self.status(f"Exported {path}")

    # ================================================================== recent files
    def _last_dir(self) -> str:
        if self.doc.path is not None:
            return str(self.doc.path.parent)
        return str(self.settings.value("last_dir", str(Path.cwd())))

    def _recent(self) -> list[str]:
        v = self.settings.value("recent_files", [])
        if isinstance(v, str):
            return [v]
        return [str(x) for x in v] if isinstance(v, list | tuple) else []

    def _add_recent(self, path: str) -> None:
        path = str(Path(path).resolve())
        lst = [path] + [p for p in self._recent() if p != path]
        self.settings.setValue("recent_files", lst[:MAX_RECENT])
        self.settings.setValue("last_dir", str(Path(path).parent))
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        items = self._recent()
        for p in items:
            a = self.recent_menu.addAction(Path(p).name)
            a.setToolTip(p)
            a.triggered.connect(lambda _c=False, path=p: self.maybe_save() and self.open_path(path))
        self.recent_menu.setEnabled(bool(items))

    # ================================================================== autosave
    @property
    def autosave_path(self) -> Path:
        return autosave_path_for(self.doc.path, self.doc.document_id)

    def autosave(self) -> Path | None:
        """Write the board to its side file if it has unsaved changes.

        The side file records the project path and the document id it belongs to.
        A failure is shown once (not every minute) and changes nothing else.
        """
        if not self.doc.modified:
            return None
        target = self.autosave_path
        try:
            envelope = {
                "format": AUTOSAVE_FORMAT,
                "version": AUTOSAVE_VERSION,
                "project": str(self.doc.path.resolve()) if self.doc.path else None,
                "document": self.doc.document_id,
                "saved": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
                "board": self.doc.board.to_json(),
            }
            text = dumps_json(envelope, str(target), indent=1) + "\n"
            # pictures added since the last save live only in memory: they go
            # beside the side file (those already in the project file stay there)
            fresh = self.doc.board.images.unsaved_ids()
            if fresh:
                self.doc.board.images.write_folder(images_dir(target), fresh)
            atomic_write(target, text)
        except Exception as exc:
            self.status(f"Autosave failed: {exc}")
            if not self._autosave_failed:
                self.ask(
                    "warning",
                    "Autosave failed",
                    f"{target}: {exc}\n\nYour board is still open; save it to keep it.",
                )
            self._autosave_failed = True
            return None
        self._autosave_failed = False
        self._wrote_autosave = True
        self.status(f"Autosaved to {target.name}", 3000)
        return target

    def _clear_autosave(self) -> None:
        remove_autosave(self.autosave_path)
        self._wrote_autosave = False

    def _clear_own_autosave(self) -> None:
        """On close: remove the side file only if this window wrote it (a window
        that never autosaved leaves another session's side file alone)."""
        if self._wrote_autosave:
            self._clear_autosave()

    def _recovery_candidates(self) -> list[Autosave]:
        """The autosaves that belong to the open project (its side file, if newer than
        the project, and the ones kept for later), or — for the untitled board the editor
        starts with — every untitled autosave."""
        if self.doc.path is not None:
            side = self.autosave_path
            sides = sorted(
                side.parent.glob(glob.escape(side.name[: -len(".json")]) + ".kept-*.json")
            )
            if side.is_file() and not (
                self.doc.path.is_file() and side.stat().st_mtime < self.doc.path.stat().st_mtime
            ):
                sides.insert(0, side)
            found, bad = read_all(sides, read_autosave)
            if bad:
                self.ask("warning", "Cannot recover", "\n".join(bad))
            project = self.doc.path.resolve()
            # a side file copied along with another project is not this one's
            return [
                e
                for e in found
                if e.header.get("project") is None or Path(e.header["project"]) == project
            ]
        found, _bad = read_all(list(app_data_dir().glob("untitled-*.autosave.json")), read_autosave)
        return [e for e in found if e.header.get("project") is None]

    def file_recover(self) -> bool:
        """File ▸ Recover autosaves: the recovery dialog on demand."""
        if not self.maybe_save():
            return False
        if not self._recovery_candidates():
            self.status("No autosaves to recover")
            return False
        return self.offer_recovery()

    def run_dialog(self, dialog: QDialog) -> int:
        """Run a modal dialog (tests replace this to click its buttons)."""
        return int(dialog.exec())

    def offer_recovery(self) -> bool:
        """If autosaves of this project exist, list them all in one dialog: Restore one,
        Keep them for later, or Discard (confirmed). True if one was restored."""
        entries = self._recovery_candidates()
        if not entries:
            return False
        B = QMessageBox.StandardButton

        def confirm(text: str) -> bool:
            return bool(
                self.ask("question", "Discard autosave?", text, B.Yes | B.No, B.No) == B.Yes
            )

        dlg = RecoveryDialog(entries, confirm, self)  # type: ignore[arg-type]
        self.recovery_dialog = dlg
        self.run_dialog(dlg)
        own = self.autosave_path
        if dlg.choice != "restore" or dlg.chosen is None:
            left = [e for e in dlg.entries if e.side == own]
            for e in left:  # the next autosave would overwrite it: move it aside
                with contextlib.suppress(OSError):
                    move_aside(e.side)
            if dlg.entries:
                self.status(
                    f"Kept {len(dlg.entries)} autosave(s) for later: File ▸ Recover autosaves…"
                )
            return False
        chosen = dlg.chosen
        side, board = chosen.side, chosen.board
        # the project's own side file not chosen: keep it aside, or this board's next
        # autosave overwrites it
        for e in dlg.entries:
            if e is not chosen and e.side == own:
                with contextlib.suppress(OSError):
                    side_kept = move_aside(e.side)
                    if side == e.side:
                        side = side_kept
        path = self.doc.path
        if path is not None and path.is_file():
            # pictures saved before the crash are still in the project file
            board.images.sources.append(SqliteBlobs(path))
        board.images.sources.append(FolderBlobs(images_dir(side)))
        self.doc.replace_board(board, path)
        if path is None or side != own:
            # the recovered board autosaves under its own side file; keep the old
            # side file's pictures readable until then by loading them now
            for info in list(board.images):
                with contextlib.suppress(BoardwrightError):
                    board.images.add(board.images.data(info.id), info.name)
            remove_autosave(side)
        # recovered work is unsaved: mark the document modified
        self.doc.undo.resetClean()
        self._update_title()
        self.view.fit()
        self.status("Recovered the autosaved board; save it to keep it")
        return True
